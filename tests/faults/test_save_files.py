"""Saves, part 2: bad files get a clear message, saves are data, and hold no API key.

Every damaged, foreign or unknown file is offered to ``load_engine``, ``describe_save`` and
``list_saves`` (the load screen): each must either load or raise ``SaveError`` with a one-line
message that names the file; anything else is a crash.
"""

from __future__ import annotations

import io
import json
import random
import re
import shutil
import sqlite3
from collections import Counter
from pathlib import Path

import httpx
import pytest
from fake_model import valid_instance

from game.engine.build import load_engine, new_engine
from game.engine.saves import SaveError, describe_save, list_saves
from game.errors import GameError
from game.llm.client import ModelClient
from game.llm.config import LLMConfig

from .answers import summary, table
from .fakes import any_answer_model, fake_embedder
from .town_engine import busy_engine, ticks
from .townfiles import write_town

ROOT = Path(__file__).resolve().parents[2]


def _png() -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (4, 4), (200, 0, 0)).save(buf, "PNG")
    return buf.getvalue()


def _sqlite(path: Path, sql: str) -> None:
    db = sqlite3.connect(path)
    db.executescript(sql)
    db.commit()
    db.close()


def _edit(good: Path, path: Path, sql: str) -> None:
    shutil.copyfile(good, path)
    _sqlite(path, sql)


