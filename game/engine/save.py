"""Saves: one SQLite file per save, written atomically, never pickled.  See docs/SAVES.md.

A save is written to a temporary file in the same folder, flushed to disk (fsync) and then moved
over the old file with ``os.replace``, so a crash during a save leaves the previous save intact.
Loading checks that the file is a town save of a format this game reads, and refuses anything
else with a message that names the file and the problem.
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from game.engine import atomic
from game.engine.ledger import DecisionLedger

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


class SaveError(Exception):
    """A save that cannot be written or read; the message names the file and the problem."""


# ------------------------------------------------------------------------------- helpers


def _dt(d: datetime | None) -> str | None:
    return d.isoformat() if d is not None else None


def _undt(s: str | None) -> datetime | None:
    return datetime.fromisoformat(s) if s else None


def _rng_state(rng: random.Random) -> list:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from(state: list) -> random.Random:
    rng = random.Random()
    rng.setstate((state[0], tuple(state[1]), state[2]))
    return rng


def _action_dict(a: Any) -> dict | None:
    return None if a is None else a.to_dict()


def _conv_dict(talk: Any, active: bool) -> dict:
    conv = talk.conv if hasattr(talk, "conv") else talk
    d = {"id": conv.id, "participants": list(conv.participants), "place": conv.place,
         "lines": [list(x) for x in conv.lines], "started": _dt(conv.started),
         "with_player": conv.with_player}
    if hasattr(talk, "conv"):
        d.update(turn=talk.turn, max_lines=talk.max_lines, last_at=_dt(getattr(talk, "last_at", None)))
    return d


def _conv_from(d: dict) -> Any:
    from game.mind.view import Conversation

    return Conversation(id=d["id"], participants=list(d["participants"]), place=d.get("place", ""),
                        lines=[(s, t) for s, t in d["lines"]], started=_undt(d.get("started")),
                        with_player=bool(d.get("with_player")))


# ------------------------------------------------------------------------------- writing


def save_engine(engine: Any, path: str | Path) -> None:
    from game.engine import wiring

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
                _write(db, engine, wiring)
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


def _write(db: sqlite3.Connection, e: Any, wiring: Any) -> None:
    town_path = e.town_path
    try:
        town_path = str(Path(town_path).resolve())
    except OSError:
        pass
    player = None if e.player is None else {"name": e.player.name, "description": e.player.description,
                                             "pos": list(e.player.pos)}
    meta = {
        "format": FORMAT, "version": VERSION, "town_path": town_path,
        "town_name": getattr(e.town, "name", ""), "clock": e.clock.to_dict(), "clock_text": e.clock.text(),
        "rng": _rng_state(e.rng), "seed": e.seed, "step_no": e.step_no, "seq": e._seq,
        "talk_seq": e._talk_seq, "decision_ticks": e.decision_ticks, "lockstep": e.lockstep,
        "small": bool(getattr(e, "small", False)), "player": player, "embodied": e.embodied,
        "residents": sorted(e.residents), "saved_at": time.strftime("%Y-%m-%d %H:%M:%S"),
        "ledger": e.ledger.to_dict(),
    }
    db.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in meta.items()])
    for name, r in sorted(e.residents.items()):
        state, rows = wiring.mind_to_state(e.minds[name])
        eng = {
            "needs_decision": r.needs_decision, "conversation": r.conversation, "seen": r.seen,
            "obs_buffer": r.obs_buffer, "obs_since": _dt(r.obs_since), "salient": r.salient,
            "reacted": {k: _dt(v) for k, v in r.reacted.items()},
            "last_talk": {k: _dt(v) for k, v in r.last_talk.items()}, "recalled": r.recalled,
        }
        db.execute("INSERT INTO residents VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (
            name, r.pos[0], r.pos[1], json.dumps(_action_dict(r.action)), json.dumps([list(p) for p in r.path]),
            json.dumps(r.plan.to_dict() if r.plan is not None else None), json.dumps(eng),
            json.dumps(state)))
        for row in rows:
            row = dict(row)
            emb = row.pop("embedding", None)
            db.execute("INSERT INTO memories VALUES (?, ?, ?, ?, ?, ?, ?)", (
                name, int(row["id"]), str(row.get("kind", "")), str(row.get("text", "")),
                str(row.get("created", "")), json.dumps(row), emb))
        sm = e.spatial.get(name)
        if sm is not None:
            db.execute("INSERT INTO spatial VALUES (?, ?)", (name, json.dumps(sm.to_dict())))
    for addr, v in sorted(e.town.objects.to_dict().items()):
        db.execute("INSERT INTO objects VALUES (?, ?, ?)", (addr, v["state"], v.get("by", "world")))
    for addr, at in sorted(e.object_news.items()):
        db.execute("INSERT INTO object_news VALUES (?, ?)", (addr, _dt(at)))
    for cid, talk in sorted(e.talks.items()):
        db.execute("INSERT INTO conversations VALUES (?, 1, ?)", (cid, json.dumps(_conv_dict(talk, True))))
    for i, conv in enumerate(e.finished_talks):
        db.execute("INSERT INTO conversations VALUES (?, 0, ?)",
                   (f"done:{i}:{conv.id}", json.dumps(_conv_dict(conv, False))))
    for job in sorted(e.jobs.values(), key=lambda j: j.seq):
        row = job.to_row()
        db.execute("INSERT INTO pending VALUES (?, ?, ?, ?, ?, ?, ?)", (
            row["seq"], row["resident"], row["kind"], row["now"], row["ready_at"], row["args"],
            row["observations"]))
    acc = getattr(e.llm, "accounting", None)
    if acc is not None and hasattr(acc, "to_dict"):
        db.execute("INSERT INTO accounting VALUES (1, ?)", (json.dumps(acc.to_dict()),))


# ------------------------------------------------------------------------------- reading


def _one_line(e: BaseException, limit: int = 160) -> str:
    """An error's text fit for a one-line message: damaged bytes quoted in it (control characters,
    line breaks) dropped, capped."""
    text = "".join(ch if ch.isprintable() else " " for ch in str(e))
    return " ".join(text.split())[:limit]


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


def load_engine(cls: type, path: str | Path, llm: Any) -> Any:
    from game.engine import wiring

    db, meta = _open(path)
    try:
        return _read(cls, db, meta, Path(path), llm, wiring)
    except SaveError:
        raise
    except (KeyError, ValueError, TypeError, IndexError, sqlite3.DatabaseError) as e:
        raise SaveError(f"save '{path}' is damaged or incomplete ({type(e).__name__}: {_one_line(e)})") from None
    finally:
        db.close()


def _read(cls: type, db: sqlite3.Connection, meta: dict, path: Path, llm: Any, wiring: Any) -> Any:
    from game.engine.engine import Job, Player, Talk
    from game.mind.view import Action, DayPlan

    town_path = meta["town_path"]
    if not Path(town_path).exists():
        raise SaveError(f"save '{path}' belongs to the town '{town_path}', which is not there any more")
    try:
        town = wiring.load_world(town_path)
    except Exception as e:
        raise SaveError(f"save '{path}': its town '{town_path}' cannot be loaded: {e}") from None
    names = list(meta["residents"])
    specs = {s.name: s for s in town.residents}
    missing = [n for n in names if n not in specs]
    if missing:
        raise SaveError(f"save '{path}': residents {', '.join(missing)} are not in the town '{town_path}'")
    mem_rows: dict[str, list[dict]] = {n: [] for n in names}
    for resident, _id, _kind, _text, _created, data, emb in db.execute(
            "SELECT resident, id, kind, text, created, data, embedding FROM memories ORDER BY resident, id"):
        row = json.loads(data)
        row["embedding"] = emb
        mem_rows.setdefault(resident, []).append(row)
    minds, positions, rrows = {}, {}, {}
    for name, x, y, action, rpath, plan, eng, mstate in db.execute(
            "SELECT name, x, y, action, path, plan, engine_state, mind_state FROM residents"):
        minds[name] = wiring.mind_from_state(specs[name], llm, json.loads(mstate), mem_rows.get(name, []))
        positions[name] = (int(x), int(y))
        rrows[name] = (json.loads(action), json.loads(rpath), json.loads(plan), json.loads(eng))
    if sorted(minds) != sorted(names):
        raise SaveError(f"save '{path}' is incomplete: its residents table does not match its meta table")
    spatial = {}
    for name, data in db.execute("SELECT resident, data FROM spatial"):
        spatial[name] = wiring.spatial_from_dict(town, json.loads(data))
    e = cls(town=town, town_path=town_path, minds=minds, clock=wiring.clock_from_dict(meta["clock"]), llm=llm,
            pathfinder=wiring.pathfinder(town), perceive=wiring.perceive_fn(), spatial=spatial,
            positions=positions, seed=int(meta["seed"]), lockstep=bool(meta.get("lockstep", False)),
            decision_ticks=int(meta.get("decision_ticks", 6)))
    e.small = bool(meta.get("small", False))
    e.specs = {n: specs[n] for n in names}
    e.rng = _rng_from(meta["rng"])
    e.step_no = int(meta["step_no"])
    e._seq = int(meta["seq"])
    e._talk_seq = int(meta["talk_seq"])
    e.embodied = meta.get("embodied")
    e.ledger = DecisionLedger.from_dict(meta.get("ledger"))  # older saves have none: counting starts now
    p = meta.get("player")
    if p:
        e.player = Player(name=p["name"], description=p["description"], pos=tuple(p["pos"]))
    for name, (action, rpath, plan, eng) in rrows.items():
        r = e.residents[name]
        r.action = Action.from_dict(action) if action else None
        r.path = [tuple(q) for q in rpath]
        r.plan = DayPlan.from_dict(plan) if plan else None
        r.needs_decision = bool(eng["needs_decision"])
        r.conversation = eng.get("conversation")
        r.seen = dict(eng.get("seen", {}))
        r.obs_buffer = list(eng.get("obs_buffer", []))
        r.obs_since = _undt(eng.get("obs_since"))
        r.salient = list(eng.get("salient", []))
        r.reacted = {k: _undt(v) for k, v in eng.get("reacted", {}).items()}
        r.last_talk = {k: _undt(v) for k, v in eng.get("last_talk", {}).items()}
        r.recalled = list(eng.get("recalled", []))
    objs = {a: {"state": s, "by": b} for a, s, b in db.execute("SELECT address, state, by FROM objects")}
    e.town.objects.load_dict(objs)
    e.object_news = {a: _undt(t) for a, t in db.execute("SELECT address, at FROM object_news")}
    for cid, active, data in db.execute("SELECT id, active, data FROM conversations ORDER BY rowid"):
        d = json.loads(data)
        conv = _conv_from(d)
        if active:
            talk = Talk(conv=conv, turn=int(d.get("turn", 0)), max_lines=int(d.get("max_lines", 8)))
            talk.last_at = _undt(d.get("last_at"))
            e.talks[cid] = talk
        else:
            e.finished_talks.append(conv)
    for row in db.execute("SELECT seq, resident, kind, now, ready_at, args, observations FROM pending "
                          "ORDER BY seq"):
        job = Job.from_row(dict(zip(("seq", "resident", "kind", "now", "ready_at", "args", "observations"), row)))
        e.jobs[job.resident] = job  # its task is started by the first step() (the answer is re-asked)
    acc_row = db.execute("SELECT data FROM accounting WHERE id = 1").fetchone()
    acc = getattr(llm, "accounting", None)
    if acc_row and acc is not None and hasattr(type(acc), "from_dict") and hasattr(acc, "restore"):
        # the loaded town's usage carries on (what the session spent on another town is not its)
        acc.restore(type(acc).from_dict(json.loads(acc_row[0])))
        acc.set_day(e.clock.day)
    e.save_path = str(path)
    return e


# ------------------------------------------------------------------------------- autosave


def list_saves(folder: str | Path) -> list[dict]:
    """Every readable save in a folder, newest first (unreadable ones listed with an 'error')."""
    out = []
    folder = Path(folder)
    if not folder.is_dir():
        return out
    for p in sorted(folder.glob(f"*{SUFFIX}"), key=lambda q: q.stat().st_mtime, reverse=True):
        try:
            out.append(describe_save(p))
        except SaveError as err:
            out.append({"path": str(p), "error": str(err)})
    return out


def autosave_path(folder: str | Path, town_name: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in town_name.lower()).strip("-") or "town"
    return Path(folder) / f"autosave-{safe}{SUFFIX}"


class Autosave:
    """Saves the engine every ``every_s`` real seconds (call ``maybe()`` after steps) and on ``now()``."""

    def __init__(self, engine: Any, folder: str | Path, every_s: float = 120.0) -> None:
        self.engine = engine
        self.folder = Path(folder)
        self.every_s = every_s
        self._last = time.monotonic()
        self.last_path: str | None = None

    def now(self) -> str:
        path = str(autosave_path(self.folder, getattr(self.engine.town, "name", "town")))
        save_engine(self.engine, path)  # the town's own save path stays as it is
        self._last = time.monotonic()
        self.last_path = path
        return path

    def maybe(self) -> str | None:
        if time.monotonic() - self._last >= self.every_s:
            return self.now()
        return None
