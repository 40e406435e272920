import argparse

import pytest

from game.cli import build_parser
from game.llm.config import LLMConfig


def test_flags_win_over_environment(tmp_path):
    env = {"TOWN_LLM_URL": "http://env:1/v1/", "TOWN_MODEL": "envmodel",
           "TOWN_LLM_API_KEY": "sk-secret", "TOWN_HOME": str(tmp_path)}
    args = build_parser().parse_args(["llm", "check", "--llm-url", "http://flag:2/v1",
                                      "--record", "r.jsonl"])
    cfg = LLMConfig.from_args(args, env)
    assert cfg.llm_url == "http://flag:2/v1" and cfg.model == "envmodel"
    assert cfg.api_key == "sk-secret" and cfg.record == "r.jsonl" and cfg.home == tmp_path
    assert not cfg.embedded
    assert "sk-secret" not in repr(cfg) and "sk-secret" not in str(cfg.to_dict())
    assert cfg.headers() == {"Authorization": "Bearer sk-secret"}


def test_defaults_mean_embedded():
    cfg = LLMConfig.from_args(argparse.Namespace(), {})
    assert cfg.embedded and cfg.llm_url is None and cfg.api_key is None


@pytest.mark.parametrize("env, words", [
    ({"TOWN_LLM_URL": "localhost:8080"}, "http://"),
    ({"TOWN_LLM_TIMEOUT": "soon"}, "TOWN_LLM_TIMEOUT"),
    ({"TOWN_LLM_SLOTS": "0"}, "TOWN_LLM_SLOTS"),
])
def test_bad_settings_are_named(env, words):
    with pytest.raises(ValueError, match=words):
        LLMConfig.from_env(env)


def test_record_and_replay_together_is_refused():
    args = argparse.Namespace(record="a", replay="b")
    with pytest.raises(ValueError, match="together"):
        LLMConfig.from_args(args, {})


def test_the_chat_key_goes_only_to_its_own_host():
    env = {"TOWN_LLM_URL": "https://chat.example.com/v1", "TOWN_LLM_API_KEY": "sk-chat"}
    cfg = LLMConfig.from_env(env)
    # another host, another port or another scheme is another party: no key at all
    assert cfg.embed_key("https://embed.example.org/v1") is None
    assert cfg.embed_key("https://chat.example.com:8443/v1") is None
    assert cfg.embed_key("http://chat.example.com/v1") is None
    # the chat server itself (TOWN_EMBED_VIA_LLM, or an embed URL on the same host) gets the chat key
    assert cfg.embed_key("https://CHAT.example.com:443/other/v1") == "sk-chat"
    # a separate embedding key is used for the embedding server, wherever it is
    cfg = LLMConfig.from_env({**env, "TOWN_EMBED_API_KEY": "sk-embed"})
    assert cfg.embed_key("https://embed.example.org/v1") == "sk-embed"
    assert "sk-embed" not in repr(cfg) and "sk-embed" not in str(cfg.to_dict())
    assert cfg.to_dict()["embed_api_key_set"] is True
