"""Spare capacity: in real-time play, reactions and talks past the residents' daily caps while the
model server has time to spare.

A mind's daily caps (``MindConfig.max_reacts_per_day``, ``max_talks_per_day``) are the floor: what a
resident may always spend on everyday sights and talks.  Past it, a reaction is asked only with an
``Allowance`` (game/mind/view.py), which the engine gives with a reaction job when all of these hold:

- the run is in real time (``Engine.lockstep`` False: pace normal or fast, the screen).  Lockstep
  runs, scenarios and replays never get one: the idle time of a server depends on the machine and
  the moment, and the same recorded answers must make the same town;
- the server has been idle (nothing in flight, nothing queued) for ``min_spare`` of the last minute
  and for ``min_idle_s`` seconds now (``ModelStatus.spare`` and ``idle_s``, measured by the
  scheduler: game/llm/scheduler.py);
- no planning is due soon: no resident waits for its next step or has one asked (``next``,
  ``ahead``), and nobody's decided steps run out (or, asleep, its unplanned day begins) within the
  look ahead plus ``plan_clear`` game minutes (the day plans and windows come first);
- fewer than ``at_once`` reactions holding an allowance are in flight in the whole town (the
  first one makes the server busy, and so closes the door behind it).

The allowance is the ceiling past the floor (``reacts`` calls, ``talks`` conversations a
resident-day); the mind uses it only past its floor, and asks such a call at a priority below the
town's planning (so a day plan asked meanwhile still goes first).  The engine counts the
allowances it gave (``Capacity.given``, ``Engine.spare_given``), the minds the calls and talks they made with one
(``stats``: ``react_spare``, ``talk_spare``), which ``town run`` and ``town report`` show among the
minds' counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from game.engine.api import MindPort
from game.engine.decisions.jobs import JobBoard
from game.engine.decisions.lookahead import Lookahead
from game.engine.state import JobKind, Resident
from game.engine.towncore import TownCore
from game.engine.tuning import AHEAD, WAKE_AHEAD, WAKE_GROUP
from game.llm.api import ModelStatus
from game.mind.view import Allowance


@dataclass(frozen=True)
class SpareRule:
    min_spare: float = 0.5  # the server idle at least half of the last minute
    min_idle_s: float = 5.0  # ... and idle now for this many real seconds
    # no resident's planning due within the look ahead plus this (a reaction at normal pace on two
    # cores is a call of 10-20 real seconds: 3-7 game minutes)
    plan_clear: timedelta = timedelta(minutes=10)
    reacts: int = 8  # the ceiling: reaction calls past the floor a resident-day (16 in all by default)
    talks: int = 3  # ... and conversations (8 in all by default)
    at_once: int = 1  # reactions holding an allowance in flight in the whole town
    night_idle_s: float = 2.0  # a plan asked early (``room_to_plan``): the server idle this long now
    early_at_once: int = 3  # ... and at most this many such plans in flight, and one slot left free
    # ... or, for an awake resident's next window, this many: the lulls of the day are short, and
    # on a CPU server a call in a slot slows the others (Smallville at 07:00: three windows of
    # 10:00-14:00 in flight as the morning's meetings began held the clock at x0.74)
    early_awake_at_once: int = 1


def server_spare(status: ModelStatus, rule: SpareRule) -> bool:
    """Whether the model server has time to spare now (a status without the figures, as a
    replay's or a test double's, has none)."""
    spare, idle = status.spare, status.idle_s
    if spare is None or idle is None:
        return False
    return (spare >= rule.min_spare and idle >= rule.min_idle_s
            and not status.queued and not status.in_flight)


class Capacity:
    """A part of ``Engine``: who may react past the daily floor (``allowance``).  Owns ``rule``
    (None turns it off) and ``given``, the allowances given so far.  Takes the core, the job board
    (what is asked already) and the look ahead (how early planning is asked)."""

    def __init__(self, core: TownCore, board: JobBoard, lookahead: Lookahead) -> None:
        self.core = core
        self.board = board
        self.lookahead = lookahead
        self.rule: SpareRule | None = SpareRule()
        self.given = 0
        self.reflecting = 0  # reflections in flight (``reflect``: one at a time in the whole town)
        self._read: tuple[int, ModelStatus | None] = (-1, None)  # the server's status as read at a step
        self._reacts = (-1, 0)  # the reactions on the board as counted at a step
        self._first_wake: tuple[datetime | None, datetime | None] = (None, None)  # (the tick, the first run-out)

    def server(self) -> ModelStatus | None:
        """The server's status, read once a tick (not once a resident); None in lockstep or with the
        rule off."""
        if self.core.lockstep or self.rule is None:
            return None
        step = self.core.step_no
        if self._read[0] != step:
            self._read = (step, self.core.llm.status())
        return self._read[1]

    def allowance(self, r: Resident, now: datetime) -> Allowance | None:
        rule = self.rule
        if self.core.lockstep or rule is None:
            return None  # (before anything timed is read: a lockstep town stays a function of its answers)
        holding = sum(1 for j in self.board.jobs.values() if j.kind == JobKind.REACT and "allowance" in j.args)
        if holding >= rule.at_once:
            return None
        status = self.server()
        if status is None or not server_spare(status, rule) or self.planning_due(now, rule.plan_clear):
            return None
        self.given += 1
        return Allowance(reacts=rule.reacts, talks=rule.talks)

    def room_to_plan(self, early: set[str], *, awake: bool = False) -> bool:
        """Whether a resident's plan may be asked early (``tuning.NIGHT_AHEAD`` asleep,
        ``IDLE_AHEAD`` awake): in real time only, with nothing queued at the server, and either
        nothing in flight for ``night_idle_s`` now or nothing in flight but other early plans, and
        fewer than ``early_at_once`` of those (``early``: the residents whose lane holds one).  In
        the night, when everyone sleeps, and in the lulls of the day, the server is otherwise idle:
        the plans made then are calls the next crowd (the morning's wake-up, when a whole town
        decides at once; the arrivals at work) need not make.  The slots the early plans leave
        free are the town's: a decision asked meanwhile starts at once, and no new early plan
        starts until it is done.  ``awake``: the plan is an awake resident's next window (at most
        ``early_awake_at_once`` early plans in flight then)."""
        rule, st = self.rule, self.server()
        if rule is None or st is None or st.queued or st.idle_s is None:
            return False
        asked = sum(1 for name in early if name in self.board.jobs and self.board.jobs[name].kind == JobKind.AHEAD)
        most = min(rule.early_awake_at_once if awake else rule.early_at_once,
                   max(1, (st.slots or 2) - 1))  # one slot stays free for the town
        # idle a while, or busy with the early plans only (each is one call at a time; those asked
        # this tick are not in flight yet)
        return asked < most and (st.idle_s >= rule.night_idle_s if not asked else st.in_flight <= asked)

    def room_to_reflect(self) -> bool:
        """Whether a reflection may start now (real time: ``Lanes.maybe_observe``): the server idle,
        nothing in flight or queued for ``night_idle_s`` (a status without the figures, as a
        replay's: always).  A reflection is no decision: in the crowds (the wake-up, the arrivals
        at work, the lunch hour) it waits for the lull after them.  With two slots free it was let
        in between the crowd's calls, and Smallville's lunch hour had four reflections in flight
        beside its reactions and talks (held at x0.74)."""
        st, rule = self.server(), self.rule
        if st is None or rule is None or self.reflecting:
            return False
        return st.idle_s is None or not st.queued and not st.in_flight and st.idle_s >= rule.night_idle_s

    async def reflect(self, mind: MindPort, now: datetime) -> list[str]:
        """``mind``'s reflection, if it is due and there is room for it (``room_to_reflect``): one
        at a time in the whole town.  Two residents' ``observe`` jobs asked in the same tick both
        found the server idle, and two reflections ran side by side at the lunch of 2c4c6ac's day
        (twice: 90 s each, beside the lunch's reactions and talks, the clock at x0.58 for 12-15)."""
        if not self.room_to_reflect() or not mind.reflection_due(now):
            return []
        self.reflecting += 1
        try:
            return list(await mind.reflect_if_due(now) or [])
        finally:
            self.reflecting -= 1

    def room_to_score(self) -> bool:
        """Whether importance ratings may be asked now (real time: ``Lanes.maybe_observe``): nothing
        queued at the server and nothing in flight.  A rating is bookkeeping, no decision: in the
        crowds (06:00-16:00 on two cores the server is never idle) a call of 30 memories took a slot
        and a share of the cores from the decisions the clock waited for.  The memories keep their
        provisional rating (3) meanwhile and are rated in the next lull (the evening's server is idle
        more than half the time).  With one in flight allowed, 06:00-12:00 of f8a39fc's day asked as
        many ratings as 8f03815's (8): the gaps between calls let them in.  Without the server's
        figures (a lockstep run, a test): always."""
        st = self.server()
        return st is None or st.idle_s is None or not st.queued and not st.in_flight

    def crowded(self, more: int = 0) -> bool:
        """Whether the server is crowded now: in real time, decisions queued for half its slots or
        more, or reactions asked (on the board, sent or not; counted once a tick) with ``more`` to be
        asked this tick for half its slots (``Perceiver.look``: a person come into view is then seen
        and remembered, not reacted to, unless it is the player or the resident has news for them).
        A reaction is a decision the clock does not wait for,
        and the crowds come in one tick: at the lunch of a9a17c8's day five residents met at the
        cafe saw each other at once, five reactions took the four slots before the server showed
        any queue, and a resident's next steps waited behind them (the clock at x12 for a minute)."""
        st = self.server()
        if st is None:
            return False
        half = max(1, (st.slots or 2) // 2)
        if self._reacts[0] != self.core.step_no:  # (once a tick: a look of a thousand residents asks often)
            self._reacts = (self.core.step_no, sum(1 for j in self.board.jobs.values() if j.kind == JobKind.REACT))
        return st.queued >= half or self._reacts[1] + more >= half

    def planning_due(self, now: datetime, clear: timedelta) -> bool:
        """Whether any resident's planning is asked, waited for or due within the look ahead plus
        ``clear``: a next step, a window of steps, a day plan before waking."""
        lead = self.lookahead.ahead if self.lookahead.ahead is not None else self.lookahead.real_lead()
        for r in self.core.residents.values():
            if r.name == self.core.embodied:
                continue
            job = self.board.jobs.get(r.name)
            if r.needs_decision or job is not None and job.kind in (JobKind.NEXT, JobKind.AHEAD):
                return True
            mind = self.core.minds[r.name]
            at = mind.steps_run_out(now)
            if at is None:
                continue
            ahead = max(lead, WAKE_AHEAD) if mind.asleep_at(now) else lead
            if at - now <= ahead + clear:
                return True
        return False

    def earlier_waking_first(self, at: datetime, now: datetime) -> bool:
        """Whether a sleeper's steps (its day, when it has none yet) run out at least ``WAKE_GROUP``
        before ``at`` (when the asking sleeper's do): a sleeper's plan then waits, so that on two
        slow cores the first to wake is planned first, not one call in four (a town opened before
        dawn: its first waker woke unplanned while three more plans shared the server).  Not
        within ``AHEAD``."""
        first = self.first_wake(now)
        return at - now > AHEAD and first is not None and first <= at - WAKE_GROUP

    def wake_planning_due(self, now: datetime) -> bool:
        """Whether a sleeper's day is to be planned within ``WAKE_AHEAD``: a sleeper's ratings of
        what it holds wait then (at dawn twelve seed-memory ratings took the four slots before the
        first waker's plan)."""
        first = self.first_wake(now)
        return first is not None and first - now <= WAKE_AHEAD

    def first_wake(self, now: datetime) -> datetime | None:
        """When the first sleeper's steps run out (its waking, when it has no plan yet), its plan
        being asked counted (a mind planning says no run-out meanwhile: the job's); once a tick."""
        if self._first_wake[0] != now:
            outs = []
            for name, m in self.core.minds.items():
                if not m.asleep_at(now):
                    continue
                job = self.board.jobs.get(name)
                if job is not None and job.kind == JobKind.AHEAD and job.args.get("run_out"):
                    outs.append(datetime.fromisoformat(str(job.args["run_out"])))
                elif (out := m.steps_run_out(now)) is not None:
                    outs.append(out)
            self._first_wake = (now, min(outs, default=None))
        return self._first_wake[1]
