"""The first minute (issue 30): before the clock starts, the residents up or soon up plan their day
on the start screen, each plan shown as it comes; the town then starts on the model's steps.
Enter starts it before every plan came."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from test_real_engine import FakeModelHost, ready, until  # noqa: E402

from game.engine.events import PrepStep  # noqa: E402
from game.ui.app import TownApp  # noqa: E402
from game.ui.start import StartScreen  # noqa: E402
from game.world import default_town_path  # noqa: E402

pytestmark = pytest.mark.skipif(not default_town_path().exists(), reason="no default town")


async def test_the_plans_come_on_the_start_screen_then_the_town_starts_on_them(tmp_path):
    host = FakeModelHost()
    app = TownApp(host, tmp_path / "saves", speed="pause", autosave_s=0)
    async with app.run_test(size=(80, 24)) as pilot:
        start = app.worker.start_screen
        await ready(app, pilot)
        assert [who for who, _ in start.plans] and len(start.plans) == 8  # everyone up by 06:30
        assert all(plan for _, plan in start.plans)
        engine = app.session.engine
        assert engine.core.step_no == 0  # the clock had not moved while they planned
        await pilot.press("space")  # play: the first tick applies them
        await until(pilot, lambda: engine.core.step_no >= 1)
        up = [n for n, r in engine.core.residents.items() if not r.asleep]
        assert up and all(engine.core.residents[n].action.source == "model" for n in up)


async def test_enter_starts_the_town_before_every_plan_came(tmp_path):
    host = FakeModelHost()
    host.llm.jitter = 0.6  # a slow model: the plans take a while (up to 0.6 s a call, three calls each)
    app = TownApp(host, tmp_path / "saves", speed="pause", autosave_s=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, StartScreen) and app.screen.start_now is not None)
        text = str(app.screen.query_one("#start-plans").render())
        assert "Enter: start now" in text
        await pilot.press("enter")
        await ready(app, pilot)
        assert len(app.worker.start_screen.plans) < 8  # it did not wait for them all
        assert app.session.engine.board.jobs  # the rest go on in their lanes


def test_a_plan_line_is_plain_text_and_a_missing_one_says_so():
    s = StartScreen()
    s.add_plan("Grace [b]Okafor[/b]", "06:00 open the cafe\x1b[31m")
    s.add_plan("Hank Brody", "")
    text = s.plans_text().plain
    assert "Grace [b]Okafor[/b]: 06:00 open the cafe" in text and "\x1b" not in text  # never markup, never escapes
    assert "Hank Brody: no plan from the model yet" in text
    s.add_plan("Aiko Tanaka", "06:30 Wake up and have a breakfast of oatmeal and toast with berries. Read; 08:30 work")
    line = s.plans_text().plain.splitlines()[-1]
    assert len(line) <= 58 and line.endswith("…")  # one line each: six of them fit an 80x24 terminal
    step = PrepStep(1, 8, "Hank Brody", "", failed=True)
    assert step.failed and not step.plan


async def test_plans_that_fail_are_shown_and_the_town_starts_all_the_same(tmp_path, monkeypatch):
    # game/ui/worker.py catches any failure of the first plans there: the lanes ask again in play
    from game.engine.engine import Engine

    async def broken(self: Engine, *args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug in the plans")

    monkeypatch.setattr(Engine, "prepare", broken)
    app = TownApp(FakeModelHost(), tmp_path / "saves", speed="pause", autosave_s=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(app, pilot)
        assert app.panels.last_error == "RuntimeError: a bug in the plans"
        engine = app.session.engine
        await pilot.press("space")  # and the town plays
        await until(pilot, lambda: engine.core.step_no >= 1)
