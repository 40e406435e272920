"""The day's frame filled in by the model and checked (issue 38): one call for the frame's lines
(plan_day.txt, or replan.txt for the rest of a day), ``dayframe.check_day`` on the answer, once more
with the problems named when any line fails, then each line from the first answer that passed it,
else mended by rule.  A function of the resident's core (the model, the counts); the planner
(planning.py) calls it under its plan lock.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, create_model, model_validator

from game.llm.api import LLMError, Priority
from game.mind import prompting
from game.mind.core import MindCore
from game.mind.dayframe import FIXED_KINDS, Checked, Problem, Slot, check_day, fallbacks, frame_text, merge
from game.mind.schemas import clean_text
from game.mind.view import WorldView, hhmm
from game.mind.wording import whole_words

_LEADING_TIME = re.compile(r"^\s*(?:\d+\s*[.)]\s*)?(?:\d{1,2}(?::\d{2})?\s*(?:am|pm)?\s*[-\u2013]\s*"
                           r"\d{1,2}(?::\d{2})?\s*(?:am|pm)?\s*[:,.]?\s+)?", re.I)


def _day_line(v: object) -> str:
    """A line of a filled-in day, less a number or hours the model copied from the frame, ending
    at a whole word (or sentence) within 80 characters."""
    text = clean_text(_LEADING_TIME.sub("", clean_text(v, 300), count=1), 300)
    first = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0].rstrip(".")  # a line is one thing: its first sentence
    return whole_words(first, 80)


class FillBase(BaseModel):
    """The day's frame filled in: one field a frame line, named by the line's hour and label
    ("07:00 free time"), so the server's grammar writes each key, in order, before the model's
    words for it.  ``{"plan": [...]}`` (a list, as a server that ignores the schema or a test may
    answer) is read line by line."""

    model_config = ConfigDict(populate_by_name=True)

    @model_validator(mode="before")
    @classmethod
    def _from_list(cls, v: object) -> object:
        if isinstance(v, dict) and isinstance(v.get("plan"), list):
            items = v["plan"]
            return {name: items[i] for i, name in enumerate(cls.model_fields) if i < len(items)}
        return v

    def lines(self) -> list[str]:
        return [str(getattr(self, name)) for name in type(self).model_fields]


@lru_cache(maxsize=8)
def example_lines(template: str) -> tuple[str, ...]:
    """The answer lines of a template's worked example, which a day may not copy."""
    return tuple(re.findall(r'": "([^"]+)"', prompting.examples(template)))


def slot_key(s: Slot) -> str:
    """The answer's key for a frame line: its hour and label."""
    return clean_text(f"{hhmm(s.start)} {s.label}", 60)


@lru_cache(maxsize=128)
def day_fill_answer(keys: tuple[str, ...]) -> type[FillBase]:
    """The answer to plan_day.txt and replan.txt for a frame whose lines are ``keys``; a key
    missing from an answer reads as "" (the check finds it)."""
    line = Annotated[str, BeforeValidator(_day_line), Field(max_length=80)]
    fields: dict[str, Any] = {f"l{i}": (line, Field(default="", alias=k)) for i, k in enumerate(keys)}
    return create_model("DayFillAnswer", __base__=FillBase, **fields)


