"""One person said as two (issue 39): Nora on a4c5919's day, "my new lodger and Felix Adeyemi" (Felix is
her lodger): a relation the speaker holds with someone and that someone's name, joined by "and"."""

from __future__ import annotations

import pytest

from game.mind.facts.claims import drop_unbacked_claims
from game.mind.facts.fact import TownNames
from game.mind.facts.oneastwo import one_as_two

PEOPLE = ("Nora Lindqvist", "Felix Adeyemi", "Rosa Brody", "Hank Brody")
RELATIONS = {"Nora Lindqvist": {"Felix Adeyemi": "her lodger; she has decided to find him friends",
                                "Rosa Brody": "a sweet girl who should stand up to her father"},
             "Felix Adeyemi": {"Nora Lindqvist": "his landlady, kind and impossible to hide anything from"}}


@pytest.mark.parametrize("speaker, said", [
    ("Nora Lindqvist", "I'm having tea with my new lodger and Felix Adeyemi this afternoon."),
    ("Nora Lindqvist", "Felix and my lodger will come along."),
    ("Felix Adeyemi", "My landlady and Nora both say so."),
])
def test_one_held_as_a_relation_and_by_name_is_not_two(speaker, said):
    assert one_as_two(said, speaker, PEOPLE, RELATIONS).startswith("one said as two")


@pytest.mark.parametrize("speaker, said", [
    ("Nora Lindqvist", "My lodger, Felix Adeyemi, bakes the best bread."),  # (one, named)
    ("Nora Lindqvist", "My friend and Rosa came by."),  # (Rosa is no friend of hers in the records)
    ("Nora Lindqvist", "My lodger and Hank Brody talked."),  # (Hank is not her lodger)
    ("Felix Adeyemi", "Nora Lindqvist and I had tea."),
])
def test_two_people_or_one_named_with_its_relation_are_let_be(speaker, said):
    assert one_as_two(said, speaker, PEOPLE, RELATIONS) == ""


def test_a_talk_line_does_not_say_the_sentence():
    town = TownNames(people=PEOPLE, relations=RELATIONS)
    fixes: list[str] = []
    line = "I'm having tea with my new lodger and Felix Adeyemi. Lovely weather today."
    assert drop_unbacked_claims(line, town, "Nora Lindqvist", ["Rosa Brody"], fixes) == "Lovely weather today."
    assert fixes == ["one said as two: Felix Adeyemi is the speaker's lodger"]
