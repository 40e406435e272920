"""Walking and doing: a resident's path to the place of its action, the objects its actions change,
and where a visitor walks in.  A part of ``Engine`` (see game/engine/engine.py)."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from game.engine.events import Bubble, LogLine, Move, ObjectChange, TickResult
from game.engine.ledger import is_model_led
from game.engine.state import Pos, Resident
from game.engine.tuning import TALK_RANGE, chebyshev
from game.mind.view import Action
from game.world.states import describe as describe_state, match_state


class Walking:
    """Owns ``Resident.path`` and ``Resident.action``, and the objects' states as actions change them."""

    def _move(self, r: Resident, res: TickResult) -> None:
        if not r.path or r.name == self.embodied:  # (in a talk, only the walk over to the other)
            return
        nxt = r.path.pop(0)
        if not self.town.grid[nxt[1], nxt[0]]:
            r.path = []
            return
        res.moves.append(Move(r.name, r.pos, nxt))
        r.pos = nxt
        if r.name in self.spatial:
            addr = self._address_at(nxt)
            if addr:
                self._learn(r.name, addr)

    def _set_action(self, r: Resident, action: Action, res: TickResult | None, now: datetime) -> None:
        if action.start is None or action.start != now:
            action = Action(description=action.description, emoji=action.emoji, address=action.address,
                            duration_min=action.duration_min, object_state=action.object_state,
                            start=now, source=action.source)
        if action.object_state:  # a state of the object's vocabulary, else none (see _set_object)
            aff = getattr(self.town, "affordances", None)
            info = aff.info(action.address) if aff is not None else None
            if info is not None and match_state(info, action.object_state) != action.object_state:
                action = replace(action, object_state=match_state(info, action.object_state))
        old = r.action
        if old is not None and old.object_state and old.address in self.town.objects:
            # the object goes back to idle when the one who changed it moves on
            objects = self.town.objects
            if objects.get(old.address) == old.object_state and objects.changed_by(old.address) == r.name:
                objects.set(old.address, "idle", r.name)
                (res if res is not None else self._out).object_changes.append(
                    ObjectChange(old.address, "idle", r.name))
        r.action = action
        r.needs_decision = False
        if is_model_led(action.source):
            self.ledger.answered(r.name, now)
        r.path = self._path_to(r.pos, action.address)
        target = res if res is not None else self._out
        if old is None or (old.emoji, old.description) != (action.emoji, action.description):
            target.bubbles.append(Bubble(r.name, action.emoji, action.description))
        if action.object_state:  # (a mishap's mending waits until it is there: hazards.py)
            self._set_action_object(r, action, target, now)

    def _path_to(self, src: Pos, address: str) -> list[Pos]:
        if not address:
            return []
        try:
            tiles = list(self.town.tree.tiles_of(address))
        except Exception:
            return []
        if not tiles:
            return []
        grid = self.town.grid
        walk = sorted({t for t in tiles if grid[t[1], t[0]]})
        if src in tiles:
            return []
        if walk and address.count(":") == 1:
            dst = self.rng.choice(walk)  # somewhere in the room (the RNG is saved: forks agree)
        elif walk:
            dst = min(walk, key=lambda t: (chebyshev(src, t), t))
        else:
            dst = self.paths.nearest_walkable(sorted(tiles)[0])
        if dst == src:
            return []
        try:
            return list(self.paths.path(src, dst))
        except Exception:  # NoPath: stay where it is
            return []

    def _set_object(self, address: str, state: str, by: str, res: TickResult, now: datetime) -> None:
        objects = self.town.objects
        if address not in objects:
            return
        aff = getattr(self.town, "affordances", None)
        info = aff.info(address) if aff is not None else None
        if info is not None:  # only a state of its kind's vocabulary (see game/world/states.py)
            state = match_state(info, state) or ""
            if not state:
                return
        if objects.get(address) == state:
            return
        objects.set(address, state, by)
        if by not in self.residents:  # news: what the player or the world did, not everyday use
            self.object_news[address] = now
        res.object_changes.append(ObjectChange(address, state, by))
        said = describe_state(info, state) if info is not None else state
        res.log.append(LogLine("object", f"{self._describe(address)} is now {said}", by))

    def _approach(self, r: Resident, others: list[str]) -> None:
        """Walk ``r`` up to the nearest of ``others`` when it is beyond talking range."""
        actors = self._actors()
        spots = [actors[o] for o in others if o in actors]
        if not spots:
            return
        target = min(spots, key=lambda p: (chebyshev(p, r.pos), p))
        if chebyshev(target, r.pos) <= TALK_RANGE:
            return
        try:
            path = list(self.paths.path(r.pos, self.paths.nearest_walkable(target)))
        except Exception:  # NoPath: talk from where it stands
            return
        steps: list[Pos] = []
        for p in path:
            if p == target:
                break
            steps.append(p)
            if chebyshev(p, target) <= 1:
                break
        r.path = steps

    def _entrance(self) -> Pos:
        """Where a visitor walks in: the town's ``spawn["player"]`` if it has one, else the walkable
        tile on the map's edge (or, failing that, anywhere) that the residents can reach, nearest the
        middle of the bottom edge, as if arriving by the road."""
        spawn = getattr(self.town, "spawn", {}) or {}
        for key in ("player", "visitor", "entrance"):
            if key in spawn:
                return tuple(spawn[key])  # type: ignore[return-value]
        grid = self.town.grid
        h, w = grid.shape
        homes = [r.pos for r in self.residents.values()]

        def reachable(p: Pos) -> bool:
            try:
                return any(self.paths.reachable(p, q) for q in homes[:3])
            except Exception:
                return True
        target = (w // 2, h - 1)
        ys, xs = grid.nonzero()
        tiles = [(int(x), int(y)) for y, x in zip(ys, xs)]
        edge = [p for p in tiles if p[0] in (0, w - 1) or p[1] in (0, h - 1)]
        for pool in (edge, tiles):
            pool = sorted(pool, key=lambda p: (abs(p[0] - target[0]) + abs(p[1] - target[1]), p))
            for p in pool:
                if reachable(p):
                    return p
        return self.paths.nearest_walkable(target)

    def _address_at(self, pos: Pos) -> str:
        try:
            return self.town.tree.address_at(pos) or ""
        except Exception:
            return ""

    def _describe(self, address: str) -> str:
        if not address:
            return "outside"
        try:
            return self.town.tree.describe(address)
        except Exception:
            return address
