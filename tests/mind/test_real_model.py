"""The mind against a real llama-server with the small SmolLM2-135M test model: every schema the
mind sends (place enums, length limits, compact plan lines) is accepted by the server's grammar and
every decision comes back as valid plain data.  SmolLM2 is small and often silly: these tests check
shapes and validation, not good sense (the recorded Qwen answers in test_recorded.py do that).
Skipped when ``town setup --for-tests`` has not installed the server and the model."""

from __future__ import annotations

from datetime import timedelta

import pytest
from fake_model import bow_vector

from game.llm.client import ModelClient
from game.llm.config import Paths, town_home
from game.mind import Mind, MindConfig
from game.mind.view import Conversation

from .scenarios import DAY1, ISABELLA, KLAUS, TOWN, cafe_view

PATHS = Paths(town_home())
HAVE_SERVER = PATHS.server_bin.is_file() and PATHS.test_model.is_file()
pytestmark = [pytest.mark.real_model,
              pytest.mark.skipif(not HAVE_SERVER, reason=f"llama-server or the test model is not installed "
                                                         f"under {PATHS.home} (run `town setup --for-tests`)")]


async def fake_embed(texts):  # embeddings are not under test here
    return [bow_vector(t) for t in texts]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from game.llm.server import EmbeddedServer

    s = EmbeddedServer(PATHS.server_bin, PATHS.test_model, parallel=2, ctx_per_slot=2048, threads=2,
                       alias="smollm2-test", log_path=tmp_path_factory.mktemp("llama") / "server.log")
    s.start_sync()
    yield s
    s.stop()


async def test_every_decision_returns_valid_plain_data_from_a_real_server(server):
    async with ModelClient(server.url, backoff_s=0.05, answer_retries=1) as llm:
        await llm.connect()
        # 30-minute blocks keep each decomposition short (the CI machine is small)
        mind = Mind(ISABELLA, llm, fake_embed, now=DAY1, config=MindConfig(importance_batch=3, max_block_min=30))
        mind.core.identity, mind.core.identity_date = "Isabella runs Hobbs Cafe.", DAY1.date()
        view = cafe_view(("Klaus Mueller",))
        t = DAY1.replace(hour=9)
        a = await mind.next_action(t, view)
        assert mind.plan.blocks[0].start == mind.persona.wake and mind.plan.blocks[-1].end == mind.persona.sleep
        assert a.address in TOWN and len(a.emoji) == 1 and 1 <= a.duration_min <= 120
        for q in mind.agenda.queue:
            assert q.address in TOWN
        await mind.observe(t, ["Klaus Mueller is reading", "a dog barks", "the radio plays"])
        assert not mind.memory.unscored()
        r = await mind.react(t + timedelta(minutes=1), "the stove in the kitchen of Hobbs Cafe is on fire", view)
        assert r.kind in ("continue", "react", "talk")
        if r.new_action is not None:
            assert r.new_action.address in TOWN
        conv = Conversation("c", [mind.core.name, "Klaus Mueller"])
        line = await mind.say(t, conv, ["Klaus Mueller"])
        assert isinstance(line.text, str) and "\n" not in line.text
        pieces = [p async for p in Mind(KLAUS, llm, fake_embed, now=DAY1).say_stream(
            t, Conversation("p", ["Klaus Mueller", "Visitor"], with_player=True), ["Visitor"])]
        assert pieces and isinstance(pieces[-1].text, str)
        errors = {k: v for k, v in mind.stats.items() if k.startswith("error_")}
        assert not errors, (errors, mind.last_error)
