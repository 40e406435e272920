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
import inspect
import json
import random
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Callable

from game.engine.events import (
    Bubble, Command, EndConversation, Embody, EnterAsVisitor, LogLine, Move, MovePlayer, ObjectChange,
    OpenTalk, Pos, Release, SaveTown, SayToResident, SetObjectState, TickResult, Typing, Utterance, Whisper,
)
from game.llm.api import LLMError, Priority
from game.mind.view import Action, Conversation, DayPlan, Line, Reaction, WorldView
from game.world.states import describe as describe_state, match_state

PLAYER = "player"  # the key of the visitor's avatar in positions()

# tuning (all game-time based, so they do not depend on the machine)
PERCEIVE_EVERY = 3  # ticks between two looks around, per resident (staggered)
PERCEIVE_RADIUS = 6
PERCEIVE_BANDWIDTH = 6
OBSERVE_BATCH = 6  # flush buffered observations to the mind once this many are waiting
OBSERVE_MAX_AGE = timedelta(minutes=30)  # ... or once the oldest has waited this long
REACT_COOLDOWN = timedelta(hours=2)  # do not react to the same person twice within this
OBJECT_NEWS = timedelta(minutes=30)  # an object change stays salient this long
TALK_RANGE = 4  # tiles (Chebyshev) within which two can talk
MAX_TALK_LINES = 8  # lines in a conversation between residents
TALK_COOLDOWN = timedelta(hours=1)  # two residents do not start a new talk within this
PLAYER_SILENCE = timedelta(minutes=30)  # a resident stops waiting for the player's answer after this


_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def player_text(text: object) -> str:
    """What the player typed, as plain one-line text: control characters (escape sequences lose
    their ESC), bidi overrides and lone surrogates dropped, whitespace collapsed.  It is stored in
    minds, saved and shown, and a lone surrogate cannot be written to a save or a terminal."""
    return " ".join(_UNPRINTABLE.sub(" ", "" if text is None else str(text)).split())


class CommandError(Exception):
    """A player command that cannot be done now; the message is fit to show the player."""


@dataclass
class Player:
    name: str
    description: str
    pos: Pos


@dataclass
class Resident:
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
    reacted: dict[str, datetime] = field(default_factory=dict)  # subject -> last reaction time
    last_talk: dict[str, datetime] = field(default_factory=dict)
    recalled: list[str] = field(default_factory=list)

    def action_ended(self, now: datetime) -> bool:
        if self.action is None:
            return True
        end = self.action.end()
        return end is None or (now >= end and not self.path)


