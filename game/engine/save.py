"""Saves: one SQLite file per save, never pickled, written whole or changed in one transaction.
See docs/SAVES.md.

A save holds a ``TownState`` (game/engine/state.py): ``write_state`` writes one, ``read_state``
reads one back.  This module knows the file format and nothing of the engine; the engine is built
again from a ``TownState`` by ``game.engine.build``.

Memories are most of a town (a 25-resident town with 10k memories each is ~400 MB, nearly all
embeddings), and they are only appended to, so they are stored in segments of records (columns as
little-endian arrays, texts as one JSON list) and a save to a file this game wrote and still
knows (a ``SyncPoint``: the file's id and generation, what each stream held) writes only the
segments and the state chunks that changed, in one SQLite transaction (rolled back whole after a
crash).  Any other save (a new name, a fork, a file changed by someone else) writes the whole
town to a temporary file in the same folder, flushed to disk (fsync), and moves it over the old
file with ``os.replace``; a crash leaves the previous save intact either way.

A save is made in two steps so that a screen never waits on the disk: ``prepare`` (cheap, on the
thread that plays the town: the small tables as JSON, the memories as ``MemoryImage``s) and
``Prepared.write`` (any thread).  Loading checks that the file is a town save of a format this
game reads, and refuses anything else with a message that names the file and the problem.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Callable

import numpy as np

from game.engine import atomic
from game.engine.state import Job, Player, Resident, Talk, TownState
from game.errors import GameError
from game.mind.memory import MemoryImage, MemoryStream
from game.mind.view import Action, Conversation, DayPlan
from game.text import one_line

FORMAT = "town-save"
VERSION = 2
SUFFIX = ".save"
SEGMENT = 1024  # the most records in one memory segment (a save rewrites at most this many at once)
CHUNK = 1024  # records per memory state chunk (last access, importance, scored)
PAGE_SIZE = 16384  # big pages: a few big blobs per segment instead of thousands of 4 kB pages

SCHEMA_V1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE residents (
    name TEXT PRIMARY KEY, x INTEGER NOT NULL, y INTEGER NOT NULL,
    action TEXT, path TEXT NOT NULL, plan TEXT, engine_state TEXT NOT NULL, mind_state TEXT NOT NULL);
CREATE TABLE memories (
    resident TEXT NOT NULL, id INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL,
    created TEXT NOT NULL, data TEXT NOT NULL, embedding BLOB, PRIMARY KEY (resident, id));
CREATE TABLE objects (address TEXT PRIMARY KEY, state TEXT NOT NULL, by TEXT NOT NULL);
CREATE TABLE object_news (address TEXT PRIMARY KEY, at TEXT NOT NULL);
CREATE TABLE conversations (id TEXT PRIMARY KEY, active INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE spatial (resident TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE pending (
    seq INTEGER PRIMARY KEY, resident TEXT NOT NULL, kind TEXT NOT NULL, now TEXT NOT NULL,
    ready_at INTEGER NOT NULL, args TEXT NOT NULL, observations TEXT NOT NULL);
CREATE TABLE accounting (id INTEGER PRIMARY KEY CHECK (id = 1), data TEXT NOT NULL);
"""

# version 2: the memories table gives way to segments (stored once, rewritten only when one of
# their records changes or the segment grows) and state chunks (the columns that change as the
# town plays).  Column arrays are little-endian: kind int8, created/access float64 game hours,
# importance float32, has_embedding/scored uint8, embedding float32 [count, dim].
SCHEMA = SCHEMA_V1.replace("""CREATE TABLE memories (
    resident TEXT NOT NULL, id INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL,
    created TEXT NOT NULL, data TEXT NOT NULL, embedding BLOB, PRIMARY KEY (resident, id));
""", """CREATE TABLE memory_segments (
    resident TEXT NOT NULL, start INTEGER NOT NULL, count INTEGER NOT NULL, dim INTEGER NOT NULL,
    kind BLOB NOT NULL, created BLOB NOT NULL, has_embedding BLOB NOT NULL, embedding BLOB NOT NULL,
    text TEXT NOT NULL, evidence TEXT NOT NULL, PRIMARY KEY (resident, start));
CREATE TABLE memory_state (
    resident TEXT NOT NULL, chunk INTEGER NOT NULL, access BLOB NOT NULL, importance BLOB NOT NULL,
    scored BLOB NOT NULL, PRIMARY KEY (resident, chunk));
""")
SMALL_TABLES = ("meta", "residents", "objects", "object_news", "conversations", "spatial", "pending",
                "accounting")

# a test sets this to simulate a crash after the data is written and before the rename
_before_replace = None
_max_pages: int | None = None  # tests: a tiny SQLite page limit makes the real "disk is full" happen
_before_commit = None  # a test sets this to simulate a crash inside a save's transaction
_incremental = True  # tests: False writes every save whole


