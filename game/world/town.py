"""A town: the map (tiles, areas, objects) and its residents, loaded from a town folder."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from pathlib import Path

import numpy as np

from ..resources import package_dir
from .affordances import Affordances
from .clock import DEFAULT_START, Clock
from .errors import MapError
from .knowledge import EventSpec, RoleSpec
from .objects import ObjectStates
from .paths import PathFinder
from .residents import ResidentSpec, read_residents
from .spatial import SpatialMemory
from .tmx import Property, RawMap, load_tmx
from .tree import AreaTree, join, split

Pos = tuple[int, int]

REQUIRED_LAYERS = {"ground": "tile", "sectors": "object", "arenas": "object", "objects": "object"}


@dataclass(frozen=True)
class Tile:
    glyph: str
    fg: str
    bg: str
    walkable: bool
    name: str  # the tile's kind: "grass", "wall", "bed"...


VOID = Tile(" ", "#000000", "#000000", False, "void")


@dataclass
class Town:
    name: str
    path: Path  # the .tmx
    width: int
    height: int
    tiles: list[list[Tile]]  # tiles[y][x]
    tree: AreaTree
    residents: list[ResidentSpec]
    small_cast: list[str]
    spawn: dict[str, Pos]
    objects: ObjectStates
    grid: np.ndarray  # walkable, bool [h, w]
    start: datetime = DEFAULT_START
    seconds_per_step: float = 10
    properties: dict[str, Property] = field(default_factory=dict)
    events: list[EventSpec] = field(default_factory=list)  # what the town knows as data (knowledge.py)
    roles: list[RoleSpec] = field(default_factory=list)
    small_town: bool = False  # every two residents but newcomers know each other (residents.json)

    @cached_property
    def paths(self) -> PathFinder:
        return PathFinder(self.grid)

    @cached_property
    def affordances(self) -> Affordances:
        """What each object and arena affords and the states each object can be in."""
        return Affordances(self.tree)

    def resident(self, name: str) -> ResidentSpec:
        for r in self.residents:
            if r.name == name:
                return r
        raise KeyError(f"no resident called {name!r} in {self.name}")

    def clock(self) -> Clock:
        return Clock(self.start, self.seconds_per_step)

    def spatial_seed(self, name: str) -> SpatialMemory:
        """What a resident knows at the start: home, workplace, and the places it ``knows``."""
        r = self.resident(name)
        m = SpatialMemory()
        shifts = [sh.place for sh in r.lifestyle.schedule if sh.place]
        m.seed(self.tree, [r.home] + ([r.workplace] if r.workplace else []) + shifts + list(r.knows))
        return m

    def render_rows(self) -> list[str]:
        return ["".join(t.glyph for t in row) for row in self.tiles]

    def walkable_tiles_of(self, address: str) -> list[Pos]:
        return [p for p in self.tree.tiles_of(address) if self.grid[p[1], p[0]]]


def _tile_from_props(path: Path, props: dict, where: str) -> Tile:
    glyph = str(props.get("glyph", ""))
    if len(glyph) != 1:
        raise MapError(path, f"{where}: tile has no one-character 'glyph' property (got {glyph!r})")
    w = props.get("walkable", False)
    if isinstance(w, str):
        w = w.strip().lower() in ("1", "true", "yes", "y", "t")
    return Tile(glyph, str(props.get("fg", "#c0c0c0")), str(props.get("bg", "#000000")), bool(w),
                str(props.get("kind", "tile")))


def _check_name(path: Path, what: str, name: Property) -> str:
    name = " ".join(str(name or "").split())
    if not name:
        raise MapError(path, f"a {what} has no name (every {what} needs one in Tiled's Name field)")
    if ":" in name:
        raise MapError(path, f"{what} {name!r}: names may not contain ':'")
    return name


def build_town_map(raw: RawMap, town_name: str) -> tuple[list[list[Tile]], np.ndarray, AreaTree, dict[str, str]]:
    _check_layers(raw)
    tiles, grid = _tile_grid(raw)
    tree = AreaTree(raw.width, raw.height, town_name)
    sector_names, sector_grid = _add_sectors(raw, tree)
    _add_arenas(raw, tree, sector_names, sector_grid)
    initial = _add_objects(raw, tree)
    tree.finish()
    return tiles, grid, tree, initial


def _check_layers(raw: RawMap) -> None:
    for lname, kind in REQUIRED_LAYERS.items():
        have = raw.tile_layers if kind == "tile" else raw.object_layers
        if lname not in have:
            other = raw.object_layers if kind == "tile" else raw.tile_layers
            extra = (f" (there is a {'object' if kind == 'tile' else 'tile'} layer by that name)"
                     if lname in other else "")
            raise MapError(raw.path, f"missing {kind} layer '{lname}'{extra}; a town map needs tile layer "
                                     f"'ground' and object layers 'sectors', 'arenas', 'objects'")


def _tile_grid(raw: RawMap) -> tuple[list[list[Tile]], np.ndarray]:
    """The tiles of layers 'ground' and 'furniture' (furniture over the ground), and which walk."""
    path = raw.path
    w, h = raw.width, raw.height
    palette = [_tile_from_props(path, p, f"tile kind {p.get('kind', i)!r}") if p.get("glyph") is not None
               else None for i, p in enumerate(raw.palette)]
    ground = raw.tile_layers["ground"]
    furn = raw.tile_layers.get("furniture")
    tiles: list[list[Tile]] = []
    grid = np.zeros((h, w), dtype=bool)
    combo: dict[tuple[int, int], Tile] = {}
    for y in range(h):
        row = []
        g_row = ground[y]
        f_row = furn[y] if furn is not None else None
        for x in range(w):
            gi = int(g_row[x])
            fi = int(f_row[x]) if f_row is not None else -1
            key = (gi, fi)
            t = combo.get(key)
            if t is None:
                base = VOID
                if gi >= 0:
                    under = palette[gi]
                    if under is None:
                        raise MapError(path, f"layer 'ground' at ({x}, {y}): tile has no 'glyph' property")
                    base = under
                t = base
                if fi >= 0:
                    top = palette[fi]
                    if top is None:
                        raise MapError(path, f"layer 'furniture' at ({x}, {y}): tile has no 'glyph' property")
                    t = Tile(top.glyph, top.fg, base.bg if raw.palette[fi].get("bg") is None else top.bg,
                             base.walkable and top.walkable, top.name)
                combo[key] = t
            row.append(t)
            grid[y, x] = t.walkable
        tiles.append(row)
    return tiles, grid


def _add_sectors(raw: RawMap, tree: AreaTree) -> tuple[list[str], np.ndarray]:
    """Layer 'sectors' into ``tree``; returns the sectors' names in order and which one each tile
    lies in (an index into the names; -1: none)."""
    path, w, h = raw.path, raw.width, raw.height
    sector_grid = np.full((h, w), -1, dtype=np.int32)
    sector_names: list[str] = []
    for o in raw.object_layers["sectors"]:
        name = _check_name(path, "sector", o.properties.get("label") or o.name)
        ts = o.tiles(w, h)
        if not ts:
            raise MapError(path, f"sector {name!r} covers no tile of the map")
        props = {k: v for k, v in o.properties.items() if k != "label"}
        tree.add_sector(name, ts, props)
        if name not in sector_names:
            sector_names.append(name)
        i = sector_names.index(name)
        for x, y in ts:
            sector_grid[y, x] = i
    return sector_names, sector_grid


def _add_arenas(raw: RawMap, tree: AreaTree, sector_names: list[str], sector_grid: np.ndarray) -> None:
    """Layer 'arenas' into ``tree``: each in the sector it names, else in the one it lies in."""
    path, w, h = raw.path, raw.width, raw.height
    for o in raw.object_layers["arenas"]:
        name = _check_name(path, "arena", o.properties.get("label") or o.name)
        ts = o.tiles(w, h)
        if not ts:
            raise MapError(path, f"arena {name!r} covers no tile of the map")
        sector = o.properties.get("sector")
        if sector:
            sector = " ".join(str(sector).split())
            if sector not in sector_names:
                raise MapError(path, f"arena {name!r} names sector {sector!r}, which is not in layer 'sectors'")
        else:
            c = Counter(int(sector_grid[y, x]) for x, y in ts)
            c.pop(-1, None)
            if not c:
                raise MapError(path, f"arena {name!r} lies outside every sector (give it a 'sector' property "
                                     f"or draw a sector around it)")
            sector = sector_names[c.most_common(1)[0][0]]
        props = {k: v for k, v in o.properties.items() if k not in ("label", "sector")}
        tree.add_arena(sector, name, ts, props)


def _add_objects(raw: RawMap, tree: AreaTree) -> dict[str, str]:
    """Layer 'objects' into ``tree``; returns the objects' initial states (``state`` property)."""
    path, w, h = raw.path, raw.width, raw.height
    initial: dict[str, str] = {}
    for o in raw.object_layers["objects"]:
        label = _check_name(path, "object", o.properties.get("label") or o.name)
        kind = str(o.properties.get("kind") or label)
        ts = o.tiles(w, h)
        props = {k: v for k, v in o.properties.items() if k not in ("label", "kind", "state")}
        tree.add_object_tiles(label, kind, ts, props)
        if o.properties.get("state"):
            for p in ts:
                a = tree.arena_at(p)
                if a.count(":") == 1:
                    initial[join(a, label)] = str(o.properties["state"])
    return initial


