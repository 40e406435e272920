"""The memory stream: every observation, conversation, whisper, plan and reflection of a resident.

Retrieval follows Park et al. 2023: score = w_rec * recency + w_imp * importance + w_rel * relevance,
each term min-max normalised over the candidates; recency decays by 0.99 per game hour since the
record was last accessed; relevance is the cosine similarity of the record's embedding to the query.
Records that are retrieved have their last access refreshed.

Everything that is scored lives in numpy arrays (a preallocated float32 embedding matrix that
grows by doubling), so a query over 100k records is one matrix-vector product.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
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
        if self._emb is not None:
            self._emb = grow(self._emb)
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
            self._emb[i0:i0 + n] = e / norms
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
        self._emb[rid] = v / norm if norm > 0 else v
        self._has_emb[rid] = True

    def set_importance(self, rid: int, importance: float) -> None:
        self._imp[rid] = clamp_importance(importance)
        self._scored[rid] = True

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
                 exclude: Iterable[int] = ()) -> list[Record]:
        """The best records, best first: at most ``k`` and, if given, within ``token_budget``."""
        s = self.scores(query, now, kinds, weights)
        if s.size == 0:
            return []
        ex = list(exclude)
        if ex:
            s[np.asarray(ex, dtype=np.int64)] = -np.inf
        finite = s.size if (kinds is None and not ex) else int(np.isfinite(s).sum())
        k = max(0, min(int(k), finite))
        if k == 0:
            return []
        top = np.argpartition(s, s.size - k)[s.size - k:] if k < s.size else np.arange(s.size)
        top = top[np.argsort(-s[top], kind="stable")]
        chosen: list[int] = []
        used = 0
        for i in top:
            i = int(i)
            if not np.isfinite(s[i]):
                break
            cost = estimate_tokens(self._text[i])
            if token_budget is not None and used + cost > token_budget:
                continue
            chosen.append(i)
            used += cost
        if refresh:
            self.touch(chosen, now)
        return [self.get(i) for i in chosen]

    # -------------------------------------------------------------------- saves
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
            m._scored[rid] = scored
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
