"""``ModelClient``: the real ``LLM``, talking to any OpenAI-compatible server over HTTP.

One priority scheduler sits in front of the server (as many requests in flight as it has slots);
transport failures are retried with exponential backoff and then reported as ``ModelUnavailable``
or ``ModelTimeout``; answers that do not validate are repaired or asked again a bounded number of
times and then reported as ``BadAnswer``.  Nothing here ever invents an answer.

The wire format (messages as sent, reply fields, token counts, server errors) is in wire.py;
this module is the retries, the re-asks and the accounting around each request.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel

from .accounting import Accounting
from .answers import AnswerError, parse_answer, response_format
from .api import BadAnswer, CallTag, Embedder, LLMError, Message, ModelStatus, ModelTimeout, ModelUnavailable
from .config import LLMConfig
from .scheduler import PriorityScheduler
from .wire import RETRY_STATUS, Transient, as_text, finite_numbers, server_message, token_counts, utf8, wire_messages

T = TypeVar("T", bound=BaseModel)
R = TypeVar("R")


class _Preempted(Exception):
    """A town request stopped for the player's (``ModelClient._stoppable``): ask it again."""


log = logging.getLogger(__name__)

_EMBED_TAG = CallTag(purpose="embed")


# seconds after a request of the player's during which the town starts none of its own (see
# PriorityScheduler): longer than the pause between two prefills while the player types, and than
# most pauses to read a reply before typing the next line
PLAYER_LINGER_S = 8.0

