"""open_llm and `town llm check` without a model: clear errors, never a fake."""

from __future__ import annotations

import json

import pytest

from game.cli import main
from game.llm.api import LLMError, ModelUnavailable
from game.llm.config import LLMConfig
from game.llm.record import ReplayLLM
from game.llm.session import open_llm


async def test_nothing_installed_says_run_town_setup(tmp_path):
    cfg = LLMConfig.from_env({"TOWN_HOME": str(tmp_path)})
    cfg.embed_url = "http://127.0.0.1:1/v1"  # get past the embedder to the server check
    with pytest.raises(LLMError) as e:
        async with open_llm(cfg):
            pass
    assert "town setup" in str(e.value) and "--llm-url" in str(e.value)


async def test_no_embedding_model_says_run_town_setup(tmp_path):
    cfg = LLMConfig.from_env({"TOWN_HOME": str(tmp_path), "TOWN_LLM_URL": "http://127.0.0.1:1/v1"})
    with pytest.raises(LLMError, match="town setup"):
        async with open_llm(cfg):
            pass


async def test_unreachable_server_is_model_unavailable(tmp_path):
    cfg = LLMConfig.from_env({"TOWN_HOME": str(tmp_path), "TOWN_LLM_URL": "http://127.0.0.1:1/v1",
                              "TOWN_EMBED_URL": "http://127.0.0.1:1/v1"})
    with pytest.raises(ModelUnavailable, match="127.0.0.1:1"):
        async with open_llm(cfg):
            pass


async def test_replay_needs_no_model(tmp_path):
    rec = tmp_path / "r.jsonl"
    rec.write_text('{"format": "town-llm-recording", "version": 1}\n')
    cfg = LLMConfig.from_env({"TOWN_HOME": str(tmp_path / "nothing-here")}, replay=str(rec))
    async with open_llm(cfg) as llm:
        assert isinstance(llm, ReplayLLM)
        assert llm.status().url.startswith("replay:")


def test_check_fails_with_exit_1_and_json(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TOWN_HOME", str(tmp_path))
    monkeypatch.setenv("TOWN_EMBED_URL", "http://127.0.0.1:1/v1")
    code = main(["llm", "check", "--json", "--llm-url", "http://127.0.0.1:1/v1"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["ok"] is False
    assert "127.0.0.1:1" in out["errors"][0]


def test_check_refuses_replay(capsys):
    assert main(["llm", "check", "--replay", "x.jsonl"]) == 2
    assert "nothing to check" in capsys.readouterr().err


async def test_server_that_dies_while_starting_is_reported_with_its_log(tmp_path):
    from game.llm.server import EmbeddedServer

    fake_bin = tmp_path / "llama-server"
    fake_bin.write_text("#!/bin/sh\necho 'error: this CPU cannot run me' >&2\nexit 3\n")
    fake_bin.chmod(0o755)
    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF")
    log = tmp_path / "logs" / "server.log"
    server = EmbeddedServer(fake_bin, model, log_path=log, keep_log=False)
    seen: list[str] = []
    with pytest.raises(ModelUnavailable) as e:
        await server.start(seen.append, timeout_s=10)
    assert "exit code 3" in str(e.value) and "cannot run me" in str(e.value)
    assert seen and "starting the model server" in seen[0]
    assert log.exists()  # kept because it failed
    assert not server.alive()


@pytest.mark.parametrize("env, embed_host, expected", [
    # the chat key must not leave for another host
    ({"TOWN_EMBED_URL": "http://embed.other:9/v1"}, "embed.other", None),
    ({"TOWN_EMBED_URL": "http://embed.other:9/v1", "TOWN_EMBED_API_KEY": "sk-embed"}, "embed.other",
     "Bearer sk-embed"),
    ({"TOWN_EMBED_VIA_LLM": "1"}, "chat.host", "Bearer sk-chat"),
])
async def test_embedding_requests_carry_only_their_own_key(tmp_path, monkeypatch, env, embed_host, expected):
    """The embedder open_llm builds, driven through a real request (a mock transport records what
    reaches the embedding server's host)."""
    import httpx

    import game.llm.session as session
    from game.llm.embed import RemoteEmbedder

    seen = []

    def handler(request):
        seen.append((request.url.host, request.headers.get("authorization")))
        return httpx.Response(200, json={"data": [{"index": 0, "embedding": [1.0, 0.0]}]})

    class RecordedRemoteEmbedder(RemoteEmbedder):  # the real embedder on a recording transport
        def __init__(self, *a, **kw):
            super().__init__(*a, transport=httpx.MockTransport(handler), **kw)

    monkeypatch.setattr(session, "RemoteEmbedder", RecordedRemoteEmbedder)
    cfg = LLMConfig.from_env({"TOWN_HOME": str(tmp_path), "TOWN_LLM_URL": "http://chat.host:8080/v1",
                              "TOWN_LLM_API_KEY": "sk-chat", **env})
    embedder = session.make_embedder(cfg)
    await embedder.embed(["hello"])
    await embedder.aclose()
    assert seen == [(embed_host, expected)]
