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

import csv
import difflib
import json
import re
import shutil
import sys
from datetime import datetime
from pathlib import Path

import numpy as np

from . import tiles as T
from .errors import MapError
from .tmxwrite import PNG_NAME, Area, write_tmx, write_tsx
from .town import default_town_path, load_town
from .tree import _keywords

ASSETS = Path("environment/frontend_server/static_dirs/assets/the_ville")
STORAGE = Path("environment/frontend_server/storage")

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
COLOURS = ["#f0a030", "#e06090", "#40b0a0", "#70a0f0", "#a0d060", "#b080e0", "#e0e070", "#f08040",
           "#f05050", "#d0d0d0", "#60d0e0", "#d0a060", "#90e090", "#e090e0", "#c0c0ff"]


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


def _read_blocks(path: Path) -> dict[int, list[str]]:
    out = {}
    try:
        with path.open(encoding="utf-8") as f:
            for row in csv.reader(f):
                if not row or not row[0].strip():
                    continue
                out[int(row[0])] = [c.strip() for c in row[1:]]
    except FileNotFoundError:
        raise MapError(path, "missing (expected the original repository's layout)") from None
    except ValueError:
        raise MapError(path, "a row does not start with a block id") from None
    return out


def read_ville_layout(src: Path) -> dict:
    """The layout as plain data: size, per-tile grids and the names of the blocks."""
    a = src / ASSETS
    meta_p = a / "matrix/maze_meta_info.json"
    try:
        meta = json.loads(meta_p.read_text(encoding="utf-8"))
        w, h = int(meta["maze_width"]), int(meta["maze_height"])
    except FileNotFoundError:
        raise MapError(meta_p, "missing; is this the Generative Agents repository (or ../shared/the_ville)?") from None
    except (ValueError, KeyError, TypeError):
        raise MapError(meta_p, "no maze_width/maze_height") from None
    maze = {k: _read_maze(a / f"matrix/maze/{k}_maze.csv", w, h)
            for k in ("collision", "sector", "arena", "game_object", "spawning_location")}
    blocks = {k: _read_blocks(a / f"matrix/special_blocks/{k}_blocks.csv")
              for k in ("sector", "arena", "game_object", "spawning_location")}
    return {"width": w, "height": h, "maze": maze, "blocks": blocks}


def _parse_time(t: str) -> str | None:
    m = re.match(r"(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m", t.strip().lower())
    if not m:
        return None
    hh = int(m.group(1)) % 12 + (12 if m.group(3) == "p" else 0)
    return f"{hh:02d}:{m.group(2) or '00'}"


def parse_lifestyle(text: str) -> dict:
    """"goes to bed around 10pm, awakes up around 6am, eats dinner around 5pm" -> Lifestyle data."""
    low = text.lower()
    t = r"(\d{1,2}(?::\d{2})?\s*[ap]\.?m)"
    sleep = re.search(r"bed around " + t, low)
    wake = re.search(r"(?:wakes?|awakes?)(?: up)? around " + t, low)
    meals = {m.group(1): _parse_time(m.group(2)) for m in re.finditer(r"eats (\w+) around " + t, low)}
    return {"wake": _parse_time(wake.group(1)) if wake else "07:00",
            "sleep": _parse_time(sleep.group(1)) if sleep else "23:00",
            "meals": {k: v for k, v in meals.items() if v}}


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text or "") if s.strip()]


def _relationships(name: str, others: list[str], statements: list[str]) -> dict[str, str]:
    rel: dict[str, list[str]] = {}
    for s in statements:
        words = re.findall(r"[A-Za-z]+", s)
        for o in others:
            if o == name:
                continue
            first, last = o.split()[0], o.split()[-1]
            hit = o in s or (first in words and difflib.get_close_matches(last, words, n=1, cutoff=0.75))
            if hit:
                rel.setdefault(o, []).append(s.rstrip("."))
    return {o: "; ".join(v) for o, v in rel.items()}


