"""The world: the town's map (Tiled TMX via pytmx), its area tree, walking, perception, objects,
the clock and the residents' specs.  No Textual, no model, no engine imports here."""

from .clock import Clock, parse_until
from .errors import MapError, NoPath
from .objects import IDLE, ObjectStates, StateChange
from .paths import PathFinder
from .perception import Perceiver, Percept, perceive
from .residents import Lifestyle, ResidentSpec, read_residents
from .spatial import SpatialMemory
from .town import Tile, Town, builtin_town, default_town_path, load_town, resolve_town_path
from .tree import Address, AreaTree, Pos

__all__ = [
    "Address", "AreaTree", "Clock", "IDLE", "Lifestyle", "MapError", "NoPath", "ObjectStates",
    "PathFinder", "Perceiver", "Percept", "Pos", "ResidentSpec", "SpatialMemory", "StateChange",
    "Tile", "Town", "builtin_town", "default_town_path", "load_town", "parse_until", "perceive",
    "read_residents", "resolve_town_path",
]
