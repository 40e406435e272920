"""The mind's decisions on a scripted fake model: budget rules, validation and degradation."""

from __future__ import annotations

import ast
from datetime import timedelta
from pathlib import Path

import pytest
from fake_model import FakeModel

from game.llm.api import BadAnswer, ModelUnavailable
from game.mind import Mind, MindConfig
from game.mind.core import identity_text
from game.mind.mind import fit_steps, rule_importance, shape_plan
from game.mind.view import Conversation

from .conftest import ALLOWED, DAY1, SPEC
from .fakes import scripted_model

DAY2 = DAY1 + timedelta(days=1, hours=8)  # (a new resident's first day asks no identity summary)

# Isabella's Friday, line by line of its frame (tests/mind/test_dayframe.py): 06:00 wake, 06:30
# breakfast, 07:00 free, 09:00 work, 12:00 lunch, 12:45 work, 17:00 free, 18:00 dinner, 18:45 free, 21:30 bed
# (waking, meals and bed are the frame's own: the model writes the free time and one line for the shift)
PLAN = {"plan": ["read the paper", "open and run Hobbs Cafe", "walk in Johnson Park",
                 "decorate the cafe for the party"]}
STEPS = {"steps": [
    {"action": "brewing coffee", "minutes": 10, "place": "Hobbs Cafe:cafe:coffee machine", "emoji": "☕",
     "state": "brewing"},
    {"action": "serving customers", "minutes": 15, "place": "the counter at Hobbs", "emoji": "x",
     "state": ""},
    {"action": "wiping tables", "minutes": 15, "place": "the moon", "emoji": "🧹\ufe0f", "state": "none"},
]}


# windows of two hours, as the queue's tests below were written for (the window's own rule, three to
# four hours by default, is in test_decompose_window.py; a whole day at the defaults in test_budget.py)
TWO_HOURS = {"decompose_window_min": 120, "decompose_window_max": 120}


def make(script=None, **cfg) -> tuple[Mind, FakeModel]:
    llm = scripted_model({"identity": [{"summary": "Isabella is warm and runs the cafe."}], "plan_day": [PLAN],
                   "decompose": [STEPS], "importance": [lambda *_: {"ratings": ["important"] * 40}],
                   **(script or {})})
    return Mind(SPEC, llm, config=MindConfig(**cfg), now=DAY1), llm


# ------------------------------------------------------------------ plan shaping
def test_shape_plan_covers_the_waking_day_without_gaps_or_overlaps():
    blocks = shape_plan([(8 * 60, 12 * 60, "work"), (7 * 60, 9 * 60, "breakfast"), (14 * 60, 26 * 60, "late"),
                         (13 * 60, 13 * 60, "empty")], 6 * 60, 22 * 60, max_block=120)
    assert blocks[0].start == 6 * 60 and blocks[-1].end == 22 * 60
    for a, b in zip(blocks, blocks[1:]):
        assert a.end == b.start
    assert all(b.end - b.start <= 120 for b in blocks)
    assert "work" in {b.activity for b in blocks} and "late" in {b.activity for b in blocks}
    assert shape_plan([], 360, 1320) == () and shape_plan([(1, 2, "x")], 600, 500) == ()


def test_fit_steps_fills_the_span_exactly():
    assert [m for _, m, _ in fit_steps([("a", 10, 0), ("b", 15, 0)], 40)] == [10, 30]
    assert [m for _, m, _ in fit_steps([("a", 30, 0), ("b", 30, 0), ("c", 30, 0)], 45)] == [30, 15]


def test_rule_importance_for_routine_sights():
    assert rule_importance("Klaus Mueller is sleeping") == 1
    # the engine's own words for a talk seen from outside
    assert rule_importance("Rosa Brody is talking with Ines Moreau (the cafe of Bluebell Cafe)") == 2
    assert rule_importance("Rosa Brody is going to talk with Ines Moreau") == 2
    assert rule_importance("Ines Moreau is thinking about the conversation (the Moreau house)") == 1
    assert rule_importance("Rosa Brody is talking with Ines about the fire at the park") is None
    assert rule_importance("the bed is idle") == 1
    assert rule_importance("Klaus Mueller is shouting about a fire") is None


# ------------------------------------------------------------------ planning
async def test_day_plan_then_decompose_then_queue_without_further_calls(view):
    mind, llm = make(**TWO_HOURS)
    now = DAY1.replace(hour=7)  # free time from 07:00 to 09:00: a 2-hour block
    a1 = await mind.next_action(now, view)
    assert llm.purposes() == ["plan_day", "decompose"]  # (no identity summary on a first day)
    assert mind.plan.blocks[0].start == 6 * 60 and mind.plan.blocks[-1].end == 22 * 60
    # a bare view has no vocabulary of states: the state an old answer proposed is not used
    assert a1.description == "brewing coffee" and a1.emoji == "☕" and a1.object_state is None
    assert a1.address == "Hobbs Cafe:cafe:coffee machine"
    # asked again before it is over (a talk broke it off): the rest of the same step
    again = await mind.next_action(now + timedelta(minutes=10), view)
    assert again.description == "brewing coffee" and again.duration_min == a1.duration_min - 10
    a2 = await mind.next_action(now + timedelta(minutes=a1.duration_min), view)
    assert a2.address == "Hobbs Cafe:cafe:counter" and a2.emoji == "💼"  # the emoji is the rule's
    a3 = await mind.next_action(a2.end(), view)
    assert a3.address in ALLOWED and a3.object_state is None and a3.emoji == "🧹"
    assert mind.stats["place_fallback"] == 1 and mind.stats["place_fuzzy"] == 1
    assert a3.end() == now + timedelta(minutes=120)  # the steps stretch together to fill the 2-hour block
    assert llm.purposes().count("decompose") == 1
    await mind.next_action(now + timedelta(hours=2), view)  # next block: one more decomposition
    assert llm.purposes().count("decompose") == 2
    assert llm.purposes().count("plan_day") == 1 and llm.purposes().count("identity") == 0


async def test_the_next_window_is_decided_ahead_and_taken_from_the_queue_without_a_wait(view):
    mind, llm = make({"decompose": [STEPS, STEPS]}, **TWO_HOURS)
    now = DAY1.replace(hour=7)
    assert mind.steps_run_out(now) is None  # nothing decided yet: next_action asks, not a look ahead
    a1 = await mind.next_action(now, view)
    run_out = now + timedelta(minutes=120)  # the three steps fill 07:00-09:00
    assert mind.steps_run_out(now) == run_out
    # the last step is in hand: the window from 09:00 is asked now, and goes after it in the queue
    a2 = await mind.next_action(a1.end(), view)
    a3 = await mind.next_action(a2.end(), view)
    assert mind.agenda.queue == [] and mind.steps_run_out(a3.start) == run_out
    assert await mind.decide_ahead(a3.start, view, run_out=run_out) == 3
    # asked again for the same run-out (a save loaded while it was in flight): done already
    assert await mind.decide_ahead(a3.start, view, run_out=run_out) == 0
    assert llm.purposes().count("decompose") == 2 and mind.stats["ahead_calls"] == 1
    assert mind.agenda.queue[0].start == run_out and mind.agenda.queue[0].source == "model"
    assert mind.steps_run_out(a3.start) == mind.agenda.queue[-1].end()  # and so on, one window at a time
    # when the steps in hand end, the next one is there: no call
    a4 = await mind.next_action(run_out, view)
    assert a4.description == "brewing coffee" and a4.start == run_out
    assert llm.purposes().count("decompose") == 2


