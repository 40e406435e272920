"""Planning: the day in broad strokes (one call), revising the rest of it after news (one call),
and decomposing the next two hours of it into 5-15 minute actions (one call a window; in play the
next window is asked for while the last step of the one in hand still runs, and the day plan with
its first window while the resident still sleeps: ``decide_ahead``).

``Planner`` is a part of ``Mind`` (see mind.py): it owns the lock that keeps one plan decision at a
time, when planning last failed (a day that went by routine is planned again an hour later) and
the last look ahead asked for; the plan, the queue of actions and the current action it decides
are the agenda's (agenda.py).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import Literal

from game.llm.api import BadAnswer, LLMError, Priority
from game.mind.components import Context, KnownFacts, Needs, Plan, RelevantMemories, Thoughts, Yesterday, assemble
from game.mind.config import MEMORY_KINDS
from game.mind.core import MindCore
from game.mind.planning import attending
from game.mind.planning.agenda import Agenda
from game.mind.planning.daycheck import without_hours
from game.mind.planning.dayfill import fill, named_by
from game.mind.planning.dayframe import at_place, blocks_of, frame_for
from game.mind.planning.grounding import Locator
from game.mind.planning.shaping import emoji_for
from game.mind.planning.steps import block_key, block_steps_answer, grouped
from game.mind.reflection import Reflector
from game.mind.schemas import clean_text
from game.mind.view import Action, DayPlan, PlanBlock, WorldView, hhmm


class Planner:
    """plan_day, replan, next_action and the decomposition behind it.  Takes the core (the model,
    memory, facts, the clock), the agenda it decides, the reflector (the day's identity comes
    before its plan) and the locator (where each step happens)."""

    def __init__(self, core: MindCore, agenda: Agenda, reflector: Reflector, locator: Locator) -> None:
        self.core = core
        self.agenda = agenda
        self.reflector = reflector
        self.locator = locator
        self._plan_lock = asyncio.Lock()
        self._plan_failed_at: datetime | None = None
        self._ahead_tried: datetime | None = None  # the run-out time a look ahead was last asked for
        # ``_decided_until``'s last answer: the step in hand and the last queued it read, the end
        self._until_seen: tuple[Action | None, Action | None, datetime | None] | None = None
        # ``_window_after``'s last answer: (run-out time, wake, sleep, plan day), the plan it read, the answer
        self._window_seen: tuple[tuple[datetime, int, int, date | None], DayPlan | None, bool] | None = None

    async def plan_day(self, now: datetime, view: WorldView | None = None) -> DayPlan:
        """The day's frame filled in, wake to bed (one call, two when the check asks again; the
        identity refresh is one more)."""
        async with self._plan_lock:
            return await self._plan_day(now, view)

    async def _plan_day(self, now: datetime, view: WorldView | None) -> DayPlan:
        self.core.seed(now)
        d, minute = self.core.day_and_minute(now)
        p = self.core.persona
        if self.agenda.plan is not None and self.agenda.plan_date != d:
            self.agenda.remember_yesterday(clean_text("Planned: " + "; ".join(
                f"{hhmm(b.start)} {b.activity}" for b in self.agenda.plan.blocks[:8]), 400))
        await self.reflector.ensure_identity(now)
        start = max(p.wake, min(minute, p.sleep - 60)) if self.agenda.plan_date == d else p.wake
        slots = frame_for(p, d, start)
        ctx = Context(self.core, self.agenda, now, view, focus=f"{p.first_name}'s plans for today")
        context = await assemble([Yesterday(), Thoughts(), KnownFacts(),
                                  RelevantMemories(k=5, token_budget=150)], ctx)
        checks: tuple[str, ...] = ()
        try:
            checked = await fill(self.core, now, view, slots, "plan_day", context=context,
                                 date=now.strftime("%A %B %d"), first=p.first_name,
                                 daily=without_hours(p.daily) or "(nothing set)",
                                 wake=hhmm(p.wake), bed=hhmm(p.sleep))
            blocks = blocks_of(slots, checked.lines, named_by(view), self.core.config.max_block_min,
                               options=[o for o in without_hours(p.daily).split(";") if o.strip()])
            self.agenda.keep_raw_plan([(sl.start, sl.end, line) for sl, line in zip(slots, checked.lines)])
            checks = checked.notes()
            source: Literal["model", "routine"] = "model"
        except LLMError as e:
            self.core.fail("plan_day", e)
            self._plan_failed_at = now
            blocks, source = (), "routine"
        if not blocks:
            blocks, source = self.core.routine_blocks(start, d), "routine"
        if self.agenda.plan is not None and self.agenda.plan_date == d:  # keep what was already lived today
            kept = tuple(replace(b, end=min(b.end, start)) for b in self.agenda.plan.blocks if b.start < start)
            blocks = kept + blocks
        self.agenda.start_day(DayPlan(day=self.core.day_number(now), wake=p.wake, bed=p.sleep, blocks=blocks,
                                      source=source, checks=checks), d)
        self.core.memory.add("plan", clean_text(f"My plan for {now.strftime('%A')}: " + "; ".join(
            f"{hhmm(b.start)} {b.activity}" for b in blocks), 500), now, importance=5)
        if len(self.core.facts):
            await attending.consider(self.core, self.agenda, now, view)  # the day's gatherings it knows of
        assert self.agenda.plan is not None  # (start_day set it; a gathering is laid over it)
        return self.agenda.plan

    async def replan(self, now: datetime, view: WorldView | None, news: str) -> DayPlan:
        """Revise the rest of today from now (one call) after a whisper or an important event."""
        async with self._plan_lock:
            return await self._replan(now, view, news)

    async def _replan(self, now: datetime, view: WorldView | None, news: str) -> DayPlan:
        d, minute = self.core.day_and_minute(now)
        p = self.core.persona
        if self.agenda.plan is None or self.agenda.plan_date != d:
            return await self._plan_day(now, view)
        start = min(max(minute, p.wake), p.sleep)
        if p.sleep - start < 15:
            self.agenda.replan_for(None)
            return self.agenda.plan
        slots = [s for s in frame_for(p, d, start) if s.end - s.start >= 5]
        ctx = Context(self.core, self.agenda, now, view, focus=news)
        # no old plan in this context: a small model copies it instead of changing it
        context = await assemble([KnownFacts(), RelevantMemories(k=4, token_budget=120, kinds=MEMORY_KINDS)], ctx)
        try:
            old_plan = self.agenda.plan
            keep = [(b.activity if (b := old_plan.block_at(sl.start)) is not None else "") for sl in slots]
            checked = await fill(self.core, now, view, slots, "replan", keep, context=context, news=news,
                                 time=hhmm(minute), first=p.first_name)
            new = blocks_of(slots, checked.lines, named_by(view), self.core.config.max_block_min)
        except LLMError as e:
            self.core.fail("replan", e)
            if self.agenda.plan.source == "routine":
                self._plan_failed_at = now
            new, checked = (), None
        self.agenda.replan_for(None)
        if not new or checked is None:
            return self.agenda.plan
        old = self.agenda.plan
        kept = tuple(replace(b, end=min(b.end, start)) for b in old.blocks if b.start < start)
        self.agenda.revise(DayPlan(day=old.day, wake=old.wake, bed=old.bed, blocks=kept + new, source="model",
                                   checks=old.checks + tuple(f"replan {hhmm(minute)}: {c}" for c in checked.notes())))
        self._plan_failed_at = None
        self.core.count("replans")
        self.core.memory.add("plan", clean_text(f"I changed my plan at {hhmm(minute)}: " + "; ".join(
            f"{hhmm(b.start)} {b.activity}" for b in new), 500), now, importance=5)
        attending.lay_in_again(self.core, self.agenda, old, now)  # the gatherings it goes to stay in it
        return self.agenda.plan

    async def next_action(self, now: datetime, view: WorldView | None = None) -> Action:
        """The action to do from ``now``: from the decomposed queue (no call), else one call that
        decomposes the current 1-2 hour block into 5-15 minute actions.  Never raises LLMError."""
        self.core.seed(now)
        if self.core.asleep_at(now):
            return self.agenda.do(self.core.routine_action(now, view))
        d, minute = self.core.day_and_minute(now)
        try:
            if self.agenda.plan is None or self.agenda.plan_date != d:
                await self.plan_day(now, view)
            elif self.agenda.plan.source == "routine" and self._plan_failed_at is not None \
                    and now - self._plan_failed_at >= timedelta(hours=1):
                await self.replan(now, view, "a day that went by routine so far")  # the model is back?
            elif self.agenda.replan_reason:
                await self.replan(now, view, self.agenda.replan_reason)
        except LLMError as e:  # pragma: no cover - plan_day handles its own errors
            self.core.fail("plan", e)
        async with self._plan_lock:
            if len(self.core.facts):
                await attending.consider(self.core, self.agenda, now, view)  # today's gatherings it knows of
            act = self._resume(now) or self._from_queue(now)
            if act is None:
                act = await self._decompose(now, view)
        return self.agenda.do(act)

    def _resume(self, now: datetime) -> Action | None:
        """The decomposed step a conversation broke off, for what is left of it (a step whose
        time is up is over; a reaction puts the step it breaks off back in the queue itself).
        Without it the broken-off step was lost, and its block decomposed again: 4 of the 31
        decompose calls of a recorded day up to 16:00 were asked in the middle of a window."""
        cur = self.agenda.current
        end = cur.end() if cur is not None and cur.source == "model" else None
        if cur is None or end is None or (end - now).total_seconds() < 60:
            return None
        return _rest_of(cur, end, now)

    def _from_queue(self, now: datetime) -> Action | None:
        while self.agenda.queue:
            a = self.agenda.next_queued()
            end = a.end() or now
            if end > now:  # (an action due later starts now: the previous one ended early)
                return _rest_of(a, end, now)
        return None

    def steps_run_out(self, now: datetime) -> datetime | None:
        """When the steps already decided run out and the next would wait for a decompose call:
        the end of the last queued step or of the step in hand, whichever is later (a reaction
        can outlast the steps it broke off).  Asleep, it is the next wake-up when the day it
        begins is not planned yet: the day plan (with the identity refresh) and its first window
        are three calls in a row, asked before the resident wakes rather than lived by routine
        after; so is a replan of that day due (``_wake_unplanned``).  None when nothing would be
        asked then (no step of the model's in hand, a new plan or a replan is due first, asleep by
        then, no block of today's plan in progress then) or when a look ahead for that time was
        already asked (one try: a failed one is not asked again and again)."""
        if self.core.asleep_at(now):
            return self._wake_unplanned(now)
        cur = self.agenda.current
        if cur is None or cur.source not in ("model", "reaction") or self.agenda.plan is None:
            return None
        if self.agenda.replan_reason or self.agenda.plan.source == "routine" and self._plan_failed_at is not None:
            return None
        at = self._decided_until()
        if at is None or at <= now or at == self._ahead_tried:
            return None
        return at if self._window_after(at) else None

    def _decided_until(self) -> datetime | None:
        """``Agenda.decided_until``, kept while the step in hand and the last queued one are the same
        (steps are frozen: the same two end at the same time)."""
        cur, queue = self.agenda.current, self.agenda.queue
        last = queue[-1] if queue else None
        seen = self._until_seen
        if seen is not None and seen[0] is cur and seen[1] is last:
            return seen[2]
        at = self.agenda.decided_until()
        self._until_seen = (cur, last, at)
        return at

    def _window_after(self, at: datetime) -> bool:
        """Whether steps run out at ``at`` into a window of today's plan to decompose (awake then, a block
        in progress).  The same run-out time, sleep hours and plan give the same answer: it is kept
        (asked for every resident at every step, a thousand residents' plans were read again each step)."""
        p, plan = self.core.persona, self.agenda.plan
        key = (at, p.wake, p.sleep, self.agenda.plan_date)
        seen = self._window_seen
        if seen is not None and seen[0] == key and seen[1] is plan:
            return seen[2]
        d, minute = self.core.day_and_minute(at)
        ok = not (self.agenda.plan_date != d or self.core.asleep_at(at) or not decompose_window(plan, minute, 0))
        self._window_seen = (key, plan, ok)
        return ok

    def _wake_unplanned(self, now: datetime) -> datetime | None:
        """The next wake-up after ``now`` (asleep), when the day it begins has no plan yet, or has one
        to plan again (a whisper in the night: Felix, whispered to at 04:18 in play, woke at 04:30 to a
        replan and a decompose queued behind three plans of later risers), and ``now`` belongs to that
        day already (the small hours before it, not the evening before)."""
        w = self.core.persona.wake
        at = now.replace(hour=w // 60 % 24, minute=w % 60, second=0, microsecond=0)
        if at <= now:
            at += timedelta(days=1)
        d, _ = self.core.day_and_minute(at)
        if self.core.day_and_minute(now)[0] != d:
            return None
        if self._replan_at_wake(at):
            return at
        return None if self.agenda.plan_date == d and self.agenda.plan is not None or at == self._ahead_tried else at

    def _replan_at_wake(self, at: datetime) -> bool:
        """Whether the day that begins at the wake-up ``at`` is planned already and to be planned again."""
        return bool(self.agenda.replan_reason) and self.agenda.plan is not None and (
            self.agenda.plan_date == self.core.day_and_minute(at)[0])

    async def decide_ahead(self, now: datetime, view: WorldView | None = None,
                           run_out: datetime | None = None) -> int:
        """Decompose the next window before the steps in hand run out (one call, the same as
        next_action's), so the step after them is taken from the queue with no wait: at play pace
        that wait was most of what was left to the routine (see docs/ENGINE.md).  The new steps
        go at the end of the queue; returns how many (0: nothing was due, or the call failed).
        ``run_out``: the time the asker saw (``steps_run_out``); asked again after a save was
        loaded, a look ahead already done is not done twice."""
        async with self._plan_lock:
            at = self.steps_run_out(now)
            if at is None or run_out is not None and at != run_out:
                return 0
            self._ahead_tried = at
            self.core.count("ahead_calls")
            waking = self.core.asleep_at(now)
            if waking:  # the day first (or again: a whisper in the night), then its first window, still asleep
                await (self._replan(now, view, self.agenda.replan_reason or "") if self._replan_at_wake(at)
                       else self._plan_day(now, view))
                if self.agenda.plan is None or self.agenda.plan.source != "model":
                    return 0  # no plan from the model: next_action carries on as it would have
                self.core.count("wake_ahead")
            _, minute = self.core.day_and_minute(at)
            window = self._window(minute)
            start = at
            if window and window[-1].end - minute < SLIVER:  # bridged by rule then: from the next block on
                start = at + timedelta(minutes=window[-1].end - minute)
            actions = await self._decompose_steps(start, now, view)
            if not waking and self.agenda.decided_until() != at:
                return 0  # the steps in hand changed meanwhile: these would not follow them
            self.agenda.add_steps(actions)
            self.core.count("ahead_steps", len(actions))
            return len(actions)

    async def _decompose(self, now: datetime, view: WorldView | None) -> Action:
        actions = await self._decompose_steps(now, now, view)
        if not actions:
            return self.core.routine_action(now, view)
        self.agenda.set_steps(actions[1:])
        return actions[0]

    def _window(self, minute: int) -> list[PlanBlock]:
        cfg = self.core.config
        return decompose_window(self.agenda.plan, minute, cfg.decompose_window_min, cfg.decompose_window_max)

    async def _decompose_steps(self, at: datetime, now: datetime, view: WorldView | None) -> list[Action]:
        """One call for the steps from ``at`` (now, or when the steps in hand run out) of the block
        in progress then and of the blocks that follow it until the window spans
        ``config.decompose_window_min`` (at most ``decompose_window_max``): a plan of hour and
        two-hour blocks is decomposed three to four hours at a time, not one block a call.  The
        model names what and where; the emoji and the state the object is left in come from the
        world's rules (see ``Locator.ground``).  Empty when there is nothing to decompose (a block
        all but over is bridged by rule) or the call failed (the routine fills in)."""
        d, minute = self.core.day_and_minute(at)
        window = self._window(minute)
        if not window:
            return []
        end = window[-1].end
        span = end - minute
        if span < SLIVER:  # the block is all but over: bridge to the next one by rule
            return []
        allowed = tuple(view.allowed) if view and view.allowed else ()
        fallback = self.locator.fallback_place(view)
        ctx = Context(self.core, self.agenda, now, view, focus="; ".join(b.activity for b in window))
        # the blocks themselves are in the task; the one before them is enough around them
        context = await assemble([Plan(before=1, after=0), Thoughts(), Needs(),
                                  RelevantMemories(k=3, token_budget=100, kinds=MEMORY_KINDS)], ctx)
        first = self.core.persona.first_name
        blocks = "\n".join(f"{hhmm(max(b.start, minute))}-{hhmm(b.end)} {b.activity}{at_place(b.place, b.activity)}"
                           for b in window)
        schema = block_steps_answer(tuple(block_key(b, minute) for b in window))
        try:
            # next steps are what the clock waits for (a reaction or a talk's script it does not): asked
            # on a par with them, first come first served, not behind every one asked meanwhile
            ans = await self.core.complete("decompose", schema, "decompose", Priority.REACT, now,
                                           max_tokens=300, context=context, places=self.locator.places_line(view),
                                           start=hhmm(minute), end=hhmm(end), first=first, blocks=blocks,
                                           span=span)
        except LLMError as e:
            self.core.fail("decompose", e)
            return []
        groups = grouped(self.core, ans, window, minute, end, named_by(view))
        if not any(steps for _, _, steps in groups):
            self.core.fail("decompose", BadAnswer("no step in the answer"))
            return []
        actions = []
        for fixed, a, steps in groups:
            offset = a - minute  # minutes from ``at`` to the step's start
            for desc, minutes, s in steps:
                block = fixed or next((b for b in window if b.start <= minute + offset < b.end), window[-1])
                fact = attending.fact_of_block(self.core, block, at) if len(self.core.facts) else None
                # the gathering's own place; at work the shift's; else the step's, else the block's
                at_work = block.kind == "work" and bool(block.place)
                place = fact.place if fact is not None and fact.place else (
                    block.place if at_work else s.place or block.place)
                addr, state = await self.locator.ground(view, desc, place, "", block.activity, allowed, fallback)
                if fact is not None and fact.place and not addr.startswith(fact.place):
                    # at a gathering, whatever it does there ("chatting", "resting") is done there
                    addr, state = attending.address_at(fact.place, allowed), None
                actions.append(Action(desc, emoji_for(desc), addr, minutes, state,
                                      at + timedelta(minutes=offset), "model"))
                offset += minutes
        return actions

def _rest_of(a: Action, end: datetime, now: datetime) -> Action:
    """``a`` from ``now`` to its ``end``: what is left of a step begun or due earlier."""
    left = max(1, round((end - now).total_seconds() / 60))
    return Action(a.description, a.emoji, a.address, left, a.object_state, now, a.source)


SLIVER = 5  # minutes: what is left of a block too little to ask steps for (bridged by rule)


def decompose_window(plan: DayPlan | None, minute: int, limit: int, most: int | None = None) -> list[PlanBlock]:
    """The block in progress at ``minute`` and the whole blocks after it (back to back) while the
    window spans less than ``limit`` minutes, none ending more than ``most`` (default ``limit``)
    minutes after ``minute``; at least the block in progress.  Empty when no block is in progress.
    A block in progress all but over (``SLIVER`` minutes left) with another after it is not asked
    for (one more key and its steps in the answer, for a minute or two): the next one starts now."""
    if plan is None:
        return []
    most = limit if most is None else most
    out: list[PlanBlock] = []
    for b in plan.blocks:
        if b.end <= minute:
            continue
        if not out:
            if b.start > minute:
                return []
            out.append(b)
        elif out[-1].end - minute < limit and b.end - minute <= most and b.start == out[-1].end:
            out.append(b)
        else:
            break
    if len(out) > 1 and out[0].end - minute < SLIVER:
        rest = decompose_window(plan, out[0].end, limit, most)
        out = [replace(rest[0], start=minute), *rest[1:]]
    return out

