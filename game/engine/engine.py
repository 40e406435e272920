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
from collections import deque
import random
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable

from game.engine import save as saves
from game.engine.api import Clock, MindPort, Paths, PlaceMemory, TownMap
from game.engine.capacity import Capacity, SpareRule
from game.engine.commands import CommandError, PlayerCommands, player_text
from game.engine.events import Bubble, Command, LogLine, Move, TickResult
from game.engine.hazards import Hazards
from game.engine.lanes import Lanes
from game.engine.ledger import DecisionLedger, is_model_led, share
from game.engine.perceiving import Perceiving
from game.engine.state import PLAYER, Job, Player, Pos, Resident, ResidentView, Talk, TownState
from game.engine.talks import Talks
from game.engine.tuning import PERCEIVE_EVERY, TALK_RANGE, chebyshev
from game.engine.walking import Walking
from game.llm.api import LLM
from game.mind.facts import TownNames
from game.mind.view import Conversation

__all__ = ["PLAYER", "TALK_RANGE", "CommandError", "Engine", "Job", "Player", "Resident", "ResidentView", "Talk",
           "chebyshev", "player_text"]


class Engine(Walking, Perceiving, Hazards, Lanes, Talks, PlayerCommands, Capacity):
    """See the module docstring.  Build with ``game.engine.build`` (``new_engine``/``load_engine``).

    Its parts live one responsibility a module, each a base class owning its share of the state:
    ``Walking`` (walking.py), ``Perceiving`` (perceiving.py), ``Hazards`` (hazards.py), ``Lanes`` of
    decisions (lanes.py), ``Talks`` (talks.py), ``PlayerCommands`` (commands.py) and ``Capacity``
    (capacity.py: reactions past the daily caps while the server has time to spare); this module
    holds the state they share, the tick itself, saving and what the screen reads."""

    is_replay = False  # (see game.engine.api.EngineView)

    def __init__(self, *, town: TownMap, town_path: str, minds: dict[str, MindPort], clock: Clock, llm: LLM,
                 pathfinder: Paths, perceive: Callable[..., list], spatial: dict[str, PlaceMemory],
                 positions: dict[str, Pos], seed: int = 0, lockstep: bool = False,
                 decision_ticks: int = 6, small: bool = False) -> None:
        self.town = town
        self.town_path = str(town_path)
        self.minds = minds
        self.clock = clock
        self.llm = llm
        self.paths = pathfinder
        self._perceive = perceive
        self.spatial = spatial
        self.seed = seed
        self.rng = random.Random(seed)
        self.lockstep = lockstep
        self.decision_ticks = max(1, int(decision_ticks))
        # how early the next window of steps is asked for; None: tuning.AHEAD in real time, never
        # in lockstep (lanes.py, _maybe_ahead)
        self.ahead: timedelta | None = None
        # game minutes the last windows asked ahead took to come (real time: the lead follows them)
        self.ahead_took: deque[float] = deque(maxlen=6)
        self.small = small  # the small cast (kept in the save, for a replay of it)
        # reactions and talks past the daily caps while the server is idle, in real time only
        # (capacity.py); None: the fixed caps.  ``spare_given``: the allowances given so far
        self.spare_rule: SpareRule | None = SpareRule()
        self.spare_given = 0
        self.step_no = 0
        self.residents: dict[str, Resident] = {
            name: Resident(name=name, pos=positions[name]) for name in sorted(minds)}
        self.player: Player | None = None
        self.embodied: str | None = None
        self.talks: dict[str, Talk] = {}
        # the town's places and people, for reading and checking facts (mind/facts.py)
        # (people: everyone the town's story names, not only the cast that plays: the small cast
        # speaks of Felix and Aiko, who live in the town)
        people = {*minds, *(getattr(s, "name", "") for s in getattr(town, "residents", ()) or ())} - {""}
        self.town_names = TownNames(places=tuple(town.tree.sectors()), people=tuple(sorted(people)))
        self._fact_fixes = 0  # words of the model's lines mended against the facts (talks.py)
        for mind in minds.values():
            mind.know_town(self.town_names)
        # resident -> its ``listen`` task still running when the player spoke: the reply waits for it
        self._listening: dict[str, asyncio.Task] = {}
        # set when a reply to the player has new words: a screen between ticks polls at once
        self.heard = asyncio.Event()
        self.finished_talks: list[Conversation] = []  # kept for saves and the report (bounded)
        self.jobs: dict[str, Job] = {}  # resident -> its one job in flight
        self._seq = 0
        self._talk_seq = 0
        self.ledger = DecisionLedger()  # model-led share and decision lag (game/engine/ledger.py)
        self.object_news: dict[str, datetime] = {}  # address -> when it changed
        self.save_path: str | None = None
        self._synced: dict[str, saves.SyncPoint] = {}  # save file -> what it holds (game/engine/save.py)
        self.errors: list[str] = []
        self.on_error: Callable[[str], None] | None = None
        # (step, command) of every player command done since this engine was made or loaded: with
        # a recording of the model's answers, what a replay needs to make the same town again
        self.command_log: list[tuple[int, Command]] = []
        # events waiting for the next TickResult (from commands and streamed replies)
        self._out = TickResult(step=0, clock="")
        accounting = getattr(llm, "accounting", None)
        if accounting is not None and hasattr(accounting, "set_day"):
            accounting.set_day(self.clock.day)

    # ------------------------------------------------------------------ saving

    def save(self, path: str | Path | None = None) -> str:
        """Write the town to ``path`` (or its own save path); returns the path.  A file this
        engine wrote or loaded gets only what changed since (game/engine/save.py)."""
        job = self.save_job(path)
        job.run()
        return job.finish()

    def save_job(self, path: str | Path | None = None) -> "saves.SaveJob":
        """The town as it is now, ready to be written by ``SaveJob.run`` on any thread (the screen
        runs it off its own): the cheap part of a save.  ``SaveJob.finish`` on this thread after."""
        target = str(path or self.save_path or "")
        if not target:
            raise CommandError("no save file given and this town has none yet")
        sync = self._synced.get(saves.sync_key(target))
        return saves.SaveJob(saves.prepare(self.state(since=sync)), target, sync, done=self._saved)

    def _saved(self, job: "saves.SaveJob") -> None:
        """A save job was written: the file is the town's save now, and what it holds is
        remembered (the next save to it writes what changed since)."""
        assert job.result is not None
        self._synced[saves.sync_key(job.path)] = job.result
        self.save_path = job.path

    def remember_save(self, path: str | Path, sync: "saves.SyncPoint | None") -> None:
        """A save this engine was loaded from: its next save to it writes only what changed."""
        if sync is None:
            return
        sync.bind({name: (m.memory.uid, m.memory._ver) for name, m in self.minds.items()})
        self._synced[saves.sync_key(path)] = sync

    def state(self, since: "saves.SyncPoint | None" = None) -> TownState:
        """The whole town as data (``game.engine.state.TownState``): what a save holds.  It refers to
        the live residents, talks and jobs: prepare it (``save.prepare``) before the next tick.
        ``since``: what a save file holds; the memory images then name what changed after it."""
        accounting = getattr(self.llm, "accounting", None)
        minds, memories = {}, {}
        for name in sorted(self.residents):
            mind = self.minds[name]
            minds[name] = mind.to_state(memory=False)
            held = since.streams.get(name) if since is not None else None
            version = held.version if held is not None and held.uid == mind.memory.uid else None
            memories[name] = mind.memory.image(version)
        version, internal, gauss = self.rng.getstate()
        return TownState(
            town_path=self.town_path, town_name=getattr(self.town, "name", ""), clock=self.clock.to_dict(),
            clock_text=self.clock.text(), seed=self.seed, rng=[version, list(internal), gauss],
            step_no=self.step_no, seq=self._seq, talk_seq=self._talk_seq, decision_ticks=self.decision_ticks,
            lockstep=self.lockstep, small=self.small, player=self.player, embodied=self.embodied,
            residents=dict(self.residents), minds=minds, memories=memories,
            spatial={n: sm.to_dict() for n, sm in self.spatial.items()}, objects=self.town.objects.to_dict(),
            object_news=dict(self.object_news), talks=dict(self.talks), finished_talks=list(self.finished_talks),
            jobs=sorted(self.jobs.values(), key=lambda j: j.seq),
            accounting=accounting.to_dict() if accounting is not None and hasattr(accounting, "to_dict") else None,
            ledger=self.ledger.to_dict())

    def restore(self, state: TownState) -> None:
        """Take on the engine's part of a saved town (the minds, map and clock were built from it)."""
        rng = random.Random()
        rng.setstate((state.rng[0], tuple(state.rng[1]), state.rng[2]))
        self.rng = rng
        self.step_no = state.step_no
        self._seq = state.seq
        self._talk_seq = state.talk_seq
        self.embodied = state.embodied
        self.player = state.player
        self.residents.update(state.residents)
        self.town.objects.load_dict(state.objects)
        self.object_news = dict(state.object_news)
        self.talks = dict(state.talks)
        self.finished_talks = list(state.finished_talks)
        # their tasks are started by the first step() (the answers are asked again)
        self.jobs = {job.resident: job for job in state.jobs}
        self.ledger = DecisionLedger.from_dict(state.ledger)  # older saves have none: counting starts now

    # ------------------------------------------------------------------ what the UI reads

    def positions(self) -> dict[str, Pos]:
        out = {name: r.pos for name, r in self.residents.items()}
        if self.player is not None:
            out[PLAYER] = self.player.pos
        return out

    @property
    def waiting_on_model(self) -> int:
        return len(self.jobs)

    @property
    def blocked(self) -> bool:
        """Lockstep only: a job due at this boundary has not finished, so the clock must wait."""
        if not self.lockstep:
            return False
        return any(j.ready_at <= self.step_no and not (j.task and j.task.done())
                   for j in self.jobs.values())

    async def wait_ready(self) -> None:
        """Await until ``step()`` can advance (lockstep); returns at once in real-time mode."""
        self._launch()
        while self.blocked:
            due = [j.task for j in self.jobs.values()
                   if j.ready_at <= self.step_no and j.task and not j.task.done()]
            await asyncio.wait(due, return_when=asyncio.FIRST_COMPLETED)

    async def wait_any(self) -> None:
        """Await the next finished job (for "as fast as decisions allow" without lockstep)."""
        self._launch()
        running = [j.task for j in self.jobs.values() if j.task and not j.task.done()]
        if running:
            await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)

    def snapshot(self) -> TickResult:
        """Everything as it is now, as one TickResult (moves with src == dst, every bubble)."""
        res = TickResult(step=self.step_no, clock=self.clock.text())
        for name, pos in sorted(self.positions().items()):
            res.moves.append(Move(name, pos, pos))
        for r in self.residents.values():
            if r.action is not None:
                res.bubbles.append(Bubble(r.name, r.action.emoji, r.action.description))
        res.waiting_on_model = len(self.jobs)
        return res

    def inspect(self, name: str) -> ResidentView:
        r = self._resident(name)
        name = r.name
        mind = self.minds[name]
        mem = mind.memory
        try:
            recent = [rec.text for rec in mem.recent(8)]
        except Exception:  # the panel must never break the game
            recent = []
        rel = dict(mind.persona.relationships or {})
        try:  # what it last recalled: records whose last access is later than their creation
            recs = [m for m in mem.recent(400) if m.last_access > m.created]
            recs.sort(key=lambda m: (m.last_access, m.id), reverse=True)
            retrieved = [m.text for m in recs[:6]]
        except Exception:
            retrieved = []
        plan = r.plan.text().splitlines() if r.plan is not None else []
        act = r.action
        return ResidentView(
            name=name, action=act.description if act else "", emoji=act.emoji if act else "",
            place=self._describe(self._address_at(r.pos)), pos=r.pos, plan=plan, recent=recent,
            retrieved=[str(x) for x in retrieved], relationships=dict(rel), embodied=self.embodied == name,
            conversation=r.conversation, thinking=name in self.jobs, asleep=r.asleep,
            source="talk" if r.conversation else (act.source if act else ""),
            lead=share(self.ledger.residents[name].totals()) if name in self.ledger.residents else None)

    # ------------------------------------------------------------------ the tick

    def step(self) -> TickResult:
        """Advance one tick (or, in lockstep while a due decision is unanswered, only report)."""
        self._launch()
        res = self._take_out()
        if self.blocked:
            res.waiting_on_model = len(self.jobs)
            return res
        self._apply_finished(res)
        self.clock.tick()
        self.step_no += 1
        now = self.clock.now
        res.step = self.step_no
        res.clock = self.clock.text()
        accounting = getattr(self.llm, "accounting", None)
        if accounting is not None and getattr(accounting, "day", self.clock.day) != self.clock.day:
            accounting.set_day(self.clock.day)
        for r in self.residents.values():
            self._move(r, res)
            self._mend_on_arrival(r, res, now)
        for i, r in enumerate(self.residents.values()):
            if (self.step_no + i) % PERCEIVE_EVERY == 0:
                self._look(r, now)
        for r in self.residents.values():
            self._decide(r, now, res)
        self._run_talks(now)
        self._count_lead(now)
        self._launch()
        res.waiting_on_model = len(self.jobs)
        return res

    def lead(self) -> tuple[float | None, float]:
        c = self.clock
        return self.ledger.share_now(c.day, hours=2, now=c.now), self.backlog_min()

    def backlog_min(self) -> float:
        """Game minutes the oldest open decision of a resident (not the embodied one) has waited."""
        return self.ledger.backlog_min(self.clock.now, skip=[self.embodied] if self.embodied else ())

    def routine_wait_min(self) -> float:
        """Game minutes the longest wait lived by routine has lasted: a waking resident (not the
        embodied one, not in a talk) whose decision is open and who lives its routine meanwhile.
        A reaction waited for costs no routine (its model-made step goes on); this does."""
        now = self.clock.now
        worst = 0.0
        for r in self.residents.values():
            if r.name == self.embodied or r.conversation or r.asleep:
                continue
            if r.action is not None and is_model_led(r.action.source):
                continue
            since = self.ledger.need_since(r.name)
            if since is not None:
                worst = max(worst, (now - since).total_seconds() / 60.0)
        return worst

    def _count_lead(self, now: datetime) -> None:
        """One tick of each waking resident's time in the ledger, by where its action came from
        (a talk's lines are the model's); the embodied resident is the player's, not counted."""
        secs = self.clock.seconds_per_step
        day = self.clock.day
        for r in self.residents.values():
            if r.name == self.embodied:
                continue
            act = r.action
            source = "talk" if r.conversation else (act.source if act else "none")
            self.ledger.tick(r.name, now, day, source=source, seconds=secs, asleep=r.asleep)

    def poll(self) -> TickResult:
        """Events that arrived without a tick (streamed replies, commands): for a paused screen.

        In real-time mode finished player-facing replies are applied too; the clock stays."""
        self._launch()
        res = self._take_out()
        if not self.lockstep:
            self._apply_finished(res, only_player=True)
        res.waiting_on_model = len(self.jobs)
        return res

    def _take_out(self) -> TickResult:
        res = self._out
        res.step = self.step_no
        res.clock = self.clock.text()
        self._out = TickResult(step=self.step_no, clock="")
        return res

    def _error(self, text: str, res: TickResult) -> None:
        """A failure worth showing: kept (the last 200), logged in the tick and told ``on_error``."""
        self.errors.append(text)
        del self.errors[:-200]
        res.log.append(LogLine("error", text))
        if self.on_error is not None:
            self.on_error(text)

    async def aclose(self) -> None:
        """Cancel every job in flight (on quit); a save made before keeps them as pending."""
        tasks = [j.task for j in self.jobs.values() if j.task is not None and not j.task.done()]
        tasks += [t for t in self._listening.values() if not t.done()]
        self._listening.clear()
        for t in tasks:
            t.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)


