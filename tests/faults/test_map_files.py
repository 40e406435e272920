"""Maps and residents files: everything malformed gets ``MapError`` naming the file and the problem.

Each case starts from the good fault town (``townfiles``) and breaks one thing.  ``new_engine``
turns ``MapError`` into its own ``TownError`` with the same message; both are checked.  A seeded
fuzz of byte-level mutations of the map and of the residents file runs too: each mutant must
load or raise ``MapError`` (a crash is anything else).
"""

from __future__ import annotations

import base64
import random
import zlib
from collections import Counter
from pathlib import Path

import pytest

from game.engine.build import TownError, new_engine
from game.world import MapError, load_town

from . import townfiles as tf
from .answers import summary, table
from .fakes import any_answer_model


def _res(fn) -> dict:
    return tf.with_resident_change(fn)


def _b64_layer(compression: str | None) -> str:
    g = tf.ground()
    raw = b"".join(int(v + 1).to_bytes(4, "little") for row in g for v in row)
    if compression == "zlib":
        raw = zlib.compress(raw)
    return base64.b64encode(raw).decode()


def _zstd_tmx() -> str:
    text = tf.tmx_text()
    start = text.index('<data encoding="csv">')
    end = text.index("</data>")
    return text[:start] + '<data encoding="base64" compression="zstd">' + _b64_layer(None) + text[end:]


def _walled() -> list[list[int]]:
    return tf.ground(walled_room=True)


def _set(d: dict, path: list, value) -> None:
    for p in path[:-1]:
        d = d[p]
    d[path[-1]] = value


def _del(d: dict, path: list) -> None:
    for p in path[:-1]:
        d = d[p]
    del d[path[-1]]


