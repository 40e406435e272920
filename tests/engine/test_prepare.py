"""Before the first tick of a real-time run the residents who are up, or wake within the look
ahead, plan their day (game/engine/decisions/prepare.py): the town then starts with the model's plans."""

from __future__ import annotations

from datetime import timedelta

from engine_fakes import engine_model

from game.engine.build import new_engine
from game.engine.decisions.prepare import who_to_prepare
from game.engine.events import PrepStep
from game.engine.state import JobKind
from game.world import default_town_path

UP_AT_SIX = ["Felix Adeyemi", "Grace Okafor", "Hank Brody", "Ines Moreau", "Nora Lindqvist", "Rosa Brody"]
UP_BY_HALF_PAST = ["Aiko Tanaka", "Kenji Tanaka"]  # wake at 06:30: asked ahead, still asleep


def _engine():
    return new_engine(default_town_path(), engine_model(jitter=0.002), lockstep=False)


def test_who_is_asked_before_the_clock_starts():
    e = _engine()
    todo = who_to_prepare(e.core, e.board, timedelta(minutes=30))
    assert sorted(n for n, (k, _) in todo.items() if k == JobKind.NEXT) == UP_AT_SIX
    assert sorted(n for n, (k, _) in todo.items() if k == JobKind.AHEAD) == UP_BY_HALF_PAST
    # Samuel wakes at 07:00, Marcus at 08:30: their lanes ask while they sleep, after the start
    assert "Samuel Okafor" not in todo and "Marcus Bell" not in todo
    assert set(who_to_prepare(e.core, e.board, timedelta(minutes=90))) > set(todo)  # a longer look ahead: more


async def test_the_town_starts_with_the_model_plans_and_the_clock_unmoved():
    e = _engine()
    start = e.clock.now
    seen: list[PrepStep] = []
    done = await e.prepare(progress=seen.append)
    assert e.clock.now == start and e.core.step_no == 0  # nothing lived before the plans came
    assert done.asked == sorted(UP_AT_SIX + UP_BY_HALF_PAST) and sorted(done.planned) == done.asked
    assert seen[0] == PrepStep(0, 8) and [s.done for s in seen] == list(range(9))
    assert all(s.plan and not s.failed for s in seen[1:]) and {s.name for s in seen[1:]} == set(done.asked)
    e.step()  # the first tick applies them: everyone up is on a step of the model's, none on routine
    for name in UP_AT_SIX:
        act = e.core.residents[name].action
        assert act is not None and act.source == "model", (name, act)
    assert e.core.minds["Kenji Tanaka"].plan is not None and e.core.residents["Kenji Tanaka"].asleep
    assert not e.board.jobs.keys() & set(UP_AT_SIX)  # no decision of theirs left open
    await e.aclose()


async def test_a_failed_plan_is_said_and_the_resident_keeps_its_routine():
    e = new_engine(default_town_path(), engine_model(jitter=0.002, fail=("plan_day",)), lockstep=False)
    seen: list[PrepStep] = []
    done = await e.prepare(progress=seen.append)
    assert done.planned == [] and all(s.failed for s in seen[1:])
    res = e.step()
    assert res.log and any("model" in line.text for line in res.log)  # the failures are shown
    assert all(e.core.residents[n].action is not None for n in UP_AT_SIX)  # the routine fills in
    await e.aclose()


async def test_the_player_may_start_before_every_plan_came():
    import asyncio

    # answers spread over up to 50 ms each (seeded): with 2 ms, on a loaded machine all eight plans
    # came in one wake-up of the loop, before the player's start could stop the wait
    llm = engine_model(jitter=0.05, latency_seed=7)
    e = new_engine(default_town_path(), llm, lockstep=False)
    enough = asyncio.Event()
    seen: list[PrepStep] = []

    def on_step(s: PrepStep) -> None:
        seen.append(s)
        if s.done == 2:
            enough.set()
    done = await e.prepare(progress=on_step, enough=enough)
    assert 2 <= len(done.planned) < len(done.asked) and seen[-1].done < 8
    assert set(done.asked) - set(done.planned) <= set(e.board.jobs)  # the rest go on in their lanes
    for _ in range(30):  # and are applied as they come, as in play
        e.step()
        await asyncio.sleep(0.01)
    assert all(e.core.residents[n].action.source == "model" for n in UP_AT_SIX)
    await e.aclose()


def test_a_town_opened_at_dawn_has_no_one_to_prepare_and_its_day_unchanged():
    """``town play``'s start (issue 42): just before the first resident wakes, so the clock runs at
    once; the first waker's day plan is asked at once (WAKE_AHEAD), while it sleeps."""
    from game.engine.build import opening, read_town

    own = read_town(default_town_path())
    dawn = opening(own, "dawn")
    assert own.clock.now.strftime("%H:%M") == "06:00" and dawn.clock.now.strftime("%H:%M") == "03:59"
    assert dawn.clock.now.date() == own.clock.now.date() and dawn.clock.day == 1  # Felix wakes at 04:30
    e = new_engine(default_town_path(), engine_model(jitter=0.002), lockstep=False, start=dawn.clock.now)
    assert who_to_prepare(e.core, e.board, timedelta(minutes=30)) == {}
    assert all(m.asleep_at(e.clock.now) for m in e.core.minds.values())


def test_the_start_words():
    import pytest

    from game.engine.build import TownError, opening, read_town

    own = read_town(default_town_path())
    assert opening(own, None) is own and opening(own, "town") is own
    assert opening(own, "07:15").clock.now.strftime("%H:%M") == "07:15"
    early = opening(own, "02:00")
    assert opening(early, "dawn") is early  # already before anyone wakes: as it is
    for bad in ("25:00", "noon", "7", ""):
        with pytest.raises(TownError, match="--start"):
            opening(own, bad)
