"""What the resident is doing and means to do: today's plan, the decomposed steps still to come,
the step in hand, and why the rest of the day should be planned again.

Plain saved state, one ``Agenda`` per mind, and the only writer of it (tests/test_owners.py): the
planner (planner.py) makes the plan and the steps through its methods; a reaction
(reacting/reactor.py, reacting/hazards.py) puts a step of its own first; a gathering the resident
goes to (attending.py) is laid over the plan; a thought (senses.py) asks for a replan; the prompts'
sections (components.py) read it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from game.mind.mindstate import MindState
from game.mind.view import Action, DayPlan


@dataclass
class Agenda:
    plan: DayPlan | None = None
    plan_date: date | None = None  # the plan day ``plan`` is for
    last_raw_plan: list[tuple[int, int, str]] = field(default_factory=list)  # the model's own blocks, before shaping
    queue: list[Action] = field(default_factory=list)  # decomposed actions still to come
    current: Action | None = None
    replan_reason: str | None = None  # news that the rest of today should be planned again for
    yesterday: str = ""  # the last day's plan in short, for the next day's plan prompt

    def start_day(self, plan: DayPlan, day: date) -> None:
        """A new plan for ``day``: no step of the old one is resumed, no replan is pending."""
        self.plan, self.plan_date = plan, day
        self.queue, self.current = [], None
        self.replan_reason = None

    def revise(self, plan: DayPlan) -> None:
        """The rest of today planned again: no step of the old plan is resumed."""
        self.plan = plan
        self.queue, self.current = [], None

    def lay_over(self, plan: DayPlan, queue: list[Action]) -> None:
        """A gathering laid over the plan, the steps decomposed cut where it begins (attending.py)."""
        self.plan = plan
        self.queue = queue

    def replan_for(self, reason: str | None) -> None:
        """News the rest of today should be planned again for (None: planned again, or no need)."""
        self.replan_reason = reason

    def remember_yesterday(self, text: str) -> None:
        self.yesterday = text

    def keep_raw_plan(self, blocks: list[tuple[int, int, str]]) -> None:
        self.last_raw_plan = blocks

    def do(self, act: Action) -> Action:
        """``act`` is the step in hand now."""
        self.current = act
        return act

    def next_queued(self) -> Action:
        """The first step still to come, taken off the queue."""
        return self.queue.pop(0)

    def add_steps(self, actions: list[Action]) -> None:
        self.queue.extend(actions)

    def set_steps(self, actions: list[Action]) -> None:
        self.queue = actions

    def restore(self, state: MindState) -> None:
        """What a save holds of the agenda (``Mind.from_state``)."""
        self.yesterday = state.get("yesterday", "")
        plan, current = state.get("plan"), state.get("current")
        self.plan = DayPlan.from_dict(plan) if plan else None
        plan_date = state.get("plan_date")
        self.plan_date = date.fromisoformat(plan_date) if plan_date else None
        self.queue = [Action.from_dict(a) for a in state.get("queue", [])]
        self.current = Action.from_dict(current) if current else None
        self.replan_reason = state.get("replan_reason")

    def put_first(self, act: Action, now: datetime) -> None:
        """``act`` (a reaction) is done now; the steps already decomposed carry on after it, the one
        it breaks off first (those that ended meanwhile are skipped): a reaction costs no second
        decompose call."""
        cur = self.current
        if cur is not None and cur.source == "model" and (cur.end() or now) > now:
            self.queue.insert(0, cur)
        self.current = act

    def decided_until(self) -> datetime | None:
        """The end of the steps decided: the later of the step in hand's and the last queued one's."""
        ends = [e for a in ([self.current] if self.current else []) + self.queue[-1:] if (e := a.end())]
        return max(ends) if ends else None
