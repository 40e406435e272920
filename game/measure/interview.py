"""Interviews: a resident answers questions in character, as at one moment of the town.

``town interview SAVE NAME "question" ... [--remember]`` loads a save, and the resident answers
each question (``game.mind.interview.answering``, the one implementation, which ``Mind.answer`` uses too:
from its identity, today's plan, its reflections and the memories retrieved for the question,
without changing the town).  Only with ``--remember`` is the interview stored in the resident's
memory and the save written back.

What this module adds to the mind's answer: picking the resident out of an engine by name, the
engine's clock, and the town's people (residents and the visitor) as the candidates a question
may name, so that one the resident never met is listed as a stranger.

The UI can call ``await interview(engine_or_mind, question, llm, name=...)`` too.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, TextIO, cast

from game.errors import GameError
from game.llm.api import LLM, LLMError
from game.mind.interview.answering import (
    PURPOSE,
    InterviewAnswer,
    InterviewContext,
    Interviewee,
    answer_backed,
    build_context,
    known_people,
    messages_for,
    strangers_named,
    time_asked,
)
from game.mind.interview.backing import Backing
from game.text import clean, echo, one_line

if TYPE_CHECKING:  # pragma: no cover
    from game.engine.build import TownInput
    from game.engine.engine import Engine
    from game.llm.config import LLMConfig

__all__ = ["PURPOSE", "InterviewAnswer", "InterviewContext", "InterviewError", "build_context", "cli_interview",
           "interview", "interview_backed", "known_people", "match_resident", "messages_for", "run_interview",
           "strangers_named", "time_asked"]


class InterviewError(GameError):
    """An interview that cannot be held (unknown resident, ...); the message says why."""


def _resolve(target: Engine | Interviewee, name: str | None) -> tuple[Interviewee, Engine | None, str]:
    """(mind, engine or None, resident name) for an engine (with ``name``) or a mind (the engine's
    minds are ``game.mind.Mind``s, which an interview reads)."""
    from game.engine.engine import Engine

    if isinstance(target, Engine):
        if not name:
            raise InterviewError("which resident? (an engine was given without a name)")
        full = match_resident(name, list(target.core.minds))
        return cast(Interviewee, target.core.minds[full]), target, full
    return target, None, target.core.persona.name


QUESTION_MAX = 400  # characters a question may have


def match_resident(name: str, names: Sequence[str]) -> str:
    """The resident called ``name`` (full name or an unambiguous first name, any case)."""
    want = " ".join(name.split()).lower()
    name = one_line(name, 60)  # as the messages say it: no escape codes, not a page long
    for n in names:
        if n.lower() == want:
            return n
    firsts = [n for n in names if n.split()[0].lower() == want]
    if len(firsts) == 1:
        return firsts[0]
    listing = ", ".join(sorted(names)) or "(nobody)"
    if len(firsts) > 1:
        raise InterviewError(f"'{name}' is ambiguous: {', '.join(firsts)}")
    raise InterviewError(f"no resident called '{name}' in this town; residents: {listing}")


async def interview(target: Engine | Interviewee, question: str, llm: LLM | None = None, *, name: str | None = None,
                    asker: str = "An interviewer", remember: bool = False, now: datetime | None = None) -> str:
    """The answer alone (see ``interview_backed``)."""
    text, _ = await interview_backed(target, question, llm, name=name, asker=asker, remember=remember, now=now)
    return text


async def interview_backed(target: Engine | Interviewee, question: str, llm: LLM | None = None, *,
                           name: str | None = None, asker: str = "An interviewer", remember: bool = False,
                           now: datetime | None = None) -> tuple[str, Backing]:
    """The resident's answer to ``question``, in character, as at ``now`` (default: the engine's clock,
    or the mind's latest memory).  ``target`` is an ``Engine`` (give ``name``) or a ``Mind``.

    Nothing in the town changes unless ``remember`` (then the question and the answer are stored in
    the resident's memory).  Raises ``LLMError`` when the model fails, ``InterviewError`` on bad input."""
    mind, engine, _ = _resolve(target, name)
    llm = llm or mind.core.llm
    question = one_line(question, QUESTION_MAX)
    if not question:
        raise InterviewError("the question is empty")
    now_text = ""
    candidates: list[str] = []
    if engine is not None:
        now = now or engine.clock.now
        clock = engine.clock
        now_text = clock.long_text()
        candidates = sorted(engine.core.minds)
        player = engine.player
        if player is not None:
            candidates.append(player.name)
    if now is None:
        n = len(mind.core.memory)
        now = mind.core.memory.get(n - 1).created if n else datetime.now()
    return await answer_backed(mind, question, now, llm, asker=asker, remember=remember, now_text=now_text,
                               candidates=candidates)


# ----------------------------------------------------------------------------- the command


def _err(msg: str) -> None:
    echo(f"town interview: {one_line(msg)}", file=sys.stderr)


def check_questions(questions: Sequence[str]) -> list[str]:
    """The questions as asked; raises ``InterviewError`` for none, or for one that is empty (nothing
    left once control characters and white space are taken out)."""
    if not questions:
        raise InterviewError("no question given")
    for n, q in enumerate(questions, 1):
        if not one_line(q):
            raise InterviewError(f"question {n} is empty")
        if len(one_line(q, 10 * QUESTION_MAX)) > QUESTION_MAX:  # (was cut without a word)
            raise InterviewError(f"question {n} is {len(q)} characters long; at most {QUESTION_MAX}")
    return list(questions)


def read_interview(save: str | TownInput, name: str,
                   questions: Sequence[str]) -> tuple[TownInput, str, list[str]]:
    """(the save read and checked, the resident's full name, the questions), before any model:
    raises ``SaveError`` (the save), ``InterviewError`` (the name, the questions)."""
    from game.engine.build import TownInput, read_save

    asked = check_questions(questions)
    inp = save if isinstance(save, TownInput) else read_save(save)
    return inp, match_resident(name, inp.residents), asked


# the paper's interview (Park et al. 2023, 5.1): five questions in each of five kinds, in our words;
# the town's own names where a question needs one (an unknown name among them)
PAPER_QUESTIONS = (
    # self-knowledge
    "Give an introduction of yourself.", "Describe your typical weekday in broad strokes.", "What is your job?",
    "What do you like to do in your free time?", "Who do you live with?",
    # memory
    "Who is Hank Brody?", "Who is running for mayor?",
    "Do you know of any gathering planned in town? Whose is it, where and when?",
    "Who did you talk with today, and what about?", "Who is Ezra Vance?",
    # plans
    "What will you be doing at 10am today?", "What will you be doing at 6pm today?",
    "What are your plans for tomorrow?", "What will you do after work today?", "When will you go to bed tonight?",
    # reactions
    "Your breakfast is burning! What would you do?", "Someone close to you is sick. What would you do?",
    "A stranger asks you the way to the Town Hall. What do you say?",
    "You hear shouting outside your window. What do you do?",
    "Someone wants to talk with you while you are busy. What do you do?",
    # reflections
    "What matters most to you these days?", "If you could spend an hour with one person in town, who and why?",
    "What has been on your mind lately?", "What do you think of the town's mayor?",
    "What would you change about your town?",
)


def cli_interview(args: argparse.Namespace) -> int:
    """The save, the name and the questions are read and checked (exit 2) before the model is
    opened or the embedded server started."""
    from game.llm.config import LLMConfig

    try:
        config = LLMConfig.from_args(args)
        if getattr(args, "paper", False):
            args.questions = [*args.questions, *PAPER_QUESTIONS]
        inp, _, _ = read_interview(args.save, args.name, list(args.questions))
    except (ValueError, GameError) as e:
        _err(str(e))
        return 2
    return asyncio.run(_main(args, config, inp))


async def _main(args: argparse.Namespace, config: LLMConfig, save: TownInput | None = None) -> int:
    from game.llm.session import open_llm

    try:
        async with open_llm(config, progress=lambda m: echo(m, file=sys.stderr)) as llm:
            share = getattr(llm, "share_server", None)
            if config.llm_url and share is not None:  # a run may use that server too (slotwatch.py)
                share()
            return await run_interview(llm, save if save is not None else args.save, args.name,
                                       list(args.questions), remember=bool(args.remember))
    except LLMError as e:
        _err(str(e))
        return 1


async def run_interview(llm: LLM, save: str | TownInput, name: str, questions: Sequence[str], *,
                        remember: bool = False, out: TextIO | None = None) -> int:
    """Ask ``name`` of the town in ``save`` (a path, or a ``TownInput`` read already) each question;
    an exit code: 2 bad input, 1 a question the model could not answer, else 0."""
    from game.engine.build import build_engine

    out = out or sys.stdout
    try:
        inp, full, questions = read_interview(save, name, questions)
        engine = build_engine(inp, llm, lockstep=True)
    except GameError as e:
        _err(str(e))
        return 2
    path = inp.path
    try:
        echo(f"{one_line(full)}, {engine.clock.text()} ({one_line(path)})", file=out)
        failed = 0
        for q in questions:
            try:
                answer = await interview(engine, q, llm, name=full, remember=remember)
            except LLMError as e:  # one question the model could not answer: say so, ask the next
                failed += 1
                echo(f"\nQ: {one_line(q)}\n(no answer: {one_line(e)})", file=out, flush=True)
                _err(f"no answer to {one_line(q)[:60]!r}: {one_line(e)}")  # (an error: on stderr too)
                continue
            echo(f"\nQ: {one_line(q)}\nA: {clean(answer)}", file=out, flush=True)
        if remember and failed < len(questions):
            try:
                engine.save(path)
            except GameError as e:  # the answers were given; the town could not be written back
                _err(str(e))
                return 1
            echo(f"\n{one_line(full)} will remember this interview (saved to {path})", file=out)
    finally:
        await engine.aclose()
    return 1 if failed else 0
