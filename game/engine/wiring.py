"""How the engine builds a town from the world and mind layers (kept apart from the tick loop).

Everything the engine needs from ``game.world`` and ``game.mind`` is imported here, lazily, so the
tick loop itself depends only on the plain data in ``game.mind.view`` and ``game.engine.events``.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from game.mind.view import WorldView
from game.world.resolve import Grounder


class TownError(Exception):
    """A town or save that cannot be opened; the message names the file and the problem."""


def make_mind(spec: Any, llm: Any, now: datetime) -> Any:
    from game.mind import Mind

    return Mind(spec, llm, now=now)


def mind_from_state(spec: Any, llm: Any, state: dict, memory_rows: list[dict]) -> Any:
    from game.mind import Mind

    state = dict(state)
    state["memory"] = memory_rows
    return Mind.from_state(state, llm)


def mind_to_state(mind: Any) -> tuple[dict, list[dict]]:
    """(state without the memory, memory rows) of a mind."""
    state = dict(mind.to_state())
    rows = state.pop("memory", None)
    return state, list(rows or [])


def new_spatial(town: Any, spec: Any) -> Any:
    return town.spatial_seed(spec.name)


def spatial_from_dict(town: Any, data: dict) -> Any:
    from game.world import SpatialMemory

    return SpatialMemory.from_dict(data)


def load_world(town_path: str | Path) -> Any:
    from game.world import MapError, load_town

    try:
        return load_town(str(town_path))
    except MapError as e:
        raise TownError(str(e)) from None
    except FileNotFoundError as e:
        raise TownError(f"{town_path}: no such town ({e.strerror})") from None


def pathfinder(town: Any) -> Any:
    return town.paths


def perceive_fn() -> Any:
    from game.world import perceive

    return perceive


def new_clock(town: Any, start: datetime | None) -> Any:
    from game.world.clock import Clock

    if start is not None:
        return Clock(start, getattr(town, "seconds_per_step", 10))
    return town.clock()


def clock_from_dict(d: dict) -> Any:
    from game.world.clock import Clock

    return Clock.from_dict(d)


def start_positions(town: Any, specs: list[Any], paths: Any) -> dict[str, tuple[int, int]]:
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
        out[spec.name] = tuple(paths.nearest_walkable(tuple(pos)))
    return out


def cast(town: Any, small: bool) -> list[Any]:
    specs = list(town.residents)
    if small:
        keep = set(getattr(town, "small_cast", []) or [])
        if keep:
            specs = [s for s in specs if s.name in keep]
    return sorted(specs, key=lambda s: s.name)


def new_engine(cls: type, town_path: str | Path, llm: Any, *, small: bool, seed: int,
               lockstep: bool, start: datetime | None) -> Any:
    town = load_world(town_path)
    specs = cast(town, small)
    if not specs:
        raise TownError(f"{town_path}: the town has no residents")
    paths = pathfinder(town)
    clock = new_clock(town, start)
    minds = {s.name: make_mind(s, llm, clock.now) for s in specs}
    spatial = {s.name: new_spatial(town, s) for s in specs}
    engine = cls(town=town, town_path=str(town_path), minds=minds, clock=clock, llm=llm,
                 pathfinder=paths, perceive=perceive_fn(), spatial=spatial,
                 positions=start_positions(town, specs, paths), seed=seed, lockstep=lockstep)
    engine.small = small
    engine.specs = {s.name: s for s in specs}
    return engine


def world_view(engine: Any, name: str) -> WorldView:
    r = engine.residents[name]
    tree = engine.town.tree
    here = ""
    try:
        here = tree.arena_at(r.pos) if hasattr(tree, "arena_at") else tree.address_at(r.pos)
    except Exception:
        here = ""
    sm = engine.spatial.get(name)
    known = ""
    allowed: list[str] = []
    if sm is not None:
        known = sm.describe_known()
        allowed = [a for a in sm.addresses() if a.count(":") >= 1 and a in tree]
    nearby = [text for key, text in sorted(r.seen.items()) if key.startswith("person:")]
    from game.engine.engine import TALK_RANGE, chebyshev

    # those it can talk to: within talking range, or in view (it walks over to them)
    in_view = {key.split(":", 1)[1] for key in r.seen if key.startswith("person:")}
    people = sorted(n for n, p in engine._actors().items()
                    if n != name and (chebyshev(p, r.pos) <= TALK_RANGE or n in in_view))
    clock = engine.clock
    now_text = clock.long_text() if hasattr(clock, "long_text") else clock.text()
    return WorldView.make(now_text=now_text, here=here, here_text=engine._describe(here),
                          known_places=known, allowed=allowed, nearby=nearby, people_here=people,
                          ground=grounder(engine, name, allowed, here))


def grounder(engine: Any, name: str, allowed: Any, here: str) -> Grounder | None:
    """The world's place picker for one resident's decision (None for a town without affordances
    or a resident that knows no place)."""
    aff = getattr(engine.town, "affordances", None)
    if aff is None or not allowed:
        return None
    spec = getattr(engine, "specs", {}).get(name) or getattr(engine.minds.get(name), "persona", None)
    return Grounder(aff, allowed, home=getattr(spec, "home", "") or "",
                    workplace=getattr(spec, "workplace", "") or "", here=here,
                    objects=getattr(engine.town, "objects", None))


def with_ground(engine: Any, name: str, view: WorldView | None) -> WorldView | None:
    """A view read back from a job's plain data (or a save), with its place picker again."""
    if view is None or view.ground is not None:
        return view
    return replace(view, ground=grounder(engine, name, view.allowed, view.here))
