"""Tokens evaluated beside tokens sent: what llama-server (timings.prompt_n / cache_n, also in the
last streamed chunk) and vLLM/OpenAI (usage.prompt_tokens_details.cached_tokens) say they took from
their prompt cache, counted per purpose and per resident; recordings stay free of it."""

from __future__ import annotations

import json
import re

from pydantic import BaseModel

from game.llm.accounting import Accounting
from game.llm.api import CallTag, Message
from game.llm.client import ModelClient, token_counts
from game.llm.record import RecordingLLM

from .fakes import FakeServer, chat_reply


class Mood(BaseModel):
    mood: str
    energy: int


MSGS = [Message("system", "You are Ada."), Message("user", "How do you feel?")]
ANSWER = '{"mood": "calm", "energy": 7}'


def llama_reply(prompt: int, evaluated: int, completion: int) -> dict:
    """A llama-server reply: ``usage`` counts the whole prompt, ``timings`` what was evaluated."""
    r = chat_reply(ANSWER, prompt_tokens=prompt, completion_tokens=completion)
    r["timings"] = {"prompt_n": evaluated, "cache_n": prompt - evaluated, "prompt_ms": 12.5,
                    "predicted_n": completion, "predicted_ms": 40.0}
    return r


def openai_reply(prompt: int, cached: int, completion: int) -> dict:
    r = chat_reply(ANSWER, prompt_tokens=prompt, completion_tokens=completion)
    r["usage"]["prompt_tokens_details"] = {"cached_tokens": cached}
    return r


def test_token_counts_from_each_kind_of_server():
    # llama-server: 900 sent, 50 evaluated (850 from the cache), 20 generated
    assert token_counts({"prompt_tokens": 900, "completion_tokens": 20},
                        {"prompt_n": 50, "cache_n": 850, "predicted_n": 20}) == \
        {"prompt_tokens": 900, "completion_tokens": 20, "cached_tokens": 850}
    # vLLM / OpenAI
    assert token_counts({"prompt_tokens": 900, "completion_tokens": 20,
                         "prompt_tokens_details": {"cached_tokens": 640}}, None) == \
        {"prompt_tokens": 900, "completion_tokens": 20, "cached_tokens": 640}
    # a server that says nothing of a cache evaluated everything
    assert token_counts({"prompt_tokens": 900, "completion_tokens": 20}, None)["cached_tokens"] == 0
    # timings alone (no usage): sent = evaluated + cached
    assert token_counts(None, {"prompt_n": 30, "cache_n": 70, "predicted_n": 5}) == \
        {"prompt_tokens": 100, "completion_tokens": 5, "cached_tokens": 70}
    # nonsense is bounded, never negative or more than was sent
    assert token_counts({"prompt_tokens": 10, "prompt_tokens_details": {"cached_tokens": 99}}, None) == \
        {"prompt_tokens": 10, "completion_tokens": 0, "cached_tokens": 10}
    assert token_counts({"prompt_tokens": "many"}, {"prompt_n": "x"})["cached_tokens"] == 0


async def test_evaluated_tokens_per_purpose_and_resident():
    fake = FakeServer([llama_reply(900, 50, 20), llama_reply(900, 900, 20), openai_reply(400, 300, 10),
                       chat_reply(ANSWER, prompt_tokens=100, completion_tokens=5)])
    async with ModelClient("http://fake/v1", "m", transport=fake.transport()) as llm:
        await llm.complete(MSGS, Mood, CallTag("decompose", "Ada"))
        await llm.complete(MSGS, Mood, CallTag("decompose", "Bo"))
        await llm.complete(MSGS, Mood, CallTag("react", "Ada"))
        await llm.complete(MSGS, Mood, CallTag("react", "Ada"))
        acc = llm.accounting
    by_purpose = acc.by_purpose()
    assert by_purpose["decompose"].prompt_tokens == 1800
    assert by_purpose["decompose"].cached_tokens == 850
    assert by_purpose["decompose"].evaluated_tokens == (50 + 20) + (900 + 20)
    assert by_purpose["react"].evaluated_tokens == (100 + 10) + (100 + 5)
    by_resident = acc.by_resident()
    assert by_resident["Ada"].evaluated_tokens == 70 + 110 + 105
    assert by_resident["Bo"].evaluated_tokens == 920
    assert acc.total.evaluated_tokens == 70 + 920 + 110 + 105
    # plain data that comes back the same
    d = json.loads(json.dumps(acc.to_dict()))
    again = Accounting.from_dict(d)
    assert again.by_purpose()["decompose"].evaluated_tokens == by_purpose["decompose"].evaluated_tokens
    assert again.total.cached_tokens == acc.total.cached_tokens


