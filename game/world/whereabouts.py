"""Where each place of the town is, as a resident would say it to a stranger asking the way: the
places nearest to it and its side of town ("next to Willow Park and Bluebell Cafe, on the north
side of town").  Read from the map once per town and handed to the minds as data (TownNames.near),
so that a resident asked the way names real neighbours rather than a street the town lacks.
"""

from __future__ import annotations

import math

from .tree import AreaTree

_SIDES = ("east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east")


def whereabouts(tree: AreaTree) -> dict[str, str]:
    """For each sector: "next to A and B, on the north side of town" (the two sectors whose centres
    are nearest its own; the side by its centre against the town's, "in the middle of town" near it)."""
    centres: dict[str, tuple[float, float]] = {}
    for s in tree.sectors():
        tiles = tree.tiles_of(s)
        if tiles:
            centres[s] = (sum(x for x, _ in tiles) / len(tiles), sum(y for _, y in tiles) / len(tiles))
    if not centres:
        return {}
    cx = sum(x for x, _ in centres.values()) / len(centres)
    cy = sum(y for _, y in centres.values()) / len(centres)
    span = max(max(abs(x - cx), abs(y - cy)) for x, y in centres.values()) or 1.0
    out = {}
    for s, (x, y) in centres.items():
        near = sorted((math.dist((x, y), c), o) for o, c in centres.items() if o != s)[:2]
        names = " and ".join(o for _, o in near)
        dx, dy = x - cx, y - cy
        if max(abs(dx), abs(dy)) < span / 3:
            side = "in the middle of town"
        else:  # map rows grow downwards: north is up
            side = f"on the {_SIDES[round(math.degrees(math.atan2(dy, dx)) / 45) % 8]} side of town"
        out[s] = f"next to {names}, {side}" if names else side
    return out
