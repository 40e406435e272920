"""Residents of a town: the ``residents.json`` beside the map (schema in docs/WORLD.md)."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .errors import MapError

_HHMM = re.compile(r"^([01]?\d|2[0-3]):[0-5]\d$")
_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def _hhmm(v: str) -> str:
    v = str(v).strip()
    if not _HHMM.match(v):
        raise ValueError(f"{v!r} is not a time like '07:30'")
    h, m = v.split(":")
    return f"{int(h):02d}:{m}"


class Lifestyle(BaseModel):
    model_config = ConfigDict(extra="forbid")
    wake: str = Field(description="usual wake-up time, 'HH:MM'")
    sleep: str = Field(description="usual bedtime, 'HH:MM'")
    meals: dict[str, str] = Field(default_factory=dict,
                                  description="meal name -> 'HH:MM', e.g. {'breakfast': '07:00'}")

    @field_validator("wake", "sleep")
    @classmethod
    def _t(cls, v: str) -> str:
        return _hhmm(v)

    @field_validator("meals")
    @classmethod
    def _m(cls, v: dict[str, str]) -> dict[str, str]:
        return {k: _hhmm(t) for k, t in v.items()}

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


class ResidentsFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    format: int = 1
    town: str = Field(default="", description="the town's name")
    start: datetime | None = Field(default=None, description="game start, ISO date-time")
    seconds_per_step: float = Field(default=10, gt=0)
    small_cast: list[str] = Field(default_factory=list)
    residents: list[ResidentSpec] = Field(min_length=1)

    @model_validator(mode="after")
    def _names(self) -> ResidentsFile:
        seen: set[str] = set()
        for r in self.residents:
            if r.name in seen:
                raise ValueError(f"two residents are called {r.name!r}")
            seen.add(r.name)
        for n in self.small_cast:
            if n not in seen:
                raise ValueError(f"small_cast names {n!r}, who is not a resident")
        for r in self.residents:
            for other in r.relationships:
                if other not in seen:
                    raise ValueError(f"{r.name}'s relationships name {other!r}, who is not a resident")
        return self


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
    try:
        return ResidentsFile.model_validate(data)
    except ValidationError as e:
        errs = e.errors()
        first = errs[0]
        loc = first.get("loc", ())
        who = ""
        if len(loc) >= 2 and loc[0] == "residents" and isinstance(loc[1], int):
            rs = data.get("residents") or []
            if loc[1] < len(rs) and isinstance(rs[loc[1]], dict) and rs[loc[1]].get("name"):
                who = f" ({rs[loc[1]]['name']})"
        more = f" (and {len(errs) - 1} more problems)" if len(errs) > 1 else ""
        msg = first.get("msg", "invalid").removeprefix("Value error, ")
        raise MapError(path, f"{_where(loc)}{who}: {msg}{more}") from None
