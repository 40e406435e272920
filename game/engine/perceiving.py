"""Perception: what each resident sees every few ticks goes into its observation buffer; what is
new and salient (a person come into view, an object the player changed) waits for a reaction; the
places it sees are learnt; ``world_view`` tells its mind what it knows.  A part of ``Engine``."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Sequence

from game.engine.state import Pos, Resident
from game.engine.tuning import (
    OBJECT_NEWS, PERCEIVE_BANDWIDTH, PERCEIVE_RADIUS, REACT_COOLDOWN, TALK_RANGE, chebyshev,
)
from game.mind.view import WorldView
from game.world.resolve import Grounder


class Perceiving:
    """Owns ``Resident.seen``, ``obs_buffer``, ``obs_since``, ``salient`` and ``reacted``."""

    def _actors(self) -> dict[str, Pos]:
        out = {name: r.pos for name, r in self.residents.items()}
        if self.player is not None:
            out[self.player.name] = self.player.pos
        return out

    def _doing(self) -> dict[str, str]:
        out = {name: r.action.description for name, r in self.residents.items() if r.action is not None}
        if self.player is not None:
            out[self.player.name] = f"visiting ({self.player.description})" if self.player.description \
                else "visiting"
        return out

    def _look(self, r: Resident, now: datetime) -> None:
        percepts = self._perceive(r.name, r.pos, self.town, self._actors(), PERCEIVE_RADIUS,
                                  PERCEIVE_BANDWIDTH, doing=self._doing())
        current: dict[str, str] = {}
        salient: list[str] = []
        urgent = False
        player = self.player.name if self.player is not None else None
        for p in percepts:
            if p.kind == "person":
                if p.subject == r.name:
                    continue
                key, text = "person:" + p.subject, p.text
                if key not in r.seen and self._may_react(r, p.subject, now) \
                        and (not self._at_home_together(r, p.subject)
                             or self.minds[r.name].news_for(p.subject, now)):  # an invitation to give
                    salient.append(text)
                    r.reacted[p.subject] = now
                    urgent = urgent or p.subject == player
            else:
                key, text = "object:" + p.address, p.text
                if p.address:
                    self._learn(r.name, p.address)
                changed = self.object_news.get(p.address)
                if (r.seen.get(key) != text and changed is not None and now - changed <= OBJECT_NEWS
                        and self._may_react(r, p.address, now)):
                    salient.append(text)
                    r.reacted[p.address] = now
                    urgent = True
            current[key] = text
        for key, text in current.items():
            if r.seen.get(key) != text and text not in r.obs_buffer:
                if not r.obs_buffer:
                    r.obs_since = now
                r.obs_buffer.append(text)
        r.seen = current
        if salient and r.name != self.embodied and not r.conversation:
            r.salient.extend(s for s in salient if s not in r.salient)
            r.urgent = r.urgent or urgent
        self._notice_hazards(r, now)  # (hazards.py: a fire in the house, seen or not)

    def _at_home_together(self, r: Resident, other: str) -> bool:
        """``other`` lives in ``r``'s home and ``r`` is at home: seeing them there is no news to
        react to (a spouse at breakfast).  They are still seen and remembered; outside the home, or
        for anyone else, the sight may call for a reaction.  (14 of 67 reactions asked for in a
        recorded day of the small cast were such sights.)"""
        theirs = self.minds.get(other)  # (None for the player)
        home = (self.minds[r.name].persona.home or "").split(":")[0]
        if not home or theirs is None or (theirs.persona.home or "").split(":")[0] != home:
            return False
        return self.town.tree.arena_at(r.pos).split(":")[0] == home  # anywhere in the home's sector

    def _may_react(self, r: Resident, subject: str, now: datetime) -> bool:
        last = r.reacted.get(subject)
        if last is not None and now - last < REACT_COOLDOWN:
            return False
        act = r.action.description.lower() if r.action else ""
        return "sleep" not in act

    def _learn(self, name: str, address: str) -> None:
        sm = self.spatial.get(name)
        if sm is None or sm.knows(address):
            return
        if address.count(":") <= 1:
            sm.observe_area(self.town.tree, address)
        else:
            sm.learn(address)

    def world_view(self, name: str) -> WorldView:
        """What ``name`` knows of the world now, as its mind is told it."""
        r = self.residents[name]
        tree = self.town.tree
        try:
            here = tree.arena_at(r.pos)
        except Exception:
            here = ""
        sm = self.spatial.get(name)
        known = ""
        allowed: list[str] = []
        if sm is not None:
            known = sm.describe_known()
            allowed = [a for a in sm.addresses() if a.count(":") >= 1 and a in tree]
        nearby = [text for key, text in sorted(r.seen.items()) if key.startswith("person:")]
        # those it can talk to: within talking range, or in view (it walks over to them)
        in_view = {key.split(":", 1)[1] for key in r.seen if key.startswith("person:")}
        people = sorted(n for n, p in self._actors().items()
                        if n != name and (chebyshev(p, r.pos) <= TALK_RANGE or n in in_view))
        return WorldView.make(now_text=self.clock.long_text(), here=here, here_text=self._describe(here),
                              known_places=known, allowed=allowed, nearby=nearby, people_here=people,
                              ground=self.grounder(name, allowed, here))

    def grounder(self, name: str, allowed: Sequence[str], here: str) -> Grounder | None:
        """The world's place picker for one resident's decision (None for a town without
        affordances, or a resident that knows no place): see game/world/resolve.py."""
        aff = getattr(self.town, "affordances", None)
        if aff is None or not allowed:
            return None
        persona = self.minds[name].persona if name in self.minds else None
        return Grounder(aff, allowed, home=getattr(persona, "home", "") or "",
                        workplace=getattr(persona, "workplace", "") or "", here=here,
                        objects=getattr(self.town, "objects", None))

    def with_ground(self, name: str, view: WorldView | None) -> WorldView | None:
        """A view read back from a job's plain data (or a save), with its place picker again."""
        if view is None or view.ground is not None:
            return view
        return replace(view, ground=self.grounder(name, view.allowed, view.here))
