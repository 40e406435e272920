"""Building an engine: the one place that puts a town's parts together, from a town or a save.

``new_engine`` makes a town from its folder (or .tmx): the world's map, a mind per resident, the
clock.  ``load_engine`` makes it from a save: ``game.engine.save`` reads a ``TownState`` and this
module builds the live parts again from it (the map from the town's path, the minds from their
states, each resident's map of places) and hands the rest to ``Engine.restore``.  This is where the
engine meets ``game.world`` and ``game.mind``; the tick loop itself knows them only through the
Protocols of ``game.engine.api``.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from game.engine import save as saves
from game.engine.engine import Engine
from game.engine.save import SaveError
from game.engine.state import Pos
from game.errors import GameError
from game.text import one_line
from game.llm.api import LLM
from game.mind import Mind
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
        keep = set(getattr(town, "small_cast", []) or [])
        if keep:
            specs = [s for s in specs if s.name in keep]
    return sorted(specs, key=lambda s: s.name)


def start_positions(town: Town, specs: list[ResidentSpec]) -> dict[str, Pos]:
    """Where each resident starts: the town's spawn point for it, its own, its home, or the middle."""
    out = {}
    spawn = getattr(town, "spawn", {}) or {}
    for spec in specs:
        pos = spawn.get(spec.name) or getattr(spec, "spawn", None)
        if pos is None and getattr(spec, "home", None):
            try:
                tiles = sorted(town.tree.tiles_of(spec.home))
                pos = tiles[0] if tiles else None
            except KeyError:
                pos = None
        if pos is None:
            pos = (town.width // 2, town.height // 2)
        out[spec.name] = tuple(town.paths.nearest_walkable(tuple(pos)))
    return out


def new_engine(town_path: str | Path, llm: LLM, *, small: bool = False, seed: int = 0,
               lockstep: bool = False, start: datetime | None = None) -> Engine:
    """A new town from its folder (or .tmx); ``start`` another time than the town's own."""
    town = load_world(town_path)
    town_path = resolve_town_path(town_path)  # "default" is kept as the built-in town's own folder
    specs = cast(town, small)
    if not specs:
        raise TownError(f"{town_path}: the town has no residents")
    clock = Clock(start, getattr(town, "seconds_per_step", 10)) if start is not None else town.clock()
    return Engine(town=town, town_path=str(town_path), minds={s.name: Mind(s, llm, now=clock.now) for s in specs},
                  clock=clock, llm=llm, pathfinder=town.paths, perceive=perceive,
                  spatial={s.name: town.spatial_seed(s.name) for s in specs},
                  positions=start_positions(town, specs), seed=seed, lockstep=lockstep, small=small)


def load_engine(save_path: str | Path, llm: LLM, *, lockstep: bool = False) -> Engine:
    """The town saved in ``save_path``, run by ``llm``; raises ``SaveError`` naming the problem."""
    state = saves.read_state(save_path)
    town_path = str(resolve_town_path(state.town_path))  # a built-in town kept by another install
    if not Path(town_path).exists():
        raise SaveError(f"save '{save_path}' belongs to the town '{town_path}', which is not there any more")
    try:
        town = load_world(town_path)
    except Exception as e:
        raise SaveError(f"save '{save_path}': its town '{town_path}' cannot be loaded: {e}") from None
    specs = {s.name: s for s in town.residents}
    missing = [n for n in state.residents if n not in specs]
    if missing:
        raise SaveError(f"save '{save_path}': residents {', '.join(missing)} are not in the town '{town_path}'")
    try:
        minds = {name: Mind.from_state({**state.minds[name], "memory": state.memories.get(name, [])}, llm)
                 for name in state.residents}
        engine = Engine(town=town, town_path=town_path, minds=minds, clock=Clock.from_dict(state.clock), llm=llm,
                        pathfinder=town.paths, perceive=perceive,
                        spatial={n: SpatialMemory.from_dict(d) for n, d in state.spatial.items()},
                        positions={n: r.pos for n, r in state.residents.items()}, seed=state.seed,
                        lockstep=lockstep, decision_ticks=state.decision_ticks, small=state.small)
        engine.restore(state)
    except (KeyError, ValueError, TypeError, IndexError) as e:
        raise SaveError(f"save '{save_path}' is damaged or incomplete ({type(e).__name__}: "
                        f"{one_line(e, 160)})") from None
    acc = getattr(llm, "accounting", None)
    if state.accounting is not None and acc is not None and hasattr(type(acc), "from_dict") and hasattr(acc, "restore"):
        # the loaded town's usage carries on (what the session spent on another town is not its)
        try:
            acc.restore(type(acc).from_dict(state.accounting))
        except (KeyError, ValueError, TypeError, AttributeError):
            pass  # damaged figures are not the town: it loads, and counting starts again now
        acc.set_day(engine.clock.day)
    engine.save_path = str(save_path)
    engine.remember_save(save_path, state.sync)
    return engine


def open_engine(town_or_save: str | Path, llm: LLM, *, small: bool = False, lockstep: bool = False) -> Engine:
    """A save is loaded, a town started anew (a damaged .save is still a save: loading it says what
    is wrong with it, not "not a map")."""
    if saves.is_save(town_or_save) or str(town_or_save).endswith(saves.SUFFIX):
        return load_engine(town_or_save, llm, lockstep=lockstep)
    return new_engine(town_or_save, llm, small=small, lockstep=lockstep)
