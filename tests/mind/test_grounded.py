"""The mind on a view with the world's place picker (issue 16): the model names the activity and
maybe the area; the world picks the object and the state.  The prompts carry no places list and the
answers' schemas no address enum."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from fake_model import FakeModel

from game.llm.record import strict_schema
from game.mind import Mind
from game.mind.planning.steps import DecomposeAnswer
from game.mind.schemas import ReactAnswer
from game.mind.view import Hazard, WorldView
from game.world import default_town_path, load_town
from game.world.resolve import Grounder

from .fakes import scripted_model

DAY = datetime(2026, 3, 2, 0, 0)


@pytest.fixture(scope="module")
def town():
    return load_town(default_town_path())


def view_for(town, name: str, here: str = "") -> WorldView:
    r = town.resident(name)
    known = tuple(a for a in town.spatial_seed(name).addresses() if ":" in a)
    here = here or r.home
    return WorldView(now_text="Monday", here=here, here_text=town.tree.describe(here), allowed=known,
                     ground=Grounder(town.affordances, known, home=r.home, workplace=r.workplace or "",
                                     here=here, objects=town.objects))


def mind_for(town, name: str, steps: list[dict], react: dict | None = None) -> tuple[Mind, FakeModel]:
    spec = town.resident(name)
    llm = scripted_model({"identity": [{"summary": "A resident of Millbrook."}],
                   "plan_day": [{"plan": ["6-9 breakfast and the morning at home", "9-12 work",
                                          "12-13 lunch", "13-18 work", "18-22 evening at home"]}],
                   "decompose": [{"steps": steps}], "react": [react or {"decision": "continue"}],
                   "importance": [lambda *_: {"ratings": ["minor"] * 40}]})
    return Mind(spec, llm, now=DAY.replace(hour=6)), llm


def step(action: str, place: str = "", state: str = "", minutes: int = 10) -> dict:
    return {"action": action, "minutes": minutes, "place": place, "emoji": "🙂", "state": state}


async def test_breakfast_in_the_bedroom_is_moved_to_the_kitchen_and_the_fridge_never_browses(town):
    # what the embedded model wrote in play, recorded in the issue: breakfast "at Kenji and Aiko's
    # bedroom", and states that are no state of the thing used
    steps = [step("having breakfast", "Kenji and Aiko's bedroom"),
             step("browsing the news", "Tanaka house:kitchen:fridge", "browsing"),
             step("getting dressed", "Tanaka house:study:closet", "washing"),
             step("taking a shower", "home", "waking up")]
    mind, llm = mind_for(town, "Aiko Tanaka", steps)
    v = view_for(town, "Aiko Tanaka")
    first = await mind.next_action(DAY.replace(hour=7), v)
    acts = [first] + mind.agenda.queue
    assert acts[0].address.startswith("Tanaka house:kitchen") and acts[0].object_state is None
    # the states a model proposed are not asked for any more (an old answer's are ignored): the
    # world reads them from the activity's own words, so the shower runs and nothing browses
    states = [(a.address, a.object_state) for a in acts]
    assert [s for _, s in states] == [None, None, None, "running"], states
    assert "fridge" not in acts[1].address  # browsing the news is not what a fridge is for
    assert acts[3].address.endswith(":shower")
    # the prompt lost the places list: one short line of areas instead, and no enum in the schema
    _, messages, _ = next(c for c in llm.calls if c[0].purpose == "decompose")
    text = "\n".join(m.content for m in messages)
    assert "Places Aiko knows: Tanaka house (home), Oakhill College library (work)" in text
    assert "kitchen (" not in text and "Tanaka house:kitchen" not in text
    assert "enum" not in json.dumps(strict_schema(DecomposeAnswer))
    assert "enum" not in json.dumps(strict_schema(ReactAnswer)).replace('"enum": ["continue", "react", "talk"]', "")


async def test_a_state_the_kind_has_is_kept_on_the_object_the_action_uses(town):
    mind, _ = mind_for(town, "Grace Okafor", [step("cooking porridge", "home", "cooking"),
                                              step("eating porridge", "", "on")])
    first = await mind.next_action(DAY.replace(hour=7), view_for(town, "Grace Okafor"))
    assert first.address == "Okafor house:kitchen:stove" and first.object_state == "on"
    second = mind.agenda.queue[0]
    # eating at a table leaves it as it was: "in use" is not read from an activity's words
    assert town.tree.kind[second.address] == "dining table" and second.object_state is None


async def grace_reacts(town, new_action: str, state: str, here: str, hour: int, sight: str):
    """Grace, reading the paper at ``here`` at ``hour``, notices ``sight``; the model says ``new_action``."""
    react = {"decision": "react", "new_action": new_action, "place": "", "emoji": "🧯", "minutes": 5,
             "state": state}
    mind, llm = mind_for(town, "Grace Okafor", [step("reading the paper")], react)
    v = view_for(town, "Grace Okafor", here=here)
    await mind.next_action(DAY.replace(hour=hour), v)
    return mind, llm, await mind.react(DAY.replace(hour=hour, minute=16), sight, v)


async def test_a_reaction_puts_out_the_fire_on_the_stove(town):
    town.objects.set("Okafor house:kitchen:stove", "on fire", "player")
    try:
        mind, llm, r = await grace_reacts(town, "putting out the fire", "put out", "Okafor house:kitchen", 7,
                                          "the stove in the kitchen of the Okafor house is on fire")
    finally:
        town.objects.reset("Okafor house:kitchen:stove")
    assert r.kind == "react" and r.new_action.address == "Okafor house:kitchen:stove"
    assert r.new_action.object_state == "idle"  # the fire is out
    _, messages, _ = next(c for c in llm.calls if c[0].purpose == "react")
    assert "Places Grace knows:" in messages[-1].content and "(stove" not in messages[-1].content


def stove_fire(town) -> Hazard:
    addr = "Okafor house:kitchen:stove"
    return Hazard(addr, town.tree.describe(addr), "on fire", "off", ("off", "on", "on fire", "broken"),
                  "putting out the fire", "🧯")


async def grace_at_the_stove_fire(town, answers: list):
    """Grace in her kitchen at 07:16, the stove on fire, her reactions ``answers``: her mind, the fake
    model, the hazard and her reaction."""
    mind, llm = mind_for(town, "Grace Okafor", [step("brushing her teeth")])
    llm.script["react"] = answers
    v = view_for(town, "Grace Okafor", here="Okafor house:kitchen")
    await mind.next_action(DAY.replace(hour=7), v)
    hazard = stove_fire(town)
    town.objects.set(hazard.address, "on fire", "player")
    try:
        r = await mind.react(DAY.replace(hour=7, minute=16), f"{hazard.thing} is on fire", v, urgent=True,
                             hazard=hazard)
    finally:
        town.objects.reset(hazard.address)
    return mind, llm, hazard, r


async def test_grace_who_would_invite_someone_to_look_at_the_fire_is_asked_again_and_turns_the_stove_off(town):
    """Issue 27: the answer recorded in play ("inviting him to the kitchen to check on the fire", a
    talk) does not fit the fact; asked again plainly, turning the stove off does (the paper's
    Isabella).  The schemas offer the stove's own states, then the safe one only."""
    talk = {"decision": "talk", "talk_to": "Samuel Okafor",
            "new_action": "inviting him to the kitchen to check on the fire", "emoji": "", "minutes": 5, "state": ""}
    off = {"decision": "react", "new_action": "turning off the stove", "emoji": "🔥", "minutes": 45, "state": "off"}
    mind, llm, hazard, r = await grace_at_the_stove_fire(town, [talk, off])
    assert r.kind == "react" and r.new_action.description == "turning off the stove"
    assert r.new_action.address == hazard.address and r.new_action.object_state == "idle"
    assert r.new_action.source == "reaction" and r.new_action.duration_min == 20  # (at most 20 minutes)
    asked = [(c[0].purpose, c[2], c[1][-1].content) for c in llm.calls if c[0].purpose == "react"]
    assert [a[:2] for a in asked] == [("react", "ReactAnswer")] * 2
    assert f"Danger: {hazard.thing} is on fire. It is safe again when it is off." in asked[0][2]
    assert "Grace must make the stove off now." in asked[1][2]
    assert mind.stats["hazard_asked_again"] == 1 and mind.stats["hazard_model"] == 1
    assert "turning off the stove" in mind.memory.recent(1, kinds=["plan"])[0].text