def _resolve_folder(path: str | Path) -> tuple[Path, Path | None]:
    p = resolve_town_path(path)
    if p.is_dir():
        tmx = p / "town.tmx"
        if not tmx.is_file():
            cands = sorted(p.glob("*.tmx"))
            if len(cands) != 1:
                raise MapError(p, "a town folder needs a town.tmx (and residents.json)")
            tmx = cands[0]
        return tmx, p / "residents.json"
    if not p.exists():
        raise MapError(p, "no such town (expected a folder with town.tmx and residents.json, a .tmx, "
                          f"or a built-in town: {', '.join(builtin_town_names())})")
    res = p.parent / "residents.json"
    return p, res if res.is_file() else None


def builtin_towns_dir() -> Path:
    """The folder of the towns that ship inside the package (``game/maps``)."""
    return package_dir("game", "maps")


def builtin_town(name: str) -> Path | None:
    """The built-in town called ``name`` ("default"), or None when there is none of that name."""
    if not name or name in (".", "..") or any(c in name for c in "/\\:"):
        return None
    p = builtin_towns_dir() / name
    return p if (p / "town.tmx").is_file() else None


def builtin_town_names() -> list[str]:
    return sorted(p.parent.name for p in builtin_towns_dir().glob("*/town.tmx"))


