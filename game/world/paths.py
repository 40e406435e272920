"""Walking: shortest paths on the walkable grid (4-neighbour, one tile per step).

Paths have no length limit.  A destination asked for once is reached by A* (Manhattan heuristic);
a destination asked for again gets its distance field (a breadth-first search from it, grown only
as far as the asks need and kept) cached (LRU), so the many queries an engine makes to the same
places (beds, desks, the cafe counter) cost only the length of the path.  Connected
components are labelled up front, so an impossible query fails at once.  Occupied tiles can be
avoided with an A* that uses the cached distance field as its (exact) heuristic.  A cached field
is kept as 32-bit integers (4 bytes a tile): as a list of Python ints, a field of a big map (a
thousand residents on the default town repeated ten times, 100,800 tiles, most distances past
256 and so each an object) took 2.4 MB, and the cache of 512 held over a gigabyte.
"""

from __future__ import annotations

import heapq
from array import array
from collections import OrderedDict, deque
from collections.abc import Iterable, Sequence

import numpy as np

from .errors import NoPath

Pos = tuple[int, int]


class PathFinder:
    def __init__(self, grid: np.ndarray, cache_size: int = 512) -> None:
        grid = np.asarray(grid, dtype=bool)
        self.height, self.width = grid.shape
        self.grid = grid
        w, h = self.width, self.height
        walk = grid.ravel().tolist()
        self._walk = walk
        nbrs: list[tuple[int, ...]] = [()] * (w * h)
        for i, ok in enumerate(walk):
            if not ok:
                continue
            x, y = i % w, i // w
            n = []
            if y > 0 and walk[i - w]:
                n.append(i - w)
            if x > 0 and walk[i - 1]:
                n.append(i - 1)
            if x < w - 1 and walk[i + 1]:
                n.append(i + 1)
            if y < h - 1 and walk[i + w]:
                n.append(i + w)
            nbrs[i] = tuple(n)
        self._nbrs = nbrs
        # connected components
        comp = [-1] * (w * h)
        c = 0
        for i, ok in enumerate(walk):
            if ok and comp[i] < 0:
                comp[i] = c
                dq = deque([i])
                while dq:
                    j = dq.popleft()
                    for k in nbrs[j]:
                        if comp[k] < 0:
                            comp[k] = c
                            dq.append(k)
                c += 1
        self._comp = comp
        self.components = c
        self._cache: OrderedDict[object, tuple[array[int], deque[int]]] = OrderedDict()
        self._asked: dict[object, int] = {}  # destinations (tiles, rooms) asked once (not yet worth a field)
        self._spent = 0  # tiles the last A* expanded (``_astar``)
        self._cache_size = cache_size

    # ---- basics ---------------------------------------------------------------------------
    def walkable(self, pos: Pos) -> bool:
        x, y = pos
        return 0 <= x < self.width and 0 <= y < self.height and self._walk[y * self.width + x]

    def reachable(self, a: Pos, b: Pos) -> bool:
        if not (self.walkable(a) and self.walkable(b)):
            return False
        w = self.width
        return self._comp[a[1] * w + a[0]] == self._comp[b[1] * w + b[0]]

    def component_of(self, pos: Pos) -> int:
        """The walkable region ``pos`` lies in (-1: a tile that is not walkable)."""
        return self._comp[pos[1] * self.width + pos[0]]

    @property
    def regions(self) -> Sequence[int]:
        """Each tile's walkable region, row by row (-1: not walkable)."""
        return self._comp

    def component_size(self, pos: Pos) -> int:
        if not self.walkable(pos):
            return 0
        c = self._comp[pos[1] * self.width + pos[0]]
        return sum(1 for v in self._comp if v == c)

    def _index(self, pos: Pos, what: str) -> int:
        if not self.walkable(pos):
            raise NoPath(f"{what} {pos} is not a walkable tile")
        return pos[1] * self.width + pos[0]

    # ---- distance fields ------------------------------------------------------------------
    def _field(self, targets: tuple[int, ...], need: int | None = None) -> array[int]:
        """The distance field to ``targets``, grown (a breadth-first search kept between asks) until it
        holds ``need``'s distance, or whole when ``need`` is None: on a big map most asks of a place
        come from near it, and a field of the whole map (100,800 tiles for a thousand residents,
        about 60 ms) is grown only as far as they do.  A tile's distance, once set, is exact; a
        field that holds ``need`` at distance d holds every tile nearer than d, all a walk down needs."""
        key = targets[0] if len(targets) == 1 else targets
        f = self._cache.get(key)
        if f is None:
            dist = array("i", [-1]) * (self.width * self.height)
            for t in targets:
                dist[t] = 0
            f = self._cache[key] = (dist, deque(dict.fromkeys(targets)))
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        dist, dq = f
        if dq and (need is None or dist[need] < 0):
            self._grow(dist, dq, need)
        return dist

    def _grow(self, dist: array[int], dq: deque[int], need: int | None) -> None:
        nbrs = self._nbrs
        pop, push = dq.popleft, dq.append
        while dq and (need is None or dist[need] < 0):
            j = pop()
            d = dist[j] + 1
            for k in nbrs[j]:
                if dist[k] < 0:
                    dist[k] = d
                    push(k)

    def distance_field(self, target: Pos) -> np.ndarray:
        """Steps from every tile to ``target`` as an int array [h, w] (-1: cannot get there)."""
        t = self._index(target, "target")
        return np.array(self._field((t,)), dtype=np.int32).reshape(self.height, self.width)

    def distance(self, a: Pos, b: Pos) -> int:
        """Steps on the shortest path from a to b; raises NoPath."""
        ia, ib = self._index(a, "start"), self._index(b, "destination")
        if self._comp[ia] != self._comp[ib]:
            raise NoPath(f"no path from {a} to {b}")
        return self._field((ib,), ia)[ia]

    def _walk_down(self, ia: int, dist: Sequence[int]) -> list[Pos]:
        w = self.width
        out = []
        cur = ia
        d = dist[cur]
        nbrs = self._nbrs
        while d > 0:
            for k in nbrs[cur]:
                if dist[k] == d - 1:
                    cur = k
                    break
            d -= 1
            out.append((cur % w, cur // w))
        return out

    # ---- paths ----------------------------------------------------------------------------
    def path(self, a: Pos, b: Pos, avoid: Iterable[Pos] | None = None, near: Iterable[Pos] = ()) -> list[Pos]:
        """Shortest path from a to b: the tiles stepped on, excluding a, including b.

        ``[]`` when a == b.  Raises :class:`NoPath` when a or b is not walkable or they are not
        connected.  ``avoid`` (e.g. tiles occupied by others) is avoided when a path around them
        exists; when none does, the plain shortest path is returned (others move on).

        A destination asked for the first time is reached with an A* search (Manhattan
        heuristic, a few hundred tiles expanded); from the second time on its whole distance field
        is computed once and cached, and paths to it cost only their length.  ``near``: tiles with
        ``b`` among them (its room): a first ask's A* is guided by their shared field (the distance
        to the nearest of them, never more than to ``b``), kept for all who go there; on a thousand
        residents' map a Manhattan A* to a tile of a room across town expanded most of the way."""
        ia, ib = self._index(a, "start"), self._index(b, "destination")
        if ia == ib:
            return []
        if self._comp[ia] != self._comp[ib]:
            raise NoPath(f"no path from {a} to {b}")
        w = self.width
        blocked: set[int] = set()
        if avoid:
            blocked = {p[1] * w + p[0] for p in avoid if self.walkable(p)}
            blocked.discard(ib)
            blocked.discard(ia)
        dist = self._field((ib,), ia) if self._again(ib) else None
        if dist is None:
            ts = tuple(sorted({p[1] * w + p[0] for p in near if self.walkable(p)}))
            guide = self._field(ts, ia) if ib in ts and len(ts) > 1 and self._again(ts) else None
            found = self._astar(ia, ib, guide, set())
            if found is None:  # not met: both lie in one component
                raise NoPath(f"no path from {a} to {b}")
            if blocked and any(p[1] * w + p[0] in blocked for p in found):
                around = self._astar(ia, ib, guide, blocked, budget=self._spent * 2 + 64)
                if around is not None:
                    return around
            return found
        plain = self._walk_down(ia, dist)
        if blocked and any(p[1] * w + p[0] in blocked for p in plain):
            around = self._astar(ia, ib, dist, blocked, budget=8 * len(plain) + 256)
            if around is not None:
                return around
        return plain

    def _again(self, key: int | tuple[int, ...]) -> bool:
        """Whether ``key`` (a tile, or a room's tiles) has a field, or is asked for the second time: a
        field is worth its breadth-first search only for a place more than one walk goes to (a
        thousand residents' bedrooms are each asked once a day)."""
        key = key[0] if isinstance(key, tuple) and len(key) == 1 else key
        if key in self._cache:
            return True
        n = self._asked.get(key, 0) + 1
        if n >= 2:
            return True
        if len(self._asked) > 8192:
            self._asked.clear()
        self._asked[key] = n
        return False

    def path_to_any(self, a: Pos, targets: Iterable[Pos]) -> list[Pos]:
        """Shortest path from a to the nearest of ``targets`` (e.g. the tiles of an arena).

        One distance field per set of targets is cached, so sending many residents to the same
        place is cheap."""
        ia = self._index(a, "start")
        ts = tuple(sorted({p[1] * self.width + p[0] for p in targets if self.walkable(p)}))
        if not ts:
            raise NoPath("none of the destination tiles is walkable")
        if ia in ts:
            return []
        dist = self._field(ts, ia)
        if dist[ia] < 0:
            raise NoPath(f"no path from {a} to any of {len(ts)} destination tiles")
        return self._walk_down(ia, dist)

    def _astar(self, ia: int, ib: int, h: Sequence[int] | None, blocked: set[int],
               budget: int | None = None) -> list[Pos] | None:
        """A* from ia to ib around ``blocked``; heuristic: the field ``h`` where it is grown (exact to ib, or
        to a set with ib in it: never more than the way to ib) or Manhattan, whichever is more.  None
        when there is no way, or none within ``budget`` tiles expanded: a way around others that is
        not near the plain one is not worth it (they move on), and looking for one where there is
        none (a doorway someone stands in) expanded the whole map, a path of a crowded town of a
        thousand in 6.5 ms.  ``_spent``: the tiles the search expanded."""
        w = self.width
        spent = 0
        bx, by = ib % w, ib // w
        g = {ia: 0}
        came: dict[int, int] = {}
        h0 = max(h[ia] if h is not None else 0, abs(ia % w - bx) + abs(ia // w - by))
        heap = [(h0, 0, ia)]
        nbrs = self._nbrs
        push, pop = heapq.heappush, heapq.heappop
        while heap:
            _, neg, cur = pop(heap)
            gc = -neg
            spent += 1
            if budget is not None and spent > budget:
                self._spent = spent
                return None
            if cur == ib:
                self._spent = spent
                out = []
                while cur != ia:
                    out.append((cur % w, cur // w))
                    cur = came[cur]
                out.reverse()
                return out
            if gc > g[cur]:
                continue
            ng = gc + 1
            for k in nbrs[cur]:
                if k in blocked:
                    continue
                if ng < g.get(k, 1 << 30):
                    g[k] = ng
                    came[k] = cur
                    hk = abs(k % w - bx) + abs(k // w - by)
                    if h is not None and h[k] > hk:
                        hk = h[k]
                    push(heap, (ng + hk, -ng, k))
        self._spent = spent
        return None

    def nearest_walkable(self, pos: Pos) -> Pos:
        """The walkable tile nearest to ``pos`` (itself if walkable); raises NoPath if none."""
        x0, y0 = pos
        if self.walkable(pos):
            return pos
        for r in range(1, max(self.width, self.height) + 1):
            best = None
            for dy in range(-r, r + 1):
                for dx in (-r, r) if abs(dy) != r else range(-r, r + 1):
                    p = (x0 + dx, y0 + dy)
                    if self.walkable(p):
                        d = dx * dx + dy * dy
                        if best is None or d < best[0]:
                            best = (d, p)
            if best:
                return best[1]
        raise NoPath("the map has no walkable tile")

    def farthest_from(self, a: Pos) -> tuple[Pos, int]:
        """The tile farthest (in steps) from a, and its distance."""
        dist = self._field((self._index(a, "start"),))
        i = max(range(len(dist)), key=dist.__getitem__)
        return (i % self.width, i // self.width), dist[i]
