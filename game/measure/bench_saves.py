"""The ``save_load`` benchmark of ``town bench``: a 25-resident town with 10k memories each, saved
whole, loaded, then autosaved after each stretch of play (only what changed).  Also the town the
``tick`` benchmark plays: the default town (or ``$TOWN_BENCH_TOWN``) cloned up to 25 residents."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, cast

import numpy as np

from game.measure.benchkit import DIM, bench_double, clone_specs, unit_rows
from game.mind.memory.stream import MemoryStream
from game.world.clock import Clock
from game.world.knowledge import among

if TYPE_CHECKING:  # pragma: no cover
    from game.engine.engine import Engine
    from game.llm.api import LLM


def town_with(residents: int, folder: Path, base: Path | None = None) -> Path:
    """A copy of the default town (or ``base``) with ``residents`` residents (clones get new names)."""
    from game.world import default_town_path

    base = base or Path(os.environ.get("TOWN_BENCH_TOWN") or default_town_path())
    dst = folder / "benchtown"
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(base, dst)
    data = json.loads((dst / "residents.json").read_text())
    data["residents"] = clone_specs(list(data["residents"]), residents)
    data = among(data, {s["name"] for s in data["residents"]})  # the town's events and roles for this cast
    (dst / "residents.json").write_text(json.dumps(data))
    return dst


def start_at_eight(e: Engine) -> None:
    """The town's clock moved on to 08:00 of its day, when everyone is up and deciding."""
    clock = e.clock
    if isinstance(clock, Clock):
        clock.step = clock.steps_until(clock.now.replace(hour=8, minute=0))


def stream_of(e: Engine, name: str) -> MemoryStream:
    """The memory stream of ``name``'s mind (a ``game.mind.Mind``: the benchmarks build real minds)."""
    memory = e.core.minds[name].memory
    assert isinstance(memory, MemoryStream)
    return memory


def fill_fast(stream: MemoryStream, n: int, start: datetime, rng: np.random.Generator) -> None:
    """``n`` memories in six blocks of one kind each (``add_many``): the kinds, times, importances
    and 384-d unit embeddings a played town has, in a second instead of ten for a 25 x 10k town."""
    kinds = ("observation", "conversation", "plan", "reflection", "observation", "observation")
    vecs = unit_rows(rng, n)
    imps = rng.integers(1, 11, size=n).astype(float)
    bounds = np.linspace(0, n, len(kinds) + 1).astype(int)
    for kind, a, b in zip(kinds, bounds[:-1], bounds[1:]):
        stream.add_many(kind, [f"memory number {i} about something seen at the park" for i in range(a, b)],
                        [start + timedelta(seconds=20 * i) for i in range(a, b)], imps[a:b].tolist(), vecs[a:b])


def bench_save_load(quick: bool, screen: Callable[[Path, Path], dict] | None = None) -> dict:
    """A 25-resident town with 10k memories each: a whole save, a load, then the autosave of the
    loaded town after it played 5 game minutes (30 ticks, the instant benchmark model): the part
    on the thread that plays (``save_job``: the town taken as it is) and the part on disk
    (``SaveJob.run``: only what changed).  ``screen`` (``town bench`` gives the UI's): the same
    autosave in the running app, timing the screen's longest frame."""
    from game.engine.build import load_engine, new_engine

    n_res, n_mem = 25, (1_000 if quick else 10_000)
    rng = np.random.default_rng(2)
    out: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="town-bench-") as tmp:
        folder = Path(tmp)
        town = town_with(n_res, folder)
        # this engine is only filled and saved: it never asks a model, so it is given none
        e = new_engine(town, cast("LLM", None), lockstep=True)
        start = e.clock.now
        for name in e.core.minds:
            memory = stream_of(e, name)
            fill_fast(memory, n_mem, start - timedelta(days=60), rng)
            for rid in memory.unembedded():  # the seed memories, embedded as a played town's are
                memory.set_embedding(rid, unit_rows(rng, 1)[0])
        path = folder / "bench.save"
        gc.collect()
        t = time.perf_counter()
        e.save(path)
        save_s = time.perf_counter() - t
        size = path.stat().st_size
        del e
        gc.collect()
        t = time.perf_counter()
        e2 = load_engine(path, bench_double(), lockstep=True)
        load_s = time.perf_counter() - t
        total = sum(len(stream_of(e2, name)) for name in e2.core.minds)
        start_at_eight(e2)
        auto = autosave_after(e2, path, 30)
        out.update({"residents": n_res, "memories_each": n_mem, "memories_loaded": total, "dim": DIM,
                    "save_s": round(save_s, 2), "load_s": round(load_s, 2), "file_mb": round(size / 2**20, 1),
                    **auto, "file_mb_after_autosaves": round(path.stat().st_size / 2**20, 1)})
        if screen is not None:
            out.update(screen(town, path))
    return out


async def play(e: Engine, ticks: int) -> None:
    """``ticks`` lockstep ticks, then every decision still in flight finished."""
    for _ in range(ticks):
        if e.blocked:
            await e.wait_ready()
        e.step()
        await asyncio.sleep(0)
    tasks = [j.task for j in e.board.jobs.values() if j.task is not None]
    await asyncio.gather(*tasks, return_exceptions=True)


def autosave_after(e: Engine, path: Path, ticks: int, rounds: int = 5, busy: int = 5) -> dict:
    """Play ``ticks`` then autosave, ``rounds`` times: the medians and the worst.  ``busy`` more
    memories per resident each round (embedded, recalled) on top of what the play adds: a busier
    town than the long-play runs (~0.1 new memory per resident in 5 game minutes)."""
    prep: list[float] = []
    write: list[float] = []
    added: list[int] = []
    incremental = True
    rng = np.random.default_rng(5)
    for _ in range(rounds):
        before = sum(len(stream_of(e, name)) for name in e.core.minds)
        asyncio.run(play(e, ticks))
        for name in e.core.minds:
            memory = stream_of(e, name)
            for i in range(busy):
                memory.add("conversation", f"a busy talk, line {i}", e.clock.now, importance=5,
                           embedding=unit_rows(rng, 1)[0])
            memory.retrieve(unit_rows(rng, 1)[0], e.clock.now, k=10)
        added.append(sum(len(stream_of(e, name)) for name in e.core.minds) - before)
        t = time.perf_counter()
        job = e.save_job(path)
        prep.append(time.perf_counter() - t)
        t = time.perf_counter()
        job.run()
        write.append(time.perf_counter() - t)
        job.finish()
        incremental = incremental and job.incremental
    both = [a + b for a, b in zip(prep, write)]
    return {"autosave_game_minutes": round(ticks * e.clock.seconds_per_step / 60, 1),
            "autosave_new_memories_median": int(statistics.median(added)),
            "autosave_prepare_ms_median": round(1000 * statistics.median(prep), 1),
            "autosave_write_ms_median": round(1000 * statistics.median(write), 1),
            "autosave_ms_median": round(1000 * statistics.median(both), 1),
            "autosave_ms_max": round(1000 * max(both), 1),
            "autosave_incremental": incremental}
