"""An interview against a real llama-server (SmolLM2-135M: small and often wrong, so only the shape
of the answer and the untouched save are checked).  Skipped when the server or model is missing."""

from __future__ import annotations

import io

import pytest

from game.llm.config import Paths, town_home

PATHS = Paths(town_home())
HAVE_SERVER = PATHS.server_bin.is_file() and PATHS.test_model.is_file()

pytestmark = [pytest.mark.real_model,
              pytest.mark.skipif(not HAVE_SERVER, reason=f"llama-server or the test model is not installed "
                                                         f"under {PATHS.home} (run `town setup --for-tests`)")]


async def test_interview_on_the_default_town_with_a_real_model(tmp_path):
    from game.engine.build import new_engine
    from game.llm.client import ModelClient
    from game.llm.server import EmbeddedServer
    from game.measure.interview import run_interview
    from game.world import default_town_path

    save = tmp_path / "start.save"
    town = default_town_path()
    new_engine(town, None, small=True).save(save)
    before = save.read_bytes()
    server = EmbeddedServer(PATHS.server_bin, PATHS.test_model, parallel=1, ctx_per_slot=2048, threads=2,
                            alias="smollm2-test", log_path=tmp_path / "llama-server.log")
    server.start_sync()
    try:
        async with ModelClient(server.url) as llm:
            out = io.StringIO()
            code = await run_interview(llm, str(save), "Rosa", ["What will you be doing at 6pm today?"], out=out)
            assert llm.accounting.total.calls >= 1
    finally:
        server.stop()
    assert code == 0
    text = out.getvalue()
    assert "Q: What will you be doing at 6pm today?" in text
    answer = text.split("A: ", 1)[1].strip()
    assert answer  # validated into InterviewAnswer: non-empty plain text
    assert save.read_bytes() == before
