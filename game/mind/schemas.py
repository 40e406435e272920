"""The typed answers the mind asks the model for.

Each class is sent as a JSON schema (the server constrains its output to it) and the answer is
validated into it.  Numbers out of range are clamped before validation, so a server that ignores
the schema's bounds still yields usable values; text is cleaned of control characters and capped.
Everything the model writes is plain text to the rest of the game.
"""

from __future__ import annotations

import functools
import operator
import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache
from typing import Annotated, Literal, Protocol, cast

from pydantic import BaseModel, BeforeValidator, Field, create_model

from game.mind.planning.wording import fit_action
from game.text import one_line


def clean_text(value: object, max_len: int = 300) -> str:
    """Plain, single-line text (``game.text.one_line``): no escapes or controls, capped."""
    return one_line(value, max_len)


def _clamp(lo: int, hi: int, default: int) -> Callable[[object], int]:
    def f(v: object) -> int:
        try:
            x = float(v)  # type: ignore[arg-type]  # any value: what float() refuses is caught
        except (TypeError, ValueError):
            return default
        except OverflowError:  # an integer too big for a float: past one end or the other
            return hi if v > 0 else lo  # type: ignore[operator]  # an int, too big for a float
        if x != x:  # NaN
            return default
        if x in (float("inf"), float("-inf")):  # 1e999, Infinity
            return hi if x > 0 else lo
        return max(lo, min(hi, int(round(x))))
    return f


def bounded_text(max_len: int) -> Callable[[object], str]:
    return lambda v: clean_text(v, max_len)


def _action(max_len: int) -> Callable[[object], str]:
    """What a resident does, as others will see it: whole words, a bare verb first made "-ing"
    (game/mind/planning/wording.py)."""
    return lambda v: fit_action(clean_text(v, max_len), max_len)


ActionText = Annotated[str, BeforeValidator(_action(60)), Field(max_length=60)]
Score = Annotated[int, BeforeValidator(_clamp(1, 10, 3)), Field(ge=1, le=10)]
Hour = Annotated[int, BeforeValidator(_clamp(0, 26, 8)), Field(ge=0, le=26)]
Minutes = Annotated[int, BeforeValidator(_clamp(5, 60, 10)), Field(ge=5, le=60)]
ShortText = Annotated[str, BeforeValidator(bounded_text(120)), Field(max_length=120)]
LongText = Annotated[str, BeforeValidator(bounded_text(400)), Field(max_length=400)]


RATINGS = {"routine": 1, "minor": 3, "notable": 5, "important": 7, "huge": 9}


def _rating(v: object) -> str:
    t = str(v).strip().lower()
    if t in RATINGS:
        return t
    try:  # a number where a word was asked for
        n = float(t)
    except ValueError:
        return "minor"
    return min(RATINGS, key=lambda k: abs(RATINGS[k] - n))


def _rating_or_none(v: object) -> str:
    """A rating word, or "" for none (as a recording of an answer without one stores it)."""
    return "" if v is None or str(v).strip() == "" else _rating(v)


class ImportanceAnswer(BaseModel):
    """One rating word per memory, in order.  Words, not numbers: a small model asked for numbers
    for a numbered list tends to count (1, 2, 3...); words map to 1, 3, 5, 7, 9."""

    ratings: list[Annotated[Literal["routine", "minor", "notable", "important", "huge"],
                            BeforeValidator(_rating)]] = Field(max_length=40)

    @property
    def scores(self) -> list[int]:
        return [RATINGS[r] for r in self.ratings]


_PLAN_LINE = re.compile(r"^\s*(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm)?\s*(?:-|to|\u2013)\s*(\d{1,2})(?:[:.](\d{2}))?"
                        r"\s*(am|pm)?\s*[:,.)-]?\s+(.+)$", re.I)


