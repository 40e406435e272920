"""``town import-ville DIR OUT``: turn the original Generative Agents Smallville ("the Ville") into a
town folder this game plays (town.tmx + residents.json + our tileset).

Reads, under DIR (a checkout of joonspk-research/generative_agents, or a copy of its data files):
  A = environment/frontend_server/static_dirs/assets/the_ville
    A/matrix/maze_meta_info.json, A/matrix/maze/*_maze.csv (authoritative for the layout),
    A/matrix/special_blocks/*_blocks.csv (names of the block ids), A/agent_history_init_n25.csv|_n3.csv
  S = environment/frontend_server/storage/<base>
    reverie/meta.json, environment/0.json, personas/<Name>/bootstrap_memory/{scratch,spatial_memory}.json
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import sys
from pathlib import Path
from typing import TypedDict

import numpy as np

from . import tiles as T
from .errors import MapError
from .tmxwrite import PNG_NAME, Area, write_tmx, write_tsx
from .town import default_town_path, load_town
from .ville_residents import ASSETS, import_residents

# the original's object names -> our tileset's furniture glyphs (the object keeps its own name)
GLYPH_OF = {
    "bed": "bed", "desk": "desk", "closet": "closet", "shelf": "bookshelf", "easel": "easel",
    "bathroom sink": "bathroom sink", "shower": "shower", "toilet": "toilet",
    "kitchen sink": "kitchen sink", "refrigerator": "fridge", "toaster": "kitchen counter",
    "cooking area": "stove", "common room table": "dining table", "common room sofa": "sofa",
    "guitar": "guitar", "microphone": "lectern", "bar customer seating": "pub table",
    "behind the bar counter": "behind the counter", "behind the cafe counter": "behind the counter",
    "cafe customer seating": "cafe table", "piano": "piano", "blackboard": "blackboard",
    "game console": "tv", "computer desk": "desk", "computer": "computer", "library sofa": "sofa",
    "bookshelf": "bookshelf", "library table": "reading table",
    "classroom student seating": "student desk", "classroom podium": "lectern",
    "behind the pharmacy counter": "behind the counter", "behind the grocery counter": "behind the counter",
    "pharmacy store shelf": "pharmacy shelf", "grocery store shelf": "grocery shelf",
    "pharmacy store counter": "pharmacy counter", "grocery store counter": "checkout counter",
    "supply store product shelf": "product shelf", "behind the supply store counter": "behind the counter",
    "supply store counter": "checkout counter", "dorm garden": "flower bed", "house garden": "flower bed",
    "garden chair": "garden bench", "park garden": "flower bed", "harp": "guitar",
    "lifting weight": "workbench", "pool table": "pool table",
}


class VilleLayout(TypedDict):
    """The Ville's layout as plain data: its size, its grids per tile and its blocks' names."""

    width: int
    height: int
    maze: dict[str, np.ndarray]  # collision, sector, arena, game_object, spawning_location
    blocks: dict[str, dict[int, list[str]]]  # block id -> its names, per kind of block


MAX_SIDE = 2000  # tiles a side: the original is 140 x 100


def _read_maze(path: Path, w: int, h: int) -> np.ndarray:
    try:
        text = path.read_text(encoding="utf-8")
        vals = [int(v) for v in text.replace("\n", ",").split(",") if v.strip()]
    except FileNotFoundError:
        raise MapError(path, "missing (expected the original repository's layout)") from None
    except ValueError:
        raise MapError(path, "not a comma-separated list of integers") from None
    if len(vals) != w * h:
        raise MapError(path, f"has {len(vals)} cells, expected {w} x {h} = {w * h}")
    return np.array(vals, dtype=np.int64).reshape(h, w)


def _read_blocks(path: Path, least: int = 1) -> dict[int, list[str]]:
    """Block id -> its names (world, sector, arena, ...), each row with at least ``least`` names."""
    out: dict[int, list[str]] = {}
    try:
        with path.open(encoding="utf-8") as f:
            for row in csv.reader(f):
                if not row or not row[0].strip():
                    continue
                names = [c.strip() for c in row[1:]]
                if sum(1 for n in names if n) < least:
                    raise MapError(path, f"block {row[0].strip()} names {sum(1 for n in names if n)} of the "
                                         f"{least} it needs")
                out[int(row[0])] = names
    except FileNotFoundError:
        raise MapError(path, "missing (expected the original repository's layout)") from None
    except ValueError:
        raise MapError(path, "a row does not start with a block id") from None
    return out


def read_ville_layout(src: Path) -> VilleLayout:
    """The layout as plain data: size, per-tile grids and the names of the blocks."""
    a = src / ASSETS
    meta_p = a / "matrix/maze_meta_info.json"
    try:
        meta = json.loads(meta_p.read_text(encoding="utf-8"))
        w, h = int(meta["maze_width"]), int(meta["maze_height"])
        if not (0 < w <= MAX_SIDE and 0 < h <= MAX_SIDE):
            raise MapError(meta_p, f"maze_width x maze_height is {w} x {h}: each must be 1 to {MAX_SIDE}")
    except FileNotFoundError:
        raise MapError(meta_p, "missing; is this the Generative Agents repository (or ../shared/the_ville)?") from None
    except (ValueError, KeyError, TypeError):
        raise MapError(meta_p, "no maze_width/maze_height") from None
    maze = {k: _read_maze(a / f"matrix/maze/{k}_maze.csv", w, h)
            for k in ("collision", "sector", "arena", "game_object", "spawning_location")}
    blocks = {k: _read_blocks(a / f"matrix/special_blocks/{k}_blocks.csv", 2 if k == "arena" else 1)
              for k in ("sector", "arena", "game_object", "spawning_location")}
    return {"width": w, "height": h, "maze": maze, "blocks": blocks}


Tile = tuple[int, int]


def import_ville(src: str | Path, out: str | Path, base: str = "base_the_ville_n25") -> dict[str, int]:
    """Write a town folder; returns counts (sectors, arenas, objects, residents).  Everything is
    read and made first, then written to a folder beside ``out`` and moved into it only when whole:
    a bad persona base or a full disk leaves ``out`` as it was."""
    src, out = Path(src), Path(out)
    lay = read_ville_layout(src)
    sectors, arenas, objects = _areas(lay)
    ground, furn = _tile_layers(lay, objects)
    arenas_of: dict[str, list[str]] = {}
    for s_, a_ in arenas:
        arenas_of.setdefault(s_, []).append(a_)
    kinds_in: dict[str, list[str]] = {}
    for s_, a_, o_ in objects:
        kinds_in.setdefault(f"{s_}:{a_}", []).append(o_)
    residents = import_residents(src, base, sorted(sectors), {f"{s}:{a}" for s, a in arenas}, arenas_of,
                                 kinds_in)
    part = out.with_name(f".{out.name}.importing")
    shutil.rmtree(part, ignore_errors=True)
    part.mkdir(parents=True)
    try:
        write_tmx(part / "town.tmx", ground, furn,
                  [Area(n, ts) for n, ts in sectors.items()],
                  [Area(a, ts, {"sector": s}) for (s, a), ts in arenas.items()],
                  [Area(o, ts, {"kind": o}) for (_s, _a, o), ts in objects.items()],
                  properties={"town": "the Ville", "origin": "Generative Agents (Park et al. 2023), the_ville"})
        write_tsx(part)
        png = default_town_path() / PNG_NAME
        if png.is_file():
            shutil.copyfile(png, part / PNG_NAME)
        (part / "residents.json").write_text(json.dumps(residents, indent=2, ensure_ascii=False) + "\n",
                                             encoding="utf-8")
        out.mkdir(parents=True, exist_ok=True)
        for f in part.iterdir():
            os.replace(f, out / f.name)
    finally:
        shutil.rmtree(part, ignore_errors=True)
    return {"sectors": len(sectors), "arenas": len(arenas), "objects": len(objects),
            "object_kinds": len({o for _s, _a, o in objects}), "residents": len(residents["residents"])}


def _areas(lay: VilleLayout) -> tuple[dict[str, set[Tile]], dict[tuple[str, str], set[Tile]],
                                      dict[tuple[str, str, str], set[Tile]]]:
    """Sectors, arenas and objects by name (the blocks csv rows), with their tiles from the matrices."""
    mz, bl = lay["maze"], lay["blocks"]
    sectors: dict[str, set[Tile]] = {}
    for bid, names in bl["sector"].items():
        ys, xs = np.nonzero(mz["sector"] == bid)
        if len(xs):
            sectors.setdefault(names[-1], set()).update(zip(xs.tolist(), ys.tolist()))
    arenas: dict[tuple[str, str], set[Tile]] = {}
    for bid, names in bl["arena"].items():
        ys, xs = np.nonzero(mz["arena"] == bid)
        if len(xs):
            arenas.setdefault((names[-2], names[-1]), set()).update(zip(xs.tolist(), ys.tolist()))
    arena_at: dict[Tile, tuple[str, str]] = {}
    for key, ts in arenas.items():
        for p in ts:
            arena_at[p] = key
    objects: dict[tuple[str, str, str], set[Tile]] = {}
    for bid, names in bl["game_object"].items():
        ys, xs = np.nonzero(mz["game_object"] == bid)
        for p in zip(xs.tolist(), ys.tolist()):
            a = arena_at.get(p)
            if a is not None:
                objects.setdefault((a[0], a[1], names[-1]), set()).add(p)
    return sectors, arenas, objects


def _tile_layers(lay: VilleLayout, objects: dict[tuple[str, str, str], set[Tile]]) -> tuple[np.ndarray, np.ndarray]:
    """The ground (grass, floors, walls, trees) and the furniture of our tileset, tile by tile."""
    w, h = lay["width"], lay["height"]
    mz = lay["maze"]
    collision = mz["collision"] != 0
    ground = np.full((h, w), T.tile_id("grass"), dtype=np.int32)
    in_sector = mz["sector"] != 0
    in_arena = mz["arena"] != 0
    ground[in_sector] = T.tile_id("floor", "stone")
    ground[in_arena] = T.tile_id("floor", "wood")
    for y in range(h):
        for x in range(w):
            if not collision[y, x]:
                if not in_sector[y, x] and (x * 7919 + y * 104729) % 11 < 4:
                    ground[y, x] = T.tile_id("grass", "plain")
                continue
            m = 0
            for bit, (dx, dy) in ((1, (0, -1)), (2, (1, 0)), (4, (0, 1)), (8, (-1, 0))):
                nx, ny = x + dx, y + dy
                if 0 <= nx < w and 0 <= ny < h and collision[ny, nx]:
                    m |= bit
            # the Ville's walls are blocks of collision tiles, often two thick: draw them solid
            ground[y, x] = T.tile_id("wall", "solid") if (in_sector[y, x] or m) else T.tile_id("tree")
    furn = np.full((h, w), -1, dtype=np.int32)
    for (_s, _a, name), ts in objects.items():
        fid = T.furniture_id(GLYPH_OF.get(name, name))
        for x, y in ts:
            if not collision[y, x]:
                furn[y, x] = fid
    return ground, furn


def cli_import_ville(args: argparse.Namespace) -> int:
    try:
        counts = import_ville(args.src, args.out, getattr(args, "base", "base_the_ville_n25"))
        town = load_town(args.out)  # prove it loads
    except MapError as e:  # the source is not the original's town: bad input
        print(f"town import-ville: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"town import-ville: cannot write {args.out}: {e.strerror or e}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}: {town.width}x{town.height} tiles, {counts['sectors']} sectors, "
          f"{counts['arenas']} arenas, {counts['objects']} objects ({counts['object_kinds']} kinds), "
          f"{counts['residents']} residents")
    return 0
