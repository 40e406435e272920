"""Errors of the world layer."""

from __future__ import annotations

from pathlib import Path

from game.errors import GameError


class MapError(GameError):
    """A town (map, tileset or residents file) that cannot be loaded.

    ``str(err)`` is one line for a person: the file and the problem, never a traceback.
    """

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


class NoPath(GameError):
    """No walkable path between two tiles."""
