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

from game.engine.events import Bubble, LogLine, TickResult, Utterance
from game.engine.api import MindPort
from game.engine.state import MAX_TALK_LINES, TALK_JOBS, Job, Resident, Talk
from game.engine.tuning import (LINE_GAP, PLAYER_SILENCE, SEEK_RADIUS, SEEK_TIME, TALK_COOLDOWN, TALK_RANGE,
                                chebyshev)
from game.mind.factcheck import vet_line
from game.mind.view import Action, Conversation, Line, Script

log = logging.getLogger(__name__)


class Talks:
    """Owns ``Engine.talks``, ``finished_talks`` and ``Resident.conversation``/``last_talk``."""

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
            name = self._partner(ra, w, now)
            if name is None:
                continue
            pos = self._actors().get(name)
            if pos is None or chebyshev(pos, ra.pos) > reach:
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

    def _partner(self, r: Resident, words: str, now: datetime) -> str | None:
        """The one ``words`` name, if ``r`` may talk with them now: someone else, awake, and not
        talked with within ``TALK_COOLDOWN``."""
        name = self._match_name(words)
        if name is None or name == r.name or not self._free_to_talk(name):
            return None
        last = r.last_talk.get(name)
        return None if last is not None and now - last < TALK_COOLDOWN else name

    def _seek(self, r: Resident, with_whom: str, now: datetime, res: TickResult) -> bool:
        """``r`` decided to talk with someone no longer within reach (they walked off while it
        thought): it goes after them, as the model's decision ("going to talk with Rosa"), and the
        talk starts when it is within talking range (``_go_on_seeking``).  Without it, at play pace
        no reaction's talk ever started: the default town chose to talk 14 times by noon, none
        became a conversation (docs/ENGINE.md)."""
        name = self._partner(r, with_whom.split(",")[0], now)
        if name is None or name not in self.residents:
            return False
        pos = self._actors().get(name)
        if pos is None or chebyshev(pos, r.pos) > SEEK_RADIUS:
            return False
        act = Action(description=f"going to talk with {name}", emoji="\U0001F6B6",
                     address=self._address_at(pos) or (r.action.address if r.action else ""),
                     duration_min=int(SEEK_TIME.total_seconds() // 60), start=now, source="reaction")
        self._set_action(r, act, res, now)
        r.seeking, r.seek_until = name, now + SEEK_TIME
        self._approach(r, [name])
        res.log.append(LogLine("react", f"{r.name} goes to talk with {name}", r.name))
        return True

    def _go_on_seeking(self, r: Resident, now: datetime, res: TickResult) -> bool:
        """One tick of walking after the one ``r`` wants to talk with: the talk starts once within
        range; it gives up (and decides again) when its time is up or the other cannot talk (asleep
        now, or, found within range, in a talk it may not join: ``_start_talk`` says).
        True while it goes on walking (nothing else to decide this tick)."""
        name = r.seeking
        assert name is not None
        pos = self._actors().get(name)
        gone = pos is None or r.seek_until is None or now >= r.seek_until or not self._free_to_talk(name)
        if not gone and chebyshev(pos, r.pos) <= TALK_RANGE:
            r.seeking = r.seek_until = None
            if self._start_talk(r.name, name, now, res, reach=TALK_RANGE):
                return True
            gone = True
        if gone:
            r.seeking = r.seek_until = None
            r.needs_decision = True
            return False
        if not r.path or chebyshev(r.path[-1], pos) > 2:  # they moved on: after them
            self._approach(r, [name])
        return True

    def _join_talk(self, name: str, talk: Talk, now: datetime, res: TickResult) -> bool:
        self._by_lines(talk)  # a script written for the others has no part for the one who joins
        talk.conv.participants.append(name)
        self._enter_talk(name, talk.conv.id, talk.conv, now, res)
        res.log.append(LogLine("conversation", f"{name} joins the conversation", name))
        return True

    def _enter_talk(self, name: str, cid: str, conv: Conversation, now: datetime, res: TickResult) -> None:
        r = self.residents.get(name)
        if r is None:
            return  # the visitor
        if self.jobs.get(name) is not None and self.jobs[name].kind not in TALK_JOBS:
            self._cancel(name)
        r.conversation = cid
        r.path = []
        r.seeking = r.seek_until = None
        self.ledger.answered(name, now)  # to talk was the model's decision (or the player's)
        others = [p for p in conv.participants if p != name]
        act = Action(description=f"talking with {', '.join(others)}", emoji="\U0001F4AC",
                     address=self._address_at(r.pos), duration_min=10, start=now, source="rule")
        old = r.action
        r.action = act
        if old is None or old.description != act.description:
            res.bubbles.append(Bubble(name, act.emoji, act.description))

    def _controlled(self, name: str) -> bool:
        return name == self.embodied or (self.player is not None and name == self.player.name)

    def _by_lines(self, talk: Talk) -> None:
        """The talk goes on one line per job from here (someone joined, the player took a part):
        what was written of it and not said yet is dropped, and a script being written is not
        waited for (its answer is then ignored)."""
        if talk.mode != "lines":
            talk.mode, talk.script, talk.sides, talk.next_at = "lines", [], {}, None
            talk.conv.importance = None  # the lines from here on were not rated with the script
            for name in talk.conv.participants:
                job = self.jobs.get(name)
                if job is not None and job.kind in ("side", "converse") and job.args.get("conversation") == talk.conv.id:
                    self._cancel(name)

    def _scripted(self, talk: Talk) -> bool:
        """Whether the talk is written whole (``Mind.converse``): residents only, from its start."""
        if talk.mode == "":
            residents_only = not talk.conv.with_player and not any(self._controlled(p) for p in talk.conv.participants)
            talk.mode = "script" if residents_only and not talk.conv.lines else "lines"
        elif talk.mode == "script" and any(self._controlled(p) for p in talk.conv.participants):
            self._by_lines(talk)  # the player embodied one of them
        return talk.mode == "script"

    def _run_script(self, cid: str, talk: Talk, now: datetime) -> None:
        """One tick of a scripted talk: each other asks its own mind for its part (``side``), then
        the one who started asks for the whole talk (``converse``); its lines are said one a
        ``LINE_GAP`` and the talk ends after the last."""
        if talk.script:
            if talk.next_at is None or now >= talk.next_at:
                self._say_scripted(talk, now, self._out)
            return
        if talk.next_at is not None:  # the script is said
            self._end_talk(cid, now, self._out)
            return
        first, *others = talk.conv.participants
        waiting = False
        for name in others:
            if name in talk.sides:
                continue
            waiting = True
            r = self.residents.get(name)
            if r is not None and name not in self.jobs and r.conversation == cid:
                self._ask(r, "side", now, {"conversation": cid, "about": first})
        r = self.residents.get(first)
        if not waiting and r is not None and first not in self.jobs and r.conversation == cid:
            # who is in it, as when asked (like the sides): someone who joins while the job waits
            # for its turn turns the talk into lines and its answer is ignored; read when the job
            # ran, the prompt named the newcomer without their side, and a replay, whose jobs run
            # at other moments than the recorded run's, asked what the recording did not hold
            self._ask(r, "converse", now, {"conversation": cid, "sides": dict(talk.sides),
                                           "participants": list(talk.conv.participants)})

    def _vet(self, conv: Conversation, speaker: str, text: str, now: datetime, *,
             may_move: bool = True) -> tuple[str, str]:
        """A line as it may be said (mind/factcheck.py): a line about a fact goes to the one in the
        talk who holds it, with the fact's place and hours; those who had not heard it hear it now,
        from the speaker, in the town's words.  The player's words may tell a new fact of theirs."""
        books = {p: self.minds[p].facts for p in conv.participants if p in self.minds}
        if speaker not in self.minds and books:  # the visitor: "I'm having a party at the pub at 8"
            for p in books:
                self.minds[p].read_fact(text, now, host=speaker, source=speaker)
        v = vet_line(speaker, text, conv.participants, books, now, self.town_names, may_move=may_move)
        if v.fixes:
            self._fact_fixes += len(v.fixes)
            log.info("line checked against the facts: %s (%r -> %r)", "; ".join(v.fixes), text, v.text)
        if v.fact is not None and v.told:
            for p in v.told:
                self.minds[p].hear_fact(v.fact, v.speaker, now)
                if v.fact.place and p in self.spatial:
                    self._learn(p, v.fact.place)  # told where it is, they know the place
            if v.speaker in self.minds:
                self.minds[v.speaker].facts.told_to(v.fact.key, v.told)
        return v.speaker, v.text

    def _say_scripted(self, talk: Talk, now: datetime, res: TickResult) -> None:
        speaker, text = talk.script.pop(0)
        conv = talk.conv
        speaker, text = self._vet(conv, speaker, text, now)
        conv.add(speaker, text)
        talk.turn += 1
        talk.last_at = now
        talk.next_at = now + LINE_GAP
        listeners = [p for p in conv.participants if p != speaker]
        res.utterances.append(Utterance(conv.id, speaker, ", ".join(listeners), text, final=True))

    def _apply_side(self, job: Job, side: str) -> None:
        talk = self.talks.get(job.args.get("conversation", ""))
        if talk is not None and talk.mode == "script":
            talk.sides[job.resident] = side

    def _apply_script(self, job: Job, script: Script, res: TickResult, now: datetime) -> None:
        cid = job.args.get("conversation", "")
        talk = self.talks.get(cid)
        if talk is None or talk.ended or talk.mode != "script" or talk.script or talk.next_at is not None:
            return
        lines = [(s, t) for s, t in script.lines if s in talk.conv.participants][:talk.max_lines]
        if not lines:
            if script.source == "error":
                why = self.minds[job.resident].last_error or "the model failed"
                self._error(f"{job.resident} could not talk: {why}", res)
            self._end_talk(cid, now, res, reason=script.reason or f"{job.resident} had nothing to say")
            return
        talk.script = lines
        talk.conv.importance = script.importance  # (rated with the lines: none said yet)
        self._say_scripted(talk, now, res)

    async def _side(self, job: Job, mind: MindPort) -> str:
        if job.args.get("conversation") not in self.talks:
            raise asyncio.CancelledError
        return await mind.talk_side(job.now, [str(job.args.get("about", ""))])

    async def _converse(self, job: Job, mind: MindPort) -> Script:
        talk = self.talks.get(job.args["conversation"])
        if talk is None:
            raise asyncio.CancelledError
        c = talk.conv
        who = [str(p) for p in job.args.get("participants") or c.participants]  # (a job saved before: now's)
        conv = Conversation(id=c.id, participants=who, place=c.place, lines=list(c.lines),
                            started=c.started, with_player=c.with_player)
        sides = {str(k): str(v) for k, v in (job.args.get("sides") or {}).items()}
        return await mind.converse(job.now, conv, sides)

    def _run_talks(self, now: datetime) -> None:
        for cid in sorted(self.talks):
            talk = self.talks[cid]
            if talk.ended:
                continue
            if self._scripted(talk):
                self._run_script(cid, talk, now)
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
            if r is None or self._controlled(name) or name in self.jobs or talk.listened.get(name) == state:
                continue
            talk.listened[name] = state
            args = {"conversation": talk.conv.id}
            if talk.typed and self._controlled(speaker):
                args.update(typed=talk.typed, typed_by=speaker)
            job = self._ask(r, "listen", now, args)
            job.ready_at = self.step_no + 1

    def _apply_line(self, job: Job, line: Line, res: TickResult, now: datetime) -> None:
        cid = job.args["conversation"]
        talk = self.talks.get(cid)
        if talk is None or talk.ended:
            return
        conv = talk.conv
        listeners = [p for p in conv.participants if p != job.resident]
        if not line.text.strip():
            if line.source == "error":
                why = self.minds[job.resident].last_error or "the model failed"
                self._error(f"{job.resident} could not answer: {why}", res)
            self._end_talk(cid, now, res, reason=getattr(line, "reason", "")
                           or f"{job.resident} had nothing more to say")
            return
        _, text = self._vet(conv, job.resident, line.text, now, may_move=False)
        conv.add(job.resident, text)
        talk.turn += 1
        talk.last_at = now
        res.utterances.append(Utterance(cid, job.resident, ", ".join(listeners), text, final=True))
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
            if job is not None and job.kind in TALK_JOBS and job.args.get("conversation") == cid:
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
