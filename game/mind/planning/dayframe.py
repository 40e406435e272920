"""The shape of a resident's day from what the town knows of it, and the check of the model's day
against it (issue 38).

The frame is data: when it wakes and goes to bed, when it eats, when and where it works (the
lifestyle's schedule), and the free time between.  The model fills every line of the frame in the
resident's own words (plan_day.txt); ``check_day`` reads the answer against the frame and the town
before a single step is lived: at most one of each meal, no line repeated to fill time, work at
the resident's own place in its hours (unless the line says why not), no waking up or going to
sleep in the middle of the day, only places the town has.  What fails is asked again once with the
problems named; what still fails is mended by rule (the frame's own words) and counted.

Pure functions of the persona and the answer: no model, no state.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from game.mind.persona import Persona, Shift
from game.mind.schemas import clean_text
from game.mind.view import PlanBlock, hhmm

SlotKind = Literal["wake", "meal", "work", "free", "bed"]

MEAL_MIN = {"breakfast": 30}  # minutes a meal takes in the frame (others: MEAL_DEFAULT)
MEAL_DEFAULT = 45
WAKE_MIN = 30  # getting up and ready
BED_MIN = 30  # getting ready for bed
FREE_MAX = 180  # free time longer than this is two lines (the model fills each with something)
SHORTEST = 20  # free time or work shorter than this joins the line before it
FIXED_KINDS = ("wake", "meal", "bed")  # lines the model is shown but does not write: the frame's own words
A_WORKDAY = date(2026, 3, 2)  # a Monday: the usual day, where no day is given


def at_place(place: str, words: str) -> str:
    """" (at Town Hall)": where a line happens, for a prompt, when its words do not say it already."""
    where = place.split(":")[0] if place else ""
    return f" (at {where})" if where and where.lower() not in words.lower() else ""


@dataclass(frozen=True)
class Slot:
    """One line of the day's frame."""

    start: int
    end: int
    kind: SlotKind
    label: str  # the frame's own words: "breakfast", "run Bluebell Cafe", "free time"
    place: str = ""  # an address where the frame says where (home, the shift's place), else ""

    def prompt_line(self, n: int) -> str:
        return f"{n}. {hhmm(self.start)}-{hhmm(self.end)} {self.label}{at_place(self.place, self.label)}"

    def default(self) -> str:
        """The frame's own words for the line (waking, bed; a line mended by rule)."""
        return {"wake": "getting up and ready for the day", "bed": "getting ready for bed",
                "free": "free time", "meal": f"having {self.label}"}.get(self.kind, self.label)


def shifts_of(persona: Persona) -> list[Shift]:
    """The fixed parts of its days: the schedule, else (a file with none, an old save) with a
    workplace its work from ``work_start`` to ``work_end`` on weekdays."""
    p = persona
    if p.schedule or not p.workplace:
        return list(p.schedule)
    return [Shift(max(p.work_start, p.wake + WAKE_MIN), p.work_end, "work", p.workplace, (0, 1, 2, 3, 4))]


def _meal_at(persona: Persona, day: date, t: int) -> str:
    """Where a meal at minute ``t`` is had by the frame: at the shift's place when it falls in a shift."""
    for sh in shifts_of(persona):
        if day.weekday() in sh.days and sh.start <= t < sh.end:
            return sh.place
    return ""


def frame_for(persona: Persona, day: date, start: int | None = None) -> list[Slot]:
    """The frame of ``persona``'s ``day`` from ``start`` (default: waking) to bed: each minute is
    the kind painted last over it (free, then shifts, then meals, then waking and bed), and runs of
    one kind are a line."""
    p = persona
    wake, bed = p.wake, p.sleep
    if bed - wake < WAKE_MIN + BED_MIN + 30:
        return [Slot(wake, bed, "free", "free time")]
    n = bed - wake
    paint: list[tuple[SlotKind, str, str]] = [("free", "free time", "")] * n

    def fill(a: int, b: int, what: tuple[SlotKind, str, str]) -> None:
        for m in range(max(a, wake), min(b, bed)):
            paint[m - wake] = what

    for sh in shifts_of(p):
        if day.weekday() in sh.days:
            fill(sh.start, sh.end, ("work", sh.what, sh.place))
    for name, t in p.meals:
        t = min(max(t, wake + WAKE_MIN), bed - BED_MIN - 15)  # a meal at waking comes after getting up
        length = MEAL_MIN.get(name, MEAL_DEFAULT)
        fill(t, t + length, ("meal", name, _meal_at(p, day, t)))
    home = p.home
    fill(wake, wake + WAKE_MIN, ("wake", "wake up and get ready", home))
    fill(bed - BED_MIN, bed, ("bed", "get ready for bed", home))
    runs: list[list] = []
    for i, what in enumerate(paint):
        if runs and runs[-1][2] == what:
            runs[-1][1] = wake + i + 1
        else:
            runs.append([wake + i, wake + i + 1, what])
    slots: list[Slot] = []
    for a, b, (kind, label, place) in runs:
        if slots and b - a < SHORTEST and kind in ("free", "work") and slots[-1].kind != "bed":
            slots[-1] = Slot(slots[-1].start, b, slots[-1].kind, slots[-1].label, slots[-1].place)
            continue
        if kind == "free" and b - a > FREE_MAX:
            mid = a + (b - a) // 2
            mid -= mid % 30 if b - mid > 30 else 0
            slots += [Slot(a, mid, "free", "free time"), Slot(mid, b, "free", "free time")]
            continue
        slots.append(Slot(a, b, kind, label, place))
    if start is not None:
        slots = [Slot(max(s.start, start), s.end, s.kind, s.label, s.place) for s in slots if s.end > start]
    return slots


