"""A mind as a save holds it (``Mind.to_state`` / ``Mind.from_state``): plain JSON-ready data, but
its memory, which is one row per record (embedding as float32 bytes) or, read from a save, the
stream's image (game/mind/memory/image.py)."""

from __future__ import annotations

from typing import TypedDict

from game.mind.memory.image import MemoryImage


class MindState(TypedDict, total=False):
    persona: dict  # Persona.to_dict
    identity: str
    identity_date: str | None  # ISO date
    yesterday: str
    plan: dict | None  # DayPlan.to_dict
    plan_date: str | None
    queue: list[dict]  # Action.to_dict each
    current: dict | None
    replan_reason: str | None
    last_reflection: str | None  # ISO time
    first_date: str | None
    stats: dict[str, int]
    calls: list[list[str | int]]  # [date, purpose, calls]
    held: dict[str, str]  # conversation id -> the reply prompt's context
    facts: list[dict]  # FactBook.to_list
    memory: list[dict] | MemoryImage  # left out by to_state(memory=False)
