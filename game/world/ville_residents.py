"""The residents of the original Generative Agents Smallville ("the Ville"), as this game's
``residents.json`` reads them (``town import-ville``; ville.py writes the map): who lives where,
their days, their words, where they work and what they know, from the base simulation's persona
files under ``environment/frontend_server/storage/<base>``."""

from __future__ import annotations

import csv
import difflib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TypedDict

from .errors import MapError
from .tree import keywords

ASSETS = Path("environment/frontend_server/static_dirs/assets/the_ville")
STORAGE = Path("environment/frontend_server/storage")

COLOURS = ["#f0a030", "#e06090", "#40b0a0", "#70a0f0", "#a0d060", "#b080e0", "#e0e070", "#f08040",
           "#f05050", "#d0d0d0", "#60d0e0", "#d0a060", "#90e090", "#e090e0", "#c0c0ff"]


def _parse_time(t: str) -> str | None:
    m = re.match(r"(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m", t.strip().lower())
    if not m:
        return None
    hh = int(m.group(1)) % 12 + (12 if m.group(3) == "p" else 0)
    return f"{hh:02d}:{m.group(2) or '00'}"


def parse_lifestyle(text: str) -> dict[str, object]:
    """"goes to bed around 10pm, awakes up around 6am, eats dinner around 5pm" -> Lifestyle data."""
    low = re.sub(r"\bmidnight\b", "12am", re.sub(r"\bnoon\b", "12pm", text.lower()))
    t = r"(\d{1,2}(?::\d{2})?\s*[ap]\.?m)"
    sleep = re.search(r"bed around " + t, low)
    wake = re.search(r"(?:wakes?|awakes?)(?: up)? around " + t, low)
    meals = {m.group(1): _parse_time(m.group(2)) for m in re.finditer(r"eats (\w+) around " + t, low)}
    return {"wake": _parse_time(wake.group(1)) if wake else "07:00",
            "sleep": _parse_time(sleep.group(1)) if sleep else "23:00",
            "meals": {k: v for k, v in meals.items() if v}}


_TIME = r"(\d{1,2}(?::\d{2})?\s*[ap]\.?\s?m)"


def _mins(hhmm: str) -> int:
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def _hhmm_of(m: int) -> str:
    return f"{m // 60 % 24:02d}:{m % 60:02d}"


def parse_schedule(req: str, workplace: str | None, life: dict[str, object]) -> list[dict[str, object]]:
    """The fixed hours a persona's daily requirement gives ("opens Hobbs Cafe at 8am everyday, and
    stands at the counter until 8pm"; "take classes from 10am to 2pm"; "teach starting 10 am")
    as a lifestyle schedule at its workplace, kept within its waking day; [] when it gives no hour
    or there is no workplace (the frame then has work from 9 to 5 on weekdays at the workplace)."""
    if not workplace:
        return []
    low = (req or "").lower()
    times = [t for t in (_parse_time(x) for x in re.findall(_TIME, low)) if t]
    if not times:
        return []
    study = re.search(r"\b(class|classes|lecture|course)\b", low)
    teach = re.search(r"\bteach", low)
    start = _mins(times[0])
    end = _mins(times[1]) if len(times) > 1 else start + (4 * 60 if study or teach else 8 * 60)
    wake, sleep = _mins(str(life["wake"])), _mins(str(life["sleep"]))
    if sleep <= wake:
        sleep += 24 * 60
    if end <= start:
        end += 24 * 60
    start, end = max(start, wake + 30), min(end, sleep - 30)
    if end - start < 30:
        return []
    place = workplace.split(":")[0]
    what = f"take classes at {place}" if study else f"teach at {place}" if teach else f"work at {place}"
    days = "every day" if re.search(r"\bevery ?day\b|\bdaily\b", low) else "weekdays"
    return [{"what": what, "hours": f"{_hhmm_of(start)}-{_hhmm_of(end)}", "days": days}]


