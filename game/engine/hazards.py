"""Hazards: a thing in a state that will not wait (a fire, a leak: ``states.HAZARDS``, marked
``urgent`` in kinds.toml) is noticed by whoever is awake in the same building near it, from any room
(the smoke, the water on the floor), and acted on.  The reaction is asked with the hazard as plain
data (``Hazard``), so the mind's answer is an action at the thing that makes it safe
(game/mind/hazards.py).  The thing changes when its resident reaches it, not before; the town log
says who mended it ("Grace Okafor puts out the fire on the stove").  Nobody is asked while someone
deals with it already; a resident asked is asked again (``HAZARD_AGAIN``) only if it is still not
dealt with.  A part of ``Engine``; it keeps no state of its own (a save holds what it reads)."""

from __future__ import annotations

from datetime import datetime

from game.engine.events import LogLine, TickResult
from game.engine.state import Resident
from game.engine.tuning import HAZARD_AGAIN, HAZARD_REACH, chebyshev
from game.mind.view import Action, Hazard
from game.world.objects import IDLE
from game.world.states import HAZARDS, MISHAPS, describe as describe_state, match_state, mishap


class Hazards:
    """Reads the objects' states and the residents' actions; writes ``Resident.salient``."""

    def _notice_hazards(self, r: Resident, now: datetime) -> None:
        """``r`` looked around: a hazard near it that nobody deals with becomes urgent news for it
        (once per ``HAZARD_AGAIN`` while it lasts).  Not for the asleep or the embodied.  It breaks
        off a talk (not one with the player: that one ends first) and a walk after someone to talk
        to; in real time, a look ahead or a batch of observations in its lane gives way."""
        if r.name == self.embodied or r.asleep:
            return
        talk = self.talks.get(r.conversation) if r.conversation else None
        if r.conversation and (talk is None or talk.conv.with_player):
            return
        for addr in self._hazards_near(r):
            key = "hazard:" + addr
            last = r.reacted.get(key)
            if last is not None and now - last < HAZARD_AGAIN or self._dealt_with(addr, now):
                continue
            text = self._hazard_text(addr)
            if r.conversation:
                self._end_talk(r.conversation, now, self._out, reason=f"{r.name} noticed that {text}")
            r.reacted[key] = r.reacted[addr] = now  # (the news of it is not asked twice)
            if text not in r.salient:
                r.salient.append(text)
            r.urgent = True
            r.seeking = r.seek_until = None
            job = self.jobs.get(r.name)
            if not self.lockstep and job is not None and job.kind in ("ahead", "observe"):
                self._cancel(r.name)  # (in lockstep it is due soon: a fixed tick, the same town)

    def _hazards_near(self, r: Resident) -> list[str]:
        """The things in a hazard's state that ``r`` notices where it stands: in its building
        (sector) within ``HAZARD_REACH`` tiles, nearest first."""
        tree = self.town.tree
        try:
            sector = tree.arena_at(r.pos).split(":")[0]
        except Exception:
            return []
        found = []
        for addr, state in sorted(self.town.objects.busy().items()):
            if state not in HAZARDS or not sector or addr.split(":")[0] != sector:
                continue
            try:
                d = min(chebyshev(r.pos, t) for t in tree.tiles_of(addr))
            except (KeyError, ValueError):
                continue
            if d <= HAZARD_REACH:
                found.append((d, addr))
        return [a for _, a in sorted(found)]

    def _hazard_text(self, address: str) -> str:
        """The sight, as perception words it: "the stove in the kitchen of the Lin house is on fire"."""
        return f"{self._describe(address)} is {self.town.objects.get(address)}"

    def _dealt_with(self, address: str, now: datetime) -> bool:
        """Someone is on their way to mend ``address``, or mending it, or being asked about it."""
        for r in self.residents.values():
            a = r.action
            if (a is not None and a.address == address and r.name != self.embodied and not r.conversation
                    and self._mends(address, a.object_state) and not r.action_ended(now)):
                return True
        return any(j.kind == "react" and (j.args.get("hazard") or {}).get("address") == address
                   and not j.args.get("dropped") for j in self.jobs.values())

    def _hazard_for(self, r: Resident, now: datetime) -> Hazard | None:
        """The hazard among ``r``'s salient sights that nobody deals with, to ask its reaction with."""
        for addr in self._hazards_near(r):
            if self._hazard_text(addr) in r.salient and not self._dealt_with(addr, now):
                return self._hazard(addr)
        return None

    def _hazard(self, address: str) -> Hazard:
        """``address``'s hazard as plain data for the mind (the world's words for it)."""
        state = self.town.objects.get(address) or ""
        aff = getattr(self.town, "affordances", None)
        info = aff.info(address) if aff is not None else None
        name = address.rsplit(":", 1)[-1]
        m = mishap(state)
        fix = m.words(m.doing, name) if m is not None and m.doing else f"making the {name} safe"
        return Hazard(address=address, thing=self._describe(address), state=state,
                      safe=describe_state(info, IDLE) if info is not None else IDLE,
                      states=tuple(info.state_names()) if info is not None else (),
                      fix=fix, emoji=m.emoji if m is not None else "")

    def _mends(self, address: str, state: str | None) -> bool:
        """An action that leaves ``address`` in ``state`` mends it: it is in a mishap's state (a
        fire, a leak, broken) and ``state`` is its resting one (the world judged the action's words
        when the state was chosen: game/world/states.py ``mends``)."""
        if not state or address not in self.town.objects or self.town.objects.get(address) not in MISHAPS:
            return False
        aff = getattr(self.town, "affordances", None)
        info = aff.info(address) if aff is not None else None
        return (match_state(info, state) if info is not None else state) == IDLE

    def _set_action_object(self, r: Resident, action: Action, res: TickResult, now: datetime) -> None:
        """The state a new action sets on its object: at once, as ever, except for a thing in a
        mishap's state (on fire, leaking, broken): only mending changes it, when its resident
        reaches it (``_mend_on_arrival``).  A step decided before the fire ("cooking", state "on")
        leaves a burning stove burning; it put fires out in a test before this rule."""
        objects = self.town.objects
        if action.address in objects and objects.get(action.address) in MISHAPS:
            if self._mends(action.address, action.object_state) and not r.path:
                self._mend(r, action.address, res, now)
            return
        self._set_object(action.address, action.object_state or "", r.name, res, now)

    def _mend_on_arrival(self, r: Resident, res: TickResult, now: datetime) -> None:
        """``r`` has walked to the thing its action mends: it is mended now.  Not by an action
        begun before the player or the world broke it again (the next look asks anew)."""
        a = r.action
        if a is None or r.path or r.conversation or r.name == self.embodied or not self._mends(a.address, a.object_state):
            return
        broke = self.object_news.get(a.address)
        if broke is not None and a.start is not None and a.start < broke:
            return
        self._mend(r, a.address, res, now)

    def _mend(self, r: Resident, address: str, res: TickResult, now: datetime) -> None:
        m = mishap(self.town.objects.get(address) or "")
        if m is not None and m.says:
            res.log.append(LogLine("object", f"{r.name} {m.words(m.says, address.rsplit(':', 1)[-1])}", r.name))
        self._set_object(address, IDLE, r.name, res, now)