@dataclass
class Job:
    """One model-backed piece of work for one resident (see the module docstring)."""

    seq: int
    resident: str
    kind: str  # "plan" | "next" | "react" | "say" | "observe"
    now: datetime
    ready_at: int  # tick at whose boundary it is applied (lockstep); asked-at tick + decision_ticks
    args: dict = field(default_factory=dict)  # JSON-ready: what the decision needs to be re-asked
    observations: list[str] = field(default_factory=list)
    task: asyncio.Task | None = None

    def to_row(self) -> dict:
        return {"seq": self.seq, "resident": self.resident, "kind": self.kind,
                "now": self.now.isoformat(), "ready_at": self.ready_at,
                "args": json.dumps(self.args), "observations": json.dumps(self.observations)}

    @staticmethod
    def from_row(r: dict) -> "Job":
        return Job(seq=int(r["seq"]), resident=r["resident"], kind=r["kind"],
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

    def next_speaker(self) -> str:
        return self.conv.participants[self.turn % len(self.conv.participants)]


@dataclass
class ResidentView:
    """One resident as the side panel shows it (plain data)."""

    name: str
    action: str
    emoji: str
    place: str
    pos: Pos
    plan: list[str]
    recent: list[str]
    retrieved: list[str]
    relationships: dict[str, str]
    embodied: bool
    conversation: str | None
    thinking: bool


def chebyshev(a: Pos, b: Pos) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


class Engine:
    """See the module docstring.  Build with ``Engine.new`` or ``Engine.load``."""

    def __init__(self, *, town: Any, town_path: str, minds: dict[str, Any], clock: Any, llm: Any,
                 pathfinder: Any, perceive: Callable[..., list], spatial: dict[str, Any],
                 positions: dict[str, Pos], seed: int = 0, lockstep: bool = False,
                 decision_ticks: int = 6) -> None:
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
        self.step_no = 0
        self.residents: dict[str, Resident] = {
            name: Resident(name=name, pos=positions[name]) for name in sorted(minds)}
        self.player: Player | None = None
        self.embodied: str | None = None
        self.talks: dict[str, Talk] = {}
        # resident -> its ``listen`` task still running when the player spoke: the reply waits for it
        self._listening: dict[str, asyncio.Task] = {}
        # set when a reply to the player has new words: a screen between ticks polls at once
        self.heard = asyncio.Event()
        self.finished_talks: list[Conversation] = []  # kept for saves and the report (bounded)
        self.jobs: dict[str, Job] = {}  # resident -> its one job in flight
        self._seq = 0
        self._talk_seq = 0
        self.object_news: dict[str, datetime] = {}  # address -> when it changed
        self.save_path: str | None = None
        self.errors: list[str] = []
        self.on_error: Callable[[str], None] | None = None
        # (step, command) of every player command done since this engine was made or loaded: with
        # a recording of the model's answers, what a replay needs to make the same town again
        self.command_log: list[tuple[int, Command]] = []
        # events waiting for the next TickResult (from commands and streamed replies)
        self._out = TickResult(step=0, clock="")
        self._stream_seen: dict[str, str] = {}
        accounting = getattr(llm, "accounting", None)
        if accounting is not None and hasattr(accounting, "set_day"):
            accounting.set_day(self.clock.day)

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, town_path: str | Path, llm: Any, *, small: bool = False, seed: int = 0,
            lockstep: bool = False, start: datetime | None = None) -> "Engine":
        from game.engine import wiring

        return wiring.new_engine(cls, town_path, llm, small=small, seed=seed, lockstep=lockstep,
                                 start=start)

    @classmethod
    def load(cls, save_path: str | Path, llm: Any, *, lockstep: bool = False) -> "Engine":
        from game.engine import save

        engine = save.load_engine(cls, save_path, llm)
        engine.lockstep = lockstep
        return engine

    def save(self, path: str | Path | None = None) -> str:
        from game.engine import save

        target = str(path or self.save_path or "")
        if not target:
            raise CommandError("no save file given and this town has none yet")
        save.save_engine(self, target)
        self.save_path = target
        return target

    @staticmethod
    def describe_save(path: str | Path) -> dict:
        from game.engine import save

        return save.describe_save(path)

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
        recent: list[str] = []
        mem = getattr(mind, "memory", None)
        if mem is not None and hasattr(mem, "recent"):
            try:
                recent = [rec.text for rec in mem.recent(8)]
            except Exception:  # the panel must never break the game
                recent = []
        persona = getattr(mind, "persona", None)
        rel = dict(getattr(persona, "relationships", {}) or {})
        retrieved: list[str] = []
        if mem is not None and hasattr(mem, "recent"):
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
            conversation=r.conversation, thinking=name in self.jobs)

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
        for i, r in enumerate(self.residents.values()):
            if (self.step_no + i) % PERCEIVE_EVERY == 0:
                self._look(r, now)
        for r in self.residents.values():
            self._decide(r, now, res)
        self._run_talks(now)
        self._launch()
        res.waiting_on_model = len(self.jobs)
        return res

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

    # ------------------------------------------------------------------ movement and actions

    def _move(self, r: Resident, res: TickResult) -> None:
        if not r.path or r.name == self.embodied:  # (in a talk, only the walk over to the other)
            return
        nxt = r.path.pop(0)
        if not self.town.grid[nxt[1], nxt[0]]:
            r.path = []
            return
        res.moves.append(Move(r.name, r.pos, nxt))
        r.pos = nxt
        if r.name in self.spatial:
            addr = self._address_at(nxt)
            if addr:
                self._learn(r.name, addr)

    def _set_action(self, r: Resident, action: Action, res: TickResult | None, now: datetime) -> None:
        if action.start is None or action.start != now:
            action = Action(description=action.description, emoji=action.emoji, address=action.address,
                            duration_min=action.duration_min, object_state=action.object_state,
                            start=now, source=action.source)
        if action.object_state:  # a state of the object's vocabulary, else none (see _set_object)
            aff = getattr(self.town, "affordances", None)
            info = aff.info(action.address) if aff is not None else None
            if info is not None and match_state(info, action.object_state) != action.object_state:
                action = replace(action, object_state=match_state(info, action.object_state))
        old = r.action
        if old is not None and old.object_state and old.address in self.town.objects:
            # the object goes back to idle when the one who changed it moves on
            objects = self.town.objects
            if objects.get(old.address) == old.object_state and objects.changed_by(old.address) == r.name:
                objects.set(old.address, "idle", r.name)
                (res if res is not None else self._out).object_changes.append(
                    ObjectChange(old.address, "idle", r.name))
        r.action = action
        r.needs_decision = False
        r.path = self._path_to(r.pos, action.address)
        target = res if res is not None else self._out
        if old is None or (old.emoji, old.description) != (action.emoji, action.description):
            target.bubbles.append(Bubble(r.name, action.emoji, action.description))
        if action.object_state:
            self._set_object(action.address, action.object_state, r.name, target, now)

    def _path_to(self, src: Pos, address: str) -> list[Pos]:
        if not address:
            return []
        try:
            tiles = list(self.town.tree.tiles_of(address))
        except Exception:
            return []
        if not tiles:
            return []
        grid = self.town.grid
        walk = sorted({t for t in tiles if grid[t[1], t[0]]})
        if src in tiles:
            return []
        if walk and address.count(":") == 1:
            dst = self.rng.choice(walk)  # somewhere in the room (the RNG is saved: forks agree)
        elif walk:
            dst = min(walk, key=lambda t: (chebyshev(src, t), t))
        else:
            dst = self.paths.nearest_walkable(sorted(tiles)[0])
        if dst == src:
            return []
        try:
            return list(self.paths.path(src, dst))
        except Exception:  # NoPath: stay where it is
            return []

    def _set_object(self, address: str, state: str, by: str, res: TickResult, now: datetime) -> None:
        objects = self.town.objects
        if address not in objects:
            return
        aff = getattr(self.town, "affordances", None)
        info = aff.info(address) if aff is not None else None
        if info is not None:  # only a state of its kind's vocabulary (see game/world/states.py)
            state = match_state(info, state) or ""
            if not state:
                return
        if objects.get(address) == state:
            return
        objects.set(address, state, by)
        if by not in self.residents:  # news: what the player or the world did, not everyday use
            self.object_news[address] = now
        res.object_changes.append(ObjectChange(address, state, by))
        said = describe_state(info, state) if info is not None else state
        res.log.append(LogLine("object", f"{self._describe(address)} is now {said}", by))

    # ------------------------------------------------------------------ perception

    def _actors(self) -> dict[str, Pos]:
        out = {name: r.pos for name, r in self.residents.items()}
        if self.player is not None:
            out[self.player.name] = self.player.pos
        return out

    def _doing(self) -> dict[str, str]:
        out = {name: r.action.description for name, r in self.residents.items() if r.action is not None}
        if self.player is not None:
            out[self.player.name] = f"visiting ({self.player.description})" if self.player.description \
                else "visiting"
        return out

    def _look(self, r: Resident, now: datetime) -> None:
        percepts = self._perceive(r.name, r.pos, self.town, self._actors(), PERCEIVE_RADIUS,
                                  PERCEIVE_BANDWIDTH, doing=self._doing())
        current: dict[str, str] = {}
        salient: list[str] = []
        for p in percepts:
            if p.kind == "person":
                if p.subject == r.name:
                    continue
                key, text = "person:" + p.subject, p.text
                if key not in r.seen and self._may_react(r, p.subject, now):
                    salient.append(text)
                    r.reacted[p.subject] = now
            else:
                key, text = "object:" + p.address, p.text
                if p.address:
                    self._learn(r.name, p.address)
                changed = self.object_news.get(p.address)
                if (r.seen.get(key) != text and changed is not None and now - changed <= OBJECT_NEWS
                        and self._may_react(r, p.address, now)):
                    salient.append(text)
                    r.reacted[p.address] = now
            current[key] = text
        for key, text in current.items():
            if r.seen.get(key) != text and text not in r.obs_buffer:
                if not r.obs_buffer:
                    r.obs_since = now
                r.obs_buffer.append(text)
        r.seen = current
        if salient and r.name != self.embodied and not r.conversation:
            r.salient.extend(s for s in salient if s not in r.salient)

    def _may_react(self, r: Resident, subject: str, now: datetime) -> bool:
        last = r.reacted.get(subject)
        if last is not None and now - last < REACT_COOLDOWN:
            return False
        act = r.action.description.lower() if r.action else ""
        return "sleep" not in act

    def _learn(self, name: str, address: str) -> None:
        sm = self.spatial.get(name)
        if sm is None or sm.knows(address):
            return
        if hasattr(sm, "observe_area") and address.count(":") <= 1:
            sm.observe_area(self.town.tree, address)
        else:
            sm.learn(address)

    # ------------------------------------------------------------------ decisions

    def world_view(self, name: str) -> WorldView:
        from game.engine import wiring

        return wiring.world_view(self, name)

    def _decide(self, r: Resident, now: datetime, res: TickResult) -> None:
        name = r.name
        if r.conversation:
            return
        if name == self.embodied:
            self._maybe_observe(r, now, force=False)
            return
        ended = r.action_ended(now)
        if ended and not r.needs_decision:
            r.needs_decision = True
        busy = name in self.jobs
        if busy:
            if ended:  # keep busy with the routine while the model thinks
                self._routine(r, now, res)
                r.needs_decision = True
            return
        if r.salient:
            text = "; ".join(r.salient)
            r.salient = []
            self._ask(r, "react", now, {"percept": text})
            return
        if r.needs_decision:
            # the mind plans the day itself when the next action needs a plan
            self._ask(r, "next", now, {})
            if ended:
                self._routine(r, now, res)
                r.needs_decision = True
            return
        self._maybe_observe(r, now, force=False)

    def _routine(self, r: Resident, now: datetime, res: TickResult) -> None:
        try:
            act = self.minds[r.name].routine_action(now, self.world_view(r.name))
        except Exception as e:  # the routine is rule-based; a failure here is a bug worth showing
            self._error(f"{r.name}: routine action failed: {e}", res)
            return
        if r.action is None or r.action_ended(now) or act.description != r.action.description:
            self._set_action(r, act, res, now)

    def _maybe_observe(self, r: Resident, now: datetime, *, force: bool) -> None:
        if r.name in self.jobs or not r.obs_buffer:
            return
        old = r.obs_since or now
        if force or len(r.obs_buffer) >= OBSERVE_BATCH or now - old >= OBSERVE_MAX_AGE:
            self._ask(r, "observe", now, {})

    def _ask(self, r: Resident, kind: str, now: datetime, args: dict) -> Job:
        assert r.name not in self.jobs, f"{r.name} already has a job in flight"
        self._seq += 1
        obs, r.obs_buffer, r.obs_since = r.obs_buffer, [], None
        if kind in ("plan", "next", "react"):
            args = dict(args)
            args["view"] = _view_to_dict(self.world_view(r.name))
        job = Job(seq=self._seq, resident=r.name, kind=kind, now=now,
                  ready_at=self.step_no + self.decision_ticks, args=args, observations=obs)
        self.jobs[r.name] = job
        return job

    def _launch(self) -> None:
        """Create the tasks of jobs that have none yet (new ones, or ones restored from a save)."""
        pending = [j for j in self.jobs.values() if j.task is None]
        if not pending:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet (built outside asyncio): the first step() inside one starts them
        for job in sorted(pending, key=lambda j: (j.resident, j.seq)):
            job.task = loop.create_task(self._run_job(job), name=f"town:{job.kind}:{job.resident}")

    def _cancel(self, name: str) -> None:
        """Stop caring about ``name``'s job.  In lockstep a job already started is not cancelled but
        dropped: it runs to the end (what it did to the mind, observations stored, memories touched,
        happens whatever the timing) and its answer is thrown away at its own boundary, so a run
        and its replay stay identical (its lane is free again from that boundary on).  In real
        time it is cancelled at once."""
        job = self.jobs.get(name)
        if job is None:
            return
        if self.lockstep and job.task is not None:
            job.args["dropped"] = True
            return
        job = self.jobs.pop(name, None)
        if job is not None:
            if job.task is not None and not job.task.done():
                job.task.cancel()
            # observations already handed to the job go back to the buffer: nothing is lost
            r = self.residents[name]
            r.obs_buffer = job.observations + r.obs_buffer

    async def _run_job(self, job: Job) -> Any:
        mind = self.minds[job.resident]
        stats = getattr(mind, "stats", None)
        fails_before = _failures(stats)
        result, insights = await self._run_mind(job, mind)
        # the mind carries on by rule when the model fails; the screen and the run still say so
        failed = _failures(stats) > fails_before
        return result, insights, (getattr(mind, "last_error", None) if failed else None)

    async def _run_mind(self, job: Job, mind: Any) -> tuple[Any, list[str]]:
        insights: list[str] = []
        if job.observations:
            await mind.observe(job.now, list(job.observations))
            insights = list(await mind.reflect_if_due(job.now) or [])
        from game.engine import wiring

        view = wiring.with_ground(self, job.resident, _view_from_dict(job.args["view"])) \
            if "view" in job.args else None
        result: Any = None
        if job.kind == "plan":
            result = await mind.plan_day(job.now, view)
        elif job.kind == "next":
            result = await mind.next_action(job.now, view)
        elif job.kind == "react":
            result = await mind.react(job.now, job.args["percept"], view)
        elif job.kind == "say":
            result = await self._say(job, mind)
        elif job.kind == "listen":
            result = await self._listen(job, mind)
        return result, insights

    async def _listen(self, job: Job, mind: Any) -> bool:
        talk = self.talks.get(job.args["conversation"])
        if talk is None:
            return False
        c = talk.conv
        conv = Conversation(id=c.id, participants=list(c.participants), place=c.place, lines=list(c.lines),
                            started=c.started, with_player=c.with_player)
        listeners = [p for p in conv.participants if p != job.resident]
        typed = str(job.args.get("typed") or "")
        if typed:  # what the player has typed so far: the reply's own prompt, nearly
            return bool(await mind.listen(job.now, conv, listeners, typed=(str(job.args["typed_by"]), typed)))
        return bool(await mind.listen(job.now, conv, listeners))

    async def _say(self, job: Job, mind: Any) -> Line:
        listening = self._listening.pop(job.resident, None)
        if listening is not None and not listening.done():
            try:  # the beginning of the reply is being made: wait for it, never cancel it
                await asyncio.shield(listening)
            except asyncio.CancelledError:
                if not listening.done():
                    self._listening[job.resident] = listening  # the next reply waits for it
                raise
            except Exception:  # noqa: BLE001 - it only saves time; the reply goes on without it
                pass
        talk = self.talks.get(job.args["conversation"])
        if talk is None:
            raise asyncio.CancelledError
        c = talk.conv  # a copy: the talk may go on (the player) while this line is written
        conv = Conversation(id=c.id, participants=list(c.participants), place=c.place, lines=list(c.lines),
                            started=c.started, with_player=c.with_player)
        listeners = [p for p in conv.participants if p != job.resident]
        priority = Priority.PLAYER if conv.with_player else Priority.REACT
        stream = getattr(mind, "say_stream", None)
        if stream is not None and conv.with_player:
            text = ""
            line: Line | None = None
            async for piece in stream(job.now, conv, listeners, priority=priority):
                if isinstance(piece, Line):
                    line = piece
                    break
                text += piece
                if not self.lockstep:  # pieces arrive when they arrive: only for the screen
                    self._out.utterances.append(
                        Utterance(conv.id, job.resident, ", ".join(listeners), text, final=False))
                    self.heard.set()
            self.heard.set()  # the whole line: applied by the next poll
            return line if line is not None else Line(text=text.strip())
        kwargs = {}
        try:
            if "priority" in inspect.signature(mind.say).parameters:
                kwargs["priority"] = priority
        except (TypeError, ValueError):
            pass
        return await mind.say(job.now, conv, listeners, **kwargs)

    def _apply_finished(self, res: TickResult, *, only_player: bool = False) -> None:
        done = [j for j in self.jobs.values() if j.task is not None and j.task.done()]
        if self.lockstep:
            done = [j for j in done if j.ready_at <= self.step_no]
        if only_player:
            done = [j for j in done if j.kind in ("say", "listen") and
                    (t := self.talks.get(j.args.get("conversation", ""))) is not None and t.conv.with_player]
        for job in sorted(done, key=lambda j: (j.ready_at, j.resident, j.seq)):
            if self.jobs.get(job.resident) is not job:
                continue
            del self.jobs[job.resident]
            task = job.task
            assert task is not None
            if task.cancelled():
                continue
            err = task.exception()
            if err is not None and job.args.get("dropped"):
                continue
            if err is not None:
                self._job_failed(job, err, res)
                continue
            result, insights, model_error = task.result()
            dropped = bool(job.args.get("dropped"))
            if model_error and not dropped:
                self._error(f"model: {model_error}", res)
            for ins in insights:
                res.log.append(LogLine("reflection", f"{job.resident} realises: {ins}", job.resident))
            if not dropped:
                self._apply(job, result, res)

    def _job_failed(self, job: Job, err: BaseException, res: TickResult) -> None:
        r = self.residents.get(job.resident)
        kind = "model" if isinstance(err, LLMError) else type(err).__name__
        self._error(f"{job.resident}: {job.kind} failed ({kind}): {err}", res)
        if r is None:  # a job of someone not in town (a damaged save): nothing more to undo
            return
        if job.kind == "say":
            self._end_talk(job.args.get("conversation", ""), self.clock.now, res,
                           reason="the conversation broke off")
        elif job.kind in ("plan", "next", "react"):
            # no answer: the resident carries on with its routine (rule-based, not a fake answer)
            r.needs_decision = False
            self._routine(r, self.clock.now, res)

    def _error(self, text: str, res: TickResult) -> None:
        self.errors.append(text)
        del self.errors[:-200]
        res.log.append(LogLine("error", text))
        if self.on_error is not None:
            self.on_error(text)

    def _apply(self, job: Job, result: Any, res: TickResult) -> None:
        r = self.residents[job.resident]
        now = self.clock.now
        if job.resident == self.embodied and job.kind != "say":
            return  # the player drives it now: its mind's decisions are dropped
        plan = getattr(self.minds[r.name], "plan", None)
        if isinstance(plan, DayPlan) and plan is not r.plan:
            if r.plan is None or r.plan.day != plan.day:
                res.log.append(LogLine("plan", f"{r.name} planned day {plan.day}", r.name))
            else:
                res.log.append(LogLine("plan", f"{r.name} changed their plan", r.name))
            r.plan = plan
        if job.kind == "plan":
            r.needs_decision = True  # the first action of the plan comes next
        elif job.kind == "next":
            self._set_action(r, result, res, now)
        elif job.kind == "react":
            self._apply_reaction(r, result, res, now)
        elif job.kind == "say":
            self._apply_line(job, result, res, now)

    def _apply_reaction(self, r: Resident, rx: Reaction, res: TickResult, now: datetime) -> None:
        if rx.kind == "continue" or r.conversation:
            return
        if rx.kind == "talk" and rx.with_whom:
            if self._start_talk(r.name, rx.with_whom, now, res, reach=PERCEIVE_RADIUS):
                return
        if rx.new_action is not None:
            res.log.append(LogLine("react", f"{r.name} reacts: {rx.new_action.description}", r.name))
            self._set_action(r, rx.new_action, res, now)
        else:
            r.needs_decision = True

    # ------------------------------------------------------------------ conversations

    def _free_to_talk(self, name: str) -> bool:
        if self.player is not None and name == self.player.name:
            return True
        r = self.residents.get(name)
        if r is None:
            return False
        act = r.action.description.lower() if r.action else ""
        return "sleep" not in act

    def _start_talk(self, a: str, with_whom: str, now: datetime, res: TickResult,
                    reach: int = TALK_RANGE) -> bool:
        """Start a conversation of ``a`` with the named people within ``reach`` tiles (a resident who
        decided to talk to someone it sees walks over to them first)."""
        ra = self.residents[a]
        wanted = [w.strip() for w in with_whom.split(",") if w.strip()]
        others: list[str] = []
        for w in wanted:
            name = self._match_name(w)
            if name is None or name == a or not self._free_to_talk(name):
                continue
            pos = self._actors().get(name)
            if pos is None or chebyshev(pos, ra.pos) > reach:
                continue
            last = ra.last_talk.get(name)
            if last is not None and now - last < TALK_COOLDOWN:
                continue
            other = self.residents.get(name)
            if other is not None and other.conversation:
                talk = self.talks.get(other.conversation)
                if talk is not None and not talk.conv.with_player and len(talk.conv.participants) < 4:
                    return self._join_talk(a, talk, now, res)
                continue
            others.append(name)
        if not others:
            return False
        with_player = self.player is not None and self.player.name in others or (
            self.embodied is not None and self.embodied in others)
        self._talk_seq += 1
        cid = f"c{self._talk_seq}"
        conv = Conversation(id=cid, participants=[a, *others], place=self._address_at(ra.pos),
                            started=now, with_player=bool(with_player))
        self.talks[cid] = Talk(conv=conv, max_lines=MAX_TALK_LINES if not with_player else 40)
        for n in conv.participants:
            self._enter_talk(n, cid, conv, now, res)
        self._approach(ra, others)
        res.log.append(LogLine("conversation", f"{a} starts talking with {', '.join(others)}", a))
        return True

    def _approach(self, r: Resident, others: list[str]) -> None:
        """Walk ``r`` up to the nearest of ``others`` when it is beyond talking range."""
        actors = self._actors()
        spots = [actors[o] for o in others if o in actors]
        if not spots:
            return
        target = min(spots, key=lambda p: (chebyshev(p, r.pos), p))
        if chebyshev(target, r.pos) <= TALK_RANGE:
            return
        try:
            path = list(self.paths.path(r.pos, self.paths.nearest_walkable(target)))
        except Exception:  # NoPath: talk from where it stands
            return
        steps: list[Pos] = []
        for p in path:
            if p == target:
                break
            steps.append(p)
            if chebyshev(p, target) <= 1:
                break
        r.path = steps

    def _join_talk(self, name: str, talk: Talk, now: datetime, res: TickResult) -> bool:
        talk.conv.participants.append(name)
        self._enter_talk(name, talk.conv.id, talk.conv, now, res)
        res.log.append(LogLine("conversation", f"{name} joins the conversation", name))
        return True

    def _enter_talk(self, name: str, cid: str, conv: Conversation, now: datetime, res: TickResult) -> None:
        r = self.residents.get(name)
        if r is None:
            return  # the visitor
        if self.jobs.get(name) is not None and self.jobs[name].kind != "say":
            self._cancel(name)
        r.conversation = cid
        r.path = []
        others = [p for p in conv.participants if p != name]
        act = Action(description=f"talking with {', '.join(others)}", emoji="\U0001F4AC",
                     address=self._address_at(r.pos), duration_min=10, start=now, source="rule")
        old = r.action
        r.action = act
        if old is None or old.description != act.description:
            res.bubbles.append(Bubble(name, act.emoji, act.description))

    def _controlled(self, name: str) -> bool:
        return name == self.embodied or (self.player is not None and name == self.player.name)

    def _run_talks(self, now: datetime) -> None:
        for cid in sorted(self.talks):
            talk = self.talks[cid]
            if talk.ended:
                continue
            speaker = talk.next_speaker()
            if self._controlled(speaker):
                # the player speaks for it; a resident does not wait for ever, nor for one who left
                since = talk.last_at or talk.conv.started or now
                actors = self._actors()
                here = actors.get(speaker)
                others = [actors[p] for p in talk.conv.participants if p != speaker and p in actors]
                if here is not None and others and min(chebyshev(here, q) for q in others) > TALK_RANGE + 2:
                    self._end_talk(cid, now, self._out, reason=f"{speaker} walked away")
                elif now - since >= PLAYER_SILENCE:
                    self._end_talk(cid, now, self._out, reason=f"{speaker} said nothing more")
                elif talk.conv.with_player:
                    self._get_ready(talk, now)
                continue
            if speaker in self.jobs:
                continue  # its line is being written
            r = self.residents.get(speaker)
            if r is None or r.conversation != cid:
                continue
            job = self._ask(r, "say", now, {"conversation": cid})
            if talk.conv.with_player:
                job.ready_at = self.step_no + 1  # the player is waiting: due at the next boundary

    def _apply_line(self, job: Job, line: Line, res: TickResult, now: datetime) -> None:
        cid = job.args["conversation"]
        talk = self.talks.get(cid)
        if talk is None or talk.ended:
            return
        conv = talk.conv
        listeners = [p for p in conv.participants if p != job.resident]
        if not line.text.strip():
            if getattr(line, "source", "") == "error":
                why = getattr(self.minds[job.resident], "last_error", None) or "the model failed"
                self._error(f"{job.resident} could not answer: {why}", res)
            self._end_talk(cid, now, res, reason=getattr(line, "reason", "")
                           or f"{job.resident} had nothing more to say")
            return
        conv.add(job.resident, line.text)
        talk.turn += 1
        talk.last_at = now
        res.utterances.append(Utterance(cid, job.resident, ", ".join(listeners), line.text, final=True))
        if line.end or len(conv.lines) >= talk.max_lines:
            self._end_talk(cid, now, res)

    def _end_talk(self, cid: str, now: datetime, res: TickResult, reason: str = "") -> None:
        talk = self.talks.pop(cid, None)
        if talk is None:
            return
        talk.ended = True
        conv = talk.conv
        for name in conv.participants:
            job = self.jobs.get(name)
            if job is not None and job.kind in ("say", "listen") and job.args.get("conversation") == cid:
                self._cancel(name)  # (a reply made ready for a talk that is over serves nothing)
            listening = self._listening.pop(name, None)
            if listening is not None and not listening.done():
                listening.cancel()
            r = self.residents.get(name)
            if r is None:
                continue
            r.conversation = None
            for other in conv.participants:
                if other != name:
                    r.last_talk[other] = now
            if conv.lines:
                try:  # both (all) remember it: each line others said, and their own part
                    self.minds[name].remember_conversation(now, conv)
                except Exception as err:
                    self._error(f"{name}: could not remember the conversation: {err}", res)
            r.needs_decision = True  # re-plan from what was said
            r.action = Action(description="thinking about the conversation", emoji="\U0001F4AD",
                              address=self._address_at(r.pos), duration_min=1, start=now, source="rule")
        self.finished_talks.append(conv)
        del self.finished_talks[:-50]
        who = ", ".join(conv.participants)
        res.log.append(LogLine("conversation", f"conversation of {who} ended ({len(conv.lines)} lines)"
                               + (f": {reason}" if reason else "")))

    # ------------------------------------------------------------------ player commands

    def submit(self, command: Command) -> Any:
        """Do a player command now; its events come with the next ``step()``/``poll()``.

        Raises ``CommandError`` (a message fit for the player) when it cannot be done."""
        result = self._submit(command)
        if not isinstance(command, SaveTown):
            self.command_log.append((self.step_no, command))
        return result

    def _submit(self, command: Command) -> Any:
        now = self.clock.now
        out = self._out
        if isinstance(command, EnterAsVisitor):
            return self._enter(command, out)
        if isinstance(command, MovePlayer):
            return self._move_player(command, out)
        if isinstance(command, OpenTalk):
            return self._player_opens(command, now, out)
        if isinstance(command, Typing):
            return self._player_types(command, now)
        if isinstance(command, SayToResident):
            return self._player_says(command, now, out)
        if isinstance(command, EndConversation):
            cid = self._resident(command.resident).conversation
            if cid is None or cid not in self.talks or not self.talks[cid].conv.with_player:
                raise CommandError(f"you are not talking with {command.resident}")
            self._end_talk(cid, now, out)
            return None
        if isinstance(command, Whisper):
            return self._whisper(command, now, out)
        if isinstance(command, Embody):
            return self._embody(command.resident, now, out)
        if isinstance(command, Release):
            return self._release(now, out)
        if isinstance(command, SetObjectState):
            return self._set_object_words(command.description, now, out)
        if isinstance(command, SaveTown):
            return self.save(command.path)
        raise CommandError(f"unknown command {type(command).__name__}")

    def _resident(self, name: str) -> Resident:
        found = self._match_name(name)
        if found is None or found not in self.residents:
            raise CommandError(f"there is no resident called '{name}'")
        return self.residents[found]

    def _match_name(self, words: str) -> str | None:
        w = words.strip().lower()
        if not w:
            return None
        names = list(self.residents) + ([self.player.name] if self.player else [])
        for n in names:
            if n.lower() == w:
                return n
        hits = [n for n in names if w in n.lower().split() or n.lower().startswith(w)]
        return hits[0] if len(hits) == 1 else None

    def _entrance(self) -> Pos:
        """Where a visitor walks in: the town's ``spawn["player"]`` if it has one, else the walkable
        tile on the map's edge (or, failing that, anywhere) that the residents can reach, nearest the
        middle of the bottom edge, as if arriving by the road."""
        spawn = getattr(self.town, "spawn", {}) or {}
        for key in ("player", "visitor", "entrance"):
            if key in spawn:
                return tuple(spawn[key])  # type: ignore[return-value]
        grid = self.town.grid
        h, w = grid.shape
        homes = [r.pos for r in self.residents.values()]

        def reachable(p: Pos) -> bool:
            try:
                return any(self.paths.reachable(p, q) for q in homes[:3])
            except Exception:
                return True
        target = (w // 2, h - 1)
        ys, xs = grid.nonzero()
        tiles = [(int(x), int(y)) for y, x in zip(ys, xs)]
        edge = [p for p in tiles if p[0] in (0, w - 1) or p[1] in (0, h - 1)]
        for pool in (edge, tiles):
            pool = sorted(pool, key=lambda p: (abs(p[0] - target[0]) + abs(p[1] - target[1]), p))
            for p in pool:
                if reachable(p):
                    return p
        return self.paths.nearest_walkable(target)

    def _enter(self, c: EnterAsVisitor, out: TickResult) -> Pos:
        name = player_text(c.name)
        if not name:
            raise CommandError("the visitor needs a name")
        if name in self.residents:
            raise CommandError(f"{name} already lives here; choose another name")
        if self.player is not None:
            raise CommandError(f"{self.player.name} is already in town")
        pos = self._entrance()
        self.player = Player(name=name, description=player_text(c.description), pos=pos)
        out.moves.append(Move(PLAYER, pos, pos))
        out.log.append(LogLine("system", f"{name} walks into town", name))
        return pos

    def _move_player(self, c: MovePlayer, out: TickResult) -> Pos:
        if self.embodied is not None:
            who, r = self.embodied, self.residents[self.embodied]
            src = r.pos
        elif self.player is not None:
            who, src = PLAYER, self.player.pos
        else:
            raise CommandError("enter the town as a visitor or take over a resident first")
        dst = (src[0] + int(c.dx), src[1] + int(c.dy))
        h, w = self.town.grid.shape
        if not (0 <= dst[0] < w and 0 <= dst[1] < h) or not self.town.grid[dst[1], dst[0]]:
            return src  # walls are walls: no move, no error (the UI already checks)
        if who == PLAYER:
            assert self.player is not None
            self.player.pos = dst
        else:
            r.pos = dst
            r.path = []
            addr = self._address_at(dst)
            if addr:
                self._learn(who, addr)
        out.moves.append(Move(who, src, dst))
        return dst

    def _speaker(self) -> tuple[str, Pos]:
        if self.embodied is not None:
            return self.embodied, self.residents[self.embodied].pos
        if self.player is not None:
            return self.player.name, self.player.pos
        raise CommandError("enter the town as a visitor or take over a resident first")

    def _player_talk(self, resident: str, now: datetime, out: TickResult) -> tuple[str, Resident, Talk]:
        """The conversation of the player (visitor or embodied resident) with ``resident``: the one
        going on, else a new one (a talk the resident was in with others is interrupted)."""
        speaker, pos = self._speaker()
        r = self._resident(resident)
        if r.name == speaker:
            raise CommandError("you cannot talk to yourself")
        if chebyshev(pos, r.pos) > TALK_RANGE:
            raise CommandError(f"{r.name} is too far away to hear you; walk closer")
        cid = r.conversation
        talk = self.talks.get(cid) if cid else None
        if talk is None or speaker not in talk.conv.participants:
            if talk is not None:
                self._end_talk(talk.conv.id, now, out, reason=f"{speaker} interrupted")
            self._talk_seq += 1
            cid = f"c{self._talk_seq}"
            conv = Conversation(id=cid, participants=[r.name, speaker], place=self._address_at(r.pos),
                                started=now, with_player=True)
            talk = Talk(conv=conv, max_lines=40)
            talk.turn = 1  # the player speaks first
            talk.last_at = now
            self.talks[cid] = talk
            for n in conv.participants:
                self._enter_talk(n, cid, conv, now, out)
            out.log.append(LogLine("conversation", f"{speaker} talks to {r.name}", speaker))
        return speaker, r, talk

    def _player_opens(self, c: OpenTalk, now: datetime, out: TickResult) -> str:
        """The player turns to a resident to talk.  The resident stops and listens, and its mind
        makes the beginning of its reply prompt now (``listen``), while the player types."""
        _, r, talk = self._player_talk(c.resident, now, out)
        self._get_ready(talk, now)
        self._launch()
        return talk.conv.id

    def _get_ready(self, talk: Talk, now: datetime) -> None:
        """While the player is to speak, the residents in the talk make the beginning of their next
        reply (``Mind.listen``): when it opens, after each line, and again with what the player has
        typed so far (``Typing``), each time as soon as their lane is free (so a burst of typing
        asks once, with the newest text)."""
        n = len(talk.conv.lines)
        state = (n, talk.typed)
        speaker = talk.next_speaker()
        for name in talk.conv.participants:
            r = self.residents.get(name)
            if (r is None or self._controlled(name) or name in self.jobs or talk.listened.get(name) == state
                    or not hasattr(self.minds[name], "listen")):
                continue
            talk.listened[name] = state
            args = {"conversation": talk.conv.id}
            if talk.typed and self._controlled(speaker):
                args.update(typed=talk.typed, typed_by=speaker)
            job = self._ask(r, "listen", now, args)
            job.ready_at = self.step_no + 1

    def _player_types(self, c: Typing, now: datetime) -> None:
        """The player is typing ``c.text`` to ``c.resident``: the resident gets its reply ready from
        it.  Ignored when there is no talk to type into (the screen sends these while typing)."""
        name = self._match_name(c.resident)
        r = self.residents.get(name) if name else None
        talk = self.talks.get(r.conversation) if r is not None and r.conversation else None
        if talk is None or talk.ended or not talk.conv.with_player or not self._controlled(talk.next_speaker()):
            return None
        talk.typed = player_text(c.text)
        self._get_ready(talk, now)
        self._launch()
        return None

    def _player_says(self, c: SayToResident, now: datetime, out: TickResult) -> str:
        text = player_text(c.text)
        if not text:
            raise CommandError("say something")
        speaker, r, talk = self._player_talk(c.resident, now, out)
        conv = talk.conv
        cid = conv.id
        listeners = [p for p in conv.participants if p != speaker]
        conv.add(speaker, text)
        talk.typed = ""
        talk.last_at = now
        out.utterances.append(Utterance(cid, speaker, ", ".join(listeners), text, final=True))
        # the resident(s) answer next; the one addressed speaks first
        talk.turn = conv.participants.index(r.name)
        job = self.jobs.get(r.name)
        if job is not None and job.kind == "listen" and job.task is not None:
            # still making the beginning of its reply: the reply starts as soon as that is done
            self._listening[r.name] = job.task
            del self.jobs[r.name]
        elif job is not None:  # a reply being written is asked again with the new line
            self._cancel(r.name)
        # the reply so far (nothing yet): the screen can show that the resident is answering
        out.utterances.append(Utterance(cid, r.name, speaker, "", final=False))
        if r.name in self.jobs:
            return cid  # lockstep: its dropped job ends at its boundary, then the talk asks for the reply
        job = self._ask(r, "say", now, {"conversation": cid})
        job.ready_at = self.step_no + 1  # the player waits for this one: due at the next boundary
        self._launch()
        return cid

    def _whisper(self, c: Whisper, now: datetime, out: TickResult) -> None:
        r = self._resident(c.resident)
        text = player_text(c.text)
        if not text:
            raise CommandError("whisper something")
        res = self.minds[r.name].whisper(now, text)
        if inspect.isawaitable(res):
            raise CommandError("internal: mind.whisper must not be a coroutine")
        out.log.append(LogLine("whisper", f"inner voice to {r.name}: {text}", r.name))
        if r.name != self.embodied and not r.conversation:
            if r.name in self.jobs and self.jobs[r.name].kind != "say":
                self._cancel(r.name)
            r.needs_decision = True
            r.salient = []
            if r.name not in self.jobs:
                self._ask(r, "next", now, {})  # the mind re-plans from the whisper
            self._launch()

    def _embody(self, name: str, now: datetime, out: TickResult) -> str:
        r = self._resident(name)
        if self.embodied is not None:
            raise CommandError(f"you are already {self.embodied}; release them first")
        if r.conversation:
            self._end_talk(r.conversation, now, out, reason=f"{r.name} was taken over")
        if r.name in self.jobs:
            self._cancel(r.name)
        self.embodied = r.name
        r.path = []
        r.salient = []
        r.action = Action(description="walking around", emoji="\U0001F6B6", address=self._address_at(r.pos),
                          duration_min=60 * 24, start=now, source="rule")
        out.bubbles.append(Bubble(r.name, r.action.emoji, r.action.description))
        out.log.append(LogLine("system", f"you are now {r.name}", r.name))
        return r.name

    def _release(self, now: datetime, out: TickResult) -> str:
        if self.embodied is None:
            raise CommandError("you are not controlling anyone")
        r = self.residents[self.embodied]
        self.embodied = None
        if r.conversation:
            self._end_talk(r.conversation, now, out, reason=f"{r.name} was released")
        if r.name in self.jobs and self.jobs[r.name].kind != "say":
            self._cancel(r.name)
        r.needs_decision = True
        r.action = Action(description="gathering their thoughts", emoji="\U0001F4AD",
                          address=self._address_at(r.pos), duration_min=1, start=now, source="rule")
        out.bubbles.append(Bubble(r.name, r.action.emoji, r.action.description))
        out.log.append(LogLine("system", f"{r.name} is themselves again", r.name))
        if r.name not in self.jobs:
            self._ask(r, "next", now, {})
        self._launch()
        return r.name

    def _set_object_words(self, words: str, now: datetime, out: TickResult) -> str:
        text = player_text(words).rstrip(".!")
        m = re.match(r"^(?P<obj>.+?)\s+(?:is|are)\s+(?:now\s+)?(?P<state>.+)$", text, re.I)
        if not m:
            raise CommandError("say what and how, e.g. 'the stove in the Lin kitchen is on fire'")
        obj, state = m.group("obj"), m.group("state")
        address = self.town.tree.find(obj)
        if not address:
            raise CommandError(f"no object in town matches '{obj}'")
        if address.count(":") < 2:
            raise CommandError(f"'{obj}' is a place, not an object; name something in it")
        aff = getattr(self.town, "affordances", None)
        info = aff.info(address) if aff is not None else None
        if info is not None and match_state(info, state) is None:
            raise CommandError(f"{self._describe(address)} can be: {', '.join(info.state_names())}")
        self._set_object(address, state[:40], "player", out, now)
        return address

    # ------------------------------------------------------------------ world helpers

    def _address_at(self, pos: Pos) -> str:
        try:
            return self.town.tree.address_at(pos) or ""
        except Exception:
            return ""

    def _describe(self, address: str) -> str:
        if not address:
            return "outside"
        try:
            return self.town.tree.describe(address)
        except Exception:
            return address

    async def aclose(self) -> None:
        """Cancel every job in flight (on quit); a save made before keeps them as pending."""
        tasks = [j.task for j in self.jobs.values() if j.task is not None and not j.task.done()]
        tasks += [t for t in self._listening.values() if not t.done()]
        self._listening.clear()
        for t in tasks:
            t.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)


def _failures(stats: Any) -> int:
    """How many failures a mind has counted (its ``stats`` has one ``error_<what>`` entry each)."""
    if not stats:
        return 0
    try:
        return sum(int(n) for k, n in stats.items() if str(k).startswith("error_"))
    except (TypeError, ValueError, AttributeError):
        return 0


def _view_to_dict(v: WorldView) -> dict:
    return {"now_text": v.now_text, "here": v.here, "here_text": v.here_text,
            "known_places": v.known_places, "allowed": list(v.allowed), "nearby": list(v.nearby),
            "people_here": list(v.people_here)}


def _view_from_dict(d: dict) -> WorldView:
    return WorldView.make(**d)
