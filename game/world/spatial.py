"""What one resident knows of the town: a partial copy of the area tree.

It starts from the resident's home, workplace and the places in its seed, grows as the resident
sees new areas (``learn``/``observe_area``) and can go stale: objects added or removed later are
only noticed when the resident is there again.
"""

from __future__ import annotations

from collections.abc import Iterable

from .tree import AreaTree, join, split, with_article


class SpatialMemory:
    def __init__(self) -> None:
        self._tree: dict[str, dict[str, list[str]]] = {}
        self.version = 0  # one more at each change: what is read of it may be kept until then (perceiving.py)

    def knows(self, address: str) -> bool:
        parts = split(address)
        if not parts:
            return True
        node = self._tree.get(parts[0])
        if node is None:
            return False
        if len(parts) == 1:
            return True
        objs = node.get(parts[1])
        if objs is None:
            return False
        return len(parts) == 2 or parts[2] in objs

    def learn(self, address: str) -> bool:
        """Add an address (and its parents).  Returns True if something was new."""
        parts = split(address)
        if not parts:
            return False
        new = False
        node = self._tree.get(parts[0])
        if node is None:
            node = self._tree[parts[0]] = {}
            new = True
        if len(parts) >= 2:
            objs = node.get(parts[1])
            if objs is None:
                objs = node[parts[1]] = []
                new = True
            if len(parts) >= 3 and parts[2] not in objs:
                objs.append(parts[2])
                new = True
        self.version += new
        return new

    def observe_area(self, tree: AreaTree, address: str) -> bool:
        """Being in an arena (or sector): learn it as it is now, forgetting objects that are gone.

        A sector teaches its arena names; an arena teaches its objects.  Returns True if the
        resident's picture of the place changed."""
        parts = split(address)[:2]
        if not parts or join(*parts) not in tree:
            return False
        changed = self.learn(join(*parts))
        if len(parts) == 1:
            for a in tree.arenas(parts[0]):
                changed |= self.learn(join(parts[0], a))
            return changed
        now = tree.objects(*parts)
        old = self._tree[parts[0]][parts[1]]
        if sorted(old) != sorted(now):
            self._tree[parts[0]][parts[1]] = list(now)
            self.version += 1
            changed = True
        return changed

    def seed(self, tree: AreaTree, addresses: Iterable[str]) -> None:
        """Know the given places fully: the sector of each address (knowing a room means knowing
        the building around it) with all its arenas and their objects."""
        for addr in addresses:
            parts = split(addr)
            if not parts or parts[0] not in tree:
                continue
            self.learn(parts[0])
            for a in tree.arenas(parts[0]):
                self.observe_area(tree, join(parts[0], a))

    def sectors(self) -> list[str]:
        return list(self._tree)

    def known_arenas(self, sector: str) -> list[str]:
        return list(self._tree.get(sector, {}))

    def known_objects(self, sector: str, arena: str) -> list[str]:
        return list(self._tree.get(sector, {}).get(arena, []))

    def addresses(self) -> list[str]:
        out = []
        for s, arenas in self._tree.items():
            out.append(s)
            for a, objs in arenas.items():
                out.append(join(s, a))
                out.extend(join(s, a, o) for o in objs)
        return out

    def describe_known(self, tree: AreaTree | None = None) -> str:
        """One line per known place, for prompts:
        ``"the Lin house: kitchen (stove, fridge); bedroom (bed, desk)"``."""
        lines = []
        for s, arenas in self._tree.items():
            parts = []
            for a, objs in arenas.items():
                parts.append(f"{a} ({', '.join(objs)})" if objs else a)
            head = tree.describe(s) if tree is not None and s in tree else with_article(s)
            lines.append(f"{head}: {'; '.join(parts)}" if parts else head)
        return "\n".join(lines)

    def to_dict(self) -> dict[str, dict[str, list[str]]]:
        return {s: {a: list(o) for a, o in arenas.items()} for s, arenas in self._tree.items()}

    @classmethod
    def from_dict(cls, data: dict) -> SpatialMemory:
        m = cls()
        for s, arenas in (data or {}).items():
            m.learn(s)
            for a, objs in (arenas or {}).items():
                m.learn(join(s, a))
                for o in objs or []:
                    m.learn(join(s, a, o))
        return m