def parse_plan_line(line: str) -> tuple[int, int, str] | None:
    """ "8-12 bake bread" -> (480, 720, "bake bread"); also "8:30-10 ...", "8am to 10am ..."."""
    line = (line or "").replace("<- now", "")  # a marker of the context, copied back
    m = _PLAN_LINE.match(line)
    if not m:
        return None
    h1, m1, ap1, h2, m2, ap2, text = m.groups()

    def minutes(h: str, mm: str | None, ap: str | None) -> int:
        hour = int(h)
        if ap and ap.lower() == "pm" and hour < 12:
            hour += 12
        return hour * 60 + int(mm or 0)

    a, b = minutes(h1, m1, ap1), minutes(h2, m2, ap2)
    if a > 26 * 60 or b > 26 * 60:
        return None
    if b <= a and b + 24 * 60 - a <= 8 * 60:  # "22-1 party" runs past midnight
        b += 24 * 60
    text = clean_text(text, 80)
    return (a, b, text) if text and b > a else None


class DayPlanAnswer(BaseModel):
    """Blocks as compact lines, "START-END activity" in whole hours: fewer tokens than objects."""

    plan: list[Annotated[str, BeforeValidator(bounded_text(80)), Field(max_length=80)]] = Field(min_length=1,
                                                                                        max_length=12)

    def blocks(self) -> list[tuple[int, int, str]]:
        ranges = [b for b in (parse_plan_line(x) for x in self.plan) if b is not None]
        if len(ranges) * 2 >= len(self.plan):
            return ranges
        starts = parse_start_times(self.plan)  # "07-30 talk to Klaus": clock times, not ranges
        return starts if len(starts) > len(ranges) else ranges


_START_LINE = re.compile(r"^\s*(\d{1,2})[-:.h](\d{2})\s*[:,.)-]?\s+(.+)$")


def parse_start_times(lines: list[str]) -> list[tuple[int, int, str]]:
    """Lines that give when each activity starts ("07-30 talk to Klaus", "8:00 open the shop"): each
    runs until the next one starts, the last for an hour.  Only when the times go forward."""
    found: list[tuple[int, str]] = []
    for line in lines:
        m = _START_LINE.match((line or "").replace("<- now", ""))
        if not m:
            continue
        h, mm, text = int(m.group(1)), int(m.group(2)), clean_text(m.group(3), 80)
        if h > 26 or mm >= 60 or not text:
            continue
        t = h * 60 + mm
        if found and t <= found[-1][0]:
            continue
        found.append((t, text))
    return [(t, nxt[0] if nxt else t + 60, text)
            for (t, text), nxt in zip(found, [*found[1:], None])]


class ReactAnswer(BaseModel):
    decision: Literal["continue", "react", "talk"]
    talk_to: Annotated[str, BeforeValidator(bounded_text(40)), Field(max_length=40)] = ""
    new_action: ActionText = ""
    place: Annotated[str, BeforeValidator(bounded_text(160))] = ""
    emoji: Annotated[str, BeforeValidator(bounded_text(8)), Field(max_length=8)] = ""
    minutes: Minutes = 10
    state: Annotated[str, BeforeValidator(bounded_text(30)), Field(max_length=30)] = ""


StateText = Annotated[str, BeforeValidator(bounded_text(30)), Field(max_length=30)]
Decision = Literal["continue", "react", "talk"]


def _one_of(values: tuple[str, ...], max_len: int = 30) -> type[str]:  # str, annotated at run time
    """Text the schema sent limits to ``values`` (validation does not: the mind judges the answer)."""
    # (pydantic reads the Annotated form as the str field it describes)
    return cast(type[str], Annotated[str, BeforeValidator(bounded_text(max_len)),
                                     Field(max_length=max_len, json_schema_extra={"enum": list(values)})])


@lru_cache(maxsize=64)
def meet_answer(people: tuple[str, ...]) -> type[BaseModel]:
    """The answer to seeing someone (``meet.txt``): a few words of why, then whom the resident
    starts a conversation with, one of ``people`` (those it can talk to now) or "" for nobody; the
    schema holds the name to those, so a small model cannot name anyone else.  Every answer a test
    model gives to a "react" (``decision``, ``talk_to``) reads into it: its other fields are left
    out, and its ``talk_to`` is what counts."""
    return create_model("MeetAnswer", why=(Annotated[str, BeforeValidator(bounded_text(80)), Field(max_length=80)], ""),
                        talk_to=(_one_of(("", *people), 40), ""))


