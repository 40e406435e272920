"""A window of steps in the waking day keeps no step of sleeping.  (A day plan that fails its check
is asked once more: tests/mind/test_dayframe.py.)"""

from __future__ import annotations

from .conftest import DAY1
from .test_mind_logic import make


async def test_a_step_of_sleeping_in_the_waking_day_is_left_out_and_a_nap_stays():
    steps = {"steps": ["sleeping (20 min, home)", "brushing teeth (10 min, home)", "taking a nap (20 min, home)",
                       "eating breakfast (10 min, home)"]}
    mind, _ = make({"decompose": [steps]})
    wake = mind.persona.wake
    at = DAY1.replace(hour=wake // 60, minute=wake % 60 + 1)
    await mind.planner.plan_day(at)
    first = await mind.next_action(at)
    done = [first.description] + [a.description for a in mind.agenda.queue]
    assert "sleeping" not in done and "brushing teeth" in done[0] and "taking a nap" in done
    assert mind.stats["sleep_step_dropped"] == 1


async def test_a_step_is_never_stretched_past_a_block_and_the_rest_is_asked_when_it_runs_out():
    one = {"steps": ["brewing coffee (15 min, Hobbs Cafe)"]}
    mind, llm = make({"decompose": [one, one]}, max_block_min=60)  # default windows: 3-4 hours
    at = DAY1.replace(hour=8)
    first = await mind.next_action(at)
    assert first.duration_min == 60 and not mind.agenda.queue and mind.stats["step_capped"] == 1
    await mind.next_action(first.end())
    assert llm.purposes().count("decompose") == 2
