"""The memory stream: every observation, conversation, whisper, plan and reflection of a resident.

Retrieval follows Park et al. 2023: score = w_rec * recency + w_imp * importance + w_rel * relevance,
each term min-max normalised over the candidates; recency decays by 0.99 per game hour since the
record was last accessed; relevance is the cosine similarity of the record's embedding to the query.
Records that are retrieved have their last access refreshed.

Everything that is scored lives in numpy arrays (a preallocated float32 embedding matrix that
grows by doubling), so a query over 100k records is one matrix-vector product.  From
``PREFILTER_MIN`` records on, a retrieval first picks candidates cheaply (recency and importance,
which are exact and cheap, and relevance in a 64-dimension projection) and scores only those
exactly; below it every record is scored exactly (``retrieve`` docstring).

Saves read a stream through ``image()``: a consistent view taken in microseconds on the thread
that owns the stream, safe to read from another thread while the stream goes on (the rows a save
reads are never written again; the arrays that do change are copied).  Every change bumps a
version, kept per row, so a save can write only what changed since the version it last wrote.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from game.mind.memory.columns import Columns
from game.mind.memory.image import MemoryImage, fill, image_capacity, take_image, to_rows
from game.mind.memory.prefilter import Prefilter
from game.mind.memory.scoring import (
    KINDS,
    PREFILTER_CANDIDATES,
    PREFILTER_DIM,
    PREFILTER_MIN,
    PREFILTER_SAMPLE,
    PREFILTER_STEP,
    Kind,
    Weights,
    clamp_importance,
    estimate_tokens,
    from_game_hours,
    game_hours,
    minmax,
)

# (the parts of a stream live in scoring.py and image.py; the rest of the game imports here)
__all__ = ["KINDS", "PREFILTER_CANDIDATES", "PREFILTER_DIM", "PREFILTER_MIN", "PREFILTER_SAMPLE", "PREFILTER_STEP",
           "Kind", "MemoryImage", "MemoryStream", "Record", "Weights", "clamp_importance", "estimate_tokens",
           "from_game_hours", "game_hours"]

DEFAULT_WEIGHTS = Weights()  # frozen: one instance serves every stream as its default


@dataclass(frozen=True)
class Record:
    id: int
    kind: str
    text: str
    created: datetime
    last_access: datetime
    importance: float  # 1..10
    evidence: tuple[int, ...] = ()
    scored: bool = True  # False while the importance is provisional (waiting for a batch call)


class MemoryStream:
    """A resident's records, made of parts: the ``columns`` that hold them, the ``prefilter`` of a
    large stream's retrieval (prefilter.py), and what a save takes (image.py)."""

    def __init__(self, *, decay: float = 0.99, weights: Weights = DEFAULT_WEIGHTS, capacity: int = 64) -> None:
        self.decay = float(decay)
        self.weights = weights
        self.columns = Columns(capacity)
        self.prefilter = Prefilter(self.columns)
        # what ``unscored`` read last: as of (version, rows), the ids and when each was made
        self._unscored: tuple[tuple[int, int], list[int], list[float]] = ((-1, -1), [], [])
        self.uid = secrets.token_hex(8)  # who this stream is: a save made of another stream is written whole

    @classmethod
    def from_image(cls, img: MemoryImage, *, owned: bool = False, decay: float = 0.99,
                   weights: Weights = DEFAULT_WEIGHTS) -> MemoryStream:
        """A stream from a save's image, in one go (``fill``, image.py)."""
        m = cls(decay=decay, weights=weights, capacity=image_capacity(img, owned))
        fill(m.columns, img, owned)
        return m

    @classmethod
    def from_rows(cls, rows: Iterable[dict], *, decay: float = 0.99,
                  weights: Weights = DEFAULT_WEIGHTS) -> MemoryStream:
        """A stream from ``to_rows``' rows (record ids 0..n-1), record by record."""
        rows = sorted(rows, key=lambda r: int(r["id"]))
        m = cls(decay=decay, weights=weights, capacity=max(64, len(rows)))
        for expect, r in enumerate(rows):
            if int(r["id"]) != expect:
                raise ValueError(f"memory rows: record ids must run 0..n-1 without gaps; "
                                 f"found {r['id']} where {expect} was expected")
            created = datetime.fromisoformat(r["created"])
            ev = r.get("evidence") or "[]"
            ev = json.loads(ev) if isinstance(ev, str) else list(ev)
            emb = r.get("embedding")
            vec = np.frombuffer(emb, dtype="<f4") if emb else None
            scored = bool(r.get("scored", 1))
            rid = m.add(r["kind"], r["text"], created, importance=float(r["importance"]),
                        evidence=ev, embedding=vec)
            m.set_scored(rid, scored)
            m.columns.access[rid] = game_hours(datetime.fromisoformat(r["last_access"]))
        return m

    # ------------------------------------------------------------------ storage
    def __len__(self) -> int:
        return self.columns.n

    @property
    def dim(self) -> int | None:
        return self.columns.dim

    @property
    def version(self) -> int:
        """Bumped by every change: a save names what it holds of the stream by (uid, version)."""
        return self.columns.ver

    def image(self, since: int | None = None) -> MemoryImage:
        """This stream as it is now, for a save (``take_image``, image.py)."""
        return take_image(self.columns, self.uid, self.decay, since)

    def to_rows(self) -> list[dict]:
        """One plain dict per record, for a SQLite table (embedding as float32 bytes or None)."""
        return to_rows(self.columns)

    def warm_prefilter(self) -> bool:
        """Project every row now (benchmarks, tests, a pause): True when the prefilter is ready."""
        return self.prefilter.warm()

    def _grow(self, need: int) -> None:
        cap = self.columns.grow(need)
        if cap is not None:
            self.prefilter.grew(cap)

    def add(self, kind: str, text: str, now: datetime, *, importance: float | None = None,
            evidence: Iterable[int] = (), embedding: Sequence[float] | np.ndarray | None = None) -> int:
        """Store a record; ``importance=None`` stores a provisional 3 to be scored later."""
        if kind not in KINDS:
            raise ValueError(f"memory record kind {kind!r} is not one of {', '.join(KINDS)}")
        text = " ".join(str(text).split())
        i = self.columns.n
        self._grow(i + 1)
        imp = clamp_importance(importance) if importance is not None else 3.0
        self.columns.append(KINDS.index(kind), text, game_hours(now), imp, importance is not None,
                            tuple(int(e) for e in evidence if 0 <= int(e) < i))
        if embedding is not None:
            self.set_embedding(i, embedding)
        return i

    def add_many(self, kind: str, texts: Sequence[str], created: Sequence[datetime],
                 importance: Sequence[float], embeddings: np.ndarray | None = None) -> range:
        """Store many scored records at once (bulk loads, benchmarks); returns their ids."""
        if kind not in KINDS:
            raise ValueError(f"memory record kind {kind!r} is not one of {', '.join(KINDS)}")
        n = len(texts)
        if not (len(created) == len(importance) == n):
            raise ValueError("add_many: texts, created and importance must have the same length")
        i0 = self.columns.n
        self._grow(i0 + n)
        hours = np.fromiter((game_hours(t) for t in created), dtype=np.float64, count=n)
        self.columns.extend(KINDS.index(kind), [" ".join(str(t).split()) for t in texts], hours,
                            np.clip(np.asarray(importance, dtype=np.float32), 1.0, 10.0))
        if embeddings is not None:
            e = np.asarray(embeddings, dtype=np.float32)
            if e.shape[0] != n:
                raise ValueError("add_many: one embedding per text is needed")
            self.columns.put_embeddings(i0, e)
        return range(i0, i0 + n)

    def set_embedding(self, rid: int, vec: Sequence[float] | np.ndarray) -> None:
        self.columns.put_embedding(rid, np.asarray(vec, dtype=np.float32).reshape(-1))
        self.prefilter.embedded(rid)

    def set_importance(self, rid: int, importance: float) -> None:
        self.columns.imp[rid] = clamp_importance(importance)
        self.columns.scored[rid] = True
        self.columns.ver += 1
        self.columns.state_ver[rid] = self.columns.ver

    def set_scored(self, rid: int, scored: bool) -> None:
        """Mark a record's importance as final (or as provisional again, for tests and loads)."""
        self.columns.scored[rid] = bool(scored)
        if not scored:
            self.columns.scored_below = min(self.columns.scored_below, rid)
        self.columns.ver += 1
        self.columns.state_ver[rid] = self.columns.ver

    def unembedded(self) -> list[int]:
        return [int(i) for i in np.flatnonzero(~self.columns.has_emb[: self.columns.n])]

    def unscored(self, until: datetime | None = None) -> list[int]:
        """Records whose importance is provisional (created at or before ``until``, if given).  Only
        the records from the first one not scored are read (``Columns.scored_below``), and only when
        the stream changed: asked for every resident at every step, the whole column was a twelfth of
        a 1,000-resident town's step."""
        c = self.columns
        if self._unscored[0] != (c.ver, c.n):  # (else as last read: most residents at most steps)
            lo = c.scored_below
            todo = ~c.scored[lo: c.n]
            first = int(np.argmax(todo)) if todo.any() else len(todo)
            c.scored_below = lo = lo + first
            ids = [lo + int(i) for i in np.flatnonzero(todo[first:])]
            self._unscored = ((c.ver, c.n), ids, [float(c.created[i]) for i in ids])
        _, ids, made = self._unscored
        if until is None or not ids:
            return list(ids)
        h = game_hours(until)
        return [i for i, m in zip(ids, made) if m <= h]

    def later_than(self, now: datetime) -> np.ndarray:
        """Ids of the records created after ``now``.  The engine stores what a talk left (and a
        whisper) at the tick it happens, while a decision asked at an earlier tick may still be
        running: that decision does not see them (``retrieve``, ``unscored``, ``importance_since``
        take its ``now``), so what it is asked does not depend on how long its calls took, and
        a run and its replay ask the same."""
        return np.flatnonzero(self.columns.created[: self.columns.n] > game_hours(now))

    def get(self, rid: int) -> Record:
        if not 0 <= rid < self.columns.n:
            raise KeyError(rid)
        return Record(id=rid, kind=KINDS[int(self.columns.kind[rid])], text=self.columns.text[rid],
                      created=from_game_hours(self.columns.created[rid]),
                      last_access=from_game_hours(self.columns.access[rid]),
                      importance=float(self.columns.imp[rid]), evidence=self.columns.evidence[rid],
                      scored=bool(self.columns.scored[rid]))

    def created_at(self, rid: int) -> datetime:
        """When record ``rid`` was made (``get(rid).created``, without the rest of the record)."""
        if not 0 <= rid < self.columns.n:
            raise KeyError(rid)
        return from_game_hours(self.columns.created[rid])

    def text(self, rid: int) -> str:
        return self.columns.text[rid]

    def recent(self, n: int, kinds: Iterable[str] | None = None, until: datetime | None = None) -> list[Record]:
        ids: Iterable[int] = range(self.columns.n - 1, -1, -1)
        if kinds is not None:
            ks = {KINDS.index(k) for k in kinds}
            ids = (i for i in ids if int(self.columns.kind[i]) in ks)
        if until is not None:
            h = game_hours(until)
            ids = (i for i in ids if self.columns.created[i] <= h)
        out = []
        for i in ids:
            out.append(self.get(i))
            if len(out) >= n:
                break
        return out[::-1]

    def find_recent_text(self, text: str, since: datetime,
                         key: Callable[[str], str] | None = None) -> int | None:
        """The id of a record with exactly this text created at or after ``since`` (or, with
        ``key``, one whose text has the same key)."""
        text = " ".join(str(text).split())
        h = game_hours(since)
        want = key(text) if key is not None else text
        for i in range(self.columns.n - 1, -1, -1):
            if self.columns.created[i] < h:
                return None
            if (key(self.columns.text[i]) if key is not None else self.columns.text[i]) == want:
                return i
        return None

    def importance_since(self, since: datetime | None, until: datetime | None = None) -> float:
        """Summed importance of the records created after ``since`` (and at or before ``until``,
        if given): the reflection trigger."""
        if self.columns.n == 0:
            return 0.0
        if since is None and until is None:
            return float(self.columns.imp[: self.columns.n].sum())
        mask = np.ones(self.columns.n, dtype=bool)
        if since is not None:
            mask &= self.columns.created[: self.columns.n] > game_hours(since)
        if until is not None:
            mask &= self.columns.created[: self.columns.n] <= game_hours(until)
        return float(self.columns.imp[: self.columns.n][mask].sum())

    def touch(self, ids: Iterable[int], now: datetime) -> None:
        idx = np.fromiter((int(i) for i in ids), dtype=np.int64)
        if idx.size:
            self.columns.access[idx] = game_hours(now)
            self.columns.ver += 1
            self.columns.state_ver[idx] = self.columns.ver

    # ---------------------------------------------------------------- retrieval
    def scores(self, query: Sequence[float] | np.ndarray | None, now: datetime,
               kinds: Iterable[str] | None = None, weights: Weights | None = None,
               hide: np.ndarray | None = None) -> np.ndarray:
        """Retrieval score of every record (``-inf`` for records outside ``kinds``).

        Written for 100k records in a few milliseconds: float32 throughout, one matrix-vector
        product for relevance (float32, as the embeddings are stored), and no masked copies when
        every record counts (the usual case).  The weighing is in float64, so the order of records
        with nearly equal scores, and with it every prompt that lists memories, stays as it was."""
        n = self.columns.n
        w = weights or self.weights
        if n == 0:
            return np.zeros(0, dtype=np.float64)
        mask: np.ndarray | None = None
        if kinds is not None:
            ks = np.array([KINDS.index(k) for k in kinds], dtype=np.int8)
            mask = np.isin(self.columns.kind[:n], ks)
        if hide is not None and hide.size:  # records that do not count (not even in the min-max)
            if mask is None:
                mask = np.ones(n, dtype=bool)
            mask[hide] = False
        # recency = decay ** hours since last access, as exp(hours * ln decay)
        hours = game_hours(now) - self.columns.access[:n]
        np.maximum(hours, 0.0, out=hours)
        hours *= np.log(self.decay)
        recency = np.exp(hours, out=hours)  # decay ** hours, in half the time of np.power
        score = minmax(recency, mask, w.recency)
        score += minmax(self.columns.imp[:n], mask, w.importance)
        if query is not None and self.columns.emb is not None:
            q = np.asarray(query, dtype=np.float32).reshape(-1)
            if q.shape[0] != self.columns.dim:
                raise ValueError(f"query embedding of size {q.shape[0]} does not match {self.columns.dim}")
            qn = float(np.linalg.norm(q))
            if qn > 0:
                q = q / np.float32(qn)
            relevance = self.columns.emb[:n] @ q  # a record not yet embedded has a zero row: relevance 0
        else:
            relevance = np.zeros(n, dtype=np.float64)
        score += minmax(relevance, mask, w.relevance)
        if mask is not None:
            score[~mask] = -np.inf
        return score

    def retrieve(self, query: Sequence[float] | np.ndarray | None, now: datetime, *, k: int = 10,
                 token_budget: int | None = None, kinds: Iterable[str] | None = None,
                 weights: Weights | None = None, refresh: bool = True,
                 exclude: Iterable[int] = (), exact: bool = False) -> list[Record]:
        """The best records, best first: at most ``k`` and, if given, within ``token_budget``.

        Below ``PREFILTER_MIN`` records (and with ``exact``) every record is scored exactly (the
        recorded fixtures rely on it).  From there on the matrix-vector product over every
        embedding (memory-bound: 154 MB for 100k records) is the cost, so candidates are picked
        first: the best by recency + importance (exact and cheap) and the best by relevance in a
        64-dimension projection (prefilter.py); only they, and an even spread of records that
        bounds the relevance's min-max, are scored exactly.  The top 10 agrees with exact scoring
        on 99%+ of queries (tests/mind/test_memory.py; docs/BENCHMARKS.md gives the figure)."""
        ex = list(exclude)
        late = self.later_than(now)  # (see later_than; rare: the exact path for them)
        if late.size:
            s = self.scores(query, now, kinds, weights, hide=late)
            if ex:
                s[np.asarray(ex, dtype=np.int64)] = -np.inf
            return self._pick(None, s, k, token_budget, now, refresh)
        if (not exact and self.columns.n >= PREFILTER_MIN and query is not None and self.columns.emb is not None
                and int(k) <= PREFILTER_CANDIDATES // 4):
            got = self.prefilter.candidates(query, now, kinds, weights or self.weights, ex, self.decay)
            if got is not None:
                ids, s = got
                return self._pick(ids, s, k, token_budget, now, refresh)
        s = self.scores(query, now, kinds, weights)
        if s.size == 0:
            return []
        if ex:
            s[np.asarray(ex, dtype=np.int64)] = -np.inf
        return self._pick(None, s, k, token_budget, now, refresh)

    def _pick(self, ids: np.ndarray | None, s: np.ndarray, k: int, token_budget: int | None,
              now: datetime, refresh: bool) -> list[Record]:
        """The best ``k`` of scores ``s`` (of records ``ids``, or of all), best first, in the budget."""
        finite = int(np.isfinite(s).sum())
        k = max(0, min(int(k), finite))
        if k == 0:
            return []
        top = np.argpartition(s, s.size - k)[s.size - k:] if k < s.size else np.arange(s.size)
        top = top[np.argsort(-s[top], kind="stable")]
        chosen: list[int] = []
        used = 0
        for i in top:
            if not np.isfinite(s[i]):
                break
            rid = int(i) if ids is None else int(ids[i])
            cost = estimate_tokens(self.columns.text[rid])
            if token_budget is not None and used + cost > token_budget:
                continue
            chosen.append(rid)
            used += cost
        if refresh:
            self.touch(chosen, now)
        return [self.get(i) for i in chosen]
