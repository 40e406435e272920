"""The client against a real llama-server running SmolLM2-135M (small, fast, and often wrong)."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest
from pydantic import BaseModel, Field

from game.llm.api import BadAnswer, CallTag, Message, ModelUnavailable, Priority
from game.llm.client import ModelClient
from game.llm.embed import RemoteEmbedder

from .conftest import HAVE_SERVER, SKIP_REASON, make_server

pytestmark = [pytest.mark.real_model, pytest.mark.skipif(not HAVE_SERVER, reason=SKIP_REASON)]


class Fruit(BaseModel):
    name: str = Field(max_length=30)
    colour: str = Field(max_length=30)
    sweet: bool


class Story(BaseModel):
    text: str = Field(min_length=2000)  # cannot be finished before the kill


class Flag(BaseModel):  # a one-field answer the grammar finishes in a few tokens
    ok: bool


class Day(BaseModel):
    steps: list[str] = Field(min_length=1, max_length=4)


ASK = [Message("system", "You answer with one JSON object."),
       Message("user", 'Describe one fruit. Example: {"name": "plum", "colour": "purple", "sweet": true}')]


async def test_structured_output(small_server):
    async with ModelClient(small_server.url, backoff_s=0.05) as llm:
        await llm.connect()
        assert llm.model == "smollm2-test"
        assert llm.scheduler.slots == 2  # learned from /props
        fruit = await llm.complete(ASK, Fruit, CallTag("test", "Ada"), max_tokens=80, temperature=0.2)
        assert isinstance(fruit, Fruit) and fruit.name
        plan = await llm.complete([Message("user", "List the steps of your morning as JSON.")], Day,
                                  CallTag("plan_day", "Ada", Priority.PLAN), max_tokens=120)
        assert 1 <= len(plan.steps) <= 4
        acc = llm.accounting.to_dict()
    row = [r for r in acc["by_resident_purpose"] if r["purpose"] == "test"][0]
    assert row["resident"] == "Ada" and row["prompt_tokens"] > 10 and row["completion_tokens"] > 3


async def test_too_small_token_budget_is_a_bad_answer_not_a_crash(small_server):
    # 3 tokens cannot hold the object: repair and re-ask run for real, then BadAnswer
    async with ModelClient(small_server.url, answer_retries=1) as llm:
        with pytest.raises(BadAnswer) as e:
            await llm.complete(ASK, Fruit, CallTag("test"), max_tokens=3)
        assert llm.accounting.total.calls == 2
    assert "cut off" in str(e.value)


async def test_stream(small_server):
    async with ModelClient(small_server.url) as llm:
        pieces = [p async for p in llm.stream([Message("user", "Say hello to your neighbour.")],
                                              CallTag("dialogue", "Ada", Priority.PLAYER),
                                              max_tokens=24)]
        total = llm.accounting.total
    assert len(pieces) >= 2 and "".join(pieces).strip()
    assert total.completion_tokens >= len(pieces) - 1 and total.prompt_tokens > 0


async def test_a_stream_stops_at_a_stop_string(small_server):
    async with ModelClient(small_server.url) as llm:
        text = "".join([p async for p in llm.stream(
            [Message("user", "Write a short poem of six lines about the sea, one line each.")],
            CallTag("dialogue", "Ada", Priority.PLAYER), max_tokens=60, temperature=0.0, stop=("\n",))])
    assert text.strip() and "\n" not in text.strip()


async def test_a_prefilled_beginning_is_not_evaluated_again(small_server):
    """llama-server keeps an evaluated prompt: a later request beginning the same way evaluates
    only what follows (its own timings say how many prompt tokens it evaluated)."""
    import uuid
    head = (f"Session {uuid.uuid4()}. You are Ada, who runs the bakery in a small town. " * 6).strip()
    async with ModelClient(small_server.url) as llm:
        assert await llm.prefill([Message("system", "You write one line of a talk."),
                                  Message("user", head)], CallTag("prefill", "Ada", Priority.PLAYER)) is False
        await llm.connect()  # now it knows the server keeps prompt caches
        assert llm.caches_prompts
        sent = await llm.prefill([Message("system", "You write one line of a talk."), Message("user", head)],
                                 CallTag("prefill", "Ada", Priority.PLAYER))
        prefill_usage = llm.accounting.by_purpose()["prefill"]
        _ = [p async for p in llm.stream([Message("system", "You write one line of a talk."),
                                          Message("user", head + "\nBo: Good morning! Any bread left?")],
                                         CallTag("dialogue", "Ada", Priority.PLAYER), max_tokens=8)]
        evaluated = llm.timings[-1][0] if llm.timings else None
    assert sent and prefill_usage.calls == 1 and prefill_usage.prompt_tokens > 100
    # a cold prompt would evaluate all of it (over 100 tokens); the warm one only the new line
    assert evaluated is not None and evaluated < 40, evaluated


async def test_parallel_requests_share_the_slots(small_server):
    async with ModelClient(small_server.url) as llm:
        await llm.connect()
        results = await asyncio.gather(*(
            llm.complete(ASK, Fruit, CallTag("test", f"r{i}"), max_tokens=60) for i in range(4)))
        assert llm.scheduler.in_flight == 0
    assert len(results) == 4


async def test_embeddings_endpoint_of_llama_server(tmp_path):
    server = make_server(tmp_path, embeddings=True, parallel=1)
    server.extra_args = ["--pooling", "mean"]
    server.start_sync()
    try:
        emb = RemoteEmbedder(server.url)
        v = np.asarray(await emb.embed(["the baker", "the bakery", "a rocket launch"]))
        await emb.aclose()
    finally:
        server.stop()
    assert v.shape[0] == 3 and v.shape[1] >= 64
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-4)


async def test_server_killed_mid_request_then_back(tmp_path):
    server = make_server(tmp_path, parallel=1)
    server.start_sync()
    port = server.port
    try:
        async with ModelClient(server.url, transport_retries=2, backoff_s=0.05) as llm:
            pieces = []
            with pytest.raises(ModelUnavailable) as e:
                async for piece in llm.stream([Message("user", "Tell me a very long story.")],
                                              CallTag("dialogue"), max_tokens=400):
                    pieces.append(piece)
                    if len(pieces) == 3:
                        server.kill()
            assert "middle of an answer" in str(e.value) and str(port) in str(e.value)
            assert llm.status().reachable is False
            with pytest.raises(ModelUnavailable, match="tried 3 times"):
                await llm.complete(ASK, Fruit, CallTag("test"), max_tokens=40)
            # the server comes back on the same port: the same client recovers
            server = make_server(tmp_path, port=port, parallel=1)
            server.start_sync()
            fruit = await llm.complete(ASK, Fruit, CallTag("test"), max_tokens=80)
            assert isinstance(fruit, Fruit)
            assert llm.status().reachable is True
    finally:
        server.stop()


async def test_complete_in_flight_when_the_server_dies(tmp_path):
    server = make_server(tmp_path, parallel=1)
    server.start_sync()
    try:
        async with ModelClient(server.url, transport_retries=1, backoff_s=0.05) as llm:
            task = asyncio.create_task(llm.complete(
                [Message("user", "Write a long story.")], Story, CallTag("test"),
                max_tokens=1500))
            await asyncio.sleep(0.3)
            server.kill()
            with pytest.raises(ModelUnavailable):
                await task
    finally:
        server.stop()


async def test_tokens_served_from_the_cache_are_not_counted_as_evaluated(small_server):
    """The same long prompt twice for one resident (pinned to one slot): the second time llama-server
    takes nearly all of it from its cache, and the accounting says so (timings.prompt_n/cache_n)."""
    memories = "\n".join(f"- At {7 + i % 10}:00 Ada saw the baker open the shop number {i}." for i in range(40))
    msgs = [Message("system", "You answer with one JSON object."),
            Message("user", f"Memories:\n{memories}\nWas the shop open? Answer as JSON.")]
    async with ModelClient(small_server.url) as llm:
        await llm.connect()
        await llm.complete(msgs, Flag, CallTag("plan_day", "Ada", Priority.PLAN), max_tokens=20, temperature=0)
        first = llm.accounting.by_purpose()["plan_day"]
        await llm.complete(msgs, Flag, CallTag("decompose", "Ada", Priority.PLAN), max_tokens=20, temperature=0)
        second = llm.accounting.by_purpose()["decompose"]
    assert first.calls == second.calls == 1
    assert first.prompt_tokens > 300 and first.cached_tokens < first.prompt_tokens // 2
    assert second.prompt_tokens == first.prompt_tokens
    assert second.cached_tokens > second.prompt_tokens // 2, (first, second)
    assert second.evaluated_tokens == second.prompt_tokens - second.cached_tokens + second.completion_tokens
