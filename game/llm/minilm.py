"""The local sentence encoder, offline and without PyTorch.

``MiniLMEncoder`` runs all-MiniLM-L6-v2 (a 6-layer BERT, 384 dimensions, Apache-2.0) in numpy:
the weights are read straight from the safetensors file (a JSON header and a little-endian buffer),
the text is split by a WordPiece tokenizer built from ``tokenizer.json``, and the sentence vector
is the mask-weighted mean of the last layer, scaled to unit length (as sentence-transformers does).
Work runs in a thread so the event loop never blocks.
"""

from __future__ import annotations

import asyncio
import json
import struct
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .api import LLMError

MINILM_DIR = "all-MiniLM-L6-v2"
MINILM_FILES = ("model.safetensors", "tokenizer.json", "config.json")

# --- safetensors ----------------------------------------------------------------------------

_DTYPES = {"F32": "<f4", "F16": "<f2", "BF16": None, "F64": "<f8", "I64": "<i8", "I32": "<i4"}


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """All tensors of a safetensors file as numpy arrays (float tensors as float32)."""
    with open(path, "rb") as fh:
        head = fh.read(8)
        if len(head) != 8:
            raise LLMError(f"'{path}' is not a safetensors file (too short)")
        (n,) = struct.unpack("<Q", head)
        if n > 100_000_000:
            raise LLMError(f"'{path}' is not a safetensors file (header size {n})")
        try:
            header = json.loads(fh.read(n))
        except ValueError:
            raise LLMError(f"'{path}' is not a safetensors file (bad header)") from None
        buf = fh.read()
    out: dict[str, np.ndarray] = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        dtype = _DTYPES.get(info["dtype"])
        start, end = info["data_offsets"]
        raw = buf[start:end]
        if info["dtype"] == "BF16":
            arr = (np.frombuffer(raw, "<u2").astype(np.uint32) << 16).view(np.float32)
        elif dtype is None:
            raise LLMError(f"'{path}': tensor {name} has unsupported type {info['dtype']}")
        else:
            arr = np.frombuffer(raw, dtype)
        arr = arr.reshape(info["shape"])
        if arr.dtype.kind == "f":
            arr = arr.astype(np.float32)
        out[name] = arr
    return out


# --- WordPiece tokenizer --------------------------------------------------------------------


