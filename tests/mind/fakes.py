"""FakeLLM: a scripted stand-in for the model, for the pure logic tests of the mind (tests only).

``script`` maps a call purpose to a list of answers used in order (the last one repeats); an
answer is a dict (validated into the requested schema), a callable ``(messages) -> dict``, or an
exception instance to raise.  Embeddings are deterministic hashed bags of words, so texts that
share words are similar.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import numpy as np

from game.llm.api import CallTag, Message, ModelStatus

DIM = 64


def bow_vector(text: str, dim: int = DIM) -> list[float]:
    v = np.zeros(dim, dtype=np.float64)
    for w in re.findall(r"[a-z0-9]+", text.lower()):
        if len(w) > 3 and w.endswith("s"):
            w = w[:-1]
        h = int(hashlib.md5(w.encode()).hexdigest(), 16)
        v[h % dim] += 1.0
    n = np.linalg.norm(v)
    if n == 0:
        v[0] = 1.0
        n = 1.0
    return list(v / n)


class FakeLLM:
    def __init__(self, script: dict[str, list[Any]] | None = None) -> None:
        self.script = {k: list(v) for k, v in (script or {}).items()}
        self.used: dict[str, int] = {}
        self.calls: list[tuple[CallTag, list[Message], str]] = []
        self.embedded: list[str] = []
        self.embed_calls = 0
        self.tokens: list[tuple[str, int, int]] = []  # (purpose, prompt, completion) estimates

    def purposes(self) -> list[str]:
        return [t.purpose for t, _, _ in self.calls]

    async def complete(self, messages, schema, tag, *, max_tokens=512, temperature=0.7):
        self.calls.append((tag, messages, schema.__name__))
        answers = self.script.get(tag.purpose)
        if not answers:
            raise AssertionError(f"FakeLLM: no scripted answer for purpose {tag.purpose!r}")
        i = self.used.get(tag.purpose, 0)
        self.used[tag.purpose] = i + 1
        a = answers[min(i, len(answers) - 1)]
        if isinstance(a, Exception):
            raise a
        if callable(a):
            a = a(messages)
        value = schema.model_validate(a)
        prompt = sum(len(m.content) for m in messages) // 4 + 8 * len(messages)
        self.tokens.append((tag.purpose, prompt, len(json.dumps(a, ensure_ascii=False)) // 4 + 1))
        return value

    async def stream(self, messages, tag, *, max_tokens=256, temperature=0.7, stop=()):
        """Scripted under "stream:<purpose>": a str split on "|" into pieces, or an exception."""
        self.calls.append((tag, messages, "stream"))
        answers = self.script.get("stream:" + tag.purpose)
        if not answers:
            raise AssertionError(f"FakeLLM: no scripted stream for purpose {tag.purpose!r}")
        i = self.used.get("stream:" + tag.purpose, 0)
        self.used["stream:" + tag.purpose] = i + 1
        a = answers[min(i, len(answers) - 1)]
        if isinstance(a, Exception):
            raise a
        for piece in a.split("|"):
            yield piece

    async def embed(self, texts: list[str]) -> list[list[float]]:
        self.embed_calls += 1
        self.embedded.extend(texts)
        return [bow_vector(t) for t in texts]

    def status(self) -> ModelStatus:
        return ModelStatus(url="fake", model="fake")
