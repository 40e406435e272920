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
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Iterable, Literal, Sequence

import numpy as np

Kind = Literal["observation", "conversation", "whisper", "plan", "reflection", "player"]
KINDS: tuple[str, ...] = ("observation", "conversation", "whisper", "plan", "reflection", "player")

_EPOCH = datetime(2000, 1, 1)


def game_hours(t: datetime) -> float:
    """Hours since a fixed epoch (naive datetimes are game time; aware ones are made naive UTC)."""
    if t.tzinfo is not None:
        t = t.astimezone(timezone.utc).replace(tzinfo=None)
    return (t - _EPOCH).total_seconds() / 3600.0


def from_game_hours(h: float) -> datetime:
    from datetime import timedelta

    return _EPOCH + timedelta(hours=float(h))


def estimate_tokens(text: str) -> int:
    """A cheap token estimate (about four characters a token for English)."""
    return len(text) // 4 + 2


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


@dataclass(frozen=True)
class Weights:
    recency: float = 1.0
    importance: float = 1.0
    relevance: float = 1.0


PREFILTER_MIN = 20_000  # from this many records on, retrieval scores candidates only (see retrieve)
PREFILTER_DIM = 64  # the projection the relevance prefilter uses
PREFILTER_CANDIDATES = 1024  # candidates by recency + importance, and as many by projected relevance
PREFILTER_SAMPLE = 2048  # rows (evenly spread) whose exact relevance bounds the min-max with the candidates
PREFILTER_STEP = 4096  # rows projected per retrieval until all are (a fixed number: the same results every run)


@dataclass
class MemoryImage:
    """A stream as it was at one moment, for a save: cheap to take, safe to read from a thread.

    ``kind``, ``created``, ``text``, ``evidence`` and the embedding rows that ``has_emb`` marks
    are never written again once stored (records are only appended; an embedding is only set on
    a record that had none), so they are shared, not copied, and read up to ``n`` only; ``emb``
    rows not marked in ``has_emb`` may be written meanwhile and must be read as zeros.  The
    arrays that do change (last access, importance, scored, has_emb) are copies.  ``changed``
    and ``changed_state``: the records whose stored data, or whose access/importance/scored,
    changed after the version asked for (None: all of them)."""

    uid: str
    version: int
    n: int
    dim: int | None
    kind: np.ndarray  # int8 [>= n], indices into KINDS
    created: np.ndarray  # float64 [>= n], game hours
    text: list[str]
    evidence: list[tuple[int, ...]]
    emb: np.ndarray | None  # float32 [>= n, dim], unit rows
    has_emb: np.ndarray  # bool [n]
    access: np.ndarray  # float64 [n], game hours
    importance: np.ndarray  # float32 [n]
    scored: np.ndarray  # bool [n]
    changed: np.ndarray | None = None  # int64 record ids
    changed_state: np.ndarray | None = None
    decay: float = 0.99
    extra: dict = field(default_factory=dict)

    def embeddings(self, a: int, b: int) -> np.ndarray:
        """Rows ``a:b`` of the embeddings as float32 (zeros for records without one): a view when
        every one of them has its embedding (those rows are never written again), else a copy."""
        if self.emb is None or self.dim is None:
            return np.zeros((b - a, 0), dtype=np.float32)
        if self.has_emb[a:b].all():
            return self.emb[a:b]
        rows = np.array(self.emb[a:b], dtype=np.float32)  # a copy: rows without one may change
        rows[~self.has_emb[a:b]] = 0.0
        return rows