def usual_meals(life: dict[str, object]) -> dict[str, str]:
    """Breakfast half an hour after waking, lunch at noon and dinner at 18:30 where the persona's
    sentence does not name them (the frame needs each meal's hour; Smallville's seeds give at
    most dinner's)."""
    meals = dict(life.get("meals") or {})  # type: ignore[call-overload]
    wake = _mins(str(life["wake"]))
    meals.setdefault("breakfast", _hhmm_of(wake + 30))
    if "lunch" not in meals:
        meals["lunch"] = _hhmm_of(max(12 * 60, wake + 3 * 60))
    meals.setdefault("dinner", "18:30")
    return dict(sorted(meals.items(), key=lambda kv: (_mins(kv[1]) - wake) % (24 * 60)))


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
    words = keywords(learned)
    best = None
    for sector in arenas_of:
        if sector in homes:
            continue
        kw = keywords(sector)
        if kw and kw <= words and (best is None or len(kw) > len(keywords(best))):
            best = sector
    if best is None:
        return None
    arenas = arenas_of[best]
    if len(arenas) == 1:
        return f"{best}:{arenas[0]}"
    said = keywords(plan + " " + learned)
    named = [a for a in arenas if keywords(a) and keywords(a) <= said]
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


def _workplace(sc: Mapping[str, object], home: str, homes: set[str], arenas_of: dict[str, list[str]],
               kinds_in: dict[str, list[str]]) -> str | None:
    """The workplace a background names (narrowed to a room), else the one its occupation implies."""
    learned = _text(sc, "learned")
    named = infer_workplace(learned, _text(sc, "daily_plan_req"), homes, arenas_of)
    if named and ":" in named:
        return named
    by_persona = infer_workplace_by_persona(learned, home, arenas_of, kinds_in)
    if named and (by_persona is None or not by_persona.startswith(named + ":")):
        # a sector named but no room: the room of that sector that fits the occupation, else the first
        rooms = arenas_of.get(named, [])
        inside = infer_workplace_by_persona(learned, home, {named: rooms}, kinds_in)
        return inside or (f"{named}:{rooms[0]}" if rooms else named)
    return by_persona


def _text(data: Mapping[str, object], key: str) -> str:
    """A text field of one of the original's files ('' where it is missing or not text)."""
    value = data.get(key)
    return value if isinstance(value, str) else ""


def _texts(value: object) -> list[str]:
    """A list of texts in one of the original's files (its texts only)."""
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _load_json(path: Path) -> dict[str, object]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MapError(path, "missing") from None
    except json.JSONDecodeError as e:
        raise MapError(path, f"not valid JSON ({e.msg}, line {e.lineno})") from None
    if not isinstance(data, dict):
        raise MapError(path, "not a JSON object")
    return data


class ResidentsFile(TypedDict):
    """``residents.json`` as the importer writes it (world/residents.py reads it)."""

    format: int
    town: str
    start: str
    seconds_per_step: float
    small_cast: list[str]
    residents: list[dict[str, object]]


def import_residents(src: Path, base: str, sectors: list[str], arenas: set[str],
                     arenas_of: dict[str, list[str]], kinds_in: dict[str, list[str]] | None = None
                     ) -> ResidentsFile:
    """The ``residents.json`` of base simulation ``base`` (its personas, their start and the small cast)."""
    sim = src / STORAGE / base
    if not sim.is_dir():
        have = sorted(p.name for p in (src / STORAGE).glob("base_*")) if (src / STORAGE).is_dir() else []
        raise MapError(sim, "no such base simulation" + (f" (there are: {', '.join(have)})" if have else ""))
    meta = _load_json(sim / "reverie/meta.json")
    names = [n.strip() for n in _texts(meta.get("persona_names"))]
    env = _load_json(sim / "environment/0.json")
    start = datetime.strptime(_text(meta, "curr_time") or str(meta["start_date"]) + ", 00:00:00",
                              "%B %d, %Y, %H:%M:%S")
    whispers = _whispers(src, names)
    small = _small_cast(src, names)
    scratch = {n: _load_json(sim / "personas" / n / "bootstrap_memory" / "scratch.json") for n in names}
    homes = set()
    for n in names:
        parts = _text(scratch[n], "living_area").split(":")
        if len(parts) >= 2:
            homes.add(parts[1].strip())
    places = _Places(sectors, arenas, arenas_of, kinds_in or {}, homes)
    residents = [_resident(i, n, sim / "personas" / n / "bootstrap_memory", scratch[n], env.get(n),
                           whispers.get(n, []), names, places)
                 for i, n in enumerate(names)]
    step = meta.get("sec_per_step", 10)
    return {"format": 1, "town": "the Ville", "start": start.isoformat(),
            "seconds_per_step": float(step) if isinstance(step, (int, float, str)) else 10.0, "small_cast": small,
            "residents": residents}


