"""Answering a question in character, as at one moment of the town: the one implementation of an
interview, used by ``Mind.answer`` and by ``town interview``/``town experiment``
(``game.measure.interview``, which picks the resident out of an engine and names the town's people).

The resident answers from its identity, today's plan, its reflections and the memories retrieved
for the question; retrieval here does not refresh the memories' last access, so an interview
leaves the mind as it was.  Only with ``remember`` is the question and the answer stored.

The prompt lists the people the resident knows (its relationships, and everyone it has seen,
talked with or heard of in its memories) and says that anyone else is unknown, so a question
about a stranger gets "I don't know them" rather than an invention.  People of the town that the
question names and the resident never met (``candidates``) are listed as such, explicitly.

The template is ``interview.txt`` beside this module, not among the mind's ``prompts/`` (whose
calls share one layout for the server's prompt cache): an interview has a system prompt of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Annotated, Protocol

from pydantic import BaseModel, BeforeValidator, Field

from game.llm.api import LLM, CallTag, LLMError, Message, Priority
from game.llm.prompts import PromptFolder
from game.mind.core import MindCore
from game.mind.facts.durations import numbers_mended
from game.mind.facts.fact import Fact, TownNames
from game.mind.facts.hours import USUAL_Q, merged, time_asked, times_unbacked, usual_day_line
from game.mind.facts.parts import parts_unbacked
from game.mind.facts.unbacked import people_named
from game.mind.interview.answerdata import (
    RecordLines,
    asks_of_talks,
    borrowed_self,
    from_records,
    hearsay_unbacked,
    home_claims,
    housemates_answer,
    record_lines,
    talk_claims,
    talk_topics_unbacked,
    talks_line,
    tomorrow_line,
)
from game.mind.interview.backing import (
    Backing,
    Problem,
    asked_of,
    backing_text,
    checked_answer,
    mend_facts,
    problems_in,
    rule_answer,
    today_not_another_day,
    wrong_host,
)
from game.mind.interview.heardof import heard_line
from game.mind.interview.ofothers import said_of_others
from game.mind.interview.otherdays import days_unbacked
from game.mind.interview.ownclaims import (
    AGAIN,
    JOB_Q,
    addressed,
    after_work_line,
    at_time,
    job_line,
    own_voice,
    self_claims,
    tidy,
)
from game.mind.interview.pastime import FREE_Q, free_time_line
from game.mind.interview.stepping import cut_aside
from game.mind.memory.records import MemoryRow, mentioned, rows_of_mind, source_of, talked_with
from game.mind.memory.stream import Record
from game.mind.planning.agenda import Agenda
from game.mind.view import PlanBlock
from game.resources import package_dir
from game.text import one_line

_PROMPTS = PromptFolder(package_dir(__package__))  # interview.txt, read from the package
PURPOSE = "interview"
MEMORY_K = 8
MEMORY_TOKENS = 320
REFLECTIONS = 3


class Interviewee(Protocol):
    """What an interview reads of a resident's mind (``game.mind.Mind``): its core (who it is, its
    memory and facts, the model) and its agenda (the plan and the step in hand)."""

    @property
    def core(self) -> MindCore: ...

    @property
    def agenda(self) -> Agenda: ...


def _clean(value: object, max_len: int = 600) -> str:
    return one_line(value, max_len)


class InterviewAnswer(BaseModel):
    """The resident's answer, plain text."""

    answer: Annotated[str, BeforeValidator(lambda v: _clean(v, 600)), Field(min_length=1, max_length=600)]


@dataclass
class InterviewContext:
    """Everything the prompt is made of (kept for tests and for showing in the UI)."""

    name: str
    now: datetime
    now_text: str
    known: list[str]
    strangers: list[str]
    memories: list[str]
    reflections: list[str]
    plan: list[str]
    doing: str = ""
    hint: str = ""  # for a question about a time of day: what the plan says then (repeated after it)
    talked: list[str] = field(default_factory=list)  # whom it talked with today, by its records
    facts: list[str] = field(default_factory=list)  # the facts it holds, in the town's words
    sections: dict[str, str] = field(default_factory=dict)


