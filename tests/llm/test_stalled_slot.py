"""A request that stands still in its server slot while the server answers the others (a
llama-server slot was seen to hold one for ten minutes, and every later request pinned to that
slot waited behind it): it is dropped and asked again, no longer pinned to that slot
(game/llm/link.py ``watched``).  Fake servers only (an httpx mock transport)."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from pydantic import BaseModel

from game.llm.api import CallTag, Message, ModelTimeout, Priority
from game.llm.client import ModelClient

from .fakes import chat_reply


class Mood(BaseModel):
    mood: str


class StuckSlotServer:
    """Answers at once, except a request that ``stuck(body)`` says stands still (until dropped)."""

    def __init__(self, stuck) -> None:
        self.stuck = stuck
        self.bodies: list[dict] = []
        self.dropped = 0  # stuck requests the client let go of

    async def handler(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/models"):
            return httpx.Response(200, json={"data": [{"id": "stuck-fake"}]})
        if request.url.path.endswith("/props"):
            return httpx.Response(200, json={"total_slots": 4})
        body = json.loads(request.content)
        self.bodies.append(body)
        if self.stuck(body, len(self.bodies) - 1):
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                self.dropped += 1
                raise
        await asyncio.sleep(0.01)
        return httpx.Response(200, json=chat_reply('{"mood": "ok"}'))


def client_of(server: StuckSlotServer) -> ModelClient:
    c = ModelClient("http://stuck/v1", "stuck-fake", transport=httpx.MockTransport(server.handler),
                    backoff_s=0.002, timeout_s=30.0)
    c.link.caches_prompts = True  # as with llama-server: requests pinned to their slot
    c.link.stall_floor_s = 0.3
    return c


def ask(c: ModelClient, text: str, who: str = "R") -> object:
    return c.complete([Message("user", text)], Mood, CallTag("react", who, Priority.REACT))


async def test_a_request_stuck_in_its_slot_is_asked_again_elsewhere_and_the_town_loses_none():
    # the first request pinned to slot 1 never answers; the others keep being answered
    server = StuckSlotServer(lambda body, i: body.get("id_slot") == 1 and 4 <= i < 12)
    async with client_of(server) as c:
        await c.connect()
        await asyncio.gather(*(ask(c, "warm") for _ in range(4)))
        answers = await asyncio.gather(*(ask(c, f"q{i}", f"R{i}") for i in range(40)))
        assert len(answers) == 40 and all(isinstance(a, Mood) for a in answers)
        assert c.link.stalled == 1 and server.dropped == 1 and c.link.suspect == {1}
        assert c.status().stalled == 1 and c.accounting.total.failures == 0
        # once suspect, no request is pinned to that slot again; the others still are
        stuck_at = next(i for i, b in enumerate(server.bodies) if b.get("id_slot") == 1 and i >= 4)
        assert all(b.get("id_slot") != 1 for b in server.bodies[stuck_at + 1:])
        assert any(b.get("id_slot") in (2, 3) for b in server.bodies[stuck_at + 1:])


async def test_a_request_alone_on_a_slow_server_is_waited_for():
    # nothing else is answered while it stands: the server is slow, not stuck in one slot
    slow = StuckSlotServer(lambda body, i: False)

    async def handler(request: httpx.Request) -> httpx.Response:
        if b"slow" in request.content:
            await asyncio.sleep(0.8)
        return await slow.handler(request)
    c = ModelClient("http://slow/v1", "stuck-fake", transport=httpx.MockTransport(handler), timeout_s=30.0)
    c.link.stall_floor_s = 0.1
    async with c:
        await ask(c, "warm")
        assert isinstance(await ask(c, "slow"), Mood)
        assert c.link.stalled == 0


async def test_a_request_that_sticks_each_time_it_is_asked_fails_as_a_timeout():
    server = StuckSlotServer(lambda body, i: "jam" in json.dumps(body))
    async with client_of(server) as c:
        await c.connect()
        await asyncio.gather(*(ask(c, "warm") for _ in range(4)))
        stop = asyncio.Event()

        async def others() -> None:
            while not stop.is_set():
                await ask(c, "go", "Other")
        runner = asyncio.ensure_future(others())
        with pytest.raises(ModelTimeout, match="asked 2 times"):
            await ask(c, "jam", "Stuck")
        stop.set()
        await runner
        assert c.link.stalled == 2 and server.dropped == 2
        assert c.accounting.total.failures == 1