async def test_the_last_streamed_chunk_carries_llama_server_timings():
    final = {"choices": [], "usage": {"prompt_tokens": 600, "completion_tokens": 4},
             "timings": {"prompt_n": 12, "cache_n": 588, "predicted_n": 4, "predicted_ms": 80.0}}
    fake = FakeServer(["Hel|lo"], final_chunk=final)
    async with ModelClient("http://fake/v1", "m", transport=fake.transport()) as llm:
        pieces = [p async for p in llm.stream(MSGS, CallTag("player_talk", "Ada"))]
        u = llm.accounting.by_purpose()["player_talk"]
    assert pieces == ["Hel", "lo"]
    assert (u.prompt_tokens, u.cached_tokens, u.evaluated_tokens) == (600, 588, 12 + 4)


def test_accounting_saved_before_evaluated_tokens_counts_everything_sent():
    old = {"total": {"calls": 2, "prompt_tokens": 100, "completion_tokens": 10},
           "by_resident_purpose": [{"resident": "Ada", "purpose": "react", "calls": 2,
                                    "prompt_tokens": 100, "completion_tokens": 10}],
           "by_day": {"1": {"calls": 2, "prompt_tokens": 100, "completion_tokens": 10}}}
    acc = Accounting.from_dict(old)
    assert acc.total.evaluated_tokens == 110 and acc.by_purpose()["react"].evaluated_tokens == 110


async def test_recordings_do_not_depend_on_the_cache(tmp_path):
    """Two runs of the same requests, one served from the cache and one not, record the same bytes:
    cache figures belong to the accounting, not to a recording (replays stay deterministic)."""
    texts = []
    for n, reply in enumerate((llama_reply(900, 900, 20), llama_reply(900, 3, 20))):
        path = tmp_path / f"run{n}.jsonl"
        inner = ModelClient("http://fake/v1", "m", transport=FakeServer([reply]).transport())
        async with RecordingLLM(inner, path) as llm:
            await llm.complete(MSGS, Mood, CallTag("react", "Ada"))
        # (when each was asked and answered is kept too, and differs from run to run)
        texts.append(re.sub(r',"asked_s":[0-9.]+,"answered_s":[0-9.]+', "", path.read_text()))
    assert texts[0] == texts[1] and "asked_s" not in texts[0]


async def test_the_servers_speed_is_gauged_from_its_own_timings():
    """The first prompt (the same for every run of a town from one start) and the run's rates per slot-second,
    as ``town run`` reports them: days on different hosts or hours are compared by it (issue 42)."""
    from game.engine.running.report import format_report
    fake = FakeServer([llama_reply(900, 50, 20), llama_reply(900, 900, 20), openai_reply(400, 300, 10)])
    async with ModelClient("http://fake/v1", "m", transport=fake.transport()) as llm:
        assert llm.status().gauge is None  # (nothing timed yet)
        for _ in range(3):
            await llm.complete(MSGS, Mood, CallTag("react", "Ada"))
        g = llm.status().gauge
    assert g == {"requests": 2, "first_prompt_tokens": 50, "first_prompt_s": 0.01,
                 "prompt_tokens_per_s": round(950 / 0.025, 2), "generated_tokens_per_s": 500.0}
    r = {"town": "T", "residents": ["Ada"], "clock": "x", "game_days": 0.1, "real_seconds": 1, "errors": 0,
         "seconds_waiting_on_model": 0, "budget": {}, "model_server": {"speed": g}}
    assert "server speed: the first prompt, 50 tokens, evaluated in 0.01 s; over 2 requests a slot evaluated " \
           "38000.0 and generated 500.0 tokens a second of its time" in format_report(r)