def known_people(name: str, rows: Sequence[MemoryRow], relationships: dict[str, str],
                 candidates: Sequence[str] = ()) -> list[str]:
    """The people ``name`` knows: its relationships, its talks' people, the candidates its memories name."""
    known: dict[str, None] = {}
    for who in relationships:
        known[who] = None
    for r in rows:
        src = source_of(r)
        if src:
            known[src] = None
        for p in talked_with(r):
            known[p] = None
    others = [c for c in candidates if c != name and c not in known]
    if others:
        for r in rows:
            for c in mentioned(r.text, others):
                known[c] = None
            others = [c for c in others if c not in known]
            if not others:
                break
    known.pop(name, None)
    # a relationship written with the first name only stands for the resident of that name
    out = []
    for k in known:
        full = next((c for c in candidates if c != k and c.split()[0] == k), None)
        out.append(full or k)
    return sorted(dict.fromkeys(out))


def strangers_named(question: str, candidates: Sequence[str], known: Sequence[str], name: str) -> list[str]:
    """Residents of the town that ``question`` names and the resident has never met."""
    ks = set(known)
    return [c for c in mentioned(question, [c for c in candidates if c != name]) if c not in ks]


async def _retrieve(mind: Interviewee, query: str, now: datetime, k: int, budget: int,
                    kinds: Sequence[str] | None = None) -> list[Record]:
    """Memories for ``query`` without refreshing their last access (the town stays as it was)."""
    qv = None
    try:
        await mind.core.ensure_embedded()  # embeddings are a cache of the text: no change to the town
        if query:
            qv = (await mind.core.embed([query]))[0]
    except LLMError:
        qv = None  # relevance then falls back to recency and importance, as the mind itself does
    return mind.core.memory.retrieve(qv, now, k=k, token_budget=budget, kinds=kinds, refresh=False)


def _blocks(mind: Interviewee, now: datetime) -> tuple[PlanBlock, ...]:
    plan, plan_date = mind.agenda.plan, mind.agenda.plan_date
    today = plan is not None and (plan_date is None or plan_date == mind.core.day_and_minute(now)[0])
    return merged(plan.blocks if plan is not None and today else mind.core.routine_blocks())  # (no plan: the usual day)


def _plan_lines(mind: Interviewee, now: datetime) -> list[str]:
    _, minute = mind.core.day_and_minute(now)
    return [b.text() + ("  <- now" if b.start <= minute < b.end else "") for b in _blocks(mind, now)]