async def test_a_look_ahead_is_asked_once_and_not_when_a_new_plan_comes_first_or_sleep(view):
    mind, llm = make({"decompose": [STEPS, BadAnswer("junk")]})
    now = DAY1.replace(hour=8)
    await mind.next_action(now, view)
    at = mind.steps_run_out(now)
    assert at is not None
    assert await mind.decide_ahead(now, view) == 0 and mind.stats["error_decompose"] == 1
    assert mind.steps_run_out(now) is None  # a failed look ahead is not asked again and again
    assert await mind.decide_ahead(now, view) == 0 and llm.purposes().count("decompose") == 2
    # the steps in hand end at 10:00; when they run out, next_action asks as before
    llm.script["decompose"] = [STEPS]
    assert (await mind.next_action(at, view)).source == "model"
    assert mind.steps_run_out(at) is not None
    mind.whisper(at, "the cafe is closed today")
    assert mind.steps_run_out(at) is None  # a replan comes first and would throw the steps away
    # the last steps before bed: nothing to decide ahead of sleep
    mind2, _ = make()
    await mind2.next_action(DAY1.replace(hour=20), view)
    assert mind2.steps_run_out(DAY1.replace(hour=20)) is None


async def test_the_day_and_its_first_window_are_decided_before_waking(view):
    mind, llm = make(**TWO_HOURS)
    night = DAY1.replace(hour=4, minute=30)  # asleep; wakes at 06:00
    wake = DAY1.replace(hour=6)
    assert mind.steps_run_out(DAY1 - timedelta(hours=1)) is None  # (23:00, the evening before)
    assert mind.steps_run_out(night) == wake
    assert await mind.decide_ahead(night, view, run_out=wake) == 3
    assert llm.purposes() == ["plan_day", "decompose"] and mind.stats["wake_ahead"] == 1
    assert mind.plan.blocks[0].start == 6 * 60 and mind.agenda.queue[0].start == wake
    assert mind.steps_run_out(night) is None  # planned: nothing more to ask before waking
    assert (await mind.next_action(night, view)).description == "sleeping"
    first = await mind.next_action(wake + timedelta(minutes=2), view)  # woken a little late
    assert first.description == "brewing coffee" and first.source == "model"
    assert first.end() == wake + timedelta(minutes=15)  # (the steps stretched to fill 06:00-07:00)
    assert llm.purposes() == ["plan_day", "decompose"]  # no call at waking


async def test_no_window_before_waking_when_the_day_plan_failed(view):
    mind, llm = make({"plan_day": [ModelUnavailable("down")]})
    night, wake = DAY1.replace(hour=5), DAY1.replace(hour=6)
    assert await mind.decide_ahead(night, view, run_out=wake) == 0
    assert "decompose" not in llm.purposes() and mind.agenda.queue == []
    assert mind.steps_run_out(night) is None  # one try; waking asks again as it always did


async def test_a_reaction_that_outlasts_the_steps_it_broke_off_is_looked_past(view):
    react = {"decision": "react", "talk_to": "", "new_action": "help put out the fire at the park",
             "place": "Johnson Park:park:bench", "emoji": "🚒", "minutes": 60}
    mind, llm = make({"react": [react], "decompose": [STEPS, STEPS]}, **TWO_HOURS)
    now = DAY1.replace(hour=7)
    await mind.next_action(now, view)
    for _ in range(2):
        await mind.next_action(mind.agenda.current.end(), view)
    last = mind.agenda.current  # 07:25-09:00, the last step of the window
    r = await mind.react(DAY1.replace(hour=8, minute=30), "smoke is rising from Johnson Park", view)
    assert r.kind == "react" and mind.agenda.queue == [last]
    # the reaction ends at 09:30, after the steps it broke off: the next window runs from then
    at = mind.steps_run_out(DAY1.replace(hour=8, minute=31))
    assert at == DAY1.replace(hour=9, minute=30)
    assert await mind.decide_ahead(DAY1.replace(hour=9), view, run_out=at) == 3
    assert mind.agenda.queue[1].start == at
    nxt = await mind.next_action(at, view)
    assert nxt.start == at and nxt.source == "model" and llm.purposes().count("decompose") == 2


async def test_sleep_is_a_rule_and_routine_never_calls(view):
    mind, llm = make()
    a = await mind.next_action(DAY1.replace(hour=3), view)
    assert a.description == "sleeping" and a.address == "Isabella's apartment:bedroom:bed"
    assert llm.calls == []
    r = mind.routine_action(DAY1.replace(hour=10), view)
    assert r.description == "working" and r.address.startswith("Hobbs Cafe") and r.source == "routine"
    assert mind.routine_action(DAY1.replace(hour=12, minute=10), view).description == "having lunch"
    assert mind.routine_action(DAY1.replace(hour=20), view).address.startswith("Isabella's apartment")
    assert mind.routine_action(DAY1.replace(hour=23), view).description == "sleeping"
    assert llm.calls == []


async def test_model_failure_degrades_to_routine_and_records_the_error(view):
    mind, llm = make({"plan_day": [ModelUnavailable("down")], "decompose": [BadAnswer("junk")]})
    a = await mind.next_action(DAY1.replace(hour=9), view)
    assert a.source == "routine" and mind.plan.source == "routine"
    assert mind.plan.blocks[0].start == 6 * 60 and mind.plan.blocks[-1].end == 22 * 60
    assert "decompose" in mind.last_error and mind.stats["error_plan_day"] == 1
    # an hour later the model is asked again for the rest of the day
    llm.script["replan"] = [{"plan": ["get the party ready"]}]
    llm.script["decompose"] = [STEPS]
    a = await mind.next_action(DAY1.replace(hour=10, minute=5), view)
    assert mind.plan.source == "model" and mind.plan.block_at(11 * 60).activity == "get the party ready"
    assert a.source == "model" and llm.purposes()[-2:] == ["replan", "decompose"]


async def test_whisper_flags_a_replan_that_keeps_the_past_and_changes_the_future(view):
    mind, llm = make({"replan": [{"plan": ["instead, put up campaign posters because I run for mayor",
                                            "campaign for mayor", "write a speech"]}]})
    await mind.next_action(DAY1.replace(hour=8), view)
    mind.whisper(DAY1.replace(hour=10), "I will run for mayor")
    assert mind.agenda.replan_reason
    await mind.next_action(DAY1.replace(hour=10), view)
    assert llm.purposes()[-2:] == ["replan", "decompose"]
    acts = [b.activity for b in mind.plan.blocks]
    assert acts[0] == "getting up and ready for the day" and acts[-1] == "getting ready for bed"
    assert mind.plan.block_at(9 * 60).activity == "open and run Hobbs Cafe"  # the past is kept
    assert mind.plan.block_at(10 * 60).kind == "moved"  # work moved, saying why
    assert mind.plan.block_at(17 * 60).activity == "campaign for mayor"
    assert mind.agenda.replan_reason is None
    assert mind.memory.recent(1, kinds=["whisper"])[0].importance == 8