async def test_help_the_town_lacks_does_not_mend_a_hazard(town):
    """The stove's fire in the stove run of 2026-12-02: Grace's reaction was "calling 911", and asked,
    she then said she had called it.  Millbrook has no emergency service: asked again plainly."""
    call = {"decision": "react", "new_action": "calling 911", "emoji": "", "minutes": 5, "state": "off"}
    off = {"decision": "react", "new_action": "turning off the stove", "emoji": "", "minutes": 5, "state": "off"}
    mind, _, _, r = await grace_at_the_stove_fire(town, [call, off])
    assert r.new_action.description == "turning off the stove"
    assert mind.stats["hazard_lacking"] == 1 and mind.stats["hazard_asked_again"] == 1


def test_the_hazard_schemas_offer_the_things_states_then_only_the_safe_one():
    from game.mind.schemas import hazard_answer, mend_answer
    first = strict_schema(hazard_answer(("off", "on", "on fire")))
    assert first["properties"]["state"]["enum"] == ["", "off", "on", "on fire"] and "place" not in first["properties"]
    again = strict_schema(mend_answer(("off",)))
    assert again["properties"]["state"]["enum"] == ["off"] and again["properties"]["decision"]["enum"] == ["react"]


async def test_a_hazard_is_acted_on_with_the_days_reactions_spent_and_by_rule_when_no_answer_fits(town):
    look = {"decision": "react", "new_action": "checking on the fire", "emoji": "", "minutes": 5, "state": "off"}
    mind, llm = mind_for(town, "Grace Okafor", [step("reading the paper")])
    llm.script["react"] = [{"decision": "continue"}, look]
    mind.core.config.max_reacts_per_day = 0
    v = view_for(town, "Grace Okafor", here="Okafor house:living room")
    await mind.next_action(DAY.replace(hour=7), v)
    hazard = stove_fire(town)
    town.objects.set(hazard.address, "on fire", "player")
    try:
        r = await mind.react(DAY.replace(hour=7, minute=16), "smoke", v, hazard=hazard)
        again = await mind.react(DAY.replace(hour=7, minute=18), "smoke", v, hazard=hazard)  # no cool-down
    finally:
        town.objects.reset(hazard.address)
    for x in (r, again):
        assert x.kind == "react" and x.new_action.source == "rule" and x.new_action.address == hazard.address
        assert x.new_action.description == "putting out the fire" and x.new_action.object_state == "off"
    assert mind.stats["hazard_rule"] == 2 and mind.stats["react_budget"] == 0
    assert mind.stats["hazard_unfit"] == 3  # "checking on the fire" three times (a "continue" is no action)


