"""The tick loop: one town, its residents' minds, the player, and the decisions in flight.

``Engine.step()`` advances the town one tick and never awaits the model.  Every model-backed
decision (a day plan, the next action, a reaction, a line of dialogue, a batch of observations)
is a ``Job``: an asyncio task created on the running loop.  Finished jobs are applied at the next
tick boundary, sorted by (ready tick, resident name, sequence number), so the same answers give
the same town.  In *lockstep* mode (headless runs, forks, tests) a job is due a fixed number of
ticks after it was asked (``decision_ticks``) and the clock waits for it (``blocked`` /
``wait_ready()``): the timing of the model's answers then has no effect on the town.  In real-time
mode (the screen) a job is applied at the first tick boundary after it finished.

One job per resident at a time: everything that touches a resident's mind goes through that one
lane (observations first, then the decision), so a mind is never used by two tasks at once.
See docs/ENGINE.md.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

from game.engine import saves
from game.engine.api import Clock, MindPort, Paths, PlaceMemory, TownMap
from game.engine.commands import CommandError, PlayerCommands, player_text
from game.engine.decisions.capacity import Capacity
from game.engine.decisions.jobs import JobBoard
from game.engine.decisions.lanes import Lanes
from game.engine.decisions.leadtime import LeadTime
from game.engine.decisions.lookahead import Lookahead
from game.engine.decisions.prepare import prepare_town
from game.engine.events import Command, FirstPlans, PrepStep, TickResult
from game.engine.inspecting import positions, resident_view, snapshot
from game.engine.noticing.hazards import Hazards
from game.engine.noticing.perceiving import Perceive, Perceiver
from game.engine.noticing.salience import Salience
from game.engine.saves.saver import Saver
from game.engine.state import PLAYER, Job, Player, Pos, Resident, ResidentView, Talk
from game.engine.talks.conversations import Conversations
from game.engine.talks.facts import TalkFacts
from game.engine.talks.seeking import Seeker
from game.engine.things import Things
from game.engine.towncore import TownCore
from game.engine.tuning import PREPARE_AHEAD, TALK_RANGE, chebyshev
from game.engine.walking import Walker
from game.llm.accounting import accounting_of
from game.llm.api import LLM

__all__ = ["PLAYER", "TALK_RANGE", "CommandError", "Engine", "Job", "Player", "Resident", "ResidentView", "Talk",
           "chebyshev", "player_text"]


class Engine:
    """See the module docstring.  Build with ``game.engine.build`` (``new_engine``/``load_engine``).

    Composed of parts, each an object in its own module that owns its share of the state and
    takes what it needs in its constructor (docs/ENGINE.md has the table): the core they all share
    (towncore.py: the town, clock, model, residents, minds, visitor, ledger, the events of this tick),
    the things (things.py), the walker (walking.py), the job board (decisions/jobs.py), the facts
    in talks (talks/facts.py), the talks (talks/conversations.py), the seeker (talks/seeking.py),
    the salience (noticing/salience.py), the hazards (noticing/hazards.py), the perceiver
    (noticing/perceiving.py), the look ahead
    (decisions/lookahead.py), the spare capacity (decisions/capacity.py), the lanes of decisions
    (decisions/lanes.py), the saver (saves/saver.py), the player's commands (commands.py) and the
    lead time (decisions/leadtime.py); inspecting.py reads the town for the screen.
    The engine wires them, runs the tick and answers what the screen reads (``EngineView``); the
    rest is read of the part that keeps it (``engine.core.residents``, ``engine.board.jobs``)."""

    is_replay = False  # (see game.engine.api.EngineView)

    def __init__(self, *, town: TownMap, town_path: str, minds: dict[str, MindPort], clock: Clock, llm: LLM,
                 pathfinder: Paths, perceive: Perceive, spatial: dict[str, PlaceMemory],
                 positions: dict[str, Pos], seed: int = 0, lockstep: bool = False,
                 decision_ticks: int = 6, small: bool = False) -> None:
        self.core = core = TownCore(town=town, town_path=town_path, clock=clock, llm=llm, minds=minds,
                                    spatial=spatial, positions=positions, seed=seed, lockstep=lockstep,
                                    decision_ticks=decision_ticks, small=small)
        self.paths = pathfinder
        self.things = things = Things(core)
        self.walker = walker = Walker(core, things, pathfinder)
        self.board = board = JobBoard(core)
        self.talk_facts = facts = TalkFacts(core)
        self.conversations = talks = Conversations(core, board, walker, facts)
        self.seeker = seeker = Seeker(core, walker, talks)
        self.salience = salience = Salience()
        self.hazards = hazards = Hazards(core, things, walker, board, talks, salience)
        self.perceiver = perceiver = Perceiver(core, things, board, salience, hazards, perceive)
        self.lookahead = lookahead = Lookahead()
        self.capacity = capacity = Capacity(core, board, lookahead)
        perceiver.crowded = capacity.crowded
        self.lanes = lanes = Lanes(core, board, lookahead, walker, perceiver, salience, hazards, talks, seeker,
                                   capacity)
        self.saver = saver = Saver(core, things, board, talks)
        self.lead_time = LeadTime(core)
        self.commands = PlayerCommands(core, walker, things, board, lanes, talks, facts, salience, saver.save)
        for mind in minds.values():
            mind.know_town(core.town_names)
        self.accounting = accounting_of(llm)  # (a test's model may keep none)
        if self.accounting is not None:
            self.accounting.set_day(clock.day)

    # ------------------------------------------------------------------ what the screen reads (EngineView)
    # (everything else is read of the part that keeps it: engine.core.residents, engine.board.jobs,
    # engine.conversations.talks, engine.saver.path...; tests/test_structure.py allows a class 5
    # attributes forwarded to another at most)

    @property
    def town(self) -> TownMap:
        return self.core.town

    @property
    def clock(self) -> Clock:
        return self.core.clock

    @property
    def player(self) -> Player | None:
        return self.core.player

    @property
    def embodied(self) -> str | None:
        return self.core.embodied

    @property
    def lockstep(self) -> bool:
        return self.core.lockstep

    @property
    def heard(self) -> asyncio.Event:
        """Set when a reply to the player has new words: a screen between ticks polls at once."""
        return self.conversations.heard

    def submit(self, command: Command) -> object:
        """Do a player command now; its events come with the next ``step()``/``poll()``.
        Raises ``CommandError`` (a message fit for the player) when it cannot be done."""
        return self.commands.submit(command)

    # ------------------------------------------------------------------ saving (saves/saver.py)

    def save(self, path: str | Path | None = None) -> str:
        """Write the town to ``path`` (or its own save path); returns the path.  A file this
        engine wrote or loaded gets only what changed since (game/engine/saves/writing.py)."""
        return self.saver.save(path)

    def save_job(self, path: str | Path | None = None) -> saves.SaveJob:
        """The town as it is now, ready to be written by ``SaveJob.run`` on any thread (the screen
        runs it off its own): the cheap part of a save.  ``SaveJob.finish`` on this thread after."""
        return self.saver.save_job(path)

    # ------------------------------------------------------------------ what the UI reads

    def positions(self) -> dict[str, Pos]:
        return positions(self.core)

    @property
    def waiting_on_model(self) -> int:
        return len(self.board.jobs)

    @property
    def blocked(self) -> bool:
        """Lockstep only: a job due at this boundary has not finished, so the clock must wait."""
        if not self.lockstep:
            return False
        return any(j.ready_at <= self.core.step_no and not (j.task and j.task.done())
                   for j in self.board.jobs.values())

    async def wait_ready(self) -> None:
        """Await until ``step()`` can advance (lockstep); returns at once in real-time mode."""
        self.lanes.launch()
        while self.blocked:
            due = self.board.due()
            await asyncio.wait(due, return_when=asyncio.FIRST_COMPLETED)

    async def wait_any(self) -> None:
        """Await the next finished job (for "as fast as decisions allow" without lockstep)."""
        self.lanes.launch()
        running = self.board.running()
        if running:
            await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)

    async def prepare(self, horizon: timedelta = PREPARE_AHEAD, progress: Callable[[PrepStep], None] | None = None,
                      enough: asyncio.Event | None = None) -> FirstPlans:
        """Before the first tick of a real-time run, the first day plans (decisions/prepare.py)."""
        return await prepare_town(self.core, self.board, self.lanes, horizon=horizon, progress=progress, enough=enough)

    def snapshot(self) -> TickResult:
        """Everything as it is now, as one TickResult (moves with src == dst, every bubble)."""
        return snapshot(self.core, len(self.board.jobs))

    def inspect(self, name: str) -> ResidentView:
        r = self.commands.resident(name)
        return resident_view(self.core, r, thinking=r.name in self.board.jobs)

    # ------------------------------------------------------------------ the tick

    def step(self) -> TickResult:
        """Advance one tick (or, in lockstep while a due decision is unanswered, only report)."""
        self.lanes.launch()
        res = self.core.take_out()
        if self.blocked:
            res.waiting_on_model = len(self.board.jobs)
            return res
        self.lanes.apply_finished(res)
        self.clock.tick()
        self.core.step_no += 1
        now = self.clock.now
        res.step = self.core.step_no
        res.clock = self.clock.text()
        if self.accounting is not None and self.accounting.day != self.clock.day:
            self.accounting.set_day(self.clock.day)
        for r in self.core.residents.values():
            self.walker.move(r, res)
            self.things.mend_on_arrival(r, res, now)
        self.perceiver.look_round(self.core.residents.values(), self.core.step_no, now)
        for r in self.core.residents.values():
            self.lanes.decide(r, now, res)
        self.conversations.tick(now)
        self.lead_time.count(now)
        self.lanes.launch()
        res.waiting_on_model = len(self.board.jobs)
        return res

    def lead(self) -> tuple[float | None, float]:
        return self.lead_time.lead()

    def routine_wait_min(self) -> float:
        """Game minutes the longest wait lived by routine has lasted (``LeadTime.routine_wait_min``)."""
        return self.lead_time.routine_wait_min()

    def holding(self) -> str:
        """Who holds the clock back now and for what ("Hank Brody: routine, waiting on ahead"), "" when
        no decision is open: what ``town run`` counts the clock's slowing by (``LeadTime.holding``)."""
        who, how = self.lead_time.holding()
        if not who:
            return ""
        job = self.board.jobs.get(who)
        return f"{who}: {how}, waiting on {job.kind if job is not None else 'nothing in flight'}"

    def poll(self) -> TickResult:
        """Events that arrived without a tick (streamed replies, commands): for a paused screen.

        In real-time mode finished player-facing replies are applied too; the clock stays."""
        self.lanes.launch()
        res = self.core.take_out()
        if not self.lockstep:
            self.lanes.apply_finished(res, only_player=True)
        res.waiting_on_model = len(self.board.jobs)
        return res

    async def aclose(self) -> None:
        """Cancel every job in flight (on quit); a save made before keeps them as pending."""
        tasks = [j.task for j in self.board.jobs.values() if j.task is not None and not j.task.done()]
        listening = self.conversations.listening
        tasks += [t for t in listening.values() if not t.done()]
        listening.clear()
        for t in tasks:
            t.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)