class MemoryStream:
    def __init__(self, *, decay: float = 0.99, weights: Weights = Weights(), capacity: int = 64) -> None:
        self.decay = float(decay)
        self.weights = weights
        self._n = 0
        self._cap = max(1, capacity)
        self._dim: int | None = None
        self._emb: np.ndarray | None = None  # float32 [cap, dim], unit rows
        self._has_emb = np.zeros(self._cap, dtype=bool)
        self._created = np.zeros(self._cap, dtype=np.float64)
        self._access = np.zeros(self._cap, dtype=np.float64)
        self._imp = np.zeros(self._cap, dtype=np.float32)
        self._scored = np.zeros(self._cap, dtype=bool)
        self._kind = np.zeros(self._cap, dtype=np.int8)
        self._text: list[str] = []
        self._evidence: list[tuple[int, ...]] = []
        # saves: who this stream is (a save made of another stream is written whole) and versions
        self.uid = secrets.token_hex(8)
        self._ver = 0  # bumped by every change
        self._row_ver = np.zeros(self._cap, dtype=np.int64)  # stored data (text, kind, embedding...)
        self._state_ver = np.zeros(self._cap, dtype=np.int64)  # last access, importance, scored
        self._emb_shared = False  # an image holds the embedding matrix: copy before overwriting a row
        self._proj: np.ndarray | None = None  # the prefilter's projected rows (float32 [cap, PREFILTER_DIM])
        self._proj_basis: np.ndarray | None = None  # float32 [dim, PREFILTER_DIM]
        self._proj_n = 0  # rows projected so far

    # ------------------------------------------------------------------ storage
    def __len__(self) -> int:
        return self._n

    @property
    def dim(self) -> int | None:
        return self._dim

    def _grow(self, need: int) -> None:
        if need <= self._cap:
            return
        cap = self._cap
        while cap < need:
            cap *= 2

        def grow(a: np.ndarray) -> np.ndarray:
            b = np.zeros((cap,) + a.shape[1:], dtype=a.dtype)
            b[: self._n] = a[: self._n]
            return b

        self._has_emb = grow(self._has_emb)
        self._created = grow(self._created)
        self._access = grow(self._access)
        self._imp = grow(self._imp)
        self._scored = grow(self._scored)
        self._kind = grow(self._kind)
        self._row_ver = grow(self._row_ver)
        self._state_ver = grow(self._state_ver)
        if self._emb is not None:
            self._emb = grow(self._emb)
            self._emb_shared = False  # a new matrix: images keep the old one
        if self._proj is not None:
            self._proj = grow(self._proj)
        self._cap = cap

    def add(self, kind: str, text: str, now: datetime, *, importance: float | None = None,
            evidence: Iterable[int] = (), embedding: Sequence[float] | np.ndarray | None = None) -> int:
        """Store a record; ``importance=None`` stores a provisional 3 to be scored later."""
        if kind not in KINDS:
            raise ValueError(f"memory record kind {kind!r} is not one of {', '.join(KINDS)}")
        text = " ".join(str(text).split())
        i = self._n
        self._grow(i + 1)
        h = game_hours(now)
        self._created[i] = h
        self._access[i] = h
        self._imp[i] = clamp_importance(importance) if importance is not None else 3.0
        self._scored[i] = importance is not None
        self._kind[i] = KINDS.index(kind)
        self._text.append(text)
        self._evidence.append(tuple(int(e) for e in evidence if 0 <= int(e) < i))
        self._ver += 1
        self._row_ver[i] = self._state_ver[i] = self._ver
        self._n += 1
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
        i0 = self._n
        self._grow(i0 + n)
        hours = np.fromiter((game_hours(t) for t in created), dtype=np.float64, count=n)
        self._created[i0:i0 + n] = hours
        self._access[i0:i0 + n] = hours
        self._imp[i0:i0 + n] = np.clip(np.asarray(importance, dtype=np.float32), 1.0, 10.0)
        self._scored[i0:i0 + n] = True
        self._kind[i0:i0 + n] = KINDS.index(kind)
        self._text.extend(" ".join(str(t).split()) for t in texts)
        self._evidence.extend(() for _ in range(n))
        self._ver += 1
        self._row_ver[i0:i0 + n] = self._state_ver[i0:i0 + n] = self._ver
        self._n += n
        if embeddings is not None:
            e = np.asarray(embeddings, dtype=np.float32)
            if e.shape[0] != n:
                raise ValueError("add_many: one embedding per text is needed")
            if self._dim is None:
                self._dim = int(e.shape[1])
                self._emb = np.zeros((self._cap, self._dim), dtype=np.float32)
            if e.shape[1] != self._dim:
                raise ValueError(f"embedding of size {e.shape[1]} does not match the stream's size {self._dim}")
            norms = np.linalg.norm(e, axis=1, keepdims=True)
            norms[norms == 0] = 1.0
            assert self._emb is not None
            self._emb[i0:i0 + n] = e / norms  # fresh rows: no image reads them
            self._has_emb[i0:i0 + n] = True
        return range(i0, i0 + n)

    def set_embedding(self, rid: int, vec: Sequence[float] | np.ndarray) -> None:
        v = np.asarray(vec, dtype=np.float32).reshape(-1)
        if self._dim is None:
            self._dim = int(v.shape[0])
            self._emb = np.zeros((self._cap, self._dim), dtype=np.float32)
        if v.shape[0] != self._dim:
            raise ValueError(f"embedding of size {v.shape[0]} does not match the stream's size {self._dim}")
        if not np.all(np.isfinite(v)):  # a NaN/inf vector would blind every retrieval: no relevance
            v = np.zeros_like(v)
        norm = float(np.linalg.norm(v))
        assert self._emb is not None
        if self._emb_shared and self._has_emb[rid]:  # an image reads this row: it keeps the old matrix
            self._emb = self._emb.copy()
            self._emb_shared = False
        self._emb[rid] = v / norm if norm > 0 else v
        self._has_emb[rid] = True
        self._ver += 1
        self._row_ver[rid] = self._ver
        if self._proj is not None and rid < self._proj_n:
            self._proj[rid] = self._emb[rid] @ self._proj_basis

    def set_importance(self, rid: int, importance: float) -> None:
        self._imp[rid] = clamp_importance(importance)
        self._scored[rid] = True
        self._ver += 1
        self._state_ver[rid] = self._ver

    def set_scored(self, rid: int, scored: bool) -> None:
        """Mark a record's importance as final (or as provisional again, for tests and loads)."""
        self._scored[rid] = bool(scored)
        self._ver += 1
        self._state_ver[rid] = self._ver

    def unembedded(self) -> list[int]:
        return [int(i) for i in np.flatnonzero(~self._has_emb[: self._n])]

    def unscored(self) -> list[int]:
        return [int(i) for i in np.flatnonzero(~self._scored[: self._n])]

    def get(self, rid: int) -> Record:
        if not 0 <= rid < self._n:
            raise KeyError(rid)
        return Record(id=rid, kind=KINDS[int(self._kind[rid])], text=self._text[rid],
                      created=from_game_hours(self._created[rid]),
                      last_access=from_game_hours(self._access[rid]),
                      importance=float(self._imp[rid]), evidence=self._evidence[rid],
                      scored=bool(self._scored[rid]))

    def text(self, rid: int) -> str:
        return self._text[rid]

    def recent(self, n: int, kinds: Iterable[str] | None = None) -> list[Record]:
        ids = range(self._n - 1, -1, -1)
        if kinds is not None:
            ks = {KINDS.index(k) for k in kinds}
            ids = (i for i in ids if int(self._kind[i]) in ks)
        out = []
        for i in ids:
            out.append(self.get(i))
            if len(out) >= n:
                break
        return out[::-1]

    def find_recent_text(self, text: str, since: datetime) -> int | None:
        """The id of a record with exactly this text created at or after ``since``."""
        text = " ".join(str(text).split())
        h = game_hours(since)
        for i in range(self._n - 1, -1, -1):
            if self._created[i] < h:
                return None
            if self._text[i] == text:
                return i
        return None

    def importance_since(self, since: datetime | None) -> float:
        """Summed importance of the records created after ``since`` (the reflection trigger)."""
        if self._n == 0:
            return 0.0
        if since is None:
            return float(self._imp[: self._n].sum())
        mask = self._created[: self._n] > game_hours(since)
        return float(self._imp[: self._n][mask].sum())

    def touch(self, ids: Iterable[int], now: datetime) -> None:
        idx = np.fromiter((int(i) for i in ids), dtype=np.int64)
        if idx.size:
            self._access[idx] = game_hours(now)
            self._ver += 1
            self._state_ver[idx] = self._ver

    # ---------------------------------------------------------------- retrieval
    def scores(self, query: Sequence[float] | np.ndarray | None, now: datetime,
               kinds: Iterable[str] | None = None, weights: Weights | None = None) -> np.ndarray:
        """Retrieval score of every record (``-inf`` for records outside ``kinds``).

        Written for 100k records in a few milliseconds: float32 throughout, one matrix-vector
        product for relevance (float32, as the embeddings are stored), and no masked copies when
        every record counts (the usual case).  The weighing is in float64, so the order of records
        with nearly equal scores, and with it every prompt that lists memories, stays as it was."""
        n = self._n
        w = weights or self.weights
        if n == 0:
            return np.zeros(0, dtype=np.float64)
        mask: np.ndarray | None = None
        if kinds is not None:
            ks = np.array([KINDS.index(k) for k in kinds], dtype=np.int8)
            mask = np.isin(self._kind[:n], ks)
        # recency = decay ** hours since last access, as exp(hours * ln decay)
        hours = game_hours(now) - self._access[:n]
        np.maximum(hours, 0.0, out=hours)
        hours *= np.log(self.decay)
        recency = np.exp(hours, out=hours)  # decay ** hours, in half the time of np.power
        score = _minmax(recency, mask, w.recency)
        score += _minmax(self._imp[:n], mask, w.importance)
        if query is not None and self._emb is not None:
            q = np.asarray(query, dtype=np.float32).reshape(-1)
            if q.shape[0] != self._dim:
                raise ValueError(f"query embedding of size {q.shape[0]} does not match {self._dim}")
            qn = float(np.linalg.norm(q))
            if qn > 0:
                q = q / np.float32(qn)
            relevance = self._emb[:n] @ q  # a record not yet embedded has a zero row: relevance 0
        else:
            relevance = np.zeros(n, dtype=np.float64)
        score += _minmax(relevance, mask, w.relevance)
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
        64-dimension projection (``_projection``); only they, and an even spread of records that
        bounds the relevance's min-max, are scored exactly.  The top 10 agrees with exact scoring
        on 99%+ of queries (tests/mind/test_memory.py; docs/BENCHMARKS.md gives the figure)."""
        ex = list(exclude)
        if (not exact and self._n >= PREFILTER_MIN and query is not None and self._emb is not None
                and int(k) <= PREFILTER_CANDIDATES // 4):
            got = self._prefiltered(query, now, kinds, weights or self.weights, ex)
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
            cost = estimate_tokens(self._text[rid])
            if token_budget is not None and used + cost > token_budget:
                continue
            chosen.append(rid)
            used += cost
        if refresh:
            self.touch(chosen, now)
        return [self.get(i) for i in chosen]

    def _projection(self) -> np.ndarray | None:
        """The prefilter's rows: each embedding projected on the top ``PREFILTER_DIM`` principal
        directions of the first ``PREFILTER_MIN`` records (so a loaded stream finds the same basis
        as the live one did).  Rows are projected ``PREFILTER_STEP`` a call, so that no retrieval
        stalls the town (100k rows at once took 2 s on the shared machine): None until every row
        is (retrieval then scores every record), and when there are no embeddings."""
        n = self._n
        if self._emb is None or self._dim is None or self._dim <= PREFILTER_DIM:
            return None
        if self._proj_basis is None:
            first = min(n, PREFILTER_MIN)
            rows = np.flatnonzero(self._has_emb[:first])
            if rows.size < PREFILTER_DIM:
                return None
            sample = self._emb[rows[np.linspace(0, rows.size - 1, min(rows.size, 2048)).astype(np.int64)]]
            gram = (sample.T @ sample).astype(np.float64)
            _, vecs = np.linalg.eigh(gram)  # ascending: the last columns are the top directions
            self._proj_basis = np.ascontiguousarray(vecs[:, ::-1][:, :PREFILTER_DIM], dtype=np.float32)
            self._proj = np.zeros((self._cap, PREFILTER_DIM), dtype=np.float32)
            self._proj_n = 0
            return None  # the basis was this call's work
        assert self._proj is not None
        if self._proj_n < n:
            b = min(n, self._proj_n + PREFILTER_STEP)
            self._proj[self._proj_n:b] = self._emb[self._proj_n:b] @ self._proj_basis
            self._proj_n = b
        return self._proj if self._proj_n >= n else None

    def warm_prefilter(self) -> bool:
        """Project every row now (benchmarks, tests, a pause): True when the prefilter is ready."""
        if self._n < PREFILTER_MIN:
            return False
        for _ in range(2 + self._n // PREFILTER_STEP):
            if self._projection() is not None:
                return True
        return False

    def _prefiltered(self, query: Sequence[float] | np.ndarray, now: datetime, kinds: Iterable[str] | None,
                     w: Weights, ex: list[int]) -> tuple[np.ndarray, np.ndarray] | None:
        """(candidate ids, their scores) for ``retrieve`` on a large stream; None: score them all.
        With ``kinds`` the work is done on those records only (their min-max is the exact one's
        too); when they are few, every one of them is scored exactly."""
        n = self._n
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if q.shape[0] != self._dim:
            raise ValueError(f"query embedding of size {q.shape[0]} does not match {self._dim}")
        qn = float(np.linalg.norm(q))
        if not qn > 0:
            return None
        q = q / np.float32(qn)
        proj = self._projection()
        if proj is None:
            return None
        assert self._emb is not None and self._proj_basis is not None
        pool: np.ndarray | None = None  # the records that count (None: all)
        if kinds is not None:
            ks = np.array([KINDS.index(k) for k in kinds], dtype=np.int8)
            pool = np.flatnonzero(np.isin(self._kind[:n], ks))
            if pool.size == 0:
                return None
        size = n if pool is None else int(pool.size)
        access = self._access[:n] if pool is None else self._access[pool]
        hours = game_hours(now) - access  # a new array either way
        np.maximum(hours, 0.0, out=hours)
        hours *= np.log(self.decay)
        base = _minmax(np.exp(hours, out=hours), None, w.recency)
        base += _minmax(self._imp[:n] if pool is None else self._imp[pool], None, w.importance)
        gone = None
        if ex:
            exa = np.unique(np.asarray(ex, dtype=np.int64))
            if pool is None:
                gone = exa[(exa >= 0) & (exa < n)]
            else:
                at = np.searchsorted(pool, exa)
                inside = at < size
                at, exa = at[inside], exa[inside]
                gone = at[pool[at] == exa]
            base[gone] = -np.inf
        c = PREFILTER_CANDIDATES
        left = size - (0 if gone is None else int(gone.size))  # records that may be chosen
        if left <= 2 * c + PREFILTER_SAMPLE:  # few enough: every one of them exactly
            pos = np.arange(size)
        else:
            # numpy's own loop, not BLAS: on a shared 2-core machine a threaded BLAS call of this
            # size waits for a busy core (4-12 ms where one core does it in 1 ms)
            approx = np.einsum("ij,j->i", proj[:n] if pool is None else proj[pool], q @ self._proj_basis)
            if gone is not None and gone.size:
                approx[gone] = np.nan  # argpartition puts NaN last: neither end's candidate
            top_end = left - c
            ends = np.argpartition(approx, (c, top_end))
            # the best by recency + importance and by projected relevance are the candidates; the
            # lowest by projected relevance and an even spread bound the min-max of the relevance
            mark = np.zeros(size, dtype=bool)  # the union, in order (cheaper than np.unique)
            mark[np.argpartition(base, size - c)[size - c:]] = True
            mark[ends[top_end:top_end + c]] = True
            mark[ends[:c]] = True
            mark[np.linspace(0, size - 1, PREFILTER_SAMPLE).astype(np.int64)] = True
            pos = np.flatnonzero(mark)
        ids = pos if pool is None else pool[pos]
        rel = np.einsum("ij,j->i", self._emb[ids], q)
        lo, hi = float(rel.min()), float(rel.max())
        if hi - lo < 1e-12:
            rel_n = np.full(ids.size, w.relevance * (0.5 if hi != 0 else 0.0))
        else:
            rel_n = (rel.astype(np.float64) - lo) / (hi - lo) * w.relevance
        return ids, base[pos] + rel_n

    # -------------------------------------------------------------------- saves
    def image(self, since: int | None = None) -> MemoryImage:
        """This stream as it is now, for a save (see ``MemoryImage``): a few small copies, so it is
        cheap on the thread that plays the town.  ``since``: a version a save holds; the image
        then names the records changed after it."""
        n = self._n
        if self._emb is not None:
            self._emb_shared = True
        img = MemoryImage(uid=self.uid, version=self._ver, n=n, dim=self._dim, kind=self._kind,
                          created=self._created, text=self._text, evidence=self._evidence, emb=self._emb,
                          has_emb=self._has_emb[:n].copy(), access=self._access[:n].copy(),
                          importance=self._imp[:n].copy(), scored=self._scored[:n].copy(), decay=self.decay)
        if since is not None:
            img.changed = np.flatnonzero(self._row_ver[:n] > since)
            img.changed_state = np.flatnonzero(self._state_ver[:n] > since)
        return img

    @classmethod
    def from_image(cls, img: MemoryImage, *, owned: bool = False, **kw) -> "MemoryStream":
        """A stream from an image (a loaded save's, built in one go: no record by record).
        ``owned``: the image's arrays are this stream's to keep (a save reader made them; the
        embedding matrix is then taken as it is, when it has room for the records).  Values a
        damaged save could hold are made safe: unknown kinds raise ``ValueError``, importances
        are clamped, non-finite embeddings count as none, evidence must point back."""
        n = int(img.n)
        emb = img.emb
        adopt = (owned and emb is not None and emb.dtype == np.float32 and emb.ndim == 2
                 and emb.flags.c_contiguous and emb.shape[0] >= n)
        cap = max(64, n, emb.shape[0] if adopt and emb is not None else 0)
        m = cls(capacity=cap, **kw)
        for name in ("kind", "created", "has_emb", "access", "importance", "scored"):
            if len(getattr(img, name)) < n:
                raise ValueError(f"memory image: {name} holds fewer than {n} records")
        if len(img.text) < n or len(img.evidence) < n:
            raise ValueError(f"memory image: texts or evidence for fewer than {n} records")
        kind = np.asarray(img.kind[:n], dtype=np.int8)
        if n and (kind.min() < 0 or kind.max() >= len(KINDS)):
            raise ValueError("memory image: a record of an unknown kind")
        m._kind[:n] = kind
        created = np.asarray(img.created[:n], dtype=np.float64)
        access = np.asarray(img.access[:n], dtype=np.float64)
        # game hours since 2000: a damaged save's random numbers would overflow a date when shown
        if not (np.all(np.abs(created) < 1e7) and np.all(np.abs(access) < 1e7)):
            raise ValueError("memory image: a record created or recalled at no time or out of time")
        m._created[:n] = created
        m._access[:n] = access
        imp = np.asarray(img.importance[:n], dtype=np.float32)
        m._imp[:n] = np.clip(np.where(np.isnan(imp), np.float32(3.0), imp), 1.0, 10.0)
        m._scored[:n] = np.asarray(img.scored[:n], dtype=bool)
        m._text = [" ".join(str(t).split()) for t in img.text[:n]] if not owned else list(img.text[:n])
        evidence = []
        for i, ev in enumerate(img.evidence[:n]):
            evidence.append(tuple(int(e) for e in ev if 0 <= int(e) < i) if ev else ())
        m._evidence = evidence
        if img.dim is not None and emb is not None:
            dim = int(img.dim)
            if emb.ndim != 2 or emb.shape[1] != dim or emb.shape[0] < n:
                raise ValueError(f"memory image: embeddings are not {n} rows of {dim}")
            has = np.asarray(img.has_emb[:n], dtype=bool)
            if adopt:
                m._emb = emb
            else:
                m._emb = np.zeros((cap, dim), dtype=np.float32)
                m._emb[:n] = emb[:n]
            rows = m._emb[:n]
            rows[~has] = 0.0
            with np.errstate(over="ignore", invalid="ignore"):
                norms = np.sqrt(np.einsum("ij,ij->i", rows, rows))
            lost = ~np.isfinite(norms)
            if lost.any():  # a NaN/inf/huge vector would blind every retrieval: no relevance
                rows[lost] = 0.0
            off = ~lost & (norms > 0) & (np.abs(norms - 1.0) > 1e-3)
            if off.any():  # stored rows are unit rows; a damaged one is made one again
                rows[off] /= norms[off, None]
            m._dim = dim
            m._has_emb[:n] = has
        m._n = n
        return m

    def to_rows(self) -> list[dict]:
        """One plain dict per record, for a SQLite table (embedding as float32 bytes or None)."""
        rows = []
        for i in range(self._n):
            emb = None
            if self._has_emb[i] and self._emb is not None:
                emb = self._emb[i].astype("<f4").tobytes()
            rows.append({
                "id": i, "kind": KINDS[int(self._kind[i])], "text": self._text[i],
                "created": from_game_hours(self._created[i]).isoformat(),
                "last_access": from_game_hours(self._access[i]).isoformat(),
                "importance": float(self._imp[i]), "scored": int(bool(self._scored[i])),
                "evidence": json.dumps(list(self._evidence[i])), "embedding": emb,
            })
        return rows

    @classmethod
    def from_rows(cls, rows: Iterable[dict], **kw) -> "MemoryStream":
        rows = sorted(rows, key=lambda r: int(r["id"]))
        m = cls(capacity=max(64, len(rows)), **kw)
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
            m._access[rid] = game_hours(datetime.fromisoformat(r["last_access"]))
        return m


def clamp_importance(x: float) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return 3.0
    if v != v:  # NaN
        return 3.0
    return float(min(10.0, max(1.0, v)))


def _minmax(x: np.ndarray, mask: np.ndarray | None, weight: float = 1.0) -> np.ndarray:
    """``weight * (x - min) / (max - min)`` over the records in ``mask`` (all when None), as
    float64; 0 outside the mask; a flat ``x`` scores ``weight * 0.5`` (0 when it is all zeros)."""
    x = np.asarray(x, dtype=np.float64)  # float32 relevance too: the best record scores exactly 1
    sub = x if mask is None else x[mask]
    out = np.zeros(x.shape, dtype=np.float64)
    if sub.size == 0:
        return out
    lo, hi = float(sub.min()), float(sub.max())
    if hi - lo < 1e-12:
        fill = weight * (0.5 if hi != 0 else 0.0)
        if mask is None:
            out[:] = fill
        else:
            out[mask] = fill
        return out
    if mask is None:
        np.subtract(x, lo, out=out)
        out /= hi - lo
    else:
        out[mask] = (sub - lo) / (hi - lo)
    if weight != 1.0:
        out *= weight
    return out
