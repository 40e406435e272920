"""The places and states the embedded model (Qwen 2.5 1.5B) really wrote, in the recordings under
tests/fixtures, given to the world to ground (issue 16): "taking a quick shower" at the Brodys'
living room, "brushing teeth" at the Moreau house, "reading the town budget" on a bed, "waking up"
and "brushing teeth" as states of things.  The world's picks fit the hand-written place-fit table
and no impossible state is left."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.measure.placefit import fits, impossible_state, load_table, table_entry
from game.mind.planning.steps import DecomposeAnswer
from game.mind.schemas import ReactAnswer
from game.world import IDLE, default_town_path, load_town
from game.world.resolve import Grounder

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def recorded_steps(path: Path) -> list[tuple[str, str, str, str]]:
    """(resident, activity, place, state) of every decompose and react answer recorded."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        row = json.loads(line)
        if row.get("kind") != "complete" or row["tag"].get("purpose") not in ("decompose", "react"):
            continue
        a = row["answer"]
        if row["tag"]["purpose"] == "decompose" and any(isinstance(x, str) for x in a["steps"]):
            steps = [(s.action, s.place, "") for s in DecomposeAnswer.model_validate(a).items()]  # lines
        elif row["tag"]["purpose"] == "decompose":  # objects, as before 2026-11-25, as written
            steps = [(s.get("action", ""), s.get("place", ""), s.get("state", "")) for s in a["steps"]]
        else:
            steps = [(ReactAnswer.model_validate(a).new_action, a.get("place", ""), a.get("state", ""))]
        for act, place, state in steps:
            if act:
                out.append((row["tag"]["resident"], act, place, state))
    return out


@pytest.fixture(scope="module")
def town():
    return load_town(default_town_path())


# The recorded UI journey as it was before grounding (real Qwen answers to the prompts that still
# listed every place): the absurd picks the issue quotes are in it.  The journey recorded on
# 2026-11-25 (prompts without the places list; kept here as the sample this bar was set on) is
# grounded the same way.  The journey recorded again on 2026-11-26 for the hazards
# (tests/fixtures/ui/journey.jsonl) fits 15 of 22 by the rules alone: its misfits are Rosa's
# "checking the door" and "checking if she needs any supplies from home" at the grocery's counter,
# Hank's "talking to his daughter Rosa" and "getting dressed and eat breakfast" in his bedroom, and
# Ines's "going to the office" at the cafe (issue 27's note: a finding for the world's rules).
BEFORE = FIXTURES / "grounding" / "journey-before-grounding.jsonl"
NOW = FIXTURES / "grounding" / "journey-2026-11-25.jsonl"


@pytest.mark.parametrize("recording", [BEFORE, NOW], ids=["before-grounding", "now"])
def test_the_recorded_answers_of_the_default_town_are_grounded(town, recording):
    steps = recorded_steps(recording)
    assert len(steps) >= 12
    if recording == BEFORE:  # the absurd picks are really in the recording
        assert ("Hank Brody", "taking a quick shower", "Brody house:living room", "") in steps
        assert ("Rosa Brody", "waking up", "Brody house:Hank's bedroom", "waking up") in steps
    table = load_table()
    judged = fit = 0
    for who, act, place, state in steps:
        r = town.resident(who)
        known = town.spatial_seed(who).addresses()
        g = Grounder(town.affordances, known, home=r.home, workplace=r.workplace or "", here=r.home,
                     objects=town.objects)
        placed = g.place(act, place)
        assert placed.address in known or placed.address == r.home, (who, act, placed)
        new = g.state(placed.address, state, act)
        if new is not None and new != IDLE:
            assert not impossible_state(placed.address, new, town.tree, table), (act, placed, new)
        kinds = table_entry(act, table)
        if kinds is not None:
            judged += 1
            fit += fits(kinds, placed.address, town.tree)

    # the journey recorded 2026-11-25 with steps as lines: 21 of 25 by the rules alone (the game
    # then tries meaning, not tried here; the one recorded before it, 27 of 31).  Its misfits:
    # "preparing breakfast" and "preparing party supplies" at "home" on the desk of Rosa's bedroom
    # ("home" names the resident's own room when its home is a room, and the kitchen is another
    # room: a known limit, docs/WORLD.md), "talking to Rosa about the store" at the Brodys'
    # fridge, "paying for the coffee and pastries" at the cafe's espresso machine
    assert judged >= 10 and fit / judged >= (0.9 if recording == BEFORE else 0.8), (fit, judged)
    # the shower is taken at home, not in the Brodys' living room
    g = Grounder(town.affordances, town.spatial_seed("Grace Okafor").addresses(),
                 home=town.resident("Grace Okafor").home, here=town.resident("Grace Okafor").home)
    assert g.place("taking a quick shower", "Brody house:living room").address == "Okafor house:bathroom:shower"


def test_a_bed_or_a_shower_is_ones_own(town):
    # recorded: Ines "waking up" at "Okafor house:guest room:bed", Rosa at "Brody house:Hank's bedroom"
    def g(who):
        r = town.resident(who)
        return Grounder(town.affordances, town.spatial_seed(who).addresses(), home=r.home,
                        workplace=r.workplace or "", here=r.home)

    assert g("Ines Moreau").place("waking up", "Okafor house:guest room:bed").address \
        == "Moreau house:Ines's bedroom:bed"
    assert g("Rosa Brody").place("waking up", "Brody house:Hank's bedroom").address == "Brody house:Rosa's bedroom:bed"
    assert g("Hank Brody").place("brushing teeth", "Moreau house:living room").address.startswith("Brody house:")
