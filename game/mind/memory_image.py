"""A memory stream as a save sees it: ``MemoryImage`` (a consistent view taken in microseconds,
read from another thread) and the stream's saving part (images, rows, and a stream built from
either in one go).  See memory.py and docs/SAVES.md."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Iterable

import numpy as np

from game.mind.scoring import KINDS, from_game_hours, game_hours

if TYPE_CHECKING:
    from game.mind.memory import MemoryStream


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


class StreamSaves:
    """The saving part of ``MemoryStream``: what a save takes of it and a stream made from a save."""

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
