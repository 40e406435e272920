"""What a person does in Tiled (rename a room, add a house as rectangles or a polygon) loads and plays."""

from __future__ import annotations

import shutil
from collections import deque

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from game.world import PathFinder, load_town

from .conftest import DEFAULT


def _copy(tmp_path):
    d = tmp_path / "town"
    d.mkdir()
    for f in ("town.tmx", "town.tsx", "town.png", "residents.json"):
        shutil.copy(DEFAULT / f, d / f)
    return d


def test_rename_a_room_and_add_a_place(tmp_path):
    d = _copy(tmp_path)
    tmx = d / "town.tmx"
    text = tmx.read_text(encoding="utf-8")
    # rename the Okafor kitchen (the first arena called kitchen)
    i = text.index('name="kitchen"')
    text = text[:i] + 'name="scullery"' + text[i + len('name="kitchen"'):]
    # a new sector drawn as a polygon on open grass east of the houses, with a bench in it
    text = text.replace('<objectgroup id="3" name="sectors">', '<objectgroup id="3" name="sectors">\n'
                        '  <object id="90001" name="Orchard" x="400" y="32">'
                        '<polygon points="0,0 160,0 160,160 0,160"/></object>', 1)
    text = text.replace('<objectgroup id="4" name="arenas">', '<objectgroup id="4" name="arenas">\n'
                        '  <object id="90002" name="apple trees" x="400" y="32" width="160" height="160"/>', 1)
    text = text.replace('<objectgroup id="5" name="objects">', '<objectgroup id="5" name="objects">\n'
                        '  <object id="90003" name="rocking chair" x="432" y="64" width="16" height="16">'
                        '<properties><property name="state" value="rocking gently"/></properties></object>', 1)
    tmx.write_text(text, encoding="utf-8")
    town = load_town(d)
    t = town.tree
    assert "Okafor house:scullery:stove" in t
    assert "Okafor house:kitchen" not in t
    assert "Orchard:apple trees" in t  # arena placed in the sector under it
    assert len(t.tiles_of("Orchard")) == 100
    chair = "Orchard:apple trees:rocking chair"
    assert t.tiles_of(chair) == [(27, 4)]
    assert town.objects.get(chair) == "rocking gently"
    assert t.find("the rocking chair in the orchard") == chair
    assert town.paths.path_to_any(town.spawn["Grace Okafor"], town.walkable_tiles_of(chair))


def _bfs(grid, a):
    h, w = grid.shape
    dist = {a: 0}
    dq = deque([a])
    while dq:
        x, y = dq.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and grid[ny, nx] and (nx, ny) not in dist:
                dist[(nx, ny)] = dist[(x, y)] + 1
                dq.append((nx, ny))
    return dist


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 14), st.integers(3, 14))
def test_paths_are_shortest_on_random_grids(seed, w, h):
    rng = np.random.default_rng(seed)
    grid = rng.random((h, w)) > 0.3
    pf = PathFinder(grid)
    cells = [tuple(map(int, p[::-1])) for p in np.argwhere(grid)]
    if len(cells) < 2:
        return
    a, b = cells[0], cells[-1]
    dist = _bfs(grid, a)
    if b not in dist:
        assert not pf.reachable(a, b)
        return
    path = pf.path(a, b)
    assert len(path) == dist[b] == pf.distance(a, b)
    prev = a
    for p in path:
        assert grid[p[1], p[0]] and abs(p[0] - prev[0]) + abs(p[1] - prev[1]) == 1
        prev = p
    mid = path[len(path) // 2] if len(path) > 2 else None
    if mid and mid != b:
        around = pf.path(a, b, avoid={mid})
        assert around[-1] == b
        if mid in around:  # only when there is no way around
            g2 = grid.copy()
            g2[mid[1], mid[0]] = False
            assert b not in _bfs(g2, a)
