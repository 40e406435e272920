"""Plain data that crosses the engine <-> UI boundary.

The engine advances the town one tick at a time and returns a ``TickResult`` describing only
what changed; the UI turns it into one Textual message per tick and redraws only what changed.
Player actions go down as the ``Command`` dataclasses below.  Nothing here imports Textual,
and everything is plain data (safe to log, compare in tests, and serialise).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Pos = tuple[int, int]  # (x, y) in tiles


@dataclass(frozen=True)
class Move:
    who: str  # resident name, or "player"
    src: Pos
    dst: Pos


@dataclass(frozen=True)
class Bubble:
    who: str
    emoji: str  # one wide emoji (no variation selectors)
    text: str  # short description of the current action, plain text


@dataclass(frozen=True)
class Utterance:
    conversation_id: str
    speaker: str  # resident name, or the player's name
    listener: str  # comma-joined names for group talk
    text: str  # plain text; may be partial while streaming (see ``final``)
    final: bool = True


@dataclass(frozen=True)
class ObjectChange:
    address: str  # "sector:arena:object"
    state: str
    by: str  # who changed it ("player", a resident, "world")


@dataclass(frozen=True)
class LogLine:
    kind: Literal["conversation", "reflection", "whisper", "object", "plan", "react", "system", "error"]
    text: str
    who: str | None = None


@dataclass
class TickResult:
    step: int
    clock: str  # human text: "Day 1, 07:30:10"
    moves: list[Move] = field(default_factory=list)
    bubbles: list[Bubble] = field(default_factory=list)
    utterances: list[Utterance] = field(default_factory=list)
    object_changes: list[ObjectChange] = field(default_factory=list)
    log: list[LogLine] = field(default_factory=list)
    waiting_on_model: int = 0  # decisions asked for and not yet answered


# --- commands from the player -------------------------------------------------------------


@dataclass(frozen=True)
class EnterAsVisitor:
    name: str
    description: str


@dataclass(frozen=True)
class MovePlayer:
    dx: int
    dy: int


@dataclass(frozen=True)
class OpenTalk:
    """The player turns to a resident to talk: the conversation begins (the resident stops and
    listens) before the first line is typed."""

    resident: str


@dataclass(frozen=True)
class Typing:
    """What the player has typed so far of their next line to a resident (sent now and then while
    they type): the resident's mind gets its reply ready from it.  A hint only: ignored when there
    is no talk with that resident."""

    resident: str
    text: str


@dataclass(frozen=True)
class SayToResident:
    resident: str
    text: str


@dataclass(frozen=True)
class EndConversation:
    resident: str


@dataclass(frozen=True)
class Whisper:
    resident: str
    text: str


@dataclass(frozen=True)
class Embody:
    resident: str


@dataclass(frozen=True)
class Release:
    pass


@dataclass(frozen=True)
class SetObjectState:
    description: str  # free words: "the stove in the Lin kitchen is on fire"


@dataclass(frozen=True)
class SaveTown:
    path: str | None = None  # None: the town's current save path


Command = (
    EnterAsVisitor | MovePlayer | OpenTalk | Typing | SayToResident | EndConversation | Whisper | Embody | Release
    | SetObjectState | SaveTown
)


@dataclass(frozen=True)
class PrepStep:
    """One resident's plans came (or ``name`` is None: the start, nothing has come yet)."""

    done: int
    total: int
    name: str | None = None
    plan: str = ""  # its first blocks, one line ("06:00 open the cafe; 09:00 ...")
    failed: bool = False  # no plan of the model's: it will live by its routine until one comes


@dataclass
class FirstPlans:
    """What ``prepare_town`` did: who was asked, whose plan came from the model, how long it took."""

    asked: list[str] = field(default_factory=list)
    planned: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, object]:
        return {"asked": list(self.asked), "planned": sorted(self.planned), "seconds": round(self.seconds, 1)}
