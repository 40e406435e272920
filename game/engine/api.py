"""The engine's seams, as Protocols (like ``game.llm.api`` for the model).

- ``EngineView``: what the screen reads and asks of a running town (the live ``Engine``, the watched
  recording ``game.replay.watch.WatchEngine``, the UI tests' ``FakeEngine``).
- ``LiveEngine``: a town that runs tick by tick; ``Replayable``: what watching a recording adds.
- ``MindPort``: all the engine needs of a resident's mind (``game.mind.Mind``; a test mind).
- ``Paths``, ``Places``, ``PlaceMemory``, ``Objects``, ``TownMap``, ``Clock``: what the engine uses
  of the world's parts (of the world's types it names only ``Affordances``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from game.engine.events import Command, FirstPlans, PrepStep, TickResult
from game.engine.state import Player, Pos, ResidentView
from game.llm.api import LLM, Priority
from game.mind.facts.fact import Fact, FactBook, TownNames
from game.mind.memory.image import MemoryImage
from game.mind.mindstate import MindState
from game.mind.persona import Persona
from game.mind.view import Action, Allowance, Conversation, DayPlan, Hazard, Line, Reaction, Script, WorldView
from game.world.affordances import Affordances
from game.world.knowledge import RoleLike as TownRole  # a role the town knows someone by


class Clock(Protocol):
    """The game clock (``game.world.clock.Clock``): a fixed number of game seconds a step."""

    start: datetime
    seconds_per_step: float

    @property
    def now(self) -> datetime: ...

    @property
    def day(self) -> int: ...

    def tick(self) -> object: ...

    def steps_until(self, when: datetime) -> int: ...

    def text(self) -> str: ...

    def long_text(self) -> str: ...

    def to_dict(self) -> dict: ...


class Places(Protocol):
    """The town's tree of places (``game.world.tree.AreaTree``)."""

    def tiles_of(self, address: str) -> Iterable[Pos]: ...

    def address_at(self, pos: Pos) -> str | None: ...

    def arena_at(self, pos: Pos) -> str: ...

    def describe(self, address: str) -> str: ...

    def sectors(self) -> list[str]: ...

    def find(self, words: str) -> str | None: ...

    def __contains__(self, address: str) -> bool: ...


class Objects(Protocol):
    """The states of the town's objects (``game.world.objects.ObjectStates``)."""

    def __contains__(self, address: str) -> bool: ...

    def get(self, address: str) -> str | None: ...

    def set(self, address: str, state: str, by: str) -> object: ...

    def changed_by(self, address: str) -> str | None: ...

    def busy(self) -> dict[str, str]: ...

    def to_dict(self) -> dict[str, dict]: ...

    def load_dict(self, data: dict[str, dict]) -> None: ...


class Paths(Protocol):
    """Path finding on the town's walkable tiles (``game.world.paths``)."""

    def path(self, src: Pos, dst: Pos, *, near: Iterable[Pos] = ()) -> Sequence[Pos]: ...

    def nearest_walkable(self, pos: Pos) -> Pos: ...

    def reachable(self, a: Pos, b: Pos) -> bool: ...


class PlaceMemory(Protocol):
    """The places one resident knows (``game.world.spatial.SpatialMemory``); ``version`` changes
    with what it knows (what is read of it may be kept until then)."""

    version: int

    def knows(self, address: str) -> bool: ...

    def learn(self, address: str) -> object: ...

    def observe_area(self, tree: Any, address: str) -> object: ...  # (the world's own tree type)

    def describe_known(self) -> str: ...

    def addresses(self) -> Iterable[str]: ...

    def to_dict(self) -> dict: ...


class CastMember(Protocol):
    """A resident as the town's files declare it (``game.world.residents.ResidentSpec``)."""

    name: str
    home: str  # "sector:arena"
    workplace: str | None
    age: int
    newcomer: bool  # new in town: in a small town, knows only whom its relationships name


class TownEvent(Protocol):
    """A gathering the town declares (``game.world.knowledge.EventSpec``)."""

    what: str
    host: str
    known_by: list[str]  # those who know of it from the start: a hand in it
    tasks: dict[str, list[str]]  # who does what for it ("Ines Moreau": ["make the cake"])