async def test_a_short_replan_keeps_the_old_plan_after_it(view):
    mind, llm = make({"replan": [{"plan": ["make campaign posters at the counter"]}]})
    await mind.next_action(DAY1.replace(hour=8), view)
    mind.whisper(DAY1.replace(hour=10), "I will run for mayor")
    await mind.next_action(DAY1.replace(hour=10), view)
    assert mind.plan.block_at(11 * 60).activity == "make campaign posters at the counter"
    # the lines it left out keep the old plan's words (no second call: nothing failed)
    assert mind.plan.block_at(17 * 60).activity == "walk in Johnson Park"
    assert [c.purpose for c in llm.calls].count("replan") == 1
    assert mind.plan.blocks[-1].end == 22 * 60 and mind.stats["replans"] == 1


async def test_a_whisper_answered_with_a_usual_line_is_asked_again(view):
    """Felix in play (04:36): "introduce himself to people in town", one of his usual lines, for the whisper
    "You promised Rosa you would bring her cinnamon buns at the cafe this morning"; the line that is to act on
    a thought is asked again when it is one of the resident's own choices and shares no word with it."""
    mind, llm = make({"replan": [{"plan": ["serve customers at the counter", "relaxing at home", "reading at home"]},
                                 {"plan": ["bake a cake for Klaus and take it to the park"]}],
                      "decompose": [STEPS, STEPS]})
    await mind.next_action(DAY1.replace(hour=8), view)
    mind.whisper(DAY1.replace(hour=10), "I promised Klaus a cake at the park")
    await mind.next_action(DAY1.replace(hour=10), view)
    assert [c.purpose for c in llm.calls].count("replan") == 2
    assert "the 17:00 line does not act on the new thought (I promised Klaus a cake at the park)" in \
        llm.calls[-2][1][-1].content
    assert mind.plan.block_at(17 * 60).activity == "bake a cake for Klaus and take it to the park"
    assert mind.stats["plan_problem_news"] == 1
    # the player's doing, watched for: it goes before the day plans queued at the server
    from game.llm.api import Priority
    assert {c.tag.priority for c in llm.calls if c.tag.purpose == "replan"} == {Priority.REACT}


# ------------------------------------------------------------------ importance
async def test_importance_is_batched_and_rules_skip_routine_sights():
    mind, llm = make(importance_batch=4)
    now = DAY1.replace(hour=9)
    await mind.observe(now, ["Klaus Mueller is sleeping", "Klaus Mueller is sleeping", "a fire at the park"])
    assert llm.calls == [] and mind.stats["seen_again"] == 1 and mind.stats["importance_rule"] == 1
    await mind.observe(now, ["a new poster", "a dog barking", "music from the park"])
    assert llm.purposes() == ["importance"]
    assert len(mind.memory.unscored()) == 0
    prompt = llm.calls[0][1][1].content
    assert "- a fire at the park" in prompt and "- music from the park" in prompt
    assert mind.memory.get(mind.memory.find_recent_text("a dog barking", now)).importance == 7


async def test_a_sight_the_model_rated_before_is_rated_again_without_a_call():
    mind, llm = make(importance_batch=2)
    t = DAY1.replace(hour=9)
    await mind.observe(t, ["Klaus Mueller is reading (the cafe)", "a dog barking"])
    assert llm.purposes() == ["importance"]
    # past the dedupe window, seen elsewhere: the same sight, its rating kept; a new one waits
    later = t + timedelta(hours=3)
    await mind.observe(later, ["Klaus Mueller is reading (the park)", "music from the park"])
    assert llm.purposes() == ["importance"] and mind.stats["importance_seen_before"] == 1
    again = mind.memory.find_recent_text("Klaus Mueller is reading (the park)", later)
    assert mind.memory.get(again).importance == 7 and mind.memory.get(again).scored
    assert [mind.memory.text(i) for i in mind.memory.unscored()] == ["music from the park"]


async def test_importance_waits_for_a_batch_but_not_forever():
    mind, llm = make(importance_batch=10, importance_max_wait_min=60)
    await mind.observe(DAY1.replace(hour=9), ["a cat in the garden"])
    await mind.observe(DAY1.replace(hour=9, minute=30), ["a bird"])
    assert llm.calls == []
    await mind.observe(DAY1.replace(hour=10, minute=5), ["a car"])
    assert llm.purposes() == ["importance"]


# ------------------------------------------------------------------ reflection
async def test_the_identity_summary_ends_at_a_whole_sentence_and_is_about_the_resident():
    cut = ("Isabella runs Hobbs Cafe and loves to make people feel welcome. She is planning a Valentine's "
           "Day party at the cafe on the fourteenth and has invited most of her regulars already. She "
           "feels good about how the plans are going and about the new menu, but she still has to buy "
           "the decorations and ask a")  # what a 300-character limit leaves of a longer answer
    mind, _ = make({"identity": [{"summary": cut}]})
    assert await mind.reflector.ensure_identity(DAY2) == cut[:cut.index(" She feels")]
    # the prompt's example copied as it stands: not about her, so the persona alone stands today
    example = ("Eddy is curious and hard-working. He studies music at the college. He feels good about the "
               "song he finished this week.")
    mind, llm = make({"identity": [{"summary": example}]})
    assert await mind.reflector.ensure_identity(DAY2) == "" and mind.stats["identity_dropped"] == 1
    assert "Eddy" not in identity_text(mind.core) and identity_text(mind.core).startswith("Isabella Rodriguez")
    assert await mind.reflector.ensure_identity(DAY2.replace(hour=9)) == ""
    assert llm.purposes() == ["identity"]  # not asked again the same day


async def test_on_a_new_residents_first_day_the_seeds_are_not_summarised_again():
    # issue 42: the summary of the seeds says the persona's brief again, a call of about a minute on
    # the first wake-up's critical path; from the second day it is asked
    mind, llm = make({"identity": [{"summary": "Isabella runs Hobbs Cafe and loves her regulars."}]})
    mind.core.seed(DAY1)
    assert len(mind.memory) > 0
    assert await mind.reflector.ensure_identity(DAY1) == "" and llm.purposes() == []
    assert mind.stats["identity_from_seeds"] == 1 and identity_text(mind.core).startswith("Isabella Rodriguez")
    mind.memory.add("observation", "Klaus Mueller asked about the party", DAY1.replace(hour=9))
    assert await mind.reflector.ensure_identity(DAY1.replace(hour=9)) == "" and llm.purposes() == []
    nxt = DAY1.replace(day=DAY1.day + 1)
    assert await mind.reflector.ensure_identity(nxt) == "Isabella runs Hobbs Cafe and loves her regulars."
    assert llm.purposes() == ["identity"]


async def test_an_identity_sentence_that_echoes_the_prompts_example_is_left_out():
    # seen in the default town: Kenji, a pharmacist, "feels good about the song he finished this week"
    said = ("Isabella runs Hobbs Cafe and loves to make people feel welcome. She feels good about the song "
            "she finished this week.")
    mind, _ = make({"identity": [{"summary": said}]})
    said_back = await mind.reflector.ensure_identity(DAY2)
    assert said_back == "Isabella runs Hobbs Cafe and loves to make people feel welcome."
    assert mind.stats["identity_example_echo"] == 1
    # the same words, where her own life backs them, stay
    mind, _ = make({"identity": [{"summary": said}]})
    mind.persona.background += " She writes a song a week and finished one on Sunday."
    assert await mind.reflector.ensure_identity(DAY2) == said and mind.stats["identity_example_echo"] == 0


