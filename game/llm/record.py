"""Record every model request and answer of a run, and replay a run with no model at all.

A recording is a JSON-lines file: a header line, then one line per answered request::

    {"format": "town-llm-recording", "version": 1}
    {"kind": "complete", "key": "<sha256>", "tag": {...}, "request": {...}, "answer": {...}}
    {"kind": "stream",   "key": "...", "tag": {...}, "request": {...}, "pieces": ["Hel", "lo"]}
    {"kind": "embed",    "key": "...", "text": "...", "vector": [...]}

The key is a hash of what was asked (messages, schema, limits; for embeddings the text), not of
where it was asked, so a run recorded against one server replays anywhere.  Requests hold no URL
and no API key.  When one request was asked several times its answers are replayed in the order
they were recorded (the last one again if asked more often than recorded).  A chat line also
keeps when it was asked and answered (``asked_s``, ``answered_s``: seconds since the recording
began), to see where a run's model time went; a replay does not read them.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import threading
import time
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from .accounting import Accounting, accounting_of
from .answers import strict_schema
from .api import LLM, BadAnswer, CallTag, Closes, LLMError, Message, ModelStatus, Prefills
from .jsonvalue import as_list

T = TypeVar("T", bound=BaseModel)

FORMAT = "town-llm-recording"
VERSION = 1


class NotRecorded(LLMError):
    """A replay was asked something the recording does not hold."""


def request_body(kind: str, messages: list[Message], schema: type[BaseModel] | None,
                 max_tokens: int, temperature: float, stop: tuple[str, ...] = ()) -> dict[str, object]:
    """A request as a recording keys and keeps it (not as it goes over the wire)."""
    req: dict[str, object] = {
        "kind": kind,
        "messages": [{"role": m.role, "content": m.content} for m in messages],
        "max_tokens": max_tokens,
        "temperature": temperature,
    }
    if stop:
        req["stop"] = list(stop)
    if schema is not None:
        req["schema_name"] = schema.__name__
        req["schema"] = strict_schema(schema)
    return req


def request_key(request: Mapping[str, object]) -> str:
    blob = json.dumps(request, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def embed_key(text: str) -> str:
    return hashlib.sha256(("embed\0" + text).encode("utf-8")).hexdigest()


def tag_row(tag: CallTag) -> dict[str, object]:
    return {"purpose": tag.purpose, "resident": tag.resident, "priority": int(tag.priority)}


class RecordingLLM:
    """Wraps a real ``LLM`` and appends every answered request to ``path``."""

    def __init__(self, inner: LLM, path: str | os.PathLike[str]) -> None:
        self.inner = inner
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        new = not self.path.exists() or self.path.stat().st_size == 0
        self._fh = open(self.path, "a", encoding="utf-8")
        self._lock = threading.Lock()
        self._started = time.monotonic()
        if new:
            self._write({"format": FORMAT, "version": VERSION})

    @property
    def accounting(self) -> Accounting | None:
        """The wrapped client's (a recording counts nothing of its own); None where it keeps none."""
        return accounting_of(self.inner)

    def _write(self, row: Mapping[str, object]) -> None:
        line = json.dumps(row, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            self._fh.write(line + "\n")
            self._fh.flush()

    def _since(self) -> float:
        return round(time.monotonic() - self._started, 2)

    async def complete(self, messages: list[Message], schema: type[T], tag: CallTag, *,
                       max_tokens: int = 512, temperature: float = 0.7) -> T:
        asked = self._since()
        value = await self.inner.complete(messages, schema, tag, max_tokens=max_tokens,
                                          temperature=temperature)
        req = request_body("complete", messages, schema, max_tokens, temperature)
        self._write({"kind": "complete", "key": request_key(req), "tag": tag_row(tag),
                     "request": req, "answer": value.model_dump(mode="json"),
                     "asked_s": asked, "answered_s": self._since()})
        return value

    async def stream(self, messages: list[Message], tag: CallTag, *, max_tokens: int = 256,
                     temperature: float = 0.7, stop: tuple[str, ...] = ()) -> AsyncIterator[str]:
        pieces: list[str] = []
        asked = self._since()
        async for piece in self.inner.stream(messages, tag, max_tokens=max_tokens,
                                             temperature=temperature, stop=stop):
            pieces.append(piece)
            yield piece
        req = request_body("stream", messages, None, max_tokens, temperature, stop)
        self._write({"kind": "stream", "key": request_key(req), "tag": tag_row(tag),
                     "request": req, "pieces": pieces,
                     "asked_s": asked, "answered_s": self._since()})

    async def prefill(self, messages: list[Message], tag: CallTag) -> bool:
        """Passed on (nothing to record: its answer is never used)."""
        if not isinstance(self.inner, Prefills):
            return False
        return bool(await self.inner.prefill(messages, tag))

    async def embed(self, texts: list[str]) -> list[list[float]]:
        # the run goes on with the vectors as recorded (7 decimals), so that its replay weighs the
        # memories exactly as it did: full-precision vectors here and rounded ones in the replay
        # flip the order of near-equal memories and the replay asks other questions
        vectors = [[round(float(x), 7) for x in vec] for vec in await self.inner.embed(texts)]
        for text, vec in zip(texts, vectors):
            self._write({"kind": "embed", "key": embed_key(text), "text": text, "vector": vec})
        return vectors

    def status(self) -> ModelStatus:
        return self.inner.status()

    def close_file(self) -> None:
        """Close the recording (the wrapped client stays open)."""
        with self._lock:
            if not self._fh.closed:
                self._fh.close()

    async def aclose(self) -> None:
        self.close_file()
        if isinstance(self.inner, Closes):
            await self.inner.aclose()

    async def __aenter__(self) -> RecordingLLM:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class ReplayLLM:
    """Answers from a recording; never talks to a model.  Unknown requests raise ``NotRecorded``."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._answers: dict[str, list[dict[str, object]]] = {}
        self._next: dict[str, int] = {}
        self._vectors: dict[str, list[float]] = {}
        self.calls = 0
        self.accounting = Accounting()  # calls per (resident, purpose) and day; no tokens
        self._load()

    def _load(self) -> None:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except FileNotFoundError:
            raise LLMError(f"recording '{self.path}' does not exist") from None
        except (OSError, UnicodeDecodeError) as e:
            raise LLMError(f"recording '{self.path}' cannot be read: {e}") from None
        if not lines:
            raise LLMError(f"recording '{self.path}' is empty")
        try:
            head = json.loads(lines[0])
        except ValueError:
            head = None
        if not isinstance(head, dict) or head.get("format") != FORMAT:
            raise LLMError(f"'{self.path}' is not a model recording (first line is not a "
                           f"{FORMAT} header)")
        if head.get("version") != VERSION:
            raise LLMError(f"recording '{self.path}' has version {head.get('version')}, "
                           f"this game reads version {VERSION}")
        for n, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                kind = row["kind"]
                key = row["key"]
            except (ValueError, KeyError, TypeError):
                raise LLMError(f"recording '{self.path}', line {n}: not a recorded answer") from None
            if kind == "embed":
                self._vectors[key] = row["vector"]
            elif kind in ("complete", "stream"):
                self._answers.setdefault(key, []).append(row)
            else:
                raise LLMError(f"recording '{self.path}', line {n}: unknown kind '{kind}'")

    def _take(self, key: str, tag: CallTag, what: str) -> dict[str, object]:
        rows = self._answers.get(key)
        if not rows:
            raise NotRecorded(f"recording '{self.path}' has no answer for this {what} "
                              f"(purpose '{tag.purpose}', resident {tag.resident!r}): the run "
                              f"asked something the recorded run did not")
        i = self._next.get(key, 0)
        self._next[key] = i + 1
        self.calls += 1
        self.accounting.record(tag)
        return rows[min(i, len(rows) - 1)]

    async def complete(self, messages: list[Message], schema: type[T], tag: CallTag, *,
                       max_tokens: int = 512, temperature: float = 0.7) -> T:
        req = request_body("complete", messages, schema, max_tokens, temperature)
        row = self._take(request_key(req), tag, "structured request")
        try:
            return schema.model_validate(row["answer"])
        except (ValidationError, KeyError) as e:
            raise BadAnswer(f"recording '{self.path}': the recorded answer no longer fits "
                            f"{schema.__name__}: {e}", raw=json.dumps(row.get("answer"))) from None

    async def stream(self, messages: list[Message], tag: CallTag, *, max_tokens: int = 256,
                     temperature: float = 0.7, stop: tuple[str, ...] = ()) -> AsyncIterator[str]:
        req = request_body("stream", messages, None, max_tokens, temperature, stop)
        row = self._take(request_key(req), tag, "streamed request")
        for piece in as_list(row.get("pieces")):
            await asyncio.sleep(0)
            yield str(piece)

    async def prefill(self, messages: list[Message], tag: CallTag) -> bool:
        """Nothing to do: a replay has no server to warm."""
        return False

    async def embed(self, texts: list[str]) -> list[list[float]]:
        out = []
        for text in texts:
            vec = self._vectors.get(embed_key(text))
            if vec is None:
                raise NotRecorded(f"recording '{self.path}' has no embedding for the text "
                                  f"{text[:60]!r}")
            out.append(list(vec))
        return out

    def status(self) -> ModelStatus:
        return ModelStatus(url=f"replay:{self.path}", model="(recording)", reachable=True,
                           by_purpose=self.accounting.by_purpose())

    async def aclose(self) -> None:
        return None

    async def __aenter__(self) -> ReplayLLM:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None
