"""The tile kinds of our tileset (game/maps/default/town.tsx): glyph, colours, walkability.

The tileset file is generated from this table by tools/make_tileset.py; a map identifies tiles by
these properties, never by number.  Ground kinds come first, then walls (autotiled box drawing),
then furniture (one tile per object kind, drawn on the 'furniture' layer).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TileKind:
    kind: str
    glyph: str
    fg: str
    bg: str
    walkable: bool
    variant: str = ""  # walls: which box-drawing piece

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.variant}" if self.variant else self.kind


GRASS_BG = "#1f3b1a"
FLOOR_BG = {"wood": "#33251a", "tile": "#26262e", "carpet": "#2e1a1f", "stone": "#2a2a2a"}

GROUND = [
    TileKind("grass", ",", "#4f8a3a", GRASS_BG, True),
    TileKind("grass", " ", "#3f7a2e", GRASS_BG, True, "plain"),
    TileKind("flowers", "*", "#e07aa8", GRASS_BG, True),
    TileKind("tree", "♣", "#58b04a", GRASS_BG, False),
    TileKind("hedge", "%", "#3e7a36", GRASS_BG, False),
    TileKind("road", " ", "#6a6a6a", "#3a3a3a", True),
    TileKind("road", "·", "#c9b037", "#3a3a3a", True, "line"),
    TileKind("sidewalk", ".", "#8c8c8c", "#555555", True),
    TileKind("gravel", ":", "#c2a878", "#4a3f2c", True),
    TileKind("water", "~", "#8fc1ee", "#1d4270", False),
    TileKind("sand", ".", "#e3d39a", "#7d6c3a", True),
    TileKind("floor", ".", "#6e533b", FLOOR_BG["wood"], True, "wood"),
    TileKind("floor", ".", "#5f5f70", FLOOR_BG["tile"], True, "tile"),
    TileKind("floor", ".", "#7a4650", FLOOR_BG["carpet"], True, "carpet"),
    TileKind("floor", ".", "#6a6a6a", FLOOR_BG["stone"], True, "stone"),
    TileKind("door", "+", "#e0a85a", "#4a3320", True),
    TileKind("void", " ", "#000000", "#000000", False),
]

# walls: mask of wall neighbours N=1 E=2 S=4 W=8 -> glyph
WALL_GLYPHS = {0: "■", 1: "│", 4: "│", 5: "│", 2: "─", 8: "─", 10: "─", 6: "┌", 12: "┐", 3: "└",
               9: "┘", 7: "├", 13: "┤", 14: "┬", 11: "┴", 15: "┼"}
WALL_FG, WALL_BG = "#d8cfc0", "#4a4038"
WALLS = [TileKind("wall", g, WALL_FG, WALL_BG, False, str(m)) for m, g in sorted(WALL_GLYPHS.items())]

# furniture: object kind -> (glyph, fg); walkable (a resident uses an object by standing on it)
FURNITURE_GLYPHS: dict[str, tuple[str, str]] = {
    "bed": ("≡", "#c39bd3"), "closet": ("▯", "#b08a64"), "desk": ("π", "#d9955f"),
    "shower": ("░", "#8fb8de"), "bathroom sink": ("u", "#a9d3e8"), "toilet": ("Ω", "#e8ecf2"),
    "fridge": ("Θ", "#e0e6ee"), "stove": ("¤", "#ee7050"), "kitchen counter": ("=", "#c9a46a"),
    "kitchen sink": ("u", "#7fb8d8"), "dining table": ("○", "#d8b27e"), "tv": ("▣", "#7fd0e0"),
    "sofa": ("ω", "#6d8fc7"), "piano": ("♪", "#f2f2f2"), "bookshelf": ("▤", "#c8a060"),
    "easel": ("Δ", "#ecc75a"), "guitar": ("♫", "#ecc75a"), "workbench": ("¬", "#d08a50"),
    "sewing machine": ("§", "#d89ac0"), "flower bed": ("*", "#f08aa8"), "garden bench": ("=", "#b58a5a"),
    "council table": ("○", "#c9a46a"), "lectern": ("⊥", "#d8b27e"), "public seating": ("h", "#a88460"),
    "notice board": ("□", "#e8d8a0"), "reception desk": ("=", "#c9a46a"),
    "filing cabinet": ("▯", "#9aa4b0"), "cafe counter": ("=", "#d09a60"),
    "behind the counter": ("_", "#9a7a5a"), "espresso machine": ("Ø", "#e08a5a"),
    "cafe table": ("○", "#e0b880"), "bar counter": ("=", "#b8804a"), "beer tap": ("¥", "#f0c040"),
    "pub table": ("○", "#c89a60"), "pool table": ("▒", "#3fa04a"), "dartboard": ("◎", "#e05a5a"),
    "jukebox": ("♬", "#e070e0"), "blackboard": ("▀", "#3a9a6a"), "student desk": ("π", "#c8a070"),
    "computer": ("▣", "#7ad0a0"), "washing machine": ("◙", "#c0ccd8"),
    "ping-pong table": ("▒", "#4a8ad0"), "reading table": ("○", "#c8a070"),
    "reading chair": ("h", "#b07a5a"), "checkout desk": ("=", "#c9a46a"),
    "grocery shelf": ("¦", "#a8d080"), "produce stand": ("♦", "#e0a040"),
    "checkout counter": ("=", "#c9a46a"), "pharmacy shelf": ("¦", "#7fc8e0"),
    "pharmacy counter": ("=", "#a0c8e0"), "waiting chairs": ("h", "#8aa0b8"),
    "product shelf": ("¦", "#d0b070"), "tool rack": ("†", "#c07850"),
    "storage shelf": ("¦", "#a08060"), "fountain": ("◊", "#8fd0f0"), "park bench": ("=", "#b58a5a"),
    "swing set": ("Ħ", "#e0c060"), "slide": ("/", "#e06060"), "vegetable patch": ("\"", "#90d060"),
    "picnic table": ("○", "#c09060"), "tool shed": ("⌂", "#b08050"), "pond": ("~", "#8fc1ee"),
    "furniture": ("•", "#d0c0a0"),
}
FURNITURE = [TileKind(k, g, fg, "", True) for k, (g, fg) in FURNITURE_GLYPHS.items()]

# added later; appended so the ids of the tiles above never change
EXTRA = [TileKind("wall", "█", "#6b6258", WALL_BG, False, "solid")]

ALL = GROUND + WALLS + FURNITURE + EXTRA
INDEX = {t.key: i for i, t in enumerate(ALL)}  # tileset id of each kind


def tile_id(kind: str, variant: str = "") -> int:
    return INDEX[f"{kind}:{variant}" if variant else kind]


def furniture_id(kind: str) -> int:
    return INDEX[kind] if kind in FURNITURE_GLYPHS else INDEX["furniture"]
