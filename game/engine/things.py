"""The town's things as actions change them: a resident cooking turns the stove on, and off again
when it moves on; the player sets the stove on fire; a thing in a mishap's state (on fire, leaking,
broken) changes only when someone mends it, once there.  A part of ``Engine``."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from game.engine.events import LogLine, ObjectChange, TickResult
from game.engine.state import Resident
from game.engine.towncore import TownCore
from game.mind.view import Action
from game.world.objects import IDLE
from game.world.states import MISHAPS, match_state, mishap
from game.world.states import describe as describe_state


class Things:
    """Owns the states of the town's objects (``core.town.objects``) and ``news``: address -> when
    the player or the world (not everyday use) last changed it.  Takes the core."""

    def __init__(self, core: TownCore) -> None:
        self.core = core
        self.news: dict[str, datetime] = {}

    def fit(self, action: Action) -> Action:
        """``action`` with its object's state one of the thing's vocabulary, else none."""
        if action.object_state:
            info = self.core.info(action.address)
            if info is not None and match_state(info, action.object_state) != action.object_state:
                return replace(action, object_state=match_state(info, action.object_state))
        return action

    def let_go(self, r: Resident, old: Action | None, res: TickResult) -> None:
        """``r`` leaves its ``old`` action: the object it changed goes back to idle, unless someone
        else changed it since."""
        objects = self.core.town.objects
        if old is not None and old.object_state and old.address in objects:
            if objects.get(old.address) == old.object_state and objects.changed_by(old.address) == r.name:
                objects.set(old.address, "idle", r.name)
                res.object_changes.append(ObjectChange(old.address, "idle", r.name))

    def set(self, address: str, state: str, by: str, res: TickResult, now: datetime) -> None:
        """``by`` puts the thing at ``address`` in ``state`` (one of its kind's vocabulary, else
        nothing changes); the town log says so."""
        objects = self.core.town.objects
        if address not in objects:
            return
        info = self.core.info(address)
        if info is not None:  # only a state of its kind's vocabulary (see game/world/states.py)
            state = match_state(info, state) or ""
            if not state:
                return
        if objects.get(address) == state:
            return
        objects.set(address, state, by)
        if by not in self.core.residents:  # news: what the player or the world did, not everyday use
            self.news[address] = now
        res.object_changes.append(ObjectChange(address, state, by))
        said = describe_state(info, state) if info is not None else state
        res.log.append(LogLine("object", f"{self.core.describe(address)} is now {said}", by))

    def mends(self, address: str, state: str | None) -> bool:
        """An action that leaves ``address`` in ``state`` mends it: it is in a mishap's state (a
        fire, a leak, broken) and ``state`` is its resting one (the world judged the action's words
        when the state was chosen: game/world/states.py ``mends``)."""
        objects = self.core.town.objects
        if not state or address not in objects or objects.get(address) not in MISHAPS:
            return False
        info = self.core.info(address)
        return (match_state(info, state) if info is not None else state) == IDLE

    def on_action(self, r: Resident, action: Action, res: TickResult, now: datetime) -> None:
        """The state a new action sets on its object: at once, as ever, except for a thing in a
        mishap's state (on fire, leaking, broken): only mending changes it, when its resident
        reaches it (``mend_on_arrival``).  A step decided before the fire ("cooking", state "on")
        leaves a burning stove burning; it put fires out in a test before this rule."""
        objects = self.core.town.objects
        if action.address in objects and objects.get(action.address) in MISHAPS:
            if self.mends(action.address, action.object_state) and not r.path:
                self.mend(r, action.address, res, now)
            return
        self.set(action.address, action.object_state or "", r.name, res, now)

    def mend_on_arrival(self, r: Resident, res: TickResult, now: datetime) -> None:
        """``r`` has walked to the thing its action mends: it is mended now.  Not by an action
        begun before the player or the world broke it again (the next look asks anew)."""
        a = r.action
        if (a is None or r.path or r.conversation or r.name == self.core.embodied
                or not self.mends(a.address, a.object_state)):
            return
        broke = self.news.get(a.address)
        if broke is not None and a.start is not None and a.start < broke:
            return
        self.mend(r, a.address, res, now)

    def mend(self, r: Resident, address: str, res: TickResult, now: datetime) -> None:
        m = mishap(self.core.town.objects.get(address) or "")
        if m is not None and m.says:
            res.log.append(LogLine("object", f"{r.name} {m.words(m.says, address.rsplit(':', 1)[-1])}", r.name))
        self.set(address, IDLE, r.name, res, now)