async def test_reflection_threshold_and_evidence_must_be_real():
    script = {"reflect": [{"insights": [{"insight": "Isabella cares about her party", "evidence": [1, 2, 77]},
                                        {"insight": "an invented claim", "evidence": [99]}]}]}
    mind, llm = make(script, reflect_threshold=40)  # the two seed memories count 10
    now = DAY1.replace(hour=11)
    for i in range(3):
        mind.memory.add("observation", f"Isabella invited guest {i} to the party", now, importance=9)
    assert not mind.reflection_due()
    assert await mind.reflect_if_due(now) == []
    mind.memory.add("observation", "Isabella bought party decorations", now, importance=9)
    assert mind.reflection_due()
    made = await mind.reflect_if_due(now + timedelta(minutes=1))
    assert made == ["Isabella cares about her party"]
    assert llm.purposes().count("reflect") == 1  # the focal points are the records that made it due
    listing = llm.calls[-1][1][-1].content
    assert "Isabella bought party decorations" in listing
    assert mind.stats["evidence_dropped"] == 2 and mind.stats["insight_dropped"] == 1
    rec = mind.memory.recent(1, kinds=["reflection"])[0]
    assert len(rec.evidence) == 2
    for e in rec.evidence:
        assert mind.memory.get(e).kind != "reflection" and e < rec.id
    assert not mind.reflection_due()  # the counter restarted


async def test_an_insight_that_gives_someone_a_workplace_not_theirs_is_not_kept():
    # the default town's whole day: "Samuel Okafor is managing Bluebell Cafe" (he plays its piano)
    from game.mind.facts.fact import TownNames

    script = {"reflect": [{"insights": [{"insight": "Klaus Mueller is managing Hobbs Cafe", "evidence": [1]},
                                        {"insight": "Isabella works hard at Hobbs Cafe", "evidence": [1]}]}]}
    mind, _ = make(script, reflect_threshold=10)
    mind.know_town(TownNames(places=("Hobbs Cafe", "Oak Hill College"), people=("Isabella Rodriguez", "Klaus Mueller"),
                             workplaces={"Isabella Rodriguez": "Hobbs Cafe", "Klaus Mueller": "Oak Hill College"}))
    now = DAY1.replace(hour=11)
    mind.memory.add("observation", "Klaus Mueller ordered a coffee at Hobbs Cafe", now, importance=9)
    assert await mind.reflect_if_due(now + timedelta(minutes=1)) == ["Isabella works hard at Hobbs Cafe"]
    assert mind.stats["insight_misattributed"] == 1


@pytest.mark.parametrize("made_up, counted", [
    # 90db376: Grace's reflection "Grace Okafor is dedicated to her research" (the prompt's example is
    # "Klaus is dedicated to his research"), cited on a talk that said nothing of research
    ("Isabella Rodriguez is dedicated to her research", "insight_example_echo"),
    # 136a191: Rosa "is well-versed in business operations and marketing strategies", cited on three
    # lines Felix told her of his stall; her interview said it as her own, twice
    ("Isabella is well-versed in business operations and marketing strategies", "insight_ungrounded"),
])
async def test_an_insight_that_echoes_the_example_or_that_nothing_held_is_not_kept(made_up, counted):
    script = {"reflect": [{"insights": [{"insight": made_up, "evidence": [1]},
                                        {"insight": "Isabella cares about her regulars", "evidence": [1]}]}]}
    mind, _ = make(script, reflect_threshold=10)
    now = DAY1.replace(hour=11)
    mind.memory.add("observation", "Klaus Mueller ordered a coffee from Isabella, a regular", now, importance=9)
    assert await mind.reflect_if_due(now + timedelta(minutes=1)) == ["Isabella cares about her regulars"]
    assert mind.stats[counted] == 1


async def test_an_insight_is_kept_less_an_analyst_s_clause():
    # Rosa's on eaef4b9's day: "Rosa Brody is actively preparing for a surprise party at Bluebell Cafe, likely for
    # Grace's 60th birthday, as evidenced by her actions in helping with" (cut off); her answers then said "as
    # evidenced by my actions" and "based on my statement in the interview"
    from game.mind.reflection import plain_insight

    assert plain_insight("Rosa Brody is actively preparing for a surprise party at Bluebell Cafe, likely for "
                         "Grace's 60th birthday, as evidenced by her actions in helping with") == (
        "Rosa Brody is actively preparing for a surprise party at Bluebell Cafe.")
    assert plain_insight("Rosa is planning to vote for Grace, based on her statement in") == (
        "Rosa is planning to vote for Grace.")
    assert plain_insight("Isabella cares about her regulars.") == "Isabella cares about her regulars."
    # all of it the analyst's: nothing is left to say (Grace's "Grace Okafor is." on b61bcdc's day)
    assert plain_insight("Grace Okafor is likely to win the debate") == ""
    script = {"reflect": [{"insights": [{"insight": "Isabella cares about her regulars, as shown by her smile",
                                         "evidence": [1]}]}]}
    mind, _ = make(script, reflect_threshold=10)
    now = DAY1.replace(hour=11)
    mind.memory.add("observation", "Klaus Mueller ordered a coffee from Isabella, a regular", now, importance=9)
    assert await mind.reflect_if_due(now + timedelta(minutes=1)) == ["Isabella cares about her regulars."]


def test_an_insight_its_resident_holds_is_grounded():
    from game.mind.reflection import ungrounded

    assert not ungrounded("Rosa Brody cares about her father.", "She lives with her father, Hank.", ["Rosa Brody"])


# ------------------------------------------------------------------ reacting
async def test_react_budget_cooldown_and_the_steps_carry_on_after_it(view):
    react = {"decision": "react", "talk_to": "", "new_action": "run to the park to see the fire",
             "place": "Johnson Park:park:bench", "emoji": "🏃", "minutes": 90}
    mind, llm = make({"react": [react]}, max_reacts_per_day=2)
    now = DAY1.replace(hour=8)
    await mind.next_action(now, view)
    broken_off, queued = mind.agenda.current, list(mind.agenda.queue)
    assert queued
    r = await mind.react(now + timedelta(minutes=3), "smoke is rising from Johnson Park", view)
    assert r.kind == "react" and r.new_action.address == "Johnson Park:park:bench"
    # the steps already decomposed carry on after the reaction (no second decompose call), the
    # one it broke off first
    assert r.new_action.duration_min == 60 and mind.agenda.queue == [broken_off] + queued
    later = await mind.next_action(now + timedelta(minutes=63), view)
    assert later.description == queued[0].description and llm.purposes().count("decompose") == 1
    assert later.end() == queued[0].end()  # the step in progress, for what is left of it
    assert "smoke" in mind.memory.recent(1, kinds=["plan"])[0].text
    again = await mind.react(now + timedelta(minutes=5), "smoke is rising from Johnson Park", view)
    assert again.kind == "continue" and again.reason == "already considered"
    await mind.react(now + timedelta(minutes=6), "something else", view)
    spent = await mind.react(now + timedelta(minutes=7), "a third thing", view)
    assert spent.reason == "budget" and llm.purposes().count("react") == 2
    news = await mind.react(now + timedelta(minutes=8), "the stove is on fire", view, urgent=True)
    assert news.reason != "budget" and llm.purposes().count("react") == 3  # news is always considered
    asleep = await mind.react(DAY1.replace(hour=23), "a noise", view)
    assert asleep.kind == "continue"


