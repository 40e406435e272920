"""The screen's messages: what goes up from the widgets and screens to the app.

Attributes go down (the app sets what a widget shows), messages come up (a screen says what the
player asked for and the app does it): no screen calls the app's methods.  The engine worker
posts ``Ticked`` once per tick and ``EngineFailed`` when a model call or the engine fails.
"""

from __future__ import annotations

from textual.message import Message

from game.engine.events import TickResult


class Ticked(Message):
    """One engine tick (posted by the engine worker, once per ``engine.step()``)."""

    def __init__(self, result: TickResult) -> None:
        super().__init__()
        self.result = result


class EngineFailed(Message):
    """The engine worker or a model call failed; shown once, in one place."""

    def __init__(self, error: BaseException, where: str) -> None:
        super().__init__()
        self.error = error
        self.where = where


class MainReady(Message):
    """The main screen is mounted: the app draws the town on it and starts the engine."""


class Walk(Message):
    """The player pressed an arrow: walk the visitor or the embodied resident one tile."""

    def __init__(self, dx: int, dy: int) -> None:
        super().__init__()
        self.dx = dx
        self.dy = dy


class SelectStep(Message):
    """Select the next (``step`` 1) or previous (-1) resident."""

    def __init__(self, step: int) -> None:
        super().__init__()
        self.step = step


class Select(Message):
    """Select a resident by name (clicked on the map)."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name


class Typed(Message):
    """What the player has typed so far to a resident (a hint for the town; see ``Typing``)."""

    def __init__(self, resident: str, text: str) -> None:
        super().__init__()
        self.resident = resident
        self.text = text


class Said(Message):
    """The player says a line to a resident."""

    def __init__(self, resident: str, text: str) -> None:
        super().__init__()
        self.resident = resident
        self.text = text


class TalkClosed(Message):
    """The player ended the conversation with a resident (esc in the talk)."""

    def __init__(self, resident: str) -> None:
        super().__init__()
        self.resident = resident