def _is_punct(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (0x4E00 <= cp <= 0x9FFF or 0x3400 <= cp <= 0x4DBF or 0x20000 <= cp <= 0x2A6DF
            or 0x2A700 <= cp <= 0x2B73F or 0x2B740 <= cp <= 0x2B81F or 0x2B820 <= cp <= 0x2CEAF
            or 0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)


class WordPiece:
    """BERT's uncased tokenizer: clean, lower-case, strip accents, split punctuation, WordPiece."""

    def __init__(self, vocab: dict[str, int], *, unk: str = "[UNK]", prefix: str = "##",
                 max_word_chars: int = 100, lowercase: bool = True) -> None:
        self.vocab = vocab
        self.unk_id = vocab[unk]
        self.cls_id = vocab["[CLS]"]
        self.sep_id = vocab["[SEP]"]
        self.prefix = prefix
        self.max_word_chars = max_word_chars
        self.lowercase = lowercase
        self._cache: dict[str, list[int]] = {}

    @classmethod
    def from_file(cls, path: Path) -> WordPiece:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            model = data["model"]
            norm = data.get("normalizer") or {}
            return cls(model["vocab"], unk=model.get("unk_token", "[UNK]"),
                       prefix=model.get("continuing_subword_prefix", "##"),
                       max_word_chars=model.get("max_input_chars_per_word", 100),
                       lowercase=norm.get("lowercase", True))
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise LLMError(f"'{path}' is not a WordPiece tokenizer.json: {e}") from None

    def _normalise(self, text: str) -> str:
        out = []
        for ch in text:
            cp = ord(ch)
            if cp == 0 or cp == 0xFFFD:
                continue
            cat = unicodedata.category(ch)
            if ch in "\t\n\r" or cat == "Zs":
                out.append(" ")
            elif cat in ("Cc", "Cf"):
                continue
            elif _is_cjk(cp):
                out.append(f" {ch} ")
            else:
                out.append(ch)
        text = "".join(out)
        if self.lowercase:
            text = text.lower()
            text = "".join(c for c in unicodedata.normalize("NFD", text)
                           if unicodedata.category(c) != "Mn")
        return text

    def _words(self, text: str) -> list[str]:
        words: list[str] = []
        for chunk in text.split():
            cur: list[str] = []
            for ch in chunk:
                if _is_punct(ch):
                    if cur:
                        words.append("".join(cur))
                        cur = []
                    words.append(ch)
                else:
                    cur.append(ch)
            if cur:
                words.append("".join(cur))
        return words

    def _pieces(self, word: str) -> list[int]:
        hit = self._cache.get(word)
        if hit is not None:
            return hit
        if len(word) > self.max_word_chars:
            ids = [self.unk_id]
        else:
            ids = []
            start = 0
            while start < len(word):
                end = len(word)
                found = None
                while start < end:
                    sub = word[start:end]
                    if start > 0:
                        sub = self.prefix + sub
                    if sub in self.vocab:
                        found = self.vocab[sub]
                        break
                    end -= 1
                if found is None:
                    ids = [self.unk_id]
                    break
                ids.append(found)
                start = end
        if len(self._cache) < 200_000:
            self._cache[word] = ids
        return ids

    def encode(self, text: str, max_len: int = 256) -> list[int]:
        ids = [self.cls_id]
        for word in self._words(self._normalise(text)):
            ids.extend(self._pieces(word))
            if len(ids) >= max_len - 1:
                break
        ids = ids[: max_len - 1]
        ids.append(self.sep_id)
        return ids


# --- the encoder ----------------------------------------------------------------------------


def _erf(x: np.ndarray) -> np.ndarray:
    # Abramowitz & Stegun 7.1.26, |error| < 1.5e-7: exact GELU without scipy
    s = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
               + 0.254829592) * t * np.exp(-a * a)
    return s * y


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x * np.float32(0.7071067811865476)))


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    mu = x.mean(-1, keepdims=True)
    xc = x - mu
    var = (xc * xc).mean(-1, keepdims=True)
    return xc / np.sqrt(var + eps) * w + b


@dataclass(frozen=True)
class Layer:
    """The weights of one transformer layer, laid out for the forward pass (``qkv_w`` the three
    projections side by side; ``ln1``/``ln2`` a layer norm's weight and bias)."""

    qkv_w: np.ndarray
    qkv_b: np.ndarray
    o_w: np.ndarray
    o_b: np.ndarray
    ln1: tuple[np.ndarray, np.ndarray]
    i_w: np.ndarray
    i_b: np.ndarray
    f_w: np.ndarray
    f_b: np.ndarray
    ln2: tuple[np.ndarray, np.ndarray]


