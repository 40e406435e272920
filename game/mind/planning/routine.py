"""What the resident does by rule, with no model: the plan day a moment belongs to, the
lifestyle's plain day and the action it implies at a given minute (sleep, meals, work, home).

Used on the first morning until the day plan arrives and whenever a decision is pending or has
failed.  Functions of the persona alone (no state, no model): the core's ``day_and_minute``,
``asleep_at``, ``routine_blocks`` and ``routine_action`` hand them the mind's persona, and so do
``Mind.asleep_at`` and ``Mind.routine_action`` for the engine.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta

from game.mind.persona import Persona
from game.mind.planning.dayframe import A_WORKDAY, frame_for, routine_day
from game.mind.planning.places import find_in
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


def asleep_at(persona: Persona, now: datetime) -> bool:
    """Whether the persona's hours of sleep cover ``now`` (by its plan day's minutes)."""
    _, m = day_and_minute(persona, now)
    return m < persona.wake or m >= persona.sleep


def routine_blocks(persona: Persona, start: int | None = None, max_block: int = 120,
                   day: date | None = None) -> tuple[PlanBlock, ...]:
    """A plain day from the lifestyle: the day's frame in its own words (dayframe.py); with no day,
    a usual workday's."""
    return routine_day(persona, day or A_WORKDAY, start, max_block)


def routine_action(persona: Persona, now: datetime, view: WorldView | None = None) -> Action:
    """What the resident does by rule (no model): sleep, meals, work, home.  Used on the first
    morning until the day plan arrives and whenever a decision is pending or has failed."""
    p = persona
    d, m = day_and_minute(persona, now)
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
    slot = next((s for s in frame_for(p, d) if s.start <= m < s.end), None)
    left = max(5, min(60, slot.end - m)) if slot is not None else 30
    if slot is not None and slot.kind == "wake":
        return Action("getting ready for the day", "🚿", at(home, ("bathroom", "shower", "sink"),
                                                             "getting ready for the day"), left, None, now, "routine")
    if slot is not None and slot.kind == "meal":
        what = f"having {slot.label}"
        return Action(what, "🍴", at(slot.place or home, ("kitchen", "table", "dining"), what), left, None, now,
                      "routine")
    if slot is not None and slot.kind == "work":
        return Action("working", "💼", at(slot.place, ("desk", "counter", "office"), "working"), left, None, now,
                      "routine")
    if slot is not None and slot.kind == "bed":
        return Action("getting ready for bed", "🚿", at(home, ("bathroom", "sink"), "getting ready for bed"), left,
                      None, now, "routine")
    return Action("spending time at home", "🏠", at(home, ("living", "couch", "sofa", "room"),
                                                 "spending time at home"), left, None, now, "routine")
