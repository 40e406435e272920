"""Plain data that crosses the engine <-> mind boundary.

The engine builds a ``WorldView`` from the world (the mind never imports the world) and gets back
``Action``, ``DayPlan``, ``Reaction`` and ``Line`` values.  Everything here is plain data: safe to
log, compare in tests and serialise into a save.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Literal, Protocol


class Placement(Protocol):
    """Where the world put an activity (``game.world.resolve.Placed``)."""

    @property
    def address(self) -> str: ...

    @property
    def fits(self) -> bool: ...  # the place affords the activity


class Ground(Protocol):
    """What the mind asks the world about places (implemented by ``game.world.resolve.Grounder``;
    the mind never imports the world)."""

    def places_text(self, limit: int = 12) -> str: ...

    def place(self, activity: str, hint: str = "", block: str = "") -> Placement: ...

    def options(self, activity: str, hint: str = "", block: str = "", limit: int = 12) -> Sequence[tuple[str, str]]: ...

    def state(self, address: str, proposal: str | None, activity: str = "") -> str | None: ...

    def mended(self, address: str, proposal: str | None, activity: str = "") -> str | None: ...

    def area_named(self, text: str) -> str | None: ...  # the town's sector a text names by name

    def lacks(self, text: str) -> list[str]: ...  # kinds of place a text names that the town has none of

    def open_between(self, place: str, start: int, end: int) -> bool: ...  # someone works there then

    def free_between(self, person: str, start: int, end: int) -> bool: ...  # not at work for most of it


@dataclass(frozen=True)
class WorldView:
    """What one resident knows of the world right now, as the engine tells it."""

    now_text: str = ""  # "Monday, Day 1, 07:30"
    here: str = ""  # address the resident stands at, "Lin house:kitchen"
    here_text: str = ""  # "the kitchen of the Lin house"
    known_places: str = ""  # SpatialMemory.describe_known(): one place per line
    allowed: tuple[str, ...] = ()  # addresses this resident may choose for an action
    nearby: tuple[str, ...] = ()  # "Maria Lopez is reading a book" ...
    people_here: tuple[str, ...] = ()  # names of the people within talking range
    # the world's place picker for this resident (game.world.resolve.Grounder, see Ground below):
    # the model names the activity and maybe the area, the world picks the object and its state
    ground: Ground | None = field(default=None, compare=False, repr=False)

    @staticmethod
    def make(*, now_text: str = "", here: str = "", here_text: str = "", known_places: str = "",
             allowed: Iterable[str] = (), nearby: Iterable[str] = (), people_here: Iterable[str] = (),
             ground: Ground | None = None) -> WorldView:
        """A view from the engine's fields by name (any sequences of names)."""
        return WorldView(now_text=now_text, here=here, here_text=here_text, known_places=known_places,
                         allowed=tuple(allowed), nearby=tuple(nearby), people_here=tuple(people_here),
                         ground=ground)


@dataclass(frozen=True)
class Action:
    """One 5-15 minute step of a resident's day."""

    description: str  # "brewing coffee", plain text
    emoji: str  # one wide emoji, no variation selector
    address: str  # one of the allowed addresses (validated by the mind)
    duration_min: int  # 1..120
    object_state: str | None = None  # new state of the object at ``address``, if it changes
    start: datetime | None = None
    source: Literal["model", "routine", "rule", "reaction"] = "model"

    def end(self) -> datetime | None:
        return None if self.start is None else self.start + timedelta(minutes=self.duration_min)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["start"] = self.start.isoformat() if self.start else None
        return d

    @staticmethod
    def from_dict(d: dict) -> Action:
        d = dict(d)
        d["start"] = datetime.fromisoformat(d["start"]) if d.get("start") else None
        return Action(**d)