class MeetReply(Protocol):
    """What an answer of ``meet_answer`` holds (a model made at run time)."""

    why: str
    talk_to: str


@lru_cache(maxsize=64)
def hazard_answer(states: tuple[str, ...]) -> type[BaseModel]:
    """The answer to a hazard seen (``react_hazard.txt``): a ``ReactAnswer`` less its place (the
    thing in danger is the place) whose schema lets the state be one of the thing's own
    ``states`` or none, so a small model names one the world knows and the world judges whether
    it makes the thing safe.  Named ``ReactAnswer``: it is one (every test model answers it so)."""
    return create_model("ReactAnswer", decision=(Decision, ...),
                        talk_to=(Annotated[str, BeforeValidator(bounded_text(40)), Field(max_length=40)], ""),
                        new_action=(ActionText, ""),
                        emoji=(Annotated[str, BeforeValidator(bounded_text(8)), Field(max_length=8)], ""),
                        minutes=(Minutes, 10), state=(_one_of(("", *states)), ""))


@lru_cache(maxsize=64)
def mend_answer(safe: tuple[str, ...]) -> type[BaseModel]:
    """The hazard asked again, plainly (``mend.txt``): what the resident does to the thing, whose
    schema lets the decision be "react" and the state only one that makes it safe.  A server
    that ignores the schema may still answer otherwise: the mind judges it as the first."""
    return create_model("ReactAnswer", decision=(_one_of(("react",)), "react"),
                        new_action=(ActionText, ""),
                        emoji=(Annotated[str, BeforeValidator(bounded_text(8)), Field(max_length=8)], ""),
                        minutes=(Minutes, 10), state=(_one_of(safe), ""))


class HazardReply(Protocol):
    """What the answers of ``hazard_answer`` and ``mend_answer`` hold (models made at run time, so
    a Protocol to read them by)."""

    decision: str
    new_action: str
    emoji: str
    minutes: int
    state: str


class LineAnswer(BaseModel):
    say: Annotated[str, BeforeValidator(bounded_text(200)), Field(max_length=200)]
    end_conversation: bool = False


SAY_MAX = 220  # a line of a talk written whole, in characters (the schema's maxLength)
SayText = Annotated[str, BeforeValidator(bounded_text(SAY_MAX)), Field(max_length=SAY_MAX)]


# the lines of a talk written whole: after the speakers' points, a small model filled a talk of six with
# what no one holds (furniture for a living room, a milkshake's recipe, a parking spot, on 4151289's day);
# an answer with more is cut to these (converse.txt asks for 2 to 4)
SCRIPT_LINES = 4


def _first_lines(v: object) -> object:
    return v[:SCRIPT_LINES] if isinstance(v, list) else v


class ScriptLine(BaseModel):
    speaker: Annotated[str, BeforeValidator(bounded_text(40)), Field(max_length=40)]
    say: SayText


class ScriptAnswer(BaseModel):
    """A whole conversation (``Mind.converse``).  The schema sent names the speakers
    (``script_answer``); a speaker the talk does not have is dropped by the mind, not refused
    here, so that a server that ignores the schema still gives the lines it got right."""

    lines: Annotated[list[ScriptLine], BeforeValidator(_first_lines)] = Field(min_length=1, max_length=SCRIPT_LINES)
    # how much the talk matters to those in it (after the lines, so that it rates what was said):
    # their memories of it take this instead of a later importance call on each line. The schema
    # sent asks for it; an answer without it (a server that ignores schemas) leaves the lines to
    # be rated as before ("").
    matters: Annotated[str, BeforeValidator(_rating_or_none), Field(json_schema_extra={"enum": list(RATINGS)})] = ""

    @property
    def importance(self) -> float | None:
        return float(RATINGS[self.matters]) if self.matters in RATINGS else None


