"""A llama-server that stands still with work in its slots (seen on 2026-11-29: two ``town
interview`` of one save pinned requests to slot 0; one stood 32 tokens into its prompt for minutes
while the server spun a core, and dropping it set the server going): the request is dropped and
asked again (game/llm/slotwatch.py, ``ServerLink.watched``).  Fake servers only (httpx mock)."""

from __future__ import annotations

import asyncio
import json

import httpx
from pydantic import BaseModel

from game.llm.api import CallTag, Message, Priority
from game.llm.client import ModelClient
from game.llm.link import REPIN_AFTER_S
from game.llm.slotwatch import SlotWatch, progress_of

from .fakes import chat_reply


class Mood(BaseModel):
    mood: str


def slots_answer(processing: bool, done: int) -> list[dict]:
    first = {"id": 0, "is_processing": processing, "id_task": 7, "n_prompt_tokens_processed": done,
             "next_token": [{"n_decoded": 0}]}
    return [first, {"id": 1, "is_processing": False, "id_task": -1, "n_prompt_tokens_processed": 0,
                    "next_token": [{"n_decoded": 0}]}]


class WedgingServer:
    """A llama-server fake: a request whose body holds ``jam`` stands still (its slot shows the same
    progress at every look) until the client drops it, ``jams`` times; ``moving``: the slots show
    progress at every look instead (a long prompt being evaluated, not a wedge)."""

    def __init__(self, jams: int = 1, *, moving: bool = False, has_slots: bool = True) -> None:
        self.jams = jams
        self.moving = moving
        self.has_slots = has_slots
        self.dropped = 0
        self.looks = 0
        self.busy = 0
        self.asked = 0
        self.bodies: list[dict] = []

    async def handler(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path.endswith("/models"):
            return httpx.Response(200, json={"data": [{"id": "wedge-fake"}]})
        if path.endswith("/props"):
            return httpx.Response(200, json={"total_slots": 2})
        if path.endswith("/slots"):
            if not self.has_slots:
                return httpx.Response(501, json={"error": "slots endpoint is disabled"})
            self.looks += 1
            return httpx.Response(200, json=slots_answer(self.busy > 0, self.looks if self.moving else 32))
        body = json.loads(request.content)
        self.asked += 1
        self.bodies.append(body)
        if "jam" in json.dumps(body) and self.jams > 0:
            self.jams -= 1
            self.busy += 1
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                self.dropped += 1
                raise
            finally:
                self.busy -= 1
        if "slow" in json.dumps(body):
            self.busy += 1
            try:
                await asyncio.sleep(0.6)
            finally:
                self.busy -= 1
        return httpx.Response(200, json=chat_reply('{"mood": "ok"}'))


async def client_of(server: WedgingServer) -> ModelClient:
    c = ModelClient("http://wedge/v1", "wedge-fake", transport=httpx.MockTransport(server.handler),
                    backoff_s=0.002, timeout_s=30.0)
    await c.connect()
    watch = c.link.slot_watch
    assert watch is not None  # a server that answers /props as llama-server does is watched
    watch.every_s, watch.wedge_s = 0.05, 0.3
    return c


def ask(c: ModelClient, text: str) -> object:
    return c.complete([Message("user", text)], Mood, CallTag("react", "R", Priority.REACT))


async def test_a_request_on_a_server_that_stands_still_is_dropped_and_asked_again():
    server = WedgingServer()
    c = await client_of(server)
    async with c:
        assert isinstance(await ask(c, "jam"), Mood)
        watch = c.link.slot_watch
        assert watch is not None and watch.wedges == 1 and server.dropped == 1 and server.asked == 2
        assert c.link.suspect == set()  # the slot itself is fine once the request is dropped
        # asked again at once, it is not pinned to the slot the server may still be ending it in: a
        # llama-server asked so wedged again, each time (2026-11-29); a moment later, pinned again
        assert "id_slot" in server.bodies[0] and "id_slot" not in server.bodies[1]
        c.link.dropped_at = {n: t - REPIN_AFTER_S for n, t in c.link.dropped_at.items()}
        await ask(c, "later")
        assert "id_slot" in server.bodies[2]
        assert c.accounting.total.failures == 0


async def test_a_server_that_moves_or_cannot_say_is_waited_for():
    for server in (WedgingServer(jams=0, moving=True), WedgingServer(jams=0, has_slots=False)):
        c = await client_of(server)
        async with c:
            assert isinstance(await ask(c, "slow"), Mood)
            watch = c.link.slot_watch
            assert watch is not None and watch.wedges == 0 and server.asked == 1
            assert watch.usable is server.has_slots


async def test_standing_is_counted_only_with_work_in_a_slot_and_from_the_last_change():
    now = [0.0]
    answers = iter([slots_answer(True, 32), slots_answer(True, 32), slots_answer(True, 64),
                    slots_answer(False, 64), slots_answer(False, 64)])

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=next(answers))
    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        watch = SlotWatch("http://x", http, every_s=1.0, wedge_s=10.0, clock=lambda: now[0])
        seen = []
        for t in (0.0, 12.0, 13.0, 14.0, 30.0):
            now[0] = t
            seen.append(await watch.standing_s())
        assert seen == [0.0, 12.0, 0.0, 0.0, 0.0]
        assert watch.wedged(12.0) and not watch.wedged(9.0)


def test_progress_is_read_from_what_a_llama_server_says_of_its_slots():
    assert progress_of(slots_answer(True, 32)) == ((0, True, 7, 32, 0), (1, False, -1, 0, 0))
    for odd in ([], {"slots": []}, ["x"], None, "busy"):
        assert progress_of(odd) is None


async def test_a_client_that_shares_the_server_pins_no_request_to_a_slot():
    bodies: list[dict] = []
    server = WedgingServer(jams=0)

    async def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/completions"):
            bodies.append(json.loads(request.content))
        return await server.handler(request)
    for share in (False, True):
        c = ModelClient("http://wedge/v1", "wedge-fake", transport=httpx.MockTransport(handler), timeout_s=30.0)
        async with c:
            await c.connect()
            if share:
                c.share_server()  # what `town interview --llm-url` does (game/measure/interview.py)
            await ask(c, "hello")
        assert ("id_slot" in bodies[-1]) is not share
