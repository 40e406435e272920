"""Before the first tick: the residents who are up, or soon will be, plan their day.

At a fresh start every resident awake at the town's hour needs its day plan and its first window
of steps at once: three calls in a row each (the identity refresh, the day plan, the decompose).
With a dozen residents a small model on two cores took 3-5 real minutes over them while the
clock crawled ("slowed x12 for the model") and the town lived by its routine: what every new
player saw first was a frozen game (issue 30).  ``prepare_town`` asks those decisions before the
clock starts, exactly as the first tick would (a ``next`` job for one who is up, an ``ahead`` job
for one who wakes within ``horizon``), waits for them with progress for the start screen or the
run's log, and leaves their answers to be applied at the first tick.  The town then appears with
the model's plans in hand and its clock at the chosen rate; residents who wake later are asked
ahead while they sleep, as at any hour of play (``Lanes.maybe_ahead``).

Real time only: in lockstep the clock waits for every decision anyway, and a recorded run must
ask its questions on the ticks it asked them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import datetime, timedelta

from game.engine.decisions.jobs import JobBoard
from game.engine.decisions.lanes import Lanes
from game.engine.events import FirstPlans, PrepStep
from game.engine.state import JobKind, Resident
from game.engine.towncore import TownCore
from game.engine.tuning import PREPARE_AHEAD
from game.mind.view import hhmm


def who_to_prepare(core: TownCore, board: JobBoard, horizon: timedelta) -> dict[str, tuple[JobKind, datetime | None]]:
    """The residents whose next decision the first ticks would ask: awake with no step of their
    own in hand (``next``), or asleep with an unplanned day that begins within ``horizon``
    (``ahead``, with the time it wakes).  Not the player's, not one with a job already in flight
    (a save's pending one)."""
    now = core.clock.now
    out: dict[str, tuple[JobKind, datetime | None]] = {}
    for r in core.residents.values():
        if core.controlled(r.name) or r.conversation or r.name in board.jobs:
            continue
        mind = core.minds[r.name]
        if not mind.asleep_at(now):
            if r.needs_decision or r.action_ended(now):
                out[r.name] = (JobKind.NEXT, None)
            continue
        at = mind.steps_run_out(now)
        if at is not None and at - now <= horizon:
            out[r.name] = (JobKind.AHEAD, at)
    return out


def plan_line(core: TownCore, name: str, blocks: int = 3) -> str:
    """The next blocks of ``name``'s plan for the day (from the town's time, or its waking), one
    line, or "" when it has none of the model's."""
    plan = core.minds[name].plan
    if plan is None or plan.source != "model":
        return ""
    now = core.clock.now
    minute = now.hour * 60 + now.minute
    ahead = [b for b in plan.blocks if b.end > minute]
    parts = [f"{hhmm(b.start)} {b.activity}" for b in ahead[:blocks]]
    return "; ".join(parts)


async def _set(event: asyncio.Event) -> object:
    return await event.wait()


async def prepare_town(core: TownCore, board: JobBoard, lanes: Lanes, *,
                       horizon: timedelta = PREPARE_AHEAD,
                       progress: Callable[[PrepStep], None] | None = None,
                       enough: asyncio.Event | None = None) -> FirstPlans:
    """Ask the first decisions (``who_to_prepare``) and wait for them all, or until ``enough`` is
    set (the player chose to start now: the decisions still open go on in their lanes, as any
    decision in play does); their answers are applied at the next ``step()``.  A failed call is
    not retried here: the resident lives by its routine until its lane asks again, as in play,
    and ``FirstPlans.planned`` leaves it out."""
    t0 = time.monotonic()
    now = core.clock.now
    todo = who_to_prepare(core, board, horizon)
    out = FirstPlans(asked=sorted(todo))
    tasks: dict[asyncio.Task[object], str] = {}
    for name in out.asked:
        r: Resident = core.residents[name]
        kind, at = todo[name]
        if at is not None:  # asleep: its day and first window, for the time it wakes
            lanes.ask(r, kind, now, {"run_out": at.isoformat()})
        else:
            core.ledger.need(name, now)  # its decision is open from the town's first moment
            lanes.ask(r, kind, now, {})
    lanes.launch()
    for name in out.asked:
        task = board.jobs[name].task
        if task is not None:
            tasks[task] = name
    if progress is not None:
        progress(PrepStep(0, len(tasks)))
    pending = set(tasks)
    stop = asyncio.create_task(_set(enough)) if enough is not None else None
    done = 0
    while pending and not (stop is not None and stop.done()):
        waiting: set[asyncio.Future[object]] = set(pending)
        if stop is not None:
            waiting.add(stop)
        await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        finished = {t for t in pending if t.done()}
        pending -= finished
        for task in sorted(finished, key=lambda t: tasks[t]):
            name = tasks[task]
            done += 1
            line = plan_line(core, name) if not task.cancelled() and task.exception() is None else ""
            if line:
                out.planned.append(name)
            if progress is not None:
                progress(PrepStep(done, len(tasks), name, line, failed=not line))
    if stop is not None and not stop.done():
        stop.cancel()
    out.seconds = time.monotonic() - t0
    return out
