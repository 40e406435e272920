"""Lanes of decisions: one model-backed job per resident at a time (observations first, then the
decision), started as asyncio tasks and applied at tick boundaries in a fixed order, so the same
answers give the same town.  A part of ``Engine``; see its module docstring for lockstep."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

from game.engine.events import LogLine, TickResult, Utterance
from game.engine.api import MindPort
from game.engine.state import Job, Resident
from game.engine.tuning import AHEAD, AHEAD_MAX, OBSERVE_BATCH, OBSERVE_MAX_AGE, PERCEIVE_RADIUS, WAKE_AHEAD
from game.llm.api import LLMError, Priority
from game.mind.view import Allowance, Conversation, DayPlan, Hazard, Line, Reaction, WorldView


class Lanes:
    """Owns ``Engine.jobs`` and ``Resident.needs_decision``: who is asked what, and what comes of it."""

    def _decide(self, r: Resident, now: datetime, res: TickResult) -> None:
        name = r.name
        if r.conversation:
            self._ahead_in_talk(r, now)
            return
        if name == self.embodied:
            self._maybe_observe(r, now, force=False)
            return
        if r.seeking and self._go_on_seeking(r, now, res):
            self._maybe_observe(r, now, force=False)
            return
        ended = r.action_ended(now)
        if ended and not r.needs_decision:
            r.needs_decision = True
        if r.needs_decision or r.salient:
            self.ledger.need(name, now)
        job = self.jobs.get(name)
        busy = job is not None
        if busy:
            if (self.lockstep and job.kind == "ahead" and job.ready_at > self.step_no
                    and (ended or r.salient)):
                # the lane is wanted now: the steps in hand ended sooner than the look ahead
                # counted on (a reaction or a talk took their time) or something was seen.  The
                # window asked ahead is due at once (a fixed tick still), or its resident would
                # live by routine, steps in hand, until the tick it was due.
                job.ready_at = self.step_no
            if ended:  # keep busy with the routine while the model thinks
                self._routine(r, now, res)
                r.needs_decision = True
            return
        if r.salient:
            text = "; ".join(r.salient)
            args: dict[str, Any] = {"percept": text, "urgent": r.urgent}
            hazard = self._hazard_for(r, now)  # a fire among them: its reaction mends it (hazards.py)
            if hazard is not None:
                args["hazard"] = hazard.to_dict()
            allowance = None if r.urgent or hazard else self._allowance(r, now)  # (capacity.py; news needs none)
            if allowance is not None:
                args["allowance"] = allowance.to_dict()
            self._ask(r, "react", now, args)
            r.salient, r.urgent = [], False
            return
        if r.needs_decision:
            # the mind plans the day itself when the next action needs a plan
            self._ask(r, "next", now, {})
            if ended:
                self._routine(r, now, res)
                r.needs_decision = True
            return
        if not self._maybe_ahead(r, now):
            self._maybe_observe(r, now, force=False)

    def _ahead_in_talk(self, r: Resident, now: datetime) -> None:
        """While the lines of a written talk are said, its residents' lanes are free: the next
        window is asked then as at any time (``_maybe_ahead``), so that one whose steps ran out
        during the talk comes out of it into the model's next step, not into its routine while
        the window is written (after a talk, 2-4 minutes of routine in a measured morning).

        In a talk by lines (someone joined) a resident's lane is free while the others say
        theirs: the window is asked when its own turn is two lines away or more (a talk of three
        or more, just after it spoke), so its next line does not wait behind the window; in a
        measured morning four residents came out of a 28-minute talk by lines into 7-13 minutes
        of routine each.  Not with the player in the talk: its replies come first."""
        if r.name in self.jobs or r.name == self.embodied:
            return
        talk = self.talks.get(r.conversation or "")
        if talk is None:
            return
        if talk.mode == "script":
            if not (talk.script or talk.next_at is not None):
                return
        elif talk.mode == "lines":
            parts = talk.conv.participants
            if (talk.conv.with_player or any(self._controlled(p) for p in parts) or r.name not in parts
                    or (parts.index(r.name) - talk.turn) % len(parts) < 2):
                return
        else:
            return
        self._maybe_ahead(r, now)

    def _maybe_ahead(self, r: Resident, now: datetime) -> bool:
        """Ask for the next window of steps while the last decided one still runs (``ahead``),
        so the step after it comes from the queue with no wait; the observations go with it.
        In real time only, unless ``Engine.ahead`` says otherwise: in lockstep the clock waits for
        every decision anyway, so no step is lived by routine for want of one, and a window asked
        early is only more calls (a replan throws it away)."""
        lead = self.ahead if self.ahead is not None else (timedelta(0) if self.lockstep else self._real_lead())
        if lead <= timedelta(0):
            return False
        mind = self.minds[r.name]
        at = mind.steps_run_out(now)
        if at is not None and mind.asleep_at(now):
            # the day plan and its first window before waking: three calls in a row, and a
            # sleeper's time is free (asleep is not waking time, and nothing is lived by routine)
            lead = max(lead, WAKE_AHEAD)
        if at is None or at - now > lead:
            return False
        job = self._ask(r, "ahead", now, {"run_out": at.isoformat()})
        if self.lockstep:
            # its answer is applied when the steps run out, not a game minute after it was
            # asked: the clock waits for it only if it is not done by then, so it is written
            # while the clock waits for others' decisions (a fixed tick: the same town whatever
            # the timing).  The lane is busy until then: a sight waits at most ``lead``.
            job.ready_at = max(job.ready_at, self.step_no + self.clock.steps_until(at) - 1)  # (before
            # the decisions of the step at which they run out)
        return True

    def _real_lead(self) -> timedelta:
        """How early the next window is asked in real time: ``AHEAD``, or half as much again as the
        slowest of the last windows asked ahead took to come (in game minutes, so the clock's rate,
        its slowing for the model and the machine's speed are all in it), up to ``AHEAD_MAX``.  At
        normal pace on two slow cores a window asked 30 game minutes ahead came up to 24 minutes
        late when four residents' windows ran out together."""
        if not self.ahead_took:
            return AHEAD
        return min(AHEAD_MAX, max(AHEAD, timedelta(minutes=1.5 * max(self.ahead_took))))

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
        if kind in ("next", "react", "ahead"):
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
        fails_before = _failures(mind.stats)
        result, insights = await self._run_mind(job, mind)
        # the mind carries on by rule when the model fails; the screen and the run still say so
        failed = _failures(mind.stats) > fails_before
        return result, insights, (mind.last_error if failed else None)

    async def _run_mind(self, job: Job, mind: MindPort) -> tuple[Any, list[str]]:
        insights: list[str] = []
        if job.observations:
            await mind.observe(job.now, list(job.observations))
            insights = list(await mind.reflect_if_due(job.now) or [])
        view = self.with_ground(job.resident, _view_from_dict(job.args["view"])) if "view" in job.args else None
        result: Any = None
        if job.kind == "next":
            result = await mind.next_action(job.now, view)
        elif job.kind == "ahead":
            at = job.args.get("run_out")
            result = await mind.decide_ahead(job.now, view, datetime.fromisoformat(at) if at else None)
        elif job.kind == "react":
            hazard = job.args.get("hazard")
            result = await mind.react(job.now, job.args["percept"], view, urgent=bool(job.args.get("urgent")),
                                      allowance=Allowance.from_dict(job.args.get("allowance")),
                                      hazard=Hazard.from_dict(hazard) if hazard else None)
        elif job.kind == "say":
            result = await self._say(job, mind)
        elif job.kind == "listen":
            result = await self._listen(job, mind)
        elif job.kind == "side":
            result = await self._side(job, mind)
        elif job.kind == "converse":
            result = await self._converse(job, mind)
        return result, insights

    async def _listen(self, job: Job, mind: MindPort) -> bool:
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

    async def _say(self, job: Job, mind: MindPort) -> Line:
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
        if conv.with_player:
            text = ""
            line: Line | None = None
            async for piece in mind.say_stream(job.now, conv, listeners, priority=priority):
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
        return await mind.say(job.now, conv, listeners, priority=priority)

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
                if job.kind == "ahead" and not self.lockstep:
                    self.ahead_took.append((self.clock.now - job.now).total_seconds() / 60)
                self._apply(job, result, res)

    def _job_failed(self, job: Job, err: BaseException, res: TickResult) -> None:
        r = self.residents.get(job.resident)
        kind = "model" if isinstance(err, LLMError) else type(err).__name__
        self._error(f"{job.resident}: {job.kind} failed ({kind}): {err}", res)
        if r is None:  # a job of someone not in town (a damaged save): nothing more to undo
            return
        if job.kind in ("say", "side", "converse"):
            self._end_talk(job.args.get("conversation", ""), self.clock.now, res,
                           reason="the conversation broke off")
        elif job.kind in ("next", "react"):
            # no answer: the resident carries on with its routine (rule-based, not a fake answer)
            r.needs_decision = False
            self._routine(r, self.clock.now, res)
            self._settle_need(r, self.clock.now, answered=False)

    def _apply(self, job: Job, result: Any, res: TickResult) -> None:
        r = self.residents[job.resident]
        now = self.clock.now
        if job.resident == self.embodied and job.kind not in ("say", "side", "converse"):
            return  # the player drives it now: its mind's decisions are dropped (a talk checks its own)
        plan = self.minds[r.name].plan
        if isinstance(plan, DayPlan) and plan is not r.plan:
            if r.plan is None or r.plan.day != plan.day:
                res.log.append(LogLine("plan", f"{r.name} planned day {plan.day}", r.name))
            else:
                res.log.append(LogLine("plan", f"{r.name} changed their plan", r.name))
            r.plan = plan
        if job.kind == "next":
            self._set_action(r, result, res, now)
            # _set_action counted a model-made action; a rule's answer (asleep...) counts no lag
            self._settle_need(r, now, answered=False)
        elif job.kind == "react":
            self._apply_reaction(r, result, res, now)
            self._settle_need(r, now, answered=True)  # to carry on is the model's decision too
        elif job.kind == "say":
            self._apply_line(job, result, res, now)
        elif job.kind == "side":
            self._apply_side(job, result)
        elif job.kind == "converse":
            self._apply_script(job, result, res, now)

    def _settle_need(self, r: Resident, now: datetime, *, answered: bool) -> None:
        """A decision job is over: the resident's open need is closed unless another decision is
        still to come (its action ended meanwhile, or it saw something new).  Left open, a need
        nobody works on held the play clock slowed "for the model" with nothing in flight."""
        if r.name in self.jobs or r.needs_decision or r.salient:
            return
        if answered:
            self.ledger.answered(r.name, now)
        else:
            self.ledger.drop(r.name)

    def _apply_reaction(self, r: Resident, rx: Reaction, res: TickResult, now: datetime) -> None:
        if rx.kind == "continue" or r.conversation:
            return
        if rx.kind == "talk" and rx.with_whom:
            if self._start_talk(r.name, rx.with_whom, now, res, reach=PERCEIVE_RADIUS):
                return
            if self._seek(r, rx.with_whom, now, res):
                return
        if rx.new_action is not None:
            res.log.append(LogLine("react", f"{r.name} reacts: {rx.new_action.description}", r.name))
            self._set_action(r, rx.new_action, res, now)
        else:
            r.needs_decision = True


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
