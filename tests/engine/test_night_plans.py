"""In the night, while the model server has nothing else to do, a sleeper's day is planned early
(up to ``tuning.NIGHT_AHEAD`` before waking, one such plan in flight at a time): the calls of the
morning's wake-up, when a whole town decides at once, are made while it sleeps (issue 30)."""

from __future__ import annotations

import asyncio
from datetime import datetime

from engine_fakes import engine_model

from game.engine.build import new_engine
from game.engine.state import JobKind
from game.llm.api import ModelStatus
from game.world import default_town_path

NIGHT = datetime(2026, 3, 2, 0, 30)


def _engine(idle: bool, lockstep: bool = False):
    llm = engine_model(jitter=0.002, status=_status(idle))
    return new_engine(default_town_path(), llm, lockstep=lockstep, start=NIGHT), llm


def _status(idle: bool) -> ModelStatus:
    return ModelStatus(url="fake", model="fake", spare=1.0, idle_s=30.0 if idle else 0.0, in_flight=0 if idle else 1)


def _early(e) -> list[str]:
    return [n for n, j in e.jobs.items() if j.kind == JobKind.AHEAD]


async def test_one_day_planned_at_a_time_while_the_server_is_idle():
    e, _ = _engine(idle=True)
    most = 0
    for _ in range(400):  # 400 ticks, each waiting for an answer in flight: not a race with the fake's latency
        e.step()
        most = max(most, len(_early(e)))
        if e.jobs:
            await e.wait_any()
    assert most == 1  # one at a time: the server stays free for anyone who needs it
    # everyone waking within six hours of now had the day planned in the night, asleep still
    for name in ("Felix Adeyemi", "Hank Brody", "Ines Moreau", "Nora Lindqvist", "Grace Okafor"):
        plan = e.minds[name].plan
        assert plan is not None and plan.source == "model" and e.residents[name].asleep, name
    assert e.minds["Eli Moreau"].plan is None  # wakes at 08:00: more than six hours away still
    await e.aclose()


async def test_not_while_the_server_is_busy_nor_in_lockstep():
    e, llm = _engine(idle=False)
    for _ in range(20):
        e.step()
        await asyncio.sleep(0.002)
    assert _early(e) == []  # busy: the usual look ahead (90 game minutes before waking) only
    llm.model_status = _status(idle=True)
    e.step()
    assert len(_early(e)) == 1
    await e.aclose()
    e, _ = _engine(idle=True, lockstep=True)
    for _ in range(40):
        e.step()
        await e.wait_ready()
    assert _early(e) == []  # the same town whatever the server's idle time says
    await e.aclose()
