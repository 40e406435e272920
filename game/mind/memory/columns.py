"""The columns of a memory stream: every record's data in numpy arrays (and two lists), grown by
doubling.  ``MemoryStream`` (stream.py) writes them; its prefilter (prefilter.py) and its saves
(image.py) read them.  One object owns them, so each of those parts says what it uses."""

from __future__ import annotations

import numpy as np


class Columns:
    """Records ``0..n-1`` of a stream; arrays hold ``cap`` rows.  ``ver`` is bumped by every change;
    ``row_ver`` (stored data: text, kind, embedding) and ``state_ver`` (last access, importance,
    scored) keep per row the version that last changed it, so a save writes only what changed."""

    def __init__(self, capacity: int) -> None:
        self.n = 0
        self.cap = max(1, capacity)
        self.dim: int | None = None
        self.emb: np.ndarray | None = None  # float32 [cap, dim], unit rows
        self.has_emb = np.zeros(self.cap, dtype=bool)
        self.created = np.zeros(self.cap, dtype=np.float64)  # game hours
        self.access = np.zeros(self.cap, dtype=np.float64)  # game hours
        self.imp = np.zeros(self.cap, dtype=np.float32)
        self.scored = np.zeros(self.cap, dtype=bool)
        self.scored_below = 0  # every record before this one is scored (a low-water mark: see ``unscored``)
        self.kind = np.zeros(self.cap, dtype=np.int8)  # indices into KINDS
        self.text: list[str] = []
        self.evidence: list[tuple[int, ...]] = []
        self.ver = 0
        self.row_ver = np.zeros(self.cap, dtype=np.int64)
        self.state_ver = np.zeros(self.cap, dtype=np.int64)
        self.emb_shared = False  # an image holds the embedding matrix: copy before overwriting a row

    def grow(self, need: int) -> int | None:
        """Room for ``need`` rows; the new capacity when the arrays grew (None: they had room)."""
        if need <= self.cap:
            return None
        cap = self.cap
        while cap < need:
            cap *= 2
        self.has_emb = self.grown(self.has_emb, cap)
        self.created = self.grown(self.created, cap)
        self.access = self.grown(self.access, cap)
        self.imp = self.grown(self.imp, cap)
        self.scored = self.grown(self.scored, cap)
        self.kind = self.grown(self.kind, cap)
        self.row_ver = self.grown(self.row_ver, cap)
        self.state_ver = self.grown(self.state_ver, cap)
        if self.emb is not None:
            self.emb = self.grown(self.emb, cap)
            self.emb_shared = False  # a new matrix: images keep the old one
        self.cap = cap
        return cap

    def grown(self, a: np.ndarray, cap: int) -> np.ndarray:
        """``a`` copied into ``cap`` rows (the first ``n`` kept)."""
        b = np.zeros((cap,) + a.shape[1:], dtype=a.dtype)
        b[: self.n] = a[: self.n]
        return b

    def append(self, kind: int, text: str, hours: float, imp: float, scored: bool,
               evidence: tuple[int, ...]) -> int:
        """Store one record in the next row (there is room: ``grow`` first); returns its id."""
        i = self.n
        self.created[i] = hours
        self.access[i] = hours
        self.imp[i] = imp
        self.scored[i] = scored
        self.kind[i] = kind
        self.text.append(text)
        self.evidence.append(evidence)
        self.ver += 1
        self.row_ver[i] = self.state_ver[i] = self.ver
        self.n += 1
        return i

    def extend(self, kind: int, texts: list[str], hours: np.ndarray, imp: np.ndarray) -> int:
        """Store scored records of one kind in the next rows (there is room); returns the first id."""
        i0, n = self.n, len(texts)
        self.created[i0:i0 + n] = hours
        self.access[i0:i0 + n] = hours
        self.imp[i0:i0 + n] = imp
        self.scored[i0:i0 + n] = True
        self.kind[i0:i0 + n] = kind
        self.text.extend(texts)
        self.evidence.extend(() for _ in range(n))
        self.ver += 1
        self.row_ver[i0:i0 + n] = self.state_ver[i0:i0 + n] = self.ver
        self.n += n
        return i0

    def _matrix(self, dim: int) -> np.ndarray:
        """The embedding matrix (made at the first embedding stored), for embeddings of ``dim``."""
        if self.dim is None:
            self.dim = int(dim)
            self.emb = np.zeros((self.cap, self.dim), dtype=np.float32)
        if dim != self.dim:
            raise ValueError(f"embedding of size {dim} does not match the stream's size {self.dim}")
        assert self.emb is not None
        return self.emb

    def put_embedding(self, rid: int, v: np.ndarray) -> None:
        """Record ``rid``'s embedding, stored as a unit row (a non-finite one as none)."""
        self._matrix(int(v.shape[0]))
        if not np.all(np.isfinite(v)):  # a NaN/inf vector would blind every retrieval: no relevance
            v = np.zeros_like(v)
        norm = float(np.linalg.norm(v))
        if self.emb_shared and self.has_emb[rid]:  # an image reads this row: it keeps the old matrix
            assert self.emb is not None
            self.emb = self.emb.copy()
            self.emb_shared = False
        emb = self._matrix(int(v.shape[0]))
        emb[rid] = v / norm if norm > 0 else v
        self.has_emb[rid] = True
        self.ver += 1
        self.row_ver[rid] = self.ver

    def put_embeddings(self, i0: int, e: np.ndarray) -> None:
        """Embeddings of the fresh rows ``i0..`` (no image reads them), as unit rows."""
        emb = self._matrix(int(e.shape[1]))
        norms = np.linalg.norm(e, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        emb[i0:i0 + e.shape[0]] = e / norms
        self.has_emb[i0:i0 + e.shape[0]] = True