class ModelClient:
    """The real model layer.  Use ``async with ModelClient(...) as llm`` or call ``aclose()``."""

    def __init__(
        self,
        base_url: str,
        model: str | None = None,
        *,
        api_key: str | None = None,
        slots: int | None = None,
        timeout_s: float = 600.0,
        connect_timeout_s: float = 10.0,
        transport_retries: int = 3,
        backoff_s: float = 0.5,
        answer_retries: int = 2,
        embedder: Embedder | None = None,
        accounting: Accounting | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        cache_prompt: bool | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout_s = timeout_s
        self.transport_retries = max(0, transport_retries)
        self.backoff_s = backoff_s
        self.answer_retries = max(0, answer_retries)
        self.embedder = embedder
        self.accounting = accounting or Accounting()
        self._slots_fixed = slots is not None
        # whether the server keeps evaluated prompts for later requests that begin the same way
        # (llama-server does, in its slots and its prompt cache): then ``prefill`` is worth a call
        self.caches_prompts = False
        # llama-server's request field ``cache_prompt`` (``ServerFlags.cache_prompt``): None leaves
        # it to the server (on by default); sent only to llama-server (``/props`` answered)
        self.cache_prompt = cache_prompt
        self._llama_server = False
        self.scheduler = PriorityScheduler(slots or 4)
        self.last_error: str | None = None
        self.reachable = True
        self.models_error: str | None = None  # GET /models was not the API's list (town llm check says so)
        # llama-server's per-request timings (prompt_n, prompt_ms, predicted_n, predicted_ms)
        self.timings: deque[tuple[int, float, int, float]] = deque(maxlen=256)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._http = httpx.AsyncClient(
            headers=headers,
            timeout=httpx.Timeout(timeout_s, connect=connect_timeout_s),
            transport=transport,
            limits=httpx.Limits(max_connections=64, max_keepalive_connections=16),
        )

    @classmethod
    def from_config(cls, config: LLMConfig, *, base_url: str | None = None,
                    embedder: Embedder | None = None, **kw: Any) -> ModelClient:
        url = base_url or config.llm_url
        if not url:
            raise LLMError("no model server URL: pass --llm-url, set TOWN_LLM_URL, "
                           "or use open_llm() to start the embedded server")
        return cls(
            url,
            config.model,
            api_key=config.api_key,
            slots=config.slots,
            timeout_s=config.timeout_s,
            connect_timeout_s=config.connect_timeout_s,
            transport_retries=config.transport_retries,
            backoff_s=config.backoff_s,
            answer_retries=config.answer_retries,
            embedder=embedder,
            cache_prompt=config.server.cache_prompt,
            **kw,
        )

    # --- lifecycle ------------------------------------------------------------------------

    async def __aenter__(self) -> ModelClient:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()
        if self.embedder is not None:
            await self.embedder.aclose()

    @property
    def _root(self) -> str:
        """The server root (llama-server serves /health and /props there, not under /v1)."""
        return self.base_url[:-3] if self.base_url.endswith("/v1") else self.base_url

    async def connect(self) -> None:
        """Reach the server once: learn the model name and (llama-server) the number of slots.

        Raises ``ModelUnavailable`` with the URL when nothing answers."""
        try:
            resp = await self._http.get(f"{self.base_url}/models")
        except httpx.HTTPError as e:
            self._fail(f"cannot reach the model server at {self.base_url}: {type(e).__name__}: {e}")
            raise ModelUnavailable(self.last_error) from None
        if resp.status_code in (401, 403):
            raise LLMError(f"the model server at {self.base_url} refused the request "
                           f"(HTTP {resp.status_code}): check TOWN_LLM_API_KEY")
        if resp.status_code == 200:
            try:
                models = [m.get("id") for m in resp.json().get("data", []) if isinstance(m, dict)]
            except (ValueError, AttributeError, RecursionError):
                models = []
            if self.model is None and models:
                self.model = models[0]
        else:
            self.models_error = f"GET {self.base_url}/models answered HTTP {resp.status_code}: {server_message(resp)}"
        if not self._slots_fixed:
            try:
                props = await self._http.get(f"{self._root}/props", timeout=5.0)
                if props.status_code == 200:
                    total = int(props.json().get("total_slots") or 0)
                    if total > 0:
                        self.scheduler.resize(total)
                        self._llama_server = True
                        # llama-server keeps evaluated prompts (unless told not to)
                        self.caches_prompts = self.cache_prompt is not False
                        # a talk with the player is then a run of short requests (prefills while
                        # they type, the reply): the town waits between them too
                        self.scheduler.linger = PLAYER_LINGER_S
                        # one server's slots share its cores: the player's reply stops the town's
                        # requests in flight rather than wait behind them (they are asked again)
                        self.scheduler.preempt = True
            except (httpx.HTTPError, ValueError, TypeError, AttributeError):
                pass  # not llama-server: keep the configured default
        self.reachable = True

    def _fail(self, message: str) -> None:
        self.last_error = message
        log.info("%s", message)

    # --- one HTTP request with retries ----------------------------------------------------

    async def _post_once(self, path: str, payload: dict[str, Any]) -> dict[str, Any]:
        url = f"{self.base_url}{path}"
        try:
            resp = await self._http.post(url, json=payload)
        except httpx.TimeoutException as e:
            kind = "connect" if isinstance(e, httpx.ConnectTimeout) else "answer"
            raise Transient(f"the model server at {self.base_url} did not {kind} in time "
                             f"({type(e).__name__})", timeout=kind == "answer") from None
        except httpx.TransportError as e:
            raise Transient(f"lost the model server at {self.base_url}: "
                             f"{type(e).__name__}: {e or 'connection closed'}") from None
        if resp.status_code == 200:
            try:
                return resp.json()
            except (ValueError, RecursionError):
                raise Transient(f"the model server at {self.base_url} sent a broken reply") from None
        msg = server_message(resp)
        if resp.status_code in RETRY_STATUS:
            raise Transient(f"the model server at {self.base_url} answered HTTP "
                             f"{resp.status_code}: {msg}")
        if resp.status_code in (401, 403):
            raise LLMError(f"the model server at {self.base_url} refused the request "
                           f"(HTTP {resp.status_code}): check TOWN_LLM_API_KEY")
        raise LLMError(f"the model server at {self.base_url} rejected the request "
                       f"(HTTP {resp.status_code}): {msg}")

    async def _post(self, path: str, payload: dict[str, Any], tag: CallTag) -> tuple[dict[str, Any], float, int]:
        """POST with a scheduler slot, retrying transient failures.  Returns (json, seconds, retries)."""
        retries = 0
        while True:
            async with self.scheduler.slot(tag.priority, tag.resident or None) as number:
                t0 = time.monotonic()
                try:
                    data = await self._stoppable(self._post_once(path, self._pinned(payload, number)),
                                                 number, tag)
                except _Preempted:
                    continue  # stopped for the player's request: asked again once a slot is free
                except Transient as e:
                    err = e
                except LLMError as e:  # refused (4xx): retrying will not help
                    self.last_error = str(e)
                    self.accounting.record(tag, latency_s=time.monotonic() - t0, failed=True,
                                           retries=retries)
                    raise
                else:
                    self.reachable = True
                    return data, time.monotonic() - t0, retries
            # the slot is free while we back off
            if err.timeout or retries >= self.transport_retries:
                self._fail(str(err))
                self.accounting.record(tag, latency_s=time.monotonic() - t0, failed=True, retries=retries)
                if err.timeout:
                    raise ModelTimeout(f"{err} (limit {self.timeout_s:.0f} s)") from None
                self.reachable = False
                raise ModelUnavailable(f"{err} (tried {retries + 1} times)") from None
            await asyncio.sleep(self.backoff_s * (2 ** retries))
            retries += 1

    async def _stoppable(self, request: Awaitable[R], number: int, tag: CallTag) -> R:
        """``request`` in slot ``number``; a town request may be stopped for the player's (the
        scheduler's ``preempt``): the HTTP request is dropped, which stops the server's work on
        it, and ``_Preempted`` says to ask again."""
        if tag.priority <= 0 or not self.scheduler.preempt:
            return await request
        task = asyncio.ensure_future(request)
        stopped = False

        def stop() -> None:
            nonlocal stopped
            if not task.done():
                stopped = True
                task.cancel()
        self.scheduler.on_preempt(number, stop)
        try:
            return await task
        except asyncio.CancelledError:
            me = asyncio.current_task()
            if stopped and (me is None or not me.cancelling()):
                log.info("%s's %s stopped for the player's request; asked again", tag.resident, tag.purpose)
                raise _Preempted() from None
            raise
        finally:
            self.scheduler.on_preempt(number, None)

    def _pinned(self, payload: dict[str, Any], number: int) -> dict[str, Any]:
        """The request pinned to server slot ``number`` (llama-server only: see the scheduler)."""
        if not self.caches_prompts or number >= self.scheduler.slots:
            return payload
        return {**payload, "id_slot": number}

    def _note_timings(self, timings: dict[str, float]) -> float | None:
        """Keep llama-server's timings of one request (``self.timings``); returns its generation
        seconds (None when the server sent none)."""
        if timings:
            self.timings.append((int(timings.get("prompt_n", 0)), float(timings.get("prompt_ms", 0)),
                                 int(timings.get("predicted_n", 0)), float(timings.get("predicted_ms", 0))))
        return (timings.get("predicted_ms") or 0) / 1000.0 or None

    # --- the LLM protocol -----------------------------------------------------------------

    def _payload(self, messages: list[dict[str, str]], max_tokens: int, temperature: float) -> dict[str, Any]:
        payload: dict[str, Any] = {"messages": messages, "max_tokens": max_tokens,
                                   "temperature": temperature}
        if self.model:
            payload["model"] = self.model
        if self.cache_prompt is not None and self._llama_server:
            payload["cache_prompt"] = self.cache_prompt
        return payload

    async def complete(
        self,
        messages: list[Message],
        schema: type[T],
        tag: CallTag,
        *,
        max_tokens: int = 512,
        temperature: float = 0.7,
    ) -> T:
        convo = wire_messages(messages)
        fmt = response_format(schema)
        answer_retries = 0
        transport_retries = 0
        while True:
            payload = self._payload(convo, max_tokens, temperature)
            payload["response_format"] = fmt
            data, seconds, retried = await self._post("/chat/completions", payload, tag)
            transport_retries += retried
            try:
                choice = data["choices"][0]
                text = as_text(choice["message"].get("content"))
                finish = choice.get("finish_reason")
            except (KeyError, IndexError, TypeError, AttributeError):
                self.accounting.record(tag, latency_s=seconds, failed=True)
                raise LLMError(f"the model server at {self.base_url} sent a reply without an answer: "
                               f"{json.dumps(data)[:200]}") from None
            timings = finite_numbers(data.get("timings"))
            tokens = token_counts(data.get("usage"), data.get("timings"))
            gen_s = self._note_timings(timings)
            try:
                value, _repaired = parse_answer(text, schema)
            except AnswerError as e:
                feedback = e.feedback
                if finish == "length":
                    feedback = (f"the answer was cut off at {max_tokens} tokens; "
                                f"answer again, shorter ({e.feedback})")
                    # asked again with room to finish: a schema bounds the answer's length, and
                    # the same budget mostly cuts the second answer where it cut the first
                    max_tokens += max_tokens // 2
                if answer_retries >= self.answer_retries:
                    self.accounting.record(tag, **tokens, latency_s=seconds, failed=True,
                                           retries=transport_retries, generation_s=gen_s)
                    self.last_error = (f"{tag.purpose}: bad answer after {answer_retries + 1} "
                                       f"tries: {feedback}")
                    raise BadAnswer(f"the model's answer to '{tag.purpose}' did not fit "
                                    f"{schema.__name__} after {answer_retries + 1} tries: {feedback}",
                                    raw=text) from None
                self.accounting.record(tag, **tokens, latency_s=seconds, retries=transport_retries,
                                       generation_s=gen_s)
                transport_retries = 0
                answer_retries += 1
                convo = convo + [
                    {"role": "assistant", "content": utf8(text[:2000])},
                    {"role": "user", "content": f"That answer cannot be used: {feedback}. "
                                                "Answer again with only the JSON object."},
                ]
                continue
            self.accounting.record(tag, **tokens, latency_s=seconds, retries=transport_retries + answer_retries,
                                   generation_s=gen_s)
            return value

    async def stream(
        self,
        messages: list[Message],
        tag: CallTag,
        *,
        max_tokens: int = 256,
        temperature: float = 0.7,
        stop: tuple[str, ...] = (),
    ) -> AsyncIterator[str]:
        payload = self._payload(wire_messages(messages), max_tokens, temperature)
        if stop:
            payload["stop"] = list(stop)
        payload["stream"] = True
        payload["stream_options"] = {"include_usage": True}
        retries = 0
        while True:
            started = False
            pieces = 0
            usage: Any = {}
            timings: dict[str, Any] = {}
            raw_timings: Any = None
            async with self.scheduler.slot(tag.priority, tag.resident or None) as number:
                t0 = time.monotonic()
                try:
                    async with self._http.stream("POST", f"{self.base_url}/chat/completions",
                                                 json=self._pinned(payload, number)) as resp:
                        if resp.status_code != 200:
                            await resp.aread()
                            msg = server_message(resp)
                            if resp.status_code in RETRY_STATUS:
                                raise Transient(f"the model server at {self.base_url} answered "
                                                 f"HTTP {resp.status_code}: {msg}")
                            raise LLMError(f"the model server at {self.base_url} rejected the "
                                           f"request (HTTP {resp.status_code}): {msg}")
                        async for line in resp.aiter_lines():
                            if not line.startswith("data:"):
                                continue
                            body = line[5:].strip()
                            if body == "[DONE]":
                                break
                            try:
                                chunk = json.loads(body)
                            except (ValueError, RecursionError):
                                continue
                            if not isinstance(chunk, dict):
                                continue
                            if isinstance(chunk.get("usage"), dict):
                                usage = chunk["usage"]
                            if isinstance(chunk.get("timings"), dict):  # llama-server: the last chunk
                                raw_timings = chunk["timings"]
                                timings = finite_numbers(raw_timings)
                            choices = chunk.get("choices")
                            for choice in choices if isinstance(choices, list) else []:
                                delta = choice.get("delta") if isinstance(choice, dict) else None
                                piece = delta.get("content") if isinstance(delta, dict) else None
                                if piece and isinstance(piece, str):
                                    started = True
                                    pieces += 1
                                    yield piece
                except httpx.TimeoutException as e:
                    self._fail(f"the model server at {self.base_url} stopped answering "
                               f"({type(e).__name__})")
                    self.accounting.record(tag, latency_s=time.monotonic() - t0, failed=True)
                    raise ModelTimeout(self.last_error or "timeout") from None
                except (httpx.TransportError, Transient) as e:
                    msg = str(e) if isinstance(e, Transient) else (
                        f"lost the model server at {self.base_url}: {type(e).__name__}: "
                        f"{e or 'connection closed'}")
                    if started or retries >= self.transport_retries:
                        self._fail(msg)
                        self.reachable = False
                        self.accounting.record(tag, latency_s=time.monotonic() - t0, failed=True,
                                               retries=retries)
                        raise ModelUnavailable(msg + (" in the middle of an answer" if started else
                                                      f" (tried {retries + 1} times)")) from None
                    err_msg = msg
                else:
                    self.reachable = True
                    gen_s = self._note_timings(timings)
                    self.accounting.record(
                        tag, **token_counts(usage, raw_timings, completion_default=pieces),
                        latency_s=time.monotonic() - t0, retries=retries, generation_s=gen_s)
                    return
            log.info("retrying stream after: %s", err_msg)
            await asyncio.sleep(self.backoff_s * (2 ** retries))
            retries += 1

    async def prefill(self, messages: list[Message], tag: CallTag) -> bool:
        """Have the server evaluate ``messages`` now and keep them cached, so that a later request
        that begins with them only evaluates what follows (the player's words) and answers in about
        a second instead of after the whole prompt.  A one-token completion whose text is thrown
        away; sent only to a server known to keep prompt caches (llama-server).  Returns whether it
        was sent.  Raises ``LLMError`` like any request."""
        if not self.caches_prompts:
            return False
        payload = self._payload(wire_messages(messages), 1, 0.0)
        payload["cache_prompt"] = True
        data, seconds, retried = await self._post("/chat/completions", payload, tag)
        self.accounting.record(tag, **token_counts(data.get("usage"), data.get("timings")),
                               latency_s=seconds, retries=retried)
        return True

    async def embed(self, texts: list[str]) -> list[list[float]]:
        if self.embedder is None:
            raise LLMError("no embedding model is configured: run `town setup` or pass --embed-url")
        t0 = time.monotonic()
        try:
            vectors = await self.embedder.embed(list(texts))
        except LLMError as e:
            self.last_error = str(e)
            self.accounting.record(_EMBED_TAG, latency_s=time.monotonic() - t0, failed=True)
            raise
        self.accounting.record(_EMBED_TAG, latency_s=time.monotonic() - t0)
        return vectors

    def status(self) -> ModelStatus:
        return ModelStatus(
            url=self.base_url,
            model=self.model or "",
            in_flight=self.scheduler.in_flight,
            queued=self.scheduler.queued,
            tokens_per_s=round(self.accounting.tokens_per_s(), 2),
            last_error=self.last_error,
            reachable=self.reachable,
            by_purpose=self.accounting.by_purpose(),
            spare=round(self.scheduler.spare(), 3),
            idle_s=round(self.scheduler.idle_s(), 1),
        )