REPLY = "reply"  # a tagged line's point when it answers the line before (talk/points.py)


class TaggedLine(BaseModel):
    """A line of a talk that first names what it brings up: one of its speaker's own points by its
    tag ("Felix 2"), or ``REPLY``.  The point comes before the words, so the words follow it."""

    speaker: Annotated[str, BeforeValidator(bounded_text(40)), Field(max_length=40)]
    point: Annotated[str, BeforeValidator(bounded_text(40)), Field(max_length=40)] = REPLY
    say: SayText


@lru_cache(maxsize=64)
def tagged_script_answer(tags: tuple[tuple[str, tuple[str, ...]], ...]) -> type[ScriptAnswer]:
    """``ScriptAnswer`` whose schema has each line by one of the speakers of ``tags`` ((speaker, its
    points' tags), ...) bring up one of that speaker's own points or reply: a line cannot name
    another's point as its own.  Validation is as loose as ``script_answer``'s."""
    kinds = [create_model(f"LineOf{i}", __base__=TaggedLine, speaker=(_one_of((who,), 40), ...),
                          point=(_one_of((REPLY, *own), 40), REPLY)) for i, (who, own) in enumerate(tags)]
    line = functools.reduce(operator.or_, kinds)  # (a union of the kinds: made at run time)
    lines = Annotated[list[line], BeforeValidator(_first_lines)]  # type: ignore[valid-type]
    return create_model("ScriptAnswer", __base__=ScriptAnswer,
                        lines=(lines, Field(min_length=1, max_length=SCRIPT_LINES)))


@lru_cache(maxsize=64)
def script_answer(speakers: tuple[str, ...]) -> type[ScriptAnswer]:
    """``ScriptAnswer`` whose schema lets each line's speaker be one of ``speakers`` only."""
    line = create_model("ScriptLine", __base__=ScriptLine, speaker=(_one_of(speakers, 40), ...))
    lines = Annotated[list[line], BeforeValidator(_first_lines)]  # type: ignore[valid-type]  # (made at run time)
    return create_model("ScriptAnswer", __base__=ScriptAnswer,
                        lines=(lines, Field(min_length=1, max_length=SCRIPT_LINES)))


class Insight(BaseModel):
    insight: Annotated[str, BeforeValidator(bounded_text(150)), Field(max_length=150)]
    evidence: list[Annotated[int, BeforeValidator(_clamp(-1, 999, -1))]] = Field(default_factory=list,
                                                                                   max_length=5)


class InsightsAnswer(BaseModel):
    insights: list[Insight] = Field(min_length=1, max_length=3)


IDENTITY_MAX = 300


class IdentityAnswer(BaseModel):
    summary: Annotated[str, BeforeValidator(bounded_text(IDENTITY_MAX)), Field(max_length=IDENTITY_MAX)]


# -------------------------------------------------------------------------------- emoji
_VS = {"\ufe0e", "\ufe0f"}


def is_wide_emoji(ch: str) -> bool:
    return len(ch) == 1 and unicodedata.east_asian_width(ch) == "W" and ord(ch) >= 0x2300


def pick_emoji(raw: str, fallback: str) -> str:
    """The first single wide emoji in ``raw`` (variation selectors and joiners dropped), else fallback."""
    for ch in raw or "":
        if ch in _VS or ch == "\u200d":
            continue
        if is_wide_emoji(ch):
            return ch
    return fallback


class AttendAnswer(BaseModel):
    """Whether a resident goes to a gathering it knows of (``planning/attending.py``)."""

    # the reason first: written before the decision, it weighs the plan and the person (on the
    # embedded model, 25 of 32 answers went with the reason first, 8 of 32 with it after; docs/MIND.md)
    why: Annotated[str, BeforeValidator(bounded_text(80)), Field(max_length=80)] = ""
    go: bool
