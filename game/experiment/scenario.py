"""The scenario file: one experiment, written down so that it can be rerun (docs/MEASURE.md).

A scenario is TOML (read with the standard library's ``tomllib``) checked in two steps, so that bad
input is refused before any model is started:

1. ``load_scenario(path)``: the file on its own: every key known, every value of the right type,
   every time a game time ("day 2 17:00"), exactly one town source.  Errors name the file, the key
   (``seed[2].at``) and what is wrong.
2. ``check_against(scenario, town)``: against the town it names: the residents of the cast, the
   seeds and the questions live there, the attendance place and the seeded objects exist.

Paths in the file are relative to the file itself, so a scenario folder can be moved whole.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from game.errors import GameError

if TYPE_CHECKING:  # pragma: no cover
    from game.engine.api import TownMap
    from game.world.town import Town

_DAYTIME = re.compile(r"^\s*day\s+(\d+)\s+(\d{1,2}):(\d{2})\s*$", re.I)
_CLOCK = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*$")


class ScenarioError(GameError):
    """A scenario that cannot be run; the message names the file, the key and the problem."""


def _game_time(value: str) -> str:
    """A game time, "day N HH:MM" (day 1 is the town's first day); "24:00" is the next midnight."""
    m = _DAYTIME.match(value)
    if not m:
        raise ValueError(f"'{value}' is not a game time: write 'day N HH:MM', e.g. 'day 2 17:00'")
    day, hh, mm = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if day < 1:
        raise ValueError(f"'{value}': days count from 1")
    if hh > 24 or mm > 59 or (hh == 24 and mm):
        raise ValueError(f"'{value}': {hh:02d}:{mm:02d} is not a time of day")
    return f"day {day} {hh:02d}:{mm:02d}"


def _clock_time(value: str) -> str:
    m = _CLOCK.match(value)
    if not m or int(m.group(1)) > 23 or int(m.group(2)) > 59:
        raise ValueError(f"'{value}' is not a time of day: write 'HH:MM', e.g. '07:00'")
    return f"{int(m.group(1)):02d}:{m.group(2)}"


def _text(value: str) -> str:
    from game.text import one_line

    out = one_line(value, 600)
    if not out:
        raise ValueError("is empty")
    return out


GameTime = Annotated[str, AfterValidator(_game_time)]
ClockTime = Annotated[str, AfterValidator(_clock_time)]
Text = Annotated[str, AfterValidator(_text)]


def resolve_time(value: str, day1: datetime) -> datetime:
    """The moment a checked game time names, for a town whose day 1 is ``day1``'s date."""
    from game.world.clock import parse_until

    return parse_until(value, day1)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TownSpec(_Strict):
    """Where the town comes from (exactly one of ``map``, ``save``, ``ville``) and who is in it."""

    map: str | None = Field(None, description="a town folder or .tmx, relative to the scenario file, "
                                                "or a built-in town's name (\"default\")")
    save: str | None = Field(None, description="a save to continue from")
    ville: str | None = Field(None, description="a checkout of the original Smallville, imported first")
    ville_base: str = "base_the_ville_n25"
    cast: Literal["all", "small"] | list[Text] = "all"
    start: ClockTime | None = Field(None, description="time of day 1 a new town starts at (default: the town's)")
    seed: int = 0

    @model_validator(mode="after")
    def _one_source(self) -> TownSpec:
        given = [k for k, v in (("map", self.map), ("save", self.save), ("ville", self.ville)) if v]
        if len(given) != 1:
            raise ValueError("give exactly one of 'map', 'save' or 'ville'"
                             + (f" (found {', '.join(given)})" if given else ""))
        if self.save and self.start:
            raise ValueError("'start' is for a new town; a save continues at its own time")
        if self.save and self.cast != "all":
            raise ValueError("'cast' is for a new town; a save keeps the cast it was saved with")
        if isinstance(self.cast, list) and not self.cast:
            raise ValueError("'cast' lists nobody")
        return self


class RunSpec(_Strict):
    """How long and how: ``lockstep`` (the clock waits for every decision: reproducible, replayable)
    or ``play`` (the clock runs at ``ticks_per_second`` as in the game; a late decision is replaced
    by the resident's routine, as on screen)."""

    until: GameTime
    pace: Literal["lockstep", "play"] = "lockstep"
    ticks_per_second: float = Field(1.0, gt=0, le=1000)
    sample_every: int = Field(6, ge=1, le=3600, description="ticks between position samples")
    save_every: int = Field(60, ge=1, description="game minutes between saves while running")
    ahead_min: int = Field(0, ge=0, le=60, description=(
        "lockstep: ask for a resident's next window of steps this many game minutes before its "
        "steps run out, the answer due when they do (Engine.ahead; 0: when they run out)"))


class Seed(_Strict):
    """Something put into the town at ``at`` (default: the start)."""

    kind: Literal["thought", "memory", "object", "player"]
    text: Text
    at: GameTime | None = None
    resident: Text | None = None
    importance: float | None = Field(None, ge=1, le=10)
    visitor: Text = "A visitor"
    talk_minutes: int = Field(5, ge=1, le=240)

    @model_validator(mode="after")
    def _who(self) -> Seed:
        if self.kind in ("thought", "memory", "player") and not self.resident:
            raise ValueError(f"a '{self.kind}' seed needs 'resident'")
        if self.kind == "object" and self.resident:
            raise ValueError("an 'object' seed names no resident: write the object and its state in "
                             "'text', e.g. 'the stove in the Lin kitchen is on fire'")
        if self.importance is not None and self.kind != "memory":
            raise ValueError("'importance' is for a 'memory' seed")
        if self.kind != "player" and "visitor" in self.model_fields_set:
            raise ValueError("'visitor' is for a 'player' seed")
        return self


class InfoSpec(_Strict):
    """A piece of news traced through the memories: a record carries it when enough keywords appear
    (all of one or two, two thirds of more, or ``needed``).  ``paper`` names the paper's row it is
    compared with."""

    name: Text
    keywords: list[Text] = Field(min_length=1)
    needed: int = Field(0, ge=0)
    paper: Literal["party", "candidacy"] | None = None


class Question(_Strict):
    """Put to every resident at the end.  With ``about`` (an info's name) the answer is scored:
    it knows when it carries ``expect`` (default: the info's keywords)."""

    ask: Text
    about: Text | None = None
    expect: list[Text] | None = None
    needed: int = Field(0, ge=0)

    @model_validator(mode="after")
    def _expect_needs_about(self) -> Question:
        if self.expect is not None and not self.about:
            raise ValueError("'expect' needs 'about' (the info whose memories back the answer)")
        return self


class AttendanceSpec(_Strict):
    """Who was at ``place`` between ``start`` and ``end``; the invited are those who knew ``invited``
    (an info's name) by ``start`` (everyone, without it)."""

    place: Text
    start: GameTime
    end: GameTime
    invited: Text | None = None


class Scenario(_Strict):
    name: Text
    description: str = ""
    town: TownSpec
    run: RunSpec
    seed: list[Seed] = Field(default_factory=list)
    info: list[InfoSpec] = Field(default_factory=list)
    question: list[Question] = Field(default_factory=list)
    attendance: AttendanceSpec | None = None
    path: str = ""  # the file it was read from (set by load_scenario)

    @model_validator(mode="after")
    def _links(self) -> Scenario:
        names = [i.name for i in self.info]
        dup = {n for n in names if names.count(n) > 1}
        if dup:
            raise ValueError(f"two infos named {', '.join(sorted(dup))}")
        for n, q in enumerate(self.question):
            if q.about and q.about not in names:
                raise ValueError(f"question[{n}].about: no info named '{q.about}' (infos: "
                                 f"{', '.join(names) or 'none'})")
            if q.about:
                _not_an_echo(n, q, next(i for i in self.info if i.name == q.about))
        if self.attendance and self.attendance.invited and self.attendance.invited not in names:
            raise ValueError(f"attendance.invited: no info named '{self.attendance.invited}'")
        if self.attendance and _order(self.attendance.end) <= _order(self.attendance.start):
            raise ValueError("attendance: 'end' must be after 'start'")
        asks = [q.ask for q in self.question]
        for n, ask in enumerate(asks):
            if asks.index(ask) != n:
                raise ValueError(f"question[{n}]: the same question as question[{asks.index(ask)}]")
        for n, s in enumerate(self.seed):
            if s.at and _order(s.at) >= _order(self.run.until):
                raise ValueError(f"seed[{n}].at: {s.at} is not before run.until ({self.run.until})")
        return self

    @property
    def folder(self) -> Path:
        return Path(self.path).parent if self.path else Path(".")

    def town_path(self) -> Path:
        """The town folder, save or Smallville checkout, resolved against the scenario's folder; a
        map may also name a built-in town (``map = "default"``)."""
        if self.town.map:
            from game.world import resolve_town_path

            return resolve_town_path(self.town.map, base=self.folder).resolve()
        raw = self.town.save or self.town.ville or ""
        p = Path(raw).expanduser()
        return (p if p.is_absolute() else (self.folder / p)).resolve()


def _not_an_echo(n: int, q: Question, info: InfoSpec) -> None:
    """An answer that only repeats the question must not count as knowing: fewer of the expected
    words than are needed may appear in the question itself."""
    from game.experiment.score import expected_info
    from game.measure.spread import Info

    base = Info(info.name, Info.parse(info.name, info.keywords).keywords, info.needed)
    facts = expected_info(base, q.expect, q.needed)
    given = [k for k in facts.keywords if Info(k, (k,), 1).matches(q.ask)]
    if len(given) >= facts.needed:
        raise ValueError(f"question[{n}]: the question itself says {', '.join(repr(g) for g in given)}, "
                         f"and {facts.needed} of the expected words are needed, so an answer that only "
                         f"repeats the question would count as knowing: add to 'expect' a fact the "
                         f"question does not give away (who, where)")


def _order(t: str) -> tuple[int, int, int]:
    m = _DAYTIME.match(t)
    assert m
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def _loc(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif str(part).startswith(("function-", "literal[", "list[")):
            continue  # pydantic's names for the branches of a union, not keys of the file
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


def _message(e: Mapping[str, object]) -> str:
    msg = str(e.get("msg", "invalid"))
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix):]
    if e.get("type") == "missing":
        return "is missing"
    if e.get("type") == "extra_forbidden":
        return "is not a key of a scenario (a typo?)"
    if "input" in e and e.get("type") not in ("value_error",) and not isinstance(e["input"], dict):
        msg += f" (got {e['input']!r})"
    return msg


