"""``town bench``: the game's benchmarks (``game.measure.bench``) and the screen's own, ``render``.

The screen's benchmark lives here because it measures the screen: ``game.measure`` never imports
the UI.  ``town bench`` comes here and runs them all, ``render`` in its old place among them.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from game.engine.api import Replayable
from game.engine.engine import Engine
from game.engine.saves import SaveError
from game.llm.api import LLM
from game.measure.bench import BENCHMARKS, bench_save_load, largest_town, median_ms
from game.measure.bench import cli_bench as measure_cli_bench
from game.mind.memory.stream import MemoryStream
from game.ui.host import Progress, SaveInfo

if TYPE_CHECKING:  # pragma: no cover (Textual is imported only by the screen's benchmarks)
    from textual.pilot import Pilot

    from game.ui.app import TownApp


def bench_render(quick: bool) -> dict:
    from game.ui.mapview import Actor, MapView  # here: `town bench --only tick` starts without Textual

    town = largest_town()
    rng = np.random.default_rng(3)
    walk = np.argwhere(town.grid)
    view = MapView(town)
    actors = []
    emojis = ["\u2615", "\U0001F4DA", "\U0001F373", "\U0001F4AC", "\U0001F634"]
    for i in range(25):
        y, x = walk[rng.integers(len(walk))]
        actors.append(Actor(f"r{i}", chr(65 + i), "#ffcc00", (int(x), int(y)), emojis[i % len(emojis)]))
    view.set_actors(actors)
    n = 10 if quick else 30

    def full() -> None:
        view._rows.clear()
        view.render_frame()

    full_med, full_best = median_ms(full, n)

    def moves() -> None:
        for a in actors:
            x, y = a.pos
            view.move(a.name, (x + 1 if x + 1 < town.width else x - 1, y))
        view.render_frame()

    inc_med, inc_best = median_ms(moves, n * 3)
    return {"map": f"{town.name} {town.width}x{town.height}", "actors": 25,
            "full_frame_ms_median": round(full_med, 2), "full_frame_ms_best": round(full_best, 2),
            "frame_after_25_moves_ms_median": round(inc_med, 3),
            "note": "MapView.render_frame(): composing the map rows (Strips); the terminal write is not included"}



class _BenchHost:
    """The app's ``GameHost`` for the benchmark: the save it is given, loaded with the benchmark
    model double (bench/fake_llm.py: every answer at once), no model server.  It keeps the engine
    it loaded (``engine``): the benchmark adds memories to its minds."""

    watch = None

    def __init__(self, save: Path) -> None:
        from game.measure.benchkit import bench_double

        self.start_save = save
        self.llm: LLM = bench_double()
        self.engine: Engine | None = None

    @asynccontextmanager
    async def _open(self) -> AsyncIterator[LLM]:
        yield self.llm

    def open_llm(self, progress: Progress) -> AbstractAsyncContextManager[LLM]:
        return self._open()

    async def new_engine(self, llm: LLM) -> Engine:
        raise RuntimeError("the benchmark host only loads its save")

    async def load_engine(self, path: Path, llm: LLM) -> Engine:
        from game.engine.build import load_engine

        self.engine = load_engine(path, llm)
        return self.engine

    def describe_save(self, path: Path) -> SaveInfo:
        raise SaveError(f"{path}: the benchmark host lists no saves")

    def watch_engine(self) -> Replayable:
        raise RuntimeError("the benchmark host watches no recording")


class _Gaps:
    """A watcher on the app's event loop that wakes every millisecond: the longest gap between its
    wake-ups is the longest the screen could not draw or take a key (its longest frame)."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self.watching = True

    async def watch(self) -> None:
        loop = asyncio.get_running_loop()
        last = loop.time()
        while self.watching:
            await asyncio.sleep(0.001)
            now = loop.time()
            self.gaps.append(now - last)
            last = now

    def longest(self) -> float:
        """The longest gap since the last call (and starts the next stretch)."""
        out = max(self.gaps, default=0.0)
        self.gaps.clear()
        return out


