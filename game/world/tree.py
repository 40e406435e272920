"""The environment as a tree: world -> sector -> arena -> object.

An :data:`Address` is a string ``"sector"``, ``"sector:arena"`` or ``"sector:arena:object"``.
The empty address ``""`` is the open town (streets, outside every sector).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterable

import numpy as np

Pos = tuple[int, int]  # (x, y)
Address = str

_STOP = {"the", "a", "an", "in", "of", "at", "on", "to", "and", "is", "by", "for", "with", "near",
         "from", "into", "inside", "s", "its", "it", "room"}


def split(address: Address) -> tuple[str, ...]:
    return tuple(address.split(":")) if address else ()


def join(*parts: str) -> Address:
    return ":".join(p for p in parts if p)


def _words(text: str) -> list[str]:
    text = text.lower().replace("\u2019", "'")
    text = re.sub(r"'s\b", "", text)
    return [w for w in re.findall(r"[a-z0-9]+", text)]


def _stem(w: str) -> str:
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def keywords(text: str) -> set[str]:
    """The stems of ``text``'s words, stop words apart (how places are matched to words)."""
    return {_stem(w) for w in _words(text) if w not in _STOP}


def with_article(name: str, article: str | None = None) -> str:
    """``"kitchen"`` -> ``"the kitchen"``; ``"Isabella's apartment"`` stays as it is."""
    if article is not None:
        return f"{article} {name}".strip()
    low = name.lower()
    if low.startswith(("the ", "a ", "an ")) or name[:1].isupper() or name[:1].isdigit():
        return name  # a proper name ("Hobbs Cafe", "Priya's room"); set 'article' to override
    return f"the {name}"


