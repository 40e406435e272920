"""``town bench``: the game's benchmarks (``game.measure.bench``) and the screen's own, ``render``.

The screen's benchmark lives here because it measures the screen: ``game.measure`` never imports
the UI.  ``town bench`` comes here and runs them all, ``render`` in its old place among them.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import numpy as np

from game.measure.bench import BENCHMARKS, bench_save_load, largest_town, median_ms
from game.measure.bench import cli_bench as measure_cli_bench


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
    model double (bench/fake_llm.py: every answer at once), no model server."""

    watch = None

    def __init__(self, save: Path) -> None:
        from game.measure.bench import _bench_double

        self.start_save = save
        self.llm = _bench_double()

    @asynccontextmanager
    async def _open(self) -> AsyncIterator[Any]:
        yield self.llm

    def open_llm(self, progress: Callable[..., None]) -> Any:
        return self._open()

    async def new_engine(self, llm: Any) -> Any:
        raise RuntimeError("the benchmark host only loads its save")

    async def load_engine(self, path: Path, llm: Any) -> Any:
        from game.engine.build import load_engine

        return load_engine(path, llm)

    def describe_save(self, path: Path) -> Any:
        raise RuntimeError("the benchmark host lists no saves")

    def watch_engine(self) -> Any:
        raise RuntimeError("the benchmark host watches no recording")


def screen_during_autosave(town: Path, save: Path, rounds: int = 5, ticks: int = 30, busy: int = 5) -> dict:
    """The real app, headless, on ``save`` (the big town) at the "fast" rate: the autosave (the
    app's own ``_autosave``) every ``ticks`` ticks (30: 5 game minutes), ``rounds`` times.  A
    watcher on the app's event loop wakes every millisecond; the longest gap between its wake-ups
    is the longest the screen could not draw or take a key (its longest frame), during each
    autosave and, for comparison, during as long a stretch of play with no save.  ``busy`` more
    memories per resident before each autosave, as ``bench_save_load`` adds."""
    from game.measure.bench import _unit_rows
    from game.ui.app import TownApp

    out: dict[str, Any] = {}

    async def run() -> None:
        app = TownApp(_BenchHost(save), save.parent, autosave_s=0, speed="pause")
        gaps: list[float] = []
        watching = True

        async def watch() -> None:
            loop = asyncio.get_running_loop()
            last = loop.time()
            while watching:
                await asyncio.sleep(0.001)
                now = loop.time()
                gaps.append(now - last)
                last = now

        async with app.run_test(headless=True, size=(160, 50)) as pilot:
            t0 = time.monotonic()
            while app.engine is None or app.map_view is None or not app.map_view.actors:
                if time.monotonic() - t0 > 120:
                    raise RuntimeError("the app did not show the town within 120 s")
                await pilot.pause(0.05)
            engine = app.engine
            app.set_speed("fast")
            watcher = asyncio.create_task(watch())
            during, quiet, write_ms, incremental = [], [], [], []
            for _ in range(rounds):
                start = engine.step_no
                gaps.clear()
                t = time.monotonic()
                while engine.step_no < start + ticks:
                    await asyncio.sleep(0.01)
                quiet.append(max(gaps, default=0.0))
                rng = np.random.default_rng(len(during))
                for mind in getattr(engine, "minds", {}).values():
                    for i in range(busy):
                        mind.memory.add("conversation", f"a busy talk, line {i}", engine.clock.now, importance=5,
                                        embedding=_unit_rows(rng, 1)[0])
                app.last_save = None
                gaps.clear()
                app._autosave()
                while app.last_save is None:
                    await asyncio.sleep(0.001)
                during.append(max(gaps, default=0.0))
                write_ms.append(1000 * app.last_save[0])
                incremental.append(app.last_save[1])
                del t
            watching = False
            await watcher
            app.set_speed("pause")
            out.update({
                "screen_autosaves": rounds, "screen_autosaves_incremental": all(incremental),
                "screen_autosave_write_ms_median": round(statistics.median(write_ms), 1),
                "screen_longest_frame_during_autosave_ms": round(1000 * max(during), 1),
                "screen_longest_frame_during_autosave_ms_median": round(1000 * statistics.median(during), 1),
                "screen_longest_frame_playing_no_save_ms": round(1000 * max(quiet), 1),
            })
            await app._close_and_exit()

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


def cli_bench(args: Any) -> int:
    return measure_cli_bench(args, benchmarks())
