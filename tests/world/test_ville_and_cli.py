from __future__ import annotations

import csv
import json
import subprocess
import sys

import numpy as np

from game.world import load_town
from game.world.ville import ASSETS
from game.world.ville_residents import parse_lifestyle

from .conftest import REPO


def _source_counts(src):
    """Count the original's places straight from its CSV files, independently of the importer."""
    a = src / ASSETS / "matrix"
    def maze(k):
        return np.array([int(v) for v in (a / f"maze/{k}_maze.csv").read_text().replace("\n", ",").split(",")
                         if v.strip()])
    def blocks(k):
        with (a / f"special_blocks/{k}_blocks.csv").open() as f:
            return {int(r[0]): [c.strip() for c in r[1:]] for r in csv.reader(f) if r}
    sec, are, obj = maze("sector"), maze("arena"), maze("game_object")
    sb, ab, ob = blocks("sector"), blocks("arena"), blocks("game_object")
    sectors = {sb[v][-1] for v in set(sec.tolist()) if v in sb}
    arenas = {tuple(ab[v][-2:]) for v in set(are.tolist()) if v in ab}
    objects = {(*ab[a][-2:], ob[o][-1]) for a, o in zip(are.tolist(), obj.tolist()) if a in ab and o in ob}
    return sectors, arenas, objects, len(sb), len(ab), len(ob)


def test_import_counts_equal_source(ville, ville_src):
    town, counts, _ = ville
    sectors, arenas, objects, n_sb, n_ab, n_ob = _source_counts(ville_src)
    assert (town.width, town.height) == (140, 100)
    assert len(sectors) == n_sb == 19 and len(arenas) == n_ab == 63
    t = town.tree
    assert set(t.sectors()) == sectors
    assert {tuple(a.split(":")) for a in t.all_arenas()} == arenas
    assert {tuple(o.split(":")) for o in t.all_objects()} == objects
    assert len(set(t.kind.values())) == len({o for *_x, o in objects})
    assert counts["objects"] == len(objects)


def test_collision_matches_source(ville, ville_src):
    town, _, _ = ville
    col = np.array([int(v) for v in (ville_src / ASSETS / "matrix/maze/collision_maze.csv").read_text()
                    .replace("\n", ",").split(",") if v.strip()]).reshape(100, 140)
    assert np.array_equal(town.grid, col == 0)


def test_residents_resolve_to_places(ville):
    town, counts, out = ville
    assert len(town.residents) == counts["residents"] == 25
    for r in town.residents:
        assert r.home in town.tree
        assert town.walkable_tiles_of(r.home)
        assert (town.tree.arena_at(town.spawn[r.name]) == r.home
                or town.spawn[r.name] in town.tree.tiles_of(r.home.split(":")[0]))
        assert r.seed_memories, r.name
    isabella = town.resident("Isabella Rodriguez")
    assert any("Valentine" in m for m in isabella.seed_memories)
    assert isabella.lifestyle.wake == "06:00" and isabella.lifestyle.sleep == "23:00"
    assert "Maria Lopez" in town.resident("Klaus Mueller").relationships
    assert isabella.workplace == "Hobbs Cafe:cafe"
    assert town.resident("Klaus Mueller").workplace == "Oak Hill College:library"
    assert town.resident("John Lin").workplace == "The Willows Market and Pharmacy:store"
    # every resident has a workplace that fits its persona (issue 16: only 9 of 25 had one)
    assert all(r.workplace and r.workplace in town.tree for r in town.residents)
    expect = {"Adam Smith": "Oak Hill College:library",  # a philosopher researches
              "Mei Lin": "Oak Hill College:classroom",  # a college professor teaches
              "Maria Lopez": "Oak Hill College:classroom", "Ayesha Khan": "Oak Hill College:library",
              "Francisco Lopez": "The Rose and Crown Pub:pub",  # an actor and comedian performs
              "Sam Moore": "Johnson Park:park",  # a retired officer walks and tells stories
              "Jane Moreno": "Moreno family's house:kitchen",  # a housewife cooks for her family
              "Rajiv Patel": "artist's co-living space:Rajiv Patel's room",  # a painter, at his easel
              "Ryan Park": "Ryan Park's apartment:main room",  # a software engineer, at his computer
              "Tamara Taylor": "Tamara Taylor and Carmen Ortiz's house:Tamara Taylor's room",  # an author
              "Carmen Ortiz": "Harvey Oak Supply Store:supply store"}
    assert {n: town.resident(n).workplace for n in expect} == expect
    # a workplace at home is in its own home; and the world's table says it affords the work there
    aff = town.affordances
    for n in ("Rajiv Patel", "Ryan Park", "Tamara Taylor", "Hailey Johnson", "Carlos Gomez"):
        w = town.resident(n).workplace
        assert w.split(":")[0] == town.resident(n).home.split(":")[0]
        assert max(aff.fit(act, f"{w}:{o}") for o in town.tree.objects(*w.split(":"))
                   for act in ("paint", "code", "write")) > 0, n
    # every home reachable from every other resident's start
    pf = town.paths
    for r in town.residents:
        assert pf.path_to_any(town.spawn["Adam Smith"], town.walkable_tiles_of(r.home)) is not None
    assert set(town.small_cast) == {"Isabella Rodriguez", "Maria Lopez", "Klaus Mueller"}
    data = json.loads((out / "residents.json").read_text())
    assert data["start"] == "2023-02-13T00:00:00" and data["seconds_per_step"] == 10


