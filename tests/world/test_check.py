"""``town new`` and ``town check``: a new town is a copy of a built-in one that checks clean, never
made over anything; each of ten broken towns (made from the default in tmp_path) has every one of
its problems named with its file and field, and exit 2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game.cli import main
from game.world import load_town
from game.world.check import check_town

from .conftest import DEFAULT


@pytest.fixture
def made(tmp_path, monkeypatch, capsys) -> Path:
    """``town new mytown`` run in tmp_path: maps/mytown."""
    monkeypatch.chdir(tmp_path)
    assert main(["new", "mytown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("made maps/mytown, a copy of default (residents.json, town.png, town.tmx, town.tsx)")
    assert "town check maps/mytown" in out
    return tmp_path / "maps" / "mytown"


def test_a_new_town_is_the_built_in_one_and_checks_clean(made, capsys):
    for name in ("town.tmx", "town.tsx", "town.png", "residents.json"):
        assert (made / name).read_bytes() == (DEFAULT / name).read_bytes()
    assert main(["check", "maps/mytown"]) == 0
    assert capsys.readouterr().out == ("maps/mytown: no problems (Millbrook: 120x84 tiles, 14 sectors, 66 arenas, "
                                       f"194 objects, {len(load_town(DEFAULT).residents)} residents)\n")
    assert main(["check", "default"]) == 0


def test_new_never_writes_over_anything_and_takes_a_path_or_another_town(made, tmp_path, capsys):
    (made / "residents.json").write_text("{}", encoding="utf-8")
    assert main(["new", "mytown"]) == 2
    assert capsys.readouterr().err == ("town new: maps/mytown: is already there (a new town is never written over "
                                       "anything); choose another name or move it away\n")
    assert (made / "residents.json").read_text(encoding="utf-8") == "{}"
    assert main(["new", "elsewhere/copy", "--from", "maps/mytown"]) == 0
    assert (tmp_path / "elsewhere" / "copy" / "residents.json").read_text(encoding="utf-8") == "{}"
    assert main(["new", "x", "--from", "nowhere"]) == 2
    assert "town new: --from nowhere: not a town folder" in capsys.readouterr().err
    assert not (tmp_path / "maps" / "x").exists()


def _residents(town: Path, change) -> None:
    path = town / "residents.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def _text(town: Path, name: str, change) -> None:
    path = town / name
    path.write_text(change(path.read_text(encoding="utf-8")), encoding="utf-8")


def _wall() -> list[int]:
    town = load_town(DEFAULT)
    return next([x, y] for y, row in enumerate(town.tiles) for x, t in enumerate(row) if not t.walkable)


def _set(i: int, key: str, value):
    def change(d):
        d["residents"][i][key] = value
    return change


def _many(*changes):
    def change(d):
        for c in changes:
            c(d)
    return change


R = "residents.json"
N = len(json.loads((DEFAULT / R).read_text(encoding="utf-8"))["residents"])
# name -> (how the town is broken, the problems expected: (file, field or "", words in the problem))
BROKEN = {
    "no map": (lambda t: (t / "town.tmx").unlink(), [("town.tmx", "", "no map")]),
    "no tileset": (lambda t: (t / "town.tsx").unlink(), [("town.tmx", "", "tileset file town.tsx is missing")]),
    "a layer missing": (lambda t: _text(t, "town.tmx", lambda s: re.sub(
        r'<objectgroup id="\d+" name="arenas".*?</objectgroup>', "", s, flags=re.S)),
        [("town.tmx", "", "missing object layer 'arenas'")]),
    "residents.json not JSON": (lambda t: _text(t, R, lambda s: s[:-20]), [(R, "", "not valid JSON")]),
    "homes and a workplace off the map": (lambda t: _residents(t, _many(
        _set(0, "home", "Okafor house:attic"), _set(2, "workplace", "Nowhere:desk"), _set(3, "home", "Moon Base"))),
        [(R, "residents[0].home", "home 'Okafor house:attic' is not a place on the map"),
         (R, "residents[2].workplace", "workplace 'Nowhere:desk' is not a place on the map"),
         (R, "residents[3].home", "home 'Moon Base' is not a place on the map")]),
    "fields of the wrong shape": (lambda t: _residents(t, _many(
        _set(0, "age", 300), _set(1, "glyph", "SO"), _set(2, "colour", "red"), _set(3, "pets", ["a cat"]))),
        [(R, "residents[0].age (Grace Okafor)", "less than or equal to 130"),
         (R, "residents[1].glyph (Samuel Okafor)", ""), (R, "residents[2].colour (Hank Brody)", ""),
         (R, "residents[3].pets (Rosa Brody)", "Extra inputs are not permitted")]),
    "names that fit nothing": (lambda t: _residents(t, _many(
        lambda d: d["small_cast"].append("Nobody Atall"),
        lambda d: d["residents"][1]["relationships"].update({"A Stranger": "who?"}),
        lambda d: d["roles"].append({"who": "Ghost", "role": "sheriff"}),
        lambda d: d["residents"].append(dict(d["residents"][0])))),
        [(R, f"residents[{N}].name", "two residents are called 'Grace Okafor'"),
         (R, "small_cast[5]", "'Nobody Atall', who is not a resident"),
         (R, "residents[1].relationships", "'A Stranger', who is not a resident"),
         (R, f"roles[{len(json.loads((DEFAULT / R).read_text(encoding='utf-8'))['roles'])}].who", "'Ghost'")]),
    "a day somewhere the map lacks": (lambda t: _residents(t, _many(
        lambda d: d["residents"][1]["lifestyle"]["schedule"][0].update(place="Bluebell Cafe:stage"),
        lambda d: d["residents"][2]["knows"].append("The Grand Hotel"))),
        [(R, "residents[1].lifestyle.schedule[0].place", "is at 'Bluebell Cafe:stage', which is not a place"),
         (R, "residents[2].knows[4]", "knows 'The Grand Hotel', which is not a place on the map")]),
    "a spawn in a wall and an event nowhere": (lambda t: _residents(t, _many(
        _set(0, "spawn", _wall()), lambda d: d["events"][0].update(place="The Grand Hotel"))),
        [(R, "residents[0].spawn", "is not a walkable tile of the town"),
         (R, "events[0].place", "is at 'The Grand Hotel', which is not a place on the map")]),
    "a broken map and broken residents": (lambda t: (
        _text(t, "town.tmx", lambda s: s.replace('name="ground"', 'name="floor"', 1)),
        _residents(t, _many(_set(0, "age", -1), _set(1, "home", "Moon Base")))),
        [("town.tmx", "", "missing tile layer 'ground'"), (R, "residents[0].age (Grace Okafor)", "")]),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_every_problem_of_a_broken_town_is_named_with_its_file_and_field(made, capsys, case):
    breaking, expected = BROKEN[case]
    breaking(made)
    report = check_town("maps/mytown")
    assert len(report.problems) == len(expected), [str(p) for p in report.problems]
    for problem, (file, field, words) in zip(report.problems, expected):
        assert (problem.file.name, problem.field) == (file, field), str(problem)
        assert words in problem.problem, str(problem)
    assert main(["check", "maps/mytown"]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[:-1] == [str(p) for p in report.problems]
    n = len(expected)
    assert out[-1].startswith(f"maps/mytown: {n} problem{'s' if n > 1 else ''}")
    assert out[-1].endswith("once the map and residents.json read)") == (not report.places_checked)
    assert report.places_checked == (case not in ("no map", "no tileset", "a layer missing",
                                                  "residents.json not JSON", "a broken map and broken residents",
                                                  "fields of the wrong shape"))
    for line in out[:-1]:
        assert line.startswith("maps/mytown/town.t") or line.startswith("maps/mytown/residents.json: ")


def test_a_town_that_is_not_there_is_one_line_on_stderr(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["check", "maps/nothing"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("town check: maps/nothing: no such town") and err.count("\n") == 1
