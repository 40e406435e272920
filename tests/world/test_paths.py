from __future__ import annotations

import numpy as np
import pytest

from game.world import NoPath, PathFinder


def _check_path(pf: PathFinder, a, b, path):
    assert path[-1] == b
    prev = a
    for p in path:
        assert abs(p[0] - prev[0]) + abs(p[1] - prev[1]) == 1  # one tile per step
        assert pf.walkable(p)
        prev = p


def test_small_grid_paths():
    g = np.array([[1, 1, 1, 1],
                  [0, 0, 0, 1],
                  [1, 1, 1, 1]], dtype=bool)
    pf = PathFinder(g)
    p = pf.path((0, 0), (0, 2))
    _check_path(pf, (0, 0), (0, 2), p)
    assert len(p) == 8 == pf.distance((0, 0), (0, 2))
    assert pf.path((1, 0), (1, 0)) == []
    with pytest.raises(NoPath):
        pf.path((0, 0), (0, 1))  # a wall
    assert pf.nearest_walkable((1, 1)) in {(1, 0), (1, 2)}


def test_disconnected():
    g = np.array([[1, 0, 1]], dtype=bool)
    pf = PathFinder(g)
    assert pf.components == 2
    assert not pf.reachable((0, 0), (2, 0))
    with pytest.raises(NoPath):
        pf.path((0, 0), (2, 0))


def test_avoid_occupied_tiles():
    g = np.ones((3, 5), dtype=bool)
    pf = PathFinder(g)
    plain = pf.path((0, 1), (4, 1))
    assert plain == [(1, 1), (2, 1), (3, 1), (4, 1)]
    around = pf.path((0, 1), (4, 1), avoid={(2, 1)})
    _check_path(pf, (0, 1), (4, 1), around)
    assert (2, 1) not in around and len(around) == 6
    # no way around: the plain path (the other one will move on)
    corridor = PathFinder(np.ones((1, 5), dtype=bool))
    assert corridor.path((0, 0), (4, 0), avoid={(2, 0)}) == [(1, 0), (2, 0), (3, 0), (4, 0)]


def test_a_way_around_is_looked_for_near_the_plain_path_only():
    # two big rooms joined by one doorway someone stands in: no way around it, and the search for
    # one gives up near the plain path rather than expanding both rooms
    g = np.ones((60, 121), dtype=bool)
    g[:, 60] = False
    g[30, 60] = True  # the doorway
    pf = PathFinder(g)
    a, b = (10, 30), (110, 30)
    for _ in range(2):  # A* the first time, the destination's field the second
        plain = pf.path(a, b)
        assert pf.path(a, b, avoid={(60, 30)}) == plain
        assert pf._spent <= 8 * len(plain) + 257  # (a whole room is 3,600 tiles)
    # a way around that is near is still found
    around = pf.path(a, b, avoid={(40, 30)})
    _check_path(pf, a, b, around)
    assert (40, 30) not in around and len(around) == len(plain) + 2


def test_longest_shortest_path_on_default_map(town):
    pf = town.paths
    start = town.spawn["Grace Okafor"]
    # double sweep: the tile farthest from the farthest tile (a lower bound of the diameter)
    far, _ = pf.farthest_from(start)
    other, d = pf.farthest_from(far)
    assert d > 150  # the original's BFS gave up after 150 steps
    path = pf.path(far, other)
    assert len(path) == d == pf.distance(other, far)
    _check_path(pf, far, other, path)


def test_every_home_reachable_from_everywhere(town):
    pf = town.paths
    walk = np.argwhere(town.grid)
    assert pf.components == 1, "the default town is one walkable region"
    assert len(walk) == pf.component_size(tuple(int(v) for v in walk[0][::-1]))
    for r in town.residents:
        home = town.walkable_tiles_of(r.home)
        assert home
        # from the far corner of the map
        path = pf.path_to_any((0, 0), home)
        assert path and path[-1] in home
        if r.workplace:
            assert pf.path_to_any(town.spawn[r.name], town.walkable_tiles_of(r.workplace))


def test_paths_are_cached_and_fast(town):
    import time
    pf = town.paths
    a, b = town.spawn["Grace Okafor"], town.spawn["Priya Raman"]
    pf.path(a, b)
    t = time.perf_counter()
    for _ in range(200):
        pf.path(a, b)
    assert (time.perf_counter() - t) / 200 < 0.005


