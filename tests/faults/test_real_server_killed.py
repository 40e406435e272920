"""A real llama-server (the small SmolLM2 test model) SIGKILLed in the middle of generating answers
for six queued decisions on two slots, then started again on the same port: every call ends in an
answer or a clear ModelUnavailable/ModelTimeout, the scheduler is idle, the status says the server
is gone, and the same client works again once the server is back.  Skipped when
``town setup --for-tests`` has not installed the server and the model."""

from __future__ import annotations

import asyncio
import os
import signal
from collections import Counter

import pytest

from game.llm.api import CallTag, LLMError, Message, ModelTimeout, ModelUnavailable, Priority
from game.llm.client import ModelClient
from game.llm.config import Paths, town_home
from game.mind.schemas import LineAnswer

PATHS = Paths(town_home())
HAVE_SERVER = PATHS.server_bin.is_file() and PATHS.test_model.is_file()
pytestmark = [pytest.mark.real_model,
              pytest.mark.skipif(not HAVE_SERVER, reason=f"llama-server or the test model is not installed "
                                                         f"under {PATHS.home} (run `town setup --for-tests`)")]

MSG = [Message("system", "You write one friendly line of small talk as JSON."),
       Message("user", "Say hello to your neighbour and talk about the weather at length.")]


def _server(port, log_dir):
    from game.llm.server import EmbeddedServer

    return EmbeddedServer(PATHS.server_bin, PATHS.test_model, parallel=2, ctx_per_slot=1024, threads=2,
                          alias="smollm2-test", port=port, log_path=log_dir / "server.log")


async def test_real_server_killed_mid_answer_and_back(tmp_path):
    srv = _server(None, tmp_path)
    srv.start_sync()
    port = srv.port
    llm = ModelClient(srv.url, timeout_s=300, transport_retries=1, backoff_s=0.2, answer_retries=0)
    try:
        await llm.connect()
        tasks = [asyncio.create_task(llm.complete(MSG, LineAnswer, CallTag("fault", f"R{i}", Priority.REACT),
                                                  max_tokens=200, temperature=0.9)) for i in range(6)]
        await asyncio.sleep(0.8)  # two are generating, four wait in the scheduler's queue
        assert srv.proc is not None
        os.killpg(srv.proc.pid, signal.SIGKILL)
        srv.proc.wait(10)
        results = await asyncio.gather(*tasks, return_exceptions=True)
        kinds = Counter(type(r).__name__ for r in results)
        print(f"\nreal server SIGKILLed under load: {dict(kinds)}")
        assert all(isinstance(r, (LineAnswer, LLMError)) for r in results), kinds
        assert any(isinstance(r, (ModelUnavailable, ModelTimeout)) for r in results), kinds
        assert llm.scheduler.in_flight == 0 and llm.scheduler.queued == 0
        st = llm.status()
        assert st.reachable is False and st.last_error and str(port) in st.last_error

        back = _server(port, tmp_path)  # the same port: the client's URL still holds
        back.start_sync()
        try:
            await llm.connect()  # reaches it again (no generation: the shared machine is slow)
            again = await llm.complete(MSG, LineAnswer, CallTag("fault", "R0"), max_tokens=24)
            print(f"after the restart: {again!r}")
            assert isinstance(again, LineAnswer)
            assert llm.status().reachable is True
            assert llm.scheduler.in_flight == 0
        finally:
            back.stop()
    finally:
        await llm.aclose()
        srv.stop()
