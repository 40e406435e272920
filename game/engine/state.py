"""The engine's state as plain typed data: residents, the visitor, talks, decision jobs, a town.

These dataclasses import no engine module: the tick loop (``game.engine.engine``) works on them,
the save (``game.engine.saves``) reads and writes a ``TownState`` made of them, and the screen reads
``ResidentView`` and ``Player`` through ``game.engine.api.EngineView``.  Everything here is data
that a save can hold; the live parts of a town (its map, minds, model, tasks) are not.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import TypedDict

from game.mind.memory.image import MemoryImage
from game.mind.mindstate import MindState
from game.mind.view import Action, Conversation, DayPlan

Pos = tuple[int, int]  # (x, y) in tiles
PLAYER = "player"  # the key of the visitor's avatar in positions()

MAX_TALK_LINES = 8  # lines in a conversation between residents



class JobKind(StrEnum):
    """What a job asks of the resident's mind.  Lanes (game/engine/decisions/lanes.py) holds the one table of
    what each kind runs, applies and does when it fails; a save keeps the value (the word)."""

    NEXT = "next"  # the next step (the mind plans the day when it needs to)
    AHEAD = "ahead"  # the next window of steps, asked before the last one runs out
    REACT = "react"  # what to do about something seen
    OBSERVE = "observe"  # only the observations (every job takes those first)
    SAY = "say"  # a line of a talk by lines (talks/conversations.py)
    LISTEN = "listen"  # the beginning of a reply, made while the player types
    SIDE = "side"  # one's part of a talk written whole
    CONVERSE = "converse"  # the whole talk, by the one who started it

    @staticmethod
    def saved(word: str) -> JobKind:
        """The kind a save names: an old save's day plan ("plan") is a "next" job now (the next
        action plans the day itself)."""
        return JobKind.NEXT if word == "plan" else JobKind(word)

    @property
    def of_talk(self) -> bool:
        """A job a conversation asks of its residents (it belongs to that talk)."""
        return self in TALK_JOBS

    @property
    def decides(self) -> bool:
        """A decision of what to do: asked with what the resident knows of the world now."""
        return self in (JobKind.NEXT, JobKind.REACT, JobKind.AHEAD)


TALK_JOBS = frozenset({JobKind.SAY, JobKind.LISTEN, JobKind.SIDE, JobKind.CONVERSE})


@dataclass
class Player:
    """The visitor the player walks in as."""

    name: str
    description: str
    pos: Pos


@dataclass
class Resident:
    """What the engine keeps of one resident besides its mind: where it is, what it does, what it saw."""

    name: str
    pos: Pos
    action: Action | None = None
    path: list[Pos] = field(default_factory=list)
    plan: DayPlan | None = None
    needs_decision: bool = True
    conversation: str | None = None
    seen: dict[str, str] = field(default_factory=dict)  # percept key -> text last seen
    obs_buffer: list[str] = field(default_factory=list)
    obs_since: datetime | None = None
    salient: list[str] = field(default_factory=list)  # salient percept texts waiting for a react
    urgent: bool = False  # one of them is news the resident may not let pass (an object changed, the player)
    reacted: dict[str, datetime] = field(default_factory=dict)  # subject -> last reaction time
    last_talk: dict[str, datetime] = field(default_factory=dict)
    seeking: str | None = None  # someone it decided to talk with and walks after (talks/conversations.py, _seek)
    seek_until: datetime | None = None  # ... until then, when it gives up

    @property
    def asleep(self) -> bool:
        """Asleep now: the one test of it in the engine (by its action's words, which the mind
        chose; a talk wakes anyone).  Asleep, a resident is not waking time in the ledger, reacts
        to nothing, notices no hazard and cannot be talked to; the panel says so.  (The mind's
        ``asleep_at`` answers another question: whether its day's sleep covers a time, to plan
        before waking.)"""
        return self.action is not None and not self.conversation and "sleep" in self.action.description.lower()

    def action_ended(self, now: datetime) -> bool:
        if self.action is None:
            return True
        end = self.action.end()
        return end is None or (now >= end and not self.path)


class ViewData(TypedDict):
    """A ``WorldView`` as plain data (decisions/jobs.py ``view_to_dict``): what a decision knew, saved with it."""

    now_text: str
    here: str
    here_text: str
    known_places: str
    allowed: list[str]
    nearby: list[str]
    people_here: list[str]


class JobArgs(TypedDict, total=False):
    """What a job needs to be asked again (a save keeps it as JSON); each kind uses its own keys."""

    view: ViewData  # a decision (next, ahead, react): what it knew of the world
    run_out: str  # ahead: when the steps in hand run out (ISO time)
    percept: str  # react: what was seen
    urgent: bool
    hazard: dict[str, object]  # react: a hazard among the sights (``Hazard.to_dict``)
    allowance: dict[str, int]  # react: past the daily floor (``Allowance.to_dict``)
    conversation: str  # a talk's jobs: its id
    about: str  # side: whom the side is about
    sides: dict[str, str]  # converse: each one's side, as asked
    participants: list[str]  # converse: who is in it, as asked
    typed: str  # listen: what the player has typed so far
    typed_by: str
    again: str  # say (the player's talk): what was wrong with the reply not said, named in the asking again
    dropped: bool  # lockstep: cancelled after it started; its answer is thrown away


@dataclass
class Job:
    """One model-backed piece of work for one resident (see game/engine/engine.py)."""

    seq: int
    resident: str
    kind: JobKind  # (a word of JobKind is taken too: a saved job's)
    now: datetime
    ready_at: int  # tick at whose boundary it is applied (lockstep); asked-at tick + decision_ticks
    args: JobArgs = field(default_factory=lambda: JobArgs())  # JSON-ready: what it needs to be re-asked
    observations: list[str] = field(default_factory=list)
    task: asyncio.Task | None = None

    def __post_init__(self) -> None:
        self.kind = JobKind(self.kind)

    def to_row(self) -> dict:
        return {"seq": self.seq, "resident": self.resident, "kind": self.kind.value,
                "now": self.now.isoformat(), "ready_at": self.ready_at,
                "args": json.dumps(self.args), "observations": json.dumps(self.observations)}

    @staticmethod
    def from_row(r: dict) -> Job:
        return Job(seq=int(r["seq"]), resident=r["resident"], kind=JobKind.saved(r["kind"]),
                   now=datetime.fromisoformat(r["now"]), ready_at=int(r["ready_at"]),
                   args=json.loads(r["args"]), observations=json.loads(r["observations"]))


@dataclass
class Talk:
    """A conversation the engine runs: whose turn it is, who is in it."""

    conv: Conversation
    turn: int = 0  # index into conv.participants of the next speaker
    max_lines: int = MAX_TALK_LINES
    ended: bool = False
    last_at: datetime | None = None  # when the last line was said (to drop a talk the player left)
    listened: dict[str, tuple[int, str]] = field(default_factory=dict)  # resident -> (lines, typed) it got ready for
    typed: str = ""  # what the player has typed so far of their next line (a hint, see ``Typing``)
    # how the talk is written (talks/conversations.py): "" not yet chosen; "script": residents only, the whole
    # talk in one call, its lines said one by one; "lines": one call a line (the player's talks,
    # and a talk someone joined or the player took a part in)
    mode: str = ""
    sides: dict[str, str] = field(default_factory=dict)  # listener -> its part of the script's prompt
    script: list[tuple[str, str]] = field(default_factory=list)  # lines written and still to say
    next_at: datetime | None = None  # when the next line of the script is said
    # a script whose rest was not said (talks/cuts.py): "" no; "cut": to go on from what was said; "asked": it went on
    goes_on: str = ""

    def next_speaker(self) -> str:
        return self.conv.participants[self.turn % len(self.conv.participants)]


@dataclass
class ResidentView:
    """One resident as the side panel shows it (plain data; every engine's ``inspect`` gives one)."""

    name: str
    action: str = ""
    emoji: str = ""
    place: str = ""
    pos: Pos | None = None
    plan: list[str] = field(default_factory=list)
    recent: list[str] = field(default_factory=list)
    retrieved: list[str] = field(default_factory=list)
    relationships: dict[str, str] = field(default_factory=dict)
    embodied: bool = False
    conversation: str | None = None
    thinking: bool = False
    source: str = ""  # where the current action came from: model, reaction, talk, routine, rule
    lead: float | None = None  # this resident's model-led share of its waking time so far
    asleep: bool = False  # (Resident.asleep)


@dataclass
class StreamSync:
    """What a save file holds of one memory stream: whose (``uid``), as of which version, how many
    records, and the segments they are stored in ((start, count), in order)."""

    uid: str
    version: int
    n: int
    dim: int
    segments: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class SyncPoint:
    """A save file as this game last wrote (or read) it: the file's id, its generation (one more
    per incremental save) and its memory streams.  A save to the same file with a matching id and
    generation writes only what changed since; anything else writes the file whole."""

    save_id: str
    generation: int
    streams: dict[str, StreamSync] = field(default_factory=dict)

    def bind(self, streams: dict[str, tuple[str, int]]) -> None:
        """Name the live streams a loaded save was built into: resident -> (uid, version)."""
        for name, (uid, version) in streams.items():
            if name in self.streams:
                self.streams[name].uid = uid
                self.streams[name].version = version


@dataclass
class TownState:
    """A whole town as data: what a save holds and what an engine is built again from.

    The live parts are named, not held: the town by its path (loaded again from there), each mind
    by its own state (``Mind.to_state`` without the memory) and an image of its memory, each resident's
    map of places by its dict, the clock by its dict."""

    town_path: str
    town_name: str
    clock: dict
    clock_text: str
    seed: int
    rng: list  # random.Random.getstate() as JSON-ready lists
    step_no: int = 0
    seq: int = 0  # the last job's number
    talk_seq: int = 0  # the last conversation's number
    decision_ticks: int = 6
    lockstep: bool = False
    small: bool = False
    player: Player | None = None
    embodied: str | None = None
    residents: dict[str, Resident] = field(default_factory=dict)
    minds: dict[str, MindState] = field(default_factory=dict)  # resident -> mind state without its memory
    # resident -> its memories: a MemoryImage (game/mind/memory/stream.py), or rows (MemoryStream.to_rows)
    memories: dict[str, MemoryImage | list[dict]] = field(default_factory=dict)
    spatial: dict[str, dict] = field(default_factory=dict)  # resident -> SpatialMemory.to_dict()
    objects: dict[str, dict] = field(default_factory=dict)  # address -> {"state", "by"}
    object_news: dict[str, datetime] = field(default_factory=dict)
    talks: dict[str, Talk] = field(default_factory=dict)
    finished_talks: list[Conversation] = field(default_factory=list)
    jobs: list[Job] = field(default_factory=list)
    accounting: dict | None = None
    ledger: dict | None = None  # the model-led share and decision lag so far (DecisionLedger.to_dict)
    sync: SyncPoint | None = None  # read from a save: what the file holds, for the next save