def _whispers(src: Path, names: list[str]) -> dict[str, list[str]]:
    """What the original seeds each persona's memory with (agent_history_init_*.csv), by name."""
    hist_file = src / ASSETS / ("agent_history_init_n25.csv" if len(names) > 3 else "agent_history_init_n3.csv")
    whispers: dict[str, list[str]] = {}
    if hist_file.is_file():
        with hist_file.open(encoding="utf-8") as f:
            for row in csv.DictReader(f):
                n = (row.get("Name") or "").strip()
                n = (difflib.get_close_matches(n, names, n=1, cutoff=0.8) or [n])[0]
                whispers[n] = [s.strip() for s in (row.get("Whisper") or "").split(";") if s.strip()]
    return whispers


def _small_cast(src: Path, names: list[str]) -> list[str]:
    """The original's three-persona base, where it is there and its people are in this one; else the first five."""
    small_base = src / STORAGE / "base_the_ville_isabella_maria_klaus"
    small = [n.strip() for n in _texts(_load_json(small_base / "reverie/meta.json").get("persona_names"))] \
        if small_base.is_dir() else []
    return [n for n in small if n in names] or names[:5]


@dataclass(frozen=True)
class _Places:
    """The places of the map a resident's files are checked against."""

    sectors: list[str]
    arenas: set[str]
    arenas_of: dict[str, list[str]]
    kinds_in: dict[str, list[str]]
    homes: set[str]  # the sectors someone lives in


def _known_places(sp: Path, places: _Places) -> list[str]:
    """The sectors and arenas of the map a persona's spatial memory names."""
    knows = []
    if sp.is_file():
        for _world, secs in _load_json(sp).items():
            for s, ars in (secs if isinstance(secs, dict) else {}).items():
                if s.strip() in places.sectors:
                    knows.append(s.strip())
                    for a in (ars if isinstance(ars, (dict, list)) else ()):
                        if f"{s.strip()}:{a.strip()}" in places.arenas:
                            knows.append(f"{s.strip()}:{a.strip()}")
    return knows


def _spawn(pos: object) -> list[int] | None:
    """Where a persona starts (environment/0.json), if the file says."""
    if not isinstance(pos, dict) or "x" not in pos or "y" not in pos:
        return None
    return [int(pos["x"]), int(pos["y"])]


def _resident(i: int, n: str, bm: Path, sc: Mapping[str, object], pos: object, statements: list[str],
              names: list[str], places: _Places) -> dict[str, object]:
    """One persona as a resident of ``residents.json``."""
    home = _text(sc, "living_area").split(":")
    if home and home[0] == "the Ville":
        home = home[1:]
    home_addr = ":".join(p.strip() for p in home[:2])
    if home_addr not in places.arenas:
        raise MapError(bm / "scratch.json",
                       f"{n}'s living area {sc.get('living_area')!r} is not an arena of the map")
    knows = _known_places(bm / "spatial_memory.json", places)
    age = sc.get("age")
    workplace = _workplace(sc, home_addr, places.homes, places.arenas_of, places.kinds_in)
    life = parse_lifestyle(_text(sc, "lifestyle"))
    life["meals"] = usual_meals(life)
    life["schedule"] = parse_schedule(_text(sc, "daily_plan_req"), workplace, life)
    return {
        "name": n, "age": int(age or 30) if isinstance(age, (int, float, str)) else 30,
        "traits": [t.strip() for t in _text(sc, "innate").split(",") if t.strip()] or ["ordinary"],
        "background": _text(sc, "learned") or f"{n} lives in the Ville.",
        "currently": _text(sc, "currently") or f"{n} is going about their day.",
        "lifestyle": life,
        "home": home_addr,
        "workplace": workplace,
        "daily_requirements": _sentences(_text(sc, "daily_plan_req")),
        "seed_memories": statements,
        "relationships": _relationships(n, names, statements),
        "knows": sorted(set(knows)),
        "glyph": n[0], "colour": COLOURS[i % len(COLOURS)],
        "spawn": _spawn(pos),
    }
