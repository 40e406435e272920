"""What an interview answer says the resident will do on a day it names (issue 39): each such
sentence is held to what the resident holds of that day: its plan (today), its frame (its shifts,
meals and rest, for any other day), the gatherings it knows of on that day, and the lines of what
it holds that name that day.  Asked what it is busy with this week, Samuel said "a walk in Willow
Park on Wednesday morning" and "dinner with Grace on Wednesday morning" (the panel, 8267fec):
nothing he holds has either.  answering._problems asks this of every answer."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date, datetime, timedelta

from game.mind.facts.fact import Fact
from game.mind.facts.hours import clock_times, merged, stems
from game.mind.facts.unbacked import sentences
from game.mind.facts.when import WEEKDAYS, read_when
from game.mind.view import PlanBlock, hhmm

# ("Today, however, she is doing the laundry", Rosa's usual weekday on 356ade6's save: nothing she holds)
_DAY_WORD = re.compile(r"\b(?P<d>today|tonight|tomorrow|" + "|".join(WEEKDAYS) + r")\b", re.I)
# a plan of its own, said as one ("I will", "I am planning to", "I'm preparing for"); a wish is no claim
_FUTURE = re.compile(r"\b(?:will|'ll|plan(?:s|ning)?\s+(?:to|on)|going to|preparing|scheduled|"
                     r"(?:I'm|I am|we're|we are)\s+(?:also\s+)?\w+ing)\b", re.I)
# what one is, not what one does ("Today I am thinking about the debate")
_STATE = re.compile(r"\b(?:I'm|I am)\s+(?:also\s+|really\s+|just\s+)?(?:feeling|thinking|wondering|worrying|worried|"
                    r"hoping|looking forward|reflecting|excited|glad|happy|grateful|tired|busy|free)\b", re.I)
_OF_TODAY = re.compile(r"\b(?:today|tonight|after work)\b", re.I)  # (or a clock time: hours.clock_times)
_PAST = re.compile(r"\b(?:last|yesterday|ago|went|was|were|did|had)\b", re.I)
_OWN = re.compile(r"\b(?:I|I'm|I'll|we|we're|we'll|my|our)\b")
# parts of a day, broad: a sentence's part must meet the hours of what backs it
_PARTS = {"morning": (5 * 60, 12 * 60), "afternoon": (12 * 60, 18 * 60), "evening": (17 * 60, 24 * 60),
          "tonight": (17 * 60, 24 * 60), "night": (19 * 60, 24 * 60)}
_WORDS = {"morning", "afternoon", "evening", "tonight", "night", "planning", "preparing", "looking", "forward",
          "also", "busy", "week", "weekend", "next", "day", "days", "time", "spend", "spending", "enjoy", "really",
          "excited", "sure", "make", "making", "later", "early", "lot", *WEEKDAYS, "january", "february", "march",
          "april", "june", "july", "august", "september", "october", "november", "december"}


def day_named(word: str, now: datetime) -> date:
    """The day a word names, by the clock of ``now`` (when.py): "tomorrow", or the weekday on or after today."""
    day = read_when(word, now)[0]
    assert day is not None, word  # (only the words _DAY_WORD finds are asked)
    return day


def _hours(sent: str) -> tuple[int, int] | None:
    """The hours a sentence gives what it plans: a clock time (an hour either side), or a part of the day."""
    times = clock_times(sent)
    if times:
        return times[0] - 60, times[0] + 60
    low = sent.lower()
    return next((span for part, span in _PARTS.items() if re.search(rf"\b{part}\b", low)), None)


def held_of(day: date, now: datetime, *, blocks: Sequence[PlanBlock], facts: Sequence[Fact],
            basis: str) -> list[tuple[str, tuple[int, int] | None]]:
    """What the resident holds of ``day``: each thing with its hours when they are known."""
    out: list[tuple[str, tuple[int, int] | None]] = [(b.activity, (b.start, b.end)) for b in merged(blocks)]
    out += [(f"{f.what} {f.place}", (f.start, f.end or f.start + 120) if f.start is not None else None)
            for f in facts if f.day == day]
    names = {WEEKDAYS[day.weekday()]} | ({"tomorrow"} if day == now.date() + timedelta(days=1) else set()) | (
        {"today", "tonight"} if day == now.date() else set())
    out += [(ln, None) for ln in re.split(r"[\n.;]", basis) if names & set(re.findall(r"[a-z]+", ln.lower()))]
    return out


def _backed(sent: str, held: Sequence[tuple[str, tuple[int, int] | None]], skip: set[str]) -> bool:
    said = stems(_DAY_WORD.sub(" ", sent), skip)
    if not said:
        return True  # it says nothing of what it does ("I'll be busy on Tuesday")
    span = _hours(sent)
    for what, hours in held:
        if said & stems(what, skip) and (span is None or hours is None or (hours[0] < span[1] and span[0] < hours[1])):
            return True
    return False


def summary(day: date, now: datetime, blocks: Sequence[PlanBlock], facts: Sequence[Fact]) -> str:
    """What is held of ``day``, in a line for asking again: its work, its gatherings, the rest not planned."""
    minute = now.hour * 60 + now.minute
    said = [f"{b.activity} from {hhmm(b.start)} to {hhmm(b.end)}" for b in merged(blocks)
            if (b.kind == "work" if day != now.date() else b.end > minute)][:6]
    said += [f.sentence(now) for f in facts if f.day == day]
    rest = "the rest is not planned yet" if day != now.date() else "nothing else"
    return f"{'; '.join(said)}; {rest}" if said else "nothing is planned for it yet"


def days_unbacked(answer: str, me: str, now: datetime, *, today: Sequence[PlanBlock],
                  frame: Callable[[date], Sequence[PlanBlock]], facts: Sequence[Fact], basis: str,
                  names: Sequence[str], asked: str = "") -> list[tuple[str, str]]:
    """The sentences of ``answer`` in which the resident plans something on a day it names that
    nothing it holds of that day backs, each with the hint for asking again; ``today``: today's
    plan, ``frame``: the frame of any other day, ``names``: the town's people and places, whose
    words alone back nothing ("dinner with Grace" is not backed by Grace's party).  A part of today already past,
    said as to come, is no plan unless the question ``asked`` asks of today's hours ("What will you be doing at
    10am today?", asked at 22:00)."""
    skip = _WORDS | {w.lower() for n in names for w in re.findall(r"[A-Za-z]+", n)}
    first = me.split()[0]
    out: list[tuple[str, str]] = []
    for sent in sentences(answer):
        if not _FUTURE.search(sent) or _PAST.search(sent) or not _OWN.search(sent):
            continue
        for word in dict.fromkeys(m.group("d").lower() for m in _DAY_WORD.finditer(sent)):
            if word in ("today", "tonight") and _STATE.search(sent):
                continue  # "Today I'm feeling happy": no doing
            day = day_named(word, now)
            blocks = today if day == now.date() else frame(day)
            span = _hours(sent) if day == now.date() and not (_OF_TODAY.search(asked) or clock_times(asked)) else None
            if span is not None and span[1] <= now.hour * 60 + now.minute:  # "on Monday morning", at 22:00 Monday
                out.append((sent, f"That time of {day:%A} is past: say what is still to come, "
                                  f"{summary(day, now, blocks, facts)}."))
                break
            if not _backed(sent, held_of(day, now, blocks=blocks, facts=facts, basis=basis), skip):
                out.append((sent, f"Say only what {first} holds of {day:%A}: {summary(day, now, blocks, facts)}."))
                break
    return out
