from __future__ import annotations

from datetime import datetime

import pytest

from game.mind.view import WorldView

DAY1 = datetime(2026, 2, 13, 0, 0)  # a Friday

SPEC = {
    "name": "Isabella Rodriguez",
    "age": 34,
    "traits": "friendly, outgoing, hospitable",
    "background": "Isabella runs Hobbs Cafe and loves to make people feel welcome.",
    "currently": "Isabella is planning a Valentine's Day party at the cafe.",
    "lifestyle": {"wake": "06:00", "sleep": "22:00",
                  "meals": {"breakfast": "06:30", "lunch": "12:00", "dinner": "18:00"}},
    "home": "Isabella's apartment",
    "workplace": "Hobbs Cafe",
    "seed_memories": ["Isabella knows Klaus Mueller, a regular at the cafe"],
    "relationships": {"Klaus Mueller": "a regular at the cafe who studies sociology"},
}

ALLOWED = (
    "Isabella's apartment:bedroom:bed",
    "Isabella's apartment:kitchen:stove",
    "Isabella's apartment:bathroom:shower",
    "Hobbs Cafe:cafe:counter",
    "Hobbs Cafe:cafe:coffee machine",
    "Hobbs Cafe:cafe:customer seating",
    "Johnson Park:park:bench",
    "Town Hall:hall:notice board",
)


@pytest.fixture
def view() -> WorldView:
    return WorldView(now_text="Friday, Day 1", here="Isabella's apartment:kitchen",
                     here_text="the kitchen of Isabella's apartment",
                     known_places="Isabella's apartment\nHobbs Cafe\nJohnson Park\nTown Hall",
                     allowed=ALLOWED, nearby=(), people_here=())
