"""What retrieval scores with (Park et al. 2023; see memory.py): game hours, token estimates, the
weights, the min-max that normalises each term, and the prefilter that picks candidates on a large
stream (from ``PREFILTER_MIN`` records on) so that 100k memories cost a few milliseconds."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

import numpy as np

Kind = Literal["observation", "conversation", "whisper", "plan", "reflection", "player"]
KINDS: tuple[str, ...] = ("observation", "conversation", "whisper", "plan", "reflection", "player")

_EPOCH = datetime(2000, 1, 1)


def game_hours(t: datetime) -> float:
    """Hours since a fixed epoch (naive datetimes are game time; aware ones are made naive UTC)."""
    if t.tzinfo is not None:
        t = t.astimezone(UTC).replace(tzinfo=None)
    return (t - _EPOCH).total_seconds() / 3600.0


def from_game_hours(h: float) -> datetime:
    from datetime import timedelta

    return _EPOCH + timedelta(hours=float(h))


def estimate_tokens(text: str) -> int:
    """A cheap token estimate (about four characters a token for English)."""
    return len(text) // 4 + 2


@dataclass(frozen=True)
class Weights:
    recency: float = 1.0
    importance: float = 1.0
    relevance: float = 1.0


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


PREFILTER_MIN = 20_000  # from this many records on, retrieval scores candidates only (see retrieve)
PREFILTER_DIM = 64  # the projection the relevance prefilter uses
PREFILTER_CANDIDATES = 1024  # candidates by recency + importance, and as many by projected relevance
PREFILTER_SAMPLE = 2048  # rows (evenly spread) whose exact relevance bounds the min-max with the candidates
PREFILTER_STEP = 4096  # rows projected per retrieval until all are (a fixed number: the same results every run)


class Prefiltering:
    """The prefilter of ``MemoryStream.retrieve`` (a part of the stream: it reads its columns,
    declared here; ``MemoryStream`` makes them, and keeps the projected rows up to date as
    embeddings are set and the arrays grow)."""

    decay: float
    _n: int
    _cap: int
    _dim: int | None
    _emb: np.ndarray | None  # float32 [cap, dim], unit rows
    _has_emb: np.ndarray
    _kind: np.ndarray
    _access: np.ndarray
    _imp: np.ndarray
    _proj: np.ndarray | None  # the projected rows (float32 [cap, PREFILTER_DIM])
    _proj_basis: np.ndarray | None  # float32 [dim, PREFILTER_DIM]
    _proj_n: int  # rows projected so far

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
