"""``steps_run_out`` keeps its reading of the plan for a run-out time (``Planner._window_after``):
asked for every resident at every step, the same time and plan read again gave the same answer.
What it kept is read again when the plan, the plan day or the hours of sleep change."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from .conftest import DAY1
from .test_mind_logic import TWO_HOURS, make


async def test_the_run_out_kept_is_read_again_when_the_plan_or_the_sleep_changes(view):
    mind, _ = make(**TWO_HOURS)
    now = DAY1.replace(hour=7)
    await mind.next_action(now, view)
    at = mind.steps_run_out(now)
    assert at is not None and mind.steps_run_out(now) == at
    plan = mind.agenda.plan
    minute = at.hour * 60 + at.minute
    # a plan with no block in progress then (another object, the same run-out time): nothing to ask
    mind.agenda.plan = replace(plan, blocks=tuple(b for b in plan.blocks if not b.start <= minute < b.end))
    assert mind.steps_run_out(now) is None
    mind.agenda.plan = plan
    assert mind.steps_run_out(now) == at
    # asleep by then: nothing to ask; awake again: asked
    p = mind.core.persona
    sleep = p.sleep
    p.sleep = minute
    assert mind.steps_run_out(now) is None
    p.sleep = sleep
    assert mind.steps_run_out(now) == at
    # a plan of another day
    day = mind.agenda.plan_date
    mind.agenda.plan_date = day.replace(day=day.day + 1)
    assert mind.steps_run_out(now) is None
    mind.agenda.plan_date = day
    assert mind.steps_run_out(now) == at


async def test_the_run_out_kept_follows_the_steps_decided(view):
    """The end of the steps decided is kept while the step in hand and the last queued are the same ones."""
    mind, _ = make(**TWO_HOURS)
    now = DAY1.replace(hour=7)
    await mind.next_action(now, view)
    at = mind.steps_run_out(now)
    assert at is not None
    last = mind.agenda.queue[-1]
    later = replace(last, start=at, duration_min=20)  # one more step queued: they run out 20 minutes later
    mind.agenda.queue.append(later)
    assert mind.steps_run_out(now) == at + timedelta(minutes=20)
    mind.agenda.queue.pop()
    assert mind.steps_run_out(now) == at
    mind.agenda.queue.clear()  # the step in hand is all that is decided
    assert mind.steps_run_out(now) == mind.agenda.current.end()
    mind.agenda.current = replace(mind.agenda.current, duration_min=mind.agenda.current.duration_min + 5)
    assert mind.steps_run_out(now) == mind.agenda.current.end()