R0 = ["residents", 0]
# (name, what the message must mention, tmx text or None, residents data/text or None, which file)
CASES: list[tuple[str, str, str | None, object, str]] = [
    ("xml truncated", "not valid XML", tf.tmx_text()[:300], None, "town.tmx"),
    ("xml garbage", "not valid XML", "<map><<<>>>", None, "town.tmx"),
    ("xml empty", "not valid XML", "", None, "town.tmx"),
    ("xml unknown encoding", "XML", tf.tmx_text().replace('encoding="UTF-8"', 'encoding="UTF--18"', 1), None,
     "town.tmx"),  # found by the slow fuzz: LookupError
    ("not a map", "root element", "<?xml version='1.0'?><html><body/></html>", None, "town.tmx"),
    ("binary", "XML", "\x89PNG\r\n\x1a\n\x00\x00", None, "town.tmx"),
    ("missing ground", "ground", tf.tmx_text(drop_layer="ground"), None, "town.tmx"),
    ("missing sectors", "sectors", tf.tmx_text(drop_layer="sectors"), None, "town.tmx"),
    ("missing arenas", "arenas", tf.tmx_text(drop_layer="arenas"), None, "town.tmx"),
    ("missing objects", "objects", tf.tmx_text(drop_layer="objects"), None, "town.tmx"),
    ("zstd", "zstd", _zstd_tmx(), None, "town.tmx"),
    ("xml encoding", "encoding", tf.tmx_text().replace('<data encoding="csv">', "<data>"), None, "town.tmx"),
    ("gzip but csv text", "gzip", tf.tmx_text(encoding="base64", compression="gzip"), None, "town.tmx"),
    ("infinite", "infinite", tf.tmx_text(infinite=True), None, "town.tmx"),
    ("isometric", "orthogonal", tf.tmx_text().replace('orientation="orthogonal"', 'orientation="isometric"'),
     None, "town.tmx"),
    ("width zero", "width", tf.tmx_text().replace(f'width="{tf.W}" height="{tf.H}" tilewidth',
                                                  f'width="0" height="{tf.H}" tilewidth'), None, "town.tmx"),
    ("width text", "width", tf.tmx_text().replace(f'width="{tf.W}" height="{tf.H}" tilewidth',
                                                  f'width="wide" height="{tf.H}" tilewidth'), None, "town.tmx"),
    ("layer too short", "ground", tf.tmx_text().replace("2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2\n  </data>",
                                                         "2,2\n  </data>"), None, "town.tmx"),
    ("tileset missing", "tileset", tf.tmx_text().replace('<tileset firstgid="1" name="faults"',
                                                         '<tileset firstgid="1" source="gone.tsx" name="faults"'),
     None, "town.tmx"),
    ("unknown gid", "", tf.tmx_text().replace("2,2,2,2,2", "9,9,9,9,9", 1), None, "town.tmx"),
    ("unreachable home", "reach", tf.tmx_text(g=_walled()), None, "residents.json"),
    ("duplicate names", "two residents", None,
     _res(lambda d: _set(d, R0[:1] + [1, "name"], "Ann Lin")), "residents.json"),
    ("home not on map", "not a place", None, _res(lambda d: _set(d, R0 + ["home"], "Atlantis:palace")),
     "residents.json"),
    ("home empty", "home", None, _res(lambda d: _set(d, R0 + ["home"], "")), "residents.json"),
    ("missing name", "name", None, _res(lambda d: _del(d, R0 + ["name"])), "residents.json"),
    ("missing lifestyle", "lifestyle", None, _res(lambda d: _del(d, R0 + ["lifestyle"])), "residents.json"),
    ("missing home", "home", None, _res(lambda d: _del(d, R0 + ["home"])), "residents.json"),
    ("missing residents", "residents", None, _res(lambda d: _del(d, ["residents"])), "residents.json"),
    ("no residents", "residents", None, _res(lambda d: _set(d, ["residents"], [])), "residents.json"),
    ("age text", "age", None, _res(lambda d: _set(d, R0 + ["age"], "thirty")), "residents.json"),
    ("age huge", "age", None, _res(lambda d: _set(d, R0 + ["age"], 10**30)), "residents.json"),
    ("traits string", "traits", None, _res(lambda d: _set(d, R0 + ["traits"], "kind")), "residents.json"),
    ("wake 25:99", "wake", None, _res(lambda d: _set(d, R0 + ["lifestyle", "wake"], "25:99")), "residents.json"),
    ("glyph two", "glyph", None, _res(lambda d: _set(d, R0 + ["glyph"], "AB")), "residents.json"),
    ("glyph escape", "glyph", None, _res(lambda d: _set(d, R0 + ["glyph"], "\x1b")), "residents.json"),
    ("colour name", "colour", None, _res(lambda d: _set(d, R0 + ["colour"], "red")), "residents.json"),
    ("spawn text", "spawn", None, _res(lambda d: _set(d, R0 + ["spawn"], "here")), "residents.json"),
    ("spawn in wall", "spawn", None, _res(lambda d: _set(d, R0 + ["spawn"], [0, 0])), "residents.json"),
    ("spawn off map", "spawn", None, _res(lambda d: _set(d, R0 + ["spawn"], [500, -3])), "residents.json"),
    ("unknown field", "extra", None, _res(lambda d: _set(d, R0 + ["favourite"], "tea")), "residents.json"),
    ("relationship stranger", "Zed", None, _res(lambda d: _set(d, R0 + ["relationships"], {"Zed": "x"})),
     "residents.json"),
    ("small cast stranger", "Zed", None, _res(lambda d: _set(d, ["small_cast"], ["Zed"])), "residents.json"),
    ("knows nowhere", "knows", None, _res(lambda d: _set(d, R0 + ["knows"], ["Moon:base"])), "residents.json"),
    ("seconds negative", "seconds_per_step", None, _res(lambda d: _set(d, ["seconds_per_step"], -5)),
     "residents.json"),
    ("start garbage", "start", None, _res(lambda d: _set(d, ["start"], "yesterday")), "residents.json"),
    ("residents a list", "object", None, "[1, 2, 3]", "residents.json"),
    ("residents not JSON", "JSON", None, "{residents: [}", "residents.json"),
    ("residents empty file", "JSON", None, "", "residents.json"),
]


def _check(err: Exception, folder: Path, must: str, which: str) -> str | None:
    msg = str(err)
    if which not in msg:
        return f"message does not name {which}: {msg!r}"
    if must and must.lower() not in msg.lower():
        return f"message does not mention {must!r}: {msg!r}"
    if "Traceback" in msg or "\n" in msg.strip() or len(msg) > 500:
        return f"message not one clear line: {msg[:200]!r}"
    return None


