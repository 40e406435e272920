"""Building an engine: the one place that puts a town's parts together, from a town or a save.

``new_engine`` makes a town from its folder (or .tmx): the world's map, a mind per resident, the
clock.  ``load_engine`` makes it from a save: ``game.engine.saves`` reads a ``TownState`` and this
module builds the live parts again from it (the map from the town's path, the minds from their
states, each resident's map of places) and hands the rest to ``Engine.restore``.  This is where the
engine meets ``game.world`` and ``game.mind``; the tick loop itself knows them only through the
Protocols of ``game.engine.api``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

from game.engine import saves
from game.engine.api import MindPort
from game.engine.engine import Engine
from game.engine.saves import SaveError
from game.engine.state import Pos, TownState
from game.engine.tuning import PREPARE_AHEAD
from game.errors import GameError
from game.llm.accounting import Accounting, accounting_of
from game.llm.api import LLM
from game.mind import Mind
from game.mind.facts.fact import declared
from game.mind.mindstate import MindState
from game.mind.persona import to_minutes
from game.text import one_line
from game.world import MapError, SpatialMemory, Town, load_town, perceive, resolve_town_path
from game.world.clock import Clock
from game.world.residents import ResidentSpec


class TownError(GameError):
    """A town that cannot be opened; the message names the file and the problem."""


def load_world(town_path: str | Path) -> Town:
    """The town at ``town_path``; raises ``TownError`` (the tests swap this for a hand-built town)."""
    try:
        return load_town(str(town_path))
    except MapError as e:
        raise TownError(str(e)) from None
    except FileNotFoundError as e:
        raise TownError(f"{town_path}: no such town ({e.strerror})") from None


def cast(town: Town, small: bool) -> list[ResidentSpec]:
    """The residents who live in this run: all of them, or the town's small cast."""
    specs = list(town.residents)
    if small:
        keep = set(town.small_cast)
        if keep:
            specs = [s for s in specs if s.name in keep]
    return sorted(specs, key=lambda s: s.name)