def infer_workplace(learned: str, plan: str, homes: set[str], arenas_of: dict[str, list[str]]) -> str | None:
    """The place a resident's own words say they work or study: a non-residential sector named in
    their background ("a cafe owner of Hobbs Cafe"), narrowed to an arena their words name
    ("goes to the library at Oak Hill College")."""
    words = _keywords(learned)
    best = None
    for sector in arenas_of:
        if sector in homes:
            continue
        kw = _keywords(sector)
        if kw and kw <= words and (best is None or len(kw) > len(_keywords(best))):
            best = sector
    if best is None:
        return None
    arenas = arenas_of[best]
    if len(arenas) == 1:
        return f"{best}:{arenas[0]}"
    said = _keywords(plan + " " + learned)
    named = [a for a in arenas if _keywords(a) and _keywords(a) <= said]
    return f"{best}:{named[0]}" if len(named) == 1 else best


# what a persona's occupation means it does at work, and where: (words of the background, the
# activity, whether it is done out in town rather than at home); the first that matches counts
_WORK = (
    (r"\b(professor|teacher|lecturer)\b", "teach", "town"),
    (r"\bstud(ent|ying)\b.*\b(literature|sociology|philosophy|history)\b", "research", "town"),
    (r"\bstud(ent|ying)\b", "attend class", "town"),
    (r"\b(actor|comedian|singer|musician|performer)\b", "perform", "town"),
    (r"\bretired\b", "walk", "town"),
    (r"\b(painter|paints|watercolou?r)\b", "paint", "home"),
    (r"\b(software|programmer|engineer|developer)\b", "code", "home"),
    (r"\b(writer|author|poet|novelist|journalist)\b", "write", "home"),
    (r"\b(photographer|digital artist|animator|designer)\b", "edit photos", "home"),
    (r"\b(mathematician|scientist|researcher)\b", "study", "home"),
    (r"\b(lawyer|accountant)\b", "do paperwork", "home"),
    (r"\b(philosopher|thinker)\b", "research", "town"),
    (r"\b(housewife|homemaker|househusband|stay-at-home)\b", "cook", "home"),
)


def infer_workplace_by_persona(learned: str, home: str, arenas_of: dict[str, list[str]],
                               objects: dict[str, list[str]]) -> str | None:
    """Where a resident whose background names no workplace does its work: its occupation gives
    an activity (a painter paints, a student attends class); the room whose things afford it most
    is chosen (kinds.toml), at home first for work done at home (its own room first), else in a
    public place of the town.  ``objects``: arena address -> object kinds in it."""
    from .affordances import load_kinds, words_of

    text = (learned or "").lower()
    found = next(((activity, where) for pattern, activity, where in _WORK if re.search(pattern, text)), None)
    if found is None:
        return None
    activity, where = found
    table = load_kinds()
    want = set(words_of(activity))
    home_sector = home.split(":")[0]

    def fit(arena: str) -> float:
        best = 0.0
        for kind in objects.get(arena, []):
            for phrase in table.object_kind(kind).affords:
                have = set(words_of(phrase))
                if have and want & have:
                    best = max(best, len(want & have) / len(have))
        info = table.area_kind(arena.split(":")[1])
        for phrase in (info.affords if info else ()):
            have = set(words_of(phrase))
            if have and want & have:
                best = max(best, 0.9 * len(want & have) / len(have))
        return best

    if where == "home":
        rooms = [f"{home_sector}:{a}" for a in arenas_of.get(home_sector, [])]
        rooms.sort(key=lambda a: a != home)  # its own room first
    else:
        rooms = [f"{s}:{a}" for s, arenas in arenas_of.items() if s != home_sector
                 and not s.lower().endswith(("house", "apartment", "dorm for oak hill college", "co-living space"))
                 for a in arenas]
    scored = [(fit(a), -i, a) for i, a in enumerate(rooms)]
    scored = [x for x in scored if x[0] > 0]
    if scored:
        return max(scored)[2]
    return home if where == "home" and ":" in home else None  # works in its own room (no easel there)


