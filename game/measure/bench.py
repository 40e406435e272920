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

``$TOWN_BENCH_MAP`` names the map for ``render`` and ``paths`` (default: the largest of the built-in
towns and those under ./maps/); ``$TOWN_BENCH_TOWN`` the town folder for ``save_load`` and ``tick``
(default: the built-in default town, its residents cloned up to 25).

Each is short (seconds; ``--quick`` smaller still): the CPU may be shared.  Figures are wall-clock
medians on this machine; docs/BENCHMARKS.md keeps the latest with the machine and the command.
Nothing here imports the UI: ``game.ui.bench`` adds its benchmark to these.
"""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from game.text import dumps, echo

ROOT = Path(__file__).resolve().parents[2]
DIM = 384  # all-MiniLM-L6-v2


def machine() -> dict:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = None
    return {"nproc": os.cpu_count(), "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count(), "cpu": cpu or platform.processor(), "python": platform.python_version(),
            "numpy": np.__version__, "load_1min": round(load, 2) if load is not None else None,
            "when": datetime.now().strftime("%Y-%m-%d %H:%M")}


def median_ms(fn: Callable[[], Any], n: int) -> tuple[float, float]:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), min(times)


def _unit_rows(rng: np.random.Generator, n: int, dim: int = DIM) -> np.ndarray:
    v = rng.standard_normal((n, dim)).astype(np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    return v


def _fill(stream: Any, n: int, start: datetime, rng: np.random.Generator) -> None:
    vecs = _unit_rows(rng, n)
    kinds = ("observation", "observation", "observation", "conversation", "plan", "reflection")
    imps = rng.integers(1, 11, size=n)
    for i in range(n):
        stream.add(kinds[i % len(kinds)], f"memory number {i} about something seen at the park",
                   start + timedelta(seconds=20 * i), importance=float(imps[i]), embedding=vecs[i])


# ------------------------------------------------------------------------------- benchmarks


def bench_retrieval(quick: bool) -> dict:
    from game.mind.memory import MemoryStream

    n = 20_000 if quick else 100_000
    rng = np.random.default_rng(1)
    m = MemoryStream(capacity=n)
    start = datetime(2026, 3, 2, 6, 0)
    t = time.perf_counter()
    _fill(m, n, start, rng)
    build = time.perf_counter() - t
    now = start + timedelta(seconds=20 * n)
    queries = _unit_rows(rng, 30)
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


def _town_with(residents: int, folder: Path, base: Path | None = None) -> Path:
    """A copy of the default town (or ``base``) with ``residents`` residents (clones get new names)."""
    from game.world import default_town_path

    base = base or Path(os.environ.get("TOWN_BENCH_TOWN") or default_town_path())
    dst = folder / "benchtown"
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(base, dst)
    data = json.loads((dst / "residents.json").read_text())
    specs = list(data["residents"])
    out = []
    for i in range(residents):
        s = dict(specs[i % len(specs)])
        if i >= len(specs):
            first, *rest = s["name"].split()
            s["name"] = f"{first}{i // len(specs) + 1} {' '.join(rest)}".strip()
            s["spawn"] = None
        out.append(s)
    data["residents"] = out
    (dst / "residents.json").write_text(json.dumps(data))
    return dst


def _fill_fast(stream: Any, n: int, start: datetime, rng: np.random.Generator) -> None:
    """``_fill`` in six blocks of one kind each (``add_many``): the same kinds, times, importances
    and 384-d unit embeddings, in a second instead of ten for a 25 x 10k town."""
    kinds = ("observation", "conversation", "plan", "reflection", "observation", "observation")
    vecs = _unit_rows(rng, n)
    imps = rng.integers(1, 11, size=n).astype(float)
    bounds = np.linspace(0, n, len(kinds) + 1).astype(int)
    for kind, a, b in zip(kinds, bounds[:-1], bounds[1:]):
        stream.add_many(kind, [f"memory number {i} about something seen at the park" for i in range(a, b)],
                        [start + timedelta(seconds=20 * i) for i in range(a, b)], imps[a:b], vecs[a:b])


def bench_save_load(quick: bool, screen: Callable[[Path, Path], dict] | None = None) -> dict:
    """A 25-resident town with 10k memories each: a whole save, a load, then the autosave of the
    loaded town after it played 5 game minutes (30 ticks, the instant benchmark model): the part
    on the thread that plays (``save_job``: the town taken as it is) and the part on disk
    (``SaveJob.run``: only what changed).  ``screen`` (``town bench`` gives the UI's): the same
    autosave in the running app, timing the screen's longest frame."""
    from game.engine.build import load_engine, new_engine

    n_res, n_mem = 25, (1_000 if quick else 10_000)
    rng = np.random.default_rng(2)
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="town-bench-") as tmp:
        folder = Path(tmp)
        town = _town_with(n_res, folder)
        e = new_engine(town, None, lockstep=True)
        start = e.clock.now
        for mind in e.minds.values():
            _fill_fast(mind.memory, n_mem, start - timedelta(days=60), rng)
            for rid in mind.memory.unembedded():  # the seed memories, embedded as a played town's are
                mind.memory.set_embedding(rid, _unit_rows(rng, 1)[0])
        path = folder / "bench.save"
        gc.collect()
        t = time.perf_counter()
        e.save(path)
        save_s = time.perf_counter() - t
        size = path.stat().st_size
        del e
        gc.collect()
        t = time.perf_counter()
        e2 = load_engine(path, _bench_double(), lockstep=True)
        load_s = time.perf_counter() - t
        total = sum(len(m.memory) for m in e2.minds.values())
        e2.clock.step = e2.clock.steps_until(e2.clock.now.replace(hour=8, minute=0))
        auto = _autosave_after(e2, path, 30)
        out.update({"residents": n_res, "memories_each": n_mem, "memories_loaded": total, "dim": DIM,
                    "save_s": round(save_s, 2), "load_s": round(load_s, 2), "file_mb": round(size / 2**20, 1),
                    **auto, "file_mb_after_autosaves": round(path.stat().st_size / 2**20, 1)})
        if screen is not None:
            out.update(screen(town, path))
    return out


