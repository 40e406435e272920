"""The stand-in server (game/measure/standin.py) and the many-residents benchmark (swarm.py), small:
answers that fit every schema the minds ask with, the latency model, the slots, the slot cache,
and a 10-resident town for a few ticks through the real client and scheduler."""

from __future__ import annotations

import asyncio
import time

import pytest

from game.llm.api import CallTag, Message
from game.llm.client import ModelClient
from game.llm.embed import RemoteEmbedder
from game.measure import standin, swarm
from game.mind import schemas
from game.mind.planning import steps


@pytest.fixture
def server():
    srv = standin.start_in_thread(slots=2, prefill_rate=100_000.0, decode_rate=10_000.0)
    yield srv
    srv.shutdown()
    srv.server_close()


def _ask(srv, schema, text="You are Grace Okafor. Plan the day.", n=1):
    async def go():
        c = ModelClient(srv.url, embedder=RemoteEmbedder(srv.url))
        await c.connect()
        try:
            out = await asyncio.gather(*(c.complete([Message("user", f"{text} {i}")], schema,
                                                    CallTag("plan_day", f"R{i}", 2)) for i in range(n)))
            vecs = await c.embed(["one", "two"])
            return out, vecs, c
        finally:
            await c.aclose()
    return asyncio.run(go())


@pytest.mark.parametrize("schema", [
    schemas.DayPlanAnswer, steps.DecomposeAnswer, steps.block_steps_answer(("07:00 a", "08:00 b")),
    schemas.ReactAnswer, schemas.LineAnswer,
    schemas.InsightsAnswer, schemas.IdentityAnswer, schemas.ImportanceAnswer, schemas.AttendAnswer,
    schemas.script_answer(("Grace", "Hank")), schemas.hazard_answer(("on", "off", "burning")),
])
def test_every_schema_is_answered_in_its_form(server, schema):
    out, vecs, client = _ask(server, schema, n=3)
    assert all(isinstance(v, schema) for v in out)
    assert client.accounting.total.failures == 0 and client.accounting.total.retries == 0
    assert len(vecs) == 2 and len(vecs[0]) == 384 and vecs[0] != vecs[1]
    assert client.scheduler.slots == 2 and client.model == standin.MODEL_NAME  # from /props, /v1/models


def test_an_enum_the_recording_does_not_know_is_taken_from_the_schema():
    schema = {"type": "object", "properties": {"place": {"type": "string", "enum": ["Hobbs Cafe", "the park"]},
                                               "n": {"type": "integer", "ge": 5, "le": 60}}}
    value = standin.fit({"place": "home", "n": 99}, schema, {}, seed=3)
    assert value["place"] in ("Hobbs Cafe", "the park") and value["n"] == 60


def test_latency_slots_and_the_slot_cache():
    srv = standin.start_in_thread(slots=2, prefill_rate=4000.0, decode_rate=200.0)
    try:
        long = "word " * 800  # 1,000 tokens: 0.25 s to evaluate
        t = time.monotonic()
        _ask(srv, schemas.IdentityAnswer, text=long, n=4)
        took = time.monotonic() - t
        log = srv.log
        assert len(log) == 4
        # never more than 2 at once
        for _, a, b, *_ in log:
            assert sum(1 for _, s, e, *_ in log if s < (a + b) / 2 < e) <= 2
        one = log[0][2] - log[0][1]
        sent, evaluated, completion = log[0][3:]
        assert one == pytest.approx(evaluated / 4000 + completion / 200, abs=0.05)
        assert took >= 2 * min(e - s for _, s, e, *_ in log)  # 4 requests in 2 slots: two waves
        # the same resident's next prompt begins the same: evaluated from where it differs
        async def again():
            c = ModelClient(srv.url, embedder=RemoteEmbedder(srv.url))
            await c.connect()
            try:
                await c.complete([Message("user", long + "and then")], schemas.IdentityAnswer,
                                 CallTag("identity", "R0", 2))
                await c.complete([Message("user", long + "and more")], schemas.IdentityAnswer,
                                 CallTag("identity", "R0", 2))
            finally:
                await c.aclose()
        asyncio.run(again())
        assert srv.log[-1][4] < 20 <= srv.log[-1][3]  # sent ~1,000, evaluated a few
    finally:
        srv.shutdown()
        srv.server_close()


def test_occupancy_from_samples_and_the_server_log():
    log = [[0, 0.0, 1.0, 0, 0, 0], [1, 0.0, 0.5, 0, 0, 0]]
    samples = [(0.25, 3, 2, 1), (0.75, 3, 1, 1), (1.5, 0, 0, 0)]
    occ = swarm.occupancy(samples, log, slots=2)
    assert occ["busy_share_while_work_waits"] == pytest.approx(0.75)
    assert occ["busy_of_open_requests_while_deciding"] == pytest.approx(0.75)  # (2 + 1) of (2 + 2)
    assert occ["decisions_open_max"] == 3