@dataclass(frozen=True)
class PlanBlock:
    """A broad stroke of the day: from ``start`` to ``end`` minutes after midnight.  ``place`` is
    where it happens when the day's frame says so (an address: the workplace in work hours, home
    on waking), else ""; ``kind`` is the frame's line it fills ("wake", "meal", "work", "free",
    "bed", "event" for a gathering laid in, "moved" for a fixed line the model moved for a reason,
    "" for a plan made before frames)."""

    start: int
    end: int
    activity: str
    place: str = ""
    kind: str = ""

    def text(self) -> str:
        return f"{hhmm(self.start)}-{hhmm(self.end)} {self.activity}"

    def line(self) -> str:
        """The block as a player reads it: its hours, what and where ("Town Hall, mayor's office")."""
        where = self.place.replace(":", ", ") if self.place else ""
        return self.text() + (f" @ {where}" if where else "")


@dataclass(frozen=True)
class DayPlan:
    day: int  # 1-based game day
    wake: int  # minutes after midnight
    bed: int  # minutes after midnight (may be > 24*60 for after midnight)
    blocks: tuple[PlanBlock, ...]
    source: Literal["model", "routine"] = "model"
    checks: tuple[str, ...] = ()  # what the plan's check found in the model's answer, and what was done


    def block_at(self, minute: int) -> PlanBlock | None:
        for b in self.blocks:
            if b.start <= minute < b.end:
                return b
        return None

    def text(self) -> str:
        return "\n".join(b.text() for b in self.blocks)

    def minute_of(self, now: datetime) -> int:
        """Minutes since the midnight of this plan's day at ``now`` (a bed after midnight keeps the
        small hours as minutes past 24:00, as ``routine.day_and_minute`` counts them)."""
        m = now.hour * 60 + now.minute
        return m + 24 * 60 if m < self.wake and self.bed > 24 * 60 and m + 24 * 60 < self.bed else m

    def timeline(self, minute: int | None = None) -> list[str]:
        """The day as a player reads it: one line a block (the parts of a long one joined), where
        it happens, and "<- now" beside the block in progress at ``minute``."""
        joined: list[PlanBlock] = []
        for b in self.blocks:
            last = joined[-1] if joined else None
            if last is not None and (last.activity, last.place, last.end) == (b.activity, b.place, b.start):
                joined[-1] = PlanBlock(last.start, b.end, b.activity, b.place, b.kind)
            else:
                joined.append(b)
        return [b.line() + ("  <- now" if minute is not None and b.start <= minute < b.end else "")
                for b in joined]

    def to_dict(self) -> dict:
        return {"day": self.day, "wake": self.wake, "bed": self.bed, "source": self.source,
                "blocks": [[b.start, b.end, b.activity, b.place, b.kind] for b in self.blocks],
                "checks": list(self.checks)}

    @staticmethod
    def from_dict(d: dict) -> DayPlan:
        return DayPlan(day=int(d["day"]), wake=int(d["wake"]), bed=int(d["bed"]),
                       source=d.get("source", "model"), checks=tuple(str(c) for c in d.get("checks", ())),
                       blocks=tuple(PlanBlock(int(b[0]), int(b[1]), str(b[2]), *(str(x) for x in b[3:5]))
                                    for b in d["blocks"]))


@dataclass(frozen=True)
class Hazard:
    """Something a resident noticed that calls for action now (a fire, a leak), as the world says
    it: the thing, its state, the state that makes it safe and the action that mends it by rule.
    Handed to ``react``; its reaction is an action at ``address`` that leaves it ``safe``."""

    address: str  # "Okafor house:kitchen:stove"
    thing: str  # "the stove in the kitchen of the Okafor house"
    state: str  # "on fire"
    safe: str  # its resting state, as people say it: "off"
    states: tuple[str, ...] = ()  # every state it can be in, as people say them
    fix: str = ""  # the action that mends it, by rule: "putting out the fire"
    emoji: str = ""

    @property
    def name(self) -> str:
        """The thing's own name ("stove")."""
        return self.address.rsplit(":", 1)[-1]

    def to_dict(self) -> dict:
        return {**asdict(self), "states": list(self.states)}

    @staticmethod
    def from_dict(d: dict) -> Hazard:
        return Hazard(**{**d, "states": tuple(d.get("states", ()))})


