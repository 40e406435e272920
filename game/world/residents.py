"""Residents of a town: the ``residents.json`` beside the map (schema in docs/WORLD.md)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from .errors import MapError
from .knowledge import EventSpec, RoleSpec, knowledge_problems

_HHMM = re.compile(r"^([01]?\d|2[0-3]):[0-5]\d$")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def _hhmm(v: str) -> str:
    v = str(v).strip()
    if not _HHMM.match(v):
        raise ValueError(f"{v!r} is not a time like '07:30'")
    h, m = v.split(":")
    return f"{int(h):02d}:{m}"


_DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_DAY_SETS = {"every day": tuple(range(7)), "everyday": tuple(range(7)), "daily": tuple(range(7)),
             "weekdays": tuple(range(5)), "weekends": (5, 6)}


def minutes_of(hhmm: str) -> int:
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def weekdays_of(days: str | list[str]) -> tuple[int, ...]:
    """The days a shift is kept, Monday 0: "every day", "weekdays", "weekends", "mon-fri", or a
    list of day names ("mon", "Tuesday").  Raises ValueError naming what it cannot read."""
    if isinstance(days, str):
        key = " ".join(days.lower().split())
        if key in _DAY_SETS:
            return _DAY_SETS[key]
        m = re.fullmatch(r"([a-z]{3})[a-z]*\s*-\s*([a-z]{3})[a-z]*", key)
        if m and m.group(1) in _DAY_NAMES and m.group(2) in _DAY_NAMES:
            a, b = _DAY_NAMES.index(m.group(1)), _DAY_NAMES.index(m.group(2))
            return tuple(range(a, b + 1)) if a <= b else tuple(sorted([*range(a, 7), *range(0, b + 1)]))
        days = [d for d in re.split(r"[,\s]+", key) if d]
    out: set[int] = set()
    for d in days:
        k = str(d).strip().lower()[:3]
        if k not in _DAY_NAMES:
            raise ValueError(f"{d!r} is not a day (use 'mon'..'sun', 'weekdays', 'weekends' or 'every day')")
        out.add(_DAY_NAMES.index(k))
    if not out:
        raise ValueError("no day given")
    return tuple(sorted(out))


class Shift(BaseModel):
    """A fixed part of a resident's days: its work, a class, a standing commitment.  The day plan
    is built around it (game/mind/planning/dayframe.py): the model says what the resident does in it, the
    file says when and where."""
    model_config = ConfigDict(extra="forbid")
    what: str = Field(min_length=1, max_length=80, description="what it is, 'work behind the counter'")
    hours: str = Field(description="'HH:MM-HH:MM'; an end before the start is past midnight")
    days: str | list[str] = Field(default="every day",
                                  description="'every day', 'weekdays', 'weekends', 'mon-fri' or ['mon', 'wed']")
    place: str | None = Field(default=None, description="address; default: the resident's workplace")

    @field_validator("hours")
    @classmethod
    def _h(cls, v: str) -> str:
        parts = str(v).split("-")
        if len(parts) != 2:
            raise ValueError(f"{v!r} is not hours like '08:00-17:00'")
        a, b = (_hhmm(x) for x in parts)
        if a == b:
            raise ValueError(f"{v!r} starts and ends at the same time")
        return f"{a}-{b}"

    @field_validator("days")
    @classmethod
    def _d(cls, v: str | list[str]) -> str | list[str]:
        weekdays_of(v)
        return v

    def span(self, wake: int = 0) -> tuple[int, int]:
        """Start and end in minutes after midnight of the resident's day (past midnight: > 24*60;
        a shift that starts before ``wake`` in the small hours belongs to the evening before)."""
        a, b = (minutes_of(x) for x in self.hours.split("-"))
        if a < wake and a < 6 * 60:
            a += 24 * 60
        if b <= a:
            b += 24 * 60
        return a, b

    @property
    def weekdays(self) -> tuple[int, ...]:
        return weekdays_of(self.days)


class Lifestyle(BaseModel):
    model_config = ConfigDict(extra="forbid")
    wake: str = Field(description="usual wake-up time, 'HH:MM'")
    sleep: str = Field(description="usual bedtime, 'HH:MM'")
    meals: dict[str, str] = Field(default_factory=dict,
                                  description="meal name -> 'HH:MM', e.g. {'breakfast': '07:00'}")
    schedule: list[Shift] = Field(default_factory=list,
                                  description="fixed parts of its days: work, classes (what, hours, days, place)")

    @field_validator("wake", "sleep")
    @classmethod
    def _t(cls, v: str) -> str:
        return _hhmm(v)

    @field_validator("meals")
    @classmethod
    def _m(cls, v: dict[str, str]) -> dict[str, str]:
        return {k: _hhmm(t) for k, t in v.items()}

    @model_validator(mode="after")
    def _fits(self) -> Lifestyle:
        """Every shift within the waking day, none overlapping another on a day both are kept."""
        wake, sleep = minutes_of(self.wake), minutes_of(self.sleep)
        if sleep <= wake:
            sleep += 24 * 60
        spans: list[tuple[Shift, tuple[int, int]]] = []
        for sh in self.schedule:
            a, b = sh.span(wake)
            if a < wake or b > sleep:
                raise ValueError(f"schedule {sh.what!r} ({sh.hours}) is not within the waking day "
                                 f"({self.wake}-{self.sleep})")
            for other, (oa, ob) in spans:
                if a < ob and oa < b and set(sh.weekdays) & set(other.weekdays):
                    raise ValueError(f"schedule {sh.what!r} ({sh.hours}) overlaps {other.what!r} ({other.hours})")
            spans.append((sh, (a, b)))
        return self

    def text(self, name: str = "") -> str:
        who = f"{name} " if name else ""
        meals = ", ".join(f"{k} around {t}" for k, t in sorted(self.meals.items(), key=lambda kv: kv[1]))
        s = f"{who}wakes up around {self.wake}, goes to bed around {self.sleep}"
        return s + (f", and has {meals}" if meals else "") + "."


class ResidentSpec(BaseModel):
    """One resident as written in residents.json."""
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    age: int = Field(ge=0, le=130)
    traits: list[str] = Field(min_length=1, description="innate traits: ['curious', 'kind']")
    background: str = Field(min_length=1, description="who they are, what they know and do")
    currently: str = Field(min_length=1, description="what they are up to these days")
    lifestyle: Lifestyle
    home: str = Field(description="address of the place they sleep, 'sector:arena'")
    workplace: str | None = Field(default=None, description="address of their work, or null")
    daily_requirements: list[str] = Field(default_factory=list)
    seed_memories: list[str] = Field(default_factory=list)
    relationships: dict[str, str] = Field(default_factory=dict, description="other name -> how they see them")
    knows: list[str] = Field(default_factory=list, description="other places they know (addresses)")
    glyph: str = Field(description="one letter drawn on the map")
    colour: str = Field(description="'#rrggbb'")
    spawn: tuple[int, int] | None = Field(default=None, description="start tile [x, y]; default: at home")
    newcomer: bool = Field(default=False, description="new in town: in a small town, knows only whom its "
                                                      "relationships name")

    @field_validator("glyph")
    @classmethod
    def _glyph(cls, v: str) -> str:
        if len(v) != 1 or not v.isprintable() or v.isspace():
            raise ValueError(f"{v!r} must be exactly one printable character")
        return v

    @field_validator("colour")
    @classmethod
    def _colour(cls, v: str) -> str:
        if not _COLOUR.match(v):
            raise ValueError(f"{v!r} is not a colour like '#ffaa00'")
        return v.lower()

    @property
    def first_name(self) -> str:
        return self.name.split()[0]

    @property
    def innate(self) -> str:
        return ", ".join(self.traits)

    def mind_data(self) -> dict[str, object]:
        """The resident as plain data for its mind (which reads no world type: game/mind/persona.py):
        as residents.json has it, with each shift's days as weekday numbers (Monday 0)."""
        data = self.model_dump()
        for shift, row in zip(self.lifestyle.schedule, data["lifestyle"]["schedule"]):
            row["days"] = list(shift.weekdays)
        return data


class ResidentsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: int = 1
    town: str = Field(default="", description="the town's name")
    start: datetime | None = Field(default=None, description="game start, ISO date-time")
    seconds_per_step: float = Field(default=10, gt=0)
    small_cast: list[str] = Field(default_factory=list)
    # who knows whom beyond each one's relationships: in a small town every two residents who are not
    # newcomers know each other (Nora and Kenji, neighbours of decades, do not meet as strangers)
    small_town: bool = Field(default=False, description="every two residents but newcomers know each other")
    residents: list[ResidentSpec] = Field(min_length=1)
    events: list[EventSpec] = Field(default_factory=list, description="gatherings the town knows of (knowledge.py)")
    roles: list[RoleSpec] = Field(default_factory=list, description="offices, candidacies, trades (knowledge.py)")

    @field_validator("start")
    @classmethod
    def _plain_start(cls, v: datetime | None) -> datetime | None:
        """A game time has no time zone, and a town's days must fit the calendar (issue 41: both
        were tracebacks later)."""
        if v is not None and v.tzinfo is not None:
            raise ValueError("a game time has no time zone (leave out the offset)")
        if v is not None and not 1 <= v.year <= 9000:
            raise ValueError(f"{v.year} is past the years a town can run in (1 to 9000)")
        return v

    @model_validator(mode="after")
    def _names(self, info: ValidationInfo) -> ResidentsFile:
        """The names across the file fit together.  Reading a town, the first that does not is the
        error; ``town check`` (game/world/check.py) passes a list in the context to have them all."""
        problems = list(self.name_problems())
        collect = info.context.get("problems") if isinstance(info.context, dict) else None
        if collect is not None:
            collect.extend(problems)
        elif problems:
            raise ValueError(problems[0][1])
        return self

    def name_problems(self) -> Iterator[tuple[str, str]]:
        """Each name the file gives that does not fit, as (field, problem)."""
        seen: set[str] = set()
        for i, r in enumerate(self.residents):
            if r.name in seen:
                yield f"residents[{i}].name", f"two residents are called {r.name!r}"
            seen.add(r.name)
            for j, sh in enumerate(r.lifestyle.schedule):
                if not (sh.place or r.workplace):
                    yield (f"residents[{i}].lifestyle.schedule[{j}].place",
                           f"{r.name}: schedule {sh.what!r} names no place and {r.first_name} has no workplace")
        for i, n in enumerate(self.small_cast):
            if n not in seen:
                yield f"small_cast[{i}]", f"small_cast names {n!r}, who is not a resident"
        for i, r in enumerate(self.residents):
            for other in r.relationships:
                if other not in seen:
                    yield (f"residents[{i}].relationships",
                           f"{r.name}'s relationships name {other!r}, who is not a resident")
        yield from knowledge_problems(self.events, self.roles, seen)