async def test_no_rule_fits_then_meaning_picks_among_the_area(town):
    mind, llm = mind_for(town, "Grace Okafor", [step("pondering the campaign slogans", "home")])
    first = await mind.next_action(DAY.replace(hour=7), view_for(town, "Grace Okafor"))
    assert first.address.startswith("Okafor house")
    assert mind.stats["place_fit"] + mind.stats["place_by_meaning"] + mind.stats["place_unfit"] == 1
    if mind.stats["place_fit"] == 0:
        assert llm.embed_calls >= 1  # the embeddings were asked


async def test_waking_up_is_no_reaction_in_the_afternoon(town):
    # "Grace Okafor reacts: going to wake up with Eli Moreau" at 16:16 (issue 16)
    mind, _, r = await grace_reacts(town, "going to wake up with Eli Moreau", "", "Okafor house:living room", 16,
                                    "Eli Moreau is walking by")
    assert r.kind == "continue" and mind.stats["react_absurd"] == 1


def by_block(*per_block: list[str]):
    """A decompose answer keyed by the schema's blocks, in order: each block's step lines."""
    def answer(messages, schema, tag):
        keys = [f.alias for n, f in schema.model_fields.items() if n != "steps"]
        return {k: lines for k, lines in zip(keys, per_block)}
    return answer


async def test_each_block_gets_its_own_steps_in_its_own_minutes_and_work_is_done_at_work(town):
    # the mayor's window from 07:00: free time to 08:00, then her office.  In one list the 1.5B
    # model wrote her office work into her free hour and "visits Willow Park" into her office hours;
    # a step that names another place at work, or the resident as someone met, is not hers to do
    spec = town.resident("Grace Okafor")
    llm = scripted_model({"identity": [{"summary": "The mayor."}],
                          "plan_day": [lambda m, schema, t: {f.alias: ("catch up with Rosa Brody" if "free" in f.alias
                                                                      else "run the town from the mayor's office")
                                                             for f in schema.model_fields.values() if f.alias}],
                          "decompose": [by_block(["visits Bluebell Cafe (at home) (30 min, Bluebell Cafe)",
                                                  "chatting with Rosa (30 min)",
                                                  "meeting with Grace Okafor (20 min)"],
                                                 ["reading the council's letters (30 min, work)",
                                                  "visits Willow Park (30 min, Willow Park)"])],
                          "importance": [lambda *_: {"ratings": ["minor"] * 40}]})
    mind = Mind(spec, llm, now=DAY.replace(hour=6))
    v = view_for(town, "Grace Okafor")
    first = await mind.next_action(DAY.replace(hour=7), v)
    acts = [first] + mind.agenda.queue
    free = [a for a in acts if a.start < DAY.replace(hour=8)]
    work = [a for a in acts if a.start >= DAY.replace(hour=8)]
    assert [a.description for a in free] == ["visiting Bluebell Cafe", "chatting with Rosa"]  # no "(at home)"
    assert free[0].address.startswith("Bluebell Cafe") and sum(a.duration_min for a in free) == 60
    assert work and work[0].start == DAY.replace(hour=8)  # the office's steps begin with the office
    assert all(a.address.startswith("Town Hall") for a in work), [a.address for a in work]
    assert not any("Willow Park" in a.description for a in work)  # not a walk to the park in office hours
    assert mind.stats["work_step_elsewhere"] == 1 and mind.stats["step_names_self"] == 1
    schema_name = next(c.kind for c in llm.calls if c.tag.purpose == "decompose")
    assert schema_name == "BlockStepsAnswer"


