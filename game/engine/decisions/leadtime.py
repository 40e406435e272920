"""How far the model leads the town: each waking resident's time counted in the ledger by where
its action came from, and the waits the screen and the pacing read (game/engine/decisions/ledger.py keeps
the figures).  A part of the engine: it takes the core."""

from __future__ import annotations

from datetime import datetime

from game.engine.decisions.ledger import is_model_led
from game.engine.towncore import TownCore


class LeadTime:
    def __init__(self, core: TownCore) -> None:
        self.core = core

    def lead(self) -> tuple[float | None, float]:
        """The model-led share of the last two game hours, and ``backlog_min``."""
        c = self.core.clock
        return self.core.ledger.share_now(c.day, hours=2, now=c.now), self.backlog_min()

    def backlog_min(self) -> float:
        """Game minutes the oldest open decision of a resident (not the embodied one) has waited."""
        embodied = self.core.embodied
        return self.core.ledger.backlog_min(self.core.clock.now, skip=[embodied] if embodied else ())

    def routine_wait_min(self) -> float:
        """Game minutes the longest wait lived by routine has lasted: a waking resident (not the
        embodied one, not in a talk) whose decision is open and who lives its routine meanwhile.
        A reaction waited for costs no routine (its model-made step goes on); this does."""
        return max(self._routine_waits().values(), default=0.0)

    def _routine_waits(self) -> dict[str, float]:
        core = self.core
        now = core.clock.now
        waits = {}
        for r in core.residents.values():
            if r.name == core.embodied or r.conversation or r.asleep:
                continue
            if r.action is not None and is_model_led(r.action.source):
                continue
            since = core.ledger.need_since(r.name)
            if since is not None:
                waits[r.name] = (now - since).total_seconds() / 60.0
        return waits

    def holding(self) -> tuple[str, str]:
        """Who holds the clock back, and how: the longest wait lived by routine ("routine"), else the
        oldest open decision ("decision"); ("", "") when none is open."""
        waits = self._routine_waits()
        if waits:
            return max(waits, key=lambda n: waits[n]), "routine"
        skip = self.core.embodied
        open_ = {n: s for n in self.core.residents if n != skip and (s := self.core.ledger.need_since(n)) is not None}
        return (min(open_, key=lambda n: open_[n]), "decision") if open_ else ("", "")

    def count(self, now: datetime) -> None:
        """One tick of each waking resident's time in the ledger, by where its action came from
        (a talk's lines are the model's); the embodied resident is the player's, not counted."""
        core = self.core
        embodied = core.embodied
        core.ledger.tick_all(now, core.clock.day, (
            (r.name, "talk" if r.conversation else (r.action.source if r.action else "none"))
            for r in core.residents.values() if r.name != embodied and not r.asleep), core.clock.seconds_per_step)