def _where(loc: tuple) -> str:
    out = []
    for p in loc:
        if isinstance(p, int):
            out.append(f"[{p}]")
        else:
            out.append(("." if out else "") + str(p))
    return "".join(out) or "top level"


def read_residents(path: str | Path) -> ResidentsFile:
    """Parse and validate residents.json (the map checks come later, in ``load_town``)."""
    path = Path(path)
    data = _read_json(path)
    try:
        return ResidentsFile.model_validate(data)
    except ValidationError as e:
        problems = validation_problems(data, e)
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        field, problem = problems[0]
        raise MapError(path, f"{field}: {problem}{more}") from None


def residents_problems(path: Path) -> tuple[ResidentsFile | None, list[tuple[str, str]]]:
    """Every problem of residents.json as (field, problem), and the file as read when it could be
    (names that do not fit together do not stop it: ``town check`` lists them all)."""
    try:
        data = _read_json(path)
    except MapError as e:
        return None, [("", e.problem)]
    names: list[tuple[str, str]] = []
    try:
        rf = ResidentsFile.model_validate(data, context={"problems": names})
    except ValidationError as e:
        return None, validation_problems(data, e)
    return rf, names


def validation_problems(data: dict, e: ValidationError) -> list[tuple[str, str]]:
    """pydantic's errors as (field, problem): the field's place in the file, with the resident's
    name where it is inside one (``residents[2] (Hank Brody).age``)."""
    out = []
    for err in e.errors():
        loc = err.get("loc", ())
        who = ""
        if len(loc) >= 2 and loc[0] == "residents" and isinstance(loc[1], int):
            rs = data.get("residents") or []
            if loc[1] < len(rs) and isinstance(rs[loc[1]], dict) and rs[loc[1]].get("name"):
                who = f" ({rs[loc[1]]['name']})"
        out.append((f"{_where(loc)}{who}", err.get("msg", "invalid").removeprefix("Value error, ")))
    return out


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MapError(path, "no residents file (a town folder needs residents.json beside town.tmx)") from None
    except UnicodeDecodeError:
        raise MapError(path, "not UTF-8 text") from None
    except json.JSONDecodeError as e:
        raise MapError(path, f"not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except OSError as e:
        raise MapError(path, f"cannot read it ({e.strerror or e})") from None
    if not isinstance(data, dict):
        raise MapError(path, "expected a JSON object with a 'residents' list")
    return data