async def test_a_talk_written_whole_counts_in_the_days_reactions(view):
    """A resident who talked a lot reacts less to everyday sights: its ``converse`` calls count in
    ``max_reacts_per_day`` (the worst resident of a whole day had 8 reactions and 4 talks, 32 calls),
    news does not wait on it."""
    cont = {"decision": "continue", "talk_to": "", "new_action": "", "place": "", "emoji": "", "minutes": 5}
    mind, llm = make({"react": [cont], "converse": [{"lines": [{"speaker": "Isabella", "say": "Hello."}]}]},
                     max_reacts_per_day=2)
    now = DAY1.replace(hour=9)
    assert (await mind.react(now, "Klaus Mueller walks by", view)).reason == "model"
    await mind.converse(now, Conversation("c1", ["Isabella Rodriguez", "Klaus Mueller"]), {})
    spent = await mind.react(now + timedelta(minutes=1), "Maria Lopez walks by", view)
    assert spent.reason == "budget" and llm.purposes().count("react") == 1
    news = await mind.react(now + timedelta(minutes=2), "the stove is on fire", view, urgent=True)
    assert news.reason == "model" and llm.purposes().count("react") == 2
    # the next day starts afresh
    assert (await mind.react(now + timedelta(days=1), "Maria Lopez walks by", view)).reason == "model"


async def test_react_talk_needs_someone_present(view):
    from dataclasses import replace
    mind, llm = make({"react": [{"decision": "talk", "talk_to": "klaus", "new_action": "", "place": "",
                                 "emoji": "", "minutes": 5}]})
    v = replace(view, people_here=("Klaus Mueller",))
    r = await mind.react(DAY1.replace(hour=9), "Klaus Mueller walks in", v)
    assert r.kind == "talk" and r.with_whom == "Klaus Mueller"
    r = await mind.react(DAY1.replace(hour=9, minute=1), "Nobody", view)
    assert r.kind == "continue"


async def test_react_naming_someone_to_tell_is_a_talk_and_other_reacts_stay_reacts(view):
    """A small model often answers "react" with talk_to set and an action of telling: that is a talk.
    "react" with someone named but another errand stays a reaction; "react" to do "continue" is a
    continue.  (The sights are of things: a sight of someone asks the narrower meet.txt.)"""
    from dataclasses import replace
    ask_rosa = {"decision": "react", "talk_to": "Klaus Mueller", "new_action": "tell Klaus about the party",
                "place": "", "emoji": "", "minutes": 5}
    errand = {"decision": "react", "talk_to": "Klaus Mueller", "new_action": "taking a shower",
              "place": "Hobbs Cafe:cafe:counter", "emoji": "", "minutes": 5}
    same = {"decision": "react", "talk_to": "", "new_action": "continue", "place": "", "emoji": "", "minutes": 5}
    tell_all = {"decision": "react", "talk_to": "", "new_action": "telling everyone I see about the party",
                "place": "", "emoji": "", "minutes": 5}
    watch = {"decision": "react", "talk_to": "", "new_action": "waiting for Klaus to finish",
             "place": "Hobbs Cafe:cafe:counter", "emoji": "", "minutes": 5}
    mind, llm = make({"react": [ask_rosa, errand, same, tell_all, watch]})
    v = replace(view, people_here=("Klaus Mueller",))
    r = await mind.react(DAY1.replace(hour=9), "a poster about the party is on the wall", v)
    assert r.kind == "talk" and r.with_whom == "Klaus Mueller"
    r = await mind.react(DAY1.replace(hour=9, minute=1), "the radio is playing", v)
    assert r.kind == "react" and r.new_action.description == "taking a shower"
    r = await mind.react(DAY1.replace(hour=9, minute=2), "the kettle is idle", v)
    assert r.kind == "continue"
    r = await mind.react(DAY1.replace(hour=9, minute=3), "the party flyers are printed", v)
    assert r.kind == "talk" and r.with_whom == "Klaus Mueller"  # telling: the only one there
    r = await mind.react(DAY1.replace(hour=9, minute=4), "the till is open", v)
    assert r.kind == "react"  # named, but not a talk


async def test_a_resident_stops_starting_talks_after_enough_conversations_today(view):
    from dataclasses import replace
    talk = {"decision": "talk", "talk_to": "Klaus Mueller", "new_action": "", "place": "", "emoji": "",
            "minutes": 5}
    mind, llm = make({"react": [talk] * 3}, max_talks_per_day=2)
    v = replace(view, people_here=("Klaus Mueller",))
    t = DAY1.replace(hour=9)
    for i in range(2):
        mind.remember_conversation(t, Conversation(f"c{i}", [mind.core.name, "Klaus Mueller"],
                                                   lines=[(mind.core.name, "Hello!"), ("Klaus Mueller", "Hi.")]))
    assert mind.core.talks_on(t.date()) == 2
    r = await mind.react(t + timedelta(minutes=1), "Klaus Mueller is reading", v)
    assert r.kind == "continue" and r.reason == "talked enough today"
    assert mind.core.talks_on((t + timedelta(days=1)).date()) == 0  # a new day, new talks


async def test_a_reaction_can_set_the_state_of_what_it_acts_on(view):
    out = {"decision": "react", "talk_to": "", "new_action": "putting out the fire", "emoji": "",
           "place": "Hobbs Cafe:cafe:coffee machine", "minutes": 10, "state": "put out"}
    mind, llm = make({"react": [out]})
    r = await mind.react(DAY1.replace(hour=9), "the coffee machine is on fire", view)
    assert r.kind == "react" and r.new_action.object_state == "put out"


# ------------------------------------------------------------------ dialogue
async def test_dialogue_lines_end_and_caps_and_group_talk():
    lines = [{"say": "Hi Klaus and Maria!", "end_conversation": False},
             {"say": "", "end_conversation": False}]
    mind, llm = make({"dialogue": lines}, max_turns_per_speaker=2)
    conv = Conversation("c1", ["Isabella Rodriguez", "Klaus Mueller", "Maria Lopez"])
    now = DAY1.replace(hour=9)
    line = await mind.say(now, conv, ["Klaus Mueller", "Maria Lopez"])
    assert line.text == "Hi Klaus and Maria!" and not line.end
    prompt = llm.calls[-1][1][1].content
    assert "Klaus, Maria" not in prompt and "Klaus Mueller, Maria Lopez" in prompt
    assert "a regular at the cafe" in prompt  # the relationship of a listener is in context
    conv.add("Isabella Rodriguez", line.text)
    empty = await mind.say(now, conv, ["Klaus Mueller", "Maria Lopez"])
    assert empty.end and empty.text == ""
    conv.add("Isabella Rodriguez", "more")
    capped = await mind.say(now, conv, ["Klaus Mueller"])
    assert capped.end and capped.source == "rule" and llm.purposes().count("dialogue") == 2


