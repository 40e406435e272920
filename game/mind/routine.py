"""What the resident does by rule, with no model: the plan day a moment belongs to, the
lifestyle's plain day and the action it implies at a given minute (sleep, meals, work, home).

Used on the first morning until the day plan arrives and whenever a decision is pending or has
failed.  Functions of the persona alone (no state, no model): ``Mind.day_and_minute``,
``Mind.routine_blocks`` and ``Mind.routine_action`` hand them the mind's persona.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from game.mind.persona import Persona
from game.mind.places import find_in
from game.mind.shaping import shape_plan
from game.mind.view import Action, PlanBlock, WorldView


def day_and_minute(persona: Persona, now: datetime) -> tuple[date, int]:
    """The plan day ``now`` belongs to and minutes since that day's midnight (a bed time after
    midnight keeps the small hours in the previous day, as minutes past 24:00)."""
    m = now.hour * 60 + now.minute
    d = now.date()
    p = persona
    if m < p.wake and p.sleep > 24 * 60 and m + 24 * 60 < p.sleep:
        return d - timedelta(days=1), m + 24 * 60
    return d, m


def routine_blocks(persona: Persona, start: int | None = None, max_block: int = 120) -> tuple[PlanBlock, ...]:
    """A plain day from the lifestyle: morning, meals, work, evening at home."""
    p = persona
    start = p.wake if start is None else start
    rows: list[tuple[int, int, str]] = [(p.wake, p.wake + 60, "getting ready for the day")]
    if p.workplace:
        rows.append((max(p.work_start, p.wake + 60), p.work_end, "working"))
    for name, t in p.meals:
        rows.append((t, t + 45, f"having {name}"))
    rows.append((p.work_end, p.sleep, "relaxing at home"))
    return shape_plan(rows, start, p.sleep, max_block)


def routine_action(persona: Persona, now: datetime, view: WorldView | None = None) -> Action:
    """What the resident does by rule (no model): sleep, meals, work, home.  Used on the first
    morning until the day plan arrives and whenever a decision is pending or has failed."""
    p = persona
    _, m = day_and_minute(persona, now)
    allowed = tuple(view.allowed) if view else ()
    home = p.home or (view.here if view else "")

    ground = view.ground if view is not None else None

    def at(base: str, words: tuple[str, ...], activity: str = "") -> str:
        if ground is not None and activity:  # the world knows where breakfast is had at home
            hint = "home" if base == home else "work" if base and base == p.workplace else base
            placed = ground.place(activity, hint)
            if placed.fits:
                return placed.address
        return find_in(allowed, base, words) or base or (view.here if view else "")

    if m < p.wake or m >= p.sleep:
        until = p.wake if m < p.wake else p.wake + 24 * 60
        return Action("sleeping", "😴", at(home, ("bed",), "sleeping"), max(5, min(60, until - m)), None, now,
                      "routine")
    if m < p.wake + 30:
        return Action("getting ready for the day", "🚿", at(home, ("bathroom", "shower", "sink"),
                                                             "getting ready for the day"),
                      max(5, p.wake + 30 - m), None, now, "routine")
    for name, t in p.meals:
        if t <= m < t + 30:
            work_meal = p.workplace and p.work_start <= m < p.work_end and name == "lunch"
            place = at(p.workplace if work_meal else home, ("kitchen", "table", "dining"), f"having {name}")
            return Action(f"having {name}", "🍴", place, max(5, t + 30 - m), None, now, "routine")
    nxt = min([t for _, t in p.meals if t > m] + [p.sleep])
    if p.workplace and p.work_start <= m < p.work_end:
        end = min(p.work_end, nxt)
        return Action("working", "💼", at(p.workplace, ("desk", "counter", "office"), "working"),
                      max(5, min(60, end - m)), None, now, "routine")
    if p.workplace and m < p.work_start:
        nxt = min(nxt, p.work_start)
    return Action("spending time at home", "🏠", at(home, ("living", "couch", "sofa", "room"),
                                                 "spending time at home"),
                  max(5, min(60, nxt - m)), None, now, "routine")
