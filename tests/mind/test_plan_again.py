"""A day plan whose readable lines cover less than a quarter of the day is asked once more; a
window of steps in the waking day keeps no step of sleeping."""

from __future__ import annotations

from game.llm.api import ModelTimeout

from .conftest import DAY1
from .test_mind_logic import PLAN, make

COUNTING = {"plan": ["07-01 wake up, brush teeth and eat breakfast", "07-01 go to the gym",
                     "07-02 go to the artist's studio for 3 hours", "07-03 have breakfast with Latoya"]}


async def test_a_plan_that_says_little_of_the_day_is_asked_again_and_the_better_kept():
    mind, llm = make({"plan_day": [COUNTING, PLAN]})
    plan = await mind.plan_day(DAY1.replace(hour=6))
    assert [c.purpose for c in llm.calls].count("plan_day") == 2
    assert mind.stats["plan_day_again"] == 1
    assert any("Hobbs Cafe" in b.activity for b in plan.blocks) and plan.source == "model"


async def test_a_readable_plan_is_asked_once():
    mind, llm = make({"plan_day": [PLAN, COUNTING]})
    await mind.plan_day(DAY1.replace(hour=6))
    assert [c.purpose for c in llm.calls].count("plan_day") == 1 and mind.stats["plan_day_again"] == 0


async def test_when_the_second_ask_fails_the_first_answer_stands():
    mind, llm = make({"plan_day": [COUNTING, ModelTimeout("slow")]})
    plan = await mind.plan_day(DAY1.replace(hour=6))
    assert mind.stats["plan_day_again"] == 1 and mind.stats["error_plan_day"] == 1
    assert any("wake up" in b.activity for b in plan.blocks)  # the counting plan's own lines, as read


async def test_a_step_of_sleeping_in_the_waking_day_is_left_out_and_a_nap_stays():
    steps = {"steps": ["sleeping (20 min, home)", "brushing teeth (10 min, home)", "taking a nap (20 min, home)",
                       "eating breakfast (10 min, home)"]}
    mind, _ = make({"decompose": [steps]})
    wake = mind.persona.wake
    at = DAY1.replace(hour=wake // 60, minute=wake % 60 + 1)
    await mind.plan_day(at)
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
