"""The place-fit measure (issue 16): its table, its scoring of the absurd cases seen in play, and
`town report` printing it (text and --json) from the action log a run writes beside its save."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from measure_fakes import measure_model

from game.engine.build import new_engine
from game.engine.running.actionlog import ActionLog, actions_log_path
from game.measure.placefit import TABLE, load_table, score
from game.measure.report import build_report, render
from game.measure.run import measured_run, save_with_positions
from game.world import default_town_path, load_town


@pytest.fixture(scope="module")
def town():
    return load_town(default_town_path())


def test_the_table_is_hand_written_and_large_enough():
    t = load_table()
    pairs = sum(len(kinds) for _, kinds in t["fits"])
    assert len(t["fits"]) >= 100 and pairs >= 100
    # kept apart from what the world is made from: neither kinds.toml nor a town's own folder
    assert TABLE.name == "place_fit.json" and TABLE.parent.name == "measure"


def test_the_cases_seen_in_play_are_misfits_and_impossible_states(town):
    bad = [{"action": "having breakfast", "address": "Tanaka house:Kenji and Aiko's bedroom", "source": "model"},
           {"action": "reading up on running for mayor", "address": "Okafor house:bathroom:shower",
            "source": "model"}]
    good = [{"action": "having breakfast", "address": "Tanaka house:kitchen:dining table", "source": "model"},
            {"action": "reading up on running for mayor", "address": "Okafor house:guest room:desk",
             "source": "model"},
            {"action": "sleeping", "address": "Okafor house:Grace and Samuel's bedroom:bed", "source": "routine"},
            {"action": "xyzzy frobbing", "address": "Okafor house:kitchen", "source": "model"}]
    objs = [{"object": "Okafor house:kitchen:fridge", "state": "browsing", "by": "Grace Okafor"},
            {"object": "Tanaka house:study:closet", "state": "washing", "by": "Aiko Tanaka"},
            {"object": "Moreau house:bathroom:shower", "state": "waking up", "by": "Ines Moreau"},
            {"object": "Okafor house:kitchen:stove", "state": "on fire", "by": "player"},
            {"object": "Okafor house:kitchen:stove", "state": "idle", "by": "Grace Okafor"}]
    r = score(bad + good, objs, town.tree)
    assert r["judged"] == 5 and r["unjudged"] == 1 and r["fit"] == 3 and r["share"] == pytest.approx(0.6)
    assert r["impossible_states"] == 3 and r["object_changes"] == 5
    assert any("bedroom" in m for m in r["misfits"]) and any("shower" in m for m in r["misfits"])


def test_states_set_by_actions_are_judged_too(town):
    """A decomposed step carries the state its object is in while used (a stove on while cooking);
    the whole-day run on the embedded model set 72 such states and logged no object change."""
    acts = [{"action": "cooking breakfast", "address": "Okafor house:kitchen:stove", "state": "on", "source": "model"},
            {"action": "checking the fridge", "address": "Okafor house:kitchen:fridge", "state": "browsing",
             "source": "model"},
            {"action": "having breakfast", "address": "Okafor house:kitchen:dining table", "state": None,
             "source": "routine"}]
    r = score(acts, [], town.tree)
    assert r["object_changes"] == 0 and r["action_states"] == 2
    assert r["impossible_states"] == 1 and r["impossible_examples"] == ["Okafor house:kitchen:fridge is browsing"]


@pytest.fixture
async def run_save(tmp_path):
    llm = measure_model()
    e = new_engine(str(default_town_path()), llm, small=True, lockstep=True)
    res = await measured_run(e, e.clock.now + timedelta(hours=2), every=6)
    path = str(tmp_path / "run.save")
    save_with_positions(res, path)
    await e.aclose()
    return path


async def test_report_prints_the_place_fit_of_a_run(run_save, capsys, town):
    log = ActionLog.read(actions_log_path(run_save))
    # every decided action has a place (a talk by rule may be held in the street)
    assert log.actions and all(a["address"] for a in log.actions if a["source"] != "rule")
    r = build_report(run_save)
    pf = r["place_fit"]
    json.dumps(pf)
    assert pf["available"] and pf["judged"] >= 5 and pf["impossible_states"] == 0
    # the fake model names activities and areas only: the world picked every place
    assert pf["share"] >= 0.9, pf["misfits"]
    from rich.console import Console

    render(r, Console(width=140))
    out = capsys.readouterr().out
    assert "Place fit:" in out and "impossible object states: 0" in out


async def test_report_says_why_without_an_action_log(run_save):
    actions_log_path(run_save).unlink()
    assert "no action log" in build_report(run_save)["place_fit"]["why"]
    actions_log_path(run_save).write_text("not a log\n")
    assert "not an action log" in build_report(run_save)["place_fit"]["why"]