async def build_context(mind: Interviewee, question: str, now: datetime, *, now_text: str = "",
                        candidates: Sequence[str] = (), doing: str = "") -> InterviewContext:
    name = mind.core.persona.name
    rows = rows_of_mind(name, mind.core)
    known = known_people(name, rows, mind.core.persona.relationships, candidates)
    town = _town(mind)
    # a neighbour of years the question names is known, though no relationship or talk names them
    neighbours = [c for c in mentioned(question, [c for c in candidates if c not in known and c != name])
                  if town.acquainted(name, c)]
    known = sorted([*known, *neighbours])
    strangers = strangers_named(question, candidates, known, name)
    # a name that nobody in the town has ("Ezra Vance"): unknown too, said so in the prompt
    strangers += [n for n in people_named(question, [*known, *candidates], town, name) if n not in strangers]
    recs = await _retrieve(mind, question, now, MEMORY_K, MEMORY_TOKENS)
    refl = [r.text for r in mind.core.memory.recent(REFLECTIONS, kinds=("reflection",))]
    for r in await _retrieve(mind, question, now, 2, 120, kinds=("reflection",)):
        if r.text not in refl:
            refl.append(r.text)
    memories = [r.text for r in recs if r.text not in refl]
    if time_asked(question) is not None:  # "at 6pm today": what is planned for other days only confuses
        others = [d for i in range(1, 7) if (d := f"{now + timedelta(days=i):%A}".lower()) not in question.lower()]
        memories = [t for t in memories if not any(re.search(rf"\b{d}\b", t.lower()) for d in others)]
    cur = mind.agenda.current
    doing = doing or (cur.description if cur is not None else "")
    ctx = InterviewContext(name=name, now=now, now_text=now_text or now.strftime("%A %H:%M"), known=known,
                           strangers=strangers, memories=memories, reflections=refl,
                           plan=_plan_lines(mind, now), doing=doing)
    first = mind.core.persona.first_name
    rel = mind.core.persona.relationships
    who = mind.core.persona.brief()
    if mind.core.identity and mind.core.identity != who:
        who += "\n" + mind.core.identity
    people = []
    for p in known:
        note = rel.get(p) or rel.get(p.split()[0]) or (town.known_as(p) if p in neighbours else "")
        people.append(f"- {p}: {note}" if note else f"- {p}")
    s = ctx.sections
    s["You are"] = who
    s["Now"] = f"It is {ctx.now_text}." + (f" {first} is {doing}." if doing else "")
    s["Today's plan"] = "\n".join(ctx.plan)
    asked = time_asked(question)
    if asked is not None:
        block = next((b for b in _blocks(mind, now) if b.start <= asked < b.end
                      or b.start <= asked + 24 * 60 < b.end), None)
        hh = f"{asked // 60:02d}:{asked % 60:02d}"
        ctx.hint = (f"At {hh} today {first}'s plan is: {block.activity} ({block.text().split()[0]})." if block
                    else f"At {hh} today {first} has nothing planned (asleep or free).")
        s["Today's plan"] += "\n" + ctx.hint
    _records_hint(mind, ctx, question, rows)
    facts = mind.core.facts
    if len(facts):
        held = sorted(facts, key=lambda f: f.heard or now)[-6:]
        ctx.facts = [f.sentence(now) + (f" ({f.source} told {first})" if f.source else "") for f in held]
        s["What you know is planned (true)"] = "\n".join(f"- {t}." for t in ctx.facts)
    s["People you know"] = "\n".join(people) or f"(nobody yet: {first} knows no one by name)"
    if strangers:
        s["People you have never met (you know nothing about them)"] = "\n".join(f"- {p}" for p in strangers)
    s["Your thoughts and reflections"] = "\n".join(f"- {t}" for t in refl)
    s["You remember"] = "\n".join(f"- {t}" for t in memories)
    return ctx


def _tomorrow_frame(mind: Interviewee, now: datetime) -> tuple[PlanBlock, ...]:
    day, _ = mind.core.day_and_minute(now)
    return mind.core.routine_blocks(None, date.fromordinal(day.toordinal() + 1))


_TOMORROW = re.compile(r"\btomorrow\b", re.I)


def _tomorrow(mind: Interviewee, now: datetime) -> str:
    return tomorrow_line(mind.core.persona.name, _tomorrow_frame(mind, now), list(mind.core.facts), now, mine=True)


def _records_hint(mind: Interviewee, ctx: InterviewContext, question: str, rows: Sequence[MemoryRow]) -> None:
    """What its records say for the question (answerdata.py), in the plan's section and after it."""
    _, minute = mind.core.day_and_minute(ctx.now)
    ctx.talked, lines = record_lines(
        question, mind.core.persona.first_name, ctx.now, rows, _blocks(mind, ctx.now), minute,
        lambda: _tomorrow_frame(mind, ctx.now), list(mind.core.facts), mind.core.facts.town)
    lines += [usual_day_line(mind.core.routine_blocks())] if USUAL_Q.search(question) else []
    if lines:
        ctx.hint = " ".join([ctx.hint, *lines]).strip()
        ctx.sections["Today's plan"] = "\n".join([ctx.sections.get("Today's plan", ""), *lines]).strip()


def messages_for(mind: Interviewee, ctx: InterviewContext, question: str,
                 asker: str = "The interviewer") -> list[Message]:
    context = "\n\n".join(f"{k}:\n{v}" for k, v in ctx.sections.items() if v.strip())
    other_days = " Plans for other days are not for today." if time_asked(question) is not None else ""
    hint = f"\n(Today is {ctx.now:%A}. {ctx.hint}{other_days})" if ctx.hint else ""
    return _PROMPTS.render("interview", name=ctx.name, first=mind.core.persona.first_name, context=context,
                            question=_clean(question, 400), asker=asker, hint=hint)


