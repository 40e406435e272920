"""The fake model of the tests (tests/fake_model.py) keeps to the model layer's contract and answers
in the documented order: the purpose's script, the "*" script, ``fail``, then ``otherwise``."""

from __future__ import annotations

import pytest
from fake_model import FakeModel
from pydantic import BaseModel

from game.llm.api import LLM, CallTag, Message, ModelTimeout, Prefills


class Mood(BaseModel):
    mood: str
    energy: int


MSGS = [Message("system", "You are Ada."), Message("user", "How do you feel?")]


def tag(purpose: str) -> CallTag:
    return CallTag(purpose, "Ada")


def test_it_is_an_llm_and_takes_prefills_only_when_told():
    assert isinstance(FakeModel(), LLM) and not isinstance(FakeModel(), Prefills)
    assert isinstance(FakeModel(prefill_s=0.0), Prefills)


async def test_the_script_answers_in_turn_the_last_repeating_then_the_wildcard_then_otherwise():
    calm, tired = {"mood": "calm", "energy": 7}, {"mood": "tired", "energy": 2}
    llm = FakeModel({"react": [calm, tired], "*": {"mood": "any", "energy": 1}}, otherwise="fail")
    got = [(await llm.complete(MSGS, Mood, tag("react"))).mood for _ in range(3)]
    assert got == ["calm", "tired", "tired"]
    assert (await llm.complete(MSGS, Mood, tag("plan_day"))).mood == "any"
    assert llm.pairs() == [("react", "Ada")] * 3 + [("plan_day", "Ada")]
    assert [c.kind for c in llm.calls] == ["Mood"] * 4 and llm.completions == 4
    with pytest.raises(AssertionError, match="no scripted answer"):
        await FakeModel(otherwise="fail").complete(MSGS, Mood, tag("react"))


async def test_a_hook_may_answer_raise_or_leave_the_request_to_the_rest():
    def hook(messages, schema, t):
        if "storm" in messages[-1].content:
            raise ModelTimeout("too slow")
        if "feel" in messages[-1].content:
            return None
        return {"mood": "hooked", "energy": 3}

    llm = FakeModel({"react": hook}, otherwise="valid")
    assert (await llm.complete([Message("user", "hi")], Mood, tag("react"))).mood == "hooked"
    with pytest.raises(ModelTimeout):
        await llm.complete([Message("user", "a storm")], Mood, tag("react"))
    assert isinstance(await llm.complete(MSGS, Mood, tag("react")), Mood)  # any valid answer
    with pytest.raises(ModelTimeout):
        await FakeModel(fail=("react",)).complete(MSGS, Mood, tag("react"))


async def test_streams_embeddings_status_and_prefills():
    llm = FakeModel({"stream:dialogue": "Hel|lo"}, vectors="words", prefill_s=0.0)
    assert [p async for p in llm.stream(MSGS, tag("dialogue"))] == ["Hel", "lo"]
    assert "".join([p async for p in llm.stream(MSGS, tag("other"))]) == "Well, hello there."
    assert await llm.prefill(MSGS, tag("prefill")) and llm.prefills_done == 1
    assert [c.kind for c in llm.calls] == ["stream", "stream", "prefill"]
    a, b, c = await llm.embed(["coffee at the bakery", "coffees at the bakery", "a river"])
    assert len(a) == llm.dim and a == b and a != c  # bags of words: a plural is the same word
    llm.model_status.queued = 3
    assert llm.status().queued == 3 and llm.status_reads == 1
