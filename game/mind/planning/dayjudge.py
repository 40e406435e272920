"""A saved day plan read as a player reads it (the measure of issue 38), apart from how it was made:
``town report`` and ``python -m game.measure.dayplans`` use it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date

from game.mind.persona import Persona
from game.mind.planning.daycheck import MEALS, SLEEP, WAKE, line_key, meals_eaten, same_area
from game.mind.planning.dayframe import shifts_of
from game.mind.view import PlanBlock


def judge_day(persona: Persona, day: date, blocks: Sequence[PlanBlock],
              lacks: Callable[[str], list[str]] | None = None) -> list[str]:
    """A saved day plan read as a player reads it (the measure of issue 38, independent of how
    the plan was made): at most one of each meal; no line more than twice (the parts of a shift
    around its meals are one line); on a day with work, work at its own place for most of its hours, unless a
    line moved it saying why; no place the town lacks; in time order, waking first and bed last.
    Returns what fails, [] when the day passes."""
    out: list[str] = []
    lines: list[PlanBlock] = []
    for b in blocks:  # a long block cut in parts is one line
        if lines and lines[-1].activity == b.activity and lines[-1].end == b.start and lines[-1].place == b.place:
            lines[-1] = PlanBlock(lines[-1].start, b.end, b.activity, b.place, b.kind)
        else:
            lines.append(b)
    if not lines:
        return ["no plan"]
    if any(b.start < a.end for a, b in zip(lines, lines[1:])) or any(b.end <= b.start for b in lines):
        out.append("not in time order")
    eaten = [m for b in lines for m in meals_eaten(b.activity)]
    for meal in MEALS:
        if eaten.count(meal) > 1:
            out.append(f"{meal} {eaten.count(meal)} times")
    counts: dict[str, int] = {}
    shift_parts = set()  # a shift's parts around its meals are one line, however many meals cut it
    for b in lines:
        if b.kind == "work":
            if (line_key(b.activity), b.place) in shift_parts:
                continue
            shift_parts.add((line_key(b.activity), b.place))
        counts[line_key(b.activity)] = counts.get(line_key(b.activity), 0) + 1
    for k, n in counts.items():
        if n > 2:
            out.append(f"{k!r} {n} times")
    if lines[0].kind != "wake" and not WAKE.search(lines[0].activity):
        out.append("the day does not begin with waking")
    if any(WAKE.search(b.activity) for b in lines[1:]):
        out.append("wakes up after the first line")
    if lines[-1].kind != "bed" and not SLEEP.search(lines[-1].activity):
        out.append("the day does not end with bed")
    moved = any(b.kind == "moved" for b in lines)
    for sh in shifts_of(persona):
        if day.weekday() not in sh.days or moved:
            continue
        there = sum(max(0, min(b.end, sh.end) - max(b.start, sh.start)) for b in lines
                    if b.place and same_area(b.place, sh.place))
        if there * 2 < sh.end - sh.start:
            out.append(f"not at {sh.place.split(':')[0]} for {sh.what}")
    if lacks is not None:
        for b in lines:
            for kind in lacks(b.activity):
                out.append(f"names a {kind} ({b.activity!r})")
    return out
