"""Reactions and talks past the daily caps while the model server has time to spare
(game/engine/decisions/capacity.py): real-time play only, never while planning is due, one at a time; a
lockstep town is the same town whatever the server's idle time says."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from engine_fakes import engine_model
from test_tick import fingerprint, run

from game.engine.build import new_engine
from game.engine.decisions.capacity import SpareRule, server_spare
from game.engine.state import Job
from game.llm.api import ModelStatus
from game.mind.view import Allowance


def idle_server(**options):
    """The fake model, with a server that says it is idle (its ``model_status``: changeable)."""
    return engine_model(status=ModelStatus(url="fake", model="fake", spare=1.0, idle_s=60.0), **options)


def test_the_server_has_time_to_spare_only_when_idle_now_and_mostly_idle_of_late():
    rule = SpareRule(min_spare=0.5, min_idle_s=5)
    assert server_spare(ModelStatus(spare=0.6, idle_s=8), rule)
    assert not server_spare(ModelStatus(spare=0.4, idle_s=8), rule)
    assert not server_spare(ModelStatus(spare=0.9, idle_s=2), rule)
    assert not server_spare(ModelStatus(spare=0.9, idle_s=8, queued=1), rule)
    assert not server_spare(ModelStatus(), rule)  # nobody measured it (a replay, a fake): none


async def test_an_allowance_only_in_real_time_while_idle_one_at_a_time_and_not_when_planning_is_due(
        fake_town_loader):
    llm = idle_server()
    e = new_engine(fake_town_loader, llm, lockstep=False)
    names = sorted(e.core.residents)
    r = e.core.residents[names[0]]
    now = e.clock.now
    for x in e.core.residents.values():
        x.needs_decision = False  # (a new town's residents all wait for their first step)
    assert not e.capacity.planning_due(now, timedelta(minutes=10))  # nothing asked, nobody's steps run out yet
    assert e.capacity.allowance(r, now) == Allowance(reacts=SpareRule().reacts, talks=SpareRule().talks)
    assert e.capacity.given == 1
    # lockstep: none, and the server's figures are not even read
    e.core.lockstep, asked = True, llm.status_reads
    assert e.capacity.allowance(r, now) is None and llm.status_reads == asked
    e.core.lockstep = False
    # a busy or lately busy server: none
    llm.model_status.spare = 0.2
    assert e.capacity.allowance(r, now) is None
    llm.model_status.spare, llm.model_status.idle_s = 1.0, 1.0
    assert e.capacity.allowance(r, now) is None
    llm.model_status.idle_s = 60.0
    # one at a time in the whole town
    e.board.jobs[names[1]] = Job(seq=1, resident=names[1], kind="react", now=now, ready_at=0,
                           args={"percept": "x", "allowance": {"reacts": 8, "talks": 3}})
    assert e.capacity.allowance(r, now) is None
    # planning first: someone's next step or window is asked, waited for, or due soon
    e.board.jobs[names[1]] = Job(seq=2, resident=names[1], kind="ahead", now=now, ready_at=0, args={})
    assert e.capacity.allowance(r, now) is None
    del e.board.jobs[names[1]]
    e.core.residents[names[1]].needs_decision = True
    assert e.capacity.allowance(r, now) is None
    e.core.residents[names[1]].needs_decision = False
    mind = e.core.minds[names[1]]
    mind.steps_run_out = lambda t: t + timedelta(minutes=35)  # within the look ahead (30) + 10
    assert e.capacity.allowance(r, now) is None
    mind.steps_run_out = lambda t: t + timedelta(minutes=50)
    assert e.capacity.allowance(r, now) is not None and e.capacity.given == 2
    e.capacity.rule = None  # turned off: the fixed caps
    assert e.capacity.allowance(r, now) is None
    await e.aclose()


async def _play(e, ticks: int, sights_every: int = 0) -> None:
    """Step in real time; every ``sights_every`` ticks each resident sees something everyday."""
    for i in range(ticks):
        if sights_every and i % sights_every == 0:
            for r in e.core.residents.values():
                r.salient.append(f"a cat walks by ({i})")
        e.step()
        await asyncio.sleep(0.002 if e.board.jobs else 0)


async def test_in_real_time_an_idle_server_lets_residents_react_past_the_floor_up_to_the_ceiling(
        fake_town_loader):
    """Every resident's floor is 0 reactions: with a server that says it is busy (no figures) no
    everyday sight gets a call; with one that says it is idle some do, never more than the ceiling."""
    calls = {}
    for name, llm in (("busy", engine_model(jitter=0.001)), ("idle", idle_server(jitter=0.001))):
        e = new_engine(fake_town_loader, llm, lockstep=False)
        e.capacity.rule = SpareRule(plan_clear=timedelta(0), reacts=2, talks=1)
        for m in e.core.minds.values():
            m.core.config.max_reacts_per_day = 0
            m.core.config.max_talks_per_day = 0
        await _play(e, 900, sights_every=60)  # 2.5 game hours, a sight every 10 minutes
        assert not e.core.errors, e.core.errors
        spare = {n: m.stats.get("react_spare", 0) for n, m in e.core.minds.items()}
        calls[name] = (e.capacity.given, spare, sum(m.stats.get("react_budget", 0) for m in e.core.minds.values()))
        for n, m in e.core.minds.items():
            used = sum(v for (d, p), v in m.core.calls.items() if p in ("react", "converse"))
            urgent = used - spare[n]
            assert spare[n] <= 2 and urgent >= 0, (n, spare[n], used)
            assert m.stats.get("talk_spare", 0) <= 1
        await e.aclose()
    assert calls["busy"][0] == 0 and not any(calls["busy"][1].values()) and calls["busy"][2] > 0, calls
    assert calls["idle"][0] > 0 and sum(calls["idle"][1].values()) > 0, calls


async def test_in_lockstep_the_servers_idle_time_changes_nothing(fake_town_loader):
    fps = []
    for llm in (engine_model(jitter=0.002, latency_seed=1), idle_server(jitter=0.002, latency_seed=2)):
        e = new_engine(fake_town_loader, llm, lockstep=True)
        fps.append(fingerprint(e, await run(e, 400)))
        assert e.capacity.given == 0 and not any(m.stats.get("react_spare") for m in e.core.minds.values())
        await e.aclose()
    assert fps[0] == fps[1]
    assert llm.status_reads == 0  # the idle figures were never read
