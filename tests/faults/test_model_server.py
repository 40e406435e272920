"""Model faults, part 2: the server refuses, hangs, is slow, dies mid-request or mid-answer, answers
503, and comes back.  A real local HTTP server (127.0.0.1 only) is started and broken by the test.

Every failure must surface as ``ModelUnavailable`` / ``ModelTimeout`` with a message naming the
server, the scheduler must be idle and usable afterwards, the status must say so, and the client
must work again when the server is back.  The engine keeps the town going on routines meanwhile.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter

import pytest

from game.llm.api import CallTag, LLMError, Message, ModelTimeout, ModelUnavailable, Priority
from game.llm.client import ModelClient
from game.mind.schemas import LineAnswer, ReactAnswer

from .answers import table
from .fakes import fake_embedder
from .live_server import LiveServer, free_port

MSG = [Message("user", "hello")]
OUTCOMES: Counter = Counter()


def client_for(url: str, **kw) -> ModelClient:
    opts = dict(timeout_s=2.0, connect_timeout_s=1.0, transport_retries=2, backoff_s=0.02,
                answer_retries=1, slots=2, embedder=fake_embedder())
    opts.update(kw)
    return ModelClient(url, "live-fake", **opts)


def idle(c: ModelClient) -> bool:
    return c.scheduler.in_flight == 0 and c.scheduler.queued == 0


async def ask(c: ModelClient, schema=ReactAnswer, priority=Priority.PLAN):
    return await c.complete(MSG, schema, CallTag("fault", "Ann Lin", priority), max_tokens=32)


async def test_connection_refused_is_clear():
    port = free_port()  # nothing listens here
    c = client_for(f"http://127.0.0.1:{port}/v1")
    try:
        t0 = time.monotonic()
        with pytest.raises(ModelUnavailable) as err:
            await ask(c)
        OUTCOMES[("refused", type(err.value).__name__)] += 1
        assert f"127.0.0.1:{port}" in str(err.value)
        assert "tried 3 times" in str(err.value)
        assert time.monotonic() - t0 < 5
        st = c.status()
        assert st.reachable is False and st.last_error and str(port) in st.last_error
        assert idle(c)
        # the stream and the connect() check fail just as clearly
        with pytest.raises(ModelUnavailable):
            async for _ in c.stream(MSG, CallTag("dialogue", "Ann Lin")):
                pass
        with pytest.raises(ModelUnavailable):
            await c.connect()
        assert idle(c)
    finally:
        await c.aclose()


async def test_timeout_then_slow_then_ok():
    async with LiveServer() as srv:
        c = client_for(srv.url, timeout_s=0.4, transport_retries=1)
        try:
            srv.mode = "hang"
            t0 = time.monotonic()
            with pytest.raises(ModelTimeout) as err:
                await ask(c)
            OUTCOMES[("hang", type(err.value).__name__)] += 1
            assert time.monotonic() - t0 < 3
            assert "did not answer in time" in str(err.value) and srv.url.split("/v1")[0][7:] in str(err.value)
            assert idle(c)
            srv.mode, srv.delay = "slow", 0.15  # slower than usual, inside the limit: fine
            ans = await ask(c)
            OUTCOMES[("slow", "answered")] += 1
            assert isinstance(ans, ReactAnswer)
            srv.mode = "ok"
            assert isinstance(await ask(c, LineAnswer), LineAnswer)
            assert c.status().reachable and idle(c)
        finally:
            await c.aclose()


async def test_dropped_mid_request_retries_and_recovers():
    async with LiveServer() as srv:
        c = client_for(srv.url, transport_retries=3, backoff_s=0.05)
        try:
            srv.mode = "drop"
            with pytest.raises(ModelUnavailable) as err:
                await ask(c)
            OUTCOMES[("drop", type(err.value).__name__)] += 1
            assert "lost the model server" in str(err.value) and "tried 4 times" in str(err.value)
            assert c.status().reachable is False
            # dropped once, then back: the retry gets the answer
            srv.mode = "drop"

            async def heal():
                await asyncio.sleep(0.03)
                srv.mode = "ok"
            healer = asyncio.create_task(heal())
            ans = await ask(c)
            await healer
            OUTCOMES[("drop then ok", "answered")] += 1
            assert isinstance(ans, ReactAnswer)
            assert c.status().reachable is True
            assert c.accounting.by_purpose()["fault"].retries >= 1
            # a 503 is the server's load (or a model loading): asked again after a back-off for as
            # long as the patience (the request timeout; short here), then given up
            srv.mode = "503"
            c.link.busy_patience_s = 0.3
            with pytest.raises(ModelUnavailable) as err:
                await ask(c)
            OUTCOMES[("503", type(err.value).__name__)] += 1
            assert "HTTP 503" in str(err.value) and "Loading model" in str(err.value)
            assert "refused for" in str(err.value) and c.link.refusals >= 2
            assert idle(c)
        finally:
            await c.aclose()


async def test_stream_cut_mid_answer():
    async with LiveServer() as srv:
        c = client_for(srv.url)
        try:
            srv.mode = "ok"
            text = "".join([p async for p in c.stream(MSG, CallTag("dialogue", "Ann Lin"))])
            assert text == "Hello there, neighbour."
            srv.mode = "cut"
            got = []
            with pytest.raises(ModelUnavailable) as err:
                async for p in c.stream(MSG, CallTag("dialogue", "Ann Lin")):
                    got.append(p)
            OUTCOMES[("stream cut", type(err.value).__name__)] += 1
            assert "in the middle of an answer" in str(err.value)
            assert got == ["Hello ", "there, "]
            assert idle(c)
        finally:
            await c.aclose()


async def test_server_killed_under_load_then_back():
    """A dozen decisions queued on two slots; the server dies; then it comes back."""
    srv = LiveServer()
    await srv.start()
    c = client_for(srv.url, timeout_s=2.0, transport_retries=1, backoff_s=0.05)
    try:
        srv.mode, srv.delay = "slow", 0.1
        prios = [Priority.PLAYER, Priority.REACT, Priority.PLAN, Priority.SCORE] * 3
        tasks = [asyncio.create_task(ask(c, priority=p)) for p in prios]
        await asyncio.sleep(0.15)
        await srv.stop()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        kinds = Counter(type(r).__name__ for r in results)
        for k, n in kinds.items():
            OUTCOMES[("killed under load", k)] += n
        assert all(isinstance(r, (ReactAnswer, LLMError)) for r in results), kinds
        assert any(isinstance(r, ModelUnavailable) for r in results), kinds
        assert idle(c), (c.scheduler.in_flight, c.scheduler.queued)
        assert c.status().reachable is False
        await srv.start()
        srv.mode = "ok"
        again = await asyncio.gather(*[ask(c, priority=p) for p in prios])
        OUTCOMES[("back after kill", "answered")] += len(again)
        assert all(isinstance(r, ReactAnswer) for r in again)
        assert c.status().reachable is True and idle(c)
    finally:
        await c.aclose()
        await srv.stop()


def test_print_server_outcomes():
    print("\n" + table(OUTCOMES, "server faults: outcome per scenario"))
    assert OUTCOMES, "run with the other tests of this file"