class SaveError(GameError):
    """A save that cannot be written or read; the message names the file and the problem."""


# ------------------------------------------------------------------------------- helpers


def _dt(d: datetime | None) -> str | None:
    return d.isoformat() if d is not None else None


def _undt(s: str | None) -> datetime | None:
    return datetime.fromisoformat(s) if s else None


def _conv_dict(conv: Conversation, talk: Talk | None = None) -> dict:
    d = {"id": conv.id, "participants": list(conv.participants), "place": conv.place,
         "lines": [list(x) for x in conv.lines], "started": _dt(conv.started),
         "with_player": conv.with_player}
    if talk is not None:
        d.update(turn=talk.turn, max_lines=talk.max_lines, last_at=_dt(talk.last_at))
    return d


def _conv_from(d: dict) -> Conversation:
    return Conversation(id=d["id"], participants=list(d["participants"]), place=d.get("place", ""),
                        lines=[(s, t) for s, t in d["lines"]], started=_undt(d.get("started")),
                        with_player=bool(d.get("with_player")))


# ------------------------------------------------------------------------------- writing


@dataclass
class StreamSync:
    """What a save file holds of one memory stream: whose (``uid``), as of which version, how many
    records, and the segments they are stored in ((start, count), in order)."""

    uid: str
    version: int
    n: int
    dim: int
    segments: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class SyncPoint:
    """A save file as this game last wrote (or read) it: the file's id, its generation (one more
    per incremental save) and its memory streams.  A save to the same file with a matching id and
    generation writes only what changed since; anything else writes the file whole."""

    save_id: str
    generation: int
    streams: dict[str, StreamSync] = field(default_factory=dict)

    def bind(self, streams: dict[str, tuple[str, int]]) -> None:
        """Name the live streams a loaded save was built into: resident -> (uid, version)."""
        for name, (uid, version) in streams.items():
            if name in self.streams:
                self.streams[name].uid = uid
                self.streams[name].version = version


def _meta_of(st: TownState) -> dict:
    town_path = st.town_path
    try:
        town_path = str(Path(town_path).resolve())
    except OSError:
        pass
    player = None if st.player is None else {"name": st.player.name, "description": st.player.description,
                                              "pos": list(st.player.pos)}
    return {
        "format": FORMAT, "version": VERSION, "town_path": town_path,
        "town_name": st.town_name, "clock": st.clock, "clock_text": st.clock_text,
        "rng": st.rng, "seed": st.seed, "step_no": st.step_no, "seq": st.seq,
        "talk_seq": st.talk_seq, "decision_ticks": st.decision_ticks, "lockstep": st.lockstep,
        "small": st.small, "player": player, "embodied": st.embodied,
        "residents": sorted(st.residents), "saved_at": time.strftime("%Y-%m-%d %H:%M:%S"),
        "ledger": st.ledger,
    }


@dataclass
class Prepared:
    """A town ready to be written: its small tables as rows of JSON text (made at once, so the
    town may go on playing) and its memories as images.  ``write`` may run on any thread."""

    meta: dict
    rows: dict[str, list[tuple]]
    memories: dict[str, MemoryImage]

    def write(self, path: str | Path, sync: SyncPoint | None = None) -> SyncPoint:
        """Write to ``path``: only what changed since ``sync`` when the file is still the one
        ``sync`` describes, else the whole town.  Returns the file's new ``SyncPoint``; raises
        ``SaveError`` naming the file and what is wrong (a full disk, a read-only place...)."""
        path = Path(path)
        if sync is not None and _incremental and path.is_file():
            try:
                done = _write_changes(self, path, sync)
            except sqlite3.OperationalError as e:  # full, read-only, locked: the whole would fail too
                raise SaveError(_sqlite_words(path, e)) from None
            except sqlite3.DatabaseError:  # the file was damaged meanwhile: replaced by a whole save
                done = None
            except OSError as e:
                raise SaveError(_os_words(path, e)) from None
            if done is not None:
                return done
        return _write_whole(self, path)