async def test_say_stream_yields_pieces_then_a_clean_line():
    mind, llm = make({"stream:dialogue": ["Isabella: Hi| there,| see you| later!"]})
    conv = Conversation("p", ["Isabella Rodriguez", "Visitor"], with_player=True)
    out = [x async for x in mind.say_stream(DAY1.replace(hour=9), conv, ["Visitor"])]
    # the speaker's own name in front is not shown, not even while it is being written
    assert out[:-1] == ["Hi", " there,", " see you", " later!"]
    assert out[-1].text == "Hi there, see you later!" and out[-1].end
    assert llm.calls[-1][0].priority == 0  # the player's conversation jumps the queue
    mind, _ = make({"stream:dialogue": ['Isa|bella|: "|Sure|, come in.']})
    out = [x async for x in mind.say_stream(DAY1.replace(hour=9), conv, ["Visitor"])]
    assert out[:-1] == ["Sure", ", come in."] and out[-1].text == "Sure, come in."
    mind, _ = make({"stream:dialogue": ["Visitor|: Welcome| in!"]})  # the listener's name: a slip
    out = [x async for x in mind.say_stream(DAY1.replace(hour=9), conv, ["Visitor"])]
    assert out[:-1] == [" Welcome"[1:], " in!"] and out[-1].text == "Welcome in!"
    mind, _ = make({"stream:dialogue": ["Is| it| raining?"]})  # a start like the name that is not it
    out = [x async for x in mind.say_stream(DAY1.replace(hour=9), conv, ["Visitor"])]
    assert "".join(out[:-1]) == "Is it raining?"


def prefilled(llm) -> list[list]:
    """The messages of each prefill the fake model took, in order."""
    return [c.messages for c in llm.of("prefill")]


def talk_with_mara(replies: list[str], cid: str) -> tuple:
    """Isabella's mind on a server that keeps prompt caches, in a talk with the player Mara that has
    just opened at 09:00; her streamed lines are ``replies``."""
    llm = scripted_model({"identity": [{"summary": "Isabella is warm and runs the cafe."}],
                          "stream:dialogue": replies}, prefill_s=0.0)  # a server that takes prefills
    mind = Mind(SPEC, llm, now=DAY1)
    now = DAY1.replace(hour=9)
    return mind, llm, now, Conversation(cid, ["Isabella Rodriguez", "Mara"], with_player=True, started=now)


async def test_listening_prepares_a_reply_prompt_that_every_turn_begins_with():
    mind, llm, now, conv = talk_with_mara(["Good morning!", "The party is on Friday at five."], "p1")
    assert await mind.listen(now, conv, ["Mara"]) is True
    (system, head), = prefilled(llm)
    assert llm.calls[-1][0].purpose == "prefill" and llm.calls[-1][0].priority == 0
    assert head.content.rstrip().endswith("Conversation so far:\n(nothing yet)")
    conv.add("Mara", "Hello, I'm new in town.")
    _ = [x async for x in mind.say_stream(now, conv, ["Mara"])]
    conv.add("Isabella Rodriguez", "Good morning!")
    mind.memory.add("observation", "Maria Lopez said the party at Hobbs Cafe moved to Saturday", now,
                    importance=8)
    conv.add("Mara", "Is there a party at the cafe this week?")
    _ = [x async for x in mind.say_stream(now + timedelta(minutes=2), conv, ["Mara"])]
    replies = [m for t, m, kind in llm.calls if kind == "stream"]
    assert replies[0][1].content.startswith(head.content)  # the reply began as prepared
    held = head.content[:head.content.index("Conversation so far:")]
    for messages in replies:  # the same beginning each turn: the server's cached prompt serves them
        assert messages[0].content == system.content
        assert messages[1].content.startswith(held)
    # what the player's line brings to mind comes after the talk so far, not in the held beginning
    tail = replies[1][1].content[len(held):]
    assert "Isabella recalls:" in tail and "moved to Saturday" in tail
    assert "Isabella recalls:" not in replies[0][1].content  # nothing new came to mind then
    assert mind.core.calls_on(DAY1.date()).get("prefill") == 1
    # a save keeps the held beginning: a reply after loading begins the same way
    again = Mind.from_state(mind.to_state(), llm)
    assert again.talker.held == mind.talker.held
    mind.remember_conversation(now + timedelta(minutes=3), conv)  # over: its held context goes
    assert conv.id not in mind.talker.held


async def test_listening_to_what_the_player_types_prepares_the_reply_prompt_up_to_the_newest_words():
    mind, llm, now, conv = talk_with_mara(["Good morning!", "Yes, on Saturday now.", "Saturday!"], "p1")
    conv.add("Mara", "Hello, I'm new in town.")
    _ = [x async for x in mind.say_stream(now, conv, ["Mara"])]
    conv.add("Isabella Rodriguez", "Good morning!")
    mind.memory.add("observation", "Maria Lopez said the party at Hobbs Cafe moved to Saturday", now,
                    importance=8)  # heard after the talk's context was made
    # the player has typed part of their line: what it brings to mind and the words so far
    assert await mind.listen(now, conv, ["Mara"], typed=("Mara", "Is there a party at")) is True
    (_, typed_user), = prefilled(llm)
    assert typed_user.content.index("Isabella recalls:") < typed_user.content.index("Mara: Is there a party at")
    assert "moved to Saturday" in typed_user.content
    # they say more than they had typed: the reply's prompt begins as the prefill did, up to the
    # words typed then (only the rest of the line and the instruction are new)
    conv.add("Mara", "Is there a party at the cafe this week?")
    _ = [x async for x in mind.say_stream(now + timedelta(minutes=1), conv, ["Mara"])]
    reply = [m for t, m, kind in llm.calls if kind == "stream"][-1][1].content
    upto = typed_user.content.index("Mara: Is there a party at") + len("Mara: Is there a party at")
    assert reply[:upto] == typed_user.content[:upto]
    assert reply.index("Isabella recalls:") < reply.index("Mara: Is there a party at the cafe this week?")
    assert "Good morning!" in reply[:reply.index("Isabella recalls:")]  # the talk so far comes first
    # they said exactly what they had typed: the prefill was the reply's whole prompt
    conv.add("Isabella Rodriguez", "Yes, on Saturday now.")
    assert await mind.listen(now, conv, ["Mara"], typed=("Mara", "Saturday then?")) is True
    conv.add("Mara", "Saturday then?")
    _ = [x async for x in mind.say_stream(now + timedelta(minutes=2), conv, ["Mara"])]
    last = [m for t, m, kind in llm.calls if kind == "stream"][-1]
    assert [m.content for m in last] == [m.content for m in prefilled(llm)[-1]]