def default_town_path() -> Path:
    """The default town (Millbrook), read from inside the package: the same from a checkout, an
    installed wheel or a tool install, whatever the current directory."""
    return builtin_towns_dir() / "default"


def resolve_town_path(path: str | Path, base: str | Path | None = None) -> Path:
    """Where a town argument points: the path itself when it is there (relative to ``base`` when
    given); else the built-in town of that name (``town run default``); else, for a path ending in
    ``maps/NAME`` that is not there, the built-in town NAME: the top-level ``maps/default`` of
    checkouts before the built-in towns moved into the package, and the town path kept in a save or
    a recording made by another installation.  Anything else comes back as given, for the loader
    to report."""
    p = Path(path).expanduser()
    full = p if base is None or p.is_absolute() else Path(base) / p
    if full.exists():
        return full
    found = builtin_town(str(path)) or (builtin_town(p.name) if p.parent.name == "maps" else None)
    return found or full


def load_town(path: str | Path | None = None, *, residents: bool = True) -> Town:
    """Load a town folder (``town.tmx`` + ``residents.json``), a ``.tmx`` file or a built-in town
    by name (``resolve_town_path``; None: the default town).

    A ``.tmx`` with no ``residents.json`` beside it loads with no residents.  Raises
    :class:`MapError` naming the file and the problem for anything malformed."""
    tmx, res_path = _resolve_folder(path if path is not None else default_town_path())
    raw = load_tmx(tmx)
    rf = read_residents(res_path) if (residents and res_path is not None) else None
    name = (rf.town if rf and rf.town else None) or str(raw.properties.get("town") or "") \
        or tmx.parent.name.replace("_", " ").title()
    tiles, grid, tree, initial = build_town_map(raw, name)
    objects = ObjectStates(tree.all_objects(), initial)
    town = Town(name=name, path=tmx, width=raw.width, height=raw.height, tiles=tiles, tree=tree,
                residents=[], small_cast=[], spawn={}, objects=objects, grid=grid,
                properties=raw.properties)
    if rf is None or res_path is None:
        return town
    town.start = rf.start or DEFAULT_START
    town.seconds_per_step = rf.seconds_per_step
    town.residents = list(rf.residents)
    town.small_cast = list(rf.small_cast)
    town.small_town = rf.small_town
    for _field, problem in place_problems(town, rf.events):  # the first that does not fit the map
        raise MapError(res_path, problem)
    _place_residents(town)
    town.events, town.roles = list(rf.events), list(rf.roles)
    return town


