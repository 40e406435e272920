"""ModelClient against a scripted fake server: repair, re-ask, retries, errors, accounting."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from pydantic import BaseModel

from game.llm.api import BadAnswer, CallTag, LLMError, Message, ModelTimeout, ModelUnavailable, Priority
from game.llm.client import ModelClient

from .fakes import FakeServer


class Mood(BaseModel):
    mood: str
    energy: int


MSGS = [Message("system", "You are Ada."), Message("user", "How do you feel?")]
TAG = CallTag(purpose="react", resident="Ada", priority=Priority.REACT)


def client(fake: FakeServer, **kw) -> ModelClient:
    kw.setdefault("backoff_s", 0.001)
    return ModelClient("http://fake/v1", "fake-model", transport=fake.transport(), **kw)


async def test_structured_call_sends_strict_schema_and_validates():
    fake = FakeServer(['{"mood": "calm", "energy": 7}'])
    async with client(fake) as llm:
        value = await llm.complete(MSGS, Mood, TAG, max_tokens=64, temperature=0.2)
    assert value == Mood(mood="calm", energy=7)
    req = fake.requests[0]
    assert req["response_format"]["type"] == "json_schema"
    assert req["response_format"]["json_schema"]["schema"]["required"] == ["mood", "energy"]
    assert req["response_format"]["json_schema"]["strict"] is True
    assert req["messages"][0] == {"role": "system", "content": "You are Ada."}
    assert req["max_tokens"] == 64 and req["temperature"] == 0.2 and req["model"] == "fake-model"


async def test_repair_without_reasking():
    fake = FakeServer(['Sure!\n```json\n{"mood": "calm", "energy": 7,}\n```'])
    async with client(fake) as llm:
        value = await llm.complete(MSGS, Mood, TAG)
    assert value.energy == 7
    assert len(fake.requests) == 1


async def test_reask_with_the_validation_error_then_succeed():
    fake = FakeServer(['{"mood": "calm"}', '{"mood": "calm", "energy": 3}'])
    async with client(fake) as llm:
        value = await llm.complete(MSGS, Mood, TAG)
        acc = llm.accounting.to_dict()
    assert value.energy == 3
    second = fake.requests[1]["messages"]
    assert second[-2] == {"role": "assistant", "content": '{"mood": "calm"}'}
    assert "energy" in second[-1]["content"] and second[-1]["role"] == "user"
    assert acc["total"]["calls"] == 2 and acc["total"]["failures"] == 0


async def test_bad_answer_after_bounded_tries():
    fake = FakeServer(["no", "still no", "never"])
    async with client(fake, answer_retries=2) as llm:
        with pytest.raises(BadAnswer) as e:
            await llm.complete(MSGS, Mood, TAG)
        assert llm.status().last_error
    assert len(fake.requests) == 3
    assert e.value.raw == "never"
    assert "Mood" in str(e.value) and "3 tries" in str(e.value)


async def test_transport_errors_are_retried_then_succeed():
    fake = FakeServer([httpx.ConnectError("refused"), 503, '{"mood": "ok", "energy": 1}'])
    async with client(fake, transport_retries=3) as llm:
        value = await llm.complete(MSGS, Mood, TAG)
        total = llm.accounting.total
    assert value.mood == "ok"
    assert total.retries == 2


async def test_model_unavailable_after_retries_names_the_url():
    fake = FakeServer([httpx.ConnectError("refused")] * 3)
    async with client(fake, transport_retries=2) as llm:
        with pytest.raises(ModelUnavailable) as e:
            await llm.complete(MSGS, Mood, TAG)
        assert llm.status().reachable is False
    assert "http://fake/v1" in str(e.value) and "3 times" in str(e.value)


async def test_timeout_is_a_model_timeout():
    fake = FakeServer([httpx.ReadTimeout("slow")])
    async with client(fake) as llm:
        with pytest.raises(ModelTimeout):
            await llm.complete(MSGS, Mood, TAG)


async def test_client_errors_are_not_retried():
    fake = FakeServer([400])
    async with client(fake) as llm:
        with pytest.raises(LLMError) as e:
            await llm.complete(MSGS, Mood, TAG)
    assert "HTTP 400" in str(e.value) and "scripted 400" in str(e.value)
    assert len(fake.requests) == 1


async def test_api_key_goes_in_the_header_only():
    fake = FakeServer(['{"mood": "calm", "energy": 7}'])
    async with client(fake, api_key="sk-secret-123") as llm:
        await llm.complete(MSGS, Mood, TAG)
        assert "sk-secret-123" not in repr(llm.status())
    assert fake.headers[0]["authorization"] == "Bearer sk-secret-123"
    assert "sk-secret-123" not in json.dumps(fake.requests)


async def test_stream_yields_pieces_and_counts_usage():
    fake = FakeServer(["Hel|lo, |friend."])
    async with client(fake) as llm:
        pieces = [p async for p in llm.stream(MSGS, TAG)]
        acc = llm.accounting.to_dict()
    assert pieces == ["Hel", "lo, ", "friend."]
    assert fake.requests[0]["stream"] is True
    assert acc["total"]["completion_tokens"] == 3 and acc["total"]["prompt_tokens"] == 7


async def test_stream_retries_before_the_first_piece():
    fake = FakeServer([httpx.ConnectError("refused"), "a|b"])
    async with client(fake) as llm:
        assert [p async for p in llm.stream(MSGS, TAG)] == ["a", "b"]


async def test_connect_learns_model_and_slots():
    fake = FakeServer([])
    async with ModelClient("http://fake/v1", transport=fake.transport()) as llm:
        await llm.connect()
        assert llm.model == "fake-model"
        assert llm.scheduler.slots == 2


async def test_embed_without_embedder_is_a_clear_error():
    async with client(FakeServer([])) as llm:
        with pytest.raises(LLMError, match="town setup"):
            await llm.embed(["hi"])


async def test_accounting_per_resident_purpose_and_day():
    fake = FakeServer(['{"mood": "a", "energy": 1}'] * 3)
    async with client(fake) as llm:
        await llm.complete(MSGS, Mood, CallTag("react", "Ada"))
        llm.accounting.set_day(2)
        await llm.complete(MSGS, Mood, CallTag("react", "Ada"))
        await llm.complete(MSGS, Mood, CallTag("plan_day", "Bo"))
        d = llm.accounting.to_dict()
        status = llm.status()
    rows = {(r["resident"], r["purpose"]): r for r in d["by_resident_purpose"]}
    assert rows[("Ada", "react")]["calls"] == 2 and rows[("Ada", "react")]["prompt_tokens"] == 20
    assert rows[("Bo", "plan_day")]["calls"] == 1
    assert d["by_day"]["1"]["calls"] == 1 and d["by_day"]["2"]["calls"] == 2
    assert status.by_purpose["react"].calls == 2
    json.dumps(d)  # plain data


async def test_requests_run_in_priority_order_when_slots_are_busy():
    order: list[str] = []
    gate = asyncio.Event()

    async def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        who = body["messages"][-1]["content"]
        order.append(who)
        if who == "first":
            await gate.wait()
        return httpx.Response(200, json={"choices": [{"message": {"content": '{"mood": "x", "energy": 1}'}}]})

    llm = ModelClient("http://fake/v1", "m", slots=1, transport=httpx.MockTransport(handler))
    async with llm:
        def ask(text, prio):
            return asyncio.create_task(
                llm.complete([Message("user", text)], Mood, CallTag("t", None, prio)))
        t1 = ask("first", Priority.PLAN)
        await asyncio.sleep(0.01)
        tasks = [ask("score", Priority.SCORE), ask("plan", Priority.PLAN),
                 ask("player", Priority.PLAYER), ask("react", Priority.REACT)]
        await asyncio.sleep(0.01)
        assert llm.status().queued == 4 and llm.status().in_flight == 1
        gate.set()
        await asyncio.gather(t1, *tasks)
    assert order == ["first", "player", "react", "plan", "score"]


async def test_the_players_request_stops_the_towns_in_flight_which_are_asked_again():
    """One llama-server's slots share its cores: a reply to the player that waits behind the town's
    answers being written came 12.6 s late on two cores.  With the scheduler's ``preempt`` (set for
    llama-server), the player's request stops the town's in flight; they are asked again after."""
    for preempt in (True, False):
        await _player_and_town(preempt)


async def _player_and_town(preempt: bool) -> None:
    attempts: list[str] = []
    gate = asyncio.Event()

    async def handler(request: httpx.Request) -> httpx.Response:
        who = json.loads(request.content)["messages"][-1]["content"]
        attempts.append(who)
        if who == "town" and attempts.count("town") == 1:
            await gate.wait()  # writing a long answer (stopped, with preempt, by the player's)
        if who == "player":
            gate.set()
        return httpx.Response(200, json={"choices": [{"message": {"content": '{"mood": "x", "energy": 1}'}}]})

    llm = ModelClient("http://fake/v1", "m", slots=2, transport=httpx.MockTransport(handler))
    llm.scheduler.preempt = preempt
    async with llm:
        town = asyncio.create_task(
            llm.complete([Message("user", "town")], Mood, CallTag("decompose", "Bo", Priority.PLAN)))
        await asyncio.sleep(0.01)
        player = await llm.complete([Message("user", "player")], Mood, CallTag("say", "Ada", Priority.PLAYER))
        assert player.mood == "x" and (await town).mood == "x"
    assert attempts == (["town", "player", "town"] if preempt else ["town", "player"])
    assert llm.scheduler.preempted == (1 if preempt else 0)
    assert llm.status().in_flight == 0 and not llm.scheduler._stoppers


async def test_an_answer_cut_off_by_the_token_budget_is_asked_again_with_room_to_finish():
    # the same budget would mostly cut the second answer where it cut the first
    fake = FakeServer([{"choices": [{"index": 0, "finish_reason": "length",
                                     "message": {"role": "assistant", "content": '{"mood": "ca'}}]},
                       '{"mood": "calm", "energy": 3}'])
    async with client(fake) as llm:
        value = await llm.complete(MSGS, Mood, TAG, max_tokens=80)
    assert value.energy == 3
    assert [r["max_tokens"] for r in fake.requests] == [80, 120]
    assert "cut off at 80 tokens" in fake.requests[1]["messages"][-1]["content"]
