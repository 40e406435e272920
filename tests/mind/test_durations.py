"""A number of years said in a talk or an answer is the records' (game/mind/facts/durations.py):
set from the sentence that says years of the same thing, else not said."""

import pytest

from game.mind.facts.durations import numbers_mended, value, years_mended
from game.mind.facts.fact import TownNames

PEOPLE = ("Grace Okafor", "Samuel Okafor")
SOURCES = ["Grace Okafor is married to Samuel Okafor; they have been married for 34 years. "
           "Grace Okafor has been the mayor of Millbrook for eight years.",
           "Samuel Okafor taught music at Oakhill College for thirty years and retired last spring.",
           "Grace Okafor: her husband of 34 years; lately oddly secretive."]


def mended(text: str) -> tuple[str, list[str]]:
    return years_mended(text, SOURCES, PEOPLE)


@pytest.mark.parametrize(("said", "right", "fix"), [
    # Samuel on 136a191: "married for over 50 years"
    ("Grace and I have been married for over 50 years, and I love her.",
     "Grace and I have been married for 34 years, and I love her.", "corrected: 34 years (said 50)"),
    ("I taught music at the college for 25 years.", "I taught music at the college for 30 years.",
     "corrected: 30 years (said 25)"),
    # a number the records give to another thing is not taken for this one
    ("I taught for 34 years.", "I taught for 30 years.", "corrected: 30 years (said 34)"),
    # nothing holds it: the number is not said, the sentence is (kin alone is not the same thing)
    ("Grace's husband has been a writer for twenty years.", "Grace's husband has been a writer.",
     "not said: 20 years (nothing holds it)"),
    ("I opened the shop five years ago.", "I opened the shop.", "not said: 5 years (nothing holds it)"),
    # the records' 34 years are the marriage's: not the years of anything else
    ("I have lived here 34 years.", "I have lived here.", "not said: 34 years (nothing holds it)"),
])
def test_a_number_of_years_is_the_records(said, right, fix):
    assert mended(said) == (right, [fix])


@pytest.mark.parametrize("said", [
    "I have been mayor for eight years.", "We've been married thirty-four years!", "I am 59 years old.",
    "We have lived here together 34 years.",  # the years of the marriage, said of it
    "We have known each other for years.", "No numbers here.",
])
def test_what_the_records_hold_stands(said):
    assert mended(said) == (said, [])


def test_number_words():
    assert [value(w) for w in ("34", "thirty-four", "thirty four", "twelve", "forty")] == [34, 34, 34, 12, 40]


def test_ages_and_years_in_one_pass():
    town = TownNames(people=PEOPLE, ages={"Grace Okafor": 59})
    text, fixes = numbers_mended("For your 40th birthday, after 50 years married!", "Samuel Okafor",
                                 ["Grace Okafor"], town, SOURCES)
    assert text == "For your 60th birthday, after 34 years married!" and len(fixes) == 2


def test_the_years_of_a_marriage_are_not_said_of_anything_else():
    # Grace of her husband, c59f68b's day: "has been a part of the town for 34 years" (her "husband of
    # 34 years"); the years of the marriage stand where it is the marriage that is spoken of
    from game.mind.facts.durations import years_mended

    sources = ["I live with Samuel Okafor, my husband of 34 years."]
    said, fixes = years_mended("He has been a part of the town for 34 years.", sources)
    assert said == "He has been a part of the town." and fixes, said
    assert years_mended("We have been married for 34 years.", sources) == ("We have been married for 34 years.", [])
    assert years_mended("Samuel and I have been together 34 years.", sources)[1] == []


def test_a_span_said_without_a_number_stands_only_where_the_sources_say_a_span_of_the_same_thing():
    from game.mind.facts.durations import spans_mended

    sources = ["Samuel Okafor taught music at Oakhill College for thirty years and retired last spring.",
               "Grace Okafor is married to Samuel Okafor; they have been married for 34 years."]
    # Samuel to Priya of the party he plans for Tuesday, on 75fad48's day
    assert spans_mended("I've been saving it for years.", sources, ["Samuel Okafor"]) == (
        "I've been saving it.", ["not said: for years (nothing holds it)"])
    for said in ("I taught music for many years.", "We've been friends for years.", "See you on Tuesday."):
        assert spans_mended(said, sources, ["Samuel Okafor"]) == (said, [])