def parse_scenario(data: Mapping[str, object], path: str | Path = "<scenario>") -> Scenario:
    """Check parsed TOML; raises ``ScenarioError`` listing every problem, each with its key."""
    try:
        return Scenario.model_validate({**data, "path": str(path)})
    except ValidationError as e:
        seen: list[str] = []
        for err in e.errors():
            line = f"{_loc(tuple(err.get('loc', ())))}: {_message(err)}"
            if line not in seen:
                seen.append(line)
        raise ScenarioError(f"{path}: " + ("\n  ".join([""] + seen) if len(seen) > 1 else seen[0])) from None


def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file.  Raises ``ScenarioError`` (file, key, problem)."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise ScenarioError(f"{p}: cannot be read ({e.strerror or e})") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ScenarioError(f"{p}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(f"{p}: not valid TOML ({e})") from None
    if "path" in data:
        raise ScenarioError(f"{p}: path: is not a key of a scenario (a typo?)")
    return parse_scenario(data, p)


# ------------------------------------------------------------------------------ against the town


def cast_names(scenario: Scenario, town: Town) -> list[str]:
    """The residents the run will have (sorted), from the scenario's cast and the town."""
    everyone = sorted(s.name for s in town.residents)
    cast = scenario.town.cast
    if cast == "all":
        return everyone
    if cast == "small":
        small = set(town.small_cast)
        return sorted(n for n in everyone if n in small) or everyone
    where = scenario.path or "<scenario>"
    return sorted({_resident(name, everyone, f"town.cast[{n}]", where) for n, name in enumerate(cast)})


