"""The day's frame filled in by the model and checked (issue 38): one call for the frame's lines
(plan_day.txt, or replan.txt for the rest of a day), ``daycheck.check_day`` on the answer, once more
with the problems named when any line fails, then each line from the first answer that passed it,
else mended by rule.  A function of the resident's core (the model, the counts); the planner
(planner.py) calls it under its plan lock.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from functools import lru_cache
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, create_model, model_validator
from pydantic.json_schema import JsonDict

from game.llm.api import LLMError, Priority
from game.mind import prompting
from game.mind.core import MindCore
from game.mind.planning.daycheck import Checked, Problem, acts_on, check_day, line_key, merge
from game.mind.planning.dayframe import FIXED_KINDS, Slot, frame_text
from game.mind.planning.dayoptions import deal, fallbacks, fitting, free_choices, meal_words, wants_of, work_pattern
from game.mind.planning.wording import whole_words
from game.mind.schemas import clean_text
from game.mind.view import WorldView, hhmm

_LEADING_TIME = re.compile(r"^\s*(?:\d+\s*[.)]\s*)?(?:\d{1,2}(?::\d{2})?\s*(?:am|pm)?\s*[-\u2013]\s*"
                           r"\d{1,2}(?::\d{2})?\s*(?:am|pm)?\s*[:,.]?\s+)?", re.I)


def _day_line(v: object) -> str:
    """A line of a filled-in day, less a number or hours the model copied from the frame, ending
    at a whole word (or sentence) within 80 characters."""
    text = clean_text(_LEADING_TIME.sub("", clean_text(v, 300), count=1), 300)
    first = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0].rstrip(".")  # a line is one thing: its first sentence
    return whole_words(first[:80], 80)  # (the grammar bounds words, not characters: a long line is cut)


class FillBase(BaseModel):
    """The day's frame filled in: one field a frame line, named by the line's hour ("07:00"), so the
    server's grammar writes each key, in order, before the model's words for it.  The hour alone:
    with its label ("08:00 run the town from the mayor's office") the keys were 44% of what a day
    plan generated, written token by token under the grammar on a day of 2026-12-02, when generating
    was 59% of the server's time; the prompt's frame shows each hour with its label.
    ``{"plan": [...]}`` (a list, as a server that ignores the schema or a test may answer) is read
    line by line."""

    model_config = ConfigDict(populate_by_name=True)

    @model_validator(mode="before")
    @classmethod
    def _from_list(cls, v: object) -> object:
        if isinstance(v, dict) and isinstance(v.get("plan"), list):
            items = v["plan"]
            return {name: items[i] for i, name in enumerate(cls.model_fields) if i < len(items)}
        return v

    def lines(self) -> list[str]:
        return [str(value) for _, value in self]  # (its fields, in order: one a frame line)


@lru_cache(maxsize=8)
def example_lines(template: str) -> tuple[str, ...]:
    """The answer lines of a template's worked example, which a day may not copy."""
    return tuple(re.findall(r'": "([^"]+)"', prompting.examples(template)))


@lru_cache(maxsize=8)
def task_words(template: str) -> str:
    """A template's task in words, which a line may not say back ("fixed by the person's life")."""
    task, _ = prompting.load(template)
    return task.template


def slot_key(s: Slot) -> str:
    """A frame line as the second ask shows the lines that stay ("07:00 free time: ..."): its hour and label
    (the answer's key is its hour alone)."""
    return clean_text(f"{hhmm(s.start)} {s.label}", 60)


@lru_cache(maxsize=128)
def day_fill_answer(keys: tuple[str, ...], shapes: tuple[tuple[str, ...], ...] = (),
                    labels: tuple[str, ...] = ()) -> type[FillBase]:
    """The answer to plan_day.txt and replan.txt for a frame whose lines are ``keys``; a key
    missing from an answer reads as "" (the check finds it).  ``shapes``: for each key the choices
    its line is one of (the schema's enum: the server's grammar holds the model to them), or none
    for a line in the model's words: after its label (``labels``, a work line's own words) and a
    comma, plain letters, no hours (``work_pattern``).  The shapes bind
    the server only: an answer off them (a server that ignores the schema) is read and checked as
    any other."""
    line = Annotated[str, BeforeValidator(_day_line), Field(max_length=80)]
    fields: dict[str, Any] = {}
    for i, k in enumerate(keys):
        shape = shapes[i] if i < len(shapes) else ()
        label = labels[i] if i < len(labels) else ""
        extra: JsonDict = {"enum": list(shape)} if shape else {"pattern": work_pattern(label)}
        fields[f"l{i}"] = (line, Field(default="", alias=k, json_schema_extra=extra))
    return create_model("DayFillAnswer", __base__=FillBase, **fields)