def prepare(st: TownState) -> Prepared:
    """``st`` as a ``Prepared`` save: the cheap part, done on the thread that owns the town."""
    rows: dict[str, list[tuple]] = {t: [] for t in SMALL_TABLES if t != "meta"}
    for name, r in sorted(st.residents.items()):
        eng = {
            "needs_decision": r.needs_decision, "conversation": r.conversation, "seen": r.seen,
            "obs_buffer": r.obs_buffer, "obs_since": _dt(r.obs_since), "salient": r.salient,
            "reacted": {k: _dt(v) for k, v in r.reacted.items()},
            "last_talk": {k: _dt(v) for k, v in r.last_talk.items()},
        }
        rows["residents"].append((
            name, r.pos[0], r.pos[1], json.dumps(r.action.to_dict() if r.action is not None else None),
            json.dumps([list(p) for p in r.path]), json.dumps(r.plan.to_dict() if r.plan is not None else None),
            json.dumps(eng), json.dumps(st.minds[name])))
        if name in st.spatial:
            rows["spatial"].append((name, json.dumps(st.spatial[name])))
    for addr, v in sorted(st.objects.items()):
        rows["objects"].append((addr, v["state"], v.get("by", "world")))
    for addr, at in sorted(st.object_news.items()):
        rows["object_news"].append((addr, _dt(at)))
    for cid, talk in sorted(st.talks.items()):
        rows["conversations"].append((cid, 1, json.dumps(_conv_dict(talk.conv, talk))))
    for i, conv in enumerate(st.finished_talks):
        rows["conversations"].append((f"done:{i}:{conv.id}", 0, json.dumps(_conv_dict(conv))))
    for job in sorted(st.jobs, key=lambda j: j.seq):
        row = job.to_row()
        rows["pending"].append((row["seq"], row["resident"], row["kind"], row["now"], row["ready_at"],
                                row["args"], row["observations"]))
    if st.accounting is not None:
        rows["accounting"].append((1, json.dumps(st.accounting)))
    memories = {}
    for name in sorted(st.residents):
        img = st.memories.get(name)
        if img is None:
            img = MemoryStream().image()
        elif not isinstance(img, MemoryImage):  # rows (an old save's, or a test's)
            img = MemoryStream.from_rows(img).image()
        memories[name] = img
    return Prepared(meta=_meta_of(st), rows=rows, memories=memories)


def sync_key(path: str | Path) -> str:
    """The name a save file's ``SyncPoint`` is kept under (the same file by any of its names)."""
    try:
        return str(Path(path).resolve())
    except OSError:
        return str(Path(path).absolute())


class SaveJob:
    """One save: prepared on the thread that plays the town, written by ``run`` on any thread,
    handed back by ``finish`` on the first thread.  ``result`` is the file's new ``SyncPoint``;
    ``error`` the ``SaveError`` if it failed (``run`` raises it too); ``seconds`` how long the
    writing took; ``incremental`` whether only the changes were written."""

    def __init__(self, prepared: Prepared, path: str | Path, sync: SyncPoint | None,
                 done: Callable[["SaveJob"], None] | None = None) -> None:
        self.prepared = prepared
        self._done = done
        self.path = str(path)
        self.sync = sync
        self.result: SyncPoint | None = None
        self.error: Exception | None = None
        self.seconds = 0.0
        self.incremental = False

    def run(self) -> SyncPoint:
        t = time.perf_counter()
        try:
            self.result = self.prepared.write(self.path, self.sync)
        except Exception as e:  # kept for the thread that asked (``Engine.saved`` raises it there)
            self.error = e
            raise
        finally:
            self.seconds = time.perf_counter() - t
        self.incremental = self.sync is not None and self.result.save_id == self.sync.save_id
        return self.result

    def finish(self) -> str:
        """Back on the thread that plays the town, after ``run``: the save path, with what the file
        now holds handed to whoever prepared the job; raises the ``SaveError`` of a failed run."""
        if self.error is not None:
            raise self.error
        if self.result is None:
            raise SaveError(f"cannot save to '{self.path}': the save was not written")
        if self._done is not None:
            self._done(self)
        return self.path


def write_state(state: TownState, path: str | Path, sync: SyncPoint | None = None) -> SyncPoint:
    """Write ``state`` to ``path`` (see ``Prepared.write``); returns the file's ``SyncPoint``."""
    return prepare(state).write(path, sync)


