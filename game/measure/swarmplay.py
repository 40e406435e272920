"""The ``standin`` benchmark's play (game/measure/swarm.py): the town in real time against a chat
server, at the normal rate with the game's pace policy, measured tick by tick."""

from __future__ import annotations

import asyncio
import json
import resource
import statistics
import time
import tracemalloc
from dataclasses import asdict
from datetime import datetime
from pathlib import Path

from game.engine.engine import Engine
from game.engine.running.pace import Governor
from game.llm.client import ModelClient
from game.measure.swarmconfig import NORMAL_TICK_S, SwarmConfig, rss_mb
from game.mind.mind import Mind


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def _window(town: Path, cfg: SwarmConfig) -> tuple[datetime, datetime]:
    data = json.loads((town / "residents.json").read_text())
    day0 = datetime.fromisoformat(data["start"]).date()
    h, m = (int(x) for x in cfg.start.split(":"))
    uh, um = (int(x) for x in cfg.until.split(":"))
    start = datetime(day0.year, day0.month, day0.day, h, m)
    return start, start.replace(hour=uh, minute=um)


class SwarmPlay:
    """One play: what it samples while it runs (the client's open requests and the engine's open
    decisions every 50 ms; a real server's ``/slots`` every 0.25 s) and per tick (the step's CPU,
    the process's, the pace policy's factor)."""

    def __init__(self, cfg: SwarmConfig, engine: Engine, client: ModelClient, chat_url: str) -> None:
        self.cfg, self.engine, self.client, self.chat_url = cfg, engine, client, chat_url
        self.gov = Governor(cfg.policy)
        self.tick_s = NORMAL_TICK_S / cfg.speedup
        self.samples: list[tuple[float, int, int, int]] = []
        self.server_busy: list[tuple[float, int]] = []
        self.step_cpu: list[float] = []
        self.step_wall: list[float] = []
        self.proc_cpu: list[float] = []
        self.factors: list[float] = []
        self.slowed_by: dict[str, int] = {}  # slowed ticks by game half-hour
        self.errors = 0
        self.prepare_s = 0.0

    async def sampler(self) -> None:
        sched = self.client.scheduler
        while True:
            self.samples.append((time.monotonic(), len(self.engine.board.jobs), sched.in_flight, sched.queued))
            await asyncio.sleep(0.05)

    async def poll_slots(self) -> None:
        """A real llama-server's own view: its ``/slots`` every 0.25 s, as (t, slots processing)."""
        import httpx

        root = self.chat_url[:-3] if self.chat_url.endswith("/v1") else self.chat_url
        async with httpx.AsyncClient(timeout=5.0) as http:
            while True:
                try:
                    r = await http.get(f"{root}/slots")
                    rows = r.json() if r.status_code == 200 else None
                    if isinstance(rows, list):
                        self.server_busy.append((time.monotonic(), sum(1 for x in rows if isinstance(x, dict)
                                                                       and x.get("is_processing"))))
                except (httpx.HTTPError, ValueError):
                    pass
                await asyncio.sleep(0.25)

    async def run(self, stop: datetime) -> float:
        """Ticks until ``stop``; returns the process CPU seconds used."""
        engine, gov = self.engine, self.gov
        cpu0 = last_cpu = time.process_time()
        while engine.clock.now < stop:
            c, w = time.thread_time(), time.perf_counter()
            res = engine.step()
            self.step_cpu.append(1000 * (time.thread_time() - c))
            self.step_wall.append(1000 * (time.perf_counter() - w))
            self.errors += sum(1 for line in res.log if line.kind == "error")
            await asyncio.sleep(gov.delay(self.tick_s, engine.lead_time.backlog_min(), engine.routine_wait_min()))
            self.factors.append(gov.factor)
            if gov.factor > 1.0:
                now = engine.clock.now
                half = now.replace(minute=now.minute // 30 * 30).strftime("%H:%M")
                self.slowed_by[half] = self.slowed_by.get(half, 0) + 1
            now_cpu = time.process_time()
            self.proc_cpu.append(1000 * (now_cpu - last_cpu))
            last_cpu = now_cpu
        return time.process_time() - cpu0

    def clock_figures(self, real: float, cpu_total: float) -> dict:
        ticks, step_cpu, proc_cpu = len(self.step_cpu), self.step_cpu, self.proc_cpu
        return {
            "ticks": ticks, "real_s": round(real, 1), "normal_rate_s": round(ticks * self.tick_s, 1),
            "real_over_normal": round(real / (ticks * self.tick_s), 3) if ticks else None,
            "prepare_s": round(self.prepare_s, 1),
            "ticks_slowed": sum(1 for f in self.factors if f > 1.0),
            "slowest_factor": round(max(self.factors or [1.0]), 1), "ticks_slowed_by_half_hour": self.slowed_by,
            "step_cpu_ms_median": round(statistics.median(step_cpu), 3) if step_cpu else None,
            "step_cpu_ms_p95": round(_pct(step_cpu, 0.95), 3), "step_cpu_ms_max": round(max(step_cpu or [0]), 2),
            "step_wall_ms_median": round(statistics.median(self.step_wall), 3) if self.step_wall else None,
            "process_cpu_ms_per_tick_median": round(statistics.median(proc_cpu), 2) if proc_cpu else None,
            "process_cpu_ms_per_tick_p95": round(_pct(proc_cpu, 0.95), 2),
            "process_cpu_share_of_real": round(cpu_total / real, 3) if real else None,
        }


def model_figures(client: ModelClient) -> dict:
    """Chat calls, failures and retries, and the tokens by purpose (the accounting's)."""
    chat = {k: asdict(v) for k, v in client.accounting.by_purpose().items() if k != "embed"}
    return {
        "chat_calls": sum(int(v.get("calls", 0)) for v in chat.values()),
        "chat_failures": sum(int(v.get("failures", 0)) for v in chat.values()),
        "retries": int(client.accounting.total.retries),
        "by_purpose": {k: {"calls": v["calls"], "prompt_tokens": v["prompt_tokens"],
                           "completion_tokens": v["completion_tokens"], "evaluated_tokens": v["evaluated_tokens"],
                           "failures": v["failures"]} for k, v in sorted(chat.items())},
    }


def lead_figures(engine: Engine, start: datetime) -> dict:
    """The model-led share from 07:00 (the ledger's), the lowest resident's, and the minds' counts."""
    from game.engine.decisions.ledger import lead_since, mind_counts

    summary = engine.core.ledger.summary(since=lead_since(start, engine.clock.day))
    return {
        "model_led": {k: summary.get(k) for k in ("model_led_share", "decision_lag_p50_min",
                                                  "decision_lag_p90_min", "decisions", "since")},
        # of the residents awake 10 game minutes or more in the span the share is reported for
        "model_led_lowest": min(((v["model_led_share"], n) for n, v in summary["by_resident"].items()
                                 if v["model_led_share"] is not None
                                 and sum(v["waking_min_by_source"].values()) >= 10), default=None),
        "rules_and_fallbacks": mind_counts(m.stats for m in engine.core.minds.values()),
    }


async def play(cfg: SwarmConfig, town: Path, chat_url: str, embed_url: str) -> dict:
    """The town played in real time against ``chat_url``, after the first day plans before the
    clock (``Engine.prepare``, as ``town play`` does; its seconds apart); the figures (without the
    server's)."""
    from game.engine.build import new_engine
    from game.llm.embed import RemoteEmbedder

    start, stop = _window(town, cfg)
    # (a stand-in that hides its slots may have more than the client's usual ceiling)
    client = ModelClient(chat_url, embedder=RemoteEmbedder(embed_url), timeout_s=600.0,
                         max_in_flight=max(256, 2 * cfg.slots))
    await client.connect()
    if cfg.trace_memory:
        tracemalloc.start()
    rss0 = rss_mb()
    engine = new_engine(town, client, start=start)
    engine.core.lockstep = False
    rss_built = rss_mb()
    run = SwarmPlay(cfg, engine, client, chat_url)
    sampling = asyncio.create_task(run.sampler())
    polling = asyncio.create_task(run.poll_slots()) if cfg.llm_url else None
    t0 = time.monotonic()
    cpu_total = 0.0
    try:
        run.prepare_s = (await engine.prepare()).seconds
        t0 = time.monotonic()
        cpu_total = await run.run(stop)
    finally:
        real = time.monotonic() - t0
        sampling.cancel()
        if polling is not None:
            polling.cancel()
        heap = tracemalloc.get_traced_memory() if cfg.trace_memory else None
        if cfg.trace_memory:
            tracemalloc.stop()
        rss1 = rss_mb()
        lead = lead_figures(engine, start)
        memories = sum(len(m.memory) for m in engine.core.minds.values() if isinstance(m, Mind))
        await engine.aclose()
        model = model_figures(client)
        await client.aclose()
    return {
        "residents": len(engine.core.residents), "from": start.strftime("%H:%M"),
        "until": engine.clock.now.strftime("%H:%M"), **run.clock_figures(real, cpu_total),
        "rss_mb_before_town": rss0, "rss_mb_town_built": rss_built, "rss_mb_end": rss1,
        "rss_mb_peak": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "tracemalloc_mb_now_peak": [round(x / 2**20, 1) for x in heap] if heap else None,
        "engine_errors": run.errors, "memories_at_end": memories, **lead, **model,
        "scheduler_slots": client.scheduler.slots, "throttle": client.scheduler.throttle.figures(),
        "refusals_asked_again": client.link.refusals, "calls_given_up_refused": client.link.busy_given_up,
        "_samples": run.samples, "_server_busy": run.server_busy, "_clock_from": t0,
    }
