"""The embeddings a mind uses (memories, queries, places by meaning), cached by text.

A collaborator that owns its cache: the mind asks it for vectors and never sees where they came
from (the model layer's embedder, one given to the mind, or a plain function in tests).
"""

from __future__ import annotations

import inspect
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol, runtime_checkable

from game.llm.api import LLM, LLMError

CACHE_SIZE = 4096  # texts whose vectors are kept

Vectors = Sequence[Sequence[float]]


@runtime_checkable
class EmbeddingSource(Protocol):
    """An embedder object (``game.llm.embed``'s, a test's)."""

    async def embed(self, texts: list[str]) -> list[list[float]]: ...


# what a mind may be given to embed with: an embedder object, or a function (async or not)
Embedding = EmbeddingSource | Callable[[list[str]], Vectors | Awaitable[Vectors]]


class EmbeddingCache:
    def __init__(self, llm: LLM, embedder: Embedding | None = None) -> None:
        self._llm = llm
        self._embedder = embedder
        self._cache: OrderedDict[str, list[float]] = OrderedDict()

    async def embed(self, texts: list[str]) -> list[list[float]]:
        """Embeddings for ``texts``; cached by text; one call for all that are missing."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            vecs: Vectors
            if self._embedder is None:
                vecs = await self._llm.embed(missing)
            elif isinstance(self._embedder, EmbeddingSource):
                vecs = await self._embedder.embed(missing)
            else:
                res = self._embedder(missing)
                vecs = await res if inspect.isawaitable(res) else res
            if len(vecs) != len(missing):
                raise LLMError(f"the embedder returned {len(vecs)} vectors for {len(missing)} texts")
            for t, v in zip(missing, vecs):
                self._cache[t] = list(v)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)
        return [self._cache[t] for t in texts]