def test_a_small_town_in_real_time_against_the_standin():
    cfg = swarm.SwarmConfig(residents=10, slots=4, start="06:00", until="06:01", speedup=10.0,
                            decode_rate=400.0, prefill_rate=20_000.0, policy="clock")
    r = swarm.run_swarm(cfg)
    assert r["residents"] == 10 and r["ticks"] == 6 and r["engine_errors"] == 0
    assert r["step_cpu_ms_median"] is not None and r["rss_mb_peak"] > 0
    assert r["server"]["kind"] == "stand-in" and r["server"]["requests"] >= 1 and r["chat_failures"] == 0
    assert r["slots"]["samples"] > 0 and r["scheduler_slots"] == 4
    assert "residents 06:00-06:01" in swarm.format_swarm(r)


def test_a_real_servers_slots_against_the_clients_samples():
    samples = [(0.0, 5, 2, 3), (1.0, 5, 2, 0), (2.0, 0, 0, 0)]
    occ = swarm.real_server_occupancy(samples, [(0.01, 2), (1.01, 1), (2.01, 0)], slots=2)
    assert occ["busy_share_while_work_waits"] == pytest.approx(1.0)
    assert occ["busy_of_open_requests_while_deciding"] == pytest.approx(0.75)  # (1 + 0.5) / 2
    assert swarm.real_server_occupancy(samples, [], 2)["client_open_requests_max"] == 5


def test_a_standin_that_refuses_a_third_of_the_calls_loses_none():
    srv = standin.start_in_thread(slots=4, prefill_rate=100_000.0, decode_rate=10_000.0, refuse=1 / 3,
                                  retry_after=0.05)
    try:
        out, _, client = _ask(srv, schemas.ReactAnswer, n=30)
        assert len(out) == 30 and all(isinstance(v, schemas.ReactAnswer) for v in out)
        assert srv.refused >= 5 and len(srv.log) == 30  # each refused call asked again and answered
        assert client.accounting.total.failures == 0 and client.link.refusals == srv.refused
    finally:
        srv.shutdown()
        srv.server_close()


def test_a_small_town_against_a_standin_that_refuses_and_hides_its_slots():
    cfg = swarm.SwarmConfig(residents=10, slots=4, start="06:00", until="06:01", speedup=10.0,
                            decode_rate=400.0, prefill_rate=20_000.0, policy="clock", refuse=0.34,
                            retry_after=0.05, hide_slots=True)
    r = swarm.run_swarm(cfg)
    assert r["engine_errors"] == 0 and r["chat_failures"] == 0 and r["calls_given_up_refused"] == 0
    # each refusal the client read was asked again; one the stand-in sent as the run stopped may be
    # cancelled with its call before the client reads it (at most one a request then open)
    refused, again = r["server"]["refused"], r["refusals_asked_again"]
    assert refused >= 1 and refused - r["throttle"]["ceiling"] <= again <= refused
    assert r["throttle"]["stated"] is False  # /props said nothing: the limit is found
    assert "refused" in swarm.format_swarm(r)
    from game.measure.scale import scale_table

    r["machine"]["load_1min_at_end"] = 0.5
    table = scale_table({"runs": [r]})  # (the scale benchmark's table: a row a run)
    assert table.count("\n") == 2 and "| 10 | 4 (client: " in table and ", found)" in table


def test_a_big_town_is_the_default_town_in_blocks(tmp_path):
    from game.measure.bigtown import big_town
    from game.world import default_town_path, load_town

    base = load_town(default_town_path())
    folder = big_town(default_town_path(), 30, tmp_path, per_block=10)
    town = load_town(folder)  # every place each resident's day needs is on the map (load_town checks)
    assert town.width == 3 * base.width and town.height == base.height and len(town.residents) == 30
    assert len(town.tree.sectors()) == 3 * len(base.tree.sectors())
    assert "Okafor house 3" in town.tree.sectors() and "Okafor house" in town.tree.sectors()
    names = {r.name for r in town.residents}
    grace3 = next(r for r in town.residents if r.name == "Grace3 Okafor")  # the third generation: block 3
    assert grace3.home.startswith("Okafor house 3:") and (grace3.workplace or "").startswith("Town Hall 3:")
    assert "Samuel3 Okafor" in grace3.relationships and set(grace3.relationships) <= names
    assert 2 * base.width <= town.spawn["Grace3 Okafor"][0] < 3 * base.width
    assert town.spawn["Grace Okafor"] == base.spawn["Grace Okafor"]