class _Day:
    """One filling of a frame: what the model writes (``asked``: one line a shift, its parts around
    a meal say the same), what it is shown in the frame's own words (``fixed``: waking, meals, bed),
    the choices dealt to each free line, and the check."""

    def __init__(self, core: MindCore, view: WorldView | None, slots: list[Slot], template: str,
                 keep: list[str] | None, news: str = "") -> None:
        self.core, self.slots, self.keep, self.news = core, slots, keep, news
        p = core.persona
        self.lacks = _lacks(view)
        self.named, self.places = named_by(view), _place_names(view)
        self.fixed = {i: (sl.kind == "meal" and meal_words(p, sl.label)) or sl.default()
                      for i, sl in enumerate(slots) if sl.kind in FIXED_KINDS}
        self.choices = free_choices(p, _sectors(view), self.lacks)
        wants = wants_of(p)
        self.leisure = [c for c in self.choices if c not in wants]  # no work line (its wants may be work)
        # the prompt's own words said back, and the resident's story copied as a line ("has not been
        # invited to any party this week, so he cannot run"); its wants and choices a line may say
        self.echo = example_lines(template) + (task_words(template),) + (*p.seed_memories, p.currently)
        self.own = [*wants, *self.choices]
        acts = self.acts = first_free(slots, self.fixed) if template == "replan" else None  # acts on the news
        self.first_of = {i: next(j for j, o in enumerate(slots) if o.kind == "work" and o.label == sl.label)
                         if sl.kind == "work" else i for i, sl in enumerate(slots)}
        self.asked = [i for i in range(len(slots)) if i not in self.fixed and self.first_of[i] == i]
        ground = view.ground if view is not None else None
        self.hands = deal(slots, [i for i in self.asked if slots[i].kind == "free" and i != acts], self.choices,
                          open_at=ground.open_between if ground is not None else None,
                          free_at=ground.free_between if ground is not None else None)

    def shapes(self, which: list[int], day: list[str]) -> tuple[tuple[str, ...], ...]:
        """Each asked line's choices, less those the rest of the day already holds."""
        used = {line_key(day[j]) for j in range(len(self.slots)) if j not in which and day[j]}
        return tuple(line_choices(self.slots[i], [c for c in self.hands.get(i, ()) if line_key(c) not in used],
                                  self.keep[i] if self.keep else "") for i in which)

    def check(self, lines: list[str]) -> list[Problem]:
        out = check_day(self.slots, lines, named=self.named, lacks=self.lacks, echo=self.echo,
                        fixed=set(self.fixed), places=self.places, leisure=self.leisure, own=self.own,
                        news=self.news)
        i = self.acts
        if i is not None and self.news.startswith("a thought:") and lines[i] and not acts_on(lines[i], self.news) \
                and line_key(lines[i]) in {line_key(o) for o in self.own} and not any(p.line == i for p in out):
            # a whisper answered with one of the resident's usual lines (Felix at 04:36 in play: "introduce
            # himself to people in town" for "You promised Rosa you would bring her cinnamon buns at the cafe
            # this morning"; the buns gone, Rosa at 16:00): it is asked again
            out.append(Problem(i, f"the {hhmm(self.slots[i].start)} line does not act on the new thought "
                                  f"({self.news.removeprefix('a thought:').strip()})", "news"))
        return out

    async def ask(self, now: datetime, template: str, which: list[int], again: str, day: list[str],
                  values: dict[str, object]) -> list[str]:
        slots, first_of, keep = self.slots, self.first_of, self.keep
        which = sorted({first_of[i] for i in which if i not in self.fixed})
        shapes = self.shapes(which, day)
        labels = tuple(slots[i].label if slots[i].kind == "work" else "" for i in which)
        schema = day_fill_answer(tuple(hhmm(slots[i].start) for i in which), shapes, labels)
        # a whisper's replan is the player's doing, watched for: it goes before the queued day plans
        pri = Priority.REACT if template == "replan" and self.news.startswith("a thought:") else Priority.PLAN
        ans = await self.core.complete(template, schema, template, pri, now,
                                       max_tokens=40 + 30 * len(which), temperature=0.6,
                                       frame=frame_text(slots, self.fixed, dict(zip(which, shapes))),
                                       again=again, **values)
        out = list(day)
        for i, line in zip(which, ans.lines()):
            for j in (j for j in range(len(slots)) if first_of[j] == i):
                out[j] = without_name(line, self.core.persona.name) or (keep[j] if keep else "")
        return out


