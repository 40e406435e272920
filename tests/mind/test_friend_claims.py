"""A friend the speaker claims among the town's residents is held to the relationships of either side (issue 39):
Rosa, asked of the mayor she admires, "Grace ... a wonderful friend to me" (4d3a658's save); one of the town's
own friendships, or a liking, backs it; a visitor is not judged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.mind.facts.claims import drop_unbacked_claims, relation_claims
from game.mind.facts.fact import TownNames

_RS = json.loads((Path(__file__).parents[2] / "game/maps/default/residents.json").read_text())["residents"]
_REL = {r["name"]: r["relationships"] for r in _RS}
_PEOPLE = [r["name"] for r in _RS]


@pytest.mark.parametrize("speaker, line", [
    ("Rosa Brody", "Grace Okafor is our mayor and a wonderful friend to me."),
    ("Rosa Brody", "My dear friend Grace Okafor is running again."),
    ("Felix Adeyemi", "Hank Brody, one of my friends, sold me the shelves."),  # (he sold them: no friend)
    ("Kenji Tanaka", "I had lunch with Nora, my old friend."),  # (no relation either way)
])
def test_a_friend_the_records_do_not_hold_is_unbacked(speaker, line):
    [c] = relation_claims(line, speaker, [], _PEOPLE, _REL)
    assert (c.backed, c.what) == (False, f"friend of {speaker}"), line
    assert c.not_so.endswith(f"is not a friend of {speaker}")


@pytest.mark.parametrize("speaker, line", [
    ("Samuel Okafor", "My good friend Ines is lending us the cafe."),  # "a good friend"
    ("Grace Okafor", "Aiko Tanaka is an old friend of mine."),  # "an old friend she trusts"
    ("Rosa Brody", "Felix, my friend, bakes the best buns."),  # his side: "a barista he likes a lot"
    ("Felix Adeyemi", "My friend Kenji keeps the pharmacy next to my stall."),  # "the friendly pharmacist"
    ("Eli Moreau", "Priya is one of my closest friends."),  # (not the pattern's "close": no claim at all)
])
def test_a_friendship_the_records_hold_stands(speaker, line):
    assert all(c.backed for c in relation_claims(line, speaker, [], _PEOPLE, _REL)), line


def test_a_friend_of_another_or_the_last_name_before_it_is_the_one_judged():
    # the friend is the name nearest before "a friend to me", not the first of the sentence
    [c] = relation_claims("I told Grace that Samuel is a dear friend to me.", "Nora Lindqvist", [], _PEOPLE, _REL)
    assert (c.who, c.backed) == ("Samuel Okafor", True)  # "an old friend who is acting strangely"
    assert relation_claims("She is a wonderful friend to me.", "Rosa Brody", [], _PEOPLE, _REL) == []
    # a visitor, with no relationships in the records, is not judged
    assert relation_claims("My friend Mara Quill is visiting.", "Rosa Brody", ["Mara Quill"],
                           [*_PEOPLE, "Mara Quill"], _REL) == []


def test_a_talk_line_with_an_unbacked_friend_is_not_said():
    town = TownNames(people=tuple(_PEOPLE), relations=_REL)
    fixes: list[str] = []
    out = drop_unbacked_claims("Good morning! Grace Okafor is a wonderful friend to me. Coffee?", town, "Rosa Brody",
                               ["Ines Moreau"], fixes)
    assert "friend" not in out and "Coffee?" in out
    assert fixes == ["unbacked relation: Grace Okafor friend of Rosa Brody"]


def test_friends_of_another_are_held_to_that_pair():
    # Rosa on 160f87f's day, of her father's rival and of a neighbour he never speaks of
    line = "Ines Moreau and Grace Okafor are both friends of my father, Hank Brody."
    bad = [c.not_so for c in relation_claims(line, "Rosa Brody", [], _PEOPLE, _REL) if not c.backed]
    assert bad == ["Ines Moreau is not a friend of Hank Brody", "Grace Okafor is not a friend of Hank Brody"]
    # "my father" alone is the one whose tie to her says so (Grace's "Hank's daughter" is no kin of Grace's)
    [c] = relation_claims("Grace is a friend of my father.", "Rosa Brody", [], _PEOPLE, _REL)
    assert (c.who, c.what, c.backed) == ("Grace Okafor", "friend of Hank Brody", False)
    # the town's own friendships stand: "his friend and drinking companion"
    assert [(c.what, c.backed) for c in relation_claims("Marcus Bell is a friend of my father.", "Rosa Brody", [],
                                                        _PEOPLE, _REL)] == [("friend of Hank Brody", True)]
    for line in ("Aiko is an old friend of Grace.", "Nora Lindqvist is a dear friend of Samuel."):
        assert [c.backed for c in relation_claims(line, "Kenji Tanaka", [], _PEOPLE, _REL)] == [True], line


def test_the_one_the_speaker_takes_lessons_from_is_held_to_that_pair():
    # Rosa on 160f87f's day: her teacher was Samuel ("her old piano teacher"), not her father
    [c] = relation_claims("I am a barista and am taking piano lessons from my father.", "Rosa Brody", [],
                          _PEOPLE, _REL)
    assert (c.who, c.not_so, c.backed) == ("Hank Brody", "Hank Brody is not the teacher of Rosa Brody", False)
    [c] = relation_claims("I took piano lessons from Samuel as a child.", "Rosa Brody", [], _PEOPLE, _REL)
    assert (c.who, c.backed) == ("Samuel Okafor", True)
    # another's lessons are not the speaker's
    assert relation_claims("I saw Eli taking lessons from Hank.", "Rosa Brody", [], _PEOPLE, _REL) == []
    assert relation_claims("I think she is taking lessons from Hank.", "Rosa Brody", [], _PEOPLE, _REL) == []
