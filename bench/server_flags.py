"""Compare the embedded llama-server's flags on the town's own requests (not a test: a measurement).

    .venv/bin/python bench/server_flags.py                         # the shipped flags and two others
    .venv/bin/python bench/server_flags.py --set "t2 b32: TOWN_LLM_THREADS=2" \
        --set "t2 default batches: TOWN_LLM_THREADS=2 TOWN_LLM_BATCH=2048 TOWN_LLM_UBATCH=512" \
        --concurrency 4 --passes 2 --json /tmp/flags.json [--play-latency]

Each flag set is a name and settings of ``game.llm.config.ServerFlags`` (the ``TOWN_LLM_*``
variables: threads, prompt threads, batch, micro-batch, slots, context per slot, cache-ram,
cache_prompt).  For each set the embedded server is started with those flags (the model of
``town play``, or SmolLM2 with ``--test-model``) and the recorded town requests (``--recordings``:
``tests/fixtures/mind/*.jsonl`` and ``tests/fixtures/ui/*.jsonl`` by default: real requests of
real runs) are replayed against it, ``--concurrency`` at a time through the game's own client and
scheduler (each request keeps its resident, purpose and priority, so slot affinity works as in
play).  Reported side by side: requests a minute, seconds per request, tokens sent, tokens
evaluated by the server (prompt tokens not served from its cache, plus completion; from
llama-server's timings) and failures.  With ``--passes 2`` the sets run A B, then B A (a fresh server each
time), so a machine that gets busier does not favour the first set.  ``--play-latency`` then runs
``bench/play_latency.py`` with each set's flags for the player's first words.

Measure on a quiet machine: nothing else using the model or the CPU; say the load with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.llm.accounting import Accounting  # noqa: E402
from game.llm.api import CallTag, LLMError, Priority  # noqa: E402
from game.llm.client import ModelClient, token_counts  # noqa: E402
from game.llm.config import LLMConfig, ServerFlags  # noqa: E402
from game.text import echo, one_line  # noqa: E402

DEFAULT_RECORDINGS = ("tests/fixtures/mind/*.jsonl", "tests/fixtures/ui/*.jsonl")
# the shipped flags, then the two that issue 15 measured as faster on 16 recorded requests
DEFAULT_SETS = ("shipped:", "t2 b32: TOWN_LLM_THREADS=2",
                "t2 default batches: TOWN_LLM_THREADS=2 TOWN_LLM_BATCH=2048 TOWN_LLM_UBATCH=512")


@dataclass
class Request:
    """One recorded request, as the game sent it."""

    tag: CallTag
    payload: dict[str, Any]


@dataclass
class FlagSet:
    name: str
    env: dict[str, str]
    flags: ServerFlags = field(default_factory=ServerFlags)


def parse_set(spec: str, base: dict[str, str] | None = None) -> FlagSet:
    """``"name: VAR=value VAR=value"`` (a ``TOWN_LLM_*`` setting each, or one of llama-server's own
    ``LLAMA_ARG_*`` variables, e.g. ``LLAMA_ARG_SPEC_TYPE=ngram-simple``) into a flag set."""
    name, _, rest = spec.partition(":")
    env: dict[str, str] = {}
    for item in rest.split():
        var, eq, value = item.partition("=")
        if eq and var.startswith("LLAMA_ARG_") and value:
            env[var] = value
            continue
        if not eq or var not in ServerFlags.ENV.values():
            raise ValueError(f"flag set '{name.strip()}': '{item}' is not VAR=value with VAR one of "
                             f"{', '.join(sorted(ServerFlags.ENV.values()))}")
        env[var] = value
    merged = {**(base or {}), **env}
    return FlagSet(name.strip() or "shipped", env, ServerFlags.from_env(merged))


def load_requests(patterns: list[str]) -> list[Request]:
    """The chat requests of recordings (``game.llm.record``), in recorded order; embeddings apart."""
    out: list[Request] = []
    paths = sorted({p for pat in patterns for p in (ROOT.glob(pat) if not Path(pat).is_absolute()
                                                    else Path(pat).parent.glob(Path(pat).name))})
    if not paths:
        raise ValueError(f"no recording matches {', '.join(patterns)}")
    for path in paths:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()[1:], start=2):
            try:
                row = json.loads(line)
            except ValueError:
                raise ValueError(f"{path}, line {n}: not JSON") from None
            if row.get("kind") not in ("complete", "stream"):
                continue
            req, t = row["request"], row.get("tag") or {}
            tag = CallTag(t.get("purpose", "?"), t.get("resident"), Priority(int(t.get("priority", 2))))
            payload: dict[str, Any] = {"messages": req["messages"], "max_tokens": req["max_tokens"],
                                       "temperature": req["temperature"]}
            if req.get("stop"):
                payload["stop"] = req["stop"]
            if req.get("schema") is not None:
                payload["response_format"] = {"type": "json_schema", "json_schema": {
                    "name": req.get("schema_name") or "answer", "schema": req["schema"], "strict": True}}
            out.append(Request(tag, payload))
    return out


async def replay(client: ModelClient, requests: list[Request], concurrency: int) -> dict[str, Any]:
    """Send every request, ``concurrency`` at a time; the figures of this pass."""
    acc = Accounting()
    queue: asyncio.Queue[Request] = asyncio.Queue()
    for r in requests:
        queue.put_nowait(r)
    errors: list[str] = []
    seconds: list[float] = []

    async def worker() -> None:
        while True:
            try:
                r = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            payload = dict(r.payload)
            if client.model:
                payload["model"] = client.model
            if client.cache_prompt is not None:
                payload["cache_prompt"] = client.cache_prompt
            try:
                data, s, retried = await client.link.post("/chat/completions", payload, r.tag)
            except LLMError as e:
                errors.append(one_line(e, 200))
                acc.record(r.tag, failed=True)
                continue
            seconds.append(s)
            acc.record(r.tag, **token_counts(data.get("usage"), data.get("timings")), latency_s=s,
                       retries=retried)

    t0 = time.monotonic()
    await asyncio.gather(*(worker() for _ in range(max(1, concurrency))))
    wall = time.monotonic() - t0
    total = acc.total
    done = total.calls - total.failures
    return {"requests": total.calls, "failures": total.failures, "wall_s": round(wall, 2),
            "requests_per_min": round(done / wall * 60, 2) if wall > 0 else 0.0,
            "median_s_per_request": round(statistics.median(seconds), 2) if seconds else None,
            "prompt_tokens_sent": total.prompt_tokens, "cached_tokens": total.cached_tokens,
            "tokens_evaluated": total.evaluated_tokens, "completion_tokens": total.completion_tokens,
            "evaluated_per_request": round(total.evaluated_tokens / done, 1) if done else None,
            "by_purpose": {p: {"calls": u.calls, "tokens_evaluated": u.evaluated_tokens,
                               "prompt_tokens_sent": u.prompt_tokens}
                           for p, u in sorted(acc.by_purpose().items())},
            "errors": errors[:5]}


async def run_set(fs: FlagSet, requests: list[Request], *, concurrency: int, test_model: bool,
                  progress: Any) -> dict[str, Any]:
    from game.llm.session import embedded_server

    env = {**os.environ, **fs.env}
    config = LLMConfig.from_env(env, use_test_model=test_model)
    config.server = fs.flags
    server = embedded_server(config)
    t0 = time.monotonic()
    server_own = {k: v for k, v in fs.env.items() if k.startswith("LLAMA_ARG_")}
    saved = {k: os.environ.get(k) for k in server_own}
    os.environ.update(server_own)  # the server process inherits them as it starts
    try:
        await server.start(progress)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    startup = time.monotonic() - t0
    client = ModelClient.from_config(config, base_url=server.url)
    try:
        await client.connect()
        # the scheduler's pause for the town after a player's request (so the player's next line
        # finds the server free) would measure the pause, not the server: off here
        client.scheduler.linger = 0.0
        figures = await replay(client, requests, concurrency)
    finally:
        await client.aclose()
        server.stop()
    return {"set": fs.name, "flags": fs.flags.to_dict(),
            "command": fs.flags.args() + [f"{k}={v}" for k, v in server_own.items()],
            "startup_s": round(startup, 1), **figures}


def play_latency(fs: FlagSet, extra: list[str]) -> dict[str, Any]:
    """The player's first words with this set's flags: bench/play_latency.py in its own process."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "latency.json"
        cmd = [sys.executable, str(ROOT / "bench" / "play_latency.py"), "--json", str(out), *extra]
        r = subprocess.run(cmd, env={**os.environ, **fs.flags.env()}, capture_output=True, text=True)
        if r.returncode != 0 or not out.exists():
            return {"error": one_line((r.stderr or r.stdout)[-300:])}
        return json.loads(out.read_text())


