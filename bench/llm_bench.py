"""Benchmark the model layer at the game's own prompt shapes (not a test; numbers go to docs/MODEL.md).

    .venv/bin/python bench/llm_bench.py                       # the embedded default model
    .venv/bin/python bench/llm_bench.py --test-model          # the embedded SmolLM2-135M
    .venv/bin/python bench/llm_bench.py --llm-url http://127.0.0.1:8377/v1 --parallel 1,4 --calls 4

For each level of parallelism N it runs ``--calls`` structured calls through ``ModelClient``
(N at a time, the scheduler in front), each a ~900-token prompt (a resident's identity, recent
memories and the day so far, varied per call so the server's prompt cache does not flatter it)
answered by a ~120-token JSON action list.  It reports calls/min, aggregate generated tokens/s,
per-request prompt and generation speed (llama-server's own timings), and slot utilisation
(the client's in-flight count and, for llama-server, its /slots endpoint sampled every 0.2 s).
It also times the in-process MiniLM embedder.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

import httpx
from pydantic import BaseModel, Field

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.llm.api import BadAnswer, CallTag, LLMError, Message, Priority  # noqa: E402
from game.llm.config import LLMConfig  # noqa: E402
from game.llm.session import open_llm  # noqa: E402

NAMES = ["Isabella", "Klaus", "Maria", "Tom", "Ayesha", "Sam", "Jennifer", "Carlos", "Yuriko", "Eddy"]
PLACES = ["Hobbs Cafe", "the Oak Hill College library", "the Willows Market", "Johnson Park",
          "the Lin family's house", "The Rose and Crown Pub", "the pharmacy", "the supply store"]
DOINGS = ["is brewing coffee", "is reading about gentrification", "is sweeping the floor",
          "is talking about the mayoral election", "is painting a landscape", "is stacking shelves",
          "is writing a research paper", "is planning a Valentine's Day party", "is taking a walk"]


class Act(BaseModel):
    description: str = Field(max_length=60)
    emoji: str = Field(max_length=4)
    minutes: int


class Decomposition(BaseModel):
    actions: list[Act] = Field(min_length=3, max_length=4)


def prompt(i: int, target_tokens: int) -> list[Message]:
    rnd = random.Random(i)
    me = NAMES[i % len(NAMES)]
    system = (f"You are {me}, a resident of a small town. You decide what you do next. "
              "Answer with one JSON object that follows the schema, and nothing else.")
    lines = [f"Identity: {me} is {rnd.randint(20, 70)} years old, friendly, curious and hard-working. "
             f"{me} works at {rnd.choice(PLACES)} and lives with family near {rnd.choice(PLACES)}.",
             "Recent memories:"]
    # ~4 characters a token: grow the memory list to the target size
    while sum(len(x) for x in lines) < target_tokens * 4 - 400:
        h = rnd.randint(6, 11)
        lines.append(f"- {h:02d}:{rnd.randint(0, 59):02d} {rnd.choice(NAMES)} {rnd.choice(DOINGS)} "
                     f"at {rnd.choice(PLACES)}.")
    lines.append(f"It is {rnd.randint(7, 10)}:00. Break the next hour into 3 or 4 actions with an "
                 'emoji and minutes each. Example: {"actions": [{"description": "make tea", '
                 '"emoji": "🍵", "minutes": 10}, ...]}')
    return [Message("system", system), Message("user", "\n".join(lines))]


async def _sample_slots(llm, root: str, stop: asyncio.Event, out: dict) -> None:
    client_busy, server_busy = [], []
    async with httpx.AsyncClient(timeout=1.0) as http:
        while not stop.is_set():
            client_busy.append(llm.scheduler.in_flight / llm.scheduler.slots)
            try:
                r = await http.get(f"{root}/slots")
                if r.status_code == 200:
                    slots = r.json()
                    server_busy.append(sum(1 for s in slots if s.get("is_processing")) / len(slots))
            except (httpx.HTTPError, ValueError, ZeroDivisionError):
                pass
            try:
                await asyncio.wait_for(stop.wait(), 0.2)
            except TimeoutError:
                pass
    out["client_slot_use"] = round(statistics.mean(client_busy), 2) if client_busy else None
    out["server_slot_use"] = round(statistics.mean(server_busy), 2) if server_busy else None


async def level(llm, n: int, calls: int, prompt_tokens: int, answer_tokens: int, seed: int) -> dict:
    llm.scheduler.resize(n)
    acc0 = llm.accounting.total
    before = (acc0.calls, acc0.prompt_tokens, acc0.completion_tokens)
    llm.timings.clear()
    stop = asyncio.Event()
    util: dict = {}
    root = llm.base_url[:-3] if llm.base_url.endswith("/v1") else llm.base_url
    sampler = asyncio.create_task(_sample_slots(llm, root, stop, util))
    bad = 0
    failed: list[str] = []
    latencies: list[float] = []

    async def one(i: int) -> None:
        nonlocal bad
        t = time.monotonic()
        try:
            await llm.complete(prompt(seed + i, prompt_tokens), Decomposition,
                               CallTag("decompose", NAMES[i % len(NAMES)], Priority.PLAN),
                               max_tokens=answer_tokens * 2, temperature=0.7)
        except BadAnswer:
            bad += 1
        except LLMError as e:  # timeouts on an overloaded machine: count them, keep going
            failed.append(str(e))
        latencies.append(time.monotonic() - t)

    t0 = time.monotonic()
    await asyncio.gather(*(one(i) for i in range(calls)))
    wall = time.monotonic() - t0
    stop.set()
    await sampler
    acc = llm.accounting.total
    p_tok = acc.prompt_tokens - before[1]
    c_tok = acc.completion_tokens - before[2]
    t = list(llm.timings)
    pp = [a / (b / 1000) for a, b, _, _ in t if b > 0 and a > 0]
    tg = [c / (d / 1000) for _, _, c, d in t if d > 0]
    return {
        "parallel": n, "calls": calls, "http_requests": acc.calls - before[0], "bad_answers": bad,
        "failed": len(failed),
        "wall_s": round(wall, 1), "calls_per_min": round(calls / wall * 60, 2),
        "prompt_tokens_avg": round(p_tok / max(1, acc.calls - before[0])),
        "completion_tokens_avg": round(c_tok / max(1, acc.calls - before[0])),
        "generated_tokens_per_s": round(c_tok / wall, 1),
        "request_prompt_tokens_per_s": round(statistics.mean(pp), 1) if pp else None,
        "request_gen_tokens_per_s": round(statistics.mean(tg), 1) if tg else None,
        "latency_s_mean_incl_queue": round(statistics.mean(latencies), 1),
        **util,
    }


async def bench_embed(llm) -> dict:
    enc = getattr(getattr(llm, "embedder", None), "inner", None)
    if enc is None or not hasattr(enc, "encode"):
        return {}
    rnd = random.Random(1)
    texts = [f"{rnd.choice(NAMES)} {rnd.choice(DOINGS)} at {rnd.choice(PLACES)} ({i})" for i in range(256)]
    enc.encode(texts[:8])
    t = time.monotonic()
    enc.encode(texts)
    batch = time.monotonic() - t
    t = time.monotonic()
    for x in texts[:20]:
        enc.encode([x])
    single = (time.monotonic() - t) / 20
    return {"embed_model": enc.name, "embed_sentences_per_s_batch": round(len(texts) / batch, 1),
            "embed_single_ms": round(single * 1000, 1), "embed_dim": enc.dim}


async def main(args) -> dict:
    cfg = LLMConfig.from_env()
    if args.llm_url:
        cfg.llm_url = args.llm_url
    cfg.use_test_model = args.test_model
    levels = [int(x) for x in args.parallel.split(",")]
    cfg.slots = max(levels)
    cfg.timeout_s = args.timeout
    def progress(m):
        return (print(f"  {m}", file=sys.stderr, flush=True))
    out: dict = {"machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.platform()}",
                 "command": " ".join(["bench/llm_bench.py", *sys.argv[1:]]), "levels": []}
    async with open_llm(cfg, progress=progress) as llm:
        out["url"], out["model"] = llm.base_url, llm.model
        out.update(await bench_embed(llm))
        for i, n in enumerate(levels):
            calls = args.calls or (2 if n == 1 else 2 * n)
            print(f"  level parallel={n}: {calls} calls...", file=sys.stderr, flush=True)
            row = await level(llm, n, calls, args.prompt_tokens, args.answer_tokens, seed=1000 * i)
            print("  " + json.dumps(row), file=sys.stderr, flush=True)
            out["levels"].append(row)
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--llm-url", default=None)
    ap.add_argument("--test-model", action="store_true", help="embedded SmolLM2-135M instead of Qwen")
    ap.add_argument("--parallel", default="1,4", help="levels of parallelism (default 1,4)")
    ap.add_argument("--calls", type=int, default=0,
                    help="calls per level (default: 2 at parallel=1, 2N at parallel=N)")
    ap.add_argument("--timeout", type=float, default=900.0, help="per request, seconds")
    ap.add_argument("--prompt-tokens", type=int, default=900)
    ap.add_argument("--answer-tokens", type=int, default=120)
    a = ap.parse_args()
    result = asyncio.run(main(a))
    print(json.dumps(result, indent=1, ensure_ascii=False))