def _write_whole(prep: Prepared, path: Path) -> SyncPoint:
    """The whole town to a temporary file beside ``path``, then moved over it (game/engine/atomic.py)."""
    folder = path.parent if str(path.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SaveError(f"cannot save to '{path}': the folder cannot be made ({e.strerror})") from None
    sync = SyncPoint(save_id=secrets.token_hex(8), generation=1)
    try:
        with atomic.temp_beside(path) as tmp:
            db = sqlite3.connect(tmp)
            try:
                # a private temporary file: no journal, no syncs per statement (nine CREATE TABLEs
                # each synced took most of a save's time); it is fsynced once, before the rename
                db.execute(f"PRAGMA page_size = {PAGE_SIZE}")
                db.execute("PRAGMA journal_mode = OFF")
                db.execute("PRAGMA synchronous = OFF")
                if _max_pages is not None:  # tests: SQLite's own limit, the real disk-full path
                    db.execute(f"PRAGMA max_page_count = {int(_max_pages)}")
                db.executescript(SCHEMA)
                _write_small(db, prep, sync)
                for name, img in sorted(prep.memories.items()):
                    sync.streams[name] = _write_stream(db, name, img, None)
                db.commit()
            finally:
                db.close()
            if _before_replace is not None:
                _before_replace(tmp, path)
            _drop_journal(path)
            atomic.replace(tmp, path)
    except sqlite3.Error as e:
        raise SaveError(_sqlite_words(path, e)) from None
    except OSError as e:
        raise SaveError(_os_words(path, e)) from None
    return sync


def _journal(path: Path) -> Path:
    return Path(str(path) + "-journal")


def _recover(path: Path) -> None:
    """Roll back what a save killed in its transaction left (SQLite's hot journal beside the file):
    a read-only opening cannot, and a whole save moved over the file must not meet it."""
    if not _journal(path).exists():
        return
    try:
        db = sqlite3.connect(path, timeout=5)
        try:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()  # reading rolls it back
        finally:
            db.close()
    except sqlite3.Error:
        pass  # the loader says what is wrong with the file


def _drop_journal(path: Path) -> None:
    """Before a whole save replaces ``path``: no journal of the old file may be played on the new one."""
    _recover(path)
    if _journal(path).exists():
        atomic.drop(_journal(path))


def _write_small(db: sqlite3.Connection, prep: Prepared, sync: SyncPoint) -> None:
    meta = dict(prep.meta, save_id=sync.save_id, generation=sync.generation,
                memory={n: {"n": img.n, "dim": int(img.dim or 0)} for n, img in sorted(prep.memories.items())})
    db.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in meta.items()])
    for table, rows in prep.rows.items():
        if rows:
            marks = ", ".join("?" * len(rows[0]))
            db.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)


def _segment_row(name: str, img: MemoryImage, a: int, b: int) -> tuple:
    dim = int(img.dim or 0)
    # the rows as they are in memory, handed to SQLite without another copy
    emb = memoryview(np.ascontiguousarray(img.embeddings(a, b), dtype="<f4")).cast("B") if dim else b""
    return (name, a, b - a, dim, np.asarray(img.kind[a:b], dtype=np.int8).tobytes(),
            np.asarray(img.created[a:b], dtype="<f8").tobytes(), img.has_emb[a:b].astype(np.uint8).tobytes(),
            emb, json.dumps(img.text[a:b]), json.dumps([list(e) for e in img.evidence[a:b]]))


def _state_row(name: str, img: MemoryImage, c: int) -> tuple:
    a, b = c * CHUNK, min(img.n, (c + 1) * CHUNK)
    return (name, c, img.access[a:b].astype("<f8").tobytes(), img.importance[a:b].astype("<f4").tobytes(),
            img.scored[a:b].astype(np.uint8).tobytes())


def _chunks(n: int) -> int:
    return (n + CHUNK - 1) // CHUNK


