"""The embedded server's flags as settings: today's values by default, each one settable, the
command line they make, and the request field cache_prompt sent to llama-server only."""

from __future__ import annotations

import os

import pytest
from pydantic import BaseModel

from game.llm.api import CallTag, Message
from game.llm.client import ModelClient
from game.llm.config import LLMConfig, ServerFlags
from game.llm.session import embedded_server

from .fakes import FakeServer


def test_defaults_are_the_shipped_values():
    f = ServerFlags.from_env({})
    assert (f.threads, f.threads_batch, f.batch, f.ubatch, f.slots, f.ctx_per_slot) == \
        (max(1, os.cpu_count() or 2), None, 32, 32, 4, 2048)
    assert f.cache_ram_mib is None and f.cache_prompt is None
    assert f.args() == ["--parallel", "4", "-c", "8192", "-t", str(f.threads), "-b", "32", "-ub", "32"]


def test_every_flag_is_a_setting():
    env = {"TOWN_LLM_THREADS": "2", "TOWN_LLM_THREADS_BATCH": "2", "TOWN_LLM_BATCH": "512",
           "TOWN_LLM_UBATCH": "128", "TOWN_LLM_SLOTS": "6", "TOWN_LLM_CTX_PER_SLOT": "4096",
           "TOWN_LLM_CACHE_RAM": "2048", "TOWN_LLM_CACHE_PROMPT": "off"}
    f = ServerFlags.from_env(env)
    assert f.args() == ["--parallel", "6", "-c", "24576", "-t", "2", "-tb", "2", "-b", "512", "-ub", "128",
                        "--cache-ram", "2048"]
    assert f.cache_prompt is False
    assert ServerFlags.from_env(f.env()) == f  # the same flags for another process


@pytest.mark.parametrize("env, words", [
    ({"TOWN_LLM_BATCH": "lots"}, "TOWN_LLM_BATCH"),
    ({"TOWN_LLM_THREADS": "0"}, "TOWN_LLM_THREADS"),
    ({"TOWN_LLM_CACHE_PROMPT": "maybe"}, "TOWN_LLM_CACHE_PROMPT"),
    ({"TOWN_LLM_BATCH": "32", "TOWN_LLM_UBATCH": "64"}, "UBATCH"),
])
def test_bad_flags_are_named(env, words):
    with pytest.raises(ValueError, match=words):
        LLMConfig.from_env(env)


def test_the_embedded_server_is_started_with_the_settings(tmp_path):
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "llama-server").write_text("")
    (tmp_path / "models").mkdir()
    cfg = LLMConfig.from_env({"TOWN_HOME": str(tmp_path), "TOWN_LLM_TEST_MODEL": "1",
                              "TOWN_LLM_UBATCH": "16", "TOWN_LLM_CACHE_RAM": "0"})
    (tmp_path / "models" / "smollm2-135m-instruct-q4_1.gguf").write_text("")
    server = embedded_server(cfg)
    server.port = 1
    cmd = server.command()
    assert cmd[cmd.index("-b") + 1] == "32" and cmd[cmd.index("-ub") + 1] == "16"
    assert cmd[cmd.index("--cache-ram") + 1] == "0" and cmd[cmd.index("--parallel") + 1] == "4"


class Mood(BaseModel):
    mood: str


async def test_cache_prompt_is_sent_to_llama_server_only():
    msgs = [Message("user", "hi")]
    fake = FakeServer(['{"mood": "ok"}'])  # answers /props: a llama-server
    async with ModelClient("http://fake/v1", "m", transport=fake.transport(), cache_prompt=False) as llm:
        await llm.connect()
        assert llm.caches_prompts is False  # told not to cache: no prefill either
        assert await llm.prefill(msgs, CallTag("prefill", "Ada")) is False
        await llm.complete(msgs, Mood, CallTag("react", "Ada"))
    assert fake.requests[0]["cache_prompt"] is False
    fake = FakeServer(['{"mood": "ok"}'])
    async with ModelClient("http://fake/v1", "m", transport=fake.transport(), slots=2,
                           cache_prompt=True) as llm:
        await llm.connect()  # slots fixed: /props not asked, the server is not known to be llama-server
        await llm.complete(msgs, Mood, CallTag("react", "Ada"))
    assert "cache_prompt" not in fake.requests[0]
