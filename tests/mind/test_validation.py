"""Validation of what the model writes: places, numbers, text, emoji, persona times."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from game.mind.persona import Persona, to_minutes
from game.mind.planning.places import resolve_place
from game.mind.planning.steps import DecomposeAnswer
from game.mind.schemas import ImportanceAnswer, InsightsAnswer, LineAnswer, clean_text, pick_emoji

from .conftest import ALLOWED, SPEC


@pytest.mark.parametrize("raw, want, exact, fallback", [
    ("Hobbs Cafe:cafe:counter", "Hobbs Cafe:cafe:counter", True, False),
    ("hobbs cafe: cafe: counter", "Hobbs Cafe:cafe:counter", True, False),
    ("coffee machine", "Hobbs Cafe:cafe:coffee machine", False, False),
    ("the bench in Johnson Park", "Johnson Park:park:bench", False, False),
    ("the notice board at the town hall", "Town Hall:hall:notice board", False, False),
    ("Mars", "Isabella's apartment:kitchen:stove", False, True),
    ("", "Isabella's apartment:kitchen:stove", False, True),
])
def test_resolve_place(raw, want, exact, fallback):
    c = resolve_place(raw, ALLOWED, "Isabella's apartment:kitchen:stove")
    assert (c.address, c.exact, c.fallback) == (want, exact, fallback)


def test_unknown_fallback_becomes_a_sensible_allowed_place():
    c = resolve_place("Atlantis", ALLOWED, "Isabella's apartment")
    assert c.fallback and c.address.startswith("Isabella's apartment:")


def test_numbers_are_clamped_and_text_is_plain():
    a = ImportanceAnswer.model_validate({"ratings": ["huge", "Routine", "7", 4.6, "junk", 0]})
    assert a.scores == [9, 1, 7, 5, 3, 1]
    d = DecomposeAnswer.model_validate({"steps": [{"action": "x\x1b[31m red\u202e", "minutes": 500,
                                                    "place": "p", "emoji": "e", "state": ""}]})
    assert d.items()[0].minutes == 60 and d.items()[0].action == "x red"  # the whole escape sequence goes, not just ESC
    line = DecomposeAnswer.model_validate({"steps": ["x\x1b[31m red\u202e (500 min, p)"]}).items()[0]
    assert (line.action, line.minutes, line.place) == ("x red", 60, "p")
    assert LineAnswer.model_validate({"say": "[b]hi[/b]\n\n  there", "end_conversation": True}).say == \
        "[b]hi[/b] there"
    assert len(clean_text("w " * 500, 50)) == 50
    with pytest.raises(ValidationError):
        DecomposeAnswer.model_validate({"steps": []})
    i = InsightsAnswer.model_validate({"insights": [{"insight": "a", "evidence": [1, "x", 5000]}]})
    assert i.insights[0].evidence == [1, -1, 999]


@pytest.mark.parametrize("line, want", [
    ("7-8 wake up", (420, 480, "wake up")), ("8:30-10 work", (510, 600, "work")),
    ("8am to 1pm shop", (480, 780, "shop")), ("22-1 party", (1320, 1500, "party")),
    ("12-12 nothing", None), ("breakfast", None), ("40-41 x", None),
])
def test_plan_lines_are_parsed(line, want):
    from game.mind.schemas import parse_plan_line
    assert parse_plan_line(line) == want


def test_a_plan_written_as_start_times_is_read_as_start_times():
    """Qwen 1.5B once answered "06-01 wake up", "07-30 talk to Klaus", ...: clock times, not ranges.
    Each activity then runs until the next one starts; times that go backwards are dropped."""
    from game.mind.schemas import DayPlanAnswer
    a = DayPlanAnswer(plan=["07-00 wake up", "07-30 breakfast", "bad line", "09-00 open the cafe",
                            "08-00 backwards", "13-30 lunch"])
    assert a.blocks() == [(420, 450, "wake up"), (450, 540, "breakfast"), (540, 810, "open the cafe"),
                          (810, 870, "lunch")]
    # ranges win when most lines are ranges
    assert DayPlanAnswer(plan=["7-8 wake", "8-12 work", "13-30 odd"]).blocks() == [(420, 480, "wake"),
                                                                                 (480, 720, "work")]


def test_emoji_is_one_wide_char_without_variation_selector():
    assert pick_emoji("☕️", "🙂") == "☕"
    assert pick_emoji("❤️", "🙂") == "🙂"  # U+2764 is narrow: not a wide emoji
    assert pick_emoji("👩‍🍳", "🙂") == "👩"
    assert pick_emoji("coffee", "🙂") == "🙂"


def test_persona_reads_times_in_many_spellings():
    assert to_minutes("7am", 0) == 420 and to_minutes("07:30", 0) == 450 and to_minutes(6.5, 0) == 390
    assert to_minutes("12am", 5) == 0 and to_minutes("nonsense", 5) == 5
    p = Persona.from_spec({**SPEC, "lifestyle": {"wake": "7:00", "sleep": "1:00", "meals": ["8:00", "13:00"]}})
    assert p.wake == 420 and p.sleep == 25 * 60 and p.meals == [("breakfast", 480), ("lunch", 780)]
    assert Persona.from_dict(p.to_dict()) == p


def test_places_are_listed_compactly_and_lose_no_address():
    from game.mind.planning.places import format_places
    addrs = ("Lin house:kitchen", "Lin house:kitchen:stove", "Lin house:kitchen:kitchen table",
             "Lin house:bathroom", "Park:lawn", "Lin house:garden:bench", "Market")
    text = format_places(addrs)
    assert text.splitlines() == [
        "Lin house: kitchen (stove, kitchen table); bathroom; garden (bench)",
        "Park: lawn",
        "Market",
    ]
    assert len(text) < len("\n".join(addrs)) * 0.75
    # every part of every address is still there to be read
    for a in addrs:
        assert all(part in text for part in a.split(":"))
    assert format_places(()) == ""


def test_an_identity_summary_that_restates_the_brief_is_left_out_of_prompts():
    from game.mind.core import mostly_within
    brief = ("Hank Brody (age 52). Traits: gruff, practical, proud. Hank Brody owns Brody's Supply Store, "
             "which his father opened forty years ago. He lives with his daughter Rosa.")
    assert mostly_within("Hank Brody is gruff, practical and proud. He owns Brody's Supply Store.", brief)
    assert not mostly_within("Hank feels hopeful: the debate went well and Rosa told him about the "
                              "new bakery stall in Willow Park.", brief)
    assert not mostly_within("", brief)


def test_the_short_identity_keeps_the_first_sentences():
    from game.mind.persona import Persona
    p = Persona("Grace Okafor", 58, "warm, stubborn", "Grace has been the mayor for eight years. Before "
                "that she taught civics.", "She runs for a third term. The debate is on Wednesday.")
    assert p.short() == ("Grace Okafor (age 58). Traits: warm, stubborn. Grace has been the mayor for "
                         "eight years. She runs for a third term.")
    assert len(p.short()) < len(p.brief())
