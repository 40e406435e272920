"""A memory stream as a save sees it: ``MemoryImage`` (a consistent view taken in microseconds,
read from another thread), and what a save does with a stream's ``Columns``: take an image, write
its rows, fill an empty stream from an image in one go.  See stream.py and docs/SAVES.md."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import numpy as np

from game.mind.memory.columns import Columns
from game.mind.memory.scoring import KINDS, from_game_hours


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


def take_image(c: Columns, uid: str, decay: float, since: int | None = None) -> MemoryImage:
    """The stream whose columns are ``c`` as it is now, for a save (see ``MemoryImage``): a few small
    copies, so it is cheap on the thread that plays the town.  ``since``: a version a save holds;
    the image then names the records changed after it."""
    n = c.n
    if c.emb is not None:
        c.emb_shared = True
    img = MemoryImage(uid=uid, version=c.ver, n=n, dim=c.dim, kind=c.kind,
                      created=c.created, text=c.text, evidence=c.evidence, emb=c.emb,
                      has_emb=c.has_emb[:n].copy(), access=c.access[:n].copy(),
                      importance=c.imp[:n].copy(), scored=c.scored[:n].copy(), decay=decay)
    if since is not None:
        img.changed = np.flatnonzero(c.row_ver[:n] > since)
        img.changed_state = np.flatnonzero(c.state_ver[:n] > since)
    return img


def adopts(img: MemoryImage, owned: bool) -> bool:
    """Whether a stream filled from ``img`` takes its embedding matrix as it is."""
    emb = img.emb
    return (owned and emb is not None and emb.dtype == np.float32 and emb.ndim == 2
            and emb.flags.c_contiguous and emb.shape[0] >= int(img.n))


def image_capacity(img: MemoryImage, owned: bool) -> int:
    """The capacity of a stream to be filled from ``img`` (``fill``)."""
    emb = img.emb
    return max(64, int(img.n), emb.shape[0] if emb is not None and adopts(img, owned) else 0)


def fill(c: Columns, img: MemoryImage, owned: bool) -> None:
    """Empty columns, made with ``image_capacity(img, owned)``, as the image (a loaded save's, in
    one go: no record by record).  ``owned``: the image's arrays are the stream's to keep (a save
    reader made them; the embedding matrix is then taken as it is, when it has room for the
    records).  Values a damaged save could hold are made safe: unknown kinds raise ``ValueError``,
    importances are clamped, non-finite embeddings count as none, evidence must point back."""
    n = int(img.n)
    for name, column in (("kind", img.kind), ("created", img.created), ("has_emb", img.has_emb),
                         ("access", img.access), ("importance", img.importance), ("scored", img.scored)):
        if len(column) < n:
            raise ValueError(f"memory image: {name} holds fewer than {n} records")
    if len(img.text) < n or len(img.evidence) < n:
        raise ValueError(f"memory image: texts or evidence for fewer than {n} records")
    kind = np.asarray(img.kind[:n], dtype=np.int8)
    if n and (kind.min() < 0 or kind.max() >= len(KINDS)):
        raise ValueError("memory image: a record of an unknown kind")
    c.kind[:n] = kind
    created = np.asarray(img.created[:n], dtype=np.float64)
    access = np.asarray(img.access[:n], dtype=np.float64)
    # game hours since 2000: a damaged save's random numbers would overflow a date when shown
    if not (np.all(np.abs(created) < 1e7) and np.all(np.abs(access) < 1e7)):
        raise ValueError("memory image: a record created or recalled at no time or out of time")
    c.created[:n] = created
    c.access[:n] = access
    imp = np.asarray(img.importance[:n], dtype=np.float32)
    c.imp[:n] = np.clip(np.where(np.isnan(imp), np.float32(3.0), imp), 1.0, 10.0)
    c.scored[:n] = np.asarray(img.scored[:n], dtype=bool)
    c.text = [" ".join(str(t).split()) for t in img.text[:n]] if not owned else list(img.text[:n])
    evidence = []
    for i, ev in enumerate(img.evidence[:n]):
        evidence.append(tuple(int(e) for e in ev if 0 <= int(e) < i) if ev else ())
    c.evidence = evidence
    _fill_embeddings(c, img, owned)
    c.n = n


def _fill_embeddings(c: Columns, img: MemoryImage, owned: bool) -> None:
    """The embeddings of ``fill``: taken or copied, damaged rows made none or unit rows again."""
    n = int(img.n)
    emb = img.emb
    if img.dim is None or emb is None:
        return
    dim = int(img.dim)
    if emb.ndim != 2 or emb.shape[1] != dim or emb.shape[0] < n:
        raise ValueError(f"memory image: embeddings are not {n} rows of {dim}")
    has = np.asarray(img.has_emb[:n], dtype=bool)
    if adopts(img, owned):
        c.emb = emb
    else:
        c.emb = np.zeros((image_capacity(img, owned), dim), dtype=np.float32)
        c.emb[:n] = emb[:n]
    rows = c.emb[:n]
    rows[~has] = 0.0
    with np.errstate(over="ignore", invalid="ignore"):
        norms = np.sqrt(np.einsum("ij,ij->i", rows, rows))
    lost = ~np.isfinite(norms)
    if lost.any():  # a NaN/inf/huge vector would blind every retrieval: no relevance
        rows[lost] = 0.0
    off = ~lost & (norms > 0) & (np.abs(norms - 1.0) > 1e-3)
    if off.any():  # stored rows are unit rows; a damaged one is made one again
        rows[off] /= norms[off, None]
    c.dim = dim
    c.has_emb[:n] = has


def to_rows(c: Columns) -> list[dict]:
    """One plain dict per record, for a SQLite table (embedding as float32 bytes or None)."""
    rows: list[dict] = []
    for i in range(c.n):
        emb = None
        if c.has_emb[i] and c.emb is not None:
            emb = c.emb[i].astype("<f4").tobytes()
        rows.append({
            "id": i, "kind": KINDS[int(c.kind[i])], "text": c.text[i],
            "created": from_game_hours(c.created[i]).isoformat(),
            "last_access": from_game_hours(c.access[i]).isoformat(),
            "importance": float(c.imp[i]), "scored": int(bool(c.scored[i])),
            "evidence": json.dumps(list(c.evidence[i])), "embedding": emb,
        })
    return rows
