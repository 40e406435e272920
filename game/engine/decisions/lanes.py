"""Lanes of decisions: one model-backed job per resident at a time (observations first, then the
decision), started as asyncio tasks and applied at tick boundaries in a fixed order, so the same
answers give the same town.  Each kind of job (``state.JobKind``) is run, applied and mended on
failure by the handlers of one table (``Lanes.handlers``).  A part of ``Engine``; see its module
docstring for lockstep."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar

from game.engine.api import MindPort
from game.engine.decisions.capacity import Capacity
from game.engine.decisions.jobs import JobBoard, view_from_dict
from game.engine.decisions.lookahead import Lookahead
from game.engine.events import LogLine, TickResult
from game.engine.noticing.hazards import Hazards
from game.engine.noticing.perceiving import Perceiver
from game.engine.noticing.salience import Salience
from game.engine.state import Job, JobArgs, JobKind, Resident
from game.engine.talks.conversations import Conversations
from game.engine.talks.seeking import Seeker
from game.engine.towncore import TownCore
from game.engine.tuning import IDLE_AHEAD, NIGHT_AHEAD, OBSERVE_BATCH, OBSERVE_MAX_AGE, PERCEIVE_RADIUS, WAKE_AHEAD
from game.engine.walking import Walker
from game.llm.api import LLMError
from game.mind.view import Action, Allowance, DayPlan, Hazard, Reaction, WorldView

R = TypeVar("R")


@dataclass(frozen=True)
class Handler(Generic[R]):
    """What one kind of job does: ``run`` asks the mind (on the loop, after the observations);
    ``apply`` takes the answer at a tick boundary (None: nothing to apply); ``failed`` mends what
    a failed job leaves (None: nothing)."""

    run: Callable[[Job, MindPort], Awaitable[R]]
    apply: Callable[[Job, R, TickResult, datetime], None] | None = None
    failed: Callable[[Job, Resident, TickResult], None] | None = None


class Lanes:
    """Owns the running of the jobs on the board: a resident whose action needs deciding (the
    walker's ``need_decision``) or who has sights waiting (the salience's) gets a job.  Takes the
    core, the board, the look ahead, and the parts a decision calls: the walker, the perceiver, the
    salience, the hazards, the talks, the seeker and the spare capacity."""

    def __init__(self, core: TownCore, board: JobBoard, lookahead: Lookahead, walker: Walker,
                 perceiver: Perceiver, salience: Salience, hazards: Hazards, talks: Conversations, seeker: Seeker,
                 capacity: Capacity) -> None:
        self.core = core
        self.board = board
        self.lookahead = lookahead
        self.walker = walker
        self.perceiver = perceiver
        self.salience = salience
        self.hazards = hazards
        self.talks = talks
        self.seeker = seeker
        self.capacity = capacity
        self.early: set[str] = set()  # residents whose plan was asked early, the server having room (maybe_ahead)
        self.handlers: dict[JobKind, Handler[Any]] = {
            JobKind.NEXT: Handler(self._run_next, self._apply_next, self._carry_on),
            JobKind.AHEAD: Handler(self._run_ahead),
            JobKind.REACT: Handler(self._run_react, self._apply_react, self._carry_on),
            JobKind.OBSERVE: Handler(_nothing),
            JobKind.SAY: Handler(talks.run_say, talks.apply_line, self._broke_off),
            JobKind.LISTEN: Handler(talks.run_listen),
            JobKind.SIDE: Handler(talks.run_side, talks.apply_side, self._broke_off),
            JobKind.CONVERSE: Handler(talks.run_converse, talks.apply_script, self._broke_off),
        }

    def ask(self, r: Resident, kind: JobKind, now: datetime, args: JobArgs) -> Job:
        """A job for ``r`` on the board; a decision goes with what it knows of the world now."""
        view = self.perceiver.world_view(r.name) if kind.decides else None
        return self.board.ask(r, kind, now, args, view)

    def decide(self, r: Resident, now: datetime, res: TickResult) -> None:
        name = r.name
        if r.conversation:
            self.ahead_in_talk(r, now)
            return
        if name == self.core.embodied:
            self.maybe_observe(r, now, force=False)
            return
        if r.seeking and self.seeker.go_on(r, now, res):
            self.maybe_observe(r, now, force=False)
            return
        ended = r.action_ended(now)
        if ended and not r.needs_decision:
            self.walker.need_decision(r)
        if r.needs_decision or r.salient:
            self.core.ledger.need(name, now)
        job = self.board.jobs.get(name)
        if job is not None:  # busy
            if (self.core.lockstep and job.kind == JobKind.AHEAD and job.ready_at > self.core.step_no
                    and (ended or r.salient)):
                # the lane is wanted now: the steps in hand ended sooner than the look ahead
                # counted on (a reaction or a talk took their time) or something was seen.  The
                # window asked ahead is due at once (a fixed tick still), or its resident would
                # live by routine, steps in hand, until the tick it was due.
                job.ready_at = self.core.step_no
            if ended:  # keep busy with the routine while the model thinks
                self.routine(r, now, res)
                self.walker.need_decision(r)
            return
        if r.salient:
            text = "; ".join(r.salient)
            args: JobArgs = {"percept": text, "urgent": r.urgent}
            hazard = self.hazards.hazard_for(r, now)  # a fire among them: its reaction mends it (noticing/hazards.py)
            if hazard is not None:
                args["hazard"] = hazard.to_dict()
            # past the daily floor while the server is idle (capacity.py); news needs no allowance
            allowance = None if r.urgent or hazard else self.capacity.allowance(r, now)
            if allowance is not None:
                args["allowance"] = allowance.to_dict()
            self.ask(r, JobKind.REACT, now, args)
            self.salience.taken(r)
            return
        if r.needs_decision:
            # the mind plans the day itself when the next action needs a plan
            self.ask(r, JobKind.NEXT, now, {})
            if ended:
                self.routine(r, now, res)
                self.walker.need_decision(r)
            return
        if not self.maybe_ahead(r, now):
            self.maybe_observe(r, now, force=False)

    def ahead_in_talk(self, r: Resident, now: datetime) -> None:
        """While the lines of a written talk are said, its residents' lanes are free: the next
        window is asked then as at any time (``maybe_ahead``), so that one whose steps ran out
        during the talk comes out of it into the model's next step, not into its routine while
        the window is written (after a talk, 2-4 minutes of routine in a measured morning).

        In a talk by lines (someone joined) a resident's lane is free while the others say
        theirs: the window is asked when its own turn is two lines away or more (a talk of three
        or more, just after it spoke), so its next line does not wait behind the window; in a
        measured morning four residents came out of a 28-minute talk by lines into 7-13 minutes
        of routine each.  Not with the player in the talk: its replies come first."""
        if r.name in self.board.jobs or r.name == self.core.embodied:
            return
        talk = self.talks.talks.get(r.conversation or "")
        if talk is None:
            return
        if talk.mode == "script":
            if not (talk.script or talk.next_at is not None):
                return
        elif talk.mode == "lines":
            parts = talk.conv.participants
            if (talk.conv.with_player or any(self.core.controlled(p) for p in parts) or r.name not in parts
                    or (parts.index(r.name) - talk.turn) % len(parts) < 2):
                return
        else:
            return
        self.maybe_ahead(r, now)

    def maybe_ahead(self, r: Resident, now: datetime) -> bool:
        """Ask for the next window of steps while the last decided one still runs (``ahead``),
        so the step after it comes from the queue with no wait; the observations go with it.
        In real time only, unless ``Lookahead.ahead`` says otherwise: in lockstep the clock waits for
        every decision anyway, so no step is lived by routine for want of one, and a window asked
        early is only more calls (a replan throws it away)."""
        lead = self.lookahead.lead(self.core.lockstep)
        if lead <= timedelta(0):
            return False
        mind = self.core.minds[r.name]
        at = mind.steps_run_out(now)
        early, awake = False, True
        if at is not None:
            reach = IDLE_AHEAD
            if mind.asleep_at(now):
                # the day plan and its first window before waking: three calls in a row, and a
                # sleeper's time is free (asleep is not waking time, and nothing is lived by routine)
                lead, reach, awake = max(lead, WAKE_AHEAD), NIGHT_AHEAD, False
            if lead < at - now <= reach and self.capacity.room_to_plan(self.early, awake=awake):
                lead, early = reach, True  # the server has room: plan it now, not in the next crowd
        if at is None or at - now > lead:
            return False
        if not awake and not self.core.lockstep and self.capacity.earlier_waking_first(at, now):
            return False  # who wakes first is planned first (a town opened before dawn: its first waker
            # woke unplanned while three more day plans shared the two cores); an awake one's window never waits
        job = self.ask(r, JobKind.AHEAD, now, {"run_out": at.isoformat()})
        if early:
            self.early.add(r.name)
        else:
            self.early.discard(r.name)
        if self.core.lockstep:
            # its answer is applied when the steps run out, not a game minute after it was
            # asked: the clock waits for it only if it is not done by then, so it is written
            # while the clock waits for others' decisions (a fixed tick: the same town whatever
            # the timing).  The lane is busy until then: a sight waits at most ``lead``.
            job.ready_at = max(job.ready_at, self.core.step_no + self.core.clock.steps_until(at) - 1)  # (before
            # the decisions of the step at which they run out)
        return True

    def routine(self, r: Resident, now: datetime, res: TickResult) -> None:
        try:
            act = self.core.minds[r.name].routine_action(now, self.perceiver.world_view(r.name))
        except Exception as e:  # the routine is rule-based: a bug, shown (test_part_failures.py)
            self.core.error(f"{r.name}: routine action failed: {e}", res)
            return
        if r.action is None or r.action_ended(now) or act.description != r.action.description:
            self.walker.set_action(r, act, res, now)

    def maybe_observe(self, r: Resident, now: datetime, *, force: bool) -> None:
        if r.name in self.board.jobs:
            return
        if not r.obs_buffer:
            # in real time the ratings a decision left (run_job) wait for a free lane, and a
            # reflection for a free lane and a server with room
            if not self.core.lockstep and r.name != self.core.embodied:
                mind = self.core.minds[r.name]
                cap = self.capacity  # the ratings and a reflection wait for a server with room (capacity.py)
                due = (mind.scoring_due(now) and cap.room_to_score()
                       or cap.room_to_reflect() and mind.reflection_due(now))
                if due and not (mind.asleep_at(now) and cap.wake_planning_due(now)):  # (a sleeper's ratings wait
                    self.ask(r, JobKind.OBSERVE, now, {})  # for the plans of those waking first)
            return
        old = r.obs_since or now
        if force or len(r.obs_buffer) >= OBSERVE_BATCH or now - old >= OBSERVE_MAX_AGE:
            self.ask(r, JobKind.OBSERVE, now, {})

    def launch(self) -> None:
        """Create the tasks of jobs that have none yet (new ones, or ones restored from a save)."""
        pending = [j for j in self.board.jobs.values() if j.task is None]
        if not pending:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop yet (built outside asyncio): the first step() inside one starts them
        for job in sorted(pending, key=lambda j: (j.resident, j.seq)):
            job.task = loop.create_task(self.run_job(job), name=f"town:{job.kind}:{job.resident}")

    async def run_job(self, job: Job) -> tuple[object, list[str], str | None]:
        mind = self.core.minds[job.resident]
        fails_before = _failures(mind.stats)
        insights: list[str] = []
        # in real time a decision never waits for an importance rating either: the memories are
        # kept at once and rated in an ``observe`` job when the lane is free (``maybe_observe``)
        rate_now = self.core.lockstep or job.kind == JobKind.OBSERVE and self.capacity.room_to_score()
        if job.observations:
            await mind.observe(job.now, list(job.observations), score=rate_now)
        elif job.kind == JobKind.OBSERVE and not self.core.lockstep:
            await mind.score_pending(job.now)
        if self.core.lockstep and job.observations:
            insights = list(await mind.reflect_if_due(job.now) or [])
        elif job.kind == JobKind.OBSERVE:
            # in real time a decision never waits behind a reflection (a call of its own, at a
            # priority below the town's planning): it is made in an ``observe`` job, when the
            # lane is free and the server has room (``maybe_observe``), one at a time
            insights = await self.capacity.reflect(mind, job.now)
        result = await self.handlers[job.kind].run(job, mind)
        # the mind carries on by rule when the model fails; the screen and the run still say so
        failed = _failures(mind.stats) > fails_before
        return result, insights, (mind.last_error if failed else None)

    def _view(self, job: Job) -> WorldView | None:
        """What the resident knew of the world when the decision was asked (with its place picker)."""
        if "view" not in job.args:
            return None
        return self.perceiver.with_ground(job.resident, view_from_dict(job.args["view"]))

    async def _run_next(self, job: Job, mind: MindPort) -> Action:
        return await mind.next_action(job.now, self._view(job))

    async def _run_ahead(self, job: Job, mind: MindPort) -> int:
        at = job.args.get("run_out")
        return await mind.decide_ahead(job.now, self._view(job), datetime.fromisoformat(at) if at else None)

    async def _run_react(self, job: Job, mind: MindPort) -> Reaction:
        hazard = job.args.get("hazard")
        return await mind.react(job.now, job.args["percept"], self._view(job), urgent=bool(job.args.get("urgent")),
                                allowance=Allowance.from_dict(job.args.get("allowance")),
                                hazard=Hazard.from_dict(hazard) if hazard else None)

    def _apply_next(self, job: Job, result: Action, res: TickResult, now: datetime) -> None:
        r = self.core.residents[job.resident]
        self.walker.set_action(r, result, res, now)
        # set_action counted a model-made action; a rule's answer (asleep...) counts no lag
        self.settle_need(r, now, answered=False)

    def _apply_react(self, job: Job, result: Reaction, res: TickResult, now: datetime) -> None:
        r = self.core.residents[job.resident]
        self.apply_reaction(r, result, res, now)
        self.settle_need(r, now, answered=True)  # to carry on is the model's decision too

    def _carry_on(self, job: Job, r: Resident, res: TickResult) -> None:
        """No answer: the resident carries on with its routine (rule-based, not a fake answer)."""
        self.walker.need_decision(r, False)
        self.routine(r, self.core.clock.now, res)
        self.settle_need(r, self.core.clock.now, answered=False)

    def _broke_off(self, job: Job, r: Resident, res: TickResult) -> None:
        self.talks.end_talk(job.args.get("conversation", ""), self.core.clock.now, res,
                            reason="the conversation broke off")

    def apply_finished(self, res: TickResult, *, only_player: bool = False) -> None:
        done = [j for j in self.board.jobs.values() if j.task is not None and j.task.done()]
        if self.core.lockstep:
            done = [j for j in done if j.ready_at <= self.core.step_no]
        if only_player:
            done = [j for j in done if j.kind in (JobKind.SAY, JobKind.LISTEN) and
                    (t := self.talks.talks.get(j.args.get("conversation", ""))) is not None and t.conv.with_player]
        for job in sorted(done, key=lambda j: (j.ready_at, j.resident, j.seq)):
            if self.board.jobs.get(job.resident) is not job:
                continue
            del self.board.jobs[job.resident]
            task = job.task
            assert task is not None
            if task.cancelled():
                continue
            err = task.exception()
            if err is not None and job.args.get("dropped"):
                continue
            if err is not None:
                self.job_failed(job, err, res)
                continue
            result, insights, model_error = task.result()
            dropped = bool(job.args.get("dropped"))
            if model_error and not dropped:
                self.core.error(f"model: {model_error}", res)
            for ins in insights:
                res.log.append(LogLine("reflection", f"{job.resident} realises: {ins}", job.resident))
            if not dropped:
                if job.kind == JobKind.AHEAD and not self.core.lockstep:
                    self.lookahead.took.append((self.core.clock.now - job.now).total_seconds() / 60)
                self.apply(job, result, res)

    def job_failed(self, job: Job, err: BaseException, res: TickResult) -> None:
        r = self.core.residents.get(job.resident)
        kind = "model" if isinstance(err, LLMError) else type(err).__name__
        self.core.error(f"{job.resident}: {job.kind} failed ({kind}): {err}", res)
        if r is None:  # a job of someone not in town (a damaged save): nothing more to undo
            return
        failed = self.handlers[job.kind].failed
        if failed is not None:
            failed(job, r, res)

    def apply(self, job: Job, result: object, res: TickResult) -> None:
        r = self.core.residents[job.resident]
        now = self.core.clock.now
        if job.resident == self.core.embodied and job.kind not in (JobKind.SAY, JobKind.SIDE, JobKind.CONVERSE):
            return  # the player drives it now: its mind's decisions are dropped (a talk checks its own)
        plan = self.core.minds[r.name].plan
        if isinstance(plan, DayPlan) and plan is not r.plan:
            if r.plan is None or r.plan.day != plan.day:
                res.log.append(LogLine("plan", f"{r.name} planned day {plan.day}", r.name))
            else:
                res.log.append(LogLine("plan", f"{r.name} changed their plan", r.name))
            r.plan = plan
        apply = self.handlers[job.kind].apply
        if apply is not None:
            apply(job, result, res, now)

    def settle_need(self, r: Resident, now: datetime, *, answered: bool) -> None:
        """A decision job is over: the resident's open need is closed unless another decision is
        still to come (its action ended meanwhile, or it saw something new).  Left open, a need
        nobody works on held the play clock slowed "for the model" with nothing in flight."""
        if r.name in self.board.jobs or r.needs_decision or r.salient:
            return
        if answered:
            self.core.ledger.answered(r.name, now)
        else:
            self.core.ledger.drop(r.name)

    def apply_reaction(self, r: Resident, rx: Reaction, res: TickResult, now: datetime) -> None:
        if rx.kind == "continue" or r.conversation:
            return
        if rx.kind == "talk" and rx.with_whom:
            if self.talks.start_talk(r.name, rx.with_whom, now, res, reach=PERCEIVE_RADIUS):
                return
            if self.seeker.start(r, rx.with_whom, now, res):
                return
        if rx.new_action is not None:
            res.log.append(LogLine("react", f"{r.name} reacts: {rx.new_action.description}", r.name))
            self.walker.set_action(r, rx.new_action, res, now)
        else:
            self.walker.need_decision(r)


def _failures(stats: Mapping[str, int] | None) -> int:
    """How many failures a mind has counted (its ``stats`` has one ``error_<what>`` entry each)."""
    if not stats:
        return 0
    try:
        return sum(int(n) for k, n in stats.items() if str(k).startswith("error_"))
    except (TypeError, ValueError, AttributeError):
        return 0


async def _nothing(job: Job, mind: MindPort) -> None:
    """An ``observe`` job: its observations are all it brings."""
    return None
