"""The paper's own example on the embedded model (issue 27): the small cast of the default town at
06:00; at 06:05 the stove in the Okafor house kitchen catches fire with Grace awake in the house.
Someone awake in the house must put it out, the stove's state back to a safe one, within 10 game
minutes.  Before the issue, Grace saw it and decided "inviting him to the kitchen to check on the
fire", then went back to brushing her teeth; 35 minutes later it still burned.

Recorded on the embedded Qwen 1.5B with

    town experiment scenarios/stove-fire.toml --out /tmp/stove --record tests/fixtures/grounding/stove.jsonl

and replayed here (record it again after a change to the prompts a fire is seen through)."""

from __future__ import annotations

import asyncio
import json
from datetime import datetime
from pathlib import Path

import pytest

from game.engine.saves.reading import read_state
from game.experiment.runner import prepare, run_experiment
from game.experiment.scenario import load_scenario
from game.llm.record import ReplayLLM

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "grounding" / "stove.jsonl"
SCENARIO = ROOT / "scenarios" / "stove-fire.toml"
STOVE = "Okafor house:kitchen:stove"

pytestmark = pytest.mark.skipif(not FIXTURE.exists(), reason="no recorded stove run")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("stove")

    async def go() -> dict:
        llm = ReplayLLM(FIXTURE)
        try:
            return await run_experiment(prepare(load_scenario(SCENARIO), out), llm, out, progress=None)
        finally:
            await llm.aclose()

    result = asyncio.run(go())
    return result, read_state(out / "town.save"), out


def test_the_fire_is_put_out_within_ten_game_minutes_by_someone_in_the_house(run):
    result, state, out = run
    assert (state.objects.get(STOVE) or {}).get("state", "idle") != "on fire", state.objects.get(STOVE)
    rows = [json.loads(x) for x in (out / "town.save.actions.jsonl").read_text().splitlines()[1:] if x.strip()]
    fixes = [r for r in rows if r.get("kind") == "action" and r.get("address") == STOVE and r.get("state")
             and r["state"] != "on fire" and datetime.fromisoformat(r["t"]) >= datetime(2026, 3, 2, 6, 5)]
    assert fixes, "nobody went to the stove to put it out"
    first = fixes[0]
    assert first["who"] in ("Grace Okafor", "Samuel Okafor")  # someone in the house
    assert datetime.fromisoformat(first["t"]) <= datetime(2026, 3, 2, 6, 15)  # set on fire at 06:05
    assert first["source"] == "reaction"  # the model's own answer put it out, not the rule


def test_the_run_replays_whole(run):
    result, _, _ = run
    assert not [e for e in result.get("errors", []) if "recorded" in str(e)]
    assert [a["resident"] for a in result["answers"] if a["verdict"] == "no answer"] == []  # (each one recorded)
