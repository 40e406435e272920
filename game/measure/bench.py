"""``town bench [--json] [--quick] [--only names]``: the game's benchmarks in one place.

- ``retrieval``: one retrieval (k=10) over 100k memories of one mind's memory stream (384-d), with
  its prefilter (the default from 20k records) and scoring every record (``exact``), and how often
  the two agree on random queries
- ``save_load``: save and load of a 25-resident town with 10k memories each (engine saves), then
  its autosave after 5 game minutes of play (what changed only); ``town bench`` adds the screen's
  longest frame during that autosave in the running app (``game.ui.bench``)
- ``tick``: engine time per tick, outside model waits (an instant benchmark model from bench/)
- ``render`` (the screen's own, in ``game.ui.bench``; ``town bench`` runs it too): frame render time
  of the largest map with 25 residents and bubbles (game.ui MapView)
- ``paths``: path queries per second on the largest map (game.world PathFinder)
- ``standin`` (only when named: minutes long): 100 residents in real time against a stand-in
  many-slot server (game/measure/swarm.py, scripts/bench_swarm.py)
- ``scale`` (only when named: ten minutes and more): 100, 300 and 1,000 residents from 08:00
  against the stand-in, one table (game/measure/scale.py, bench/scale.py)

``$TOWN_BENCH_MAP`` names the map for ``render`` and ``paths`` (default: the largest of the built-in
towns and those under ./maps/); ``$TOWN_BENCH_TOWN`` the town folder for ``save_load`` and ``tick``
(default: the built-in default town, its residents cloned up to 25).

Each is short (seconds; ``--quick`` smaller still): the CPU may be shared.  Figures are wall-clock
medians on this machine; docs/BENCHMARKS.md keeps the latest with the machine and the command.
Nothing here imports the UI: ``game.ui.bench`` adds its benchmark to these.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

from game.measure.bench_saves import bench_save_load, start_at_eight, town_with
from game.measure.benchkit import DIM, bench_double, machine, median_ms, unit_rows
from game.mind.memory.stream import MemoryStream
from game.text import dumps, echo
from game.world.town import Town

__all__ = ["BENCHMARKS", "DIM", "bench_paths", "bench_retrieval", "bench_save_load", "bench_tick", "cli_bench",
           "largest_town", "machine", "median_ms", "run"]


def _fill(stream: MemoryStream, n: int, start: datetime, rng: np.random.Generator) -> None:
    vecs = unit_rows(rng, n)
    kinds = ("observation", "observation", "observation", "conversation", "plan", "reflection")
    imps = rng.integers(1, 11, size=n)
    for i in range(n):
        stream.add(kinds[i % len(kinds)], f"memory number {i} about something seen at the park",
                   start + timedelta(seconds=20 * i), importance=float(imps[i]), embedding=vecs[i])


# ------------------------------------------------------------------------------- benchmarks


def bench_retrieval(quick: bool) -> dict:
    from game.mind.memory.stream import MemoryStream

    n = 20_000 if quick else 100_000
    rng = np.random.default_rng(1)
    m = MemoryStream(capacity=n)
    start = datetime(2026, 3, 2, 6, 0)
    t = time.perf_counter()
    _fill(m, n, start, rng)
    build = time.perf_counter() - t
    now = start + timedelta(seconds=20 * n)
    queries = unit_rows(rng, 30)
    m.warm_prefilter()  # the projection is built a step per retrieval in play; at once here
    it = iter(range(10**9))
    med, best = median_ms(lambda: m.retrieve(queries[next(it) % 30], now, k=10, token_budget=400), 30)
    kinds_med, _ = median_ms(lambda: m.retrieve(queries[next(it) % 30], now, k=10,
                                                 kinds=("reflection",)), 15)
    exact_med, exact_best = median_ms(lambda: m.retrieve(queries[next(it) % 30], now, k=10, token_budget=400,
                                                         exact=True), 30)
    # the prefilter (from 20k records on) against scoring every record, on these random queries
    same = found = 0
    for q in queries:
        fast = [r.id for r in m.retrieve(q, now, k=10, refresh=False)]
        exact = [r.id for r in m.retrieve(q, now, k=10, refresh=False, exact=True)]
        same += fast == exact
        found += len(set(fast) & set(exact))
    return {"memories": n, "dim": DIM, "retrieve_ms_median": round(med, 2), "retrieve_ms_best": round(best, 2),
            "retrieve_one_kind_ms_median": round(kinds_med, 2), "exact_ms_median": round(exact_med, 2),
            "exact_ms_best": round(exact_best, 2), "top10_same_as_exact": f"{same}/{len(queries)}",
            "top10_recall": round(found / (10 * len(queries)), 3), "add_per_s": round(n / build)}


def bench_tick(quick: bool) -> dict:
    from game.engine.build import new_engine

    ticks = 120 if quick else 360
    n_res = 25
    with tempfile.TemporaryDirectory(prefix="town-bench-") as tmp:
        town = town_with(n_res, Path(tmp))
        llm = bench_double()
        e = new_engine(town, llm, lockstep=True)
        start_at_eight(e)  # when everyone is up and deciding

        errors: list[str] = []

        async def run() -> tuple[list[float], float]:
            steps = []
            t0 = time.perf_counter()
            for _ in range(ticks):
                if e.blocked:
                    await e.wait_ready()
                t = time.perf_counter()
                e.step()
                steps.append((time.perf_counter() - t) * 1000)
                await asyncio.sleep(0)
            total = time.perf_counter() - t0
            errors.extend(e.core.errors)
            await e.aclose()
            return steps, total

        steps, total = asyncio.run(run())
    return {"residents": n_res, "ticks": ticks, "step_ms_median": round(statistics.median(steps), 3),
            "step_ms_p95": round(sorted(steps)[int(0.95 * len(steps))], 3),
            "all_cpu_ms_per_tick": round(1000 * total / ticks, 3), "model_calls": llm.calls,
            "engine_errors": len(errors),
            "note": "step_ms: Engine.step() alone; all_cpu: step + the minds' decision tasks "
                    "(prompts, retrieval, parsing) with an instant model"}


def largest_town() -> Town:
    from game.world import MapError, load_town
    from game.world.town import builtin_towns_dir

    env = os.environ.get("TOWN_BENCH_MAP")
    cands = [Path(env)] if env else sorted(p.parent for d in (builtin_towns_dir(), Path("maps"))
                                           for p in d.glob("*/town.tmx"))
    best, area = None, -1
    for c in cands:
        try:
            t = load_town(c)
        except MapError:  # not a town that loads: the next candidate
            continue
        if t.width * t.height > area:
            best, area = t, t.width * t.height
    if best is None:
        raise RuntimeError("no town map found (built-in, under ./maps/ or $TOWN_BENCH_MAP)")
    return best


def bench_paths(quick: bool) -> dict:
    from game.world.paths import PathFinder

    town = largest_town()
    pf = PathFinder(town.grid, cache_size=0) if "cache_size" in PathFinder.__init__.__code__.co_varnames \
        else PathFinder(town.grid)
    rng = np.random.default_rng(4)
    walk = [(int(p[1]), int(p[0])) for p in np.argwhere(town.grid)]
    pairs: list[tuple[tuple[int, int], tuple[int, int]]] = []
    while len(pairs) < (50 if quick else 200):
        a, b = walk[rng.integers(len(walk))], walk[rng.integers(len(walk))]
        if a != b and pf.reachable(a, b):
            pairs.append((a, b))
    t = time.perf_counter()
    steps = 0
    for a, b in pairs:
        steps += len(pf.path(a, b))
    dt = time.perf_counter() - t
    return {"map": f"{town.name} {town.width}x{town.height}", "queries": len(pairs),
            "queries_per_s": round(len(pairs) / dt, 1), "mean_path_len": round(steps / len(pairs), 1),
            "note": "random reachable pairs, no path cache"}


def bench_standin(quick: bool) -> dict:
    """100 residents in real time against the stand-in server (game/measure/swarm.py; only when named)."""
    from game.measure.swarm import quick_config, run_swarm, standard_config

    return run_swarm(quick_config() if quick else standard_config(), machine())


def bench_scale(quick: bool) -> dict:
    """100, 300 and 1,000 residents from 08:00 against the stand-in (game/measure/scale.py; only when named)."""
    from game.measure.scale import run_scale, scale_table

    out = run_scale(quick=quick, machine=machine())
    out["table"] = scale_table(out)
    return out


BENCHMARKS: dict[str, Callable[[bool], dict]] = {
    "retrieval": bench_retrieval, "save_load": bench_save_load, "tick": bench_tick, "paths": bench_paths,
    "standin": bench_standin, "scale": bench_scale,
}
NAMED_ONLY = {"standin", "scale"}  # minutes long: run by `--only standin`, not by a plain `town bench`


def run(only: list[str] | None = None, quick: bool = False, progress: Callable[[str], None] | None = None,
        benchmarks: dict[str, Callable[[bool], dict]] | None = None) -> dict:
    """Run ``only`` (default: all) of ``benchmarks`` (default: this module's; ``town bench`` adds the
    screen's own, ``game.ui.bench``)."""
    benchmarks = BENCHMARKS if benchmarks is None else benchmarks
    names = only or [n for n in benchmarks if n not in NAMED_ONLY]
    results: dict[str, dict] = {}
    for name in names:
        if progress:
            progress(name)
        t = time.perf_counter()
        try:
            r = benchmarks[name](quick)
        except Exception as e:  # one broken layer hides no other figure (test_bench.py)
            r = {"error": f"{type(e).__name__}: {e}"}
        r["seconds"] = round(time.perf_counter() - t, 1)
        results[name] = r
    return {"machine": machine(), "quick": quick,
            "command": "town bench" + (" --quick" if quick else "") + (f" --only {','.join(only)}" if only else ""),
            "results": results}


def cli_bench(args: argparse.Namespace, benchmarks: dict[str, Callable[[bool], dict]] | None = None) -> int:
    benchmarks = BENCHMARKS if benchmarks is None else benchmarks
    only = None
    if getattr(args, "only", None):
        only = [x.strip() for x in str(args.only).split(",") if x.strip()]
        bad = [x for x in only if x not in benchmarks]
        if bad:
            print(f"town bench: unknown benchmark {', '.join(bad)}; known: {', '.join(benchmarks)}",
                  file=sys.stderr)
            return 2
    as_json = bool(getattr(args, "json", False))
    out = run(only, bool(getattr(args, "quick", False)),
              progress=lambda n: print(f"running {n} ...", file=sys.stderr, flush=True), benchmarks=benchmarks)
    if as_json:
        echo(dumps(out, indent=2))
        return 1 if any("error" in r for r in out["results"].values()) else 0
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    c = Console()
    m = out["machine"]
    c.print(Text(f"{m['cpu']}, nproc {m['nproc']}, load {m['load_1min']}, Python {m['python']}, "
                 f"numpy {m['numpy']} ({m['when']})"))
    t = Table(title=out["command"])
    t.add_column("benchmark")
    t.add_column("figures")
    t.add_column("s", justify="right")
    for name, r in out["results"].items():
        figs = ", ".join(f"{k} {v}" for k, v in r.items() if k not in ("seconds", "note"))
        t.add_row(Text(name), Text(figs), str(r["seconds"]))
    c.print(t)
    return 1 if any("error" in r for r in out["results"].values()) else 0
