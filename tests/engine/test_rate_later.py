"""In real time a decision never waits for an importance rating: the observations that go with it
are kept at once, and rated in an ``observe`` job of their own when the resident's lane is free
(``Lanes.run_job``, ``Lanes.maybe_observe``).  A talk's lines, kept unrated, were rated before the
step after the talk could be taken: four and a half game minutes of routine in a measured lunch
hour, the clock slowed for each.  Lockstep rates first, as the recordings were made."""

from __future__ import annotations

import asyncio
from datetime import datetime

from engine_fakes import engine_model

from game.engine.build import new_engine
from game.engine.state import JobKind
from game.world import default_town_path

MORNING = datetime(2026, 3, 2, 10, 0)
SIGHTS = [f"a stranger number {n} walks a goat down the lane" for n in range(8)]


async def _decide_with_sights(lockstep: bool):
    llm = engine_model()
    e = new_engine(default_town_path(), llm, lockstep=lockstep, start=MORNING)
    r = e.core.residents["Aiko Tanaka"]
    mind = e.core.minds[r.name]
    mind.core.config.importance_batch = 3
    r.obs_buffer = list(SIGHTS)
    e.lanes.ask(r, JobKind.NEXT, e.clock.now, {})
    e.lanes.launch()
    await asyncio.wait_for(e.wait_any(), 5)
    return e, llm, r, mind


async def test_a_decision_keeps_its_sights_unrated_and_an_observe_job_rates_them():
    e, llm, r, mind = await _decide_with_sights(lockstep=False)
    assert "importance" not in llm.purposes()
    assert len(mind.memory.unscored()) >= 3 and mind.scoring_due(e.clock.now)
    e.step()  # the lane is free: the ratings are asked now, in a job of their own
    assert e.board.jobs.get(r.name) is not None and e.board.jobs[r.name].kind == JobKind.OBSERVE
    await asyncio.wait_for(e.wait_any(), 5)
    assert "importance" in llm.purposes() and not mind.scoring_due(e.clock.now)
    await e.aclose()


async def test_lockstep_rates_before_the_decision_as_recorded():
    e, llm, _, mind = await _decide_with_sights(lockstep=True)
    assert "importance" in llm.purposes() and not mind.memory.unscored()
    await e.aclose()
