"""Sentence embeddings for memory relevance from elsewhere than the local encoder (minilm.py).

``RemoteEmbedder`` uses any OpenAI-compatible ``/v1/embeddings``.  ``CachedEmbedder`` keeps vectors
by text in memory and, optionally, in a SQLite file, so no text is ever embedded twice.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sqlite3
from collections import OrderedDict, deque
from pathlib import Path

import httpx
import numpy as np

from .api import Embedder, LLMError, ModelUnavailable
from .wire import body_excerpt, server_message

log = logging.getLogger(__name__)

# --- remote ---------------------------------------------------------------------------------


class RemoteEmbedder:
    """An OpenAI-compatible ``/v1/embeddings`` (llama-server --embeddings, Ollama, vLLM...).

    Texts asked for at once by many callers go in few requests: at most ``in_flight`` requests are
    sent at a time, and what is asked meanwhile waits and goes in the next one (up to ``batch``
    texts a request), each caller given its own vectors in its own order.  A town of hundreds
    asks thousands of single texts a minute: one request each queued in the HTTP pool's own
    queue, whose every step looks at every connection (300 residents: two thirds of the game's
    CPU went there, docs/SCALE.md)."""

    def __init__(self, base_url: str, model: str | None = None, *, api_key: str | None = None,
                 timeout_s: float = 60.0, retries: int = 3, backoff_s: float = 0.5,
                 transport: httpx.AsyncBaseTransport | None = None, in_flight: int = 4,
                 batch: int = 64) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.name = model or "remote"
        self.dim: int | None = None
        self.retries = retries
        self.backoff_s = backoff_s
        self.in_flight = max(1, in_flight)
        self.batch = max(1, batch)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx.AsyncClient(headers=headers, timeout=timeout_s, transport=transport,
                                       limits=httpx.Limits(max_connections=self.in_flight,
                                                           max_keepalive_connections=self.in_flight))
        self._waiting: deque[tuple[list[str], asyncio.Future[list[list[float]]]]] = deque()
        self._sending: set[asyncio.Task[None]] = set()
        self.requests = 0  # requests sent (each of up to ``batch`` texts)

    async def embed(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        fut: asyncio.Future[list[list[float]]] = asyncio.get_running_loop().create_future()
        self._waiting.append((list(texts), fut))
        self._send_waiting()
        return await fut

    def _send_waiting(self) -> None:
        """Send what waits, a request of up to ``batch`` texts while fewer than ``in_flight`` are out."""
        while self._waiting and len(self._sending) < self.in_flight:
            group: list[tuple[list[str], asyncio.Future[list[list[float]]]]] = []
            n = 0
            while self._waiting and (not group or n + len(self._waiting[0][0]) <= self.batch):
                texts, fut = self._waiting.popleft()
                if not fut.done():  # (a caller cancelled while it waited)
                    group.append((texts, fut))
                    n += len(texts)
            if not group:
                continue
            task = asyncio.ensure_future(self._send(group))
            self._sending.add(task)
            task.add_done_callback(self._sent)

    def _sent(self, task: asyncio.Task[None]) -> None:
        self._sending.discard(task)
        self._send_waiting()

    async def _send(self, group: list[tuple[list[str], asyncio.Future[list[list[float]]]]]) -> None:
        try:
            vecs = await self._post([t for texts, _ in group for t in texts])
        except BaseException as e:  # every caller of the request hears of it (a cancel: as an LLMError)
            err = e if isinstance(e, Exception) else LLMError(f"the embedding request to {self.base_url} was stopped")
            for _, fut in group:
                if not fut.done():
                    fut.set_exception(err)
            if not isinstance(e, Exception):
                raise
            return
        i = 0
        for texts, fut in group:
            if not fut.done():
                fut.set_result(vecs[i:i + len(texts)])
            i += len(texts)

    async def _post(self, texts: list[str]) -> list[list[float]]:
        payload: dict[str, object] = {"input": texts}
        if self.model:
            payload["model"] = self.model
        url = f"{self.base_url}/embeddings"
        self.requests += 1
        for attempt in range(self.retries + 1):
            try:
                resp = await self._http.post(url, json=payload)
            except httpx.TransportError as e:
                err = f"cannot reach the embedding server at {self.base_url}: {type(e).__name__}"
            else:
                if resp.status_code == 200:
                    break
                err = (f"the embedding server at {self.base_url} answered HTTP {resp.status_code}: "
                       f"{server_message(resp)}")
                if resp.status_code in (401, 403):
                    err += " (check TOWN_EMBED_API_KEY: the chat key goes only to the chat server's host)"
                if resp.status_code not in (429, 500, 502, 503, 504):
                    raise LLMError(err)
            if attempt == self.retries:
                raise ModelUnavailable(err)
            await asyncio.sleep(self.backoff_s * 2**attempt)
        try:
            rows = sorted(resp.json()["data"], key=lambda r: r.get("index", 0))
            vecs = np.asarray([r["embedding"] for r in rows], np.float32)
        except (ValueError, KeyError, TypeError):
            raise LLMError(f"the embedding server at {self.base_url} sent a reply without "
                           f"embeddings: {body_excerpt(resp)}") from None
        if vecs.ndim != 2 or len(vecs) != len(texts):
            raise LLMError(f"the embedding server at {self.base_url} sent {len(vecs)} vectors "
                           f"for {len(texts)} texts")
        self.dim = vecs.shape[1]
        vecs /= np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
        return vecs.tolist()

    async def aclose(self) -> None:
        for task in list(self._sending):
            task.cancel()
        await self._http.aclose()


# --- cache ----------------------------------------------------------------------------------


class CachedEmbedder:
    """Vectors by text: an in-memory LRU in front of an optional SQLite file."""

    def __init__(self, inner: Embedder, *, path: str | Path | None = None, max_memory: int = 50_000) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self.max_memory = max_memory
        self._mem: OrderedDict[str, list[float]] = OrderedDict()
        self._db: sqlite3.Connection | None = None
        self.hits = 0
        self.misses = 0
        self.disk_error: str | None = None
        if path is not None:
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(str(path), check_same_thread=False, timeout=2.0)
                self._db.execute("CREATE TABLE IF NOT EXISTS vec (key TEXT PRIMARY KEY, v BLOB)")
                self._db.commit()
            except (OSError, sqlite3.Error) as e:
                self._disk_failed(e)

    def _disk_failed(self, e: Exception) -> None:
        # the disk cache only saves time: without it every vector is still computed for real
        self.disk_error = f"embedding cache disabled: {e}"
        log.info("%s", self.disk_error)
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
        self._db = None

    def _key(self, text: str) -> str:
        return hashlib.sha256(f"{self.name}\0{text}".encode()).hexdigest()

    def _remember(self, key: str, vec: list[float]) -> None:
        self._mem[key] = vec
        self._mem.move_to_end(key)
        while len(self._mem) > self.max_memory:
            self._mem.popitem(last=False)

    async def embed(self, texts: list[str]) -> list[list[float]]:
        keys = [self._key(t) for t in texts]
        out: list[list[float] | None] = [None] * len(texts)
        todo: dict[str, list[int]] = {}
        for i, key in enumerate(keys):
            vec = self._mem.get(key)
            if vec is None and self._db is not None:
                try:
                    row = self._db.execute("SELECT v FROM vec WHERE key=?", (key,)).fetchone()
                except sqlite3.Error as e:
                    self._disk_failed(e)
                    row = None
                if row is not None:
                    vec = np.frombuffer(row[0], np.float32).tolist()
                    self._remember(key, vec)
            if vec is not None:
                self.hits += 1
                out[i] = vec
            else:
                todo.setdefault(key, []).append(i)
        if todo:
            first = [texts[idx[0]] for idx in todo.values()]
            self.misses += len(first)
            vecs = await self.inner.embed(first)
            rows = []
            for (key, idx), vec in zip(todo.items(), vecs):
                self._remember(key, vec)
                for i in idx:
                    out[i] = vec
                rows.append((key, np.asarray(vec, np.float32).tobytes()))
            if self._db is not None:
                try:
                    self._db.executemany("INSERT OR REPLACE INTO vec VALUES (?, ?)", rows)
                    self._db.commit()
                except sqlite3.Error as e:
                    self._disk_failed(e)
            self.dim = len(vecs[0]) if vecs else self.dim
        return out  # type: ignore[return-value]

    async def aclose(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        await self.inner.aclose()
