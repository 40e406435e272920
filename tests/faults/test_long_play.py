"""Long play: a headless town on the instant fake model for one game day (default) or five (slow),
eight residents, the game's own 10-second ticks.  Per game day: resident-set size of the process,
memory records, model calls, and step time (mean, 95th percentile).  Memory must stay bounded
(what grows is the residents' memory streams, by design) and the step time steady."""

from __future__ import annotations

import gc
import os
import time
from pathlib import Path

import pytest

from game.engine.build import load_engine, new_engine

from .fakes import any_answer_model
from .townfiles import residents_data, write_town


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


async def play_days(tmp_path: Path, days: int) -> list[dict]:
    town = write_town(tmp_path / "town", residents=residents_data(8, seconds_per_step=10))
    llm = any_answer_model(seed=4)
    e = new_engine(town, llm, lockstep=True, seed=4)
    rows = []
    try:
        for _ in range(days):
            day = e.clock.day
            steps: list[float] = []
            calls0 = llm.completions
            while e.clock.day == day:
                t0 = time.perf_counter()
                await e.wait_ready()
                e.step()
                steps.append(time.perf_counter() - t0)
            gc.collect()
            steps.sort()
            rows.append({
                "day": day, "steps": len(steps), "rss_mb": round(rss_mb(), 1),
                "step_ms_mean": round(1000 * sum(steps) / len(steps), 3),
                "step_ms_p95": round(1000 * steps[int(0.95 * len(steps))], 3),
                "step_ms_max": round(1000 * steps[-1], 1),
                "memories": sum(len(m.memory) for m in e.core.minds.values()),
                "model_calls": llm.completions - calls0, "jobs_in_flight": len(e.board.jobs),
                "finished_talks": len(e.conversations.finished_talks), "errors": len(e.core.errors),
            })
            print(f"  {rows[-1]}")
        path = tmp_path / "long.save"
        t0 = time.perf_counter()
        e.save(path)
        rows.append({"save_s": round(time.perf_counter() - t0, 3), "save_kb": path.stat().st_size // 1024})
        again = load_engine(path, any_answer_model())
        await again.aclose()
    finally:
        await e.aclose()
    return rows


def check(rows: list[dict]) -> None:
    days = [r for r in rows if "day" in r]
    assert all(r["errors"] == 0 for r in days), days
    assert all(r["step_ms_mean"] < 20 for r in days), "a tick must stay far below the 10 s it stands for"
    assert days[-1]["rss_mb"] < 600
    if len(days) >= 3:
        later = days[1:]
        growth = (later[-1]["rss_mb"] - later[0]["rss_mb"]) / max(1, len(later) - 1)
        assert growth < 25, f"resident memory grows {growth:.1f} MB per game day"
        assert later[-1]["step_ms_mean"] < 3 * later[0]["step_ms_mean"] + 0.5, "steps slow down day by day"


async def test_one_game_day(tmp_path):
    print("\none game day, 8 residents, the fake model:")
    rows = await play_days(tmp_path, 1)
    print(f"  {rows[-1]}")
    check(rows)
    assert rows[0]["model_calls"] > 0 and rows[0]["steps"] >= 6000


@pytest.mark.slow
async def test_five_game_days(tmp_path):
    print("\nfive game days, 8 residents, the fake model:")
    rows = await play_days(tmp_path, 5)
    print(f"  {rows[-1]}")
    check(rows)