async def answer(mind: Interviewee, question: str, now: datetime, llm: LLM | None = None, *,
                 asker: str = "An interviewer", remember: bool = False, now_text: str = "",
                 candidates: Sequence[str] = ()) -> str:
    """The answer of ``mind``'s resident to ``question`` (already cleaned) as at ``now``, with
    ``llm`` (default: the mind's own).  Nothing changes unless ``remember`` (then the question and
    the answer are stored in the resident's memory).  Raises ``LLMError`` when the model fails."""
    text, _ = await answer_backed(mind, question, now, llm, asker=asker, remember=remember, now_text=now_text,
                                  candidates=candidates)
    return text


async def answer_backed(mind: Interviewee, question: str, now: datetime, llm: LLM | None = None, *,
                        asker: str = "An interviewer", remember: bool = False, now_text: str = "",
                        candidates: Sequence[str] = ()) -> tuple[str, Backing]:
    """``answer``, with what backs it (backing.py): the answer is checked against the resident's
    facts, memories, persona, the town's places and the people it knows; asked again once with what
    was unbacked made plain; what is still unbacked is dropped."""
    llm = llm or mind.core.llm
    ctx = await build_context(mind, question, now, now_text=now_text, candidates=candidates)
    msgs = messages_for(mind, ctx, question, asker)
    tag = CallTag(PURPOSE, mind.core.persona.name, Priority.PLAYER)
    name, town, own = mind.core.persona.name, _town(mind), mind.core.persona.currently
    back = Backing(facts=list(ctx.facts), memories=list(ctx.memories))
    basis = backing_text(mind.core.persona, ctx, question)

    held = list(mind.core.facts)
    asked = asked_of(question, held, now, asker, name, town)  # what it knows that the question asks about

    def mend(text: str) -> str:  # a fact's place and hours as the resident holds them, not as written
        text = today_not_another_day(own_voice(tidy(cut_aside(text), town.places), name, own), question, now, held)
        text, fixes = mend_facts(text, held, now, town, name, question, basis)
        text, fixed = numbers_mended(text, name, [asker], town, [basis])  # ages, years
        back.fixes += fixes + fixed
        return text

    usual = mind.core.routine_blocks()

    def check(text: str) -> list[Problem]:
        return _problems(mind, ctx, question, now, text, basis=basis, held=held, asked=asked, usual=usual)
    text = mend((await llm.complete(msgs, InterviewAnswer, tag, max_tokens=160, temperature=0.5)).answer)
    found = check(text)
    first: tuple[str, list[Problem]] = ("", [])  # the answer not taken, when asked again
    back.problems = [f"{p.kind}: {p.what}".rstrip(": ") for p in found]
    if found:
        note = " ".join(dict.fromkeys(p.tell for p in found))
        again = [*msgs[:-1], Message(msgs[-1].role, f"{msgs[-1].content}\n(Careful: {note})")]
        back.asked += 1
        second = mend((await llm.complete(again, InterviewAnswer, tag, max_tokens=160, temperature=0.3)).answer)
        left = check(second)
        (text, found), first = sorted([(second, left), (text, found)], key=lambda a: len(a[1]))  # (ties: the 2nd)
    if found:
        text, back.dropped = checked_answer(text, found, first, name, check)
        if not text or any(p.kind == "stranger" for p in found):
            text, back.source = rule_answer(found), "rule"
    text = from_records(text, back, question, me=name, relationships=mind.core.persona.relationships, town=town,
                        now=now, talked=ctx.talked, asked=asked, **_record_lines(mind, question, now, usual),
                        holds=[f for f in mind.core.facts.upcoming(now) if asker not in f.secret_from])
    text = tidy(text, town.places, AGAIN)  # (a sentence said again, a word or two changed: once checked)
    if remember:
        mind.core.memory.add("player", _clean(f"{asker} asked me: {question} I answered: {text}", 600), now)
    return text, back


