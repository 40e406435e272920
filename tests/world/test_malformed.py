"""Malformed or foreign towns get a MapError naming the file and the problem, never a traceback."""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from game.world import MapError, load_town

from .conftest import DEFAULT, REPO


@pytest.fixture
def copy(tmp_path) -> Path:
    d = tmp_path / "town"
    d.mkdir()
    for f in ("town.tmx", "town.tsx", "residents.json"):
        shutil.copy(DEFAULT / f, d / f)
    return d


def _edit(path: Path, fn) -> None:
    path.write_text(fn(path.read_text(encoding="utf-8")), encoding="utf-8")


def _fails(path, *words) -> MapError:
    with pytest.raises(MapError) as ei:
        load_town(path)
    msg = str(ei.value)
    assert "Traceback" not in msg and "\n" not in msg
    for w in words:
        assert w in msg, msg
    return ei.value


def test_the_copy_loads(copy):
    assert load_town(copy).name == "Millbrook"


def test_not_xml(copy):
    (copy / "town.tmx").write_text("hello, I am not a map", encoding="utf-8")
    _fails(copy, "town.tmx", "not valid XML")


def test_not_a_map(copy):
    (copy / "town.tmx").write_text("<html><body/></html>", encoding="utf-8")
    _fails(copy, "town.tmx", "<html>")


@pytest.mark.parametrize("layer,kind", [("ground", "tile"), ("arenas", "object"), ("objects", "object")])
def test_missing_layer(copy, layer, kind):
    def drop(text):
        tag = "layer" if kind == "tile" else "objectgroup"
        return re.sub(rf'<{tag} id="\d+" name="{layer}".*?</{tag}>', "", text, flags=re.S)
    _edit(copy / "town.tmx", drop)
    _fails(copy, "town.tmx", f"missing {kind} layer '{layer}'")


def test_zstd_encoding(copy):
    _edit(copy / "town.tmx",
          lambda t: t.replace('<data encoding="csv">', '<data encoding="base64" compression="zstd">', 1))
    _fails(copy, "town.tmx", "zstd", "'ground'")


def test_xml_tile_encoding(copy):
    _edit(copy / "town.tmx", lambda t: re.sub(r'<data encoding="csv">.*?</data>',
                                              '<data><tile gid="1"/></data>', t, count=1, flags=re.S))
    _fails(copy, "town.tmx", "encoding XML")


def test_base64_zlib_is_fine(copy):
    def to_b64(text):
        m = re.search(r'<data encoding="csv">(.*?)</data>', text, flags=re.S)
        gids = [int(v) for v in m.group(1).replace("\n", "").split(",")]
        raw = b"".join(g.to_bytes(4, "little") for g in gids)
        enc = base64.b64encode(zlib.compress(raw)).decode()
        return text[:m.start()] + f'<data encoding="base64" compression="zlib">{enc}</data>' + text[m.end():]
    _edit(copy / "town.tmx", to_b64)
    t = load_town(copy)
    assert t.tiles[0][0].name == "grass" and t.grid.sum() == load_town(DEFAULT).grid.sum()


def test_infinite_map(copy):
    _edit(copy / "town.tmx", lambda t: t.replace('infinite="0"', 'infinite="1"', 1))
    _fails(copy, "infinite")


def test_tmj_and_template(copy, tmp_path):
    j = tmp_path / "town.tmj"
    j.write_text("{}", encoding="utf-8")
    _fails(j, "town.tmj", "TMX")
    _edit(copy / "town.tmx", lambda t: t.replace('<object id="1" ', '<object id="1" template="house.tx" ', 1))
    _fails(copy, "template")


def test_missing_tileset(copy):
    (copy / "town.tsx").unlink()
    _fails(copy, "town.tmx", "town.tsx", "missing")


def test_reserved_property_name(copy):
    _edit(copy / "town.tmx", lambda t: t.replace('<property name="sector"', '<property name="name"', 1))
    _fails(copy, "property name 'name'")


def test_duplicate_layer_names(copy):
    _edit(copy / "town.tmx", lambda t: t.replace('name="furniture"', 'name="ground"', 1))
    _fails(copy, "two tile layers are named 'ground'")


def test_arena_names_unknown_sector(copy):
    _edit(copy / "town.tmx", lambda t: t.replace('value="Okafor house"', 'value="Atlantis"', 1))
    _fails(copy, "Atlantis")


def _residents(copy, fn):
    p = copy / "residents.json"
    data = json.loads(p.read_text(encoding="utf-8"))
    fn(data)
    p.write_text(json.dumps(data), encoding="utf-8")


