"""In the night, while the model server has nothing else to do, a sleeper's day is planned early
(up to ``tuning.NIGHT_AHEAD`` before waking, a few such plans in flight at a time, one slot left
free): the calls of the morning's wake-up, when a whole town decides at once, are made while it
sleeps (issue 30).  In a lull of the day, the same for the next window of an awake resident's
steps (up to ``tuning.IDLE_AHEAD`` before the steps in hand run out), one at a time."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from engine_fakes import engine_model

from game.engine.build import new_engine
from game.engine.state import JobKind
from game.llm.api import ModelStatus
from game.world import default_town_path

NIGHT = datetime(2026, 3, 2, 0, 30)


def _engine(idle: bool, lockstep: bool = False, slots: int | None = None, start: datetime = NIGHT):
    llm = engine_model(jitter=0.002, status=_status(idle, slots))
    return new_engine(default_town_path(), llm, lockstep=lockstep, start=start), llm


def _status(idle: bool, slots: int | None = None) -> ModelStatus:
    return ModelStatus(url="fake", model="fake", spare=1.0, idle_s=30.0 if idle else 0.0, in_flight=0 if idle else 1,
                       slots=slots)


def _early(e) -> list[str]:
    return [n for n, j in e.board.jobs.items() if j.kind == JobKind.AHEAD]


async def test_days_planned_a_few_at_a_time_while_the_server_is_idle():
    e, _ = _engine(idle=True, slots=4)
    most = 0
    for _ in range(400):  # 400 ticks, each waiting for an answer in flight: not a race with the fake's latency
        e.step()
        most = max(most, len(_early(e)))
        if e.board.jobs:
            await e.wait_any()
    assert most == 3  # three at a time on four slots: one stays free for anyone who needs it
    # everyone waking within six hours of now had the day planned in the night, asleep still
    for name in ("Felix Adeyemi", "Hank Brody", "Ines Moreau", "Nora Lindqvist", "Grace Okafor"):
        plan = e.core.minds[name].plan
        assert plan is not None and plan.source == "model" and e.core.residents[name].asleep, name
    assert e.core.minds["Eli Moreau"].plan is None  # wakes at 08:00: more than six hours away still
    await e.aclose()


async def test_not_while_the_server_is_busy_nor_in_lockstep():
    e, llm = _engine(idle=False)
    for _ in range(20):
        e.step()
        await asyncio.sleep(0.002)
    assert _early(e) == []  # busy: the usual look ahead (90 game minutes before waking) only
    llm.model_status = _status(idle=True)
    e.step()
    assert len(_early(e)) == 1
    await e.aclose()
    e, _ = _engine(idle=True, lockstep=True)
    for _ in range(40):
        e.step()
        await e.wait_ready()
    assert _early(e) == []  # the same town whatever the server's idle time says
    await e.aclose()


async def test_one_at_a_time_when_the_slots_are_not_known():
    e, _ = _engine(idle=True)
    most = 0
    for _ in range(60):
        e.step()
        most = max(most, len(_early(e)))
        if e.board.jobs:
            await e.wait_any()
    assert most == 1
    await e.aclose()


def test_no_new_early_plan_while_the_town_has_a_call_in_flight():
    e, llm = _engine(idle=True, slots=4)
    cap = e.capacity
    e.lanes.early.update({"Felix Adeyemi"})
    # busy with something other than early plans: no room, even with slots free
    llm.model_status = ModelStatus(url="fake", model="fake", spare=0.5, idle_s=0.0, in_flight=1, slots=4)
    e.core.step_no += 1
    assert not cap.room_to_plan(e.lanes.early)
    llm.model_status = ModelStatus(url="fake", model="fake", spare=0.5, idle_s=0.0, in_flight=0, queued=1, slots=4)
    e.core.step_no += 1
    assert not cap.room_to_plan(e.lanes.early)
    llm.model_status = _status(idle=True, slots=4)
    e.core.step_no += 1
    assert cap.room_to_plan(e.lanes.early)


async def test_an_awake_residents_next_window_asked_in_a_lull():
    e, llm = _engine(idle=False, slots=4, start=datetime(2026, 3, 2, 10, 0))
    for _ in range(60):  # the morning's decisions, with a busy server: the usual look ahead only
        e.step()
        if e.board.jobs:
            await e.wait_any()
    now = e.clock.now
    awake = [n for n, r in e.core.residents.items() if not r.asleep and e.core.minds[n].steps_run_out(now) is not None]
    assert awake
    llm.model_status = _status(idle=True, slots=4)
    asked: dict[str, timedelta] = {}
    for _ in range(10):
        before = {n: e.core.minds[n].steps_run_out(e.clock.now) for n in awake}
        now = e.clock.now
        e.step()
        assert len([n for n in _early(e) if n in e.lanes.early]) <= 1  # one at a time by day, not three
        for n in _early(e):
            at = before.get(n)
            if n in e.lanes.early and n not in asked and at is not None:
                asked[n] = at - now
        await asyncio.sleep(0.01)
    assert asked and set(asked) <= set(awake)
    # asked past the usual look ahead (30 game minutes in real time), within three hours
    assert all(timedelta(minutes=30) < left <= timedelta(hours=3) for left in asked.values()), asked
    await e.aclose()


async def test_opened_before_dawn_the_first_to_wake_is_planned_first():
    """A town opened at dawn (03:59, Felix wakes at 04:30): his day plan is asked alone, and the three
    who wake at 05:30 (due 90 game minutes before, at 04:00) wait for it; they are then asked together.
    In play on 2026-11-28 the four were asked at once on two cores and Felix woke unplanned."""
    e, llm = _engine(idle=True, slots=4, start=datetime(2026, 3, 2, 3, 59))  # room for early plans too
    e.step()  # the first tick's decisions: asleep, no model call
    await asyncio.gather(*(j.task for j in e.board.jobs.values() if j.task is not None))
    assert llm.purposes() == []
    for _ in range(12):  # to 04:01: Felix's plan still in flight, the trio due
        e.step()
        await asyncio.sleep(0)  # his job starts (a mind planning says no run-out meanwhile)
    assert _early(e) == ["Felix Adeyemi"]
    for _ in range(200):
        if e.board.jobs:
            await e.wait_any()
        e.step()
        if {"Hank Brody", "Ines Moreau", "Nora Lindqvist"} & set(_early(e)):
            break
    assert e.core.minds["Felix Adeyemi"].plan is not None and "Felix Adeyemi" not in _early(e)
    assert {"Hank Brody", "Ines Moreau", "Nora Lindqvist"} <= set(_early(e))  # asked together, once he was
    await e.aclose()


async def test_an_awake_residents_window_is_never_held_for_the_sleepers_plans():
    """The first-waker rule is for sleepers' plans: Felix, up at 05:00, has his next window asked
    as early as ever while the 05:30 trio's plans are still in flight (in play on 2026-11-28 his
    window waited behind theirs and the clock slowed at 05:09)."""
    from game.engine.decisions.capacity import Capacity

    e, _ = _engine(idle=True, slots=4, start=datetime(2026, 3, 2, 5, 0))
    felix = e.core.minds["Felix Adeyemi"]
    at = datetime(2026, 3, 2, 5, 50)  # his steps run out in 50 minutes: past AHEAD, within the look ahead
    felix.steps_run_out = lambda now: at  # type: ignore[method-assign]
    assert not felix.asleep_at(e.clock.now)
    assert Capacity.earlier_waking_first(e.lanes.capacity, at, e.clock.now)  # a sleeper (the trio) wakes first
    e.lanes.lookahead.ahead = timedelta(minutes=60)
    assert e.lanes.maybe_ahead(e.core.residents["Felix Adeyemi"], e.clock.now)
    assert e.board.jobs["Felix Adeyemi"].kind == JobKind.AHEAD
    await e.aclose()


async def test_a_whisper_in_the_night_is_planned_for_before_the_sleeper_wakes():
    """In play on 2026-12-02, a whisper to Felix at 04:18 (he wakes at 04:30) left his replan and first
    window to be asked when he woke, behind the 05:30 trio's plans: x9-x12 slowed, the model leading 0%
    of 04:30-04:45.  Now his day is planned again before he wakes, and at 04:30 he lives by the model."""
    from game.engine.events import Whisper

    e, llm = _engine(idle=True, slots=4, start=datetime(2026, 3, 2, 3, 59))
    felix = e.core.minds["Felix Adeyemi"]
    for _ in range(400):
        if e.board.jobs:
            await e.wait_any()
        e.step()
        if felix.plan is not None and felix.agenda.queue and e.clock.now.minute >= 10:
            break
    assert felix.plan is not None and e.core.residents["Felix Adeyemi"].asleep
    e.submit(Whisper("Felix Adeyemi", "I should bake extra loaves for the market today"))
    while e.clock.now < datetime(2026, 3, 2, 4, 30):
        if e.board.jobs:
            await e.wait_any()
        e.step()
    assert ("replan", "Felix Adeyemi") in llm.pairs() and felix.agenda.replan_reason is None
    assert felix.agenda.queue and felix.agenda.queue[0].source == "model"
    await e.aclose()