def main_component(town: Town) -> int:
    """The town's main walkable region: the connected component holding most tiles of sectors
    (not simply the largest: the Ville has more open land outside its walls than inside)."""
    pf = town.paths
    sec = town.tree.sector_mask().ravel().tolist()
    comp_sizes = Counter(c for c, s in zip(pf.regions, sec) if c >= 0 and s)
    if not comp_sizes:
        comp_sizes = Counter(c for c in pf.regions if c >= 0)
    if not comp_sizes:
        raise MapError(town.path, "the map has no walkable tile")
    return comp_sizes.most_common(1)[0][0]


def place_problems(town: Town, events: Iterable[EventSpec] = ()) -> Iterator[tuple[str, str]]:
    """Each place a resident's day needs, or an event is at, that the map does not have (or has no
    walkable, reachable tile of), and each spawn off the town's walkable tiles, as (field in
    residents.json, problem).  ``load_town`` stops at the first; ``town check`` lists them all."""
    tree, pf = town.tree, town.paths
    main = main_component(town)
    for i, r in enumerate(town.residents):
        at = f"residents[{i}]"
        for what, addr in (("home", r.home), ("workplace", r.workplace)):
            if addr is None:
                continue
            if addr not in tree or addr == "":
                yield f"{at}.{what}", f"{r.name}: {what} {addr!r} is not a place on the map{_hint(tree, addr)}"
                continue
            walk = town.walkable_tiles_of(addr)
            if not walk:
                yield f"{at}.{what}", f"{r.name}: {what} {addr!r} has no walkable tile on the map"
            elif not any(pf.component_of(p) == main for p in walk):
                yield f"{at}.{what}", (f"{r.name}: {what} {addr!r} cannot be reached from the rest "
                                       f"of the town (walled in)")
        for j, sh in enumerate(r.lifestyle.schedule):
            if sh.place is not None and sh.place not in tree:
                yield (f"{at}.lifestyle.schedule[{j}].place", f"{r.name}: schedule {sh.what!r} is at {sh.place!r}, "
                       f"which is not a place on the map{_hint(tree, sh.place)}")
        for j, addr in enumerate(r.knows):
            if addr not in tree:
                yield f"{at}.knows[{j}]", f"{r.name}: knows {addr!r}, which is not a place on the map"
        if r.spawn is not None:
            p = (int(r.spawn[0]), int(r.spawn[1]))
            if not pf.walkable(p) or pf.component_of(p) != main:
                yield f"{at}.spawn", f"{r.name}: spawn {list(p)} is not a walkable tile of the town"
    for i, e in enumerate(events):
        if e.place not in tree:
            yield (f"events[{i}].place",
                   f"event {e.what!r} is at {e.place!r}, which is not a place on the map{_hint(tree, e.place)}")


def _hint(tree: AreaTree, addr: str) -> str:
    hint = tree.find(addr)
    return f" (did you mean {hint!r}?)" if hint else ""


def _place_residents(town: Town) -> None:
    """Each resident's first tile: its spawn, else a free walkable tile at home (the places checked)."""
    tree, pf = town.tree, town.paths
    main = main_component(town)
    taken: set[Pos] = set()
    for r in town.residents:
        if r.spawn is not None:
            p = (int(r.spawn[0]), int(r.spawn[1]))
        else:
            cands = [p for p in town.walkable_tiles_of(r.home) if pf.component_of(p) == main]
            free = [p for p in cands if p not in taken and split(tree.address_at(p)).__len__() < 3]
            free = free or [p for p in cands if p not in taken] or cands
            free.sort(key=lambda p: (p[1], p[0]))
            p = free[len(free) // 2]
        taken.add(p)
        town.spawn[r.name] = p
