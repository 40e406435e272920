"""``ServerLink``: one request to an OpenAI-compatible server at a time, as the model layer sends
it: in a slot of the priority scheduler, pinned to that slot of a llama-server, retried with
exponential backoff after a transport failure, and stopped for the player's request where the
scheduler preempts (then asked again).  ``ModelClient`` (client.py) builds the requests and
reads the answers; this is the road they travel.

A server that refuses a request for its load (HTTP 429 or 503) gets fewer in flight (the
scheduler's throttle) and the request is asked again after the seconds its ``Retry-After`` asks,
or after a back-off (0.5 s doubling to 30 s, with jitter) without one, for as long as
``busy_patience_s`` (the request timeout): a refusal is never a lost call, as a server that answers
again takes it.  Each answer's time in a slot goes to the throttle too (how many the server takes).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import random
import time
from collections import deque
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import TypeVar

import httpx

from .accounting import Accounting
from .api import CallTag, LLMError, ModelTimeout, ModelUnavailable
from .scheduler import PriorityScheduler
from .slotwatch import SlotWatch
from .supervisor import Recovery, ServerSupervisor
from .wire import RETRY_STATUS, Transient, refusal, server_message

R = TypeVar("R")

log = logging.getLogger(__name__)

# how many times one call is asked again after the server it found gone came back (a request that
# kills the server each time it is asked must not restart it for ever)
MAX_REASKED = 2
# seconds after a request of the player's during which the town starts none of its own (see
# PriorityScheduler; llama-server only): longer than the pause between two prefills while the
# player types, and than most pauses to read a reply before typing the next line
PLAYER_LINGER_S = 8.0
# requests of this many slot numbers share one HTTP connection pool: httpcore's pool looks at each
# of its connections at every step of every request, and with a few hundred in one pool that took
# most of the game's CPU (a town of 300 on 100 slots: docs/SCALE.md)
POOL_SLOTS = 16
# a request in flight this long, and STALL_FACTOR times the slowest of the last answers (their 90th
# percentile), while the server answered others that began after it, is stuck in its server slot (a
# llama-server slot was seen to hold one request for ten minutes, answering nothing, while the other
# slots went on, and every later request pinned to that slot waited behind it): it is dropped (which
# frees the server's slot where the server still listens) and asked again, no longer pinned there
STALL_FLOOR_S = 120.0
STALL_FACTOR = 6.0
MAX_STALLS = 1  # times one call is asked again after it stalled; then it fails as a timeout
MAX_WEDGES = 3  # times one call is asked again after the whole server stood still with it (slotwatch.py)
# seconds after a request in a slot was dropped during which no request is pinned to that slot: a
# llama-server asked for a slot while it still ended the request dropped there wedged, that slot and
# the server with it, for every later request pinned there (2026-11-29; slotwatch.py); one second after, fine
REPIN_AFTER_S = 3.0
BUSY_BACKOFF_MAX_S = 30.0  # the longest wait between two tries of a request the server refused (no Retry-After)


class Preempted(Exception):
    """A town request stopped for the player's (``ServerLink.stoppable``): ask it again."""