class AreaTree:
    """Sectors, arenas and objects of a town with the tiles each one covers.

    Built once at load time; per-tile lookups are numpy arrays, so ``address_at`` is O(1).
    """

    def __init__(self, width: int, height: int, town_name: str = "the town") -> None:
        self.width = width
        self.height = height
        self.town_name = town_name
        self._sector_at = np.full((height, width), -1, dtype=np.int32)
        self._arena_at = np.full((height, width), -1, dtype=np.int32)
        self._object_at = np.full((height, width), -1, dtype=np.int32)
        self._sectors: list[str] = []
        self._arenas: list[tuple[str, str]] = []
        self._objects: list[tuple[str, str, str]] = []
        self._index_obj: dict[tuple[str, str, str], int] | None = None
        self._tiles: dict[Address, list[Pos]] = {}
        self._children: dict[Address, list[str]] = defaultdict(list)
        self.kind: dict[Address, str] = {}  # object address -> kind ("bed")
        self.props: dict[Address, dict] = {}  # extra properties of any area/object
        self._described: dict[Address, str] = {}  # ``describe``'s words (perception asks them every look)
        self._at: dict[tuple[int, int, bool], Address] = {}  # a tile's address and arena (the same: asked every look)
        self._in_view: dict[tuple[int, int, int], tuple[tuple[float, Address], ...]] = {}  # ``objects_in_view``
        self._kw: dict[Address, set[str]] | None = None

    # ---- building -------------------------------------------------------------------------
    def _changed(self) -> None:
        """The areas changed: what was read of them (words, tiles' addresses, objects in view) is read again."""
        self._described.clear()
        self._at.clear()
        self._in_view.clear()

    def add_sector(self, name: str, tiles: Iterable[Pos], props: dict | None = None) -> None:
        self._changed()
        name = name.strip()
        if name not in self._tiles:
            self._sectors.append(name)
            self._children[""].append(name)
            self._tiles[name] = []
        i = self._sectors.index(name)
        for x, y in tiles:
            self._sector_at[y, x] = i
        self.props.setdefault(name, {}).update(props or {})
        self._kw = None

    def add_arena(self, sector: str, name: str, tiles: Iterable[Pos], props: dict | None = None) -> None:
        self._changed()
        addr = join(sector, name)
        if addr not in self._tiles:
            self._arenas.append((sector, name))
            self._children[sector].append(name)
            self._tiles[addr] = []
        i = self._arenas.index((sector, name))
        for x, y in tiles:
            self._arena_at[y, x] = i
        self.props.setdefault(addr, {}).update(props or {})
        self._kw = None

    def add_object_tiles(self, label: str, kind: str, tiles: Iterable[Pos], props: dict | None = None) -> int:
        """Place an object; its sector and arena come from each tile.  Returns tiles placed."""
        self._changed()
        n = 0
        for x, y in tiles:
            a = self._arena_at[y, x]
            if a < 0:
                continue
            sector, arena = self._arenas[a]
            key = (sector, arena, label)
            addr = join(*key)
            if addr not in self._tiles:
                self._objects.append(key)
                self._children[join(sector, arena)].append(label)
                self._tiles[addr] = []
                self.kind[addr] = kind or label
                self._index_obj = None
            self._object_at[y, x] = self._obj_index(key)
            self.props.setdefault(addr, {}).update(props or {})
            n += 1
        self._kw = None
        return n

    def _obj_index(self, key: tuple[str, str, str]) -> int:
        idx = self._index_obj
        if idx is None or len(idx) != len(self._objects):
            idx = {k: i for i, k in enumerate(self._objects)}
            self._index_obj = idx
        return idx[key]

    def finish(self) -> None:
        """Compute the tile lists (after all areas are added)."""
        self._changed()
        for addr in self._tiles:
            self._tiles[addr] = []
        s, a, o = self._sector_at, self._arena_at, self._object_at
        for y, x in zip(*np.nonzero(s >= 0)):
            self._tiles[self._sectors[s[y, x]]].append((int(x), int(y)))
        for y, x in zip(*np.nonzero(a >= 0)):
            self._tiles[join(*self._arenas[a[y, x]])].append((int(x), int(y)))
        for y, x in zip(*np.nonzero(o >= 0)):
            self._tiles[join(*self._objects[o[y, x]])].append((int(x), int(y)))
        # drop areas that lost all their tiles (painted over by a later area)
        for addr in [k for k, v in self._tiles.items() if not v]:
            self._drop(addr)

    def _drop(self, addr: Address) -> None:
        parts = split(addr)
        del self._tiles[addr]
        parent = join(*parts[:-1])
        if parts[-1] in self._children.get(parent, []):
            self._children[parent].remove(parts[-1])

    # ---- queries ----------------------------------------------------------------------------
    def __contains__(self, address: Address) -> bool:
        return address == "" or address in self._tiles

    def sector_mask(self) -> np.ndarray:
        """Which tiles lie in a sector (rows of columns, as the map)."""
        return self._sector_at >= 0

    def sectors(self) -> list[str]:
        return list(self._children[""])

    def arenas(self, sector: str) -> list[str]:
        return list(self._children.get(sector, []))

    def objects(self, sector: str, arena: str) -> list[str]:
        return list(self._children.get(join(sector, arena), []))

    def all_arenas(self) -> list[Address]:
        return [join(s, a) for s in self.sectors() for a in self.arenas(s)]

    def all_objects(self) -> list[Address]:
        return [join(s, a, o) for s in self.sectors() for a in self.arenas(s) for o in self.objects(s, a)]

    def children(self, address: Address) -> list[str]:
        return list(self._children.get(address, []))

    def address_at(self, pos: Pos) -> Address:
        """The most precise address of a tile: object, else arena, else sector, else ``""``."""
        x, y = pos
        got = self._at.get((x, y, True))
        if got is None:
            o = self._object_at[y, x] if 0 <= x < self.width and 0 <= y < self.height else -1
            got = self._at[(x, y, True)] = join(*self._objects[o]) if o >= 0 else self.arena_at(pos)
        return got

    def arena_at(self, pos: Pos) -> Address:
        """``"sector:arena"`` (or ``"sector"``, or ``""``) of a tile, objects left out."""
        x, y = pos
        got = self._at.get((x, y, False))
        if got is None:
            got = self._at[(x, y, False)] = self._arena_of(x, y)
        return got

    def _arena_of(self, x: int, y: int) -> Address:
        if not (0 <= x < self.width and 0 <= y < self.height):
            return ""
        a = self._arena_at[y, x]
        if a >= 0:
            return join(*self._arenas[a])
        s = self._sector_at[y, x]
        return self._sectors[s] if s >= 0 else ""

    def objects_in_view(self, pos: Pos, radius: int) -> tuple[tuple[float, Address], ...]:
        """The objects of the arena ``pos`` lies in (none on a street) with a tile within ``radius``
        tiles of it (a square), each with the straight-line distance to its nearest such tile: made
        once a tile and radius (perception asks it at every look; the areas do not move)."""
        key = (pos[0], pos[1], radius)
        got = self._in_view.get(key)
        if got is None:
            got = self._in_view[key] = self._objects_in_view(pos, radius)
        return got

    def _objects_in_view(self, pos: Pos, radius: int) -> tuple[tuple[float, Address], ...]:
        here = self.arena_at(pos)
        if here.count(":") != 1:
            return ()
        x0, y0 = pos
        sector, arena = here.split(":")
        out = []
        for obj in self.objects(sector, arena):
            addr = f"{here}:{obj}"
            d = min((math.dist(pos, t) for t in self.tiles_of(addr)
                     if max(abs(t[0] - x0), abs(t[1] - y0)) <= radius), default=None)
            if d is not None:
                out.append((d, addr))
        return tuple(out)

    def tiles_of(self, address: Address) -> list[Pos]:
        """Tiles of an address (a list, do not modify).  Unknown address -> ``KeyError``."""
        if address not in self._tiles:
            raise KeyError(f"no place called {address!r} in {self.town_name}")
        return self._tiles[address]

    def describe(self, address: Address) -> str:
        """Natural language: ``"the stove in the kitchen of the Lin house"``."""
        said = self._described.get(address)
        if said is None:
            said = self._described[address] = self._describe(address)
        return said

    def _describe(self, address: Address) -> str:
        parts = split(address)
        if not parts:
            return f"the streets of {self.town_name}"
        if address not in self._tiles:
            raise KeyError(f"no place called {address!r} in {self.town_name}")
        phr = [with_article(p, self.props.get(join(*parts[: i + 1]), {}).get("article"))
               for i, p in enumerate(parts)]
        if len(phr) == 1:
            return phr[0]
        if len(phr) == 2:
            return f"{phr[1]} of {phr[0]}"
        return f"{phr[2]} in {phr[1]} of {phr[0]}"

    def _keywords(self) -> dict[Address, set[str]]:
        if self._kw is None:
            kw = {}
            for addr in self._tiles:
                kw[addr] = keywords(addr.replace(":", " ")) | keywords(self.kind.get(addr, ""))
            self._kw = kw
        return self._kw

    def find(self, words: str, among: Iterable[Address] | None = None) -> Address | None:
        """The address that best matches free words ("the stove in the Lin kitchen"), or None.

        Scores by keywords matched (the object's name counting most), then prefers the
        more specific place, then the one with fewest unmatched words."""
        q = keywords(words)
        if not q:
            return None
        text = " ".join(_words(words))
        cands = self._keywords() if among is None else {
            a: self._keywords()[a] for a in among if a in self._tiles}
        best, best_key = None, None
        for addr, kw in cands.items():
            hit = q & kw
            if not hit:
                continue
            parts = split(addr)
            # the last part (the thing itself) named in full counts extra
            last = " ".join(_words(parts[-1]))
            full = 2 if last and re.search(rf"\b{re.escape(last)}\b", text) else 0
            key = (len(hit) + full, -len(kw - q), len(parts))
            if best_key is None or key > best_key:
                best, best_key = addr, key
        return best


def arena_names(tree: AreaTree) -> tuple[str, ...]:
    """The names of ``tree``'s arenas, lower case, once each ("pub", "grocery", "council chamber")."""
    return tuple(sorted({a.split(":")[1].lower() for a in tree.all_arenas()}))


def rooms_by_place(tree: AreaTree) -> dict[str, tuple[str, ...]]:
    """Each sector's own arenas, both lower case ("town hall": ("lobby", "mayor's office", ...))."""
    return {s.lower(): tuple(a.lower() for a in tree.arenas(s)) for s in tree.sectors()}
