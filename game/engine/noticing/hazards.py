"""Hazards: a thing in a state that will not wait (a fire, a leak: ``states.HAZARDS``, marked
``urgent`` in kinds.toml) is noticed by whoever is awake in the same building near it, from any room
(the smoke, the water on the floor), and acted on.  The reaction is asked with the hazard as plain
data (``Hazard``), so the mind's answer is an action at the thing that makes it safe
(game/mind/reacting/hazards.py).  The thing changes when its resident reaches it, not before; the town log
says who mended it ("Grace Okafor puts out the fire on the stove").  Nobody is asked while someone
deals with it already; a resident asked is asked again (``HAZARD_AGAIN``) only if it is still not
dealt with.  A part of ``Engine``; it keeps no state of its own (a save holds what it reads); the things
(things.py) change when mended."""

from __future__ import annotations

from datetime import datetime

from game.engine.decisions.jobs import JobBoard
from game.engine.noticing.salience import Salience
from game.engine.state import JobKind, Resident
from game.engine.talks.conversations import Conversations
from game.engine.things import Things
from game.engine.towncore import TownCore
from game.engine.tuning import HAZARD_AGAIN, HAZARD_REACH, chebyshev
from game.engine.walking import Walker
from game.mind.view import Hazard
from game.world.objects import IDLE
from game.world.states import HAZARDS, mishap
from game.world.states import describe as describe_state


class Hazards:
    """Reads the objects' states and the residents' actions; adds to what waits for a reaction
    (through the salience) and ends a walk after someone (through the walker).  Takes the core, the
    things (who mends what), the walker, the job board (a look ahead gives way), the talks (one
    breaks off) and the salience."""

    def __init__(self, core: TownCore, things: Things, walker: Walker, board: JobBoard, talks: Conversations,
                 salience: Salience) -> None:
        self.core = core
        self.things = things
        self.walker = walker
        self.board = board
        self.talks = talks
        self.salience = salience

    def notice(self, r: Resident, now: datetime) -> None:
        """``r`` looked around: a hazard near it that nobody deals with becomes urgent news for it
        (once per ``HAZARD_AGAIN`` while it lasts).  Not for the asleep or the embodied.  It breaks
        off a talk (not one with the player: that one ends first) and a walk after someone to talk
        to; in real time, a look ahead or a batch of observations in its lane gives way."""
        if r.name == self.core.embodied or r.asleep:
            return
        talk = self.talks.talks.get(r.conversation) if r.conversation else None
        if r.conversation and (talk is None or talk.conv.with_player):
            return
        for addr in self.near(r):
            key = "hazard:" + addr
            last = r.reacted.get(key)
            if last is not None and now - last < HAZARD_AGAIN or self.dealt_with(addr, now):
                continue
            text = self.text(addr)
            if r.conversation:
                self.talks.end_talk(r.conversation, now, self.core.out, reason=f"{r.name} noticed that {text}")
            self.salience.reacted_to(r, key, now)  # (the news of it is not asked twice)
            self.salience.reacted_to(r, addr, now)
            self.salience.note(r, [text], urgent=True)
            self.walker.stop_pursuit(r)
            job = self.board.jobs.get(r.name)
            if not self.core.lockstep and job is not None and job.kind in (JobKind.AHEAD, JobKind.OBSERVE):
                self.board.cancel(r.name)  # (in lockstep it is due soon: a fixed tick, the same town)

    def near(self, r: Resident) -> list[str]:
        """The things in a hazard's state that ``r`` notices where it stands: in its building
        (sector) within ``HAZARD_REACH`` tiles, nearest first."""
        tree = self.core.town.tree
        sector = tree.arena_at(r.pos).split(":")[0]
        if not sector:
            return []
        found = []
        for addr, state in self.core.town.objects.busy().items():  # (in any order: sorted by distance below)
            if state not in HAZARDS or addr.split(":")[0] != sector:
                continue
            try:
                d = min(chebyshev(r.pos, t) for t in tree.tiles_of(addr))
            except (KeyError, ValueError):
                continue
            if d <= HAZARD_REACH:
                found.append((d, addr))
        return [a for _, a in sorted(found)]

    def text(self, address: str) -> str:
        """The sight, as perception words it: "the stove in the kitchen of the Lin house is on fire"."""
        return f"{self.core.describe(address)} is {self.core.town.objects.get(address)}"

    def dealt_with(self, address: str, now: datetime) -> bool:
        """Someone is on their way to mend ``address``, or mending it, or being asked about it."""
        for r in self.core.residents.values():
            a = r.action
            if (a is not None and a.address == address and r.name != self.core.embodied and not r.conversation
                    and self.things.mends(address, a.object_state) and not r.action_ended(now)):
                return True
        return any(j.kind == JobKind.REACT and (j.args.get("hazard") or {}).get("address") == address
                   and not j.args.get("dropped") for j in self.board.jobs.values())

    def hazard_for(self, r: Resident, now: datetime) -> Hazard | None:
        """The hazard among ``r``'s salient sights that nobody deals with, to ask its reaction with."""
        for addr in self.near(r):
            if self.text(addr) in r.salient and not self.dealt_with(addr, now):
                return self.hazard(addr)
        return None

    def hazard(self, address: str) -> Hazard:
        """``address``'s hazard as plain data for the mind (the world's words for it)."""
        state = self.core.town.objects.get(address) or ""
        info = self.core.info(address)
        name = address.rsplit(":", 1)[-1]
        m = mishap(state)
        fix = m.words(m.doing, name) if m is not None and m.doing else f"making the {name} safe"
        return Hazard(address=address, thing=self.core.describe(address), state=state,
                      safe=describe_state(info, IDLE) if info is not None else IDLE,
                      states=tuple(info.state_names()) if info is not None else (),
                      fix=fix, emoji=m.emoji if m is not None else "")