@dataclass(frozen=True)
class Reaction:
    kind: Literal["continue", "react", "talk"]
    with_whom: str | None = None  # for "talk": the person to talk to
    new_action: Action | None = None  # for "react" (and optionally "talk")
    reason: str = ""


@dataclass(frozen=True)
class Allowance:
    """Calls past the mind's daily floor (``MindConfig.max_reacts_per_day``, ``max_talks_per_day``)
    that one reaction may use: the engine gives it in real-time play while the model server has
    time to spare (game/engine/decisions/capacity.py); the mind spends it only once the floor is reached,
    and at a priority below the town's planning.  None or zeros: the fixed caps."""

    reacts: int = 0  # reaction calls (talks written whole counted in) past the floor today
    talks: int = 0  # conversations past the floor today

    def to_dict(self) -> dict[str, int]:
        return {"reacts": self.reacts, "talks": self.talks}

    @classmethod
    def from_dict(cls, d: dict | None) -> Allowance | None:
        if not d:
            return None
        return cls(reacts=max(0, int(d.get("reacts", 0))), talks=max(0, int(d.get("talks", 0))))


@dataclass
class Script:
    """A whole conversation between residents, written in one call (``Mind.converse``): the lines,
    ``(speaker's full name, words)`` in order, that the engine says one by one.  No lines: the
    talk does not happen (``source`` and ``reason`` say why)."""

    lines: list[tuple[str, str]] = field(default_factory=list)
    source: Literal["model", "rule", "error"] = "model"
    reason: str = ""
    importance: float | None = None  # how much the talk matters, as the model rated it with its lines


@dataclass
class Conversation:
    """A conversation in progress.  ``lines`` are (speaker, text) pairs in order."""

    id: str
    participants: list[str]
    place: str = ""
    lines: list[tuple[str, str]] = field(default_factory=list)
    started: datetime | None = None
    with_player: bool = False
    # how much the talk matters to those in it, when the model rated it as it wrote every line of
    # it (a script); None: each remembered line is rated later, in an importance batch
    importance: float | None = None
    # what the check of each line found and did (line index -> notes: "kept secret from ...",
    # "dropped 1 unbacked sentence(s)", "was: <the model's words>"), and the lines not said at all
    # (speaker, the model's words, why): kept for ``town audit``
    checks: dict[int, list[str]] = field(default_factory=dict)
    withheld: list[tuple[str, str, str]] = field(default_factory=list)
    # who joined after it began, and how many lines had been said then: one who joins hears from there
    # on (Grace, joining Ines and Felix at the cafe on 75fad48's day, remembered Ines's line before she
    # came, of the surprise party kept from her)
    joined: dict[str, int] = field(default_factory=dict)

    def heard_by(self, name: str) -> list[tuple[str, str]]:
        """The lines ``name`` was there for: all, or those since it joined."""
        return self.lines[self.joined.get(name, 0):]

    def add(self, speaker: str, text: str) -> None:
        self.lines.append((speaker, text))

    def transcript(self, last: int = 12, for_name: str = "") -> str:
        """The last lines, as ``for_name`` heard them (all, without a name)."""
        return "\n".join(f"{s}: {t}" for s, t in (self.heard_by(for_name) if for_name else self.lines)[-last:])


@dataclass(frozen=True)
class Line:
    text: str  # plain text
    end: bool = False  # the speaker ends the conversation with this line
    source: Literal["model", "rule", "error"] = "model"
    reason: str = ""  # for a line with no text that ends the talk: why (an event, not words said)


def hhmm(minute: int) -> str:
    minute = int(minute) % (24 * 60)
    return f"{minute // 60:02d}:{minute % 60:02d}"
