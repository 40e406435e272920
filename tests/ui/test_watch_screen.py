"""Watching a recorded run in the game (``town play --watch RECORDING``): the map plays the run back
with no model, ] and [ jump ten minutes either way, g goes to a time, the keys that change a town are
off, and n forks a live town from the moment on screen (saved under saves/, run by the model)."""

from __future__ import annotations

import sys
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from engine_fakes import engine_model  # noqa: E402
from test_real_engine import ready, until  # noqa: E402

from game.engine import Engine  # noqa: E402
from game.engine.build import new_engine  # noqa: E402
from game.engine.events import Whisper  # noqa: E402
from game.engine.running.manifest import write_engine_manifest  # noqa: E402
from game.llm.record import RecordingLLM  # noqa: E402
from game.ui.app import TownApp  # noqa: E402
from game.ui.host import RealHost  # noqa: E402
from game.ui.screens import AskScreen  # noqa: E402
from game.world import default_town_path  # noqa: E402

pytestmark = pytest.mark.skipif(not default_town_path().exists(), reason="no default town")
TICKS = 240  # 40 game minutes at 10 s a tick


class WatchHost(RealHost):
    def __init__(self, recording: Path) -> None:
        super().__init__(SimpleNamespace(town=None, small=True, watch=str(recording)))
        self.llm = engine_model(jitter=0.001)
        self.opened = 0

    @asynccontextmanager
    async def _open(self, progress):
        self.opened += 1
        progress("fake model ready")
        yield self.llm

    def open_llm(self, progress):
        return self._open(progress)


async def _record(path: Path) -> str:
    rec = RecordingLLM(engine_model(), path)
    e = new_engine(default_town_path(), rec, small=True, lockstep=True)
    e.submit(Whisper("Rosa Brody", "Felix gives away free pastries on Saturday"))
    for _ in range(TICKS):
        await e.wait_ready()
        e.step()
    write_engine_manifest(path, e.core, e.commands.log, start=default_town_path(), small=True)
    end = e.clock.text()
    await e.aclose()
    await rec.aclose()
    return end


@pytest.mark.slow
async def test_watch_jump_go_to_and_fork(tmp_path):
    rec = tmp_path / "run.jsonl"
    end_clock = await _record(rec)
    host = WatchHost(rec)
    app = TownApp(host, tmp_path / "saves", autosave_s=0, speed="pause")
    async with app.run_test(size=(140, 44)) as pilot:
        await ready(app, pilot)
        assert app.session.replaying and host.opened == 0  # no model to watch
        assert "REPLAY" in app.widgets.clock_bar._last
        start = app.session.engine.at
        # the keys that would change the town are off while watching
        assert app.check_action("talk", ()) is False and app.check_action("whisper", ()) is False
        assert app.check_action("fork", ()) is True

        await pilot.press("right_square_bracket")
        await until(pilot, lambda: app.session.engine.at == start + 60)
        await until(pilot, lambda: app.panels.last_clock.endswith("06:10:00"))
        await pilot.press("left_square_bracket")
        await until(pilot, lambda: app.session.engine.at == start)
        await pilot.press("right_curly_bracket")  # an hour on: stops at the end of the run
        await until(pilot, lambda: app.session.engine.at == TICKS)
        await until(pilot, lambda: app.panels.last_clock == end_clock)

        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, AskScreen))
        await pilot.press(*"06:20")
        await pilot.press("enter")
        await until(pilot, lambda: app.session.engine.at == 120)
        positions = dict(app.session.engine.positions())
        assert {a: tuple(app.widgets.map_view.actors[a].pos) for a in positions} == positions

        await pilot.press("n")  # fork a live town here
        await until(pilot, lambda: isinstance(app.session.engine, Engine), timeout=20)
        assert not app.session.replaying and host.opened == 1
        assert app.session.engine.core.step_no == 120 and app.session.engine.core.llm is host.llm
        forks = list((tmp_path / "saves").glob("fork-*.save"))
        assert len(forks) == 1 and app.session.save_path == forks[0]
        assert app.check_action("talk", ()) is True and app.check_action("fork", ()) is False
        app.player.set_speed("fast")
        await until(pilot, lambda: app.session.engine.core.step_no > 125, timeout=20)  # and it goes on live
        await pilot.press("q")