class MiniLMEncoder:
    """A BERT sentence encoder in numpy (all-MiniLM-L6-v2 or any BERT with mean pooling)."""

    name = "all-MiniLM-L6-v2"

    def __init__(self, model_dir: str | Path, *, max_len: int = 256, batch_size: int = 32) -> None:
        model_dir = Path(model_dir)
        missing = [f for f in MINILM_FILES if not (model_dir / f).is_file()]
        if missing:
            raise LLMError(f"the embedding model in '{model_dir}' is incomplete (missing "
                           f"{', '.join(missing)}): run `town setup`")
        cfg = json.loads((model_dir / "config.json").read_text())
        self.heads = int(cfg["num_attention_heads"])
        self.layers = int(cfg["num_hidden_layers"])
        self.eps = float(cfg.get("layer_norm_eps", 1e-12))
        self.dim = int(cfg["hidden_size"])
        self.max_len = min(max_len, int(cfg.get("max_position_embeddings", 512)))
        self.batch_size = batch_size
        self.tokenizer = WordPiece.from_file(model_dir / "tokenizer.json")
        t = read_safetensors(model_dir / "model.safetensors")
        p = "bert." if "bert.embeddings.word_embeddings.weight" in t else ""
        try:
            self.word = t[f"{p}embeddings.word_embeddings.weight"]
            self.pos = t[f"{p}embeddings.position_embeddings.weight"]
            self.type0 = t[f"{p}embeddings.token_type_embeddings.weight"][0]
            self.emb_ln = (t[f"{p}embeddings.LayerNorm.weight"], t[f"{p}embeddings.LayerNorm.bias"])
            self.blocks: list[Layer] = []
            for i in range(self.layers):
                q = f"{p}encoder.layer.{i}."
                wq, wk, wv = (t[q + f"attention.self.{n}.weight"] for n in ("query", "key", "value"))
                bq, bk, bv = (t[q + f"attention.self.{n}.bias"] for n in ("query", "key", "value"))
                self.blocks.append(Layer(
                    qkv_w=np.ascontiguousarray(np.concatenate([wq, wk, wv], 0).T),
                    qkv_b=np.concatenate([bq, bk, bv]),
                    o_w=np.ascontiguousarray(t[q + "attention.output.dense.weight"].T),
                    o_b=t[q + "attention.output.dense.bias"],
                    ln1=(t[q + "attention.output.LayerNorm.weight"],
                         t[q + "attention.output.LayerNorm.bias"]),
                    i_w=np.ascontiguousarray(t[q + "intermediate.dense.weight"].T),
                    i_b=t[q + "intermediate.dense.bias"],
                    f_w=np.ascontiguousarray(t[q + "output.dense.weight"].T),
                    f_b=t[q + "output.dense.bias"],
                    ln2=(t[q + "output.LayerNorm.weight"], t[q + "output.LayerNorm.bias"]),
                ))
        except KeyError as e:
            raise LLMError(f"'{model_dir / 'model.safetensors'}' is not a BERT model "
                           f"(missing tensor {e})") from None
        self._lock = threading.Lock()

    def _forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        b, n = ids.shape
        h, dh = self.heads, self.dim // self.heads
        x = self.word[ids] + self.pos[:n][None] + self.type0
        x = _layer_norm(x, *self.emb_ln, self.eps)
        bias = np.where(mask[:, None, None, :] > 0, 0.0, -1e9).astype(np.float32)
        scale = np.float32(1.0 / np.sqrt(dh))
        for blk in self.blocks:
            qkv = x.reshape(b * n, self.dim) @ blk.qkv_w + blk.qkv_b
            qkv = qkv.reshape(b, n, 3, h, dh).transpose(2, 0, 3, 1, 4)  # 3, b, h, n, dh
            q, k, v = qkv[0], qkv[1], qkv[2]
            s = (q * scale) @ k.transpose(0, 1, 3, 2) + bias
            s -= s.max(-1, keepdims=True)
            np.exp(s, out=s)
            s /= s.sum(-1, keepdims=True)
            ctx = (s @ v).transpose(0, 2, 1, 3).reshape(b * n, self.dim)
            a = ctx @ blk.o_w + blk.o_b
            x = _layer_norm(a.reshape(b, n, self.dim) + x, *blk.ln1, self.eps)
            f = _gelu(x.reshape(b * n, self.dim) @ blk.i_w + blk.i_b)
            f = f @ blk.f_w + blk.f_b
            x = _layer_norm(f.reshape(b, n, self.dim) + x, *blk.ln2, self.eps)
        m = mask[:, :, None].astype(np.float32)
        pooled = (x * m).sum(1) / np.maximum(m.sum(1), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors, shape (len(texts), dim), float32.  Blocking: call from a thread."""
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        encoded = [self.tokenizer.encode(t, self.max_len) for t in texts]
        order = sorted(range(len(texts)), key=lambda i: len(encoded[i]))
        out = np.zeros((len(texts), self.dim), np.float32)
        with self._lock:
            for s in range(0, len(order), self.batch_size):
                idx = order[s : s + self.batch_size]
                n = max(len(encoded[i]) for i in idx)
                ids = np.zeros((len(idx), n), np.int64)
                mask = np.zeros((len(idx), n), np.int8)
                for row, i in enumerate(idx):
                    e = encoded[i]
                    ids[row, : len(e)] = e
                    mask[row, : len(e)] = 1
                out[idx] = self._forward(ids, mask)
        return out

    async def embed(self, texts: list[str]) -> list[list[float]]:
        vecs = await asyncio.to_thread(self.encode, texts)
        return vecs.tolist()

    async def aclose(self) -> None:
        return None
