"""The screen's messages: what goes up from the widgets and screens to the app.

Attributes go down (the app sets what a widget shows), messages come up (a screen says what the
player asked for and the app does it): no screen calls the app's methods.  The engine worker
posts ``Ticked`` once per tick and ``EngineFailed`` when a model call or the engine fails.
Each is a dataclass (Textual's ``Message`` initialises itself in ``__post_init__``).
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from game.engine.events import TickResult


@dataclass
class Ticked(Message):
    """One engine tick (posted by the engine worker, once per ``engine.step()``)."""

    result: TickResult


@dataclass
class EngineFailed(Message):
    """The engine worker or a model call failed; shown once, in one place."""

    error: BaseException
    where: str


@dataclass
class MainReady(Message):
    """The main screen is mounted: the app draws the town on it and starts the engine."""


@dataclass
class Walk(Message):
    """The player pressed an arrow: walk the visitor or the embodied resident one tile."""

    dx: int
    dy: int


@dataclass
class SelectStep(Message):
    """Select the next (``step`` 1) or previous (-1) resident."""

    step: int


@dataclass
class Select(Message):
    """Select a resident by name (clicked on the map)."""

    name: str


@dataclass
class Typed(Message):
    """What the player has typed so far to a resident (a hint for the town; see ``Typing``)."""

    resident: str
    text: str


@dataclass
class Said(Message):
    """The player says a line to a resident."""

    resident: str
    text: str


@dataclass
class TalkClosed(Message):
    """The player ended the conversation with a resident (esc in the talk)."""

    resident: str
