"""The typed answers the mind asks the model for.

Each class is sent as a JSON schema (the server constrains its output to it) and the answer is
validated into it.  Numbers out of range are clamped before validation, so a server that ignores
the schema's bounds still yields usable values; text is cleaned of control characters and capped.
Everything the model writes is plain text to the rest of the game.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, Field

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u202a-\u202e\u2066-\u2069]")


def clean_text(value: object, max_len: int = 300) -> str:
    """Plain, single-line text: control and bidi characters removed, whitespace collapsed, capped."""
    s = "" if value is None else str(value)
    s = _CONTROL.sub(" ", s)
    s = " ".join(s.split())
    if len(s) > max_len:
        s = s[: max_len - 1].rstrip() + "\u2026"
    return s


def _clamp(lo: int, hi: int, default: int):
    def f(v: object) -> int:
        try:
            x = int(round(float(v)))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            return default
        return max(lo, min(hi, x))
    return f


def _text(max_len: int):
    return lambda v: clean_text(v, max_len)


Score = Annotated[int, BeforeValidator(_clamp(1, 10, 3)), Field(ge=1, le=10)]
Hour = Annotated[int, BeforeValidator(_clamp(0, 26, 8)), Field(ge=0, le=26)]
Minutes = Annotated[int, BeforeValidator(_clamp(5, 60, 10)), Field(ge=5, le=60)]
ShortText = Annotated[str, BeforeValidator(_text(120)), Field(max_length=120)]
LongText = Annotated[str, BeforeValidator(_text(400)), Field(max_length=400)]


class ImportanceAnswer(BaseModel):
    """One score per numbered memory, in order."""

    scores: list[Score] = Field(max_length=40)


class PlanItem(BaseModel):
    start_hour: Hour
    end_hour: Hour
    activity: ShortText


class DayPlanAnswer(BaseModel):
    plan: list[PlanItem] = Field(min_length=1, max_length=14)


class StepItem(BaseModel):
    action: ShortText
    minutes: Minutes
    place: Annotated[str, BeforeValidator(_text(160))]
    emoji: Annotated[str, BeforeValidator(_text(16))]
    object_state: Annotated[str, BeforeValidator(_text(40))] = ""


class DecomposeAnswer(BaseModel):
    steps: list[StepItem] = Field(min_length=1, max_length=12)


class ReactAnswer(BaseModel):
    decision: Literal["continue", "react", "talk"]
    talk_to: Annotated[str, BeforeValidator(_text(60))] = ""
    new_action: ShortText = ""
    place: Annotated[str, BeforeValidator(_text(160))] = ""
    emoji: Annotated[str, BeforeValidator(_text(16))] = ""
    minutes: Minutes = 10


class LineAnswer(BaseModel):
    say: Annotated[str, BeforeValidator(_text(300))]
    end_conversation: bool = False


class QuestionsAnswer(BaseModel):
    questions: list[ShortText] = Field(min_length=1, max_length=3)


class Insight(BaseModel):
    insight: LongText
    evidence: list[Annotated[int, BeforeValidator(_clamp(-1, 999, -1))]] = Field(default_factory=list,
                                                                                   max_length=10)


class InsightsAnswer(BaseModel):
    insights: list[Insight] = Field(min_length=1, max_length=5)


class IdentityAnswer(BaseModel):
    summary: LongText


class AnswerText(BaseModel):
    answer: LongText


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
