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


def frame_text(slots: Sequence[Slot], fixed: set[int] | None = None) -> str:
    """The frame as the prompt shows it: "08:00-12:30 run the town (at Town Hall)", the lines the
    model does not write marked "(fixed)"."""
    return "\n".join(s.prompt_line(i + 1)[len(str(i + 1)) + 2:] + (" (fixed)" if fixed and i in fixed else "")
                     for i, s in enumerate(slots))


# ---------------------------------------------------------------------------------------- checks
MEALS = ("breakfast", "brunch", "lunch", "dinner", "supper")
_MEAL_WORD = re.compile(r"\b(breakfast|brunch|lunch|dinner|supper)\b", re.I)
# a meal made, served or planned for others is not one eaten
_NOT_EATEN = re.compile(r"\b(serv\w*|cook\w*|prepar\w*|mak\w*|plan\w*|bak\w*|shop\w*|buy\w*|order\w*|"
                        r"set\w* up|deliver\w*|clear\w*|clean\w*)\b[^,;.]{0,25}$", re.I)
WAKE = re.compile(r"\b(wake|wakes|waking|woke|get(?:s|ting)? up|out of bed|alarm)\b", re.I)
SLEEP = re.compile(r"\b(sleep|sleeps|sleeping|asleep|go(?:es|ing)? to bed|ready for bed|bedtime|turn(?:s|ing)? in)\b",
                    re.I)
_IDLE = re.compile(r"^\W*(?:(?:take|taking|takes|have|having) a (?:break|rest|nap)|relax\w*|rest\w*|do(?:ing)? nothing|"
                   r"nothing|skip\w*|free time)\W*$", re.I)
