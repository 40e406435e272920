"""Who a resident is, read from plain data: a town's ``ResidentSpec`` hands its own
(``mind_data``), a test or a tool a dict of the same keys.

The mind never imports the world, so this reads keys by name and tolerates the usual spellings of
times ("7:00", "07:00", "7am", 7, 7.5, ``datetime.time``).
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol


class Declared(Protocol):
    """A resident as its town's file declares it (``game.world.residents.ResidentSpec``)."""

    def mind_data(self) -> Mapping[str, object]: ...


def _get(obj: object, key: str, default: object = None) -> Any:  # a spec's value: of any type
    return obj.get(key, default) if isinstance(obj, Mapping) else default


def to_minutes(value: object, default: int) -> int:
    """Minutes after midnight from the usual spellings of a time of day."""
    if value is None:
        return default
    if isinstance(value, _dt.time):
        return value.hour * 60 + value.minute
    if isinstance(value, (int, float)):
        return int(round(float(value) * 60)) if float(value) <= 30 else int(value)
    s = str(value).strip().lower()
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?\s*(am|pm)?", s)
    if not m:
        return default
    h, mi, ap = int(m.group(1)), int(m.group(2) or 0), m.group(3)
    if ap == "pm" and h < 12:
        h += 12
    if ap == "am" and h == 12:
        h = 0
    if h > 30 or mi > 59:
        return default
    return h * 60 + mi


def _first_sentence(text: str) -> str:
    m = re.match(r"(.+?[.!?])(\s|$)", text.strip(), re.S)
    return m.group(1) if m else text.strip()


@dataclass(frozen=True)
class Shift:
    """A fixed part of the resident's days (its work, a class): minutes after midnight of its day
    (past midnight: > 24*60), what it is, where (an address) and the weekdays it is kept (Monday 0)."""

    start: int
    end: int
    what: str
    place: str
    days: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6)

    def to_list(self) -> list:
        return [self.start, self.end, self.what, self.place, list(self.days)]

    @staticmethod
    def from_list(v: list) -> Shift:
        return Shift(int(v[0]), int(v[1]), str(v[2]), str(v[3]), tuple(int(d) for d in v[4]))


def _shifts(life: object, wake: int, workplace: str) -> list[Shift]:
    """The lifestyle's schedule: shifts of ``what``, ``hours`` ("HH:MM-HH:MM"; an end before the start
    is past midnight, a start before ``wake`` in the small hours the evening before), ``days``
    (weekday numbers, Monday 0; else every day) and ``place``."""
    out = []
    for sh in _get(life, "schedule", None) or []:
        hours = str(_get(sh, "hours", "") or "")
        if "-" not in hours:
            continue
        a, b = (to_minutes(x, -1) for x in hours.split("-", 1))
        if a < 0 or b < 0:
            continue
        if a < wake and a < 6 * 60:
            a += 24 * 60
        if b <= a:
            b += 24 * 60
        raw = _get(sh, "days", None)
        days = tuple(int(d) for d in raw) if isinstance(raw, (list, tuple)) and all(
            isinstance(d, int) for d in raw) else (0, 1, 2, 3, 4, 5, 6)
        place = str(_get(sh, "place", None) or workplace or "")
        out.append(Shift(a, b, str(_get(sh, "what", "") or "work"), place, days))
    return sorted(out, key=lambda s: s.start)


def _age(v: object) -> int | None:
    try:
        return int(v) if v is not None else None  # type: ignore[call-overload]  # whatever the file says
    except (TypeError, ValueError):
        return None


def _work_hours(p: Persona) -> tuple[int, int]:
    """The hours of work the routine keeps: the schedule's at the workplace, else the file's."""
    at_work = [sh for sh in p.schedule if p.workplace and sh.place == p.workplace]
    if not at_work:
        return p.work_start, p.work_end
    return min(sh.start for sh in at_work), max(sh.end for sh in at_work)


