"""The numpy MiniLM encoder and the embedding cache (the encoder tests need `town setup`)."""

from __future__ import annotations

import json
import struct

import httpx
import numpy as np
import pytest

from game.llm.api import LLMError, ModelUnavailable
from game.llm.config import Paths, town_home
from game.llm.embed import CachedEmbedder, RemoteEmbedder
from game.llm.minilm import MiniLMEncoder, WordPiece, read_safetensors

MINILM = Paths(town_home()).minilm


def test_read_safetensors(tmp_path):
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([1, 2], dtype=np.int64)
    header = {"a": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]},
              "b": {"dtype": "I64", "shape": [2], "data_offsets": [24, 40]},
              "__metadata__": {"format": "pt"}}
    h = json.dumps(header).encode()
    p = tmp_path / "t.safetensors"
    p.write_bytes(struct.pack("<Q", len(h)) + h + a.tobytes() + b.tobytes())
    t = read_safetensors(p)
    assert np.array_equal(t["a"], a) and np.array_equal(t["b"], b)


def test_read_safetensors_rejects_junk(tmp_path):
    p = tmp_path / "junk.safetensors"
    p.write_bytes(b"\x05\x00\x00\x00\x00\x00\x00\x00hello")
    with pytest.raises(LLMError, match="junk.safetensors"):
        read_safetensors(p)


def test_wordpiece_small_vocab():
    vocab = {w: i for i, w in enumerate(
        ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "hello", ",", "wor", "##ld", "!", "cafe"])}
    tok = WordPiece(vocab)
    assert tok.encode("Hello, WORLD!") == [2, 4, 5, 6, 7, 8, 3]
    assert tok.encode("Café") == [2, 9, 3]  # accents stripped, lower-cased
    assert tok.encode("zebra") == [2, 1, 3]
    assert len(tok.encode("hello " * 100, max_len=8)) == 8


@pytest.fixture(scope="module")
def minilm():
    if not (MINILM / "model.safetensors").is_file():
        pytest.skip("embedding model not installed (run `town setup --for-tests`)")
    return MiniLMEncoder(MINILM)


def test_minilm_tokens_match_bert_uncased(minilm):
    enc = minilm
    # the well-known bert-base-uncased ids
    assert enc.tokenizer.encode("Hello, World!") == [101, 7592, 1010, 2088, 999, 102]


async def test_minilm_vectors_are_unit_and_semantic(minilm):
    enc = minilm
    texts = ["The stove in the kitchen is on fire.", "There is a fire in the kitchen.",
             "Klaus is reading a book in the library.", ""]
    v = np.asarray(await enc.embed(texts))
    assert v.shape == (4, 384)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert v[0] @ v[1] > 0.8 > 0.2 > v[0] @ v[2]
    # batching and padding do not change a sentence's vector
    alone = enc.encode([texts[2]])[0]
    assert np.allclose(alone, v[2], atol=1e-5)


class CountingEmbedder:
    name = "counting"
    dim = 2

    def __init__(self):
        self.seen: list[str] = []

    async def embed(self, texts):
        self.seen.extend(texts)
        return [[float(len(t)), 1.0] for t in texts]

    async def aclose(self):
        pass


async def test_cache_embeds_each_text_once_and_persists(tmp_path):
    inner = CountingEmbedder()
    cache = CachedEmbedder(inner, path=tmp_path / "e.sqlite")
    a = await cache.embed(["x", "yy", "x"])
    b = await cache.embed(["yy", "zzz"])
    assert a == [[1.0, 1.0], [2.0, 1.0], [1.0, 1.0]] and b == [[2.0, 1.0], [3.0, 1.0]]
    assert inner.seen == ["x", "yy", "zzz"]
    await cache.aclose()
    inner2 = CountingEmbedder()
    again = CachedEmbedder(inner2, path=tmp_path / "e.sqlite")
    assert await again.embed(["zzz"]) == [[3.0, 1.0]]
    assert inner2.seen == []
    await again.aclose()


async def test_remote_embedder_normalises_and_orders():
    def handler(request):
        body = json.loads(request.content)
        assert request.headers["authorization"] == "Bearer k"
        data = [{"index": i, "embedding": [3.0 * (i + 1), 4.0 * (i + 1)]}
                for i, _ in enumerate(body["input"])]
        return httpx.Response(200, json={"data": list(reversed(data))})

    emb = RemoteEmbedder("http://e/v1", api_key="k", transport=httpx.MockTransport(handler))
    v = await emb.embed(["a", "b"])
    assert np.allclose(v, [[0.6, 0.8], [0.6, 0.8]])
    await emb.aclose()


async def test_remote_embedder_errors():
    def handler(request):
        return httpx.Response(501, json={"error": {"message": "no embeddings"}})

    emb = RemoteEmbedder("http://e/v1", transport=httpx.MockTransport(handler))
    with pytest.raises(LLMError, match="501"):
        await emb.embed(["a"])

    def down(request):
        raise httpx.ConnectError("refused")

    emb = RemoteEmbedder("http://e/v1", retries=1, backoff_s=0.001, transport=httpx.MockTransport(down))
    with pytest.raises(ModelUnavailable, match="http://e/v1"):
        await emb.embed(["a"])


async def test_unusable_disk_cache_still_gives_real_vectors(tmp_path):
    bad = tmp_path / "not-a-db.sqlite"
    bad.write_bytes(b"this is not sqlite" * 100)
    inner = CountingEmbedder()
    cache = CachedEmbedder(inner, path=bad)
    assert await cache.embed(["ab"]) == [[2.0, 1.0]]
    assert cache.disk_error and "embedding cache disabled" in cache.disk_error
    assert inner.seen == ["ab"]
    await cache.aclose()


async def test_remote_embedder_sends_texts_asked_together_in_few_requests():
    """Fifty callers at once (a town's minds): a few requests of many texts, each caller its own
    vectors in its order; a failed request fails only its own callers."""
    import asyncio

    sizes = []

    async def handler(request):
        body = json.loads(request.content)
        sizes.append(len(body["input"]))
        await asyncio.sleep(0.01)
        if "bad" in body["input"]:
            return httpx.Response(400, json={"error": {"message": "no"}})
        return httpx.Response(200, json={"data": [{"index": i, "embedding": [float(len(t)), 1.0]}
                                                  for i, t in enumerate(body["input"])]})

    emb = RemoteEmbedder("http://e/v1", transport=httpx.MockTransport(handler), in_flight=2, batch=16)
    asks = [["x" * (i + 1), "y" * (i + 2)] for i in range(50)]
    out = await asyncio.gather(*(emb.embed(a) for a in asks))
    for a, vecs in zip(asks, out):
        assert [round(v[0] / v[1]) for v in vecs] == [len(t) for t in a]  # its own, in order
    assert sum(sizes) == 100 and max(sizes) <= 16 and emb.requests == len(sizes) < 12
    results = await asyncio.gather(emb.embed(["bad"]), return_exceptions=True)
    assert isinstance(results[0], LLMError)
    assert len(await emb.embed(["fine"])) == 1
    await emb.aclose()