class TownMap(Protocol):
    """A loaded town (``game.world.town.Town``): its grid of walkable tiles, places and objects,
    what each thing affords (the world's own ``Affordances``, which its place picker takes), the
    residents and roles its files declare, and the game seconds of one step."""

    @property
    def name(self) -> str: ...

    @property
    def grid(self) -> np.ndarray: ...  # bool [y, x]: True where one can walk

    @property
    def tree(self) -> Places: ...

    @property
    def objects(self) -> Objects: ...

    @property
    def spawn(self) -> Mapping[str, Pos]: ...

    @property
    def residents(self) -> Sequence[CastMember]: ...

    @property
    def roles(self) -> Sequence[TownRole]: ...

    @property
    def events(self) -> Sequence[TownEvent]: ...

    @property
    def small_town(self) -> bool: ...  # every two residents but newcomers know each other

    @property
    def affordances(self) -> Affordances: ...

    @property
    def seconds_per_step(self) -> float: ...


class Remembered(Protocol):
    """One record of a memory stream (``game.mind.memory.stream.Record``), as the side panel reads it."""

    @property
    def id(self) -> int: ...

    @property
    def text(self) -> str: ...

    @property
    def created(self) -> datetime: ...

    @property
    def last_access(self) -> datetime: ...


class Memories(Protocol):
    """A mind's memory stream (``game.mind.memory.stream.MemoryStream``), as the engine reads and saves it."""

    uid: str  # who the stream is (a save made of another stream is written whole)

    @property
    def version(self) -> int: ...  # bumped by every change

    def recent(self, n: int) -> Sequence[Remembered]: ...

    def image(self, since: int | None = None) -> MemoryImage: ...  # for a save


@runtime_checkable
class MindPort(Protocol):
    """What the engine asks of a resident's mind; nothing else.  Every method is the mind's own
    decision: the engine only asks, applies the answer at a tick boundary, and saves the state."""

    @property
    def plan(self) -> DayPlan | None: ...

    @property
    def last_error(self) -> str | None: ...

    @property
    def stats(self) -> Mapping[str, int]: ...

    @property
    def memory(self) -> Memories: ...

    @property
    def persona(self) -> Persona: ...  # .relationships: who it knows, in its own words

    @property
    def facts(self) -> FactBook: ...  # what it knows that others could act on (mind/facts/fact.py)

    def know_town(self, names: TownNames) -> None: ...

    def read_fact(self, text: str, now: datetime, *, host: str | None = None, source: str = "") -> Fact | None: ...

    def hear_fact(self, fact: Fact, source: str, now: datetime) -> bool: ...

    def news_for(self, other: str, now: datetime) -> bool: ...

    async def observe(self, now: datetime, percepts: list[str], *, score: bool = True) -> list[int]: ...

    def scoring_due(self, now: datetime) -> bool: ...

    async def score_pending(self, now: datetime, force: bool = False) -> int: ...

    async def reflect_if_due(self, now: datetime) -> list[str]: ...

    def reflection_due(self, now: datetime | None = None) -> bool: ...

    async def next_action(self, now: datetime, view: WorldView | None = None) -> Action: ...

    def steps_run_out(self, now: datetime) -> datetime | None: ...

    def asleep_at(self, now: datetime) -> bool: ...

    async def decide_ahead(self, now: datetime, view: WorldView | None = None,
                           run_out: datetime | None = None) -> int: ...

    async def react(self, now: datetime, percept_text: str, view: WorldView | None = None, *,
                    urgent: bool = False, allowance: Allowance | None = None,
                    hazard: Hazard | None = None) -> Reaction: ...

    async def say(self, now: datetime, conversation: Conversation, listener_names: Sequence[str],
                  priority: Priority | None = None) -> Line: ...

    async def talk_side(self, now: datetime, about: Sequence[str]) -> str: ...

    async def converse(self, now: datetime, conversation: Conversation, sides: dict[str, str]) -> Script: ...

    def say_stream(self, now: datetime, conversation: Conversation, listener_names: Sequence[str],
                   priority: Priority | None = None, again: str = "") -> AsyncIterator[str | Line]: ...

    async def listen(self, now: datetime, conversation: Conversation, listener_names: Sequence[str],
                     typed: tuple[str, str] | None = None) -> bool: ...

    def routine_action(self, now: datetime, view: WorldView | None = None) -> Action: ...

    def whisper(self, now: datetime, text: str) -> int: ...

    def remember_conversation(self, now: datetime, conversation: Conversation) -> list[int]: ...

    def to_state(self, memory: bool = True) -> MindState: ...