async def fill(core: MindCore, now: datetime, view: WorldView | None, slots: list[Slot], template: str,
               keep: list[str] | None = None, **values: object) -> Checked:
    """The frame's lines in the model's words or choices, checked (daycheck.check_day): the lines
    of waking, meals and going to bed are the frame's own; the others are asked in one call (a
    free line chooses among its share of the resident's choices, dayoptions.py); the lines that
    fail are asked once more, alone, with their problems named and the rest of the day shown;
    what still fails is mended by rule (``fallbacks``).  Counted in the stats (plan_checked,
    plan_first_pass, plan_asked_again, plan_again_pass, plan_lines_mended, plan_problem_*).
    ``keep``: for the rest of a day, what the old plan says at each line: a line the model leaves
    empty keeps it, and a line mended takes it when it passes.  Raises ``LLMError`` when the
    first call fails."""
    day = _Day(core, view, slots, template, keep, str(values.get("news") or ""))
    first = await day.ask(now, template, day.asked, "", [day.fixed.get(i, "") for i in range(len(slots))], values)
    problems = day.check(first)
    core.count("plan_checked")
    for pr in problems:
        core.count("plan_problem_" + pr.kind)
    if not problems:
        core.count("plan_first_pass")
        return merge(slots, first, problems, None, None)
    core.count("plan_asked_again")
    second: list[str] | None
    try:
        second = await day.ask(now, template, [pr.line for pr in problems],
                               again_text(slots, day.asked, first, problems), first, values)
    except LLMError as e:
        core.fail(template, e)
        second = None
    day.echo = day.echo + tuple(_less_labels(pr.what, slots) for pr in problems)  # not said back
    problems2 = day.check(second) if second is not None else None
    took = second if second is not None else first
    failed = {pr.line for pr in (problems2 if problems2 is not None else problems)}
    good = [took[i] if i not in failed else "" for i in range(len(slots))]
    checked = merge(slots, first, problems, second, problems2, fallbacks(slots, core.persona, good, keep, day.check))
    if second is not None and not problems2:
        core.count("plan_again_pass")
    core.count("plan_lines_mended", len(checked.mended))
    return checked


def again_text(slots: list[Slot], asked: list[int], first: list[str], problems: list[Problem]) -> str:
    """What the second ask adds: the problems, and the rest of the day that stays."""
    bad = {pr.line for pr in problems}
    rest = "\n".join(f"{slot_key(slots[i])}: {first[i]}" for i in asked if i not in bad)
    return ("Some lines had problems: " + "; ".join(pr.what for pr in problems) + ". The rest of the day stays:\n"
            + rest + "\nWrite only the lines with problems again, each something else.")


def _less_labels(text: str, slots: list[Slot]) -> str:
    """A problem as said to the model, less the frame's own words (a line may say its label)."""
    for sl in slots:
        text = text.replace(sl.label, " | ")
        if sl.place:
            text = text.replace(sl.place.split(":")[0], " | ")
    return text


def line_choices(slot: Slot, choices: list[str], old: str = "") -> tuple[str, ...]:
    """What a free line may be (those of the choices that fit its hour, and the old plan's line
    there, for the rest of a day); none for a work line (the model's words)."""
    if slot.kind != "free":
        return ()
    out = fitting(choices, slot)
    if old and old not in out and old != slot.default():
        out = [old] + out
    return tuple(out) if len(out) >= 2 else ()


def first_free(slots: list[Slot], fixed: dict[int, str]) -> int | None:
    """The first line the model writes in a replan (it acts on the news, in the model's words)."""
    return next((i for i, sl in enumerate(slots) if i not in fixed and sl.kind == "free"),
                next((i for i in range(len(slots)) if i not in fixed), None))


def _sectors(view: WorldView | None) -> list[str]:
    """The sectors the resident knows, in the order the view lists them."""
    if view is None:
        return []
    return list(dict.fromkeys(a.split(":")[0] for a in view.allowed))


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