@pytest.mark.parametrize("name,must,tmx,res,which", CASES, ids=[c[0] for c in CASES])
def test_broken_town(tmp_path, name, must, tmx, res, which):
    folder = tf.write_town(tmp_path / "town", tmx=tmx, residents=res)
    with pytest.raises(MapError) as err:
        load_town(folder)
    why = _check(err.value, folder, must, which)
    assert why is None, why
    with pytest.raises(TownError) as err2:
        new_engine(folder, any_answer_model())
    assert which in str(err2.value)


def test_non_utf8_residents(tmp_path):
    folder = tf.write_town(tmp_path / "town")
    (folder / "residents.json").write_bytes(b'{"town": "\xff\xfe"}')
    with pytest.raises(MapError, match="residents.json.*UTF-8"):
        load_town(folder)


def test_missing_residents_file_and_town(tmp_path):
    folder = tf.write_town(tmp_path / "town")
    (folder / "residents.json").unlink()
    with pytest.raises(MapError, match="residents.json"):  # a town folder needs its residents
        load_town(folder)
    town = load_town(folder / "town.tmx")  # a bare map loads, with nobody in it ...
    assert town.residents == []
    with pytest.raises(TownError, match="no residents"):  # ... and the engine says it is empty
        new_engine(folder / "town.tmx", any_answer_model())
    with pytest.raises((MapError, TownError), match="nowhere"):
        new_engine(tmp_path / "nowhere", any_answer_model())


def test_huge_declared_size_is_refused_quickly(tmp_path):
    """A map that claims to be 100000 x 100000 tiles must not allocate 10^10 cells."""
    import time

    text = tf.tmx_text().replace(f'width="{tf.W}" height="{tf.H}" tilewidth',
                                 'width="100000" height="100000" tilewidth')
    folder = tf.write_town(tmp_path / "town", tmx=text)
    t0 = time.monotonic()
    with pytest.raises(MapError):
        load_town(folder)
    assert time.monotonic() - t0 < 10


def fuzz(tmp_path: Path, n: int, seed: int) -> tuple[Counter, list[str]]:
    rng = random.Random(seed)
    good_tmx = tf.tmx_text().encode()
    good_res = tf.write_town(tmp_path / "ref").joinpath("residents.json").read_bytes()
    counts: Counter = Counter()
    problems: list[str] = []
    for i in range(n):
        which = "town.tmx" if i % 2 == 0 else "residents.json"
        data = bytearray(good_tmx if which == "town.tmx" else good_res)
        for _ in range(rng.choice((1, 1, 2, 4, 16))):
            k = rng.randrange(4)
            j = rng.randrange(len(data))
            if k == 0:
                data[j] ^= 1 << rng.randrange(8)
            elif k == 1:
                del data[j: j + rng.randint(1, 40)]
            elif k == 2:
                data[j:j] = rng.choice([b"<", b">", b'"', b"{", b"}", b",", b"-1", b"99999", b"\x00", b"\xff",
                                        b"&bogus;", b"]]>", b"null", b"\\u0000"])
            else:
                src = rng.randrange(len(data))
                data[j:j] = data[src: src + rng.randint(1, 60)]
        folder = tmp_path / f"m{i}"
        folder.mkdir()
        (folder / "town.tmx").write_bytes(bytes(data) if which == "town.tmx" else good_tmx)
        (folder / "residents.json").write_bytes(bytes(data) if which == "residents.json" else good_res)
        try:
            load_town(folder)
            counts[(which, "loaded")] += 1
        except MapError as err:
            counts[(which, "MapError")] += 1
            if Path(err.path).name not in ("town.tmx", "residents.json", folder.name) and \
                    not str(err).startswith(str(folder)):
                problems.append(f"#{i} {which}: message names {err.path!r}: {err}")
        except Exception as err:  # noqa: BLE001
            counts[(which, "CRASH")] += 1
            problems.append(f"#{i} {which}: {type(err).__name__}: {str(err)[:120]}")
    return counts, problems


def test_fuzz_town_files(tmp_path):
    counts, problems = fuzz(tmp_path, 300, seed=1)
    print("\n" + table(counts, "town files, byte-level fuzz"))
    assert not problems, summary(problems)


@pytest.mark.slow
def test_fuzz_town_files_many(tmp_path):
    counts, problems = fuzz(tmp_path, 3000, seed=2)
    print("\n" + table(counts, "town files, byte-level fuzz (slow)"))
    assert not problems, summary(problems)
