"""Snapshot tests of the main screens (pytest-textual-snapshot; update with --snapshot-update).

The town is paused and FakeEngine is deterministic, so each screen draws the same every run."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from pathlib import Path

from fake_engine import FakeEngine, FakeHost

from game.ui.app import MainScreen, TownApp
from game.ui.screens import LoadScreen, TalkScreen

SIZE = (120, 36)


def make_app(tmp_path: Path, engine: FakeEngine | None = None) -> TownApp:
    return TownApp(FakeHost(engine=engine or FakeEngine()), tmp_path / "saves", speed="pause", autosave_s=0)


async def wait_for(pilot, cond, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.02)):
        if cond():
            return
        await pilot.pause(0.02)
    raise AssertionError("condition not met in time")


async def main_ready(pilot) -> None:
    app = pilot.app
    await wait_for(pilot, lambda: isinstance(app.screen, MainScreen) and app.widgets.map_view is not None
                   and app.widgets.map_view.actors)
    await pilot.pause(0.3)


class StuckHost(FakeHost):
    """A model server that stays at one stage of starting (the start screen, frozen)."""

    @asynccontextmanager
    async def _open(self, progress):
        progress("loading model weights", 0.5)
        await asyncio.Event().wait()
        yield self.llm


def test_start_screen(snap_compare, tmp_path):
    app = TownApp(StuckHost(), tmp_path / "saves", speed="pause", autosave_s=0)

    async def run_before(pilot):
        await wait_for(pilot, lambda: pilot.app.worker.start_screen.fraction == 0.5)
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_main_screen_with_selected_resident(snap_compare, tmp_path):
    async def run_before(pilot):
        await main_ready(pilot)
        await pilot.press("tab", "tab")
        await pilot.pause(0.3)

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_talk_screen(snap_compare, tmp_path):
    eng = FakeEngine(reply="Welcome to Hobbs Cafe, friend!")
    eng.visitor_spawn = (6, 2)
    eng.pos["Isabella Rodriguez"] = (5, 2)

    async def run_before(pilot):
        app = pilot.app
        await main_ready(pilot)
        await pilot.press("v", *"Ada", "enter", *"a painter", "enter")
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, TalkScreen))
        await pilot.press(*"hello!", "enter")
        await wait_for(pilot, lambda: len(app.screen.lines) == 2)
        app.clear_notifications()
        app.screen.query_one("#talk-input").cursor_blink = False
        await pilot.pause(0.3)

    assert snap_compare(make_app(tmp_path, eng), terminal_size=SIZE, run_before=run_before)


def test_load_screen(snap_compare, tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    FakeEngine().save(saves / "Testville.save")

    async def run_before(pilot):
        app = pilot.app
        await main_ready(pilot)
        await pilot.press("ctrl+l")
        await wait_for(pilot, lambda: isinstance(app.screen, LoadScreen))
        await pilot.pause(0.3)

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_help_screen(snap_compare, tmp_path):
    async def run_before(pilot):
        await main_ready(pilot)
        await pilot.press("question_mark")
        await pilot.pause(0.3)

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=run_before)