async def test_what_a_line_brings_to_mind_as_it_is_typed_only_grows_at_its_end():
    mind, llm, now, conv = talk_with_mara(["The one on Oak Street."], "p3")
    assert await mind.listen(now, conv, ["Mara"]) is True
    mind.memory.add("observation", "the library closes early on Mondays", now, importance=6)
    for where in ("Oak Street", "the market", "the station"):
        mind.memory.add("observation", f"the bakery at {where} sells warm bread", now, importance=6)
    await mind.listen(now, conv, ["Mara"], typed=("Mara", "where is the bakery"))
    first = prefilled(llm)[-1][1].content
    assert "warm bread" in first
    await mind.listen(now, conv, ["Mara"], typed=("Mara", "where is the bakery and is the library open"))
    second = prefilled(llm)[-1][1].content
    section = first[first.index("Isabella recalls:"):first.index("Write Isabella")].rstrip("\n")
    assert second.startswith(first[:first.index(section) + len(section)])  # kept, in its place
    assert "library closes early" in second[first.index(section) + len(section):]  # what is new comes after
    conv.add("Mara", "where is the bakery and is the library open?")
    _ = [x async for x in mind.say_stream(now, conv, ["Mara"])]
    reply = [m for t, m, kind in llm.calls if kind == "stream"][-1][1].content
    assert reply.startswith(second[:second.index("Mara: where is the bakery and is the library open")])
    mind.remember_conversation(now, conv)
    assert not mind.talker.brought


async def test_a_reply_prompt_ends_with_the_line_to_answer_or_asks_the_resident_to_speak_first():
    mind, llm, now, conv = talk_with_mara(["Hello there, stranger!", "Fine, thanks."], "p2")
    _ = [x async for x in mind.say_stream(now, conv, ["Mara"])]  # she speaks first
    conv.add("Isabella Rodriguez", "Hello there, stranger!")
    conv.add("Mara", "Hi! How are you?")
    _ = [x async for x in mind.say_stream(now, conv, ["Mara"])]
    first, second = [m[1].content for t, m, kind in llm.calls if kind == "stream"]
    assert first.endswith("Write what Isabella says to Mara now: only the words Isabella says.")
    assert "(nothing yet)" in first
    assert second.endswith("Write Isabella's answer to what Mara says now: only the words Isabella says.\n"
                           "Mara: Hi! How are you?\n(Isabella answers in Isabella's own words)")
    assert "Isabella Rodriguez: Hello there, stranger!" in second


async def test_a_reply_that_begins_with_the_name_of_someone_the_resident_knows_is_shown_without_it():
    mind, llm, now, conv = talk_with_mara(["Klaus Mueller: He studies at the cafe every day."], "p4")
    conv.add("Mara", "Who is the man with the books?")
    out = [x async for x in mind.say_stream(now, conv, ["Mara"])]
    shown = "".join(x for x in out if isinstance(x, str))
    assert shown == "He studies at the cafe every day." and out[-1].text == shown


async def test_listening_without_a_prompt_cache_asks_nothing():
    mind, llm = make()
    now = DAY1.replace(hour=9)
    conv = Conversation("p1", ["Isabella Rodriguez", "Mara"], with_player=True, started=now)
    assert await mind.listen(now, conv, ["Mara"]) is False
    assert "prefill" not in llm.purposes()


async def test_places_offered_put_home_work_and_here_first(view):
    from dataclasses import replace
    mind, _ = make(places_in_prompt=4)
    v = replace(view, allowed=("Johnson Park:park", "Zoo:cage:lion", "Hobbs Cafe:cafe:counter",
                               "Town Hall:hall", "Isabella's apartment:kitchen:stove"))
    assert mind.locator.places_for(v) == ("Hobbs Cafe:cafe:counter", "Isabella's apartment:kitchen:stove",
                                  "Johnson Park:park", "Town Hall:hall")


async def test_conversation_is_remembered_by_the_listener():
    mind, _ = make()
    conv = Conversation("c1", ["Isabella Rodriguez", "Klaus Mueller"])
    conv.add("Klaus Mueller", "The library closes early on Friday.")
    conv.add("Isabella Rodriguez", "Thanks for telling me!")
    ids = mind.remember_conversation(DAY1.replace(hour=9), conv)
    assert len(ids) == 2
    mind.core.llm.script["importance"] = [{"ratings": ["routine", "routine"]}]
    await mind.score_pending(DAY1.replace(hour=9), force=True)
    assert [mind.memory.get(i).importance for i in ids] == [5.0, 1.0]  # told to me: at least notable
    got = await mind.core.recall("library closes early", DAY1.replace(hour=15), k=1)
    assert "library" in got[0].text and got[0].kind == "conversation"


# ------------------------------------------------------------------ saves and imports
async def test_state_round_trip(view):
    mind, llm = make()
    await mind.next_action(DAY1.replace(hour=8), view)
    mind.whisper(DAY1.replace(hour=8, minute=5), "I love this town")
    st = mind.to_state()
    import json
    json.dumps({k: v for k, v in st.items() if k != "memory"})
    m2 = Mind.from_state(st, llm)
    assert m2.plan == mind.plan and m2.agenda.queue == mind.agenda.queue and m2.core.identity == mind.core.identity
    assert len(m2.memory) == len(mind.memory) and m2.agenda.replan_reason == mind.agenda.replan_reason
    assert m2.core.calls == mind.core.calls


def test_the_mind_imports_no_textual_world_engine_or_ui():
    root = Path(__file__).resolve().parents[2] / "game" / "mind"
    bad = ("textual", "game.world", "game.engine", "game.ui", "rich")
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for n in names:
                assert not n.startswith(bad), f"{path.name} imports {n}"


def test_spec_without_a_name_is_refused_clearly():
    with pytest.raises(ValueError, match="name"):
        Mind({"age": 3}, scripted_model())


async def test_a_talk_that_goes_round_in_circles_ends():
    """Qwen 1.5B's residents repeat each other ("let's go and meet Felix right away!"): the line that
    says again what was said ends the talk and is not said; with the player it is said anyway."""
    again = {"say": "Okay, let's go and meet Felix Adeyemi right away!", "end_conversation": False}
    mind, llm = make({"dialogue": [again, again]})
    lines = [("Klaus Mueller", "Sure, let's go and meet Felix Adeyemi right away!")]
    conv = Conversation("c1", ["Isabella Rodriguez", "Klaus Mueller"], lines=list(lines))
    line = await mind.say(DAY1.replace(hour=9), conv, ["Klaus Mueller"])
    assert line.text == "" and line.end and mind.stats["talk_in_circles"] == 1
    conv = Conversation("c2", ["Isabella Rodriguez", "Ada"], lines=list(lines), with_player=True)
    line = await mind.say(DAY1.replace(hour=9, minute=5), conv, ["Ada"])
    assert line.text.startswith("Okay")


async def test_talk_with_nobody_there_but_an_action_is_that_action(view):
    """Alone by a burning stove, the model once answered "talk" to Klaus (not there) with "turn off the
    stove": the action is what it meant."""
    out = {"decision": "talk", "talk_to": "Klaus Mueller", "new_action": "turning off the stove",
           "place": "Hobbs Cafe:cafe:counter", "emoji": "", "minutes": 5, "state": "off"}
    mind, llm = make({"react": [out]})
    r = await mind.react(DAY1.replace(hour=9), "the stove is on fire", view)
    assert r.kind == "react" and r.new_action.description == "turning off the stove"


