"""Reactions that fit the fact (issue 27): a fire in a house with someone awake in it is put out
within 10 game minutes, by the model's own action when it gives one that puts it out, by the
action that fits by rule when it does not (``fire_blind``: carry on, a talk, looking at it), and
by rule when the model is down.  The stove changes when its mender reaches it, and the town log
says who put it out."""

from __future__ import annotations

import pytest
from engine_fakes import engine_model, fire_blind

from game.engine.build import new_engine
from game.engine.engine import Engine
from game.engine.events import SetObjectState
from game.engine.tuning import chebyshev

STOVE = "Lin house:kitchen:stove"
TEN_MINUTES = 60  # ticks of 10 game seconds


async def fire_in_the_lin_kitchen(e: Engine) -> tuple[list, int]:
    """Ann and Bob Lin awake in their bedroom (the stove is not in sight), the player sets the
    kitchen stove on fire: the ticks until it is out (at most ten game minutes), and that number."""
    for _ in range(8):
        await e.wait_ready()
        e.step()
    ann, bob = e.core.residents["Ann Lin"], e.core.residents["Bob Lin"]
    assert not ann.asleep and not bob.asleep and not ann.conversation and not bob.conversation
    for r, pos in ((ann, (8, 2)), (bob, (10, 3))):
        r.pos, r.path = pos, []
    assert e.town.tree.arena_at(ann.pos) == "Lin house:bedroom"
    e.submit(SetObjectState("the stove in the Lin kitchen is on fire"))
    assert e.town.objects.get(STOVE) == "on fire"
    out = []
    for i in range(TEN_MINUTES):
        await e.wait_ready()
        res = e.step()
        out.append(res)
        if e.town.objects.get(STOVE) == "idle":
            return out, i + 1
    return out, -1


def who_put_it_out(e: Engine, results: list) -> str:
    lines = [e for r in results for e in r.log if e.kind == "object" and "puts out the fire on the stove" in e.text]
    assert len(lines) == 1, [e.text for r in results for e in r.log]
    assert lines[0].text == f"{lines[0].who} puts out the fire on the stove"
    return lines[0].who


@pytest.fixture
async def blind(fake_town_loader):
    hook, asked = fire_blind()  # (resident, "hazard" or "mend") of each question about the fire
    e = new_engine(fake_town_loader, engine_model({"react": hook}, talk=False), lockstep=True)
    yield e, asked
    await e.aclose()


async def test_a_model_that_will_not_deal_with_the_fire_still_sees_it_put_out_by_rule(blind):
    e, asked = blind
    results, ticks = await fire_in_the_lin_kitchen(e)
    assert ticks > 0, "the stove still burns after ten game minutes"
    who = who_put_it_out(e, results)
    mender = e.core.residents[who]
    # asked twice (what to do; then plainly), neither answer put it out: the action by rule
    assert [w for r, w in asked if r == who] == ["hazard", "mend"]
    assert mender.action.description == "putting out the fire" and mender.action.source == "rule"
    assert mender.action.address == STOVE and e.core.minds[who].stats["hazard_rule"] == 1
    # only one of the two was sent: the other was not asked while someone dealt with it
    assert {r for r, _ in asked} == {who}
    # put out when its mender got there, not from the bedroom
    assert min(chebyshev(mender.pos, t) for t in e.town.tree.tiles_of(STOVE)) <= 1
    reacts = [e.text for r in results for e in r.log if e.kind == "react" and e.who == who]
    assert reacts == [f"{who} reacts: putting out the fire"]
    # and it stays out: nobody is asked about it again
    for _ in range(30):
        await e.wait_ready()
        e.step()
    assert e.town.objects.get(STOVE) != "burning" and len(asked) == 2  # (a cook at work may turn it on)


async def test_the_models_own_action_puts_the_fire_out_when_it_fits(fake_town_loader):
    llm = engine_model(talk=False)  # asked about a fire it answers "putting out the fire"
    e = new_engine(fake_town_loader, llm, lockstep=True)
    try:
        results, ticks = await fire_in_the_lin_kitchen(e)
        assert ticks > 0
        who = who_put_it_out(e, results)
        act = e.core.residents[who].action
        assert act.source == "reaction" and act.description == "putting out the fire" and act.address == STOVE
        assert e.core.minds[who].stats["hazard_model"] == 1 and e.core.minds[who].stats["hazard_asked_again"] == 0
        danger = "\nDanger: the stove in the kitchen of Lin house is on fire."
        hazard_prompts = [c.text for c in llm.of("complete") if danger in c.text]
        assert len(hazard_prompts) == 1 and "It is safe again when it is off." in hazard_prompts[0]
        # the stove burnt on while the mender walked over from the bedroom
        mended = next(i for i, r in enumerate(results) for c in r.object_changes if c.state == "idle")
        started = next(i for i, r in enumerate(results) for e in r.log if e.kind == "react")
        assert mended > started
    finally:
        await e.aclose()


async def test_a_model_that_is_down_leaves_the_fire_to_the_rule(fake_town_loader):
    e = new_engine(fake_town_loader, engine_model(talk=False, fail=("react",)), lockstep=True)
    try:
        results, ticks = await fire_in_the_lin_kitchen(e)
        assert ticks > 0
        who = who_put_it_out(e, results)
        assert e.core.residents[who].action.source == "rule"
        assert e.core.minds[who].stats["error_react"] == 1  # one failed call, not two
    finally:
        await e.aclose()


async def test_the_days_reactions_spent_do_not_hold_back_a_fire(blind):
    e, asked = blind
    for m in e.core.minds.values():
        m.core.config.max_reacts_per_day = 0
    results, ticks = await fire_in_the_lin_kitchen(e)
    assert ticks > 0
    who = who_put_it_out(e, results)
    assert [w for r, w in asked if r == who] == ["hazard", "mend"]  # asked all the same


async def test_a_fire_breaks_off_a_talk_in_the_house(blind):
    """Ann and Bob talk in their bedroom when the stove catches fire: the one who notices it
    first ends the talk and deals with it; the fire is out within ten game minutes all the same."""
    e, asked = blind
    for _ in range(8):
        await e.wait_ready()
        e.step()
    ann, bob = e.core.residents["Ann Lin"], e.core.residents["Bob Lin"]
    for r, pos in ((ann, (8, 2)), (bob, (10, 3))):
        r.pos, r.path = pos, []
    assert e.conversations.start_talk("Ann Lin", "Bob Lin", e.clock.now, e.core.out)
    cid = ann.conversation
    assert cid and bob.conversation == cid
    e.submit(SetObjectState("the stove in the Lin kitchen is on fire"))
    results = []
    for _ in range(TEN_MINUTES):
        await e.wait_ready()
        results.append(e.step())
        if e.town.objects.get(STOVE) == "idle":
            break
    assert e.town.objects.get(STOVE) == "idle", "the stove still burns after ten game minutes"
    ended = [e.text for r in results for e in r.log if e.kind == "conversation" and "ended" in e.text]
    assert ended and "noticed that the stove in the kitchen of Lin house is on fire" in ended[0]
    assert cid not in e.conversations.talks and who_put_it_out(e, results)
    # only its mender changed the stove: a step decided before the fire ("cooking", state "on")
    # leaves a burning stove burning
    assert [c.by for r in results for c in r.object_changes] == ["player", who_put_it_out(e, results)]
