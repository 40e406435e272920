"""Reading a save back: the checks a file must pass and the ``TownState`` it holds (see
docs/SAVES.md); a file that is not a town save of a format this game reads is refused with a
message that names it and the problem."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from pathlib import Path

import numpy as np

from game.engine.saves.fileformat import (
    CHUNK,
    FORMAT,
    SUFFIX,
    VERSION,
    SaveError,
    chunk_count,
    conv_from,
    error_line,
    recover,
    talk_from,
    time_of,
)
from game.engine.state import Job, Player, Resident, StreamSync, SyncPoint, TownState
from game.mind.memory.stream import MemoryImage, MemoryStream
from game.mind.view import Action, DayPlan


def open_save(path: str | Path, *, check: bool = True) -> tuple[sqlite3.Connection, dict]:
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
    recover(p)  # a save killed in its transaction: rolled back to the one before
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
        raise SaveError(f"'{p}' is not a town save or is damaged ({error_line(e)})") from None
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
    db, meta = open_save(path, check=False)
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
    db, meta = open_save(path)
    try:
        return _read(db, meta, Path(path))
    except SaveError:
        raise
    except (KeyError, ValueError, TypeError, IndexError, sqlite3.DatabaseError) as e:
        raise SaveError(f"save '{path}' is damaged or incomplete ({type(e).__name__}: {error_line(e)})") from None
    finally:
        db.close()


def read_memories(db: sqlite3.Connection, meta: dict, path: Path) -> tuple[dict[str, MemoryImage], SyncPoint | None]:
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
        stored = db.execute("SELECT COALESCE(SUM(count), 0) FROM memory_segments WHERE resident = ?",
                            (name,)).fetchone()[0]
        if n != stored:  # the count is not trusted before memory is set aside for it (1e10 was a MemoryError)
            raise ValueError(f"{name}: the meta table says {n} memories, the save holds {stored}")
        images[name], segs = _read_stream(db, name, n, dim)
        sync.streams[name] = StreamSync(uid="", version=0, n=n, dim=dim, segments=segs)
    return images, sync


def _read_stream(db: sqlite3.Connection, name: str, n: int, dim: int) -> tuple[MemoryImage, list[tuple[int, int]]]:
    """One resident's ``n`` memories (embeddings of ``dim``; 0: none) as an image the stream made
    from it owns, and the segments they were stored in."""
    cap = n + n // 8 + 64  # room to grow before the first doubling copies the matrix
    img = MemoryImage(uid="", version=0, n=n, dim=dim if dim else None, kind=np.zeros(cap, dtype=np.int8),
                      created=np.zeros(cap, dtype=np.float64), text=[], evidence=[],
                      emb=np.zeros((cap, dim), dtype=np.float32) if dim else None,
                      has_emb=np.zeros(n, dtype=bool), access=np.zeros(n, dtype=np.float64),
                      importance=np.zeros(n, dtype=np.float32), scored=np.zeros(n, dtype=bool),
                      extra={"owned": True})
    segs = _read_segments(db, name, img, dim)
    _read_state_chunks(db, name, img)
    return img, segs


def _read_segments(db: sqlite3.Connection, name: str, img: MemoryImage, dim: int) -> list[tuple[int, int]]:
    """The stored data of ``img``'s records (kind, time, text, evidence, embedding), segment by segment."""
    n, emb = img.n, img.emb
    segs: list[tuple[int, int]] = []
    at = 0
    for start, count, sdim, k, c, h, e, t, ev in db.execute(
            "SELECT start, count, dim, kind, created, has_embedding, embedding, text, evidence "
            "FROM memory_segments WHERE resident = ? ORDER BY start", (name,)):
        if start != at or count <= 0 or at + count > n:
            raise ValueError(f"{name}: memory segment at {start} of {count} records does not follow "
                             f"record {at} (of {n})")
        b = at + count
        img.kind[at:b] = np.frombuffer(k, dtype=np.int8, count=count)
        img.created[at:b] = np.frombuffer(c, dtype="<f8", count=count)
        img.has_emb[at:b] = np.frombuffer(h, dtype=np.uint8, count=count) != 0
        if sdim and sdim != dim:
            raise ValueError(f"{name}: a memory segment of embeddings of size {sdim}, not {dim}")
        if sdim and emb is not None:
            if len(e) != count * dim * 4:
                raise ValueError(f"{name}: memory segment at {start}: {len(e)} bytes of embeddings "
                                 f"for {count} records of size {dim}")
            emb[at:b] = np.frombuffer(e, dtype="<f4").reshape(count, dim)
        else:
            img.has_emb[at:b] = False
        texts = json.loads(t)
        evs = json.loads(ev)
        if not (isinstance(texts, list) and isinstance(evs, list) and len(texts) == count == len(evs)
                and all(isinstance(x, str) for x in texts) and all(isinstance(x, list) for x in evs)):
            raise ValueError(f"{name}: memory segment at {start}: texts or evidence are not {count} of their kind")
        img.text.extend(texts)
        img.evidence.extend(evs)
        segs.append((start, count))
        at = b
    if at != n:
        raise ValueError(f"{name}: {at} memories stored of {n}")
    return segs


def _read_state_chunks(db: sqlite3.Connection, name: str, img: MemoryImage) -> None:
    """What changes of ``img``'s records (last access, importance, scored), chunk by chunk."""
    n = img.n
    seen = 0
    for c, acc, im, sc in db.execute("SELECT chunk, access, importance, scored FROM memory_state "
                                     "WHERE resident = ? ORDER BY chunk", (name,)):
        a, b = c * CHUNK, min(n, (c + 1) * CHUNK)
        if c != seen or a >= n:
            raise ValueError(f"{name}: memory state chunk {c} out of place")
        img.access[a:b] = np.frombuffer(acc, dtype="<f8", count=b - a)
        img.importance[a:b] = np.frombuffer(im, dtype="<f4", count=b - a)
        img.scored[a:b] = np.frombuffer(sc, dtype=np.uint8, count=b - a) != 0
        seen += 1
    if seen != chunk_count(n):
        raise ValueError(f"{name}: {seen} memory state chunks for {n} memories")


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
    images, st.sync = read_memories(db, meta, path)
    st.memories.update(images)
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
    st.object_news = {a: _when(t) for a, t in db.execute("SELECT address, at FROM object_news")}
    for cid, active, data in db.execute("SELECT id, active, data FROM conversations ORDER BY rowid"):
        d = json.loads(data)
        if active:
            st.talks[cid] = talk_from(d)
        else:
            st.finished_talks.append(conv_from(d))
    for row in db.execute("SELECT seq, resident, kind, now, ready_at, args, observations FROM pending "
                          "ORDER BY seq"):
        job = Job.from_row(dict(zip(("seq", "resident", "kind", "now", "ready_at", "args", "observations"), row)))
        st.jobs.append(job)  # (an old save's "plan" job is read as a "next": JobKind.saved)
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
        obs_since=time_of(eng.get("obs_since")), salient=list(eng.get("salient", [])),
        urgent=bool(eng.get("urgent", False)),
        reacted={k: _when(v) for k, v in eng.get("reacted", {}).items()},
        last_talk={k: _when(v) for k, v in eng.get("last_talk", {}).items()},
        seeking=eng.get("seeking") if isinstance(eng.get("seeking"), str) else None,
        seek_until=time_of(eng.get("seek_until")))


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


def _when(s: str) -> datetime:
    """A time a save must hold (an empty one is a damaged save: ``ValueError``)."""
    return datetime.fromisoformat(s)