async def test_a_whole_talk_in_one_call_keeps_only_lines_of_the_talks_speakers():
    """``converse``: the schema names the speakers; a line by someone else is dropped, a speaker's
    name in front is not said, the talk stops at a line that says again what was said, and the
    other's own part (``sides``) is in the prompt."""
    lines = [{"speaker": "Isabella", "say": "Isabella: Klaus! The party is on Friday at five."},
             {"speaker": "Maria", "say": "I am not in this talk."},
             {"speaker": "Klaus", "say": "Thank you, I will come."},
             {"speaker": "Isabella", "say": "Klaus! The party is on Friday at five!"},
             {"speaker": "Klaus", "say": "See you then."}]
    mind, llm = make({"converse": [{"lines": lines}]})
    conv = Conversation("c1", ["Isabella Rodriguez", "Klaus Mueller"])
    now = DAY1.replace(hour=9)
    script = await mind.converse(now, conv, {"Klaus Mueller": "Klaus Mueller (age 20).\nKlaus remembers:\n- exams"})
    assert script.source == "model"
    assert script.lines == [("Isabella Rodriguez", "Klaus! The party is on Friday at five."),
                            ("Klaus Mueller", "Thank you, I will come.")]
    tag, messages = llm.calls[-1][0], llm.calls[-1][1]
    assert tag.purpose == "converse" and tag.resident == "Isabella Rodriguez"
    assert "Talking with:\nKlaus Mueller (age 20).\nKlaus remembers:\n- exams" in messages[1].content
    assert mind.stats["script_line_dropped"] == 1 and mind.stats["talk_in_circles"] == 1


async def test_a_line_cut_at_its_length_does_not_run_on_under_the_next_speakers_name():
    """Seen in Smallville (2026-11-26): Sam Moore's tips ran past the line's 220 characters and went
    on, in lower case, as Adam Smith's next line ("and incorporate their ideas. Third, ...").  Such a line is
    not its speaker's: it is dropped; a line in lower case after a line that was not cut is kept."""
    long = ("Hi Klaus! I have some tips. First, it's important to be open-minded and willing to take risks. "
            "Second, it's important to listen to what others say about your work and to think about it, "
            "and then to look at it again")
    assert len(long) >= 210
    lines = [{"speaker": "Klaus", "say": "Hi Isabella, any tips for new ideas?"},
             {"speaker": "Isabella", "say": "oh, plenty, Klaus."},
             {"speaker": "Klaus", "say": long[:220]},
             {"speaker": "Isabella", "say": "and incorporate their ideas. Third, be honest."}]
    mind, llm = make({"converse": [{"lines": lines}]})
    conv = Conversation("c1", ["Isabella Rodriguez", "Klaus Mueller"])
    script = await mind.converse(DAY1.replace(hour=9), conv, {})
    said = [t for _, t in script.lines]
    assert [w for w, _ in script.lines] == ["Klaus Mueller", "Isabella Rodriguez", "Klaus Mueller"]
    assert not any(t.startswith("and incorporate") for t in said) and said[1] == "oh, plenty, Klaus."
    assert said[2].endswith("willing to take risks.")  # (cut to whole sentences)
    assert mind.stats["script_line_run_on"] == 1


async def test_a_sentence_broken_across_two_lines_does_not_begin_the_next_line():
    """6186d53's day: Eli's line ended "... a pub quiz at The Copper" (cut to its whole sentences), and
    Aiko's began "Kettle today. Do you have any plans to talk with anyone?"."""
    from game.mind.planning.wording import less_run_on

    eli = ("No, I'm not really sure what Samuel is doing. I was just trying to figure out who writes the column "
           "in the town newsletter this week. Marcus Bell is hosting his pub quiz at The Copper")
    assert len(eli) >= 180
    lines = [{"speaker": "Klaus", "say": eli}, {"speaker": "Isabella", "say": "Kettle today. Any plans?"},
             {"speaker": "Klaus", "say": "Yes. I'll see you there."}]
    mind, llm = make({"converse": [{"lines": lines}]})
    script = await mind.converse(DAY1.replace(hour=9), Conversation("c1", ["Klaus Mueller", "Isabella Rodriguez"]), {})
    assert [t for _, t in script.lines] == [eli.rsplit(". ", 1)[0] + ".", "Any plans?", "Yes. I'll see you there."]
    assert less_run_on("Oh, I see. Any plans?") == "Oh, I see. Any plans?"  # (an answer's own beginning)
    assert less_run_on("Kettle today.") == "Kettle today."  # (nothing after it: the line as it is)


async def test_a_whole_talk_is_not_asked_past_the_days_lines_and_a_failure_says_so():
    mind, llm = make({"converse": [{"lines": [{"speaker": "Isabella", "say": "Hello."}]}]}, max_lines_per_day=1)
    conv = Conversation("c1", ["Isabella Rodriguez", "Klaus Mueller"])
    now = DAY1.replace(hour=9)
    assert (await mind.converse(now, conv, {})).lines == [("Isabella Rodriguez", "Hello.")]
    capped = await mind.converse(now, conv, {})
    assert capped.lines == [] and capped.source == "rule" and "did not feel like talking" in capped.reason
    assert llm.purposes().count("converse") == 1
    mind, _ = make({"converse": [ModelUnavailable("the server is down")]})
    failed = await mind.converse(now, conv, {})
    assert failed.lines == [] and failed.source == "error" and "server is down" in (mind.last_error or "")


def test_a_talk_written_whole_has_at_most_four_lines_and_its_prompt_asks_for_them():
    """4151289's day: after the speakers' points, a talk of six filled its last lines with what no one holds
    (furniture, a milkshake's recipe, a parking spot).  The schema sent allows four; a longer answer (a
    server that ignores schemas) is cut to four, not refused."""
    from game.mind.prompting import load
    from game.mind.schemas import SCRIPT_LINES, script_answer

    model = script_answer(("Ann", "Tom"))
    assert model.model_json_schema()["properties"]["lines"]["maxItems"] == SCRIPT_LINES == 4
    six = {"lines": [{"speaker": "Ann", "say": f"Line {i}."} for i in range(6)], "matters": "minor"}
    assert [x.say for x in model.model_validate(six).lines] == ["Line 0.", "Line 1.", "Line 2.", "Line 3."]
    assert f"Write 2 to {SCRIPT_LINES} lines" in load("converse")[0].template


async def test_a_whisper_in_the_night_is_planned_for_before_waking(view):
    """Felix, whispered to at 04:18 in play, woke at 04:30 to a replan and a decompose queued behind
    three plans of later risers: a sleeper whose day is planned plans it again before waking."""
    mind, llm = make({"replan": [{"plan": ["bake bread for the market"]}], "decompose": [STEPS, STEPS]},
                     **TWO_HOURS)
    night, wake = DAY1.replace(hour=4, minute=30), DAY1.replace(hour=6)
    assert await mind.decide_ahead(night, view, run_out=wake) == 3
    assert mind.steps_run_out(night) is None  # planned
    mind.whisper(night + timedelta(minutes=30), "I should bake bread for the market today")
    assert mind.steps_run_out(night + timedelta(minutes=30)) == wake  # (though that wake-up was tried)
    assert await mind.decide_ahead(night + timedelta(minutes=30), view, run_out=wake) == 3
    assert llm.purposes() == ["plan_day", "decompose", "replan", "decompose"]
    assert mind.agenda.replan_reason is None and mind.steps_run_out(night + timedelta(minutes=30)) is None
    assert mind.agenda.queue[0].start == wake
    first = await mind.next_action(wake, view)
    assert first.source == "model" and llm.purposes().count("replan") == 1  # no call at waking
