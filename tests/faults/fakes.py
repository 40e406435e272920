"""Test doubles for the fault tests (tests only; the game never uses them).

* ``valid_instance(json_schema)``: a small valid answer for any JSON schema the model layer sends
  (enums, bounds and list lengths respected), so a fake server can answer every parser without
  knowing it in advance.
* ``FakeTownLLM``: an instant ``LLM`` that answers every schema with ``valid_instance``.
* ``FakeEmbedder``: deterministic bag-of-words vectors, for ``ModelClient(embedder=...)``.
"""

from __future__ import annotations

import hashlib
import random
import re
from typing import Any

import numpy as np

from game.llm.accounting import Accounting
from game.llm.answers import strict_schema
from game.llm.api import CallTag, ModelStatus

DIM = 32
WORDS = ("coffee", "garden", "bakery", "letter", "music", "market", "river", "lunch", "friend", "book")


def _resolve(node: dict, root: dict) -> dict:
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/"), ref
        cur: Any = root
        for part in ref[2:].split("/"):
            cur = cur[part]
        node = cur
    return node


def valid_instance(schema: dict, rng: random.Random | None = None, root: dict | None = None) -> Any:
    """A valid value for ``schema`` (a JSON-schema dict), small and plausible."""
    rng = rng or random.Random(0)
    root = root if root is not None else schema
    node = _resolve(schema, root)
    if "enum" in node:
        opts = [o for o in node["enum"] if o != ""] or list(node["enum"])
        return rng.choice(opts)
    if "const" in node:
        return node["const"]
    for key in ("anyOf", "oneOf"):
        if key in node:
            subs = [s for s in node[key] if _resolve(s, root).get("type") != "null"] or node[key]
            return valid_instance(subs[0], rng, root)
    t = node.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), "null")
    if t == "object" or "properties" in node:
        return {k: valid_instance(v, rng, root) for k, v in node.get("properties", {}).items()}
    if t == "array":
        lo = int(node.get("minItems", 1))
        hi = int(node.get("maxItems", lo + 2))
        n = max(lo, min(hi, lo + rng.randint(0, 2)))
        return [valid_instance(node.get("items", {"type": "string"}), rng, root) for _ in range(n)]
    if t == "integer":
        lo = int(node.get("minimum", 1))
        hi = int(node.get("maximum", lo + 9))
        return rng.randint(lo, min(hi, lo + 9))
    if t == "number":
        lo = float(node.get("minimum", 0))
        return lo + rng.random()
    if t == "boolean":
        return rng.random() < 0.3
    if t == "null":
        return None
    # strings (and anything untyped)
    hi = int(node.get("maxLength", 40))
    return " ".join(rng.choice(WORDS) for _ in range(3))[: max(1, hi)]


def valid_answer(schema_cls: type, rng: random.Random | None = None) -> dict:
    return valid_instance(strict_schema(schema_cls), rng)


def bow_vector(text: str, dim: int = DIM) -> list[float]:
    v = np.zeros(dim)
    for w in re.findall(r"[a-z0-9]+", text.lower()):
        v[int(hashlib.md5(w.encode()).hexdigest(), 16) % dim] += 1.0
    n = float(np.linalg.norm(v))
    if n == 0:
        v[0], n = 1.0, 1.0
    return list(v / n)


class FakeEmbedder:
    name = "fake-bow"
    dim = DIM

    async def embed(self, texts: list[str]) -> list[list[float]]:
        return [bow_vector(t) for t in texts]

    async def aclose(self) -> None:
        pass


class FakeTownLLM:
    """Instant, valid answers for every schema (seeded), with accounting like the real client."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.accounting = Accounting()
        self.calls = 0

    async def complete(self, messages, schema, tag: CallTag, *, max_tokens=512, temperature=0.7):
        self.calls += 1
        self.accounting.record(tag, prompt_tokens=sum(len(m.content) for m in messages) // 4,
                               completion_tokens=20, latency_s=0.0)
        return schema.model_validate(valid_instance(strict_schema(schema), self.rng))

    async def stream(self, messages, tag, *, max_tokens=256, temperature=0.7, stop=()):
        for piece in ("Well, ", "hello ", "there."):
            yield piece

    async def embed(self, texts):
        return [bow_vector(t) for t in texts]

    def status(self) -> ModelStatus:
        return ModelStatus(url="fake", model="fake")
