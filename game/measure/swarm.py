"""A town of many residents against a many-slot server, in real time: the ``standin`` benchmark.

``python scripts/bench_swarm.py`` (or ``town bench --only standin``, a 10-resident quick form
with ``--quick``) builds a town of ``residents`` (the default town's twelve, or the imported
Smallville's 25 with ``--ville``, repeated under new first names: "Grace2 Okafor" is Grace
Okafor's clone, living in her home and working at her workplace), starts the stand-in server
(``game/measure/standin.py``, a separate process, so its CPU is not the engine's) unless
``--llm-url`` names a real one, and plays the town from ``start`` to ``until`` in real time at
the game's normal rate (a tick of 10 game seconds every 0.5 real seconds, ``game/engine/running/pace.py``)
with the game's own pace policy ("lead": the clock slows when the model lags), through the
game's own client (``ModelClient``: httpx, the priority scheduler, re-asks, accounting).

Measured:
- the engine's CPU per tick: ``time.thread_time()`` around ``Engine.step()`` (the thread that
  plays), and the whole process's CPU per tick (``time.process_time()``: the step, the minds'
  decision tasks, prompts, retrieval, parsing, the HTTP client);
- memory: the process's resident set (VmRSS) at the start and the end, its peak (ru_maxrss),
  and with ``tracemalloc`` the Python heap's peak;
- the slots: every 50 ms the client's open requests (in flight + queued in the scheduler) and
  open decisions (the engine's jobs); afterwards each sample's busy slots from the server's own
  log (each request's slot, start and end); "busy while work waits" is the busy share of all
  slots over the samples where a request was queued in the client, and "busy of what was open"
  the busy slots over min(slots, open requests) over the samples with a decision open;
- the clock: real seconds against the normal rate's, ticks slowed by the pace policy, the
  largest slow-down; the model-led share (the engine's ledger, from 07:00) and decision lag.

``speedup`` divides both the tick's 0.5 s and every latency of the stand-in by the same factor:
the town then runs as it would at the normal rate, ``speedup`` times faster; the engine's CPU per
tick is the same work in less time (harder on the CPU, not easier).  The docs say which was used.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

from game.measure.benchkit import clone_specs
from game.measure.swarmconfig import (
    DECODE_RATE,
    PREFILL_RATE,
    SwarmConfig,
    quick_config,
    standard_config,
)
from game.measure.swarmplay import play
from game.world.knowledge import among

ROOT = Path(__file__).resolve().parents[2]
__all__ = ["DECODE_RATE", "PREFILL_RATE", "SwarmConfig", "format_swarm", "make_town", "play", "quick_config",
           "run_swarm", "standard_config"]
def make_town(cfg: SwarmConfig, folder: Path) -> Path:
    """The town of ``cfg.residents`` under ``folder``: the base town's residents, repeated under new
    first names past its own number ("Grace2 Okafor" lives in Grace Okafor's home, works where she
    does and knows whom she knows); below its own number, the first ones, each knowing only those kept."""
    import shutil

    from game.world import default_town_path

    base = Path(cfg.town) if cfg.town else Path(default_town_path())
    if cfg.ville:
        from game.world.ville import import_ville

        base = folder / "ville"
        import_ville(cfg.ville, base)
    if cfg.per_block and cfg.residents > cfg.per_block:
        from game.measure.bigtown import big_town

        return big_town(base, cfg.residents, folder, cfg.per_block)
    dst = folder / "swarmtown"
    shutil.copytree(base, dst)
    data = json.loads((dst / "residents.json").read_text())
    out = clone_specs(list(data["residents"]), cfg.residents)
    names = {s["name"] for s in out}
    for s in out:
        if isinstance(s.get("relationships"), dict):
            s["relationships"] = {k: v for k, v in s["relationships"].items() if k in names}
    data["residents"] = out
    data = among(data, names)  # the town's events and roles for this cast only
    (dst / "residents.json").write_text(json.dumps(data))
    return dst


class StandInProcess:
    """``python -m game.measure.standin`` in its own process; ``url`` once it listens."""

    def __init__(self, cfg: SwarmConfig) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "game.measure.standin", "--slots", str(cfg.slots),
             "--prefill-rate", str(cfg.prefill_rate), "--decode-rate", str(cfg.decode_rate),
             "--speedup", str(cfg.speedup), "--refuse", str(cfg.refuse)]
            + (["--retry-after", str(cfg.retry_after)] if cfg.retry_after is not None else [])
            + (["--hide-slots"] if cfg.hide_slots else []),
            stdout=subprocess.PIPE, text=True, cwd=str(ROOT), env=env)
        assert self.proc.stdout is not None
        self.url = self.proc.stdout.readline().strip()
        if not self.url.startswith("http"):
            self.stop()
            raise RuntimeError("the stand-in server did not start")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def occupancy(samples: list[tuple[float, int, int, int]], log: list[list[float]], slots: int) -> dict:
    """Busy slots at each sample (t, decisions open, requests in flight, queued) from the server's
    log of requests (slot, start, end, ...)."""
    import numpy as np

    if not samples:
        return {}
    t = np.array([s[0] for s in samples])
    starts = np.sort(np.array([r[1] for r in log] or [0.0]))
    ends = np.sort(np.array([r[2] for r in log] or [0.0]))
    busy = (np.searchsorted(starts, t, side="right") - np.searchsorted(ends, t, side="right")) if log \
        else np.zeros(len(t))
    jobs = np.array([s[1] for s in samples])
    open_req = np.array([s[2] + s[3] for s in samples])
    queued = np.array([s[3] for s in samples])
    waiting = queued > 0
    deciding = jobs > 0
    want = np.minimum(open_req, slots)

    def share(mask: Any, num: Any, den: Any) -> float | None:
        d = float(np.sum(den[mask]))
        return round(float(np.sum(num[mask])) / d, 3) if d > 0 else None

    return {"samples": len(samples), "sample_every_s": 0.05,
            "busy_share_while_work_waits": share(waiting, busy, np.full(len(t), slots)),
            "share_of_samples_with_work_waiting": round(float(np.mean(waiting)), 3),
            "busy_of_open_requests_while_deciding": share(deciding, np.minimum(busy, want), want),
            "busy_share_while_deciding": share(deciding, busy, np.full(len(t), slots)),
            "busy_share_overall": round(float(np.mean(busy)) / slots, 3),
            "decisions_open_median": float(np.median(jobs)), "decisions_open_max": int(np.max(jobs)),
            "queued_max": int(np.max(queued))}


def real_server_occupancy(samples: list[tuple[float, int, int, int]], busy: list[tuple[float, int]],
                          slots: int) -> dict:
    """``occupancy`` for a real llama-server: its ``/slots`` polls against the client's samples
    nearest in time (the server keeps no log we can read)."""
    import bisect

    if not busy or not samples:
        return {"note": "no /slots from the server (not llama-server?): the client's figures only",
                "client_open_requests_max": max((s[2] + s[3] for s in samples), default=0)}
    times = [s[0] for s in samples]
    waiting = deciding = 0
    busy_waiting = busy_deciding = 0.0
    for t, n in busy:
        i = max(0, bisect.bisect_right(times, t) - 1)  # the client's sample at or before the poll
        _, jobs, flight, queued = samples[i]
        if queued > 0:
            waiting += 1
            busy_waiting += n / slots
        if jobs > 0:
            deciding += 1
            busy_deciding += min(n, flight + queued) / max(1, min(slots, flight + queued))
    return {"polls": len(busy), "poll_every_s": 0.25,
            "busy_share_while_work_waits": round(busy_waiting / waiting, 3) if waiting else None,
            "share_of_polls_with_work_waiting": round(waiting / len(busy), 3),
            "busy_of_open_requests_while_deciding": round(busy_deciding / deciding, 3) if deciding else None,
            "busy_share_overall": round(sum(n for _, n in busy) / len(busy) / slots, 3)}


def fetch_stats(url: str) -> dict | None:
    import httpx

    root = url[:-3] if url.endswith("/v1") else url
    try:
        r = httpx.get(f"{root}/stats", timeout=30)
        return r.json() if r.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None


def run_swarm(cfg: SwarmConfig, machine: dict | None = None) -> dict:
    """Build the town, start the stand-in (unless ``llm_url``), play, and gather the figures;
    ``machine``: what ``game.measure.bench.machine()`` says of this machine (the callers give it)."""
    server: StandInProcess | None = None
    with tempfile.TemporaryDirectory(prefix="town-swarm-") as tmp:
        town = make_town(cfg, Path(tmp))
        try:
            if cfg.llm_url is None or cfg.embed_url is None:
                server = StandInProcess(cfg)
            chat_url = cfg.llm_url or (server.url if server else "")
            embed_url = cfg.embed_url or (server.url if server else "")
            load0 = os.getloadavg()[0]
            out = asyncio.run(play(cfg, town, chat_url, embed_url))
            stats = fetch_stats(chat_url) if cfg.llm_url is None else None
        finally:
            if server is not None:
                server.stop()
    everything = out.pop("_samples")
    clock_from = out.pop("_clock_from")
    # the slots while the clock ran (the day plans before it apart: ``slots_before_the_clock``)
    samples = [x for x in everything if x[0] >= clock_from]
    server_busy = out.pop("_server_busy")
    if stats is not None:
        log = stats["requests"]
        out["slots"] = occupancy(samples, log, int(stats["slots"]))
        out["slots_before_the_clock"] = occupancy([x for x in everything if x[0] < clock_from], log,
                                                  int(stats["slots"]))
        out["server"] = {"kind": "stand-in", "slots": stats["slots"], "prefill_tokens_per_s": stats["prefill_rate"],
                         "decode_tokens_per_s_per_slot": stats["decode_rate"], "speedup": stats["speedup"],
                         "requests": len(log), "refused": stats.get("refused", 0),
                         "hide_slots": stats.get("hide_slots", False),
                         "prompt_tokens_sent": int(sum(r[3] for r in log)),
                         "prompt_tokens_evaluated": int(sum(r[4] for r in log)),
                         "completion_tokens": int(sum(r[5] for r in log)),
                         "request_s_median": round(statistics.median([r[2] - r[1] for r in log]), 2) if log else None}
    else:
        out["server"] = {"kind": "given", "url": cfg.llm_url}
        out["slots"] = real_server_occupancy(samples, server_busy, out["scheduler_slots"])
    m = dict(machine or {})
    m["load_1min_at_start"] = round(load0, 2)
    out["machine"] = m
    out["config"] = {k: v for k, v in asdict(cfg).items() if k != "extra"}
    return out


def format_swarm(r: dict) -> str:
    s, sv, ml = r.get("slots", {}), r.get("server", {}), r.get("model_led", {})
    lines = [f"{r['residents']} residents {r['from']}-{r['until']} ({r['ticks']} ticks) in {r['real_s']} s real "
             f"against {r['normal_rate_s']} s at the normal rate (x{r['real_over_normal']}); slowed on "
             f"{r['ticks_slowed']} ticks (at most x{r['slowest_factor']}"
             + (f"; by game half-hour {r['ticks_slowed_by_half_hour']})"
                if r.get("ticks_slowed_by_half_hour") else ")"),
             f"before the clock: the first day plans, {r.get('prepare_s')} s (slots busy while work waited: "
             f"{r.get('slots_before_the_clock', {}).get('busy_share_while_work_waits')})",
             f"engine CPU per tick: step median {r['step_cpu_ms_median']} ms (p95 {r['step_cpu_ms_p95']}, max "
             f"{r['step_cpu_ms_max']}); whole process median {r['process_cpu_ms_per_tick_median']} ms (p95 "
             f"{r['process_cpu_ms_per_tick_p95']}), {r['process_cpu_share_of_real']:.0%} of one core",
             f"memory: RSS {r['rss_mb_before_town']} MB before the town, {r['rss_mb_town_built']} built, "
             f"{r['rss_mb_end']} at the end, peak {r['rss_mb_peak']}"
             + (f"; Python heap now/peak {r['tracemalloc_mb_now_peak']} MB"
                if r.get("tracemalloc_mb_now_peak") else ""),
             f"model-led {ml.get('model_led_share')} (since {ml.get('since')}), lag p50 "
             f"{ml.get('decision_lag_p50_min')} / p90 {ml.get('decision_lag_p90_min')} min, lowest "
             f"{r.get('model_led_lowest')}; {r['chat_calls']} chat calls, {r['chat_failures']} failed, "
             f"{r['engine_errors']} engine errors"]
    if sv.get("kind") == "stand-in":
        lines.append(f"server: stand-in, {sv['slots']} slots, prefill {sv['prefill_tokens_per_s']} t/s, decode "
                     f"{sv['decode_tokens_per_s_per_slot']} t/s a slot, speedup {sv['speedup']}; {sv['requests']} "
                     f"requests, median {sv['request_s_median']} s")
        lines.append(f"slots busy while work waited in the client: {s.get('busy_share_while_work_waits')} "
                     f"({s.get('share_of_samples_with_work_waiting')} of the time); of the open requests while "
                     f"decisions were open: {s.get('busy_of_open_requests_while_deciding')}; overall "
                     f"{s.get('busy_share_overall')}; decisions open median {s.get('decisions_open_median')}, max "
                     f"{s.get('decisions_open_max')}")
        th = r.get("throttle", {})
        how = "stated" if th.get("stated") else "found"
        lines.append(f"client: {th.get('limit')} in flight at most at the end ({how}, lowest {th.get('lowest')}); "
                     f"the stand-in refused {sv.get('refused', 0)} requests, "
                     f"{r.get('refusals_asked_again', 0)} asked again, {r.get('calls_given_up_refused', 0)} given up")
    return "\n".join(lines)