@dataclass
class Persona:
    name: str
    age: int | None = None
    traits: str = ""
    background: str = ""
    currently: str = ""
    wake: int = 7 * 60
    sleep: int = 23 * 60  # may be past midnight: stored as > 24*60 then
    meals: list[tuple[str, int]] = field(default_factory=lambda: [("breakfast", 7 * 60 + 30),
                                                                  ("lunch", 12 * 60 + 30),
                                                                  ("dinner", 18 * 60 + 30)])
    home: str = ""
    workplace: str = ""
    work_start: int = 9 * 60
    work_end: int = 17 * 60
    daily: str = ""
    schedule: list[Shift] = field(default_factory=list)  # the fixed parts of its days (planning/dayframe.py)
    seed_memories: list[str] = field(default_factory=list)
    relationships: dict[str, str] = field(default_factory=dict)

    @property
    def first_name(self) -> str:
        return self.name.split()[0] if self.name else self.name

    def brief(self) -> str:
        """The innate part of the identity: name, age, traits, background, what they are up to."""
        age = f" (age {self.age})" if self.age else ""
        parts = [f"{self.name}{age}."]
        if self.traits:
            parts.append(f"Traits: {self.traits}.")
        if self.background:
            parts.append(self.background)
        if self.currently:
            parts.append(self.currently)
        return " ".join(p.strip() for p in parts if p.strip())

    def short(self) -> str:
        """Who they are in a line or two (name, age, traits, the first sentence of the background
        and of what they are up to): enough to judge what matters to them."""
        age = f" (age {self.age})" if self.age else ""
        parts = [f"{self.name}{age}."]
        if self.traits:
            parts.append(f"Traits: {self.traits}.")
        parts += [_first_sentence(self.background), _first_sentence(self.currently)]
        return " ".join(p.strip() for p in parts if p.strip())

    @staticmethod
    def from_spec(spec: Persona | Declared | Mapping[str, object]) -> Persona:
        if isinstance(spec, Persona):
            return spec
        if not isinstance(spec, Mapping):
            spec = spec.mind_data()
        name = str(_get(spec, "name", "") or "").strip()
        if not name:
            raise ValueError("resident spec: 'name' is missing or empty")
        traits = _get(spec, "traits", "")
        if isinstance(traits, (list, tuple)):
            traits = ", ".join(str(t) for t in traits)
        life = _get(spec, "lifestyle", None)
        if isinstance(life, str):
            life_text = life
            life = None
        else:
            life_text = ""
        wake = to_minutes(_get(life, "wake", None), 7 * 60)
        sleep = to_minutes(_get(life, "sleep", None), 23 * 60)
        if sleep <= wake:
            sleep += 24 * 60
        meals_raw = _get(life, "meals", None)
        meals: list[tuple[str, int]] = []
        if isinstance(meals_raw, dict):
            meals = [(str(k), to_minutes(v, 12 * 60)) for k, v in meals_raw.items()]
        elif isinstance(meals_raw, (list, tuple)):
            names = ["breakfast", "lunch", "dinner", "supper", "snack"]
            for i, v in enumerate(meals_raw):
                mname = _get(v, "name", None) if not isinstance(v, (str, int, float)) else None
                mtime = _get(v, "time", None) if mname is not None else v
                meals.append((str(mname or names[min(i, len(names) - 1)]), to_minutes(mtime, 12 * 60)))
        p = Persona(name=name)
        if meals:
            p.meals = sorted(meals, key=lambda m: m[1])
        p.age = _age(_get(spec, "age", None))
        p.traits = str(traits or "")
        p.background = str(_get(spec, "background", "") or "")
        p.currently = str(_get(spec, "currently", "") or "")
        if life_text:
            p.background = (p.background + " Lifestyle: " + life_text).strip()
        p.wake, p.sleep = wake, sleep
        p.home = str(_get(spec, "home", "") or "")
        p.workplace = str(_get(spec, "workplace", "") or "")
        p.work_start = to_minutes(_get(life, "work_start", None), 9 * 60)
        p.work_end = to_minutes(_get(life, "work_end", None), 17 * 60)
        p.schedule = _shifts(life, wake, p.workplace)
        p.work_start, p.work_end = _work_hours(p)
        daily = _get(spec, "daily", None) or _get(spec, "daily_requirements", None) or ""
        if isinstance(daily, (list, tuple)):
            daily = "; ".join(str(d) for d in daily)
        p.daily = str(daily)
        seeds = _get(spec, "seed_memories", None) or _get(spec, "memories", None) or []
        if isinstance(seeds, str):
            seeds = [s.strip() for s in re.split(r"[;\n]", seeds) if s.strip()]
        p.seed_memories = [str(s) for s in seeds]
        rel = _get(spec, "relationships", None) or {}
        p.relationships = {str(k): str(v) for k, v in dict(rel).items()} if isinstance(rel, dict) else {}
        return p

    def to_dict(self) -> dict:
        return {"name": self.name, "age": self.age, "traits": self.traits, "background": self.background,
                "currently": self.currently, "wake": self.wake, "sleep": self.sleep,
                "meals": [list(m) for m in self.meals], "home": self.home, "workplace": self.workplace,
                "work_start": self.work_start, "work_end": self.work_end, "daily": self.daily,
                "schedule": [sh.to_list() for sh in self.schedule],
                "seed_memories": list(self.seed_memories), "relationships": dict(self.relationships)}

    @staticmethod
    def from_dict(d: dict) -> Persona:
        d = dict(d)
        d["meals"] = [(str(n), int(t)) for n, t in d.get("meals", [])]
        d["schedule"] = [Shift.from_list(v) for v in d.get("schedule", [])]
        return Persona(**d)