def test_unwalkable_home(copy):
    # a home made of walls only: draw an arena over the town hall's outer wall
    _edit(copy / "town.tmx", lambda t: t.replace(
        '<objectgroup id="4" name="arenas">',
        '<objectgroup id="4" name="arenas">\n  <object id="9999" name="cellar" x="688" y="32" width="16" height="16">'
        '<properties><property name="sector" value="Town Hall"/></properties></object>', 1))
    _residents(copy, lambda d: d["residents"][0].update(home="Town Hall:cellar"))
    _fails(copy, "residents.json", "Grace Okafor", "Town Hall:cellar", "no walkable tile")


def test_walled_in_home(copy):
    # wall the Okafor house's bedroom door shut
    town = load_town(copy)
    wall_gid = None
    for y, row in enumerate(town.tiles):
        for x, t in enumerate(row):
            if t.name == "wall":
                wall_gid = (x, y)
                break
        if wall_gid:
            break
    text = (copy / "town.tmx").read_text(encoding="utf-8")
    m = re.search(r'<data encoding="csv">\n(.*?)\n  </data>', text, flags=re.S)
    rows = [r.rstrip(",").split(",") for r in m.group(1).split("\n")]
    wall = rows[wall_gid[1]][wall_gid[0]]
    # doors of the bedroom (3, 5) and the living room's front door (11, 9) of the Okafor house at (2, 1)
    for x, y in ((5, 5), (11, 9), (11, 5), (17, 5), (13, 7)):
        assert town.tiles[y][x].name == "door", (x, y)
        rows[y][x] = wall
    new = ",\n".join(",".join(r) for r in rows)
    (copy / "town.tmx").write_text(text[:m.start(1)] + new + text[m.end(1):], encoding="utf-8")
    _fails(copy, "residents.json", "cannot be reached")


def test_duplicate_resident(copy):
    _residents(copy, lambda d: d["residents"].append(dict(d["residents"][0])))
    _fails(copy, "residents.json", "two residents are called 'Grace Okafor'")


def test_resident_field_errors(copy):
    _residents(copy, lambda d: d["residents"][1].update(glyph="SO"))
    _fails(copy, "residents.json", "residents[1].glyph", "Samuel Okafor", "one printable character")


def test_home_not_on_map(copy):
    _residents(copy, lambda d: d["residents"][2].update(home="Brody house:attic"))
    _fails(copy, "residents.json", "Hank Brody", "'Brody house:attic' is not a place")


def test_residents_not_json(copy):
    (copy / "residents.json").write_text("{ residents: [", encoding="utf-8")
    _fails(copy, "residents.json", "not valid JSON")


def test_cli_prints_one_clean_line(copy):
    (copy / "town.tmx").write_text("garbage", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "game", "map", str(copy)], capture_output=True, text=True,
                       cwd=REPO, timeout=60)
    assert r.returncode == 2  # bad input, as `town run` says of the same map
    assert "Traceback" not in r.stderr and "town.tmx" in r.stderr and "not valid XML" in r.stderr
    assert r.stdout == ""


def _first_cell(t: str, new: str) -> str:
    i = t.index('<data encoding="csv">\n') + len('<data encoding="csv">\n')
    return t[:i] + new + t[t.index(",", i):]


@pytest.mark.parametrize("label,mutate,words", [
    ("unknown gid", lambda t: _first_cell(t, "9999"), ["(0, 0)", "glyph"]),
    ("not a number", lambda t: _first_cell(t, "x"), ["cannot read the map"]),
    ("wrong size", lambda t: t.replace('width="120"', 'width="121"', 1), ["not 121x84"]),
    ("no tileset", lambda t: t.replace('<tileset firstgid="1" source="town.tsx"/>', ""), ["glyph"]),
    ("foreign layer names", lambda t: t.replace('name="ground"', 'name="Tile Layer 1"', 1),
     ["missing tile layer 'ground'"]),
    ("bad object position",
     lambda t: t.replace('<object id="1" name="Okafor house" x="', '<object id="1" name="Okafor house" x="abc', 1),
     ["abc"]),
    ("truncated", lambda t: t[: len(t) // 2], ["not valid XML"]),
])
def test_mutated_maps(copy, label, mutate, words):
    _edit(copy / "town.tmx", mutate)
    _fails(copy, "town.tmx", *words)


@pytest.mark.parametrize("start, words", [
    ("2026-03-02T06:00+02:00", ("start", "no time zone")),
    ("9999-12-31T06:00", ("start", "past the years a town can run in")),
])
def test_a_start_with_an_offset_or_past_the_calendar_is_refused(copy, start, words):
    _residents(copy, lambda d: d.update(start=start))
    _fails(copy, "residents.json", *words)