def variants(good: Path, folder: Path, rng: random.Random, n_random: int) -> list[tuple[str, Path]]:
    """(fault class, file) pairs made from a good save."""
    data = good.read_bytes()
    out: list[tuple[str, Path]] = []
    k = 0

    def put(cls: str, content: bytes | None = None, name: str | None = None) -> Path:
        nonlocal k
        k += 1
        p = folder / (name or f"v{k:04d}.save")
        if content is not None:
            p.write_bytes(content)
        out.append((cls, p))
        return p

    for cut in sorted({0, 1, 15, 16, 17, 99, 100, 512, 1024, 4095, 4096, 4097, len(data) // 2, len(data) - 1}
                      | {rng.randrange(len(data)) for _ in range(n_random // 3)}):
        put("truncated", data[:cut])
    for _ in range(n_random):
        b = bytearray(data)
        for _ in range(rng.choice((1, 1, 2, 5, 20, 200))):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        put("bit flips", bytes(b))
    for _ in range(n_random // 3):
        b = bytearray(data)
        start = rng.randrange(len(b))
        for i in range(start, min(len(b), start + rng.choice((16, 256, 4096)))):
            b[i] = rng.randrange(256)
        put("garbage run", bytes(b))
    for i in range(0, min(len(data), 100)):
        b = bytearray(data)
        b[i] ^= 0xFF
        put("header byte", bytes(b))
    put("empty", b"")
    put("foreign", _png(), "picture.save")
    put("foreign", b"just some notes\nnot a save\n", "notes.save")
    put("foreign", json.dumps({"format": "town-save", "version": 1}).encode(), "json.save")
    put("foreign", b"PK\x03\x04" + bytes(100), "archive.save")
    put("foreign", b"SQLite format 3\x00" + bytes(84), "fakehead.save")
    p = put("foreign", None, "other_app.save")
    _sqlite(p, "CREATE TABLE notes (id INTEGER, body TEXT); INSERT INTO notes VALUES (1, 'hi');")
    p = put("foreign", None, "other_meta.save")
    _sqlite(p, "CREATE TABLE meta (key TEXT, value TEXT); INSERT INTO meta VALUES ('format', '\"x\"');")
    edits = {
        "newer format": "UPDATE meta SET value = '99' WHERE key = 'version';",
        "older format": "UPDATE meta SET value = '0' WHERE key = 'version';",
        "version text": "UPDATE meta SET value = '\"one\"' WHERE key = 'version';",
        "meta not JSON": "UPDATE meta SET value = '{{{' WHERE key = 'clock';",
        "meta wrong type": "UPDATE meta SET value = '[1, 2]' WHERE key = 'clock';",
        "residents wrong type": "UPDATE meta SET value = '7' WHERE key = 'residents';",
        "rng wrong": "UPDATE meta SET value = '\"x\"' WHERE key = 'rng';",
        "town gone": "UPDATE meta SET value = '\"/nonexistent/town\"' WHERE key = 'town_path';",
        "no residents table": "DROP TABLE residents;",
        "no memories table": "DROP TABLE memory_segments;",
        "memory texts not JSON": "UPDATE memory_segments SET text = 'garbage';",
        "memory evidence not a list": "UPDATE memory_segments SET evidence = '{\"a\": 1}';",
        "memory texts not strings": "UPDATE memory_segments SET text = json_array(1, 2);",
        "memory segment count": "UPDATE memory_segments SET count = count + 1;",
        "memory segment gap": "UPDATE memory_segments SET start = start + 1;",
        "memory segment lost": "DELETE FROM memory_segments WHERE rowid = (SELECT max(rowid) FROM memory_segments);",
        "memory state lost": "DELETE FROM memory_state;",
        "memory state short": "UPDATE memory_state SET access = X'00';",
        "memory kinds random": "UPDATE memory_segments SET kind = randomblob(length(kind));",
        "memory times random": "UPDATE memory_segments SET created = randomblob(length(created));",
        "memory importance random": "UPDATE memory_state SET importance = randomblob(length(importance));",
        "memory embeddings random": "UPDATE memory_segments SET embedding = randomblob(length(embedding));",
        "memory counts wrong type": "UPDATE meta SET value = '5' WHERE key = 'memory';",
        "memory counts larger": "UPDATE meta SET value = replace(value, '\"n\": ', '\"n\": 1') WHERE key = 'memory';",
        # a count of 1e10 was trusted and set memory aside for it: a MemoryError (issue 41)
        "memory counts huge": "UPDATE meta SET value = replace(value, '\"n\": ', '\"n\": 100000000') "
                              "WHERE key = 'memory';",
        "memory dim wrong": "UPDATE memory_segments SET dim = dim + 1;",
        "engine state a list": "UPDATE residents SET engine_state = '[]';",
        "mind state a list": "UPDATE residents SET mind_state = '[]';",
        "mind state wrong types": "UPDATE residents SET mind_state = json_set(mind_state, '$.stats', 5);",
        "action wrong": "UPDATE residents SET action = '{\"x\": 1}';",
        "position text": "UPDATE residents SET x = 'left';",
        "position off map": "UPDATE residents SET x = 100000;",
        "embedding bytes": "UPDATE memory_segments SET embedding = X'0102';",
        "pending garbage": "INSERT INTO pending VALUES (999, 'Ann Lin', 'next', 'yesterday', 1, '{', '[]');",
        "objects wrong": "UPDATE objects SET state = x'00ff';",
        "conversation garbage": "INSERT INTO conversations VALUES ('x', 1, '{\"id\": 5}');",
        "resident unknown": "UPDATE residents SET name = 'Zed Nobody' WHERE name = 'Ann Lin';",
        "meta emptied": "DELETE FROM meta;",
    }
    for cls, sql in edits.items():
        p = put(cls, None)
        _edit(good, p, sql)
    out.append(("missing file", folder / "nothing-here.save"))
    d = folder / "a-folder.save"
    d.mkdir()
    out.append(("folder", d))
    return out


def _clear(msg: str, path: Path) -> str | None:
    """None if ``msg`` is a clear message for ``path``, else what is wrong with it."""
    if path.name not in msg:
        return "does not name the file"
    if "Traceback" in msg or "\n" in msg.strip():
        return "not one line"
    if any(not ch.isprintable() for ch in msg):
        return "holds control characters"
    if len(msg) > 400:
        return "too long"
    return None


async def run_files(tmp_path: Path, n_random: int, seed: int) -> tuple[Counter, list[str]]:
    e = await busy_engine(tmp_path, 120, seed=seed)
    good = tmp_path / "good.save"
    e.save(good)
    await e.aclose()
    folder = tmp_path / "bad"
    folder.mkdir()
    counts: Counter = Counter()
    problems: list[str] = []
    for cls, path in variants(good, folder, random.Random(seed), n_random):
        for what, fn in (("load", lambda p: load_engine(p, any_answer_model(), lockstep=True)),
                         ("describe", describe_save)):
            try:
                got = fn(path)
            except SaveError as err:
                counts[(cls, "SaveError")] += 1
                why = _clear(str(err), path)
                if why:
                    problems.append(f"{cls} {path.name} {what}: message {why}: {err}")
                continue
            except Exception as err:  # noqa: BLE001
                counts[(cls, "CRASH")] += 1
                problems.append(f"{cls} {path.name} {what}: {type(err).__name__}: {str(err)[:120]}")
                continue
            counts[(cls, "loaded")] += 1
            if what == "load":
                try:  # what loads must also play on
                    await ticks(got, 3)
                except Exception as err:  # noqa: BLE001
                    counts[(cls, "CRASH after load")] += 1
                    problems.append(f"{cls} {path.name} loaded, then step() raised "
                                    f"{type(err).__name__}: {str(err)[:120]}")
                await got.aclose()
    try:
        rows = list_saves(folder)
        assert all(("error" in r) or r.get("town") for r in rows)
    except Exception as err:  # noqa: BLE001
        problems.append(f"list_saves crashed on the folder: {type(err).__name__}: {err}")
    problems.sort(key=lambda p: ("message" in p, p))
    return counts, problems


async def test_bad_save_files(tmp_path):
    counts, problems = await run_files(tmp_path, 60, seed=1)
    print("\n" + table(counts, "bad save files: outcome of load and describe"))
    assert counts[("newer format", "SaveError")] == 2 and counts[("older format", "SaveError")] == 2
    assert not problems, summary(problems)


@pytest.mark.slow
async def test_bad_save_files_many(tmp_path):
    counts, problems = await run_files(tmp_path, 600, seed=2)
    print("\n" + table(counts, "bad save files (slow): outcome of load and describe"))
    assert not problems, summary(problems)


async def test_newer_format_message(tmp_path):
    e = await busy_engine(tmp_path, 10)
    good = tmp_path / "good.save"
    e.save(good)
    await e.aclose()
    newer = tmp_path / "newer.save"
    _edit(good, newer, "UPDATE meta SET value = '3' WHERE key = 'version';")
    with pytest.raises(SaveError, match=r"newer version of the game.*update the game"):
        load_engine(newer, any_answer_model())


IMPOSSIBLE = {  # a save whose data its town makes impossible: the field the message must name
    "UPDATE residents SET x = 99999999999999 WHERE name = 'Ann Lin';": "residents['Ann Lin'].x/y",
    "UPDATE residents SET y = -1 WHERE name = 'Bob Lin';": "residents['Bob Lin'].x/y",
    "UPDATE residents SET path = '[[3, 3], [5000, 2]]' WHERE name = 'Ann Lin';": "residents['Ann Lin'].path",
    # Ann Lin renamed everywhere (a whole, consistent save) to someone the town has never had
    "UPDATE meta SET value = replace(value, 'Ann Lin', 'Zed Nobody'); "
    + " ".join(f"UPDATE {t} SET resident = 'Zed Nobody' WHERE resident = 'Ann Lin';"
               for t in ("memory_segments", "memory_state", "spatial", "pending"))
    + " UPDATE residents SET name = 'Zed Nobody', mind_state = replace(mind_state, 'Ann Lin', 'Zed Nobody') "
      "WHERE name = 'Ann Lin';": "residents: 'Zed Nobody'",
}


@pytest.mark.parametrize("sql", list(IMPOSSIBLE), ids=["x-huge", "y-negative", "path-off-map", "unknown-resident"])
async def test_impossible_save_data_is_a_save_error_naming_file_and_field(tmp_path, sql):
    """A resident off the map (x = 99999999999999 loaded, and she reappeared elsewhere) or one the
    town does not know is refused at load with a ``SaveError`` that names the file and the field."""
    e = await busy_engine(tmp_path, 10)
    good = tmp_path / "good.save"
    e.save(good)
    await e.aclose()
    bad = tmp_path / "impossible.save"
    _edit(good, bad, sql)
    with pytest.raises(SaveError) as got:
        load_engine(bad, any_answer_model(), lockstep=True)
    msg = str(got.value)
    assert _clear(msg, bad) is None, msg
    assert IMPOSSIBLE[sql] in msg, msg
    assert isinstance(got.value, GameError)
    load_engine(good, any_answer_model(), lockstep=True)  # the good one still loads


# ------------------------------------------------------------------------ saves are data

SAVE_CODE = ("game/engine/saves/writing.py", "game/engine/saves/reading.py", "game/engine/saves/streams.py",
             "game/engine/build.py", "game/engine/engine.py", "game/mind/mind.py", "game/mind/memory/stream.py",
             "game/mind/view.py", "game/mind/persona.py", "game/world/spatial.py", "game/world/objects.py",
             "game/world/clock.py", "game/llm/accounting.py")
PICKLE_WORDS = re.compile(r"\b(pickle|cPickle|marshal|shelve|dill|cloudpickle|joblib|__reduce__|__getstate__)\b")


def test_save_code_uses_no_pickle():
    hits = []
    for rel in SAVE_CODE:
        p = ROOT / rel
        assert p.is_file(), f"{rel} is not there (moved? name it where it is now)"
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if PICKLE_WORDS.search(line):
                hits.append(f"{rel}:{n}: {line.strip()}")
    assert not hits, hits


NUMERIC_BLOBS = {("memory_segments", "kind"): 1, ("memory_segments", "created"): 8,
                 ("memory_segments", "has_embedding"): 1, ("memory_segments", "embedding"): 4,
                 ("memory_state", "access"): 8, ("memory_state", "importance"): 4, ("memory_state", "scored"): 1}


async def test_save_file_is_plain_sqlite(tmp_path):
    e = await busy_engine(tmp_path, 200)
    path = tmp_path / "plain.save"
    e.save(path)
    await e.aclose()
    raw = path.read_bytes()
    assert raw.startswith(b"SQLite format 3\x00")
    for marker in (b"\x80\x04\x95", b"\x80\x05\x95", b"cbuiltins", b"copy_reg", b"__reduce__"):
        assert marker not in raw, marker
    db = sqlite3.connect(path)
    try:
        blobs = 0
        for (table_name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            cols = db.execute(f"PRAGMA table_info({table_name})").fetchall()
            for _, col, ctype, *_ in cols:
                assert ctype.upper() in ("TEXT", "INTEGER", "BLOB", "REAL"), (table_name, col, ctype)
            for row in db.execute(f"SELECT * FROM {table_name}"):
                for col, value in zip((c[1] for c in cols), row):
                    if isinstance(value, bytes):
                        blobs += 1
                        # numeric arrays only (docs/SAVES.md): int8/uint8 columns, float32, float64
                        size = NUMERIC_BLOBS.get((table_name, col))
                        assert size is not None, (table_name, col)
                        assert len(value) % size == 0
                    elif isinstance(value, str) and value[:1] in "[{\"" and value not in ("",):
                        json.loads(value)  # JSON text, nothing else
        assert blobs > 0, "the busy town should have embedded memories"
        for count, dim, kind, created, has, emb in db.execute(
                "SELECT count, dim, kind, created, has_embedding, embedding FROM memory_segments"):
            assert len(kind) == len(has) == count and len(created) == 8 * count and len(emb) == 4 * dim * count
    finally:
        db.close()


async def test_save_holds_no_api_key(tmp_path, monkeypatch):
    marker = "sk-FAULTS-MARKER-7f3a9c1e"
    monkeypatch.setenv("TOWN_LLM_API_KEY", marker)
    monkeypatch.setenv("TOWN_LLM_URL", "http://fault.test/v1")
    config = LLMConfig.from_env()
    assert config.api_key == marker
    seen_auth: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen_auth.append(request.headers.get("authorization", ""))
        body = json.loads(request.content)
        schema = body["response_format"]["json_schema"]["schema"]
        content = json.dumps(valid_instance(schema))
        return httpx.Response(200, json={"choices": [{"index": 0, "finish_reason": "stop",
                                                      "message": {"role": "assistant", "content": content}}],
                                         "usage": {"prompt_tokens": 1, "completion_tokens": 1}})

    llm = ModelClient.from_config(config, embedder=fake_embedder(), transport=httpx.MockTransport(handler))
    e = new_engine(write_town(tmp_path / "town"), llm, lockstep=True)
    try:
        await ticks(e, 90)
        assert seen_auth and all(a == f"Bearer {marker}" for a in seen_auth), "the key must reach the server"
        path = tmp_path / "keyless.save"
        e.save(path)
        raw = path.read_bytes()
        for form in (marker.encode(), marker.encode("utf-16-le"), marker[3:].encode()):
            assert form not in raw, "the API key is in the save"
        assert marker not in json.dumps(describe_save(path))
    finally:
        await e.aclose()
        await llm.aclose()


# ------------------------------------------------------------------------ the command line

async def test_town_run_refuses_bad_files_with_a_message(tmp_path, capsys):
    """``town run BAD --until ...`` exits 2 with one line on stderr, never a traceback."""
    from game.engine.running.headless import run_headless

    e = await busy_engine(tmp_path, 20)
    good = tmp_path / "good.save"
    e.save(good)
    await e.aclose()
    folder = tmp_path / "bad"
    folder.mkdir()
    picked = {}
    for cls, path in variants(good, folder, random.Random(5), 6):
        picked.setdefault(cls, path)
    results = {}
    for cls, path in sorted(picked.items()):
        capsys.readouterr()
        try:
            code = await run_headless(any_answer_model(), str(path), until="day 1 07:00", save=None)
        except Exception as err:  # noqa: BLE001
            results[cls] = f"CRASH {type(err).__name__}: {err}"
            continue
        err_text = capsys.readouterr().err
        results[cls] = (code, err_text.strip()[:160])
    print("\n" + "\n".join(f"  {k}: {v}" for k, v in results.items()))
    crashes = {k: v for k, v in results.items() if isinstance(v, str)}
    assert not crashes, crashes
    misread = {k: t for k, (c, t) in results.items() if "TMX" in t or "town folder" in t}
    for cls, (code, text) in results.items():
        if code != 0:
            assert code == 2 and text.startswith("town run:") and "Traceback" not in text, (cls, text)
    # a damaged .save must be reported as a damaged save, not read as a map
    assert not misread, misread


def test_play_treats_a_damaged_save_as_a_save(tmp_path):
    """``town play BROKEN.save`` must try to load it (and say it is damaged), not read it as a map."""
    from types import SimpleNamespace

    from game.ui.host import RealHost

    for content in (b"", b"\x89PNG\r\n\x1a\n" + bytes(50), b"SQLite format 3"):
        p = tmp_path / "broken.save"
        p.write_bytes(content)
        assert RealHost(SimpleNamespace(town=str(p), small=False)).start_save == p, content


async def test_save_that_cannot_be_written_keeps_the_old_one(tmp_path, monkeypatch):
    """Disk full at the last moment, a folder that is a file, a target that is a folder: a clear
    SaveError, the previous save intact, no temporary file left behind."""
    import errno

    from game.engine import saves as save_mod

    e = await busy_engine(tmp_path, 30)
    try:
        good = tmp_path / "keep.save"
        e.save(good)
        before = good.read_bytes()

        def disk_full(*_):
            raise OSError(errno.ENOSPC, "No space left on device")
        # written whole (the rename fails) and as changes (the transaction fails before its commit)
        for hook in ("before_replace", "before_commit"):
            monkeypatch.setattr(save_mod.faults, "incremental", hook == "before_commit")
            monkeypatch.setattr(save_mod.faults, hook, disk_full)
            e.core.step_no += 1
            with pytest.raises(SaveError, match=r"keep\.save.*the disk is full.*save it elsewhere"):
                e.save(good)
            monkeypatch.setattr(save_mod.faults, hook, None)
            assert good.read_bytes() == before
            assert not list(tmp_path.glob(".keep.save.*.tmp"))
            back = load_engine(good, any_answer_model())
            assert back.core.step_no == e.core.step_no - (1 if hook == "before_replace" else 2)

        blocker = tmp_path / "afile"
        blocker.write_text("x")
        with pytest.raises(SaveError, match="afile"):
            e.save(blocker / "x.save")
        folder = tmp_path / "adir.save"
        folder.mkdir()
        with pytest.raises(SaveError, match="adir.save"):
            e.save(folder)
        assert folder.is_dir()
    finally:
        await e.aclose()


async def test_the_real_disk_full_path_is_a_save_error_and_loses_nothing(tmp_path, monkeypatch):
    """SQLite's own page limit makes SQLite itself fail with "database or disk is full" while the
    town is being written (the path a full disk takes; before, sqlite3.OperationalError escaped)."""
    from game.engine import saves as save_mod

    e = await busy_engine(tmp_path, 30)
    try:
        good = tmp_path / "full.save"
        e.save(good)
        before = good.read_bytes()
        monkeypatch.setattr(save_mod.faults, "max_pages", 3)  # SQLite keeps an existing file's size as its limit
        # whole: the temporary file fills up; as changes: the file cannot grow for new memories
        for whole in (True, False):
            monkeypatch.setattr(save_mod.faults, "incremental", not whole)
            if not whole:
                mind = next(iter(e.core.minds.values()))
                for i in range(300):
                    mind.memory.add("observation", f"a long thought number {i} " * 8, e.clock.now)
            with pytest.raises(SaveError, match=r"full\.save.*the disk is full.*not lost"):
                e.save(good)
            assert good.read_bytes() == before and not list(tmp_path.glob(".full.save.*"))
        monkeypatch.setattr(save_mod.faults, "max_pages", None)
        monkeypatch.setattr(save_mod.faults, "incremental", False)
        # a read-only place, and a save folder that vanished meanwhile
        def read_only(tmp, path):
            import errno
            raise OSError(errno.EROFS, "Read-only file system")
        monkeypatch.setattr(save_mod.faults, "before_replace", read_only)
        with pytest.raises(SaveError, match="read-only"):
            e.save(good)
        monkeypatch.setattr(save_mod.faults, "before_replace", None)
        gone = tmp_path / "gone"
        gone.mkdir()
        gone.rmdir()
        e.save(gone / "again.save")  # made again: nothing to lose
        assert (gone / "again.save").exists()
    finally:
        await e.aclose()


async def test_no_stray_temporary_files_whatever_the_pids(tmp_path):
    """A writer killed mid-save leaves its temporary file; the next save removes it even when the
    dead writer's PID now belongs to a live process (here: this one, and PID 1). A temporary file
    a live writer still holds is left alone."""
    import fcntl
    import os

    e = await busy_engine(tmp_path, 10)
    try:
        target = tmp_path / "town.save"
        dead = [tmp_path / f".town.save.{os.getpid()}.tmp", tmp_path / ".town.save.1.tmp",
                tmp_path / ".town.save.1-deadbeef.tmp"]
        for p in dead:
            p.write_bytes(b"half a save")
        live = tmp_path / ".town.save.424242-cafe0000.tmp"
        live.write_bytes(b"being written")
        fd = os.open(live, os.O_RDONLY)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            e.save(target)
            assert not any(p.exists() for p in dead)
            assert live.exists()
        finally:
            os.close(fd)
        e.save(target)
        assert not live.exists()
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".town")) == []
    finally:
        await e.aclose()