class ServerLink:
    """The HTTP client, the scheduler and what is known of the server's health."""

    def __init__(self, base_url: str, http: httpx.AsyncClient, scheduler: PriorityScheduler,
                 accounting: Accounting, *, timeout_s: float, transport_retries: int,
                 backoff_s: float) -> None:
        self.base_url = base_url
        self.http = http
        self.more_http: Callable[[], httpx.AsyncClient] | None = None  # another pool like ``http``
        self._pools: dict[int, httpx.AsyncClient] = {}  # past the first POOL_SLOTS slot numbers
        self.scheduler = scheduler
        self.accounting = accounting
        self.timeout_s = timeout_s
        self.transport_retries = transport_retries
        self.backoff_s = backoff_s
        self.last_error: str | None = None
        self.reachable = True
        # whether the server keeps evaluated prompts for later requests that begin the same way
        # (llama-server does, in its slots and its prompt cache): then requests are pinned to slots
        self.caches_prompts = False
        # False for a client that shares a server the game did not start (``town interview`` beside a
        # run): two clients pinning requests to one slot were seen to wedge llama-server (slotwatch.py)
        self.pin_slots = True
        # brings a server that went away back (open_llm gives one); None: failures are only retried
        self.supervisor: ServerSupervisor | None = None
        self.busy_patience_s = timeout_s  # how long a call asks a server that refuses it for its load
        self.refusals = 0  # requests the server refused for its load (each asked again)
        self.busy_given_up = 0  # calls that gave up after ``busy_patience_s`` of refusals
        self._jitter = random.Random()
        self.stall_floor_s = STALL_FLOOR_S
        self.stalled = 0  # requests dropped as stuck in their slot and asked again (``watched``)
        self.suspect: set[int] = set()  # server slots a request stalled in: no request is pinned there
        self.dropped_at: dict[int, float] = {}  # when a request in each slot last ended unanswered
        self.slot_watch: SlotWatch | None = None  # how long a llama-server stood still (ask_props sets it)
        self._answers = 0  # answers received, all slots together
        self._recent: deque[float] = deque(maxlen=64)  # seconds of the last answers

    async def ask_props(self, root: str, cache_prompt: bool | None) -> bool:
        """llama-server's ``/props`` (at the server's ``root``): its slots, which the scheduler
        then fills; returns whether it answered as llama-server does (False: the throttle finds
        how many the server takes from its answer times)."""
        try:
            props = await self.http.get(f"{root}/props", timeout=5.0)
            total = int(props.json().get("total_slots") or 0) if props.status_code == 200 else 0
        except (httpx.HTTPError, ValueError, TypeError, AttributeError):
            return False  # not llama-server
        if total <= 0:
            return False
        self.scheduler.resize(total)
        # llama-server keeps evaluated prompts (unless told not to)
        self.caches_prompts = cache_prompt is not False
        # a talk with the player is then a run of short requests (prefills while they type, the
        # reply): the town waits between them too
        self.scheduler.linger = PLAYER_LINGER_S
        # one server's slots share its cores: the player's reply stops the town's requests in
        # flight rather than wait behind them (they are asked again)
        self.scheduler.preempt = True
        self.slot_watch = SlotWatch(root, self.http)
        return True

    def http_for(self, number: int) -> httpx.AsyncClient:
        """The HTTP client of slot ``number``: one connection pool for each ``POOL_SLOTS``."""
        shard = number // POOL_SLOTS
        if shard == 0 or self.more_http is None:
            return self.http
        pool = self._pools.get(shard)
        if pool is None:
            pool = self._pools[shard] = self.more_http()
        return pool

    async def aclose(self) -> None:
        """Close the pools past the first (the owner of ``http`` closes it)."""
        pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            await pool.aclose()

    def fail(self, message: str) -> None:
        self.last_error = message
        log.info("%s", message)

    async def backoff(self, retries: int) -> None:
        await asyncio.sleep(self.backoff_s * (2 ** retries))

    async def wait_busy(self, err: Transient, refused: int, first: float) -> bool:
        """After the server refused a request for its load (``err.busy``) for the ``refused``-th
        time since ``first``: wait what it asked (Retry-After), or a back-off with jitter, and
        return True to ask again; False when that would pass ``busy_patience_s``."""
        self.refusals += 1
        if err.retry_after is not None:
            delay = err.retry_after
        else:
            delay = min(BUSY_BACKOFF_MAX_S, self.backoff_s * (2 ** min(refused, 16)))
            delay *= self._jitter.uniform(0.5, 1.0)  # refusals come in crowds: spread their returns
        if time.monotonic() + delay - first > self.busy_patience_s:
            self.busy_given_up += 1
            return False
        log.info("%s; asked again in %.1f s", err, delay)
        await asyncio.sleep(delay)
        return True

    async def post_once(self, path: str, payload: dict[str, object], number: int = 0) -> object:
        url = f"{self.base_url}{path}"
        try:
            resp = await self.http_for(number).post(url, json=payload)
        except httpx.TimeoutException as e:
            kind = "connect" if isinstance(e, httpx.ConnectTimeout) else "answer"
            raise Transient(f"the model server at {self.base_url} did not {kind} in time "
                             f"({type(e).__name__})", timeout=kind == "answer", lost=kind == "connect") from None
        except httpx.TransportError as e:
            raise Transient(f"lost the model server at {self.base_url}: "
                             f"{type(e).__name__}: {e or 'connection closed'}", lost=True) from None
        if resp.status_code == 200:
            try:
                data: object = resp.json()
            except (ValueError, RecursionError):
                raise Transient(f"the model server at {self.base_url} sent a broken reply") from None
            return data
        if resp.status_code in RETRY_STATUS:
            raise refusal(resp, self.base_url)
        msg = server_message(resp)
        if resp.status_code in (401, 403):
            raise LLMError(f"the model server at {self.base_url} refused the request "
                           f"(HTTP {resp.status_code}): check TOWN_LLM_API_KEY")
        raise LLMError(f"the model server at {self.base_url} rejected the request "
                       f"(HTTP {resp.status_code}): {msg}")

    async def post(self, path: str, payload: dict[str, object], tag: CallTag) -> tuple[object, float, int]:
        """POST with a scheduler slot, retrying transient failures; a call that found the server
        gone waits for it to be brought back (``supervisor``) and is asked again.  Returns (json,
        seconds, retries: the re-asks included)."""
        retries = reasked = refused = stalls = wedges = 0
        first = 0.0  # when the server first refused it for its load
        while True:
            async with self.scheduler.slot(tag.priority, tag.resident or None) as number:
                t0 = time.monotonic()
                try:
                    data = await self.asked(path, payload, number, tag)
                except Preempted:
                    continue  # stopped for the player's request: asked again once a slot is free
                except Transient as e:
                    err = e
                    if e.busy:
                        self.scheduler.refused(number)
                except LLMError as e:  # refused (4xx): retrying will not help
                    self.last_error = str(e)
                    self.accounting.record(tag, latency_s=time.monotonic() - t0, failed=True,
                                           retries=retries + reasked + refused)
                    raise
                else:
                    self.scheduler.answered(number, time.monotonic() - t0, tag.purpose)
                    self.answered(time.monotonic() - t0)
                    return data, time.monotonic() - t0, retries + reasked + refused
            # the slot is free while we back off (or wait for the server to come back)
            if err.wedged and wedges < MAX_WEDGES:
                wedges += 1
                continue
            if err.stalled and not err.wedged and stalls < MAX_STALLS:
                stalls += 1
                continue
            if err.busy:
                first = first or time.monotonic()
                if await self.wait_busy(err, refused, first):
                    refused += 1
                    continue
                self.fail(f"{err} (refused for {time.monotonic() - first:.0f} s)")
                self.accounting.record(tag, latency_s=time.monotonic() - t0, failed=True,
                                       retries=retries + reasked + refused)
                raise ModelUnavailable(self.last_error or str(err)) from None
            again = None if err.timeout else await self.recovered(err, reasked)
            if again:
                reasked += 1
                continue
            if err.timeout or err.stalled or again is False or retries >= self.transport_retries:
                self.fail(str(err))
                self.accounting.record(tag, latency_s=time.monotonic() - t0, failed=True,
                                       retries=retries + reasked)
                if err.timeout or err.stalled:
                    raise ModelTimeout(f"{err} (limit {self.timeout_s:.0f} s)" if err.timeout else
                                       f"{err} (asked {stalls + wedges + 1} times)") from None
                self.reachable = False
                raise ModelUnavailable(f"{err} ({self.gone_words(retries)})") from None
            await self.backoff(retries)
            retries += 1

    async def asked(self, path: str, payload: dict[str, object], number: int, tag: CallTag) -> object:
        """One try of a request in slot ``number``; one that ends without an answer (dropped,
        stopped, failed) leaves that server slot unpinned for ``REPIN_AFTER_S`` (``pinned``)."""
        post = self.post_once(path, self.pinned(payload, number), number)
        try:
            return await self.stoppable(self.watched(post, number), number, tag)
        except BaseException:
            self.dropped_at[number] = time.monotonic()
            if inspect.getcoroutinestate(post) == inspect.CORO_CREATED:
                post.close()  # stopped before it began: closed, not left "never awaited"
            raise

    def stall_s(self) -> float:
        """How long a request may stand in its slot, while others are answered, before it is called stuck."""
        if not self._recent:
            return max(self.stall_floor_s, self.timeout_s)
        slow = sorted(self._recent)[int(0.9 * (len(self._recent) - 1))]
        return max(self.stall_floor_s, STALL_FACTOR * slow)

    async def watched(self, request: Awaitable[R], number: int) -> R:
        """``request`` in slot ``number``, dropped as stuck (``Transient(stalled=True)``) when it stands
        longer than ``stall_s`` while the server answers requests that began after it (that server
        slot is ``suspect`` from then on: no request is pinned to it), or when the whole server has
        stood still with work in its slots for the ``slot_watch``'s ``wedge_s`` (``wedged``)."""
        task = asyncio.ensure_future(request)
        t0 = window = time.monotonic()
        watch = self.slot_watch
        try:
            seen = self._answers
            while True:
                step = self.stall_s() if watch is None else min(self.stall_s(), watch.every_s)
                done, _ = await asyncio.wait({task}, timeout=step)
                if done:
                    return task.result()
                now = time.monotonic()
                if watch is not None and now - t0 >= watch.wedge_s and watch.wedged(await watch.standing_s()):
                    if task.done():
                        return task.result()
                    task.cancel()  # (closing its connection is what sets a wedged llama-server going)
                    await asyncio.gather(task, return_exceptions=True)
                    watch.wedges += 1
                    log.warning("the model server stood still for %.0f s with a request of ours in slot %d; "
                                "asked again", watch.wedge_s, number)
                    raise Transient(f"the model server at {self.base_url} stood still with work in its slots",
                                    wedged=True)
                if now - window < self.stall_s():
                    continue
                if self._answers > seen:  # others were answered meanwhile: this one is stuck
                    task.cancel()
                    await asyncio.gather(task, return_exceptions=True)
                    self.stalled += 1
                    if self.caches_prompts and number < self.scheduler.slots:
                        self.suspect.add(number)
                    log.warning("a request stood %.0f s in slot %d while the server answered others; "
                                "asked again", now - t0, number)
                    raise Transient(f"the model server at {self.base_url} left a request standing in its "
                                    f"slot {number} while it answered others", stalled=True)
                window, seen = now, self._answers
        finally:
            if not task.done():
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)

    def answered(self, seconds: float | None = None) -> None:
        self._answers += 1
        if seconds is not None:
            self._recent.append(seconds)
        self.reachable = True
        if self.supervisor is not None:
            self.supervisor.answered()

    async def recovered(self, err: Transient, reasked: int) -> bool | None:
        """After ``err``: True when the server had gone and was brought back (ask again, not a
        retry), False when it is away (give up now), None otherwise (retry as usual)."""
        sup = self.supervisor
        if sup is None or not err.lost or reasked >= MAX_REASKED:
            return None
        self.reachable = False
        outcome = await sup.recover(str(err))
        if outcome is Recovery.BACK:
            sup.reasked += 1
            log.info("asked again after the model server came back: %s", err)
            return True
        return False if outcome is Recovery.AWAY else None

    def gone_words(self, retries: int) -> str:
        """Why a call gave up on the server: it is away, or the tries are spent."""
        sup = self.supervisor
        if sup is not None and sup.state == "away":
            return f"the model is away: {sup.away}"
        return f"tried {retries + 1} times"

    async def stoppable(self, request: Awaitable[R], number: int, tag: CallTag) -> R:
        """``request`` in slot ``number``; a town request may be stopped for the player's (the
        scheduler's ``preempt``): the HTTP request is dropped, which stops the server's work on
        it, and ``Preempted`` says to ask again."""
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
                raise Preempted() from None
            raise
        finally:
            self.scheduler.on_preempt(number, None)

    def pinned(self, payload: dict[str, object], number: int) -> dict[str, object]:
        """The request pinned to server slot ``number`` (llama-server only: see the scheduler)."""
        if not (self.caches_prompts and self.pin_slots) or number >= self.scheduler.slots or number in self.suspect:
            return payload
        if time.monotonic() - self.dropped_at.get(number, -REPIN_AFTER_S) < REPIN_AFTER_S:
            return payload  # the server may still be ending the one dropped there
        return {**payload, "id_slot": number}

    async def stream_lines(self, payload: dict[str, object], number: int) -> AsyncGenerator[str, None]:
        """The lines of a streamed answer in slot ``number``.  Raises ``Transient`` on a status
        worth retrying, ``LLMError`` on another refusal; httpx's errors pass through."""
        try:
            async with self.http_for(number).stream("POST", f"{self.base_url}/chat/completions",
                                                    json=self.pinned(payload, number)) as resp:
                if resp.status_code != 200:
                    await resp.aread()
                    if resp.status_code in RETRY_STATUS:
                        raise refusal(resp, self.base_url)
                    raise LLMError(f"the model server at {self.base_url} rejected the "
                                   f"request (HTTP {resp.status_code}): {server_message(resp)}")
                async for line in resp.aiter_lines():
                    yield line
        except BaseException:  # (also when its reader stops at the answer's end: harmless, a moment unpinned)
            self.dropped_at[number] = time.monotonic()
            raise
