"""Writing a save: one SQLite file per save, never pickled, written whole or changed in one
transaction.  See docs/SAVES.md.

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
``PreparedSave.write`` (any thread).  Loading (reading.py) checks that the file is a town save
of a format this game reads, and refuses anything else with a message that names the file and
the problem.  The format's tables and words are in fileformat.py; the package (``game.engine.saves``)
names all of it for the rest of the game.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from game.engine.saves import atomic
from game.engine.saves.fileformat import (
    FORMAT,
    PAGE_SIZE,
    SCHEMA,
    SMALL_TABLES,
    SUFFIX,
    VERSION,
    SaveError,
    conv_dict,
    drop_journal,
    iso_time,
    os_words,
    recover,
    sqlite_words,
)
from game.engine.saves.streams import write_stream
from game.engine.state import SyncPoint, TownState
from game.mind.memory.stream import MemoryImage, MemoryStream

__all__ = ["FaultHooks", "PreparedSave", "SaveJob", "faults", "prepare", "save_name", "sync_key", "write_state"]


@dataclass
class FaultHooks:
    """The failures a test makes happen inside a save (none in play: ``faults`` as made)."""

    before_replace: Callable[[Path, Path], None] | None = None  # a crash after the data, before the rename
    before_commit: Callable[[Path], None] | None = None  # a crash inside a save's transaction
    max_pages: int | None = None  # a tiny SQLite page limit: the real "disk is full"
    incremental: bool = True  # False: every save is written whole


faults = FaultHooks()


# ------------------------------------------------------------------------------- writing


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
class PreparedSave:
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
        if sync is not None and faults.incremental and path.is_file():
            try:
                done = _write_changes(self, path, sync)
            except sqlite3.OperationalError as e:  # full, read-only, locked: the whole would fail too
                raise SaveError(sqlite_words(path, e)) from None
            except sqlite3.DatabaseError:  # the file was damaged meanwhile: replaced by a whole save
                done = None
            except OSError as e:
                raise SaveError(os_words(path, e)) from None
            if done is not None:
                return done
        return _write_whole(self, path)


def prepare(st: TownState) -> PreparedSave:
    """``st`` as a ``PreparedSave``: the cheap part, done on the thread that owns the town."""
    rows: dict[str, list[tuple]] = {t: [] for t in SMALL_TABLES if t != "meta"}
    for name, r in sorted(st.residents.items()):
        eng = {
            "needs_decision": r.needs_decision, "conversation": r.conversation, "seen": r.seen,
            "obs_buffer": r.obs_buffer, "obs_since": iso_time(r.obs_since), "salient": r.salient,
            "urgent": r.urgent,
            "reacted": {k: iso_time(v) for k, v in r.reacted.items()},
            "last_talk": {k: iso_time(v) for k, v in r.last_talk.items()},
            "seeking": r.seeking, "seek_until": iso_time(r.seek_until),
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
        rows["object_news"].append((addr, iso_time(at)))
    for cid, talk in sorted(st.talks.items()):
        rows["conversations"].append((cid, 1, json.dumps(conv_dict(talk.conv, talk))))
    for i, conv in enumerate(st.finished_talks):
        rows["conversations"].append((f"done:{i}:{conv.id}", 0, json.dumps(conv_dict(conv))))
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
    return PreparedSave(meta=_meta_of(st), rows=rows, memories=memories)


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

    def __init__(self, prepared: PreparedSave, path: str | Path, sync: SyncPoint | None,
                 done: Callable[[SaveJob], None] | None = None) -> None:
        self.prepared = prepared
        self._done = done
        self.path = str(path)
        self.sync = sync
        self.result: SyncPoint | None = None
        self.error: SaveError | None = None
        self.seconds = 0.0
        self.incremental = False

    def run(self) -> SyncPoint:
        t = time.perf_counter()
        try:
            self.result = self.prepared.write(self.path, self.sync)
        except SaveError as e:  # kept for the thread that asked (``finish`` raises it there)
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
    """Write ``state`` to ``path`` (see ``PreparedSave.write``); returns the file's ``SyncPoint``."""
    return prepare(state).write(path, sync)


def _write_whole(prep: PreparedSave, path: Path) -> SyncPoint:
    """The whole town to a temporary file beside ``path``, then moved over it (game/engine/saves/atomic.py)."""
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
                if faults.max_pages is not None:  # tests: SQLite's own limit, the real disk-full path
                    db.execute(f"PRAGMA max_page_count = {int(faults.max_pages)}")
                db.executescript(SCHEMA)
                _write_small(db, prep, sync)
                for name, img in sorted(prep.memories.items()):
                    sync.streams[name] = write_stream(db, name, img, None)
                db.commit()
            finally:
                db.close()
            if faults.before_replace is not None:
                faults.before_replace(tmp, path)
            drop_journal(path)
            atomic.replace(tmp, path)
    except sqlite3.Error as e:
        raise SaveError(sqlite_words(path, e)) from None
    except OSError as e:
        raise SaveError(os_words(path, e)) from None
    return sync


def _write_small(db: sqlite3.Connection, prep: PreparedSave, sync: SyncPoint) -> None:
    meta = dict(prep.meta, save_id=sync.save_id, generation=sync.generation,
                memory={n: {"n": img.n, "dim": int(img.dim or 0)} for n, img in sorted(prep.memories.items())})
    db.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in meta.items()])
    for table, rows in prep.rows.items():
        if rows:
            marks = ", ".join("?" * len(rows[0]))
            db.executemany(f"INSERT INTO {table} VALUES ({marks})", rows)


def _write_changes(prep: PreparedSave, path: Path, sync: SyncPoint) -> SyncPoint | None:
    """What changed since ``sync``, in one transaction on the file itself; None (nothing written)
    when the file is not the one ``sync`` describes any more."""
    atomic.drop_stale(path.parent if str(path.parent) else Path("."), path.name)  # a killed whole save's
    recover(path)
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
        if faults.max_pages is not None:
            db.execute(f"PRAGMA max_page_count = {int(faults.max_pages)}")
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
                new.streams[name] = write_stream(db, name, img, sync.streams.get(name))
            if faults.before_commit is not None:
                faults.before_commit(path)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return new
    finally:
        db.close()


# ------------------------------------------------------------------------------- save names


def save_name(words: str, *, keep: str = "-_") -> str:
    """A file name for a save from a town's or the player's words: letters, digits and ``keep``,
    anything else a dash, ending in ``.save`` ("town.save" when nothing is left)."""
    stem = "".join(c if c.isalnum() or c in keep else "-" for c in words).strip("-.") or "town"
    return stem if stem.endswith(SUFFIX) else stem + SUFFIX