def _write_stream(db: sqlite3.Connection, name: str, img: MemoryImage, old: StreamSync | None) -> StreamSync:
    """Write one stream's memories: whole (``old`` None), or what changed since ``old``."""
    n, dim = img.n, int(img.dim or 0)
    if old is not None and (old.uid != img.uid or old.n > n or (old.dim and dim != old.dim)
                            or img.changed is None or img.changed_state is None):
        old = None
    if old is None:
        db.execute("DELETE FROM memory_segments WHERE resident = ?", (name,))
        db.execute("DELETE FROM memory_state WHERE resident = ?", (name,))
        segs = [(a, min(SEGMENT, n - a)) for a in range(0, n, SEGMENT)]
        write = list(segs)
        gone: list[int] = []
        chunks = list(range(_chunks(n)))
    else:
        segs = list(old.segments)
        starts = np.array([a for a, _ in segs], dtype=np.int64)
        changed = img.changed[img.changed < old.n] if img.changed is not None else np.zeros(0, np.int64)
        dirty = set(int(i) for i in np.unique(np.searchsorted(starts, changed, side="right") - 1)) if len(segs) else set()
        if old.dim == 0 and dim and old.n:  # the first embeddings: every stored segment gains its matrix
            dirty = set(range(len(segs)))
        before = {a for a, _ in segs}
        a = old.n
        while a < n:  # the new records, in segments of at most SEGMENT
            segs.append((a, min(SEGMENT, n - a)))
            dirty.add(len(segs) - 1)
            a += SEGMENT
        # the tail is merged as it grows (each merged segment at least twice the next), so a
        # stream of 10k records is ~10 full segments and a few small ones
        while len(segs) >= 2 and segs[-2][1] + segs[-1][1] <= SEGMENT and segs[-2][1] <= 2 * segs[-1][1]:
            (a0, c0), (_, c1) = segs[-2], segs.pop()
            dirty.discard(len(segs))
            segs[-1] = (a0, c0 + c1)
            dirty.add(len(segs) - 1)
        write = [segs[i] for i in sorted(dirty) if i < len(segs)]
        gone = sorted(before - {a for a, _ in segs})
        chunks = sorted(set(int(c) for c in np.unique(img.changed_state // CHUNK)) |
                        set(range(old.n // CHUNK, _chunks(n))))
    if gone:
        db.executemany("DELETE FROM memory_segments WHERE resident = ? AND start = ?", [(name, a) for a in gone])
    for a, c in write:  # one at a time: a segment is up to 1.5 MB of embeddings
        db.execute("INSERT OR REPLACE INTO memory_segments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   _segment_row(name, img, a, a + c))
    for c in chunks:
        db.execute("INSERT OR REPLACE INTO memory_state VALUES (?, ?, ?, ?, ?)", _state_row(name, img, c))
    return StreamSync(uid=img.uid, version=img.version, n=n, dim=dim, segments=segs)


def _write_changes(prep: Prepared, path: Path, sync: SyncPoint) -> SyncPoint | None:
    """What changed since ``sync``, in one transaction on the file itself; None (nothing written)
    when the file is not the one ``sync`` describes any more."""
    atomic.drop_stale(path.parent if str(path.parent) else Path("."), path.name)  # a killed whole save's
    _recover(path)
    try:
        with open(path, "rb") as f:
            if f.read(16) != b"SQLite format 3\x00":
                return None
    except OSError:
        return None
    db = sqlite3.connect(path, timeout=5, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = DELETE")
        db.execute("PRAGMA synchronous = FULL")  # the journal and the file reach the disk at commit
        if _max_pages is not None:
            db.execute(f"PRAGMA max_page_count = {int(_max_pages)}")
        db.execute("BEGIN IMMEDIATE")
        try:
            meta = dict(db.execute("SELECT key, value FROM meta WHERE key IN "
                                   "('format', 'version', 'save_id', 'generation')").fetchall())
            same = (meta.get("format") == json.dumps(FORMAT) and meta.get("version") == json.dumps(VERSION)
                    and meta.get("save_id") == json.dumps(sync.save_id)
                    and meta.get("generation") == json.dumps(sync.generation))
        except sqlite3.DatabaseError:
            same = False
        if not same:
            db.execute("ROLLBACK")
            return None
        new = SyncPoint(save_id=sync.save_id, generation=sync.generation + 1)
        try:
            for table in SMALL_TABLES:
                db.execute(f"DELETE FROM {table}")
            _write_small(db, prep, new)
            for name in sorted(set(sync.streams) - set(prep.memories)):
                db.execute("DELETE FROM memory_segments WHERE resident = ?", (name,))
                db.execute("DELETE FROM memory_state WHERE resident = ?", (name,))
            for name, img in sorted(prep.memories.items()):
                new.streams[name] = _write_stream(db, name, img, sync.streams.get(name))
            if _before_commit is not None:
                _before_commit(path)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return new
    finally:
        db.close()


def _os_words(path: Path, e: OSError) -> str:
    import errno

    why = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
           errno.EROFS: "the folder is read-only", errno.EACCES: "no permission to write there",
           errno.EPERM: "no permission to write there",
           errno.ENOENT: "the folder is gone"}.get(e.errno or 0, e.strerror or str(e))
    return f"cannot save to '{path}': {why}; the town is not lost, save it elsewhere"


def _sqlite_words(path: Path, e: sqlite3.Error) -> str:
    text = str(e)
    if "full" in text:
        why = "the disk is full"
    elif "readonly" in text or "read-only" in text:
        why = "the folder is read-only"
    elif "unable to open" in text:
        why = "the file cannot be made there (is the folder gone or read-only?)"
    else:
        why = f"the database said: {text}"
    return f"cannot save to '{path}': {why}; the town is not lost, save it elsewhere"


# ------------------------------------------------------------------------------- reading


def _one_line(e: BaseException, limit: int = 160) -> str:
    """An error's text fit for a one-line message (damaged bytes quoted in it dropped), capped."""
    return one_line(str(e), limit)


def _open(path: str | Path, *, check: bool = True) -> tuple[sqlite3.Connection, dict]:
    """Open a save read-only and check it; returns (connection, meta).  ``check``: run SQLite's
    integrity check (reads the whole file; the load screen's listing skips it)."""
    p = Path(path)
    if not p.exists():
        raise SaveError(f"save '{p}' does not exist")
    if p.is_dir():
        raise SaveError(f"'{p}' is a folder, not a save file")
    try:
        with open(p, "rb") as f:
            head = f.read(16)
    except OSError as e:
        raise SaveError(f"save '{p}' cannot be read: {e.strerror}") from None
    if head != b"SQLite format 3\x00":
        raise SaveError(f"'{p}' is not a town save (it is not an SQLite file; damaged or foreign)")
    _recover(p)  # a save killed in its transaction: rolled back to the one before
    db = None
    try:
        db = sqlite3.connect(p.resolve().as_uri() + "?mode=ro", uri=True)
        if check:
            ok = db.execute("PRAGMA quick_check").fetchone()
            if not ok or ok[0] != "ok":
                # the check lists every broken page, one per line: the first says enough
                first = (str(ok[0]) if ok else "no answer").strip().splitlines() or ["no answer"]
                detail = first[-1] if first[0].startswith("***") and len(first) > 1 else first[0]
                raise SaveError(f"save '{p}' is damaged (SQLite check: {detail[:120]})")
        rows = db.execute("SELECT key, value FROM meta").fetchall()
    except SaveError:
        if db is not None:
            db.close()
        raise
    except (sqlite3.DatabaseError, ValueError) as e:  # ValueError: text that is not UTF-8
        if db is not None:
            db.close()
        raise SaveError(f"'{p}' is not a town save or is damaged ({_one_line(e)})") from None
    try:
        meta = {k: json.loads(v) for k, v in rows}
    except (ValueError, TypeError):
        db.close()
        raise SaveError(f"save '{p}' is damaged (its meta table is not readable)") from None
    if meta.get("format") != FORMAT:
        db.close()
        raise SaveError(f"'{p}' is not a town save (an SQLite file of some other program)")
    version = meta.get("version")
    if not isinstance(version, int):
        db.close()
        raise SaveError(f"save '{p}' is damaged (no format version)")
    if version > VERSION:
        db.close()
        raise SaveError(f"save '{p}' was written by a newer version of the game (save format "
                        f"{version}; this game reads up to {VERSION}); update the game to load it")
    if version < 1:
        db.close()
        raise SaveError(f"save '{p}' has an unknown format version {version}")
    return db, meta


def describe_save(path: str | Path) -> dict:
    """What the load screen lists: town, clock text, residents (cheap: only the meta table)."""
    db, meta = _open(path, check=False)
    db.close()
    missing = [k for k in ("town_name", "clock_text", "residents") if k not in meta]
    if missing:  # a damaged key: listed as damaged rather than as a town with no name
        raise SaveError(f"save '{path}' is damaged (its meta table has no {', '.join(missing)})")
    out = {"path": str(path), "town": meta.get("town_name", ""), "clock": meta.get("clock_text", ""),
           "residents": meta.get("residents", []), "saved_at": meta.get("saved_at", ""),
           "town_path": meta.get("town_path", "")}
    texts = [out[k] for k in ("town", "clock", "saved_at", "town_path")]
    if not all(isinstance(t, str) for t in texts) or not isinstance(out["residents"], list) \
            or not all(isinstance(n, str) for n in out["residents"]):
        raise SaveError(f"save '{path}' is damaged (its meta table holds the wrong kinds of values)")
    out["residents"] = list(out["residents"])
    return out


def is_save(path: str | Path) -> bool:
    """True for an existing file that starts like an SQLite database (saves are; towns are not)."""
    p = Path(path)
    if not p.is_file():
        return False
    try:
        with open(p, "rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def read_state(path: str | Path) -> TownState:
    """The town saved in ``path``; raises ``SaveError`` naming the file and the problem."""
    db, meta = _open(path)
    try:
        return _read(db, meta, Path(path))
    except SaveError:
        raise
    except (KeyError, ValueError, TypeError, IndexError, sqlite3.DatabaseError) as e:
        raise SaveError(f"save '{path}' is damaged or incomplete ({type(e).__name__}: {_one_line(e)})") from None
    finally:
        db.close()


def _read_memories(db: sqlite3.Connection, meta: dict, path: Path) -> tuple[dict[str, MemoryImage], SyncPoint | None]:
    """Every resident's memories as images (built in one go from the segments); with the file's
    ``SyncPoint`` (its streams not yet bound to live ones: ``SyncPoint.bind``).  A version 1 save
    (one row per record) is read the old way and has no sync point: its next save is whole."""
    names = list(meta["residents"])
    if meta["version"] < 2:
        rows: dict[str, list[dict]] = {n: [] for n in names}
        for resident, data, emb in db.execute(
                "SELECT resident, data, embedding FROM memories ORDER BY resident, id"):
            row = json.loads(data)
            row["embedding"] = emb
            rows.setdefault(resident, []).append(row)
        return {n: MemoryStream.from_rows(r).image() for n, r in rows.items()}, None
    info = meta["memory"]
    if not isinstance(info, dict):
        raise ValueError("the meta table's memory entry is not a table of residents")
    sync = SyncPoint(save_id=str(meta["save_id"]), generation=int(meta["generation"]))
    images: dict[str, MemoryImage] = {}
    for name in names:
        n, dim = int(info[name]["n"]), int(info[name]["dim"])
        if n < 0 or dim < 0 or (n and dim > 100_000):
            raise ValueError(f"{name}: {n} memories of size {dim}")
        cap = n + n // 8 + 64  # room to grow before the first doubling copies the matrix
        kind = np.zeros(cap, dtype=np.int8)
        created = np.zeros(cap, dtype=np.float64)
        has = np.zeros(n, dtype=bool)
        emb = np.zeros((cap, dim), dtype=np.float32) if dim else None
        text: list[str] = []
        evidence: list = []
        segs: list[tuple[int, int]] = []
        at = 0
        for start, count, sdim, k, c, h, e, t, ev in db.execute(
                "SELECT start, count, dim, kind, created, has_embedding, embedding, text, evidence "
                "FROM memory_segments WHERE resident = ? ORDER BY start", (name,)):
            if start != at or count <= 0 or at + count > n:
                raise ValueError(f"{name}: memory segment at {start} of {count} records does not follow "
                                 f"record {at} (of {n})")
            b = at + count
            kind[at:b] = np.frombuffer(k, dtype=np.int8, count=count)
            created[at:b] = np.frombuffer(c, dtype="<f8", count=count)
            has[at:b] = np.frombuffer(h, dtype=np.uint8, count=count) != 0
            if sdim and sdim != dim:
                raise ValueError(f"{name}: a memory segment of embeddings of size {sdim}, not {dim}")
            if sdim and emb is not None:
                if len(e) != count * dim * 4:
                    raise ValueError(f"{name}: memory segment at {start}: {len(e)} bytes of embeddings "
                                     f"for {count} records of size {dim}")
                emb[at:b] = np.frombuffer(e, dtype="<f4").reshape(count, dim)
            else:
                has[at:b] = False
            texts = json.loads(t)
            evs = json.loads(ev)
            if not (isinstance(texts, list) and isinstance(evs, list) and len(texts) == count == len(evs)
                    and all(isinstance(x, str) for x in texts) and all(isinstance(x, list) for x in evs)):
                raise ValueError(f"{name}: memory segment at {start}: texts or evidence are not {count} of their kind")
            text.extend(texts)
            evidence.extend(evs)
            segs.append((start, count))
            at = b
        if at != n:
            raise ValueError(f"{name}: {at} memories stored of {n}")
        access = np.zeros(n, dtype=np.float64)
        imp = np.zeros(n, dtype=np.float32)
        scored = np.zeros(n, dtype=bool)
        seen = 0
        for c, acc, im, sc in db.execute("SELECT chunk, access, importance, scored FROM memory_state "
                                         "WHERE resident = ? ORDER BY chunk", (name,)):
            a, b = c * CHUNK, min(n, (c + 1) * CHUNK)
            if c != seen or a >= n:
                raise ValueError(f"{name}: memory state chunk {c} out of place")
            access[a:b] = np.frombuffer(acc, dtype="<f8", count=b - a)
            imp[a:b] = np.frombuffer(im, dtype="<f4", count=b - a)
            scored[a:b] = np.frombuffer(sc, dtype=np.uint8, count=b - a) != 0
            seen += 1
        if seen != _chunks(n):
            raise ValueError(f"{name}: {seen} memory state chunks for {n} memories")
        images[name] = MemoryImage(uid="", version=0, n=n, dim=dim if dim else None, kind=kind, created=created,
                                   text=text, evidence=evidence, emb=emb, has_emb=has, access=access,
                                   importance=imp, scored=scored, extra={"owned": True})
        sync.streams[name] = StreamSync(uid="", version=0, n=n, dim=dim, segments=segs)
    return images, sync


def _read(db: sqlite3.Connection, meta: dict, path: Path) -> TownState:
    names = list(meta["residents"])
    p = meta.get("player")
    st = TownState(
        town_path=meta["town_path"], town_name=str(meta.get("town_name", "")), clock=meta["clock"],
        clock_text=str(meta.get("clock_text", "")), seed=int(meta["seed"]), rng=meta["rng"],
        step_no=int(meta["step_no"]), seq=int(meta["seq"]), talk_seq=int(meta["talk_seq"]),
        decision_ticks=int(meta.get("decision_ticks", 6)), lockstep=bool(meta.get("lockstep", False)),
        small=bool(meta.get("small", False)), embodied=meta.get("embodied"), ledger=meta.get("ledger"),
        player=Player(name=p["name"], description=p["description"], pos=tuple(p["pos"])) if p else None)
    st.memories, st.sync = _read_memories(db, meta, path)
    for name, x, y, action, rpath, plan, eng, mstate in db.execute(
            "SELECT name, x, y, action, path, plan, engine_state, mind_state FROM residents"):
        st.minds[name] = json.loads(mstate)
        st.residents[name] = _resident(name, (int(x), int(y)), json.loads(action), json.loads(rpath),
                                       json.loads(plan), json.loads(eng))
    if sorted(st.residents) != sorted(names):
        raise SaveError(f"save '{path}' is incomplete: its residents table does not match its meta table")
    for name, data in db.execute("SELECT resident, data FROM spatial"):
        st.spatial[name] = json.loads(data)
    st.objects = {a: {"state": s, "by": b} for a, s, b in db.execute("SELECT address, state, by FROM objects")}
    st.object_news = {a: _undt(t) for a, t in db.execute("SELECT address, at FROM object_news")}
    for cid, active, data in db.execute("SELECT id, active, data FROM conversations ORDER BY rowid"):
        d = json.loads(data)
        conv = _conv_from(d)
        if active:
            st.talks[cid] = Talk(conv=conv, turn=int(d.get("turn", 0)), max_lines=int(d.get("max_lines", 8)),
                                 last_at=_undt(d.get("last_at")))
        else:
            st.finished_talks.append(conv)
    for row in db.execute("SELECT seq, resident, kind, now, ready_at, args, observations FROM pending "
                          "ORDER BY seq"):
        job = Job.from_row(dict(zip(("seq", "resident", "kind", "now", "ready_at", "args", "observations"), row)))
        if job.kind == "plan":  # an old save's day plan: the next action plans the day itself now
            job.kind = "next"
        st.jobs.append(job)
    acc_row = db.execute("SELECT data FROM accounting WHERE id = 1").fetchone()
    st.accounting = json.loads(acc_row[0]) if acc_row else None
    return st


def _resident(name: str, pos: tuple[int, int], action: dict | None, path: list, plan: dict | None,
              eng: dict) -> Resident:
    """One resident's engine state from its row (an old save's ``recalled`` is not read: unused)."""
    return Resident(
        name=name, pos=pos, action=Action.from_dict(action) if action else None,
        path=[tuple(q) for q in path], plan=DayPlan.from_dict(plan) if plan else None,
        needs_decision=bool(eng["needs_decision"]), conversation=eng.get("conversation"),
        seen=dict(eng.get("seen", {})), obs_buffer=list(eng.get("obs_buffer", [])),
        obs_since=_undt(eng.get("obs_since")), salient=list(eng.get("salient", [])),
        reacted={k: _undt(v) for k, v in eng.get("reacted", {}).items()},
        last_talk={k: _undt(v) for k, v in eng.get("last_talk", {}).items()})


# ------------------------------------------------------------------------------- autosave


def save_files(folder: str | Path) -> list[Path]:
    """The save files (``*.save``) in a folder, newest first; none when it is not a folder."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    files = [p for p in folder.glob(f"*{SUFFIX}") if p.is_file()]
    return sorted(files, key=lambda q: q.stat().st_mtime, reverse=True)


def list_saves(folder: str | Path) -> list[dict]:
    """Every readable save in a folder, newest first (unreadable ones listed with an 'error')."""
    out = []
    for p in save_files(folder):
        try:
            out.append(describe_save(p))
        except SaveError as err:
            out.append({"path": str(p), "error": str(err)})
    return out


def save_name(words: str, *, keep: str = "-_") -> str:
    """A file name for a save from a town's or the player's words: letters, digits and ``keep``,
    anything else a dash, ending in ``.save`` ("town.save" when nothing is left)."""
    stem = "".join(c if c.isalnum() or c in keep else "-" for c in words).strip("-.") or "town"
    return stem if stem.endswith(SUFFIX) else stem + SUFFIX


def autosave_path(folder: str | Path, town_name: str) -> Path:
    return Path(folder) / ("autosave-" + save_name(town_name.lower()))


class Autosave:
    """Saves a town every ``every_s`` real seconds (call ``maybe()`` after steps) and on ``now()``.
    ``state`` gives the town to save (``Engine.state``; it is asked with ``since``, what the
    autosave file holds, so that only what changed is written)."""

    def __init__(self, state: Callable[..., TownState], folder: str | Path, every_s: float = 120.0) -> None:
        self.state = state
        self.folder = Path(folder)
        self.every_s = every_s
        self._last = time.monotonic()
        self.last_path: str | None = None
        self._sync: SyncPoint | None = None

    def now(self) -> str:
        state = self.state(since=self._sync)
        path = str(autosave_path(self.folder, state.town_name or "town"))
        if self.last_path != path:
            self._sync = None
        self._sync = write_state(state, path, self._sync)  # the town's own save path stays as it is
        self._last = time.monotonic()
        self.last_path = path
        return path

    def maybe(self) -> str | None:
        if time.monotonic() - self._last >= self.every_s:
            return self.now()
        return None
