"""Fixtures for the real-model tests: a llama-server with the small SmolLM2 model, on a free port.

They are skipped (not failed) when ``town setup --for-tests`` has not installed the server binary
and the test model into the cache folder ($TOWN_HOME, default ~/.cache/town).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from game.llm.config import Paths, town_home
from game.llm.server import EmbeddedServer

PATHS = Paths(town_home())
HAVE_SERVER = PATHS.server_bin.is_file() and PATHS.test_model.is_file()
SKIP_REASON = (f"llama-server or the test model is not installed under {PATHS.home} "
               f"(run `town setup --for-tests`)")


def make_server(tmp_dir: Path, *, port: int | None = None, embeddings: bool = False,
                parallel: int = 2) -> EmbeddedServer:
    return EmbeddedServer(PATHS.server_bin, PATHS.test_model, parallel=parallel,
                          ctx_per_slot=1024, embeddings=embeddings, threads=1,
                          alias="smollm2-test", log_path=tmp_dir / "llama-server.log", port=port)


@pytest.fixture(scope="module")
def small_server(tmp_path_factory):
    if not HAVE_SERVER:
        pytest.skip(SKIP_REASON)
    server = make_server(tmp_path_factory.mktemp("llama"))
    server.start_sync()
    yield server
    server.stop()
    assert not server.alive()
