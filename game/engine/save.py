"""Saves: one SQLite file per save, written atomically, never pickled.  See docs/SAVES.md.

A save holds a ``TownState`` (game/engine/state.py): ``write_state`` writes one, ``read_state``
reads one back.  This module knows the file format and nothing of the engine; the engine is built
again from a ``TownState`` by ``game.engine.build``.

A save is written to a temporary file in the same folder, flushed to disk (fsync) and then moved
over the old file with ``os.replace``, so a crash during a save leaves the previous save intact.
Loading checks that the file is a town save of a format this game reads, and refuses anything
else with a message that names the file and the problem.
"""

from __future__ import annotations

import json
import sqlite3
import time
from datetime import datetime
from pathlib import Path
from typing import Callable

from game.engine import atomic
from game.engine.state import Job, Player, Resident, Talk, TownState
from game.errors import GameError
from game.mind.view import Action, Conversation, DayPlan
from game.text import one_line

FORMAT = "town-save"
VERSION = 1
SUFFIX = ".save"

SCHEMA = """
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

# a test sets this to simulate a crash after the data is written and before the rename
_before_replace = None
_max_pages: int | None = None  # tests: a tiny SQLite page limit makes the real "disk is full" happen


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


def write_state(state: TownState, path: str | Path) -> None:
    """Write ``state`` to ``path`` atomically (see the module docstring and game/engine/atomic.py);
    raises ``SaveError`` naming the file and what is wrong (a full disk, a read-only place...)."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SaveError(f"cannot save to '{path}': the folder cannot be made ({e.strerror})") from None
    try:
        with atomic.temp_beside(path) as tmp:
            db = sqlite3.connect(tmp)
            try:
                # a private temporary file: no journal, no syncs per statement (nine CREATE TABLEs
                # each synced took most of a save's time); it is fsynced once, before the rename
                db.execute("PRAGMA journal_mode = OFF")
                db.execute("PRAGMA synchronous = OFF")
                if _max_pages is not None:  # tests: SQLite's own limit, the real disk-full path
                    db.execute(f"PRAGMA max_page_count = {int(_max_pages)}")
                db.executescript(SCHEMA)
                _write(db, state)
                db.commit()
            finally:
                db.close()
            if _before_replace is not None:
                _before_replace(tmp, path)
            atomic.replace(tmp, path)
    except sqlite3.Error as e:
        raise SaveError(_sqlite_words(path, e)) from None
    except OSError as e:
        raise SaveError(_os_words(path, e)) from None


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


def _write(db: sqlite3.Connection, st: TownState) -> None:
    town_path = st.town_path
    try:
        town_path = str(Path(town_path).resolve())
    except OSError:
        pass
    player = None if st.player is None else {"name": st.player.name, "description": st.player.description,
                                              "pos": list(st.player.pos)}
    meta = {
        "format": FORMAT, "version": VERSION, "town_path": town_path,
        "town_name": st.town_name, "clock": st.clock, "clock_text": st.clock_text,
        "rng": st.rng, "seed": st.seed, "step_no": st.step_no, "seq": st.seq,
        "talk_seq": st.talk_seq, "decision_ticks": st.decision_ticks, "lockstep": st.lockstep,
        "small": st.small, "player": player, "embodied": st.embodied,
        "residents": sorted(st.residents), "saved_at": time.strftime("%Y-%m-%d %H:%M:%S"),
        "ledger": st.ledger,
    }
    db.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in meta.items()])
    for name, r in sorted(st.residents.items()):
        eng = {
            "needs_decision": r.needs_decision, "conversation": r.conversation, "seen": r.seen,
            "obs_buffer": r.obs_buffer, "obs_since": _dt(r.obs_since), "salient": r.salient,
            "reacted": {k: _dt(v) for k, v in r.reacted.items()},
            "last_talk": {k: _dt(v) for k, v in r.last_talk.items()},
        }
        db.execute("INSERT INTO residents VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (
            name, r.pos[0], r.pos[1], json.dumps(r.action.to_dict() if r.action is not None else None),
            json.dumps([list(p) for p in r.path]), json.dumps(r.plan.to_dict() if r.plan is not None else None),
            json.dumps(eng), json.dumps(st.minds[name])))
        for row in st.memories.get(name, []):
            row = dict(row)
            emb = row.pop("embedding", None)
            db.execute("INSERT INTO memories VALUES (?, ?, ?, ?, ?, ?, ?)", (
                name, int(row["id"]), str(row.get("kind", "")), str(row.get("text", "")),
                str(row.get("created", "")), json.dumps(row), emb))
        if name in st.spatial:
            db.execute("INSERT INTO spatial VALUES (?, ?)", (name, json.dumps(st.spatial[name])))
    for addr, v in sorted(st.objects.items()):
        db.execute("INSERT INTO objects VALUES (?, ?, ?)", (addr, v["state"], v.get("by", "world")))
    for addr, at in sorted(st.object_news.items()):
        db.execute("INSERT INTO object_news VALUES (?, ?)", (addr, _dt(at)))
    for cid, talk in sorted(st.talks.items()):
        db.execute("INSERT INTO conversations VALUES (?, 1, ?)", (cid, json.dumps(_conv_dict(talk.conv, talk))))
    for i, conv in enumerate(st.finished_talks):
        db.execute("INSERT INTO conversations VALUES (?, 0, ?)",
                   (f"done:{i}:{conv.id}", json.dumps(_conv_dict(conv))))
    for job in sorted(st.jobs, key=lambda j: j.seq):
        row = job.to_row()
        db.execute("INSERT INTO pending VALUES (?, ?, ?, ?, ?, ?, ?)", (
            row["seq"], row["resident"], row["kind"], row["now"], row["ready_at"], row["args"],
            row["observations"]))
    if st.accounting is not None:
        db.execute("INSERT INTO accounting VALUES (1, ?)", (json.dumps(st.accounting),))


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
    st.memories = {n: [] for n in names}
    for resident, _id, _kind, _text, _created, data, emb in db.execute(
            "SELECT resident, id, kind, text, created, data, embedding FROM memories ORDER BY resident, id"):
        row = json.loads(data)
        row["embedding"] = emb
        st.memories.setdefault(resident, []).append(row)
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
    ``state`` gives the town to save (``Engine.state``)."""

    def __init__(self, state: Callable[[], TownState], folder: str | Path, every_s: float = 120.0) -> None:
        self.state = state
        self.folder = Path(folder)
        self.every_s = every_s
        self._last = time.monotonic()
        self.last_path: str | None = None

    def now(self) -> str:
        state = self.state()
        path = str(autosave_path(self.folder, state.town_name or "town"))
        write_state(state, path)  # the town's own save path stays as it is
        self._last = time.monotonic()
        self.last_path = path
        return path

    def maybe(self) -> str | None:
        if time.monotonic() - self._last >= self.every_s:
            return self.now()
        return None