def test_first_query_astar_then_cached_field(town):
    pf = type(town.paths)(town.grid)
    a, b = town.spawn["Grace Okafor"], town.spawn["Marcus Bell"]
    ib = b[1] * pf.width + b[0]
    first = pf.path(a, b)
    assert ib not in pf._cache  # one-off: A*, no field
    second = pf.path(a, b)
    assert ib in pf._cache and len(first) == len(second) == pf.distance(a, b)
    occupied = {second[len(second) // 2]}
    around = pf.path(a, b, avoid=occupied)
    assert not occupied & set(around) and around[-1] == b
    # uncached destination with occupants: A* around them as well
    c = town.spawn["Priya Raman"]
    p = pf.path(a, c)
    fresh = type(town.paths)(town.grid)
    q = fresh.path(a, c, avoid={p[len(p) // 2]})
    assert p[len(p) // 2] not in q and q[-1] == c


def _bfs(grid: np.ndarray, target: tuple[int, int]) -> np.ndarray:
    """Steps to ``target`` from every tile, by a plain breadth-first search (-1: none)."""
    from collections import deque

    h, w = grid.shape
    dist = np.full((h, w), -1, dtype=np.int32)
    dist[target[1], target[0]] = 0
    dq = deque([target])
    while dq:
        x, y = dq.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and grid[ny, nx] and dist[ny, nx] < 0:
                dist[ny, nx] = dist[y, x] + 1
                dq.append((nx, ny))
    return dist


def test_a_field_grown_only_as_far_as_asked_gives_shortest_paths_and_grows_whole_when_asked():
    """A destination's field is grown from it only until the tile asked from is reached (a big map's
    asks come from near); every path walked down a part-grown field is a shortest one, and the field
    asked whole (or from farther) is the plain search's."""
    rng = np.random.default_rng(7)
    grid = rng.random((40, 60)) > 0.25
    pf = PathFinder(grid)
    tiles = [(int(x), int(y)) for y, x in zip(*np.nonzero(grid))]
    target = max(tiles, key=lambda t: pf.component_size(t))
    truth = _bfs(grid, target)
    near = sorted((t for t in tiles if truth[t[1], t[0]] > 0), key=lambda t: truth[t[1], t[0]])
    for a in near[:5] + near[-5:] + [near[len(near) // 2]]:
        for _ in range(2):  # (the second ask of a destination grows its field)
            path = pf.path(a, target)
            _check_path(pf, a, target, path)
            assert len(path) == truth[target[1], target[0]] + truth[a[1], a[0]]
    grown = np.array(pf._cache[target[1] * pf.width + target[0]][0]).reshape(pf.height, pf.width)
    assert ((grown == truth) | (grown == -1)).all()  # (set distances are exact)
    assert (pf.distance_field(target) == truth).all()
    fresh = PathFinder(grid)
    for _ in range(2):
        fresh.path(near[0], target)
    part = np.array(fresh._cache[target[1] * fresh.width + target[0]][0])
    assert 0 < (part >= 0).sum() < (truth >= 0).sum() // 4  # grown only near the destination


def test_a_first_walk_into_a_room_is_guided_by_the_room_s_field_and_stays_shortest():
    """A destination asked once, in a room more than one walk goes to: the A* is guided by the room's
    shared field (the way to the nearest of its tiles), and its path is a shortest one, around others
    too; the room's field is made from its second ask."""
    rng = np.random.default_rng(11)
    grid = rng.random((40, 60)) > 0.25
    pf = PathFinder(grid)
    tiles = [(int(x), int(y)) for y, x in zip(*np.nonzero(grid))]
    big = max(tiles, key=lambda t: pf.component_size(t))
    tiles = [t for t in tiles if pf.reachable(big, t)]
    room = [t for t in tiles if 45 <= t[0] <= 52 and 30 <= t[1] <= 36]
    key = tuple(sorted(t[1] * pf.width + t[0] for t in room))
    starts = [tiles[int(i)] for i in rng.choice(len(tiles), 12, replace=False)]
    for n, a in enumerate(starts):
        b = room[(n * 7) % len(room)]
        truth = _bfs(grid, b)
        path = pf.path(a, b, near=room)
        if a != b:
            _check_path(pf, a, b, path)
        assert len(path) == truth[a[1], a[0]]
        if path[:-1]:
            around = pf.path(a, b, avoid={path[len(path) // 2]}, near=room)
            _check_path(pf, a, b, around)
        assert (key in pf._cache) == (n >= 1)