def import_ville(src: str | Path, out: str | Path, base: str = "base_the_ville_n25") -> dict:
    """Write a town folder; returns counts (sectors, arenas, objects, residents)."""
    src, out = Path(src), Path(out)
    lay = read_ville_layout(src)
    w, h = lay["width"], lay["height"]
    mz, bl = lay["maze"], lay["blocks"]
    collision = mz["collision"] != 0
    # sectors and arenas, by name (the blocks csv rows), tiles from the matrices
    sectors: dict[str, set] = {}
    for bid, names in bl["sector"].items():
        ys, xs = np.nonzero(mz["sector"] == bid)
        if len(xs):
            sectors.setdefault(names[-1], set()).update(zip(xs.tolist(), ys.tolist()))
    arenas: dict[tuple[str, str], set] = {}
    for bid, names in bl["arena"].items():
        ys, xs = np.nonzero(mz["arena"] == bid)
        if len(xs):
            arenas.setdefault((names[-2], names[-1]), set()).update(zip(xs.tolist(), ys.tolist()))
    arena_at: dict[tuple[int, int], tuple[str, str]] = {}
    for key, ts in arenas.items():
        for p in ts:
            arena_at[p] = key
    objects: dict[tuple[str, str, str], set] = {}
    for bid, names in bl["game_object"].items():
        ys, xs = np.nonzero(mz["game_object"] == bid)
        for p in zip(xs.tolist(), ys.tolist()):
            a = arena_at.get(p)
            if a is not None:
                objects.setdefault((a[0], a[1], names[-1]), set()).add(p)
    # tiles
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
    out.mkdir(parents=True, exist_ok=True)
    write_tmx(out / "town.tmx", ground, furn,
              [Area(n, ts) for n, ts in sectors.items()],
              [Area(a, ts, {"sector": s}) for (s, a), ts in arenas.items()],
              [Area(o, ts, {"kind": o}) for (_s, _a, o), ts in objects.items()],
              properties={"town": "the Ville", "origin": "Generative Agents (Park et al. 2023), the_ville"})
    write_tsx(out)
    png = default_town_path() / PNG_NAME
    if png.is_file():
        shutil.copyfile(png, out / PNG_NAME)
    arenas_of: dict[str, list[str]] = {}
    for s_, a_ in arenas:
        arenas_of.setdefault(s_, []).append(a_)
    kinds_in: dict[str, list[str]] = {}
    for s_, a_, o_ in objects:
        kinds_in.setdefault(f"{s_}:{a_}", []).append(o_)
    residents = _import_residents(src, base, sorted(sectors), {f"{s}:{a}" for s, a in arenas}, arenas_of,
                                  kinds_in)
    (out / "residents.json").write_text(json.dumps(residents, indent=2, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    return {"sectors": len(sectors), "arenas": len(arenas), "objects": len(objects),
            "object_kinds": len({o for _s, _a, o in objects}), "residents": len(residents["residents"])}


def _workplace(sc: dict, home: str, homes: set[str], arenas_of: dict[str, list[str]],
               kinds_in: dict[str, list[str]]) -> str | None:
    """The workplace a background names (narrowed to a room), else the one its occupation implies."""
    learned = sc.get("learned") or ""
    named = infer_workplace(learned, sc.get("daily_plan_req") or "", homes, arenas_of)
    if named and ":" in named:
        return named
    by_persona = infer_workplace_by_persona(learned, home, arenas_of, kinds_in)
    if named and (by_persona is None or not by_persona.startswith(named + ":")):
        # a sector named but no room: the room of that sector that fits the occupation, else the first
        rooms = arenas_of.get(named, [])
        inside = infer_workplace_by_persona(learned, home, {named: rooms}, kinds_in)
        return inside or (f"{named}:{rooms[0]}" if rooms else named)
    return by_persona


def _load_json(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MapError(path, "missing") from None
    except json.JSONDecodeError as e:
        raise MapError(path, f"not valid JSON ({e.msg}, line {e.lineno})") from None


def _import_residents(src: Path, base: str, sectors: list[str], arenas: set[str],
                      arenas_of: dict[str, list[str]], kinds_in: dict[str, list[str]] | None = None) -> dict:
    sim = src / STORAGE / base
    if not sim.is_dir():
        have = sorted(p.name for p in (src / STORAGE).glob("base_*")) if (src / STORAGE).is_dir() else []
        raise MapError(sim, "no such base simulation" + (f" (there are: {', '.join(have)})" if have else ""))
    meta = _load_json(sim / "reverie/meta.json")
    names = [n.strip() for n in meta.get("persona_names", [])]
    env = _load_json(sim / "environment/0.json")
    start = datetime.strptime(meta.get("curr_time") or meta["start_date"] + ", 00:00:00", "%B %d, %Y, %H:%M:%S")
    hist_file = src / ASSETS / ("agent_history_init_n25.csv" if len(names) > 3 else "agent_history_init_n3.csv")
    whispers: dict[str, list[str]] = {}
    if hist_file.is_file():
        with hist_file.open(encoding="utf-8") as f:
            for row in csv.DictReader(f):
                n = (row.get("Name") or "").strip()
                n = (difflib.get_close_matches(n, names, n=1, cutoff=0.8) or [n])[0]
                whispers[n] = [s.strip() for s in (row.get("Whisper") or "").split(";") if s.strip()]
    small = [n.strip() for n in _load_json(src / STORAGE / "base_the_ville_isabella_maria_klaus/reverie/meta.json")
             .get("persona_names", [])] if (src / STORAGE / "base_the_ville_isabella_maria_klaus").is_dir() else []
    small = [n for n in small if n in names] or names[:5]
    homes = set()
    scratch = {}
    for n in names:
        p = sim / "personas" / n / "bootstrap_memory" / "scratch.json"
        scratch[n] = _load_json(p)
        parts = (scratch[n].get("living_area") or "").split(":")
        if len(parts) >= 2:
            homes.add(parts[1].strip())
    residents = []
    for i, n in enumerate(names):
        bm = sim / "personas" / n / "bootstrap_memory"
        sc = scratch[n]
        home = (sc.get("living_area") or "").split(":")
        if home and home[0] == "the Ville":
            home = home[1:]
        home_addr = ":".join(p.strip() for p in home[:2])
        if home_addr not in arenas:
            raise MapError(bm / "scratch.json",
                           f"{n}'s living area {sc.get('living_area')!r} is not an arena of the map")
        knows = []
        sp = bm / "spatial_memory.json"
        if sp.is_file():
            for _world, secs in _load_json(sp).items():
                for s, ars in (secs or {}).items():
                    if s.strip() in sectors:
                        knows.append(s.strip())
                        for a in (ars or {}):
                            if f"{s.strip()}:{a.strip()}" in arenas:
                                knows.append(f"{s.strip()}:{a.strip()}")
        pos = env.get(n, {})
        statements = whispers.get(n, [])
        residents.append({
            "name": n, "age": int(sc.get("age") or 30),
            "traits": [t.strip() for t in (sc.get("innate") or "").split(",") if t.strip()] or ["ordinary"],
            "background": sc.get("learned") or f"{n} lives in the Ville.",
            "currently": sc.get("currently") or f"{n} is going about their day.",
            "lifestyle": parse_lifestyle(sc.get("lifestyle") or ""),
            "home": home_addr,
            "workplace": _workplace(sc, home_addr, homes, arenas_of, kinds_in or {}),
            "daily_requirements": _sentences(sc.get("daily_plan_req") or ""),
            "seed_memories": statements,
            "relationships": _relationships(n, names, statements),
            "knows": sorted(set(knows)),
            "glyph": n[0], "colour": COLOURS[i % len(COLOURS)],
            "spawn": [int(pos["x"]), int(pos["y"])] if "x" in pos and "y" in pos else None,
        })
    return {"format": 1, "town": "the Ville", "start": start.isoformat(),
            "seconds_per_step": float(meta.get("sec_per_step", 10)), "small_cast": small,
            "residents": residents}


def cli_import_ville(args) -> int:
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