def start_positions(town: Town, specs: list[ResidentSpec]) -> dict[str, Pos]:
    """Where each resident starts: the town's spawn point for it, its own, its home, or the middle."""
    out = {}
    for spec in specs:
        pos = town.spawn.get(spec.name) or spec.spawn
        if pos is None and spec.home:
            try:
                tiles = sorted(town.tree.tiles_of(spec.home))
                pos = tiles[0] if tiles else None
            except KeyError:
                pos = None
        if pos is None:
            pos = (town.width // 2, town.height // 2)
        x, y = town.paths.nearest_walkable((int(pos[0]), int(pos[1])))
        out[spec.name] = (x, y)
    return out


@dataclass
class TownInput:
    """A town or a save, read and checked, with no model yet: what ``town run``, ``town interview``
    and ``town experiment`` read before they open (or start) a model, so that a bad map, save, time
    or name is reported first.  ``build_engine`` makes the engine from it once the model is open.

    A new town has ``specs`` (its cast); a save has ``state`` (what ``read_state`` read)."""

    path: str  # the town folder/.tmx, or the save file
    town: Town
    clock: Clock  # where the town's clock stands (a new town's start, or the save's moment)
    specs: list[ResidentSpec] | None = None
    state: TownState | None = None
    small: bool = False  # a new town's small cast

    @property
    def is_save(self) -> bool:
        return self.state is not None

    @property
    def residents(self) -> list[str]:
        """The names of the residents who live in it (sorted)."""
        if self.state is not None:
            return sorted(self.state.residents)
        return [s.name for s in self.specs or []]


def read_town(town_path: str | Path, *, small: bool = False, start: datetime | None = None) -> TownInput:
    """A new town from its folder (or .tmx), read and checked; raises ``TownError``."""
    town = load_world(town_path)
    town_path = resolve_town_path(town_path)  # "default" is kept as the built-in town's own folder
    specs = cast(town, small)
    if not specs:
        raise TownError(f"{town_path}: the town has no residents")
    clock = Clock(start, town.seconds_per_step) if start is not None else town.clock()
    return TownInput(path=str(town_path), town=town, clock=clock, specs=specs, small=small)


def _off_map(pos: object, town: Town) -> bool:
    """Whether ``pos`` is not a tile of the town (or not a position at all)."""
    if not isinstance(pos, (tuple, list)) or len(pos) != 2:
        return True
    x, y = pos
    return not (isinstance(x, int) and isinstance(y, int)
                and 0 <= x < int(town.width) and 0 <= y < int(town.height))


def check_state(state: TownState, town: Town, save_path: str | Path) -> None:
    """What a save says that its town makes impossible: someone off the map, a resident the town
    does not know.  Raises ``SaveError`` naming the file and the field."""
    where = f"save '{save_path}'"
    known = {s.name for s in town.residents}
    size = f"the map is {town.width}x{town.height}"
    for name in sorted(state.residents):
        if name not in known:
            raise SaveError(f"{where}: residents: '{one_line(name, 60)}' is not a resident of the town "
                            f"'{state.town_path}'")
        r = state.residents[name]
        if _off_map(r.pos, town):
            raise SaveError(f"{where}: residents['{one_line(name, 60)}'].x/y: {one_line(r.pos, 60)} is off "
                            f"the map ({size})")
        bad = next((q for q in r.path if _off_map(q, town)), None)
        if bad is not None:
            raise SaveError(f"{where}: residents['{one_line(name, 60)}'].path: {one_line(bad, 60)} is off "
                            f"the map ({size})")
    if state.player is not None and _off_map(state.player.pos, town):
        raise SaveError(f"{where}: player.pos: {one_line(state.player.pos, 60)} is off the map ({size})")
    if state.embodied is not None and state.embodied not in state.residents:
        raise SaveError(f"{where}: embodied: '{one_line(state.embodied, 60)}' is not a resident of the save")
    for job in state.jobs:
        if job.resident not in state.residents:
            raise SaveError(f"{where}: pending[{job.seq}].resident: '{one_line(job.resident, 60)}' is not a "
                            f"resident of the save")


def read_save(save_path: str | Path) -> TownInput:
    """A save, read and checked against its town; raises ``SaveError`` naming the problem."""
    state = saves.read_state(save_path)
    town_path = str(resolve_town_path(state.town_path))  # a built-in town kept by another install
    if not Path(town_path).exists():
        raise SaveError(f"save '{save_path}' belongs to the town '{town_path}', which is not there any more")
    try:
        town = load_world(town_path)
    except TownError as e:
        raise SaveError(f"save '{save_path}': its town '{town_path}' cannot be loaded: {e}") from None
    check_state(state, town, save_path)
    try:
        clock = Clock.from_dict(state.clock)
    except (KeyError, ValueError, TypeError, AttributeError) as e:
        raise SaveError(f"save '{save_path}': clock: damaged ({type(e).__name__}: {one_line(e, 160)})") from None
    return TownInput(path=str(save_path), town=town, clock=clock, state=state)


def read_input(town_or_save: str | Path, *, small: bool = False) -> TownInput:
    """A save is read as a save, a town as a town (a damaged .save is still a save: reading it
    says what is wrong with it, not "not a map").  Raises ``SaveError`` or ``TownError``."""
    if saves.is_save(town_or_save) or str(town_or_save).endswith(saves.SUFFIX):
        if small:  # (was silently not used)
            raise TownError(f"{town_or_save}: --small picks the small cast of a new town; a save keeps the "
                            f"residents it was saved with")
        return read_save(town_or_save)
    return read_town(town_or_save, small=small)


DAWN, OWN = "dawn", "town"  # --start's words: before the first waking; the town's own start
_HHMM = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


def opening(inp: TownInput, start: str | None) -> TownInput:
    """A new town opened at another time of its first day than its own (``--start``): "HH:MM", or
    ``DAWN``, just before the first of its cast wakes, so that no one is up or waking within
    ``PREPARE_AHEAD`` and the clock runs at once while the residents plan as they sleep (issue 42:
    a new town on screen in seconds, not after minutes of day plans).  ``DAWN`` keeps the town's
    own start when that is earlier; ``OWN`` (or None) is the town's own start.  Raises ``TownError``
    for a save or a time that is not one."""
    check_start(start)
    if start is None or start == OWN:
        return inp
    if inp.specs is None:
        raise TownError(f"--start {one_line(start, 20)}: a save goes on from where it was saved")
    day = inp.clock.start.replace(hour=0, minute=0, second=0, microsecond=0)
    if start == DAWN:
        first = min((to_minutes(s.lifestyle.wake, 0) for s in inp.specs), default=None)
        if first is None:
            return inp
        at = day + timedelta(minutes=first) - PREPARE_AHEAD - timedelta(minutes=1)
        if at < day or at >= inp.clock.start:
            return inp
    else:
        at = day + timedelta(minutes=to_minutes(start.strip(), 0))
    return replace(inp, clock=Clock(at, inp.clock.seconds_per_step))


def check_start(start: str | None) -> None:
    """``--start``'s words, checked before any file is read: raises ``TownError``."""
    if start is not None and start not in (DAWN, OWN) and not _HHMM.match(start.strip()):
        raise TownError(f"--start {one_line(start, 20)!r}: give a time of the first day as HH:MM, 'dawn' or 'town'")


def build_engine(inp: TownInput, llm: LLM, *, seed: int = 0, lockstep: bool = False) -> Engine:
    """The engine of a town or save read by ``read_input`` (once each: a save's memories are
    handed over, not copied), run by ``llm``."""
    if inp.state is None:
        return _new(inp, llm, seed=seed, lockstep=lockstep)
    return _loaded(inp, llm, lockstep=lockstep)


def new_engine(town_path: str | Path, llm: LLM, *, small: bool = False, seed: int = 0,
               lockstep: bool = False, start: datetime | None = None) -> Engine:
    """A new town from its folder (or .tmx); ``start`` another time than the town's own."""
    return _new(read_town(town_path, small=small, start=start), llm, seed=seed, lockstep=lockstep)


def _new(inp: TownInput, llm: LLM, *, seed: int, lockstep: bool) -> Engine:
    town, specs, clock = inp.town, list(inp.specs or []), inp.clock
    made = {s.name: Mind(s, llm, now=clock.now) for s in specs}
    seed_knowledge(town, made, clock.now)
    minds: dict[str, MindPort] = dict(made)
    return Engine(town=town, town_path=inp.path, minds=minds,
                  clock=clock, llm=llm, pathfinder=town.paths, perceive=perceive,
                  spatial={s.name: town.spatial_seed(s.name) for s in specs},
                  positions=start_positions(town, specs), seed=seed, lockstep=lockstep, small=inp.small)


def seed_knowledge(town: Town, minds: dict[str, Mind], now: datetime) -> int:
    """Each declared event (residents.json ``events``, game/world/knowledge.py) held as a fact by
    every resident of this run who knows of it, hosts it or is invited; the count handed over."""
    n = 0
    for e in town.events:
        start, end = e.minutes()
        for name in e.knowers():
            if name in minds:
                n += minds[name].know(declared(e.what, e.host, e.place, e.on(now.date()), start, end, holder=name,
                                               now=now, honoree=e.honoree, invited=e.invited,
                                               secret_from=e.secret_from, knowers=e.knowers(),
                                               from_host=name in e.invited or name in e.tasks))
    return n


def load_engine(save_path: str | Path, llm: LLM, *, lockstep: bool = False) -> Engine:
    """The town saved in ``save_path``, run by ``llm``; raises ``SaveError`` naming the problem."""
    return _loaded(read_save(save_path), llm, lockstep=lockstep)


def _with_memory(state: TownState, name: str) -> MindState:
    """A resident's saved mind with its memories (an image, or an old save's rows)."""
    mind = state.minds[name].copy()
    mind["memory"] = state.memories.get(name, [])
    return mind


def _loaded(inp: TownInput, llm: LLM, *, lockstep: bool) -> Engine:
    state, town, save_path = inp.state, inp.town, inp.path
    assert state is not None
    town_path = str(resolve_town_path(state.town_path))  # a built-in town kept by another install
    try:
        minds: dict[str, MindPort] = {name: Mind.from_state(_with_memory(state, name), llm)
                                      for name in state.residents}
        engine = Engine(town=town, town_path=town_path, minds=minds, clock=inp.clock, llm=llm,
                        pathfinder=town.paths, perceive=perceive,
                        spatial={n: SpatialMemory.from_dict(d) for n, d in state.spatial.items()},
                        positions={n: r.pos for n, r in state.residents.items()}, seed=state.seed,
                        lockstep=lockstep, decision_ticks=state.decision_ticks, small=state.small)
        engine.saver.restore(state)
    except (KeyError, ValueError, TypeError, IndexError) as e:
        raise SaveError(f"save '{save_path}' is damaged or incomplete ({type(e).__name__}: "
                        f"{one_line(e, 160)})") from None
    acc = accounting_of(llm)
    if state.accounting is not None and acc is not None:
        # the loaded town's usage carries on (what the session spent on another town is not its)
        try:
            acc.restore(Accounting.from_dict(state.accounting))
        except (KeyError, ValueError, TypeError, AttributeError):
            pass  # damaged figures are not the town: it loads, and counting starts again now
        acc.set_day(engine.clock.day)
    engine.saver.path = str(save_path)
    engine.saver.remember(save_path, state.sync)
    return engine


def open_engine(town_or_save: str | Path | TownInput, llm: LLM, *, small: bool = False,
                lockstep: bool = False) -> Engine:
    """A save is loaded, a town started anew (``read_input``); a ``TownInput`` already read is built."""
    inp = town_or_save if isinstance(town_or_save, TownInput) else read_input(town_or_save, small=small)
    return build_engine(inp, llm, lockstep=lockstep)