async def _town_on_screen(app: TownApp, pilot: Pilot[int]) -> None:
    t0 = time.monotonic()
    while app.session.engine is None or app.widgets.map_view is None or not app.widgets.map_view.actors:
        if time.monotonic() - t0 > 120:
            raise RuntimeError("the app did not show the town within 120 s")
        await pilot.pause(0.05)


async def _ticks(engine: Engine, n: int) -> None:
    start = engine.core.step_no
    while engine.core.step_no < start + n:
        await asyncio.sleep(0.01)


def _busy(engine: Engine, seed: int, busy: int) -> None:
    """``busy`` more memories per resident, as ``bench_save_load`` adds."""
    from game.measure.benchkit import unit_rows

    rng = np.random.default_rng(seed)
    for mind in engine.core.minds.values():
        memory = mind.memory
        assert isinstance(memory, MemoryStream)  # the game's minds
        for i in range(busy):
            memory.add("conversation", f"a busy talk, line {i}", engine.clock.now, importance=5,
                            embedding=unit_rows(rng, 1)[0])


async def _autosaves(app: TownApp, engine: Engine, rounds: int, ticks: int, busy: int) -> dict[str, object]:
    gaps = _Gaps()
    watcher = asyncio.create_task(gaps.watch())
    during: list[float] = []
    quiet: list[float] = []
    write_ms: list[float] = []
    incremental: list[bool] = []
    for i in range(rounds):
        gaps.longest()
        await _ticks(engine, ticks)
        quiet.append(gaps.longest())
        _busy(engine, i, busy)
        app.files.last_save = None
        gaps.longest()
        app.files.autosave()  # the app's own autosave
        while (saved := app.files.last_save) is None:
            await asyncio.sleep(0.001)
        during.append(gaps.longest())
        write_ms.append(1000 * saved[0])
        incremental.append(saved[1])
    gaps.watching = False
    await watcher
    return {
        "screen_autosaves": rounds, "screen_autosaves_incremental": all(incremental),
        "screen_autosave_write_ms_median": round(statistics.median(write_ms), 1),
        "screen_longest_frame_during_autosave_ms": round(1000 * max(during), 1),
        "screen_longest_frame_during_autosave_ms_median": round(1000 * statistics.median(during), 1),
        "screen_longest_frame_playing_no_save_ms": round(1000 * max(quiet), 1),
    }


def screen_during_autosave(town: Path, save: Path, rounds: int = 5, ticks: int = 30,
                           busy: int = 5) -> dict[str, object]:
    """The real app, headless, on ``save`` (the big town) at the "fast" rate: the autosave (the
    app's own ``Files.autosave``) every ``ticks`` ticks (30: 5 game minutes), ``rounds`` times.
    The longest frame (``_Gaps``) during each autosave and, for comparison, during as long a
    stretch of play with no save.  ``busy`` more memories per resident before each autosave."""
    from game.ui.app import TownApp

    out: dict[str, object] = {}

    async def run() -> None:
        host = _BenchHost(save)
        app = TownApp(host, save.parent, autosave_s=0, speed="pause")
        async with app.run_test(headless=True, size=(160, 50)) as pilot:
            await _town_on_screen(app, pilot)
            assert host.engine is not None
            app.player.set_speed("fast")
            out.update(await _autosaves(app, host.engine, rounds, ticks, busy))
            app.player.set_speed("pause")
            await app.files.close_and_exit()

    asyncio.run(run())
    return out


def bench_save_load_screen(quick: bool) -> dict:
    """``save_load`` with the screen's part: the longest frame of the running app during autosaves."""
    return bench_save_load(quick, screen=screen_during_autosave)


def benchmarks() -> dict[str, Callable[[bool], dict]]:
    """Every benchmark, in the order ``town bench`` runs them."""
    out = {k: v for k, v in BENCHMARKS.items() if k != "paths"}
    out["save_load"] = bench_save_load_screen
    out["render"] = bench_render
    out.update({k: v for k, v in BENCHMARKS.items() if k not in out})
    return out


def cli_bench(args: argparse.Namespace) -> int:
    return measure_cli_bench(args, benchmarks())
