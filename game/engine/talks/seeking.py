"""Going after someone to talk with: a resident who decided to talk with someone who walked off
while it thought (at play pace a reaction comes minutes of game time after the sight) follows them
for a while and talks once within range.  A part of ``Engine``."""

from __future__ import annotations

from datetime import datetime

from game.engine.events import LogLine, TickResult
from game.engine.state import Resident
from game.engine.talks.conversations import Conversations
from game.engine.towncore import TownCore
from game.engine.tuning import SEEK_RADIUS, SEEK_TIME, TALK_RANGE, chebyshev
from game.engine.walking import Walker
from game.mind.view import Action


class Seeker:
    """Starts and follows a walk after someone (``Resident.seeking``, ``seek_until``, which the
    walker keeps: a talk that starts, and a hazard noticed, end the walk too).  Takes the core, the
    walker and the talks (whom it may talk with, the talk)."""

    def __init__(self, core: TownCore, walker: Walker, talks: Conversations) -> None:
        self.core = core
        self.walker = walker
        self.talks = talks

    def start(self, r: Resident, with_whom: str, now: datetime, res: TickResult) -> bool:
        """``r`` decided to talk with someone no longer within reach (they walked off while it
        thought): it goes after them, as the model's decision ("going to talk with Rosa"), and the
        talk starts when it is within talking range (``go_on``).  Without it, at play pace
        no reaction's talk ever started: the default town chose to talk 14 times by noon, none
        became a conversation (docs/ENGINE.md)."""
        name = self.talks.partner(r, with_whom.split(",")[0], now)
        if name is None or name not in self.core.residents:
            return False
        pos = self.core.position(name)
        if pos is None or chebyshev(pos, r.pos) > SEEK_RADIUS:
            return False
        act = Action(description=f"going to talk with {name}", emoji="\U0001F6B6",
                     address=self.core.address_at(pos) or (r.action.address if r.action else ""),
                     duration_min=int(SEEK_TIME.total_seconds() // 60), start=now, source="reaction")
        self.walker.set_action(r, act, res, now)
        self.walker.pursue(r, name, now + SEEK_TIME)
        self.walker.approach(r, [name])
        res.log.append(LogLine("react", f"{r.name} goes to talk with {name}", r.name))
        return True

    def go_on(self, r: Resident, now: datetime, res: TickResult) -> bool:
        """One tick of walking after the one ``r`` wants to talk with: the talk starts once within
        range; it gives up (and decides again) when its time is up or the other cannot talk (asleep
        now, or, found within range, in a talk it may not join: ``start_talk`` says).
        True while it goes on walking (nothing else to decide this tick)."""
        name = r.seeking
        assert name is not None
        pos = self.core.position(name)
        gone = pos is None or r.seek_until is None or now >= r.seek_until or not self.talks.free_to_talk(name)
        if not gone and pos is not None and chebyshev(pos, r.pos) <= TALK_RANGE:
            self.walker.stop_pursuit(r)
            if self.talks.start_talk(r.name, name, now, res, reach=TALK_RANGE):
                return True
            gone = True
        if gone or pos is None:
            self.walker.stop_pursuit(r)
            self.walker.need_decision(r)
            return False
        if not r.path or chebyshev(r.path[-1], pos) > 2:  # they moved on: after them
            self.walker.approach(r, [name])
        return True
