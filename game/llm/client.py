"""``ModelClient``: the real ``LLM``, talking to any OpenAI-compatible server over HTTP.

One priority scheduler sits in front of the server (as many requests in flight as it has slots);
transport failures are retried with exponential backoff and then reported as ``ModelUnavailable``
or ``ModelTimeout``; answers that do not validate are repaired or asked again a bounded number of
times and then reported as ``BadAnswer``.  Nothing here ever invents an answer.

The wire format (messages as sent, reply fields, token counts, server errors) is in wire.py; one
request in a scheduler slot, with its retries, in link.py; this module builds the requests, asks
again after a bad answer and keeps the accounting of each.
"""

from __future__ import annotations

import json
import logging
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import NoReturn, TypeVar

import httpx
from pydantic import BaseModel

from .accounting import Accounting
from .answers import AnswerError, parse_answer, response_format
from .api import BadAnswer, CallTag, Embedder, LLMError, Message, ModelStatus, ModelTimeout, ModelUnavailable
from .config import LLMConfig
from .gauge import ServerGauge
from .jsonvalue import as_object
from .link import ServerLink
from .scheduler import PriorityScheduler
from .server import EmbeddedServer
from .supervisor import ServerSupervisor
from .throttle import Throttle
from .wire import StreamTally, Transient, answer_of, finite_numbers, server_message, token_counts, utf8, wire_messages

T = TypeVar("T", bound=BaseModel)

log = logging.getLogger(__name__)

