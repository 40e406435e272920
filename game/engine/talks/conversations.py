"""Conversations: residents who decide to talk walk up and talk.  A talk of residents only is
written whole in one call of the one who started it (each other brings its part: ``side`` jobs) and
its lines are said one a game minute (``LINE_GAP``); the player's talk goes one line per job, waits
for the player, and the residents get their reply ready while the player types.  A talk ends when
it runs long or its script is said, someone leaves or falls silent, and all remember it.  A part of
``Engine``."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from game.engine.api import MindPort
from game.engine.decisions.jobs import JobBoard
from game.engine.events import Bubble, LogLine, TickResult, Utterance
from game.engine.state import MAX_TALK_LINES, Job, JobArgs, JobKind, Resident, Talk
from game.engine.talks.cuts import cut_for_a_claim, goes_on, withhold_reply, withhold_rest
from game.engine.talks.facts import TalkFacts
from game.engine.talks.joining import by_lines, sit_in
from game.engine.towncore import TownCore
from game.engine.tuning import GOES_ON_WAIT, LINE_GAP, PLAYER_SILENCE, TALK_COOLDOWN, TALK_RANGE, chebyshev
from game.engine.walking import Walker
from game.llm.api import Priority
from game.mind.view import Action, Conversation, Line, Script

log = logging.getLogger(__name__)

KEPT_TALKS = 200  # finished talks kept in the engine and its saves: a whole day of a town, for `town audit`


class Conversations:
    """Owns ``talks`` (id -> the talk going on), ``finished_talks`` (the last ``KEPT_TALKS``: a day of a town, for
    `town audit`), ``seq`` (the last talk's number), ``listening`` (resident -> the beginning of its reply to
    the player, still being made) and ``heard``, and ``Resident.conversation`` and ``last_talk`` (it ends a
    walk after someone, ``seeking``, when a talk starts). Takes the core, the job board (each line, part or
    script is a job), the walker (who talks stops, or walks over) and the facts (each line is checked against
    them).
    """

    def __init__(self, core: TownCore, board: JobBoard, walker: Walker, facts: TalkFacts) -> None:
        self.core = core
        self.board = board
        self.walker = walker
        self.facts = facts
        self.talks: dict[str, Talk] = {}
        self.finished_talks: list[Conversation] = []  # kept for saves and the report (bounded)
        self.seq = 0
        # resident -> its ``listen`` task still running when the player spoke: the reply waits for it
        self.listening: dict[str, asyncio.Task[object]] = {}
        # set when a reply to the player has new words: a screen between ticks polls at once
        self.heard = asyncio.Event()

    def free_to_talk(self, name: str) -> bool:
        """The visitor always is; a resident when awake (``Resident.asleep``)."""
        if self.core.player is not None and name == self.core.player.name:
            return True
        r = self.core.residents.get(name)
        return r is not None and not r.asleep

    def start_talk(self, a: str, with_whom: str, now: datetime, res: TickResult,
                   reach: int = TALK_RANGE) -> bool:
        """Start a conversation of ``a`` with the named people within ``reach`` tiles (a resident who
        decided to talk to someone it sees walks over to them first)."""
        ra = self.core.residents[a]
        wanted = [w.strip() for w in with_whom.split(",") if w.strip()]
        others: list[str] = []
        for w in wanted:
            name = self.partner(ra, w, now)
            if name is None:
                continue
            pos = self.core.position(name)
            if pos is None or chebyshev(pos, ra.pos) > reach:
                continue
            other = self.core.residents.get(name)
            if other is not None and other.conversation:
                talk = self.talks.get(other.conversation)
                if talk is not None and not talk.conv.with_player and len(talk.conv.participants) < 4:
                    return self.join(a, talk, now, res)
                continue
            others.append(name)
        if not others:
            return False
        with_player = self.core.player is not None and self.core.player.name in others or (
            self.core.embodied is not None and self.core.embodied in others)
        self.seq += 1
        cid = f"c{self.seq}"
        conv = Conversation(id=cid, participants=[a, *others], place=self.core.address_at(ra.pos),
                            started=now, with_player=bool(with_player))
        self.talks[cid] = Talk(conv=conv, max_lines=MAX_TALK_LINES if not with_player else 40)
        for n in conv.participants:
            self.enter(n, cid, conv, now, res)
        self.walker.approach(ra, others)
        res.log.append(LogLine("conversation", f"{a} starts talking with {', '.join(others)}", a))
        return True

    def partner(self, r: Resident, words: str, now: datetime) -> str | None:
        """The one ``words`` name, if ``r`` may talk with them now: someone else, awake, and not
        talked with within ``TALK_COOLDOWN``."""
        name = self.core.match_name(words)
        if name is None or name == r.name or not self.free_to_talk(name):
            return None
        last = r.last_talk.get(name)
        return None if last is not None and now - last < TALK_COOLDOWN else name

    def join(self, name: str, talk: Talk, now: datetime, res: TickResult) -> bool:
        if not self.core.controlled(name) and self.scripted(talk):
            self.sit_in(name, talk)
        else:
            self.by_lines(talk)  # a script written for the others has no part for the one who joins
        talk.conv.participants.append(name)
        talk.conv.joined[name] = len(talk.conv.lines)  # (what was said before it came is not heard)
        self.enter(name, talk.conv.id, talk.conv, now, res)
        res.log.append(LogLine("conversation", f"{name} joins the conversation", name))
        return True

    def enter(self, name: str, cid: str, conv: Conversation, now: datetime, res: TickResult) -> None:
        r = self.core.residents.get(name)
        if r is None:
            return  # the visitor
        if self.board.jobs.get(name) is not None and not self.board.jobs[name].kind.of_talk:
            self.board.cancel(name)
        r.conversation = cid
        self.walker.stop_pursuit(r)
        self.core.ledger.answered(name, now)  # to talk was the model's decision (or the player's)
        others = [p for p in conv.participants if p != name]
        act = Action(description=f"talking with {', '.join(others)}", emoji="\U0001F4AC",
                     address=self.core.address_at(r.pos), duration_min=10, start=now, source="rule")
        old = self.walker.take_on(r, act, stop=True)
        if old is None or old.description != act.description:
            res.bubbles.append(Bubble(name, act.emoji, act.description))

    def sit_in(self, name: str, talk: Talk) -> None:
        sit_in(name, talk, self.board)

    def by_lines(self, talk: Talk) -> None:
        by_lines(talk, self.board)

    def scripted(self, talk: Talk) -> bool:
        """Whether the talk is written whole (``Mind.converse``): residents only, from its start."""
        if talk.mode == "":
            residents_only = not talk.conv.with_player and not any(
                self.core.controlled(p) for p in talk.conv.participants)
            talk.mode = "script" if residents_only and not talk.conv.lines else "lines"
        elif talk.mode == "script" and any(self.core.controlled(p) for p in talk.conv.participants):
            self.by_lines(talk)  # the player embodied one of them
        return talk.mode == "script"

    def run_script(self, cid: str, talk: Talk, now: datetime) -> None:
        """One tick of a scripted talk: each other asks its own mind for its part (``side``), then
        the one who started asks for the whole talk (``converse``); its lines are said one a
        ``LINE_GAP`` and the talk ends after the last."""
        if talk.script:
            if talk.next_at is None or now >= talk.next_at:
                self.say_scripted(talk, now, self.core.out)
            return
        first, *others = talk.conv.participants
        if talk.next_at is not None and not goes_on(talk):  # the script is said (and its rest, if asked)
            if talk.goes_on != "asked" or first not in self.board.jobs or now - talk.next_at > GOES_ON_WAIT:
                self.end_talk(cid, now, self.core.out)  # (its rest not written in time: the job goes with it)
            return
        waiting = False
        for name in others:
            if name in talk.sides:
                continue
            waiting = True
            r = self.core.residents.get(name)
            if r is not None and name not in self.board.jobs and r.conversation == cid:
                self.board.ask(r, JobKind.SIDE, now, {"conversation": cid, "about": first})
        r = self.core.residents.get(first)
        if not waiting and r is not None and first not in self.board.jobs and r.conversation == cid:
            # who is in it, as when asked (like the sides): someone who joins while the job waits
            # for its turn turns the talk into lines and its answer is ignored; read when the job
            # ran, the prompt named the newcomer without their side, and a replay, whose jobs run
            # at other moments than the recorded run's, asked what the recording did not hold
            self.board.ask(r, JobKind.CONVERSE, now, {"conversation": cid, "sides": dict(talk.sides),
                                           "participants": list(talk.conv.participants)})

    def say_scripted(self, talk: Talk, now: datetime, res: TickResult) -> None:
        speaker, written = talk.script.pop(0)
        conv = talk.conv
        speaker, text = self.facts.vet(conv, speaker, written, now)
        if text and talk.script and cut_for_a_claim(written, text, conv.checks.get(len(conv.lines), [])):
            # the replies were written to what is not said (82f1ab1's day: Grace's "I know you're going to
            # Bluebell Cafe tomorrow morning" not said, Samuel's "I'm going to make sure to go" was)
            withhold_rest(talk, "written after a line whose claim was not said")
        if not text:  # all of it told a secret to the one it is kept from, or nothing of it held: not said
            withhold_reply(talk, speaker)
            return
        conv.add(speaker, text)
        talk.turn += 1
        talk.last_at = now
        talk.next_at = now + LINE_GAP
        listeners = [p for p in conv.participants if p != speaker]
        res.utterances.append(Utterance(conv.id, speaker, ", ".join(listeners), text, final=True))

    def apply_side(self, job: Job, side: str, res: TickResult, now: datetime) -> None:
        talk = self.talks.get(job.args.get("conversation", ""))
        if talk is not None and talk.mode == "script":
            talk.sides[job.resident] = side

    def apply_script(self, job: Job, script: Script, res: TickResult, now: datetime) -> None:
        cid = job.args.get("conversation", "")
        talk = self.talks.get(cid)
        if talk is None or talk.ended or talk.mode != "script" or talk.script or (
                talk.next_at is not None and talk.goes_on != "asked"):
            return
        lines = [(s, t) for s, t in script.lines if s in talk.conv.participants][:talk.max_lines - len(talk.conv.lines)]
        if not lines:
            if script.source == "error":
                why = self.core.minds[job.resident].last_error or "the model failed"
                self.core.error(f"{job.resident} could not talk: {why}", res)
            self.end_talk(cid, now, res, reason=script.reason or f"{job.resident} had nothing to say")
            return
        talk.script = lines
        talk.conv.importance = script.importance  # (rated with the lines: none said yet)
        self.say_scripted(talk, now, res)

    async def run_side(self, job: Job, mind: MindPort) -> str:
        if job.args.get("conversation") not in self.talks:
            raise asyncio.CancelledError
        return await mind.talk_side(job.now, [str(job.args.get("about", ""))])

    async def run_converse(self, job: Job, mind: MindPort) -> Script:
        talk = self.talks.get(job.args["conversation"])
        if talk is None:
            raise asyncio.CancelledError
        c = talk.conv
        who = [str(p) for p in job.args.get("participants") or c.participants]  # (a job saved before: now's)
        conv = Conversation(id=c.id, participants=who, place=c.place, lines=list(c.lines),
                            started=c.started, with_player=c.with_player)
        sides = {str(k): str(v) for k, v in (job.args.get("sides") or {}).items()}
        return await mind.converse(job.now, conv, sides)

    async def run_listen(self, job: Job, mind: MindPort) -> bool:
        talk = self.talks.get(job.args["conversation"])
        if talk is None:
            return False
        c = talk.conv
        conv = Conversation(id=c.id, participants=list(c.participants), place=c.place, lines=list(c.lines),
                            started=c.started, with_player=c.with_player)
        listeners = [p for p in conv.participants if p != job.resident]
        typed = str(job.args.get("typed") or "")  # what the player has typed so far: the reply's own prompt, nearly
        by = (str(job.args["typed_by"]), typed) if typed else None
        return bool(await mind.listen(job.now, conv, listeners, typed=by))

    async def run_say(self, job: Job, mind: MindPort) -> Line:
        listening = self.listening.pop(job.resident, None)
        if listening is not None and not listening.done():
            try:  # the beginning of the reply is being made: wait for it, never cancel it
                await asyncio.shield(listening)
            except asyncio.CancelledError:
                if not listening.done():
                    self.listening[job.resident] = listening  # the next reply waits for it
                raise
            except Exception as e:  # it only saves time: the reply goes on (test_part_failures.py)
                log.warning("%s: getting the reply ready failed: %s", job.resident, e)
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
            again = str(job.args.get("again") or "")
            async for piece in mind.say_stream(job.now, conv, listeners, priority=priority, again=again):
                if isinstance(piece, Line):
                    line = piece
                    break
                text += piece
                if not self.core.lockstep:  # pieces arrive when they arrive: only for the screen
                    self.core.out.utterances.append(
                        Utterance(conv.id, job.resident, ", ".join(listeners), text, final=False))
                    self.heard.set()
            self.heard.set()  # the whole line: applied by the next poll
            return line if line is not None else Line(text=text.strip())
        return await mind.say(job.now, conv, listeners, priority=priority)

    def tick(self, now: datetime) -> None:
        for cid in sorted(self.talks):
            talk = self.talks[cid]
            if talk.ended:
                continue
            if self.scripted(talk):
                self.run_script(cid, talk, now)
                continue
            speaker = talk.next_speaker()
            if self.core.controlled(speaker):
                # the player speaks for it; a resident does not wait for ever, nor for one who left
                since = talk.last_at or talk.conv.started or now
                actors = self.core.actors()
                here = actors.get(speaker)
                others = [actors[p] for p in talk.conv.participants if p != speaker and p in actors]
                if here is not None and others and min(chebyshev(here, q) for q in others) > TALK_RANGE + 2:
                    self.end_talk(cid, now, self.core.out, reason=f"{speaker} walked away")
                elif now - since >= PLAYER_SILENCE:
                    self.end_talk(cid, now, self.core.out, reason=f"{speaker} said nothing more")
                elif talk.conv.with_player:
                    self.get_ready(talk, now)
                continue
            if speaker in self.board.jobs:
                continue  # its line is being written
            r = self.core.residents.get(speaker)
            if r is None or r.conversation != cid:
                continue
            job = self.board.ask(r, JobKind.SAY, now, {"conversation": cid})
            if talk.conv.with_player:
                job.ready_at = self.core.step_no + 1  # the player is waiting: due at the next boundary

    def get_ready(self, talk: Talk, now: datetime) -> None:
        """While the player is to speak, the residents in the talk make the beginning of their next
        reply (``Mind.listen``): when it opens, after each line, and again with what the player has
        typed so far (``Typing``), each time as soon as their lane is free (so a burst of typing
        asks once, with the newest text)."""
        n = len(talk.conv.lines)
        state = (n, talk.typed)
        speaker = talk.next_speaker()
        for name in talk.conv.participants:
            r = self.core.residents.get(name)
            if r is None or self.core.controlled(name) or name in self.board.jobs or talk.listened.get(name) == state:
                continue
            talk.listened[name] = state
            args: JobArgs = {"conversation": talk.conv.id}
            if talk.typed and self.core.controlled(speaker):
                args["typed"] = talk.typed
                args["typed_by"] = speaker
            job = self.board.ask(r, JobKind.LISTEN, now, args)
            job.ready_at = self.core.step_no + 1

    def apply_line(self, job: Job, line: Line, res: TickResult, now: datetime) -> None:
        cid = job.args["conversation"]
        talk = self.talks.get(cid)
        if talk is None or talk.ended:
            return
        conv = talk.conv
        listeners = [p for p in conv.participants if p != job.resident]
        if not line.text.strip():
            if line.source == "error":
                why = self.core.minds[job.resident].last_error or "the model failed"
                self.core.error(f"{job.resident} could not answer: {why}", res)
            self.end_talk(cid, now, res, reason=line.reason or f"{job.resident} had nothing more to say")
            return
        _, text = self.facts.vet(conv, job.resident, line.text, now, may_move=False)
        if not text:  # not said (a secret, an assistant's words): the player's reply is asked again once
            why = conv.withheld[-1][2] if conv.withheld and conv.withheld[-1][0] == job.resident else "not said"
            if conv.with_player and not job.args.get("again"):  # (at once: the clock may be stopped; the
                # words shown as they came are taken back)
                self.board.ask(self.core.residents[job.resident], JobKind.SAY, now,
                               {"conversation": cid, "again": why}).ready_at = self.core.step_no + 1
                res.utterances.append(Utterance(cid, job.resident, ", ".join(listeners), "", final=False))
            else:
                self.end_talk(cid, now, res, reason=f"{job.resident} did not answer ({why})")
            return
        conv.add(job.resident, text)
        talk.turn += 1
        talk.last_at = now
        res.utterances.append(Utterance(cid, job.resident, ", ".join(listeners), text, final=True))
        if line.end or len(conv.lines) >= talk.max_lines:
            self.end_talk(cid, now, res)

    def end_talk(self, cid: str, now: datetime, res: TickResult, reason: str = "") -> None:
        talk = self.talks.pop(cid, None)
        if talk is None:
            return
        talk.ended = True
        conv = talk.conv
        for name in conv.participants:
            job = self.board.jobs.get(name)
            if job is not None and job.kind.of_talk and job.args.get("conversation") == cid:
                self.board.cancel(name)  # (a reply made ready for a talk that is over serves nothing)
            listening = self.listening.pop(name, None)
            if listening is not None and not listening.done():
                listening.cancel()
            r = self.core.residents.get(name)
            if r is None:
                continue
            r.conversation = None
            for other in conv.participants:
                if other != name:
                    r.last_talk[other] = now
            if conv.lines:
                try:  # both (all) remember it: each line others said, and their own part
                    self.core.minds[name].remember_conversation(now, conv)
                except Exception as err:  # a bug in the mind, shown (test_part_failures.py)
                    self.core.error(f"{name}: could not remember the conversation: {err}", res)
            self.walker.need_decision(r)  # re-plan from what was said
            self.walker.take_on(r, Action(description="thinking about the conversation", emoji="\U0001F4AD",
                                          address=self.core.address_at(r.pos), duration_min=1, start=now,
                                          source="rule"))
        self.finished_talks.append(conv)
        del self.finished_talks[:-KEPT_TALKS]
        who = ", ".join(conv.participants)
        res.log.append(LogLine("conversation", f"conversation of {who} ended ({len(conv.lines)} lines)"
                               + (f": {reason}" if reason else "")))
