"""What the resident is doing and means to do: today's plan, the decomposed steps still to come,
the step in hand, and why the rest of the day should be planned again.

Plain saved state, one ``Agenda`` per mind.  The planner (planner.py) makes the plan and the
steps; a reaction (reacting/reactor.py, reacting/hazards.py) puts a step of its own first; a gathering the resident
goes to (attending.py) is laid over the plan; the prompts' sections (components.py) show it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

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
