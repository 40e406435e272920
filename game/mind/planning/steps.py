"""The answer to decompose.txt: the 10-30 minute steps of a window of the day plan, as compact
lines ("brewing coffee (10 min, home)"), each block of the window its own list (``BlockSteps``),
and how a line is read (``parse_step_line``).  Planner._decompose_steps (planner.py) asks and
places them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, create_model, model_validator
from pydantic.json_schema import SkipJsonSchema

from game.mind.core import MindCore
from game.mind.planning.dayoptions import content_words
from game.mind.planning.shaping import scale_steps
from game.mind.planning.wording import as_doing, bare_verb
from game.mind.schemas import ActionText, Minutes, bounded_text, clean_text
from game.mind.view import PlanBlock, hhmm


class StepItem(BaseModel):
    """One step of a decomposed block: what and where (its emoji and the state it leaves its
    object in are the world's rules, not the model's: see Planner._decompose_steps)."""

    action: ActionText
    minutes: Minutes
    place: Annotated[str, BeforeValidator(bounded_text(160))]


# "walking to work (10 min, work)": the action, then in brackets its minutes and, after a comma, its place
# ("1 hour", "1.5 hrs" are hours: the 1.5B model wrote "visiting the hardware store (1 hour, work)")
_STEP_TAIL = re.compile(r"\(\s*(?P<min>\d{1,3}(?:\.\d+)?)\s*(?:(?P<hours>hours?|hrs?|h)|minutes?|mins?|m)?\b\.?\s*"
                        r"(?:[,;]\s*(?P<place>[^()]*?))?\s*(?P<end>\)|$)")
# a step's own times written before it: "07:30-08:00 prepare coffee", "8am - 9am: ...", "9:15 ...",
# "8-9 ..." (a time has a colon or am/pm; bare hours count only as a range)
_T = r"(?:\d{1,2}:\d{2}\s*(?:[ap]\.?m\.?)?|\d{1,2}\s*[ap]\.?m\.?)"
_TO = r"\s*(?:-|–|to)\s*"
_STEP_HEAD = re.compile(rf"^\s*(?:{_T}(?:{_TO}(?:{_T}|\d{{1,2}}))?|\d{{1,2}}{_TO}(?:{_T}|\d{{1,2}}))\s*[:.)\-–]?\s+",
                        re.IGNORECASE)
STEP_LINE_MAX = 90


# where a block happens, as the prompt shows it, copied into a step: "has breakfast (at home)",
# "gets up and ready for the day (at Okafor house)"
_AT_NOTE = re.compile(r"\s*\((?:at|in)\b[^()]*\)")


def parse_step_line(line: str) -> StepItem:
    """A step as a line, "brewing coffee (10 min, home)": the minutes and the place in the first
    brackets that start with a number; a line without them is the action alone (10 minutes, no
    place), one with nothing before them has no action (the block's own activity stands for it).
    A place the length limit cut off before its bracket closed is dropped (the 1.5B model once
    rambled "(10 min, home or Hobbs Cafe depending on the guest number if ...").  Hours count as
    hours ("(1 hour, work)"); times written before the step ("07:30-08:00 prepare coffee") are
    not part of its action."""
    text = clean_text(line, STEP_LINE_MAX)
    text = _STEP_HEAD.sub("", text, count=1)
    m = _STEP_TAIL.search(text)
    if m is None:
        return StepItem(action=_AT_NOTE.sub("", text).strip(), minutes=10, place="")
    place = (m.group("place") or "") if m.group("end") == ")" else ""
    minutes = float(m.group("min")) * (60 if m.group("hours") else 1)
    return StepItem(action=_AT_NOTE.sub("", text[:m.start()]).strip(), minutes=round(minutes), place=place)


def _step_line(v: object) -> object:
    """A step given as an object (an older answer, a scripted test) reads as the line it stands for."""
    if isinstance(v, dict):
        place = str(v.get("place") or "").strip()
        return f"{v.get('action', '')} ({v.get('minutes', 10)} min{', ' + place if place else ''})"
    return clean_text(v, STEP_LINE_MAX)


class DecomposeAnswer(BaseModel):
    """Steps as compact lines, "brewing coffee (10 min, home)": a step as an object
    ({"action": ..., "minutes": ..., "place": ...}) cost the 1.5B model 20 tokens to write, most of
    them the keys; 47 decompose calls of a recorded day wrote 178 tokens each on average, half of
    all the tokens the town generated (2026-11-25)."""

    steps: list[Annotated[str, BeforeValidator(_step_line), Field(max_length=STEP_LINE_MAX)]] = Field(
        min_length=1, max_length=8)  # 10 long steps ran past max_tokens

    def items(self) -> list[StepItem]:
        """The steps; when some lines have their (minutes, place), the lines without are not steps
        (the 1.5B model put remarks between its steps: "They live in a small town, so it's not
        far.")."""
        return read_steps(self.steps)


def read_steps(lines: list[str]) -> list[StepItem]:
    """Step lines read; when some have their (minutes, place), those without are remarks."""
    lines = [x for x in lines if x.strip()]
    timed = [x for x in lines if _STEP_TAIL.search(x)]
    return [parse_step_line(x) for x in (timed or lines)]


StepLine = Annotated[str, BeforeValidator(_step_line), Field(max_length=STEP_LINE_MAX)]


class BlockSteps(DecomposeAnswer):
    """The steps of each block of a window, one field a block named by its hour and activity
    ("08:00 run the town"), so the server's grammar writes the block before its steps and the
    steps of one block cannot slide into the hours of another: in one list for the whole window,
    the 1.5B model wrote the mayor's office work at her breakfast hour and her visit to the cafe
    into her office hours ("visits Willow Park" at Town Hall).  An answer of one list (``steps``:
    a server that ignores the schema, a test model) is read as before, over the whole window."""

    model_config = ConfigDict(populate_by_name=True)

    steps: SkipJsonSchema[list[StepLine]] = Field(default_factory=list, max_length=8)

    @model_validator(mode="before")
    @classmethod
    def _blocks_missing(cls, v: object) -> object:
        """A block the answer left out has no steps (its activity stands for them)."""
        if isinstance(v, dict):
            missing = [f.alias or n for n, f in cls.model_fields.items() if n != "steps" and n not in v
                       and (f.alias or n) not in v]
            v = {**{k: [] for k in missing}, **v}
        return v

    def per_block(self) -> list[list[StepItem]] | None:
        """Each block's steps, in the window's order (a block left out: none); None for an answer
        of one list."""
        lists = [value for name, value in self if name != "steps"]  # (its fields, in order)
        if not lists or not any(lists):
            return None
        return [read_steps(lines) for lines in lists]

    def items(self) -> list[StepItem]:
        per = self.per_block()
        return [s for block in per for s in block] if per is not None else super().items()


@lru_cache(maxsize=256)
def block_steps_answer(keys: tuple[str, ...]) -> type[BlockSteps]:
    """The answer to decompose.txt for a window whose blocks are ``keys``: one to four steps a
    block."""
    fields: dict = {f"b{i}": (list[StepLine], Field(alias=k, max_length=4, json_schema_extra={"minItems": 1}))
                    for i, k in enumerate(keys)}
    return create_model("BlockStepsAnswer", __base__=BlockSteps, **fields)


Step = tuple[str, int, StepItem]  # a step as read: what, minutes, the answer's item
_SLEEP_STEP = re.compile(r"\b(sleep|sleeping|asleep|back to bed)\b", re.I)
_NAP = re.compile(r"\bnap(s|ping)?\b", re.I)


def awake_steps(core: MindCore, steps: list[Step], start: int, end: int) -> list[Step]:
    """The steps less any of sleeping, when the window lies in the resident's waking day (from
    waking to an hour before bed): the hours it sleeps are the persona's, not the model's.
    "6-7 wake up, brush teeth" became "sleeping (20 min)" first in a recorded morning, and the
    one awake in the house slept through the fire in the kitchen.  A nap stays."""
    p = core.persona
    if start < p.wake or end > p.sleep - 60:
        return steps
    kept = [s for s in steps if not (_SLEEP_STEP.search(s[0]) and not _NAP.search(s[0]))]
    core.count("sleep_step_dropped", len(steps) - len(kept))
    return kept


def capped(core: MindCore, steps: list[Step]) -> list[Step]:
    """No step longer than a plan block may be (``config.max_block_min``): an answer of one or
    two steps for a window of four hours was stretched over all of it ("brewing coffee" for
    three hours, once its step of sleeping was left out).  The window then ends early, and
    what is left of it is decomposed when these steps run out (or looked ahead before)."""
    most = core.config.max_block_min
    if all(m <= most for _, m, _ in steps):
        return steps
    core.count("step_capped")
    return [(d, min(m, most), s) for d, m, s in steps]


Named = Callable[[str], "str | None"]  # the town's sector a text names (the world's ``area_named``)


def own_steps(core: MindCore, steps: list[Step], block: PlanBlock, named: Named | None) -> list[Step]:
    """A block's steps less those that cannot be its own: at work, a step that names another place
    of the town (the mayor's "visiting Bluebell Cafe" in her office hours was placed in her office,
    the words and the place at odds); anywhere, one that names the resident itself as another
    person ("meeting with Grace Okafor", written for Grace).  What is left fills the block."""
    me = core.persona.name.lower()
    home = block.place.split(":")[0] if block.kind == "work" and block.place else ""
    kept = []
    for s in steps:
        s = _as_own(core, s)
        if _anothers(core, s[0]):
            core.count("step_of_another")  # "grace okafor (mayor) gives a speech", in Nora's breakfast
        elif me and f"with {me}" in s[0].lower():
            core.count("step_names_self")
        elif home and named is not None and (n := named(f"{s[0]} {s[2].place}")) and n != home:
            core.count("work_step_elsewhere")
        else:
            kept.append(s)
    return kept


# the places list's tags copied into a step: "goes to Willow Park (work) and starts"
_AREA_TAG = re.compile(r"\s*\((?:work|home)\)", re.I)


def _as_own(core: MindCore, s: Step) -> Step:
    """A step less its resident's own name in front and the places list's tags: Nora's steps of
    75fad48's day were "nora Lindqvist goes to Willow Park (work) and starts", and others saw
    "Nora Lindqvist is nora Lindqvist goes to ..." all morning."""
    p = core.persona
    text = _AREA_TAG.sub("", s[0])
    lead = re.match(rf"\s*(?:{re.escape(p.name)}|{re.escape(p.first_name)})\b[\s,:]*(?:is\s+)?", text, re.I)
    if lead is not None and text[lead.end():].strip():
        text = as_doing(text[lead.end():])
    return s if text == s[0] else (text, s[1], s[2])


def _anothers(core: MindCore, text: str) -> bool:
    """Whether a step begins with the name of another person the resident knows: that one's doing,
    not its own."""
    names = sorted({n for who in core.persona.relationships if who and who != core.persona.name
                    for n in (who, who.split()[0])}, key=len, reverse=True)
    if not names:
        return False
    m = re.match(rf"\s*(?:{'|'.join(map(re.escape, names))})\s+(?:\([^()]*\)\s*)?([a-z]+)", text, re.I)
    return m is not None and bare_verb(m.group(1).lower()) is not None


def _content(text: str) -> set[str]:
    """A line's words less the small ones (``dayoptions.content_words``), cut to five letters so that
    "campaign" meets "campaigning"."""
    return {w[:5] for w in content_words(text) if len(w) > 2}


def off_block(core: MindCore, steps: list[Step], block: PlanBlock) -> list[Step]:
    """A block's steps, or the block's own activity as its one step where the answer for it went
    round in circles and none of it speaks of the block: the same lines twice and no word of the
    activity ("going to work", "visiting Maria Lopez's apartment", twice each, for "planning my
    campaign for mayor", the block the whisper put in her afternoon).  Counted ``steps_off_block``."""
    lines = [d.lower() for d, _, _ in steps]
    want = _content(block.activity)
    if len(set(lines)) == len(lines) or not want or any(want & _content(d) for d in lines):
        return steps
    core.count("steps_off_block")
    return [(block.activity, sum(m for _, m, _ in steps), StepItem(action=block.activity,
                                                                   minutes=sum(m for _, m, _ in steps), place=""))]


def grouped(core: MindCore, ans: DecomposeAnswer, window: list[PlanBlock], minute: int,
            end: int, named: Named | None = None) -> list[tuple[PlanBlock | None, int, list[Step]]]:
    """The answer's steps as (block, its first minute, steps fitted to it): each block's own
    steps in its own minutes (less those ``own_steps`` refuses); an answer of one list over the
    whole window (block None: each step then in the block its minutes fall in).  A block whose
    steps were capped short ends the window there: the rest is decomposed when these run out."""
    per = ans.per_block() if isinstance(ans, BlockSteps) else None
    if per is None:
        steps = [(s.action or window[0].activity, s.minutes, s) for s in ans.items()]
        return [(None, minute, fitted(core, steps, minute, end))]
    out: list[tuple[PlanBlock | None, int, list[Step]]] = []
    for b, items in zip(window, per):
        a = max(b.start, minute)
        steps = off_block(core, own_steps(core, [(s.action or b.activity, s.minutes, s) for s in items], b, named), b)
        these = fitted(core, steps, a, b.end) or [(b.activity, b.end - a, StepItem(action=b.activity,
                                                                                   minutes=b.end - a, place=""))]
        out.append((b, a, these))
        if sum(m for _, m, _ in these) < b.end - a:
            break
    return out


def fitted(core: MindCore, steps: list[Step], a: int, b: int) -> list[Step]:
    """Steps less sleep in waking hours, scaled to fill minutes ``a`` to ``b``, none too long."""
    steps = awake_steps(core, steps, a, b)
    return capped(core, scale_steps(steps, b - a)) if steps else []


def block_key(b: PlanBlock, minute: int) -> str:
    """A block as the decompose answer's key: its hour and activity ("08:00 run the town").  Keyed by the
    hour alone, a window generated a quarter fewer tokens (101 against 137 a call over the same dawn,
    2026-12-02), but its steps slid a block (Kenji wrote his column at breakfast and the pharmacy in the
    column's half hour), copied the block's words as a step ("running Bluebell Cafe" four times) and
    put another's doings in (Samuel's "grace tidies"): the activity in the key is what holds them."""
    return clean_text(f"{hhmm(max(b.start, minute))} {b.activity}", 48)
