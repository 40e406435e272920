"""Plans that act on what is known (issue 27): a gathering of today that the resident knows of goes
into its plan at the fact's hours and place.  The host goes to its own; one who was told is asked
whether it goes (one short call, ``attend.txt``: the model decides, the fact says when and where);
the block is laid over the plan by rule, the steps already decomposed that reach into it are cut
there, and when the block is decomposed its steps are placed at the fact's place.

Functions of the resident's core (what it knows, the model) and its agenda (the plan they change);
the planner (planner.py) calls them under its plan lock.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from game.llm.api import LLMError, Priority
from game.mind.components import Context, Plan, Relationships, assemble
from game.mind.core import MindCore
from game.mind.facts.fact import DEFAULT_LENGTH, Fact
from game.mind.facts.factcheck import fact_in
from game.mind.planning.agenda import Agenda
from game.mind.schemas import AttendAnswer
from game.mind.view import DayPlan, PlanBlock, WorldView, hhmm


def block_label(name: str, f: Fact) -> str:
    """The plan block of gathering ``f`` for the resident called ``name``."""
    label = f"hosting {f.what}" if f.host == name else f"going to {f.host.split()[0]}'s {f.bare_what}"
    return label + (f" at {f.place}" if f.place else "")


def address_at(place: str, allowed: tuple[str, ...]) -> str:
    """An address within ``place`` (a room of it before a thing in it), else the place itself."""
    inside = [a for a in allowed if a.startswith(place + ":")]
    rooms = [a for a in inside if a.count(":") == 1]
    return (rooms or inside or [place])[0]


def fact_of_block(core: MindCore, block: PlanBlock, now: datetime) -> Fact | None:
    """The gathering a plan block is about (its steps go to the fact's place)."""
    d, _ = core.day_and_minute(now)
    today = [f for f in core.facts if f.kind == "gathering" and f.day == d and f.going]
    return fact_in(block.activity, today) if today else None


async def consider(core: MindCore, agenda: Agenda, now: datetime, view: WorldView | None) -> int:
    """Decide on today's gatherings not decided yet and put those it goes to in today's plan.
    Returns how many blocks were laid in."""
    d, minute = core.day_and_minute(now)
    if agenda.plan is None or agenda.plan_date != d:
        return 0
    laid = 0
    for f in list(core.facts.upcoming(now)):
        if f.kind != "gathering" or f.day != d or f.start is None or f.going is not None:
            continue
        end = f.end if f.end is not None else f.start + DEFAULT_LENGTH
        if end <= minute or end <= core.persona.wake or f.start >= core.persona.sleep:
            continue
        going = True if f.host == core.name or _there_then(agenda, f) else await _ask(core, agenda, f, now, view)
        if going is None:
            continue  # the model failed: asked again at the next decision
        core.facts.decide(f.key, going)
        core.count("attend_yes" if going else "attend_no")
        if going:
            lay_in(core, agenda, f, now)
            laid += 1
    return laid


def _plan_then(agenda: Agenda, f: Fact) -> str:
    """What today's plan says for the gathering's start ("nothing planned" for a gap or a blank)."""
    if agenda.plan is None or f.start is None:
        return "nothing planned"
    then = next((b.activity for b in agenda.plan.blocks if b.start <= f.start < b.end), "")
    return then.strip() or "nothing planned"


def _there_then(agenda: Agenda, f: Fact) -> bool:
    """Its plan already has it at the gathering's place at that hour (a barista on shift at the cafe,
    a pianist playing there): it is there, no call needed."""
    return bool(f.place) and f.place.lower() in _plan_then(agenda, f).lower()


async def _ask(core: MindCore, agenda: Agenda, f: Fact, now: datetime, view: WorldView | None) -> bool | None:
    then = _plan_then(agenda, f)
    ctx = Context(core, agenda, now, view, focus=f.what, about=[f.host])
    context = await assemble([Plan(before=0, after=3), Relationships()], ctx)
    told = f" ({f.source} told {core.persona.first_name})" if f.source else ""
    try:
        ans = await core.complete("attend", AttendAnswer, "attend", Priority.PLAN, now, max_tokens=40,
                                  temperature=0.5, context=context, fact=f.sentence(now) + told,
                                  then=then, first=core.persona.first_name)
    except LLMError as e:
        core.fail("attend", e)
        return None
    return bool(ans.go)


def lay_in_again(core: MindCore, agenda: Agenda, old: DayPlan, now: datetime) -> None:
    """After the rest of a day was planned again: the gatherings the old plan had laid in (today's,
    that it goes to, not over yet) go back over the new plan, at their hours and place."""
    d, minute = core.day_and_minute(now)
    events = {b.activity for b in old.blocks if b.kind == "event" and b.end > minute}
    for f in core.facts:
        if f.kind == "gathering" and f.day == d and f.going and f.start is not None \
                and block_label(core.name, f) in events:
            lay_in(core, agenda, f, now)


def lay_in(core: MindCore, agenda: Agenda, f: Fact, now: datetime) -> None:
    """The gathering's block over today's plan, from its start (or now) to its end."""
    assert agenda.plan is not None and f.start is not None
    _, minute = core.day_and_minute(now)
    s = max(f.start, minute)
    e = min(f.end if f.end is not None else f.start + DEFAULT_LENGTH, agenda.plan.bed)
    if e <= s:
        return
    blocks: list[PlanBlock] = []
    for b in agenda.plan.blocks:
        if b.end <= s or b.start >= e:
            blocks.append(b)
            continue
        if b.start < s:
            blocks.append(replace(b, end=s))
        if b.end > e:
            blocks.append(replace(b, start=e))
    label = block_label(core.name, f)
    blocks.append(PlanBlock(s, e, label, address_at(f.place, ()) if f.place else "", "event"))
    plan = replace(agenda.plan, blocks=tuple(sorted(blocks, key=lambda b: b.start)))
    at = now + timedelta(minutes=s - minute)
    kept = []
    for a in agenda.queue:  # the steps already decomposed stop where the gathering begins
        if a.start is not None and a.start >= at:
            continue
        end = a.end()
        if end is not None and end > at and a.start is not None:
            a = replace(a, duration_min=max(1, round((at - a.start).total_seconds() / 60)))
        kept.append(a)
    agenda.lay_over(plan, kept)
    core.memory.add("plan", f"I will be {label} from {hhmm(s)} to {hhmm(e)}", now, importance=6)
