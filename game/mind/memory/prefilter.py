"""The prefilter of ``MemoryStream.retrieve`` (stream.py): on a large stream (from ``PREFILTER_MIN``
records on) it picks candidates cheaply, so that 100k memories cost a few milliseconds; only the
candidates are scored exactly.  It owns the projected rows; it reads the stream's ``Columns``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

import numpy as np

from game.mind.memory.columns import Columns
from game.mind.memory.scoring import (
    KINDS,
    PREFILTER_CANDIDATES,
    PREFILTER_DIM,
    PREFILTER_MIN,
    PREFILTER_SAMPLE,
    PREFILTER_STEP,
    Weights,
    game_hours,
    minmax,
)


class Prefilter:
    def __init__(self, cols: Columns) -> None:
        self.cols = cols
        self.rows: np.ndarray | None = None  # the projected rows (float32 [cap, PREFILTER_DIM])
        self.basis: np.ndarray | None = None  # float32 [dim, PREFILTER_DIM]
        self.done = 0  # rows projected so far

    def grew(self, cap: int) -> None:
        """The stream's arrays grew to ``cap`` rows: so do the projected rows."""
        if self.rows is not None:
            self.rows = self.cols.grown(self.rows, cap)

    def embedded(self, rid: int) -> None:
        """Record ``rid``'s embedding was set: its projected row, if it has one, follows."""
        emb = self.cols.emb
        if self.rows is not None and rid < self.done and emb is not None:
            self.rows[rid] = emb[rid] @ self.basis

    def projection(self) -> np.ndarray | None:
        """The prefilter's rows: each embedding projected on the top ``PREFILTER_DIM`` principal
        directions of the first ``PREFILTER_MIN`` records (so a loaded stream finds the same basis
        as the live one did).  Rows are projected ``PREFILTER_STEP`` a call, so that no retrieval
        stalls the town (100k rows at once took 2 s on the shared machine): None until every row
        is (retrieval then scores every record), and when there are no embeddings."""
        c = self.cols
        n = c.n
        if c.emb is None or c.dim is None or c.dim <= PREFILTER_DIM:
            return None
        if self.basis is None:
            first = min(n, PREFILTER_MIN)
            rows = np.flatnonzero(c.has_emb[:first])
            if rows.size < PREFILTER_DIM:
                return None
            sample = c.emb[rows[np.linspace(0, rows.size - 1, min(rows.size, 2048)).astype(np.int64)]]
            gram = (sample.T @ sample).astype(np.float64)
            _, vecs = np.linalg.eigh(gram)  # ascending: the last columns are the top directions
            self.basis = np.ascontiguousarray(vecs[:, ::-1][:, :PREFILTER_DIM], dtype=np.float32)
            self.rows = np.zeros((c.cap, PREFILTER_DIM), dtype=np.float32)
            self.done = 0
            return None  # the basis was this call's work
        assert self.rows is not None
        if self.done < n:
            b = min(n, self.done + PREFILTER_STEP)
            self.rows[self.done:b] = c.emb[self.done:b] @ self.basis
            self.done = b
        return self.rows if self.done >= n else None

    def warm(self) -> bool:
        """Project every row now (benchmarks, tests, a pause): True when the prefilter is ready."""
        n = self.cols.n
        if n < PREFILTER_MIN:
            return False
        for _ in range(2 + n // PREFILTER_STEP):
            if self.projection() is not None:
                return True
        return False

    def candidates(self, query: Sequence[float] | np.ndarray, now: datetime, kinds: Iterable[str] | None,
                   w: Weights, ex: list[int], decay: float) -> tuple[np.ndarray, np.ndarray] | None:
        """(candidate ids, their scores) for ``retrieve`` on a large stream; None: score them all.
        With ``kinds`` the work is done on those records only (their min-max is the exact one's
        too); when they are few, every one of them is scored exactly."""
        c = self.cols
        n = c.n
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if q.shape[0] != c.dim:
            raise ValueError(f"query embedding of size {q.shape[0]} does not match {c.dim}")
        qn = float(np.linalg.norm(q))
        if not qn > 0:
            return None
        q = q / np.float32(qn)
        proj = self.projection()
        if proj is None:
            return None
        assert c.emb is not None and self.basis is not None
        pool: np.ndarray | None = None  # the records that count (None: all)
        if kinds is not None:
            ks = np.array([KINDS.index(k) for k in kinds], dtype=np.int8)
            pool = np.flatnonzero(np.isin(c.kind[:n], ks))
            if pool.size == 0:
                return None
        base, gone = self._base(pool, now, w, ex, decay)
        size = n if pool is None else int(pool.size)
        left = size - (0 if gone is None else int(gone.size))  # records that may be chosen
        if left <= 2 * PREFILTER_CANDIDATES + PREFILTER_SAMPLE:  # few enough: every one of them exactly
            pos = np.arange(size)
        else:
            # numpy's own loop, not BLAS: on a shared 2-core machine a threaded BLAS call of this
            # size waits for a busy core (4-12 ms where one core does it in 1 ms)
            approx = np.einsum("ij,j->i", proj[:n] if pool is None else proj[pool], q @ self.basis)
            pos = self._picked(base, approx, gone, left)
        ids = pos if pool is None else pool[pos]
        rel = np.einsum("ij,j->i", c.emb[ids], q)
        lo, hi = float(rel.min()), float(rel.max())
        if hi - lo < 1e-12:
            rel_n = np.full(ids.size, w.relevance * (0.5 if hi != 0 else 0.0))
        else:
            rel_n = (rel.astype(np.float64) - lo) / (hi - lo) * w.relevance
        return ids, base[pos] + rel_n

    def _base(self, pool: np.ndarray | None, now: datetime, w: Weights, ex: list[int],
              decay: float) -> tuple[np.ndarray, np.ndarray | None]:
        """Recency + importance of the records in ``pool`` (all: None), and the positions in it of
        the records ``ex`` leaves out (their score is -inf)."""
        c = self.cols
        n = c.n
        size = n if pool is None else int(pool.size)
        access = c.access[:n] if pool is None else c.access[pool]
        hours = game_hours(now) - access  # a new array either way
        np.maximum(hours, 0.0, out=hours)
        hours *= np.log(decay)
        base = minmax(np.exp(hours, out=hours), None, w.recency)
        base += minmax(c.imp[:n] if pool is None else c.imp[pool], None, w.importance)
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
        return base, gone

    @staticmethod
    def _picked(base: np.ndarray, approx: np.ndarray, gone: np.ndarray | None, left: int) -> np.ndarray:
        """The positions scored exactly: the best by recency + importance and by projected relevance
        are the candidates; the lowest by projected relevance and an even spread bound the min-max
        of the relevance."""
        c = PREFILTER_CANDIDATES
        size = base.size
        if gone is not None and gone.size:
            approx[gone] = np.nan  # argpartition puts NaN last: neither end's candidate
        top_end = left - c
        ends = np.argpartition(approx, (c, top_end))
        mark = np.zeros(size, dtype=bool)  # the union, in order (cheaper than np.unique)
        mark[np.argpartition(base, size - c)[size - c:]] = True
        mark[ends[top_end:top_end + c]] = True
        mark[ends[:c]] = True
        mark[np.linspace(0, size - 1, PREFILTER_SAMPLE).astype(np.int64)] = True
        return np.flatnonzero(mark)