_EMBED_TAG = CallTag(purpose="embed")


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
        max_in_flight: int = 256,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.answer_retries = max(0, answer_retries)
        self.embedder = embedder
        self.accounting = accounting or Accounting()
        self._slots_fixed = slots is not None
        # llama-server's request field ``cache_prompt`` (``ServerFlags.cache_prompt``): None leaves
        # it to the server (on by default); sent only to llama-server (``/props`` answered)
        self.cache_prompt = cache_prompt
        self._llama_server = False
        # as many in flight as the server has slots (given, or said by /props at ``connect``);
        # for a server that says nothing, as many as its answer times show it takes (throttle.py)
        self.scheduler = PriorityScheduler(slots or max_in_flight, throttle=Throttle(slots) if slots else
                                           Throttle(max_in_flight, stated=False))
        self.server: EmbeddedServer | None = None  # the llama-server this game started for it, if any
        self.models_error: str | None = None  # GET /models was not the API's list (town llm check says so)
        # llama-server's per-request timings (prompt_n, prompt_ms, predicted_n, predicted_ms)
        self.timings: deque[tuple[int, float, int, float]] = deque(maxlen=256)
        self.gauge = ServerGauge()  # the same, summed over the run (``town run``'s server speed)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}

        def pool() -> httpx.AsyncClient:  # the scheduler bounds what is in flight, not the pool
            return httpx.AsyncClient(headers=headers, timeout=httpx.Timeout(timeout_s, connect=connect_timeout_s),
                                     transport=transport, limits=httpx.Limits(max_connections=None,
                                                                              max_keepalive_connections=None))
        self._http = pool()
        self.link = ServerLink(self.base_url, self._http, self.scheduler, self.accounting,
                               timeout_s=timeout_s, transport_retries=max(0, transport_retries),
                               backoff_s=backoff_s)
        self.link.more_http = pool  # a pool for each POOL_SLOTS slots (link.py)

    @property
    def caches_prompts(self) -> bool:
        """Whether the server keeps evaluated prompts for later requests that begin the same way
        (llama-server does, in its slots and its prompt cache): then ``prefill`` is worth a call."""
        return self.link.caches_prompts

    @property
    def last_error(self) -> str | None:
        return self.link.last_error

    @property
    def reachable(self) -> bool:
        sup = self.link.supervisor
        return self.link.reachable and (sup is None or sup.state == "up")

    @property
    def supervisor(self) -> ServerSupervisor | None:
        """What brings the server back when it goes away (``open_llm`` gives one), or None."""
        return self.link.supervisor

    def share_server(self) -> None:
        """This client shares its server with others (a side command at a URL): pin nothing."""
        self.link.pin_slots = False

    def supervise(self, supervisor: ServerSupervisor) -> None:
        self.link.supervisor = supervisor

    @classmethod
    def from_config(cls, config: LLMConfig, *, base_url: str | None = None,
                    embedder: Embedder | None = None,
                    accounting: Accounting | None = None,
                    transport: httpx.AsyncBaseTransport | None = None) -> ModelClient:
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
            max_in_flight=config.max_in_flight,
            accounting=accounting,
            transport=transport,
        )

    # --- lifecycle ------------------------------------------------------------------------

    async def __aenter__(self) -> ModelClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.link.aclose()
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
            self.link.fail(f"cannot reach the model server at {self.base_url}: {type(e).__name__}: {e}")
            raise ModelUnavailable(self.link.last_error) from None
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
            self._llama_server = await self.link.ask_props(self._root, self.cache_prompt)
        self.link.reachable = True

    def _note_timings(self, timings: dict[str, float]) -> float | None:
        """Keep llama-server's timings of one request (``self.timings``); returns its generation
        seconds (None when the server sent none)."""
        if timings:
            row = (int(timings.get("prompt_n", 0)), float(timings.get("prompt_ms", 0)),
                   int(timings.get("predicted_n", 0)), float(timings.get("predicted_ms", 0)))
            self.timings.append(row)
            self.gauge.note(*row)
        return (timings.get("predicted_ms") or 0) / 1000.0 or None

    # --- the LLM protocol -----------------------------------------------------------------

    def _payload(self, messages: list[dict[str, str]], max_tokens: int, temperature: float) -> dict[str, object]:
        payload: dict[str, object] = {"messages": messages, "max_tokens": max_tokens,
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
            reply, seconds, retried = await self.link.post("/chat/completions", payload, tag)
            transport_retries += retried
            answer = answer_of(reply)
            if answer is None:
                self.accounting.record(tag, latency_s=seconds, failed=True)
                raise LLMError(f"the model server at {self.base_url} sent a reply without an answer: "
                               f"{json.dumps(reply)[:200]}")
            text, finish = answer
            data = as_object(reply)
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
                    self.link.last_error = (f"{tag.purpose}: bad answer after {answer_retries + 1} "
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
        payload = {**self._payload(wire_messages(messages), max_tokens, temperature), "stream": True,
                   "stream_options": {"include_usage": True}, **({"stop": list(stop)} if stop else {})}
        retries = reasked = refused = 0
        first = 0.0  # when the server first refused it for its load
        while True:
            tally = StreamTally()
            async with self.scheduler.slot(tag.priority, tag.resident or None) as number:
                t0 = time.monotonic()
                try:
                    async with aclosing(self.link.stream_lines(payload, number)) as lines:
                        async for line in lines:
                            for piece in tally.read(line):
                                yield piece
                            if tally.done:
                                break
                except httpx.TimeoutException as e:
                    self._stream_timeout(e, tag, t0)
                except (httpx.TransportError, Transient) as e:
                    lost = e if isinstance(e, Transient) else Transient(
                        f"lost the model server at {self.base_url}: {type(e).__name__}: "
                        f"{e or 'connection closed'}", lost=True)
                    if tally.pieces > 0:  # an answer begun cannot be resumed
                        self._stream_lost(lost, tag, t0, retries + reasked, started=True)
                    if lost.busy:
                        self.scheduler.refused(number)
                else:
                    self.scheduler.answered(number, time.monotonic() - t0, tag.purpose)
                    self.link.answered()
                    gen_s = self._note_timings(tally.timings)
                    self.accounting.record(
                        tag, **token_counts(tally.usage, tally.raw_timings, completion_default=tally.pieces),
                        latency_s=time.monotonic() - t0, retries=retries + reasked + refused, generation_s=gen_s)
                    return
            # not begun: asked again once the server is back (the slot is free meanwhile), or retried
            first = first or (time.monotonic() if lost.busy else 0.0)
            if lost.busy and await self.link.wait_busy(lost, refused, first):  # refused for its load
                refused += 1
                continue
            if lost.busy:
                self._stream_lost(lost, tag, t0, retries + refused, started=False)
            again = await self.link.recovered(lost, reasked)
            if again:
                reasked += 1
                continue
            if again is False or retries >= self.link.transport_retries:
                self._stream_lost(lost, tag, t0, retries, started=False)
            log.info("retrying stream after: %s", lost)
            await self.link.backoff(retries)
            retries += 1

    def _stream_timeout(self, e: httpx.TimeoutException, tag: CallTag, t0: float) -> NoReturn:
        self.link.fail(f"the model server at {self.base_url} stopped answering ({type(e).__name__})")
        self.accounting.record(tag, latency_s=time.monotonic() - t0, failed=True)
        raise ModelTimeout(self.last_error or "timeout") from None

    def _stream_lost(self, e: Transient, tag: CallTag, t0: float, retries: int, *, started: bool) -> NoReturn:
        """A stream that failed on the way, and stops here: once an answer had begun, or the
        server is away, or the retries are spent."""
        msg = str(e)
        self.link.fail(msg)
        self.link.reachable = False
        self.accounting.record(tag, latency_s=time.monotonic() - t0, failed=True, retries=retries)
        raise ModelUnavailable(msg + (" in the middle of an answer" if started else
                                      f" ({self.link.gone_words(retries)})")) from None

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
        reply, seconds, retried = await self.link.post("/chat/completions", payload, tag)
        data = as_object(reply)
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
            self.link.last_error = str(e)
            self.accounting.record(_EMBED_TAG, latency_s=time.monotonic() - t0, failed=True)
            raise
        self.accounting.record(_EMBED_TAG, latency_s=time.monotonic() - t0)
        return vectors

    def status(self) -> ModelStatus:
        status = ModelStatus(
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
            slots=self.scheduler.capacity,
            stalled=self.link.stalled,
            gauge=self.gauge.as_dict(),
        )
        sup = self.link.supervisor
        if sup is not None:
            status.server, status.restarts, status.reasked = sup.state, sup.restarts, sup.reasked
            status.server_note = sup.away if sup.state == "away" else sup.note
        return status
