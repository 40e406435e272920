"""Walking and doing: a resident's path to the place of its action, the action it takes up, and
where a visitor walks in.  A part of ``Engine`` (see game/engine/engine.py)."""

from __future__ import annotations

from datetime import datetime

from game.engine.api import Paths
from game.engine.decisions.ledger import is_model_led
from game.engine.events import Bubble, Move, TickResult
from game.engine.state import Pos, Resident
from game.engine.things import Things
from game.engine.towncore import TownCore
from game.engine.tuning import TALK_RANGE, chebyshev
from game.mind.view import Action
from game.world.errors import NoPath


class Walker:
    """Owns ``Resident.pos``, ``path``, ``action``, ``needs_decision`` and the walk after someone
    (``seeking``, ``seek_until``): the other parts change them only through its methods
    (``set_action`` for a decided action, ``take_on`` for a rule's one in place, ``put``,
    ``approach``, ``need_decision``, ``pursue``, ``stop_pursuit``).  Takes the core, the things (an
    action changes its object) and the path finder."""

    def __init__(self, core: TownCore, things: Things, paths: Paths) -> None:
        self.core = core
        self.things = things
        self.paths = paths

    def move(self, r: Resident, res: TickResult) -> None:
        """One tick of ``r``'s walk (in a talk, only the walk over to the other)."""
        if not r.path or r.name == self.core.embodied:
            return
        nxt = r.path.pop(0)
        if not self.core.town.grid[nxt[1], nxt[0]]:
            r.path = []
            return
        res.moves.append(Move(r.name, r.pos, nxt))
        r.pos = nxt
        if r.name in self.core.spatial:
            addr = self.core.address_at(nxt)
            if addr:
                self.core.learn(r.name, addr)

    def put(self, r: Resident, dst: Pos) -> None:
        """``r`` stands at ``dst`` now (the player walks it): no walk of its own."""
        r.pos = dst
        r.path = []
        addr = self.core.address_at(dst)
        if addr:
            self.core.learn(r.name, addr)

    def set_action(self, r: Resident, action: Action, res: TickResult | None, now: datetime) -> None:
        """``r`` takes up a decided ``action`` (the model's, a reaction's, the routine's): it walks
        to its place, the object of its last action goes back to idle, this one's changes."""
        if action.start is None or action.start != now:
            action = Action(description=action.description, emoji=action.emoji, address=action.address,
                            duration_min=action.duration_min, object_state=action.object_state,
                            start=now, source=action.source)
        action = self.things.fit(action)  # a state of the object's vocabulary, else none
        target = res if res is not None else self.core.out
        old = r.action
        self.things.let_go(r, old, target)
        r.action = action
        r.needs_decision = False
        if is_model_led(action.source):
            self.core.ledger.answered(r.name, now)
        r.path = self.path_to(r.pos, action.address)
        if old is None or (old.emoji, old.description) != (action.emoji, action.description):
            target.bubbles.append(Bubble(r.name, action.emoji, action.description))
        if action.object_state:  # (a mishap's mending waits until it is there: things.py)
            self.things.on_action(r, action, target, now)

    def need_decision(self, r: Resident, need: bool = True) -> None:
        """Whether ``r``'s next action is to be decided (an action, a talk or a walk after someone
        ended, a whisper...); setting an action (``set_action``) settles it."""
        r.needs_decision = need

    def pursue(self, r: Resident, name: str, until: datetime) -> None:
        """``r`` walks after ``name`` to talk with them, until ``until`` (talks/seeking.py)."""
        r.seeking, r.seek_until = name, until

    def stop_pursuit(self, r: Resident) -> None:
        """``r`` walks after nobody now (the talk started, it gave up, a hazard came first)."""
        r.seeking = r.seek_until = None

    def take_on(self, r: Resident, action: Action, *, stop: bool = False) -> Action | None:
        """``r`` does ``action`` where it is (a rule's: talking, thinking about a talk, walked by
        the player), its objects untouched; with ``stop`` its walk ends too.  Returns the action
        it had (the caller shows the change)."""
        old = r.action
        r.action = action
        if stop:
            r.path = []
        return old

    def path_to(self, src: Pos, address: str) -> list[Pos]:
        if not address:
            return []
        try:
            tiles = list(self.core.town.tree.tiles_of(address))
        except KeyError:  # no such place
            return []
        if not tiles:
            return []
        grid = self.core.town.grid
        walk = sorted({t for t in tiles if grid[t[1], t[0]]})
        if src in tiles:
            return []
        if walk and address.count(":") == 1:
            dst = self.core.rng.choice(walk)  # somewhere in the room (the RNG is saved: forks agree)
        elif walk:
            dst = min(walk, key=lambda t: (chebyshev(src, t), t))
        else:
            dst = self.paths.nearest_walkable(sorted(tiles)[0])
        if dst == src:
            return []
        try:
            return list(self.paths.path(src, dst, near=walk))  # (the room's field guides a first walk there)
        except NoPath:  # stay where it is
            return []

    def approach(self, r: Resident, others: list[str]) -> None:
        """Walk ``r`` up to the nearest of ``others`` when it is beyond talking range."""
        actors = self.core.actors()
        spots = [actors[o] for o in others if o in actors]
        if not spots:
            return
        target = min(spots, key=lambda p: (chebyshev(p, r.pos), p))
        if chebyshev(target, r.pos) <= TALK_RANGE:
            return
        try:
            path = list(self.paths.path(r.pos, self.paths.nearest_walkable(target)))
        except NoPath:  # talk from where it stands
            return
        steps: list[Pos] = []
        for p in path:
            if p == target:
                break
            steps.append(p)
            if chebyshev(p, target) <= 1:
                break
        r.path = steps

    def entrance(self) -> Pos:
        """Where a visitor walks in: the town's ``spawn["player"]`` if it has one, else the walkable
        tile on the map's edge (or, failing that, anywhere) that the residents can reach, nearest the
        middle of the bottom edge, as if arriving by the road."""
        town = self.core.town
        spawn = town.spawn or {}
        for key in ("player", "visitor", "entrance"):
            if key in spawn:
                x, y = spawn[key]
                return int(x), int(y)
        grid = town.grid
        h, w = grid.shape
        homes = [r.pos for r in self.core.residents.values()]

        def reachable(p: Pos) -> bool:
            return any(self.paths.reachable(p, q) for q in homes[:3])
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
