"""A server that refuses (HTTP 429, 503) or slows down under load: the client sends it fewer
requests and loses none (game/llm/throttle.py, link.py).  Fake servers only (an async httpx mock
transport that counts what is in flight and answers after a time that may grow with it)."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable

import httpx
from pydantic import BaseModel

from game.llm.api import CallTag, Message, ModelUnavailable, Priority
from game.llm.client import ModelClient

from .fakes import chat_reply


class Mood(BaseModel):
    mood: str
    energy: int


class LoadServer:
    """Answers each chat request after ``latency(in_flight)`` seconds; ``refuse(i)`` says whether
    the i-th request is refused (``status``, with ``Retry-After`` when ``retry_after`` is given) at
    once.  ``/props`` states ``slots`` if given, else answers 404 (as vLLM would)."""

    def __init__(self, latency: Callable[[int], float], *, refuse: Callable[[int], bool] | None = None,
                 status: int = 429, retry_after: str | None = None, slots: int | None = None) -> None:
        self.latency, self.refuse, self.status = latency, refuse, status
        self.retry_after, self.slots = retry_after, slots
        self.in_flight = self.peak = self.requests = self.refused = self.answered = 0
        self.seen: list[int] = []  # what was in flight as each request came in
        self.times: list[float] = []  # when each request came

    async def handler(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path.endswith("/models"):
            return httpx.Response(200, json={"data": [{"id": "load-fake"}]})
        if path.endswith("/props"):
            return httpx.Response(200, json={"total_slots": self.slots}) if self.slots else httpx.Response(404)
        i = self.requests
        self.requests += 1
        self.times.append(time.monotonic())
        if self.refuse is not None and self.refuse(i):
            self.refused += 1
            headers = {"Retry-After": self.retry_after} if self.retry_after is not None else {}
            return httpx.Response(self.status, json={"error": {"message": "too many requests"}}, headers=headers)
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        self.seen.append(self.in_flight)
        try:
            await asyncio.sleep(self.latency(self.in_flight))
        finally:
            self.in_flight -= 1
        self.answered += 1
        return httpx.Response(200, json=chat_reply('{"mood": "ok", "energy": 1}'))


def client_of(server: LoadServer, **kw: object) -> ModelClient:
    kw.setdefault("backoff_s", 0.002)
    return ModelClient("http://load/v1", "load-fake", transport=httpx.MockTransport(server.handler), **kw)  # type: ignore[arg-type]


async def ask_all(c: ModelClient, n: int, residents: int = 40) -> list[Mood]:
    msgs = [Message("user", "How do you feel?")]
    return await asyncio.gather(*(c.complete(msgs, Mood, CallTag("react", f"R{i % residents}", Priority.REACT))
                                  for i in range(n)))


async def test_a_server_that_refuses_a_third_of_the_calls_loses_none():
    server = LoadServer(lambda n: 0.01, refuse=lambda i: i % 3 == 2, slots=16)
    async with client_of(server) as c:
        await c.connect()
        answers = await ask_all(c, 120)
        total = c.accounting.total
        assert all(isinstance(a, Mood) for a in answers) and len(answers) == 120
        # every third request refused (each asked again): 120 answered of about 180 requests
        assert server.answered == 120 and server.refused == server.requests - 120 >= 55
        assert total.failures == 0 and total.calls == 120
        assert c.link.refusals == server.refused and c.link.busy_given_up == 0
        assert c.scheduler.throttle.cuts >= 1 and c.scheduler.throttle.lowest < 15  # it sent fewer
        assert c.scheduler.in_flight == 0 and c.scheduler.queued == 0


async def test_refusals_at_random_leave_the_slots_nearly_full():
    """A third refused at once, the others answered after their time: the refusals of one round
    come back long before its answers, and are one signal, not one each."""
    draw = __import__("random").Random(3)
    server = LoadServer(lambda n: 0.05, refuse=lambda i: draw.random() < 1 / 3, retry_after="0.01", slots=32)
    async with client_of(server) as c:
        await c.connect()
        await ask_all(c, 400, residents=400)
        assert server.answered == 400 and c.accounting.total.failures == 0
        assert statistics.mean(server.seen[100:300]) > 20  # of the town's 31
        assert c.scheduler.throttle.lowest > 10


async def test_a_503_with_retry_after_is_waited_for_as_asked():
    server = LoadServer(lambda n: 0.0, refuse=lambda i: i == 0, status=503, retry_after="0.3")
    async with client_of(server) as c:
        t = time.monotonic()
        await ask_all(c, 1)
        assert time.monotonic() - t >= 0.3
        assert server.times[1] - server.times[0] >= 0.3  # not asked again before the server said
        assert c.accounting.total.failures == 0 and c.accounting.total.retries == 1


async def test_a_server_that_always_refuses_fails_the_call_after_the_patience():
    server = LoadServer(lambda n: 0.0, refuse=lambda i: True)
    async with client_of(server) as c:
        c.link.busy_patience_s = 0.2
        try:
            await ask_all(c, 1)
        except ModelUnavailable as e:
            assert "HTTP 429" in str(e) and "refused for" in str(e)
        else:
            raise AssertionError("a server that never takes the call cannot answer it")
        assert server.requests > 3 and c.link.busy_given_up == 1


async def _mean_in_flight(latency: Callable[[int], float]) -> tuple[float, int, int]:
    server = LoadServer(latency)  # says nothing of its slots
    async with client_of(server) as c:
        await c.connect()
        await ask_all(c, 400, residents=200)
        assert server.answered == 400 and c.accounting.total.failures == 0
        return statistics.mean(server.seen[200:]), server.peak, c.scheduler.capacity


async def test_a_slow_server_gets_fewer_in_flight_than_a_fast_one():
    """Both say nothing of their slots.  One answers in the same time however many it has; the
    other batches four and queues the rest (its answer time grows with what it holds, its
    throughput does not): the client sends that one a few, the other as many as it asks."""
    # the fast one answers in 0.3 s: long beside what the client's own work on a loaded 2-core
    # machine adds to each answer's time with a hundred in flight (at 0.1 s that work alone, in a
    # clean clone's suite, once made the answers look twice their usual and cut the limit to 64)
    fast, fast_peak, fast_limit = await _mean_in_flight(lambda n: 0.3)
    slow, slow_peak, slow_limit = await _mean_in_flight(lambda n: 0.02 * max(1, n / 4))
    assert fast > 40 and fast_limit > 64  # (96 to 128 by the load on the machine)
    # alone: a mean of 16 and a limit of 15; on a loaded 2-core machine up to 21 and 24
    assert slow < 28 and slow_limit <= 32 and slow < fast / 2
    assert slow_peak < fast_peak / 2


async def test_the_slots_share_connection_pools_of_sixteen():
    """A pool of hundreds of connections costs the game its CPU (httpcore looks at each at every
    step): slot numbers go sixteen to a pool."""
    from game.llm.link import POOL_SLOTS

    c = client_of(LoadServer(lambda n: 0.0))
    first, second = c.link.http_for(0), c.link.http_for(POOL_SLOTS)
    assert c.link.http_for(POOL_SLOTS - 1) is first and c.link.http_for(2 * POOL_SLOTS - 1) is second
    assert second is not first and c.link.http_for(5 * POOL_SLOTS) not in (first, second)
    await c.aclose()
    assert second.is_closed and first.is_closed
