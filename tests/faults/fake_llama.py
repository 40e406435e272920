"""The embedded model server as a FAKE for the restart tests: tests/llm/fake_llama_server.py behind a
wrapper script named by ``TOWN_LLAMA_SERVER``, a model file that is not one, answers valid for each
request's schema, and a file that counts its starts; the embedder a fixed fake, the supervisor's
back-offs short.  ``open_llm`` (and ``town run``, ``town play``) then start it, watch it and bring
it back exactly as they would llama-server.  No model."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import game.llm.supervisor as supervisor_mod
from game.llm import session as session_mod
from game.llm.config import LLMConfig

ROOT = Path(__file__).resolve().parents[2]


class FakeEmbedder:
    """Every text the same unit vector (the restart tests look at no memory's relevance)."""

    name, dim = "fake-embedder", 3

    async def embed(self, texts: list[str]) -> list[list[float]]:
        return [[1.0, 0.0, 0.0] for _ in texts]

    async def aclose(self) -> None:
        pass


def install_fake_llama(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The fake server installed as the game's llama-server (``TOWN_LLAMA_SERVER``: a wrapper script)
    with a model file that is not one in a fresh ``TOWN_HOME``, which is returned."""
    home = tmp_path / "home"
    (home / "models").mkdir(parents=True)
    (home / "models" / "smollm2-135m-instruct-q4_1.gguf").write_text("not a model: the server is a fake")
    wrapper = tmp_path / "llama-server"
    wrapper.write_text(f"#!/bin/sh\nexec '{sys.executable}' '{ROOT / 'tests/llm/fake_llama_server.py'}' \"$@\"\n")
    wrapper.chmod(0o755)
    monkeypatch.setenv("TOWN_HOME", str(home))
    monkeypatch.setenv("TOWN_LLAMA_SERVER", str(wrapper))
    return home


def fake_llama_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, delay: float = 0.0,
                   backoff: tuple[float, ...] = (0.1, 0.2, 0.4),
                   max_starts: int | None = None) -> tuple[LLMConfig, Path]:
    """The config ``open_llm`` gets, and the file of the fake server's starts (one line each);
    ``max_starts``: a start past that many exits at once (a server that cannot come back)."""
    home = install_fake_llama(tmp_path, monkeypatch)
    starts = tmp_path / "starts.txt"
    monkeypatch.setenv("TOWN_LLM_TEST_MODEL", "1")
    monkeypatch.setenv("FAKE_LLAMA_VALID", "1")
    monkeypatch.setenv("FAKE_LLAMA_DELAY", str(delay))
    monkeypatch.setenv("FAKE_LLAMA_STARTS", str(starts))
    for var in ("FAKE_LLAMA_MAX_STARTS", "TOWN_LLM_URL", "TOWN_EMBED_URL", "TOWN_LLM_SLOTS"):
        monkeypatch.delenv(var, raising=False)
    if max_starts is not None:
        monkeypatch.setenv("FAKE_LLAMA_MAX_STARTS", str(max_starts))
    monkeypatch.setattr(supervisor_mod, "RESTART_BACKOFF_S", backoff)
    monkeypatch.setattr(supervisor_mod, "WATCH_EVERY_S", 0.05)
    monkeypatch.setattr(session_mod, "make_embedder", lambda config: FakeEmbedder())
    config = LLMConfig(home=home, use_test_model=True, timeout_s=20.0, connect_timeout_s=2.0,
                       transport_retries=1, backoff_s=0.05, answer_retries=0)
    return config, starts


def started(starts: Path) -> list[str]:
    """The fake server's starts so far (its process ids)."""
    return starts.read_text().split() if starts.exists() else []