def test_import_three(ville_src, tmp_path):
    from game.world.ville import import_ville
    import_ville(ville_src, tmp_path / "v3", base="base_the_ville_isabella_maria_klaus")
    town = load_town(tmp_path / "v3")
    assert sorted(r.name for r in town.residents) == ["Isabella Rodriguez", "Klaus Mueller", "Maria Lopez"]


def test_longest_path_on_the_ville(ville):
    town, _, _ = ville
    pf = town.paths
    far, _ = pf.farthest_from(town.spawn["Klaus Mueller"])
    other, d = pf.farthest_from(far)
    assert d > 150
    assert len(pf.path(far, other)) == d


def test_parse_lifestyle():
    assert parse_lifestyle("John Lin goes to bed around 10pm, awakes up around 6am, eats dinner around 5pm.") == \
        {"wake": "06:00", "sleep": "22:00", "meals": {"dinner": "17:00"}}
    assert parse_lifestyle("") == {"wake": "07:00", "sleep": "23:00", "meals": {}}


def test_import_cli_errors(tmp_path):
    r = subprocess.run([sys.executable, "-m", "game", "import-ville", str(tmp_path / "nothing"), str(tmp_path / "o")],
                       capture_output=True, text=True, cwd=REPO, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "maze_meta_info.json" in r.stderr  # bad input


def test_map_cli_is_quiet_and_world_imports_no_upper_layer():
    r = subprocess.run([sys.executable, "-m", "game", "map"], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert r.returncode == 0 and r.stderr == ""  # no "cannot import pygame"
    assert "Millbrook: 120x84 tiles" in r.stdout and "┌" in r.stdout
    code = ("import sys, game.world, game.world.ville, game.world.dump; "
            "bad = [m for m in sys.modules if m.split('.')[0] == 'textual' "
            "or m.startswith(('game.mind', 'game.engine', 'game.ui'))]; "
            "print(bad)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=60)
    assert r.stdout.strip() == "[]", r.stdout + r.stderr


def _matrix_copy(ville_src, tmp_path):
    """The original's layout files (not its personas) in a folder of the same shape, to spoil."""
    import shutil
    src = tmp_path / "src"
    shutil.copytree(ville_src / ASSETS / "matrix", src / ASSETS / "matrix")
    return src


def test_a_spoiled_layout_is_one_plain_error_and_writes_nothing(ville_src, tmp_path):
    import pytest

    from game.world.errors import MapError
    from game.world.ville import import_ville

    src = _matrix_copy(ville_src, tmp_path)
    blocks = src / ASSETS / "matrix/special_blocks/arena_blocks.csv"
    first = blocks.read_text().splitlines()[0].split(",")[0]
    blocks.write_text(blocks.read_text() + f"\n{first}9,\n")  # a row that names nothing (was an IndexError)
    with pytest.raises(MapError, match="names 0 of the 2 it needs"):
        import_ville(src, tmp_path / "out")
    src2 = _matrix_copy(ville_src, tmp_path / "b")
    meta = src2 / ASSETS / "matrix/maze_meta_info.json"
    meta.write_text(json.dumps({**json.loads(meta.read_text()), "maze_width": -140}))  # (was a ValueError)
    with pytest.raises(MapError, match="each must be 1 to"):
        import_ville(src2, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_persona_base_that_is_not_there_leaves_the_target_as_it_was(ville_src, tmp_path):
    import pytest

    from game.world.errors import MapError
    from game.world.ville import import_ville

    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    with pytest.raises(MapError):
        import_ville(ville_src, out, base="nosuch")
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]  # no half a town (issue 41)
    assert not list(tmp_path.glob(".out.importing*"))