async def fill(core: MindCore, now: datetime, view: WorldView | None, slots: list[Slot], template: str,
               keep: list[str] | None = None, **values: object) -> Checked:
    """The frame's lines in the model's words, checked (dayframe.check_day): the lines of waking and
    of going to bed are the frame's own (a small model wrote the same words for both); the others
    are asked in one call; the lines that fail are asked once more, alone, with their problems
    named and the rest of the day shown; what still fails is mended by rule (``fallbacks``).
    Counted in the stats (plan_checked, plan_first_pass, plan_asked_again, plan_again_pass,
    plan_lines_mended, plan_problem_*).  ``keep``: for the rest of a day, what the old plan says
    at each line: a line the model leaves empty keeps it, and a line mended takes it when it
    passes.  Raises ``LLMError`` when the first call fails."""
    named, lacks, echo = named_by(view), _lacks(view), example_lines(template)
    stats = core.stats
    fixed = {i: sl.default() for i, sl in enumerate(slots) if sl.kind in FIXED_KINDS}
    # one line a shift: its parts around a meal say the same
    first_of = {i: next(j for j, o in enumerate(slots) if o.kind == "work" and o.label == sl.label)
                if sl.kind == "work" else i for i, sl in enumerate(slots)}
    asked = [i for i in range(len(slots)) if i not in fixed and first_of[i] == i]

    async def ask(which: list[int], again: str, day: list[str]) -> list[str]:
        which = sorted({first_of[i] for i in which if i not in fixed})
        schema = day_fill_answer(tuple(slot_key(slots[i]) for i in which))
        ans = await core.complete(template, schema, template, Priority.PLAN, now,
                                  max_tokens=40 + 22 * len(which), temperature=0.6,
                                  frame=frame_text(slots, fixed=set(fixed)), again=again, **values)
        out = list(day)
        for i, line in zip(which, ans.lines()):
            for j in (j for j in range(len(slots)) if first_of[j] == i):
                out[j] = without_name(line, core.persona.name) or (keep[j] if keep else "")
        return out

    places = _place_names(view)

    def check(lines: list[str]) -> list[Problem]:
        return check_day(slots, lines, named=named, lacks=lacks, echo=echo, fixed=set(fixed), places=places)

    first = await ask(asked, "", [fixed.get(i, "") for i in range(len(slots))])
    problems = check(first)
    stats["plan_checked"] += 1
    for pr in problems:
        stats["plan_problem_" + pr.kind] += 1
    if not problems:
        stats["plan_first_pass"] += 1
        return merge(slots, first, problems, None, None)
    stats["plan_asked_again"] += 1
    second: list[str] | None
    try:
        second = await ask([pr.line for pr in problems], again_text(slots, asked, first, problems), first)
    except LLMError as e:
        core.fail(template, e)
        second = None
    problems2 = check(second) if second is not None else None
    took = second if second is not None else first
    failed = {pr.line for pr in (problems2 if problems2 is not None else problems)}
    good = [took[i] if i not in failed else "" for i in range(len(slots))]
    checked = merge(slots, first, problems, second, problems2,
                    fallbacks(slots, core.persona, good, keep, check))
    if second is not None and not problems2:
        stats["plan_again_pass"] += 1
    stats["plan_lines_mended"] += len(checked.mended)
    return checked


def again_text(slots: list[Slot], asked: list[int], first: list[str], problems: list[Problem]) -> str:
    """What the second ask adds: the problems, and the rest of the day that stays."""
    bad = {pr.line for pr in problems}
    rest = "\n".join(f"{slot_key(slots[i])}: {first[i]}" for i in asked if i not in bad)
    return ("Some lines had problems: " + "; ".join(pr.what for pr in problems) + ". The rest of the day stays:\n"
            + rest + "\nWrite only the lines with problems again, each something else.")


def without_name(line: str, name: str) -> str:
    """A line less the resident's own name at its start ("Grace goes to the office" -> "goes to the
    office"): the model often writes whole sentences about the person."""
    for who in (name, name.split()[0] if name else ""):
        if who and line.lower().startswith(who.lower() + " "):
            return line[len(who) + 1:].lstrip(" ,:")
    return line


def _place_names(view: WorldView | None) -> set[str] | None:
    """The names of the places the resident knows (sectors and rooms), as ``dayframe`` keys them."""
    if view is None or not view.allowed:
        return None
    names = {part for a in view.allowed for part in a.split(":")[:2]}
    return {" ".join(re.findall(r"[a-z0-9]+", n.lower())) for n in names}


def named_by(view: WorldView | None) -> Callable[[str], str | None] | None:
    """The town's sector a text names (the world's ``area_named``), when the view has the world's picker."""
    return view.ground.area_named if view is not None and view.ground is not None else None


def _lacks(view: WorldView | None) -> Callable[[str], list[str]] | None:
    return view.ground.lacks if view is not None and view.ground is not None else None
