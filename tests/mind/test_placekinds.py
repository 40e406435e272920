"""A place of a trade given to one whose places and doings have none (game/mind/facts/placekinds.py)."""

from __future__ import annotations

from datetime import datetime

import pytest

from game.engine.build import new_engine
from game.mind.facts.fact import TownNames
from game.mind.facts.placekinds import place_kind_unheld
from game.mind.view import Conversation

from .fakes import scripted_model

TOWN = TownNames(
    places=("Bluebell Cafe", "Greenway Market and Pharmacy", "The Copper Kettle"),
    people=("Ines Moreau", "Felix Adeyemi", "Marcus Bell", "Kenji Tanaka"),
    workplaces={"Ines Moreau": "Bluebell Cafe", "Felix Adeyemi": "Greenway Market and Pharmacy",
                "Marcus Bell": "The Copper Kettle", "Kenji Tanaka": "Greenway Market and Pharmacy"},
    doings={"Ines Moreau": ("She is nervous that Felix Adeyemi's new bakery stall will take her customers.",),
            "Felix Adeyemi": ("Felix Adeyemi is opening a bakery stall at Greenway Market on Saturday.",)})


@pytest.mark.parametrize("sent, why", [
    # Felix to Ines and Rosa at 07:23 on a dawn of 04d78ed (2026-12-02)
    ("I want to sell my bread to Bluebell Cafe instead of Ines Moreau's bakery.", "Ines Moreau has no bakery"),
    ("Ines's bakery is lovely.", "Ines Moreau has no bakery"),  # by first name; her doings name Felix's stall
    ("I love Ines's cafe.", ""),
    ("Felix's bakery opens on Saturday.", ""),  # his doings
    ("Kenji's pharmacy is busy.", ""),
    ("Marcus's bakery", ""),  # The Copper Kettle says no kind: not judged
    ("Ines's shop", ""),  # said loosely of many
    ("the town's bakery", ""),
])
def test_a_place_of_a_trade_is_one_of_its_owner_s(sent, why):
    assert place_kind_unheld(sent, TOWN) == why


def test_the_talks_check_cuts_it_in_a_group_talk():
    engine = new_engine("default", scripted_model({}))
    talk = Conversation("k1", ["Felix Adeyemi", "Ines Moreau", "Rosa Brody"], place="Bluebell Cafe:cafe")
    line = "That sounds interesting. I want to sell my bread to Bluebell Cafe instead of Ines Moreau's bakery."
    said = engine.talk_facts.vet(talk, "Felix Adeyemi", line, datetime(2026, 3, 2, 7, 23))[1]
    assert said == "That sounds interesting."


def test_your_bakery_said_to_one_who_has_none_is_not_said():
    """Felix to Hank on the evening's day of 2026-12-02: "How does that affect your bakery?" (Hank keeps the
    supply store; the bakery stall is Felix's)."""
    assert place_kind_unheld("How does that affect your bakery?", TOWN, "Ines Moreau") == "Ines Moreau has no bakery"
    assert place_kind_unheld("How is your cafe?", TOWN, "Ines Moreau") == ""
    assert place_kind_unheld("How is your bakery stall?", TOWN, "Ines Moreau") == ""
    assert place_kind_unheld("How does that affect your bakery?", TOWN, "Felix Adeyemi") == ""
    engine = new_engine("default", scripted_model({}))
    talk = Conversation("k2", ["Felix Adeyemi", "Hank Brody"], place="Brody's Supply Store:shop floor")
    line = "That's interesting! I'm glad you're running for mayor. How does that affect your bakery? Any plans?"
    said = engine.talk_facts.vet(talk, "Felix Adeyemi", line, datetime(2026, 3, 2, 15, 40))[1]
    assert "bakery" not in said and said.startswith("That's interesting!")