def _record_lines(mind: Interviewee, question: str, now: datetime, usual: Sequence[PlanBlock]) -> RecordLines:
    """What the records say to the kind of question asked (answerdata.from_records), "" where none."""
    p, blocks = mind.core.persona, _blocks(mind, now)
    kept = [r for who, r, _ in _town(mind).secret_roles if who == p.name]  # (its secret roles: no pastime)
    return {"after_work": after_work_line("", blocks, 0, mine=True), "at": at_time(question, blocks),
            "tomorrow": _tomorrow(mind, now) if _TOMORROW.search(question) else "",
            "usual": usual_day_line(usual) if USUAL_Q.search(question) else "",
            "job": job_line(p.name, _town(mind), [sh.what for sh in p.schedule]) if JOB_Q.search(question) else "",
            "free_time": free_time_line(p, kept) if FREE_Q.search(question) else "", "heard": heard_line(p.currently)}


def _problems(mind: Interviewee, ctx: InterviewContext, question: str, now: datetime, text: str, *, basis: str,
              held: list[Fact], asked: list[Fact], usual: Sequence[PlanBlock]) -> list[Problem]:
    """What in an answer nothing backs: backing.problems_in, and what its records hold (answerdata.py)."""
    name, town, first = mind.core.persona.name, _town(mind), mind.core.persona.first_name
    found = problems_in(text, me=name, known=ctx.known, strangers=ctx.strangers, town=town, backing=basis,
                        question=question, held=asked, now=now)
    if re.search(r"\blive with\b", question, re.I):  # who lives with it: the town's homes
        found += [Problem("claim", sent, housemates_answer(name, town, mind.core.persona.relationships))
                  for sent in home_claims(text, name, town)]
    found += wrong_host(text, [f for f in held if f not in asked], town, now)  # of any it holds
    if asks_of_talks(question):  # whom it talked with today: only those its records hold
        line = talks_line(first, ctx.talked)
        found += [Problem("claim", sent, line) for sent in talk_claims(text, ctx.talked, town.people, name)]
        found += [Problem("claim", sent, "Say only what your memories of each talk hold.") for sent in
                  talk_topics_unbacked(text, rows_of_mind(name, mind.core), now.date(), town.people)]
    found += [Problem("claim", sent, "Say only what your memories hold that they told you.")
              for sent in hearsay_unbacked(text, basis, town.people)]
    found += [Problem("claim", sent, "Say only what you do yourself, not what others told you they do.")
              for sent in borrowed_self(text, basis, name)]
    found += [Problem("claim", sent, "Say of each person only what you hold of them.")
              for sent in said_of_others(text, name, mind.core.persona, town, mind.core.identity)]
    found += [Problem("claim", sent, f"{why}.") for sent, why in parts_unbacked(text, name, town, held)]
    found += [Problem("claim", sent, "This is no talk: answer the one who asks you, not a neighbour.")
              for sent in addressed(text, town.people, name)]
    found += [Problem("claim", s, hint) for s, hint in self_claims(text, name, mind.core.persona.age, [
        *mind.core.persona.relationships, *ctx.talked], town.people, question,
        _tomorrow(mind, now) if _TOMORROW.search(question) else "")]  # (tomorrow's frame, only when asked of)
    hours = usual_day_line(usual) if USUAL_Q.search(question) else ctx.hint
    found += [Problem("claim", sent, f"Say only the hours {first} holds. {hours}".strip())
              for sent in times_unbacked(text, question, today=_blocks(mind, now), usual=usual,
                                         tomorrow=_tomorrow_frame(mind, now), facts=held, basis=basis,
                                         at=mind.core.day_and_minute(now))]
    found += [Problem("claim", s, hint) for s, hint in days_unbacked(
        text, name, now, today=_blocks(mind, now), frame=lambda d: mind.core.routine_blocks(None, d), facts=held,
        basis=basis, names=[*town.people, *town.places], asked=question)]  # a day it names, held to what it holds
    return found


def _town(mind: Interviewee) -> TownNames:
    return mind.core.facts.town