def _resident(name: str, names: list[str], key: str, where: str) -> str:
    from game.measure.interview import InterviewError, match_resident

    try:
        return match_resident(name, names)
    except InterviewError as e:
        raise ScenarioError(f"{where}: {key}: {e}") from None


def check_against(scenario: Scenario, town: Town, cast: list[str] | None = None) -> list[str]:
    """Check the names and places against the town; returns the cast.  ``ScenarioError`` when a
    resident, a place or an object is not there."""
    where = scenario.path or "<scenario>"
    names = cast if cast is not None else cast_names(scenario, town)
    for n, s in enumerate(scenario.seed):
        if s.resident:
            _resident(s.resident, names, f"seed[{n}].resident", where)
        if s.kind == "object":
            m = re.match(r"^(?P<obj>.+?)\s+(?:is|are)\s+(?:now\s+)?(?P<state>.+)$", s.text.rstrip(".!"), re.I)
            if not m:
                raise ScenarioError(f"{where}: seed[{n}].text: say what and how, e.g. 'the stove in the "
                                    f"Lin kitchen is on fire'")
            address = town.tree.find(m.group("obj"))
            if not address or address.count(":") < 2:
                raise ScenarioError(f"{where}: seed[{n}].text: no object in the town matches "
                                    f"'{m.group('obj')}'")
    if scenario.attendance is not None:
        place_tiles(town, scenario.attendance.place, f"{where}: attendance.place")
    return names


def place_tiles(town: TownMap, place: str, where: str) -> tuple[str, list[tuple[int, int]]]:
    """(address, tiles) of a sector or arena named ``place`` ("Hobbs Cafe", "Bluebell Cafe:cafe")."""
    tree = town.tree
    address = place if place in tree else tree.find(place)
    if not address:
        raise ScenarioError(f"{where}: no place called '{place}' in the town (sectors: "
                            f"{', '.join(sorted(tree.sectors()))})")
    tiles = list(tree.tiles_of(address))
    if not tiles:
        raise ScenarioError(f"{where}: '{place}' has no tiles")
    return address, tiles
