"""Record a run against a (fake) server, then replay it with no server at all."""

from __future__ import annotations

import json

import pytest
from fake_model import FakeModel
from pydantic import BaseModel

from game.llm.api import CallTag, LLMError, Message
from game.llm.client import ModelClient
from game.llm.record import NotRecorded, RecordingLLM, ReplayLLM

from .fakes import FakeServer


class Mood(BaseModel):
    mood: str
    energy: int


MSGS = [Message("system", "You are Ada."), Message("user", "How do you feel?")]
TAG = CallTag(purpose="react", resident="Ada")


async def _record(path, api_key="sk-never-write-me"):
    fake = FakeServer(['{"mood": "calm", "energy": 7}', '{"mood": "tired", "energy": 2}', "Hi|!"])
    inner = ModelClient("http://fake/v1", "m", api_key=api_key, transport=fake.transport(),
                        embedder=FakeModel(vectors="words"))  # the fake model as the embedder
    async with RecordingLLM(inner, path) as llm:
        a = await llm.complete(MSGS, Mood, TAG)
        b = await llm.complete(MSGS, Mood, TAG)  # same request, different answer
        s = [p async for p in llm.stream(MSGS, TAG)]
        v = await llm.embed(["apple", "pear"])
        assert llm.accounting.total.calls >= 3  # the wrapped client's attributes show through
    return a, b, s, v


async def test_replay_gives_the_recorded_answers_in_order(tmp_path):
    path = tmp_path / "run.jsonl"
    a, b, s, v = await _record(path)
    replay = ReplayLLM(path)
    assert await replay.complete(MSGS, Mood, TAG) == a
    assert await replay.complete(MSGS, Mood, TAG) == b
    assert await replay.complete(MSGS, Mood, TAG) == b  # asked more often: the last again
    assert [p async for p in replay.stream(MSGS, TAG)] == s == ["Hi", "!"]
    assert await replay.embed(["pear", "apple"]) == [v[1], v[0]]
    assert replay.status().by_purpose["react"].calls == 4


async def test_api_key_never_in_the_recording(tmp_path):
    path = tmp_path / "run.jsonl"
    await _record(path, api_key="sk-never-write-me")
    text = path.read_text()
    assert "sk-never-write-me" not in text
    assert "http://fake" not in text
    assert json.loads(text.splitlines()[0])["format"] == "town-llm-recording"


async def test_unrecorded_request_is_a_clear_error(tmp_path):
    path = tmp_path / "run.jsonl"
    await _record(path)
    replay = ReplayLLM(path)
    with pytest.raises(NotRecorded, match="purpose 'plan_day'"):
        await replay.complete([Message("user", "something else")], Mood, CallTag("plan_day", "Bo"))
    with pytest.raises(NotRecorded):
        await replay.complete(MSGS, Mood, TAG, temperature=0.1)  # different limits, different key
    with pytest.raises(NotRecorded, match="embedding"):
        await replay.embed(["kiwi"])


@pytest.mark.parametrize("content, words", [
    (None, "does not exist"),
    ("", "empty"),
    ('{"hello": 1}\n', "not a model recording"),
    ('{"format": "town-llm-recording", "version": 99}\n', "version 99"),
    ('{"format": "town-llm-recording", "version": 1}\nnot json\n', "line 2"),
])
def test_broken_recordings_name_the_file_and_problem(tmp_path, content, words):
    path = tmp_path / "bad.jsonl"
    if content is not None:
        path.write_text(content)
    with pytest.raises(LLMError) as e:
        ReplayLLM(path)
    assert words in str(e.value) and "bad.jsonl" in str(e.value)