def test_the_decompose_schema_asks_one_to_four_steps_of_every_block():
    from game.mind.planning.steps import block_steps_answer

    schema = block_steps_answer(("07:00 catch up with Rosa", "08:00 run the town")).model_json_schema()
    assert schema["required"] == ["07:00 catch up with Rosa", "08:00 run the town"]
    assert "steps" not in schema["properties"]
    assert schema["properties"]["08:00 run the town"]["minItems"] == 1
    assert schema["properties"]["08:00 run the town"]["maxItems"] == 4
    ans = block_steps_answer(("07:00 a", "08:00 b")).model_validate({"07:00 a": ["x (10 min)"]})
    assert [len(b) for b in ans.per_block()] == [1, 0]  # a block left out: its activity stands for it


def test_steps_that_go_round_in_circles_and_miss_their_block_are_the_block():
    # recorded 2026-11-28: the afternoon the whisper gave over to the campaign, decomposed thus
    from collections import Counter
    from types import SimpleNamespace

    from game.mind.planning.steps import StepItem, off_block
    from game.mind.view import PlanBlock

    stats: Counter[str] = Counter()
    core = SimpleNamespace(stats=stats, count=lambda what, n=1: stats.update({what: n}))
    block = PlanBlock(start=12 * 60 + 45, end=14 * 60 + 10, activity="planning my campaign for mayor of Smallville")
    said = ["going to work", "visiting Maria Lopez's apartment"] * 2
    steps = [(d, 15, StepItem(action=d, minutes=15, place="")) for d in said]
    out = off_block(core, steps, block)
    assert [(d, m) for d, m, _ in out] == [("planning my campaign for mayor of Smallville", 60)]
    assert core.stats["steps_off_block"] == 1
    # steps that say something of the block, or that do not repeat, stand
    kept = [(d, 15, StepItem(action=d, minutes=15, place="")) for d in ["writing campaign letters"] * 2]
    assert off_block(core, kept, block) == kept
    fresh = [(d, 15, StepItem(action=d, minutes=15, place="")) for d in ["reading letters", "calling Maria"]]
    assert off_block(core, fresh, block) == fresh


def test_a_step_written_with_its_own_name_is_its_own_and_a_step_of_another_is_not():
    # recorded on 75fad48's day, Nora's breakfast and coffee blocks: others then saw "Nora Lindqvist
    # is nora Lindqvist goes to Willow Park (work) and starts" all morning
    from collections import Counter
    from types import SimpleNamespace

    from game.mind.planning.steps import StepItem, own_steps
    from game.mind.view import PlanBlock

    stats: Counter[str] = Counter()
    persona = SimpleNamespace(name="Nora Lindqvist", first_name="Nora",
                              relationships={"Grace Okafor": "the mayor", "Felix Adeyemi": "her lodger"})
    core = SimpleNamespace(stats=stats, persona=persona, count=lambda what, n=1: stats.update({what: n}))
    said = ["grace okafor ( mayor) gives a speech", "nora Lindqvist reads about the mayor's fountain",
            "nora Lindqvist goes to Bluebell Cafe (work) and has coffee", "Nora: tidies the kitchen",
            "meet Felix at the market", "Felix Adeyemi's bread for breakfast"]
    steps = [(d, 10, StepItem(action=d, minutes=10, place="")) for d in said]
    block = PlanBlock(start=6 * 60, end=8 * 60, activity="having breakfast")
    out = [d for d, _, _ in own_steps(core, steps, block, None)]
    assert out == ["reading about the mayor's fountain", "going to Bluebell Cafe and has coffee",
                   "tidying the kitchen", "meet Felix at the market", "Felix Adeyemi's bread for breakfast"]
    assert stats["step_of_another"] == 1