class ClockText(Protocol):
    def text(self) -> str: ...


class SaveWork(Protocol):
    """A save being made (``EngineView.save_job``; game/engine/saves/writing.py ``SaveJob``)."""

    seconds: float  # how long ``run`` took
    incremental: bool  # only what changed was written

    def run(self) -> object:
        """Write it (any thread); raises the save's error."""
        ...

    def finish(self) -> str:
        """On the engine's thread after ``run``: the path saved to; raises the save's error."""
        ...


@runtime_checkable
class EngineView(Protocol):
    """What the screen reads and asks of a running town (see the module docstring).

    ``submit`` raises ``CommandError`` (a message for the player) for what cannot be done; its events
    come with the next ``step()``/``poll()``.  ``poll()`` never moves the clock."""

    # read-only here: the screen reads them, the engine keeps them
    @property
    def town(self) -> Any: ...  # the map the screen draws (name, tiles or grid, residents with glyph and colour)

    @property
    def clock(self) -> ClockText: ...

    @property
    def player(self) -> Player | None: ...  # the visitor, once the player walked in

    @property
    def embodied(self) -> str | None: ...  # the resident the player speaks and walks for

    @property
    def heard(self) -> asyncio.Event: ...  # set when a reply to the player has new words (a paused screen polls)

    @property
    def is_replay(self) -> bool: ...

    def positions(self) -> dict[str, Pos]: ...

    def snapshot(self) -> TickResult: ...

    def poll(self) -> TickResult: ...

    async def wait_any(self) -> None: ...

    def inspect(self, name: str) -> ResidentView:
        """Resident ``name`` as the side panel shows it; ``CommandError`` for no such resident."""
        ...

    def lead(self) -> tuple[float | None, float]:
        """The town's model-led share over the last two game hours (None when nothing is counted,
        as in a replay) and the game minutes its oldest open decision has waited (game/engine/decisions/ledger.py)."""
        ...

    def routine_wait_min(self) -> float:
        """Game minutes the longest wait for a decision lived by routine has lasted (0 when none;
        game/engine/running/pace.py slows the clock for it)."""
        ...

    def submit(self, command: Command) -> object: ...

    def save(self, path: str | Path | None = None) -> str: ...

    def save_job(self, path: str | Path | None = None) -> SaveWork:
        """A save in two halves, so that a screen never waits on the disk: this call is cheap
        (it takes the town as it is now), ``run`` may go on another thread, ``finish`` comes back."""
        ...

    async def aclose(self) -> None: ...


@runtime_checkable
class LiveEngine(EngineView, Protocol):
    """A town that runs: ``step`` advances it one tick (in lockstep, only when ``blocked`` is False)."""

    def step(self) -> TickResult: ...


@runtime_checkable
class Preparable(Protocol):
    """A live town that can plan before its clock starts (game/engine/decisions/prepare.py): the screen shows
    the plans as they come.  In lockstep it need not: the clock waits for every decision."""

    @property
    def lockstep(self) -> bool: ...

    async def prepare(self, horizon: timedelta = ..., progress: Callable[[PrepStep], None] | None = None,
                      enough: asyncio.Event | None = None) -> FirstPlans: ...


@runtime_checkable
class Replayable(EngineView, Protocol):
    """A recorded run being watched: its own clock and keys (jump, go to a time, fork)."""

    at: int  # the step on screen
    warning: str | None

    async def step_async(self) -> TickResult: ...

    async def seek(self, step: int) -> TickResult: ...

    def steps_per_minute(self) -> int: ...

    def step_at(self, when: str) -> int: ...

    async def fork(self, llm: LLM, save_path: str | Path) -> EngineView: ...
