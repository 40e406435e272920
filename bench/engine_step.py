#!/usr/bin/env python3
"""The engine alone on a big town: ``Engine.step()``'s time from 08:00 (the morning rush) on an instant
stand-in model, so that only the engine's own work is timed (docs/SCALE.md).

    .venv/bin/python bench/engine_step.py                 # 1,000 residents, 45 steps
    .venv/bin/python bench/engine_step.py 300 60

The first 5 steps are not counted.  Prints the step median and p95 in ms; measure alone on the machine.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from game.engine.build import new_engine
from game.measure.bench_saves import start_at_eight
from game.measure.benchkit import bench_double
from game.measure.bigtown import big_town
from game.world import default_town_path

WARM = 5


async def _steps(engine, n: int) -> list[float]:
    out = []
    for _ in range(n):
        if engine.blocked:
            await engine.wait_ready()
        t = time.perf_counter()
        engine.step()
        out.append((time.perf_counter() - t) * 1000)
        await asyncio.sleep(0)
    await engine.aclose()
    return out[WARM:]


def main(argv: list[str]) -> int:
    size = int(argv[0]) if argv else 1000
    steps = int(argv[1]) if len(argv) > 1 else 45
    base = default_town_path()
    base = base.parent if base.suffix else base
    town = big_town(base, size, Path(tempfile.mkdtemp(prefix="steps")) / "town")
    engine = new_engine(town, bench_double(), lockstep=True)
    start_at_eight(engine)
    ms = sorted(asyncio.run(_steps(engine, steps)))
    print(f"{size} residents, {len(ms)} steps from 08:00: step median {statistics.median(ms):.1f} ms, "
          f"p95 {ms[int(0.95 * (len(ms) - 1))]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
