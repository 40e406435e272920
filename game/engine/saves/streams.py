"""A resident's memories in a save: written in segments of records (columns as little-endian
arrays, texts as one JSON list) and chunks of what changes (last access, importance, scored), whole
or only what changed since the file's ``StreamSync``.  See writing.py and docs/SAVES.md."""

from __future__ import annotations

import json
import sqlite3

import numpy as np

from game.engine.saves.fileformat import CHUNK, SEGMENT, chunk_count
from game.engine.state import StreamSync
from game.mind.memory.stream import MemoryImage


def _segment_row(name: str, img: MemoryImage, a: int, b: int) -> tuple:
    dim = int(img.dim or 0)
    # the rows as they are in memory, handed to SQLite without another copy
    emb = np.ascontiguousarray(img.embeddings(a, b), dtype="<f4").data.cast("B") if dim else b""
    return (name, a, b - a, dim, np.asarray(img.kind[a:b], dtype=np.int8).tobytes(),
            np.asarray(img.created[a:b], dtype="<f8").tobytes(), img.has_emb[a:b].astype(np.uint8).tobytes(),
            emb, json.dumps(img.text[a:b]), json.dumps([list(e) for e in img.evidence[a:b]]))


def _state_row(name: str, img: MemoryImage, c: int) -> tuple:
    a, b = c * CHUNK, min(img.n, (c + 1) * CHUNK)
    return (name, c, img.access[a:b].astype("<f8").tobytes(), img.importance[a:b].astype("<f4").tobytes(),
            img.scored[a:b].astype(np.uint8).tobytes())


def write_stream(db: sqlite3.Connection, name: str, img: MemoryImage, old: StreamSync | None) -> StreamSync:
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
        chunks = list(range(chunk_count(n)))
    else:
        assert img.changed_state is not None  # (checked above: else the image is written whole)
        segs = list(old.segments)
        starts = np.array([a for a, _ in segs], dtype=np.int64)
        changed = img.changed[img.changed < old.n] if img.changed is not None else np.zeros(0, np.int64)
        dirty = (set(int(i) for i in np.unique(np.searchsorted(starts, changed, side="right") - 1))
                 if len(segs) else set())
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
                        set(range(old.n // CHUNK, chunk_count(n))))
    if gone:
        db.executemany("DELETE FROM memory_segments WHERE resident = ? AND start = ?", [(name, a) for a in gone])
    for a, c in write:  # one at a time: a segment is up to 1.5 MB of embeddings
        db.execute("INSERT OR REPLACE INTO memory_segments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   _segment_row(name, img, a, a + c))
    for c in chunks:
        db.execute("INSERT OR REPLACE INTO memory_state VALUES (?, ?, ?, ?, ?)", _state_row(name, img, c))
    return StreamSync(uid=img.uid, version=img.version, n=n, dim=dim, segments=segs)