_NAP = re.compile(r"\bnap", re.I)
_INSTEAD = re.compile(r"^\s*instead\b", re.I)
_GARBLED = re.compile(r"[\u0400-\u04ff\u0600-\u06ff\u0900-\u097f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_THE = re.compile(r"^\s*(?:at|in|to)?\s*(?:the\s+)?", re.I)
_CLOCK = re.compile(r"\d\s*(?:am|pm)\b|\b\d{1,2}:\d{2}\b", re.I)
_PART_OF_DAY = (("morning", 0, 12 * 60), ("afternoon", 12 * 60, 17 * 60), ("evening", 17 * 60, 30 * 60),
                ("night", 19 * 60, 30 * 60))
_WORD = re.compile(r"[a-z0-9]+")


def meals_eaten(text: str) -> list[str]:
    """The meals a line says the resident eats ("lunch with Samuel": lunch; "serve breakfast": none)."""
    out = []
    for m in _MEAL_WORD.finditer(text or ""):
        if not _NOT_EATEN.search(text[:m.start()]):
            w = m.group(1).lower()
            out.append("dinner" if w == "supper" else "lunch" if w == "brunch" else w)
    return out


def line_key(text: str) -> str:
    return " ".join(_WORD.findall((text or "").lower()))


@dataclass(frozen=True)
class Problem:
    line: int  # 0-based index into the frame
    what: str  # said to the model and kept beside the plan: "the 17:00 line has lunch, but lunch is the 12:30 line"
    kind: str = ""  # for the counts: empty, meal, wake, sleep, work, free, example, lacks, repeat


def check_day(slots: Sequence[Slot], lines: Sequence[str], *, named: Callable[[str], str | None] | None = None,
              lacks: Callable[[str], list[str]] | None = None, echo: Sequence[str] = (),
              fixed: set[int] | None = None, places: set[str] | None = None) -> list[Problem]:
    """What is wrong with ``lines`` (the model's words, one for each slot) as a day.  ``named``: the
    area of the town a line names, if any (to see work elsewhere); ``lacks``: the kinds of place a
    line names that the town has none of ("bank", "train station"); ``echo``: the prompt's example
    lines, which a line may not copy; ``fixed``: the lines that are the frame's own words (a line
    that repeats one is the other's problem); ``places``: the town's place names (as ``_key`` reads
    them), which alone are no line.  Each problem names its line by its hour ("the 17:00
    line")."""
    out: list[Problem] = []
    meal_line = {s.label: i for i, s in enumerate(slots) if s.kind == "meal"}
    copied = {line_key(e) for e in echo}
    seen: dict[str, int] = {}

    def at(i: int) -> str:
        return f"the {hhmm(slots[i].start)} line"

    for i, (s, text) in enumerate(zip(slots, lines)):
        text = text or ""
        k = line_key(text)
        if not k:
            out.append(Problem(i, f"{at(i)} is empty", "empty"))
            continue
        moved = bool(_INSTEAD.match(text)) and s.kind in ("work", "free", "meal") and len(k.split()) >= 4
        for meal in meals_eaten(text):
            if s.kind == "meal" and meal == s.label:
                continue
            if meal in meal_line and not moved:
                out.append(Problem(i, f"{at(i)} has {meal}, but {meal} is {at(meal_line[meal])}", "meal"))
                break
        if s.kind != "wake" and WAKE.search(text):
            out.append(Problem(i, f"{at(i)} wakes up, but the day starts at {at(0)}", "wake"))
        if s.kind != "bed" and SLEEP.search(text) and not (_NAP.search(text) and s.kind == "free"):
            out.append(Problem(i, f"{at(i)} goes to sleep, but bed is {at(len(slots) - 1)}", "sleep"))
        if s.kind == "work" and s.place and named is not None and not moved:
            there = named(text)
            if there and not same_area(there, s.place):
                out.append(Problem(i, f"{at(i)} is at {there.split(':')[0]} during {s.label} at "
                                      f"{s.place.split(':')[0]} (begin it with 'instead,' and say why, "
                                      f"or stay at work)", "work"))
        out += [Problem(i, f"{at(i)} {what}", kind) for what, kind in _wording(s, text, copied, places)]
        if lacks is not None:
            for kind in lacks(text):
                out.append(Problem(i, f"{at(i)} names a {kind}, which the town does not have", "lacks"))
        if k in seen and not (s.kind == "work" and slots[seen[k]].kind == "work" and slots[seen[k]].label == s.label):
            if fixed and i in fixed:  # the earlier line, the model's, repeats the frame's own
                out.append(Problem(seen[k], f"{at(seen[k])} repeats {at(i)}", "repeat"))
            else:
                out.append(Problem(i, f"{at(i)} repeats {at(seen[k])}", "repeat"))
        seen.setdefault(k, i)
    return out


def _wording(s: Slot, text: str, copied: set[str], places: set[str] | None) -> list[tuple[str, str]]:
    """What is wrong with a line's words themselves, as (what, kind): garbled, a place alone, another
    meal at a meal, an hour given, no work at work, "free time" said back, the example copied."""
    out = []
    if _GARBLED.search(text) or "(at " in text:
        out.append(("is not plain words of the day", "garbled"))
    if places is not None and line_key(_THE.sub("", text)) in places:
        out.append(("names only a place", "place"))
    if s.kind == "meal" and any(m != s.label for m in _MEAL_WORD.findall(text.lower())):
        out.append((f"is {s.label} but speaks of another meal", "meal"))
    if _CLOCK.search(text):
        out.append(("gives an hour: the frame has the hours", "hour"))
    if s.kind == "work" and _IDLE.match(text):
        out.append((f"is {s.label} but does no work", "work"))
    if s.kind == "free" and "free time" in text.lower():
        out.append(("says only 'free time'", "free"))
    if line_key(text) in copied:
        out.append(("copies the example", "example"))
    return out


def same_area(a: str, b: str) -> bool:
    return a.split(":")[0] == b.split(":")[0]


@dataclass(frozen=True)
class Checked:
    """A day read against its frame: the lines kept, the problems of each reading, what was mended."""

    lines: tuple[str, ...]
    first: tuple[Problem, ...]  # the first answer's problems
    again: tuple[Problem, ...] | None  # the second answer's, when asked again
    mended: tuple[int, ...]  # lines whose words are the frame's (no answer's line passed)

    def notes(self) -> tuple[str, ...]:
        out = [f"first answer: {p.what}" for p in self.first]
        if self.again is not None:
            out += [f"asked again: {p.what}" for p in self.again]
        out += [f"line {i + 1} mended by rule ({self.lines[i]!r})" for i in self.mended]
        return tuple(out)


def merge(slots: Sequence[Slot], first: Sequence[str], first_problems: Sequence[Problem],
          again: Sequence[str] | None, again_problems: Sequence[Problem] | None,
          fallback: Sequence[str] | None = None) -> Checked:
    """Each line from the first answer if it passed, else the second's if it passed, else
    ``fallback``'s (default: the frame's own words): the line is mended, and counted."""
    bad1 = {p.line for p in first_problems}
    bad2 = {p.line for p in again_problems or ()} if again is not None else set(range(len(slots)))
    lines, mended = [], []
    for i, s in enumerate(slots):
        if i not in bad1 and i < len(first):
            lines.append(first[i])
        elif again is not None and i not in bad2 and i < len(again):
            lines.append(again[i])
        else:
            lines.append(fallback[i] if fallback is not None else s.default())
            mended.append(i)
    asked = tuple(again_problems or ()) if again is not None else None
    return Checked(tuple(lines), tuple(first_problems), asked, tuple(mended))


SPARE_TIME = ("relaxing at home", "reading at home", "a walk around town", "tidying up at home",
              "writing letters at home", "resting at home")


def fallbacks(slots: Sequence[Slot], persona: Persona, lines: Sequence[str], keep: Sequence[str] | None,
              check: Callable[[list[str]], list[Problem]]) -> list[str]:
    """What a line that no answer passed says instead (mended by rule): the old plan's words where
    they pass (``keep``, for the rest of a day), else for free time one of the resident's own daily
    requirements not yet in the day (then plain spare time), else the frame's own words.  ``lines``:
    the day's lines that passed ("" where none did)."""
    out = list(lines)
    wants = [d.strip() for d in re.split(r";", persona.daily or "") if d.strip()]
    shifts = [set(line_key(sh.what).split()) for sh in shifts_of(persona)]
    # not a requirement that names its own hour or is the resident's work (it has its own lines)
    wants = [w for w in wants if not _CLOCK.search(w)
             and not any(len(set(line_key(w).split()) & sh) * 2 >= len(sh) for sh in shifts)]
    spare = list(SPARE_TIME)
    for i, s in enumerate(slots):
        if out[i]:
            continue
        if keep and keep[i]:
            trial = list(out)
            trial[i] = keep[i]
            if not [p for p in check([t or f"unplanned {j}" for j, t in enumerate(trial)]) if p.line == i]:
                out[i] = keep[i]
                continue
        if s.kind == "free":
            used = {line_key(x) for x in out}
            pick = next((w for w in wants + spare if line_key(w) not in used and not meals_eaten(w)
                         and not SLEEP.search(w) and not WAKE.search(w) and _fits_hour(w, s.start)), "")
            out[i] = clean_text(pick, 80) or s.default()
        else:
            out[i] = s.default()
    return out


def _fits_hour(text: str, minute: int) -> bool:
    """Whether a part of the day the text names ("in the evening") holds ``minute``."""
    low = text.lower()
    named = [(a, b) for word, a, b in _PART_OF_DAY if word in low]
    return not named or any(a <= minute < b for a, b in named)


def blocks_of(slots: Sequence[Slot], lines: Sequence[str], named: Callable[[str], str | None] | None = None,
              max_block: int = 120) -> tuple[PlanBlock, ...]:
    """The plan's blocks: each slot with its line (long ones in parts of at most ``max_block``).  A
    fixed line the model moved ("instead, ...") happens where it says, if it names a place."""
    out: list[PlanBlock] = []
    for s, text in zip(slots, lines):
        text = clean_text(text, 120) or s.default()
        kind: str = s.kind
        place = s.place
        if _INSTEAD.match(text) and s.kind in ("work", "free", "meal"):
            kind = "moved"
            place = (named(text) if named is not None else None) or ""
            text = _INSTEAD.sub("", text).lstrip(" ,:") or s.default()  # the block says what, its kind that it moved
        n = max(1, -(-(s.end - s.start) // max_block))
        step = (s.end - s.start) / n
        for i in range(n):
            a = s.start + round(i * step)
            b = s.end if i == n - 1 else s.start + round((i + 1) * step)
            out.append(PlanBlock(a, b, text, place, kind))
    return tuple(out)


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