def _autosave_after(e: Any, path: Path, ticks: int, rounds: int = 5, busy: int = 5) -> dict:
    """Play ``ticks`` then autosave, ``rounds`` times: the medians and the worst.  ``busy`` more
    memories per resident each round (embedded, recalled) on top of what the play adds: a busier
    town than the long-play runs (~0.1 new memory per resident in 5 game minutes)."""
    prep, write, added = [], [], []
    incremental = True
    rng = np.random.default_rng(5)

    async def play() -> None:
        for _ in range(ticks):
            if e.blocked:
                await e.wait_ready()
            e.step()
            await asyncio.sleep(0)
        tasks = [j.task for j in e.jobs.values() if j.task is not None]
        await asyncio.gather(*tasks, return_exceptions=True)

    for _ in range(rounds):
        before = sum(len(m.memory) for m in e.minds.values())
        asyncio.run(play())
        for mind in e.minds.values():
            for i in range(busy):
                mind.memory.add("conversation", f"a busy talk, line {i}", e.clock.now, importance=5,
                                embedding=_unit_rows(rng, 1)[0])
            mind.memory.retrieve(_unit_rows(rng, 1)[0], e.clock.now, k=10)
        added.append(sum(len(m.memory) for m in e.minds.values()) - before)
        t = time.perf_counter()
        job = e.save_job(path)
        prep.append(time.perf_counter() - t)
        t = time.perf_counter()
        job.run()
        write.append(time.perf_counter() - t)
        job.finish()
        incremental = incremental and job.incremental
    both = [a + b for a, b in zip(prep, write)]
    return {"autosave_game_minutes": (round(ticks * e.clock.seconds_per_step / 60, 1)
                                      if hasattr(e.clock, "seconds_per_step") else None),
            "autosave_new_memories_median": int(statistics.median(added)),
            "autosave_prepare_ms_median": round(1000 * statistics.median(prep), 1),
            "autosave_write_ms_median": round(1000 * statistics.median(write), 1),
            "autosave_ms_median": round(1000 * statistics.median(both), 1),
            "autosave_ms_max": round(1000 * max(both), 1),
            "autosave_incremental": incremental}


def _bench_double() -> Any:
    path = ROOT / "bench" / "fake_llm.py"
    if not path.is_file():
        raise RuntimeError(f"the tick benchmark needs the repository's {path} (a benchmark double)")
    spec = importlib.util.spec_from_file_location("town_bench_fake_llm", path)
    mod = importlib.util.module_from_spec(spec)
    assert spec and spec.loader
    spec.loader.exec_module(mod)
    return mod.FakeInstantLLM()


def bench_tick(quick: bool) -> dict:
    from game.engine.build import new_engine

    ticks = 120 if quick else 360
    n_res = 25
    with tempfile.TemporaryDirectory(prefix="town-bench-") as tmp:
        town = _town_with(n_res, Path(tmp))
        llm = _bench_double()
        e = new_engine(town, llm, lockstep=True)
        # start at 08:00, when everyone is up and deciding
        e.clock.step = e.clock.steps_until(e.clock.now.replace(hour=8, minute=0))

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
            errors.extend(e.errors)
            await e.aclose()
            return steps, total

        steps, total = asyncio.run(run())
    return {"residents": n_res, "ticks": ticks, "step_ms_median": round(statistics.median(steps), 3),
            "step_ms_p95": round(sorted(steps)[int(0.95 * len(steps))], 3),
            "all_cpu_ms_per_tick": round(1000 * total / ticks, 3), "model_calls": llm.calls,
            "engine_errors": len(errors),
            "note": "step_ms: Engine.step() alone; all_cpu: step + the minds' decision tasks "
                    "(prompts, retrieval, parsing) with an instant model"}


def largest_town() -> Any:
    from game.world import load_town
    from game.world.town import builtin_towns_dir

    env = os.environ.get("TOWN_BENCH_MAP")
    cands = [Path(env)] if env else sorted(p.parent for d in (builtin_towns_dir(), Path("maps"))
                                           for p in d.glob("*/town.tmx"))
    best, area = None, -1
    for c in cands:
        try:
            t = load_town(c)
        except Exception:
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
    walk = [tuple(map(int, p[::-1])) for p in np.argwhere(town.grid)]
    pairs = []
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


BENCHMARKS: dict[str, Callable[[bool], dict]] = {
    "retrieval": bench_retrieval, "save_load": bench_save_load, "tick": bench_tick, "paths": bench_paths,
    "standin": bench_standin,
}
NAMED_ONLY = {"standin"}  # minutes long: run by `--only standin`, not by a plain `town bench`


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
        except Exception as e:  # one broken layer must not hide the other figures
            r = {"error": f"{type(e).__name__}: {e}"}
        r["seconds"] = round(time.perf_counter() - t, 1)
        results[name] = r
    return {"machine": machine(), "quick": quick,
            "command": "town bench" + (" --quick" if quick else "") + (f" --only {','.join(only)}" if only else ""),
            "results": results}


def cli_bench(args: Any, benchmarks: dict[str, Callable[[bool], dict]] | None = None) -> int:
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