def frame_text(slots: Sequence[Slot], fixed: dict[int, str] | None = None,
               choices: dict[int, Sequence[str]] | None = None) -> str:
    """The frame as the prompt shows it: "08:00-12:30 run the town (at Town Hall)"; a line the model
    does not write shows its own words ("06:30-07:00 having breakfast"), so only the lines to write
    carry a label to fill (a marker such as "(fixed)" was copied into the lines); a line to choose
    lists its choices ("17:00-19:00 free time, one of: a walk in Willow Park | reading at home")."""
    out = []
    for i, s in enumerate(slots):
        line = s.prompt_line(i + 1)[len(str(i + 1)) + 2:]
        if fixed and i in fixed:
            line = f"{hhmm(s.start)}-{hhmm(s.end)} {fixed[i]}"
        elif choices and choices.get(i):
            line += ", one of: " + " | ".join(choices[i])
        out.append(line)
    return "\n".join(out)


# a fixed line the model moved, with its reason: "instead, help Samuel at the cafe because ..." (not
# "instead of having lunch, ...": no reason, and another thing than the line); a "for" is no reason
# ("instead, plan the cake and the food for Grace's party", Ines's whole morning at the cafe on 6186d53's day)
INSTEAD = re.compile(r"^\s*instead\s*,\s*(?=.*?\b(?:because|since|as|so|to)\b)", re.I)  # (first word too: "as I ...")


def blocks_of(slots: Sequence[Slot], lines: Sequence[str], named: Callable[[str], str | None] | None = None,
              max_block: int = 120, options: Sequence[str] = ()) -> tuple[PlanBlock, ...]:
    """The plan's blocks: each slot with its line (long ones in parts of at most ``max_block``).  A
    fixed line the model moved ("instead, ...") happens where it says, if it names a place; one that
    begins one of the day's ``options`` (what the resident means to do) is that option whole."""
    out: list[PlanBlock] = []
    for s, text in zip(slots, lines):
        text = clean_text(text, 120) or s.default()
        kind: str = s.kind
        place = s.place
        if INSTEAD.match(text) and re.match(r"^\s*instead\s*,\s*(?:because|since|as|so)\b[^,;]*$", text, re.I):
            text = s.default()  # a reason and nothing done ("instead, because Ines is already running Bluebell
            # Cafe and wants to keep it", her whole morning's words on a9a17c8's day): the line as framed
        elif INSTEAD.match(text) and s.kind in ("work", "free", "meal"):
            kind = "moved"
            place = (named(text) if named is not None else None) or ""
            text = INSTEAD.sub("", text).strip(" ,:") or s.default()  # the block says what, its kind that it moved
            text = whole_option(text, options)
        n = max(1, -(-(s.end - s.start) // max_block))
        step = (s.end - s.start) / n
        for i in range(n):
            a = s.start + round(i * step)
            b = s.end if i == n - 1 else s.start + round((i + 1) * step)
            out.append(PlanBlock(a, b, text, place, kind))
    return tuple(out)


def whole_option(text: str, options: Sequence[str]) -> str:
    """A moved line less the prompt's "choose", and whole when it begins one of ``options`` ("instead,
    choose invite people to Grace's surprise party without Grace finding", Samuel's afternoon on
    a9a17c8's day: the thing he means to do, cut off)."""
    text = re.sub(r"^(?:choose|chose|pick)\s+(?:to\s+)?", "", text, flags=re.I)
    said = re.findall(r"[a-z']+", text.lower())
    for o in options:
        words = re.findall(r"[a-z']+", o.lower())
        if len(said) >= 4 and len(said) < len(words) and words[:len(said)] == said:
            return o.strip()
    return text


def routine_day(persona: Persona, day: date, start: int | None = None, max_block: int = 120) -> tuple[PlanBlock, ...]:
    """The frame in its own words: the day by rule, with no model (the routine)."""
    slots = frame_for(persona, day, start)
    return blocks_of(slots, [_routine_words(s) for s in slots], max_block=max_block)


def _routine_words(s: Slot) -> str:
    if s.kind == "meal":
        return f"having {s.label}"
    if s.kind == "free":
        return "relaxing at home"
    return s.default()
