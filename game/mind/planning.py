"""Planning: the day in broad strokes (one call), revising the rest of it after news (one call),
and decomposing the block in progress into 5-15 minute actions (one call per block).

A part of ``Mind`` (see mind.py): it owns the lock that keeps one plan decision at a time and
when planning last failed (a day that went by routine is planned again an hour later); the plan,
the queue of actions and the current action are the mind's saved state.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from game.llm.api import LLMError, Priority
from game.mind.components import Context, Needs, Plan, RelevantMemories, Thoughts, Yesterday, assemble
from game.mind.config import MEMORY_KINDS
from game.mind.schemas import DayPlanAnswer, DecomposeAnswer, clean_text, pick_emoji
from game.mind.shaping import emoji_for, fit_steps, shape_plan
from game.mind.view import Action, DayPlan, PlanBlock, WorldView, hhmm


class Planning:
    """plan_day, replan, next_action and the decomposition behind it."""

    def _init_planning(self) -> None:
        self._plan_lock = asyncio.Lock()
        self._plan_failed_at: datetime | None = None

    async def plan_day(self, now: datetime, view: WorldView | None = None) -> DayPlan:
        """The day in broad strokes, wake to bed (one call; the identity refresh is one more)."""
        async with self._plan_lock:
            return await self._plan_day(now, view)

    async def _plan_day(self, now: datetime, view: WorldView | None) -> DayPlan:
        self.seed(now)
        d, minute = self.day_and_minute(now)
        p = self.persona
        if self.plan is not None and self.plan_date != d:
            self.yesterday = clean_text("Planned: " + "; ".join(
                f"{hhmm(b.start)} {b.activity}" for b in self.plan.blocks[:8]), 400)
        await self.ensure_identity(now)
        start = max(p.wake, min(minute, p.sleep - 60)) if self.plan_date == d else p.wake
        ctx = Context(self, now, view, focus=f"{p.first_name}'s plans for today")
        context = await assemble([Yesterday(), Thoughts(),
                                  RelevantMemories(k=5, token_budget=150)], ctx)
        try:
            ans = await self._complete("plan_day", DayPlanAnswer, "plan_day", Priority.PLAN, now,
                                       max_tokens=260, context=context, date=now.strftime("%A %B %d"),
                                       first=p.first_name, wake=hhmm(p.wake), bed=hhmm(p.sleep),
                                       start=hhmm(start))
            self.last_raw_plan = ans.blocks()
            if len(self.last_raw_plan) < len(ans.plan):
                self.stats["plan_lines_unreadable"] += len(ans.plan) - len(self.last_raw_plan)
            blocks = shape_plan(self.last_raw_plan, start, p.sleep, self.config.max_block_min)
            source = "model"
        except LLMError as e:
            self._fail("plan_day", e)
            self._plan_failed_at = now
            blocks, source = (), "routine"
        if not blocks:
            blocks, source = self.routine_blocks(start), "routine"
        if self.plan is not None and self.plan_date == d:  # keep what was already lived today
            kept = tuple(PlanBlock(b.start, min(b.end, start), b.activity)
                         for b in self.plan.blocks if b.start < start)
            blocks = kept + blocks
        self.plan = DayPlan(day=self.day_number(now), wake=p.wake, bed=p.sleep, blocks=blocks, source=source)
        self.plan_date = d
        self.queue = []
        self.replan_reason = None
        self.memory.add("plan", clean_text(f"My plan for {now.strftime('%A')}: " + "; ".join(
            f"{hhmm(b.start)} {b.activity}" for b in blocks), 500), now, importance=5)
        return self.plan

    async def replan(self, now: datetime, view: WorldView | None, news: str) -> DayPlan:
        """Revise the rest of today from now (one call) after a whisper or an important event."""
        async with self._plan_lock:
            return await self._replan(now, view, news)

    async def _replan(self, now: datetime, view: WorldView | None, news: str) -> DayPlan:
        d, minute = self.day_and_minute(now)
        p = self.persona
        if self.plan is None or self.plan_date != d:
            return await self._plan_day(now, view)
        start = min(max(minute, p.wake), p.sleep)
        if p.sleep - start < 15:
            self.replan_reason = None
            return self.plan
        ctx = Context(self, now, view, focus=news)
        # no old plan in this context: a small model copies it instead of changing it
        context = await assemble([RelevantMemories(k=4, token_budget=120, kinds=MEMORY_KINDS)], ctx)
        try:
            ans = await self._complete("replan", DayPlanAnswer, "replan", Priority.PLAN, now, max_tokens=200,
                                       context=context, news=news, time=hhmm(minute), first=p.first_name,
                                       bed=hhmm(p.sleep), start=hhmm(start))
            # a block that started before now counts from now
            items = [(max(s, start), e, a) for s, e, a in ans.blocks() if e > start]
            if items:  # where the model's new plan stops early, the old plan carries on
                last = max(e for _, e, _ in items)
                items += [(max(b.start, last), b.end, b.activity) for b in self.plan.blocks if b.end > last]
            new = shape_plan(items, start, p.sleep, self.config.max_block_min)
        except LLMError as e:
            self._fail("replan", e)
            if self.plan.source == "routine":
                self._plan_failed_at = now
            new = ()
        self.replan_reason = None
        if not new:
            return self.plan
        kept = tuple(PlanBlock(b.start, min(b.end, start), b.activity)
                     for b in self.plan.blocks if b.start < start)
        self.plan = DayPlan(day=self.plan.day, wake=self.plan.wake, bed=self.plan.bed, blocks=kept + new,
                            source="model")
        self._plan_failed_at = None
        self.queue = []
        self.stats["replans"] += 1
        self.memory.add("plan", clean_text(f"I changed my plan at {hhmm(minute)}: " + "; ".join(
            f"{hhmm(b.start)} {b.activity}" for b in new), 500), now, importance=5)
        return self.plan

    async def next_action(self, now: datetime, view: WorldView | None = None) -> Action:
        """The action to do from ``now``: from the decomposed queue (no call), else one call that
        decomposes the current 1-2 hour block into 5-15 minute actions.  Never raises LLMError."""
        self.seed(now)
        if self.asleep_at(now):
            self.current = self.routine_action(now, view)
            return self.current
        d, minute = self.day_and_minute(now)
        try:
            if self.plan is None or self.plan_date != d:
                await self.plan_day(now, view)
            elif self.plan.source == "routine" and self._plan_failed_at is not None \
                    and now - self._plan_failed_at >= timedelta(hours=1):
                await self.replan(now, view, "a day that went by routine so far")  # the model is back?
            elif self.replan_reason:
                await self.replan(now, view, self.replan_reason)
        except LLMError as e:  # pragma: no cover - plan_day handles its own errors
            self._fail("plan", e)
        async with self._plan_lock:
            act = self._from_queue(now)
            if act is None:
                act = await self._decompose(now, view)
        self.current = act
        return act

    def _from_queue(self, now: datetime) -> Action | None:
        while self.queue:
            a = self.queue[0]
            end = a.end() or now
            if end <= now:
                self.queue.pop(0)
                continue
            self.queue.pop(0)  # (an action due later starts now: the previous one ended early)
            left = max(1, round((end - now).total_seconds() / 60))
            return Action(a.description, a.emoji, a.address, left, a.object_state, now, a.source)
        return None

    async def _decompose(self, now: datetime, view: WorldView | None) -> Action:
        d, minute = self.day_and_minute(now)
        plan = self.plan
        block = plan.block_at(minute) if plan else None
        if block is None:
            return self.routine_action(now, view)
        span = block.end - minute
        if span < 5:  # the block is all but over: bridge to the next one by rule
            return self.routine_action(now, view)
        allowed = tuple(view.allowed) if view and view.allowed else ()
        fallback = self._fallback_place(view)
        ctx = Context(self, now, view, focus=block.activity)
        # the block itself is in the task; around it, one block before and after is enough
        context = await assemble([Plan(before=1, after=1), Thoughts(), Needs(),
                                  RelevantMemories(k=3, token_budget=100, kinds=MEMORY_KINDS)], ctx)
        try:
            ans = await self._complete("decompose", DecomposeAnswer, "decompose", Priority.PLAN, now,
                                       max_tokens=360, context=context, places=self._places_line(view),
                                       start=hhmm(minute),
                                       end=hhmm(block.end), first=self.persona.first_name,
                                       activity=block.activity, span=span)
        except LLMError as e:
            self._fail("decompose", e)
            return self.routine_action(now, view)
        steps = []
        for s in ans.steps:
            desc = s.action or block.activity
            steps.append((desc, s.minutes, s))
        actions = []
        t = now
        for desc, minutes, s in fit_steps(steps, span):
            addr, state = await self._ground(view, desc, s.place, s.state, block.activity, allowed, fallback)
            emoji = pick_emoji(s.emoji, emoji_for(desc))
            if emoji != (s.emoji or "").replace("\ufe0f", ""):
                self.stats["emoji_fixed"] += 1
            actions.append(Action(desc, emoji, addr, minutes, state, t, "model"))
            t += timedelta(minutes=minutes)
        self.queue = actions[1:]
        return actions[0]
