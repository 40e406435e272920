"""Player commands: one handler each (``_HANDLERS``), done at once; their events come with the
next tick.  A command that cannot be done now raises ``CommandError`` with a message for the player.
A part of ``Engine``."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from game.engine.decisions.jobs import JobBoard
from game.engine.decisions.lanes import Lanes
from game.engine.events import (
    Bubble,
    Command,
    Embody,
    EndConversation,
    EnterAsVisitor,
    LogLine,
    Move,
    MovePlayer,
    OpenTalk,
    Release,
    SaveTown,
    SayToResident,
    SetObjectState,
    TickResult,
    Typing,
    Utterance,
    Whisper,
)
from game.engine.noticing.salience import Salience
from game.engine.state import PLAYER, JobKind, Player, Pos, Resident, Talk
from game.engine.talks.conversations import Conversations
from game.engine.talks.facts import TalkFacts
from game.engine.things import Things
from game.engine.towncore import TownCore
from game.engine.tuning import TALK_RANGE, chebyshev
from game.engine.walking import Walker
from game.errors import GameError
from game.mind.view import Action, Conversation
from game.text import one_line
from game.world.states import match_state


def player_text(text: object) -> str:
    """What the player typed, as plain one-line text (``game.text.one_line``: escape sequences,
    controls, bidi overrides and lone surrogates dropped, whitespace collapsed).  It is stored in
    minds, saved and shown, and a lone surrogate cannot be written to a save or a terminal."""
    return one_line(text)


class CommandError(GameError):
    """A player command that cannot be done now; the message is fit to show the player."""


class PlayerCommands:
    """Owns ``log``, the player commands done (with the step of each: what a replay needs), and is
    the only writer of ``core.player`` and ``core.embodied``.  Takes the core, and the parts a
    command calls: the walker, the things, the job board, the lanes, the talks, the facts (what the
    player tells), and ``save_to``
    (the engine's save, for ``SaveTown``)."""

    def __init__(self, core: TownCore, walker: Walker, things: Things, board: JobBoard, lanes: Lanes,
                 talks: Conversations, facts: TalkFacts, salience: Salience,
                 save_to: Callable[[str | None], str]) -> None:
        self.core = core
        self.walker = walker
        self.things = things
        self.board = board
        self.lanes = lanes
        self.talks = talks
        self.facts = facts
        self.salience = salience
        self.save_to = save_to
        # (step, command) of every player command done since this engine was made or loaded: with
        # a recording of the model's answers, what a replay needs to make the same town again
        self.log: list[tuple[int, Command]] = []

    def submit(self, command: Command) -> object:
        """Do a player command now; its events come with the next ``step()``/``poll()``.

        Raises ``CommandError`` (a message fit for the player) when it cannot be done."""
        result = self._submit(command)
        if not isinstance(command, SaveTown):
            self.log.append((self.core.step_no, command))
        return result

    def _submit(self, command: Command) -> object:
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise CommandError(f"unknown command {type(command).__name__}")
        return handler(self, command, self.core.clock.now, self.core.out)

    def resident(self, name: str) -> Resident:
        found = self.core.match_name(name)
        if found is None or found not in self.core.residents:
            raise CommandError(f"there is no resident called '{name}'")
        return self.core.residents[found]

    def _enter(self, c: EnterAsVisitor, now: datetime, out: TickResult) -> Pos:
        name = player_text(c.name)
        if not name:
            raise CommandError("the visitor needs a name")
        if name in self.core.residents:
            raise CommandError(f"{name} already lives here; choose another name")
        if self.core.player is not None:
            raise CommandError(f"{self.core.player.name} is already in town")
        pos = self.walker.entrance()
        self.core.player = Player(name=name, description=player_text(c.description), pos=pos)
        out.moves.append(Move(PLAYER, pos, pos))
        out.log.append(LogLine("system", f"{name} walks into town", name))
        return pos

    def _move_player(self, c: MovePlayer, now: datetime, out: TickResult) -> Pos:
        if self.core.embodied is not None:
            who, r = self.core.embodied, self.core.residents[self.core.embodied]
            src = r.pos
        elif self.core.player is not None:
            who, src = PLAYER, self.core.player.pos
        else:
            raise CommandError("enter the town as a visitor or take over a resident first")
        dst = (src[0] + int(c.dx), src[1] + int(c.dy))
        h, w = self.core.town.grid.shape
        if not (0 <= dst[0] < w and 0 <= dst[1] < h) or not self.core.town.grid[dst[1], dst[0]]:
            return src  # walls are walls: no move, no error (the UI already checks)
        if who == PLAYER:
            assert self.core.player is not None
            self.core.player.pos = dst
        else:
            self.walker.put(r, dst)
        out.moves.append(Move(who, src, dst))
        return dst

    def _speaker(self) -> tuple[str, Pos]:
        if self.core.embodied is not None:
            return self.core.embodied, self.core.residents[self.core.embodied].pos
        if self.core.player is not None:
            return self.core.player.name, self.core.player.pos
        raise CommandError("enter the town as a visitor or take over a resident first")

    def _player_talk(self, resident: str, now: datetime, out: TickResult) -> tuple[str, Resident, Talk]:
        """The conversation of the player (visitor or embodied resident) with ``resident``: the one
        going on, else a new one (a talk the resident was in with others is interrupted)."""
        speaker, pos = self._speaker()
        r = self.resident(resident)
        if r.name == speaker:
            raise CommandError("you cannot talk to yourself")
        if chebyshev(pos, r.pos) > TALK_RANGE:
            raise CommandError(f"{r.name} is too far away to hear you; walk closer")
        cid = r.conversation
        talk = self.talks.talks.get(cid) if cid else None
        if talk is None or speaker not in talk.conv.participants:
            if talk is not None:
                self.talks.end_talk(talk.conv.id, now, out, reason=f"{speaker} interrupted")
            self.talks.seq += 1
            cid = f"c{self.talks.seq}"
            conv = Conversation(id=cid, participants=[r.name, speaker], place=self.core.address_at(r.pos),
                                started=now, with_player=True)
            talk = Talk(conv=conv, max_lines=40)
            talk.turn = 1  # the player speaks first
            talk.last_at = now
            self.talks.talks[cid] = talk
            for n in conv.participants:
                self.talks.enter(n, cid, conv, now, out)
            out.log.append(LogLine("conversation", f"{speaker} talks to {r.name}", speaker))
        return speaker, r, talk

    def _player_opens(self, c: OpenTalk, now: datetime, out: TickResult) -> str:
        """The player turns to a resident to talk.  The resident stops and listens, and its mind
        makes the beginning of its reply prompt now (``listen``), while the player types."""
        _, r, talk = self._player_talk(c.resident, now, out)
        self.talks.get_ready(talk, now)
        self.lanes.launch()
        return talk.conv.id

    def _player_types(self, c: Typing, now: datetime, out: TickResult) -> None:
        """The player is typing ``c.text`` to ``c.resident``: the resident gets its reply ready from
        it.  Ignored when there is no talk to type into (the screen sends these while typing)."""
        name = self.core.match_name(c.resident)
        r = self.core.residents.get(name) if name else None
        talk = self.talks.talks.get(r.conversation) if r is not None and r.conversation else None
        if talk is None or talk.ended or not talk.conv.with_player or not self.core.controlled(talk.next_speaker()):
            return None
        talk.typed = player_text(c.text)
        self.talks.get_ready(talk, now)
        self.lanes.launch()
        return None

    def _player_says(self, c: SayToResident, now: datetime, out: TickResult) -> str:
        text = player_text(c.text)
        if not text:
            raise CommandError("say something")
        speaker, r, talk = self._player_talk(c.resident, now, out)
        conv = talk.conv
        cid = conv.id
        listeners = [p for p in conv.participants if p != speaker]
        self.facts.vet(conv, speaker, text, now, may_move=False)  # what the player tells them of a fact
        conv.add(speaker, text)
        talk.typed = ""
        talk.last_at = now
        out.utterances.append(Utterance(cid, speaker, ", ".join(listeners), text, final=True))
        # the resident(s) answer next; the one addressed speaks first
        talk.turn = conv.participants.index(r.name)
        job = self.board.jobs.get(r.name)
        if job is not None and job.kind == JobKind.LISTEN and job.task is not None:
            # still making the beginning of its reply: the reply starts as soon as that is done
            self.talks.listening[r.name] = job.task
            del self.board.jobs[r.name]
        elif job is not None:  # a reply being written is asked again with the new line
            self.board.cancel(r.name)
        # the reply so far (nothing yet): the screen can show that the resident is answering
        out.utterances.append(Utterance(cid, r.name, speaker, "", final=False))
        if r.name in self.board.jobs:
            return cid  # lockstep: its dropped job ends at its boundary, then the talk asks for the reply
        job = self.board.ask(r, JobKind.SAY, now, {"conversation": cid})
        job.ready_at = self.core.step_no + 1  # the player waits for this one: due at the next boundary
        self.lanes.launch()
        return cid

    def _end_conversation(self, c: EndConversation, now: datetime, out: TickResult) -> None:
        cid = self.resident(c.resident).conversation
        if cid is None or cid not in self.talks.talks or not self.talks.talks[cid].conv.with_player:
            raise CommandError(f"you are not talking with {c.resident}")
        self.talks.end_talk(cid, now, out)
        return None

    def _save_town(self, c: SaveTown, now: datetime, out: TickResult) -> str:
        return self.save_to(c.path)

    def _whisper(self, c: Whisper, now: datetime, out: TickResult) -> None:
        r = self.resident(c.resident)
        text = player_text(c.text)
        if not text:
            raise CommandError("whisper something")
        self.core.minds[r.name].whisper(now, text)
        out.log.append(LogLine("whisper", f"inner voice to {r.name}: {text}", r.name))
        if r.name != self.core.embodied and not r.conversation:
            if r.name in self.board.jobs and self.board.jobs[r.name].kind != JobKind.SAY:
                self.board.cancel(r.name)
            self.walker.need_decision(r)
            self.salience.dropped(r)
            if r.name not in self.board.jobs:
                self.lanes.ask(r, JobKind.NEXT, now, {})  # the mind re-plans from the whisper
            self.lanes.launch()

    def _embody(self, c: Embody, now: datetime, out: TickResult) -> str:
        r = self.resident(c.resident)
        if self.core.embodied is not None:
            raise CommandError(f"you are already {self.core.embodied}; release them first")
        if r.conversation:
            self.talks.end_talk(r.conversation, now, out, reason=f"{r.name} was taken over")
        if r.name in self.board.jobs:
            self.board.cancel(r.name)
        self.core.embodied = r.name
        self.salience.dropped(r)
        self.core.ledger.drop(r.name)
        self.walker.take_on(r, Action(description="walking around", emoji="\U0001F6B6",
                                      address=self.core.address_at(r.pos), duration_min=60 * 24, start=now,
                                      source="rule"), stop=True)
        assert r.action is not None
        out.bubbles.append(Bubble(r.name, r.action.emoji, r.action.description))
        out.log.append(LogLine("system", f"you are now {r.name}", r.name))
        return r.name

    def _release(self, c: Release, now: datetime, out: TickResult) -> str:
        if self.core.embodied is None:
            raise CommandError("you are not controlling anyone")
        r = self.core.residents[self.core.embodied]
        self.core.embodied = None
        if r.conversation:
            self.talks.end_talk(r.conversation, now, out, reason=f"{r.name} was released")
        if r.name in self.board.jobs and self.board.jobs[r.name].kind != JobKind.SAY:
            self.board.cancel(r.name)
        self.walker.need_decision(r)
        self.walker.take_on(r, Action(description="gathering their thoughts", emoji="\U0001F4AD",
                                      address=self.core.address_at(r.pos), duration_min=1, start=now, source="rule"))
        assert r.action is not None
        out.bubbles.append(Bubble(r.name, r.action.emoji, r.action.description))
        out.log.append(LogLine("system", f"{r.name} is themselves again", r.name))
        if r.name not in self.board.jobs:
            self.lanes.ask(r, JobKind.NEXT, now, {})
        self.lanes.launch()
        return r.name

    def _set_object_words(self, c: SetObjectState, now: datetime, out: TickResult) -> str:
        text = player_text(c.description).rstrip(".!")
        m = re.match(r"^(?P<obj>.+?)\s+(?:is|are)\s+(?:now\s+)?(?P<state>.+)$", text, re.I)
        if not m:
            raise CommandError("say what and how, e.g. 'the stove in the Lin kitchen is on fire'")
        obj, state = m.group("obj"), m.group("state")
        address = self.core.town.tree.find(obj)
        if not address:
            raise CommandError(f"no object in town matches '{obj}'")
        if address.count(":") < 2:
            raise CommandError(f"'{obj}' is a place, not an object; name something in it")
        info = self.core.info(address)
        if info is not None and match_state(info, state) is None:
            raise CommandError(f"{self.core.describe(address)} can be: {', '.join(info.state_names())}")
        self.things.set(address, state[:40], "player", out, now)
        return address


_HANDLERS: dict[type, Callable[[PlayerCommands, Any, datetime, TickResult], object]] = {
    EnterAsVisitor: PlayerCommands._enter, MovePlayer: PlayerCommands._move_player,
    OpenTalk: PlayerCommands._player_opens, Typing: PlayerCommands._player_types,
    SayToResident: PlayerCommands._player_says, EndConversation: PlayerCommands._end_conversation,
    Whisper: PlayerCommands._whisper, Embody: PlayerCommands._embody, Release: PlayerCommands._release,
    SetObjectState: PlayerCommands._set_object_words, SaveTown: PlayerCommands._save_town,
}
