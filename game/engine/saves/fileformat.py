"""The save file's format: its tables, what a save file knows of the streams it holds, and the
words for what goes wrong.  Shared by writing (game/engine/saves/writing.py) and reading
(game/engine/saves/reading.py); see docs/SAVES.md."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

from game.engine.saves import atomic
from game.engine.state import Talk
from game.errors import GameError
from game.mind.view import Conversation
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

class SaveError(GameError):
    """A save that cannot be written or read; the message names the file and the problem."""


# ------------------------------------------------------------------------------- helpers


def iso_time(d: datetime | None) -> str | None:
    return d.isoformat() if d is not None else None


def time_of(s: str | None) -> datetime | None:
    return datetime.fromisoformat(s) if s else None


def conv_dict(conv: Conversation, talk: Talk | None = None) -> dict:
    d: dict[str, object] = {"id": conv.id, "participants": list(conv.participants), "place": conv.place,
         "lines": [list(x) for x in conv.lines], "started": iso_time(conv.started),
         "with_player": conv.with_player, "importance": conv.importance,
         "checks": {str(i): list(n) for i, n in conv.checks.items()}, "withheld": [list(w) for w in conv.withheld],
         "joined": dict(conv.joined)}
    if talk is not None:
        d.update(turn=talk.turn, max_lines=talk.max_lines, last_at=iso_time(talk.last_at), mode=talk.mode,
                 sides=dict(talk.sides), script=[list(x) for x in talk.script], next_at=iso_time(talk.next_at),
                 goes_on=talk.goes_on)
    return d


def talk_from(d: dict) -> Talk:
    """An active talk as ``conv_dict`` wrote it (a save from before scripts: a talk by lines)."""
    mode = d.get("mode", "lines")
    return Talk(conv=conv_from(d), turn=int(d.get("turn", 0)), max_lines=int(d.get("max_lines", 8)),
                last_at=time_of(d.get("last_at")), mode=mode if mode in ("", "script", "lines") else "lines",
                sides={str(k): str(v) for k, v in (d.get("sides") or {}).items()},
                script=[(str(s), str(t)) for s, t in d.get("script") or []], next_at=time_of(d.get("next_at")),
                goes_on=d["goes_on"] if d.get("goes_on") in ("cut", "asked") else "")


def conv_from(d: dict) -> Conversation:
    return Conversation(id=d["id"], participants=list(d["participants"]), place=d.get("place", ""),
                        lines=[(s, t) for s, t in d["lines"]], started=time_of(d.get("started")),
                        with_player=bool(d.get("with_player")), importance=_rating_of(d.get("importance")),
                        checks=_checks_of(d.get("checks")), withheld=_withheld_of(d.get("withheld")),
                        joined=_joined_of(d.get("joined")))


def _joined_of(v: object) -> dict[str, int]:
    """Who joined a talk after it began, at which line (none in a save from before it was kept)."""
    if not isinstance(v, dict):
        return {}
    return {str(k): n for k, n in v.items() if isinstance(n, int) and not isinstance(n, bool) and n >= 0}


def _checks_of(v: object) -> dict[int, list[str]]:
    """A talk's line checks as saved (none in a save from before them)."""
    if not isinstance(v, dict):
        return {}
    return {int(k): [str(n) for n in notes] for k, notes in v.items()
            if str(k).isdigit() and isinstance(notes, list)}


def _withheld_of(v: object) -> list[tuple[str, str, str]]:
    if not isinstance(v, list):
        return []
    return [(str(w[0]), str(w[1]), str(w[2])) for w in v if isinstance(w, list) and len(w) == 3]


def _rating_of(v: object) -> float | None:
    """A talk's rating as saved: a number from 1 to 10, else none (a save from before ratings)."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 1 <= v <= 10:
        return None
    return float(v)


# ------------------------------------------------------------------------------- writing


def _journal(path: Path) -> Path:
    return Path(str(path) + "-journal")


def recover(path: Path) -> None:
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


def drop_journal(path: Path) -> None:
    """Before a whole save replaces ``path``: no journal of the old file may be played on the new one."""
    recover(path)
    if _journal(path).exists():
        atomic.drop(_journal(path))


def chunk_count(n: int) -> int:
    return (n + CHUNK - 1) // CHUNK


def os_words(path: Path, e: OSError) -> str:
    import errno

    why = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
           errno.EROFS: "the folder is read-only", errno.EACCES: "no permission to write there",
           errno.EPERM: "no permission to write there",
           errno.ENOENT: "the folder is gone"}.get(e.errno or 0, e.strerror or str(e))
    return f"cannot save to '{path}': {why}; the town is not lost, save it elsewhere"


def sqlite_words(path: Path, e: sqlite3.Error) -> str:
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


def error_line(e: BaseException, limit: int = 160) -> str:
    """An error's text fit for a one-line message (damaged bytes quoted in it dropped), capped."""
    return one_line(str(e), limit)