def table(results: list[dict[str, Any]]) -> list[str]:
    head = (f"{'flag set':<24}{'pass':>5}{'req/min':>9}{'s/req':>7}{'sent':>9}{'evaluated':>11}"
            f"{'cached':>9}{'eval/req':>10}{'fail':>6}  flags")
    lines = [head]
    for r in results:
        lines.append(f"{r['set'][:23]:<24}{r['pass']:>5}{r['requests_per_min']:>9}"
                     f"{r['median_s_per_request'] if r['median_s_per_request'] is not None else '-':>7}"
                     f"{r['prompt_tokens_sent']:>9}{r['tokens_evaluated']:>11}{r['cached_tokens']:>9}"
                     f"{r['evaluated_per_request'] if r['evaluated_per_request'] is not None else '-':>10}"
                     f"{r['failures']:>6}  {' '.join(r['command'])}")
        if r.get("play_latency"):
            lines.append(f"{'':<29}first words: {json.dumps(r['play_latency'])[:200]}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", action="append", default=None, metavar='"NAME: VAR=value ..."',
                    help="a flag set (repeatable); default: " + "; ".join(DEFAULT_SETS))
    ap.add_argument("--recordings", action="append", default=None, metavar="GLOB",
                    help="recordings to replay (default: " + ", ".join(DEFAULT_RECORDINGS) + ")")
    ap.add_argument("--concurrency", type=int, default=4, help="requests in flight (default 4)")
    ap.add_argument("--passes", type=int, default=1,
                    help="run the sets this many times, every other pass in reverse order")
    ap.add_argument("--limit", type=int, default=None, help="replay only the first N requests")
    ap.add_argument("--test-model", action="store_true", help="the small SmolLM2 model (a quick look)")
    ap.add_argument("--play-latency", action="store_true",
                    help="also run bench/play_latency.py with each set's flags (minutes per set)")
    ap.add_argument("--play-latency-args", default="--small --talks 2",
                    help="arguments for bench/play_latency.py (default: --small --talks 2)")
    ap.add_argument("--json", default=None, metavar="OUT", help="write the figures as JSON")
    args = ap.parse_args(argv)
    try:
        sets = [parse_set(s) for s in (args.set or DEFAULT_SETS)]
        requests = load_requests(args.recordings or list(DEFAULT_RECORDINGS))
    except ValueError as e:
        echo(f"server_flags: {e}", file=sys.stderr)
        return 2
    if args.limit:
        requests = requests[: args.limit]
    echo(f"{len(requests)} recorded requests, {args.concurrency} at a time, {len(sets)} flag sets, "
         f"{args.passes} pass(es); load average {os.getloadavg()[0]:.2f}", file=sys.stderr)
    results = []
    for p in range(1, max(1, args.passes) + 1):
        order = sets if p % 2 else list(reversed(sets))
        for fs in order:
            echo(f"pass {p}: {fs.name}: {' '.join(fs.flags.args())}", file=sys.stderr, flush=True)
            try:
                r = asyncio.run(run_set(fs, requests, concurrency=args.concurrency,
                                        test_model=args.test_model,
                                        progress=lambda m: echo(f"  {m}", file=sys.stderr)))
            except LLMError as e:
                echo(f"server_flags: {fs.name}: {e}", file=sys.stderr)
                return 1
            r["pass"] = p
            if args.play_latency:
                r["play_latency"] = play_latency(fs, args.play_latency_args.split())
            results.append(r)
    for line in table(results):
        echo(line)
    if args.json:
        Path(args.json).write_text(json.dumps({"load_average": os.getloadavg(), "requests": len(requests),
                                               "concurrency": args.concurrency, "results": results},
                                              indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
