"""Perception: what a resident sees around it.

A resident sees within a square of ``radius`` tiles, only in the area it is in (its arena; on the
street, the street), the nearest first, at most ``bandwidth`` things; a :class:`Perceiver`
remembers what each resident perceived last time so the same sight is not reported again until it
changes (a person doing something else, an object changing state) or leaves view and comes back.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from .town import Town

Pos = tuple[int, int]


@dataclass(frozen=True)
class Percept:
    kind: Literal["person", "object"]
    subject: str  # a person's name, or an object's address
    address: str  # where it is
    text: str  # "Klaus Mueller is writing his paper at the desk in the library"
    distance: float

    @property
    def key(self) -> tuple[str, str]:
        return (self.subject, self.text)


def perceive(observer: str, pos: Pos, town: Town, actors: dict[str, Pos], radius: int = 8,
             bandwidth: int = 8, doing: dict[str, str] | None = None,
             recent: set | None = None, same_arena: bool = False) -> list[Percept]:
    """What ``observer`` standing at ``pos`` notices now, nearest first.

    ``actors``: name -> tile of everyone in the town (residents and the player; the observer is
    skipped).  ``doing``: name -> what they are doing ("reading a book").  ``recent``: keys
    (:attr:`Percept.key`) to leave out because they were just perceived.  ``same_arena``: ``actors``
    are all in the observer's arena already (the engine's round of looks sorts them so), not read again."""
    tree = town.tree
    here = tree.arena_at(pos)
    x0, y0 = pos
    doing = doing or {}
    # (distance, kind, subject, tile or None) of all in view, the words made only for the nearest
    # ``bandwidth`` (a crowded square of a thousand residents: most were described, then cut)
    seen: list[tuple[float, str, str, Pos | None]] = []
    arena_at = tree.arena_at
    for name, p in actors.items():
        if (name != observer and -radius <= p[0] - x0 <= radius and -radius <= p[1] - y0 <= radius
                and (same_arena or arena_at(p) == here)):
            seen.append((math.dist(pos, p), "person", name, p))
    # objects in the observer's arena within the radius (the same from a tile each time: kept by the tree)
    seen.extend((d, "object", addr, None) for d, addr in tree.objects_in_view(pos, radius))
    seen.sort()  # (by distance, kind and subject: no two share a kind and a subject, the tile is never compared)
    out: list[Percept] = []
    for d, _kind, subject, tile in seen[:bandwidth]:
        if tile is not None:
            where = tree.address_at(tile)
            act = doing.get(subject)
            place = tree.describe(where)
            text = f"{subject} is {act} ({place})" if act else f"{subject} is in {place}"
            out.append(Percept("person", subject, where, text, d))
        else:
            state = town.objects.get(subject)
            out.append(Percept("object", subject, subject, f"{tree.describe(subject)} is {state}", d))
    if recent:
        out = [q for q in out if q.key not in recent]
    return out


class Perceiver:
    """Perception with memory: each call returns only what is new to that observer."""

    def __init__(self, town: Town, radius: int = 8, bandwidth: int = 8) -> None:
        self.town = town
        self.radius = radius
        self.bandwidth = bandwidth
        self._last: dict[str, set] = {}

    def perceive(self, observer: str, pos: Pos, actors: dict[str, Pos],
                 doing: dict[str, str] | None = None) -> list[Percept]:
        seen = perceive(observer, pos, self.town, actors, self.radius, self.bandwidth, doing)
        last = self._last.get(observer, set())
        self._last[observer] = {q.key for q in seen}
        return [q for q in seen if q.key not in last]

    def forget(self, observer: str) -> None:
        self._last.pop(observer, None)
