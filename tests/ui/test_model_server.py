"""The player is told what befalls the model server (game/llm/supervisor.py, read from the status):
lost and being brought back, back, or away, with "model away" plainly in the clock bar while the
town goes on by routine.  First on the fake screen's fake model (its status set by hand), then in
``town play`` on the real engine and the embedded server, the FAKE llama-server
(tests/faults/fake_llama.py), killed in the middle of play: it is back, the model leads again."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

from fake_engine import FakeEngine, FakeHost
from faults.fake_llama import fake_llama_env, started
from faults.townfiles import write_town

from game.engine.events import LogLine, TickResult
from game.llm.server import _RUNNING
from game.ui.app import MainScreen, TownApp
from game.ui.host import RealHost
from game.ui.messages import Ticked

FAST = {"normal": 0.05, "fast": 0.02}


async def until(pilot, cond, timeout: float = 10.0) -> float:
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise AssertionError("condition not met in time")
        await pilot.pause(0.02)
    return time.monotonic() - t0


def told(app: TownApp) -> list[tuple[str, str, str]]:
    return [(n.title, n.message, n.severity) for n in app._notifications]


async def main_screen(app: TownApp, pilot) -> None:
    await until(pilot, lambda: isinstance(app.screen, MainScreen) and app.widgets.map_view is not None
                and app.widgets.map_view.actors, timeout=30)


async def test_lost_back_and_away_are_told_and_the_clock_bar_says_model_away(tmp_path):
    host = FakeHost(engine=FakeEngine())
    app = TownApp(host, tmp_path / "saves", tick_delay=FAST, speed="normal", autosave_s=0)
    llm = host.llm
    async with app.run_test(size=(140, 40)) as pilot:
        await main_screen(app, pilot)
        bar = app.widgets.clock_bar
        assert "model" not in bar._last.replace("model-led", "")  # up: nothing said
        llm.model_status = replace(llm.model_status, server="restarting",
                                   server_note="the model server stopped (exit code -9): restarting it in 1 s")
        await until(pilot, lambda: "model restarting" in bar._last)
        await until(pilot, lambda: ("Model server lost: bringing it back",  # (notifications are messages)
                                    "the model server stopped (exit code -9): restarting it in 1 s",
                                    "warning") in told(app))
        llm.model_status = replace(llm.model_status, server="up", restarts=1, reasked=3)
        await until(pilot, lambda: "model restarting" not in bar._last)
        await until(pilot, lambda: any(t == "The model server is back" for t, _, _ in told(app)))
        steps = app.session.engine.steps
        llm.model_status = replace(llm.model_status, server="away",
                                   server_note="the model server could not be restarted in 4 tries (exit code 3)")
        await until(pilot, lambda: "model away" in bar._last)
        await until(pilot, lambda: told(app)[-1][0] == "The model is away")
        title, message, severity = told(app)[-1]
        assert (title, severity) == ("The model is away", "error")
        assert "could not be restarted in 4 tries" in message and "goes on by routine" in message
        assert any("the model is away" in line for line in app.widgets.town_log.history)
        await until(pilot, lambda: app.session.engine.steps > steps + 3)  # the town goes on
        # every decision fails while it is away: in the town log, not one notification each
        app.post_message(Ticked(TickResult(step=99, clock="Day 1, 08:00:00", log=[
            LogLine("error", "model: Klaus Mueller: plan_day: lost the model server (the model is away: ...)")])))
        await until(pilot, lambda: any("Klaus Mueller: plan_day" in h for h in app.widgets.town_log.history))
        await pilot.pause(1.2)  # told once, not at every look at the status
        titles = [t for t, _, _ in told(app)]
        assert titles.count("The model is away") == 1 and "The model failed" not in titles, titles
        assert "model away" in bar._last
    # on a narrow terminal the bar drops other parts first: "model away" stays
    app = TownApp(FakeHost(engine=FakeEngine()), tmp_path / "saves", tick_delay=FAST, speed="normal", autosave_s=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await main_screen(app, pilot)
        app.session.llm.model_status = replace(app.session.llm.model_status, server="away", server_note="gone")
        await until(pilot, lambda: "model away" in app.widgets.clock_bar._last)


class FakeLlamaHost(RealHost):
    """The product's host (the real ``open_llm``, engine and town files) on the fake llama-server."""

    def __init__(self, town: Path) -> None:
        super().__init__(SimpleNamespace(town=str(town), small=False))


async def test_town_play_brings_a_killed_server_back_and_the_model_leads_again(tmp_path, monkeypatch):
    _, starts = fake_llama_env(tmp_path, monkeypatch, delay=0.2)
    town = write_town(tmp_path / "town")
    before = set(_RUNNING)  # (a server another test of this process left registered is not this one)
    app = TownApp(FakeLlamaHost(town), tmp_path / "saves", tick_delay=FAST, speed="fast", autosave_s=0)
    async with app.run_test(size=(140, 40)) as pilot:
        await main_screen(app, pilot)
        llm, engine = app.session.llm, app.session.engine
        await until(pilot, lambda: llm.accounting.total.calls >= 10 and llm.scheduler.in_flight > 0, timeout=30)
        [server] = [s for s in _RUNNING if s not in before]
        pid = server.proc.pid
        server.kill()
        t0 = time.monotonic()
        await until(pilot, lambda: llm.status().restarts == 1, timeout=30)
        back_s = time.monotonic() - t0
        assert server.alive() and server.proc.pid != pid and len(started(starts)) == 2
        await until(pilot, lambda: any(t == "The model server is back" for t, _, _ in told(app)))
        assert "model restarting" not in app.widgets.clock_bar._last
        calls = llm.accounting.total.calls
        await until(pilot, lambda: llm.accounting.total.calls >= calls + 10, timeout=30)  # asked again
        await until(pilot, lambda: (engine.lead()[0] or 0) >= 0.5, timeout=30)  # the model leads again
        print(f"\nthe server was back {back_s:.1f} s after the kill; model-led {engine.lead()[0]:.0%} "
              f"at {engine.clock.text()}; {llm.status().reasked} calls asked again")
        assert back_s < 30 and llm.status().reasked >= 1  # what was in flight was asked again
        await pilot.press("space")  # pause before the app closes
    # the app cancels its workers on the way out and does not wait for them: the model session's
    # cleanup runs on the loop's next turns (its first step, with no await, stops the server)
    for _ in range(50):
        if not set(_RUNNING) - before:
            break
        await asyncio.sleep(0.1)
    assert not (set(_RUNNING) - before)  # the server stopped with the game, and was not restarted after
