"""A room given to a place of the town that has none such is a place the town lacks (issue 39): Grace, asked on
160f87f's save what she would do on hearing shouting, "meet at the living room of Town Hall" (the houses have
living rooms; Town Hall has a lobby, offices and a council chamber).  And a gathering's host put right in an answer
takes with it the words of the one it replaced ("hosted by me, who is known as the cafe owner")."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.mind.facts.fact import TownNames
from game.mind.facts.unbacked import places_unknown, rooms_unknown
from game.world import load_town
from game.world.tree import arena_names, rooms_by_place

_TREE = load_town(Path(__file__).parents[2] / "game/maps/default", residents=False).tree
_TOWN = TownNames(places=tuple(_TREE.sectors()), arenas=arena_names(_TREE), rooms=rooms_by_place(_TREE))


def test_a_room_of_another_kind_of_place_is_not_there():
    said = "I would suggest that we meet at the living room of Town Hall to discuss the debate."
    assert places_unknown(said, _TOWN) == ["the living room of Town Hall"]
    assert rooms_unknown("Let's sit in the garden at Oakhill College.", _TOWN) == ["the garden of Oakhill College"]


@pytest.mark.parametrize("said", [
    "We meet in the kitchen of the Okafor house.",
    "I read in the reading room of Oakhill College library.",  # (not Oakhill College's)
    "The common room of Oakhill College dorm is quiet.",
    "I waited in the lobby of Town Hall.",
    "the library of Oakhill College",  # (no room's name: the college's library, a place of its own)
    "the steps of Town Hall",
])
def test_a_room_the_place_has_or_no_room_at_all_stands(said):
    assert rooms_unknown(said, _TOWN) == []


def test_a_town_with_no_rooms_known_judges_none():
    bare = TownNames(places=("Town Hall",), arenas=("living room",))
    assert rooms_unknown("the living room of Town Hall", bare) == []


def test_an_answer_giving_a_place_a_room_it_lacks_is_told_the_places_rooms():
    from game.mind.interview.backing import problems_in

    said = "I would suggest that we meet at the living room of Town Hall to discuss the debate."
    found = problems_in(said, me="Grace Okafor", known=[], strangers=[], town=_TOWN, backing="",
                        question="What do you do when you hear shouting outside?")
    assert [(p.kind, p.tell) for p in found if p.kind == "place"] == [
        ("place", "Town Hall has no living room; its rooms are: lobby, mayor's office, clerk's office, "
                  "council chamber.")]


def test_the_host_put_right_loses_the_words_of_the_one_it_replaced():
    # d7d6132's save: Grace, asked of any gathering, "The event is hosted by Ines Moreau, who is known as the cafe
    # owner. I'm hosting the public debate ..." (made "hosted by me, who is known as the cafe owner")
    from datetime import date, datetime

    from game.mind.facts.fact import declared
    from game.mind.interview.backing import mend_facts

    now = datetime(2026, 3, 2, 22, 0)
    town = TownNames(places=("Town Hall", "The Copper Kettle"), people=("Grace Okafor", "Ines Moreau", "Marcus Bell"))
    debate = declared("the public debate", "Grace Okafor", "Town Hall", date(2026, 3, 4), 19 * 60, 21 * 60,
                      holder="Grace Okafor", now=now)
    said = "The event is hosted by Ines Moreau, who is known as the cafe owner. I'm hosting the public debate."
    assert mend_facts(said, [debate], now, town, "Grace Okafor")[0] == \
        "The event is hosted by me. I'm hosting the public debate."
    quiz = declared("a pub quiz", "Marcus Bell", "The Copper Kettle", date(2026, 3, 2), 20 * 60, 22 * 60,
                    holder="Grace Okafor", now=now)
    said = "The pub quiz is hosted by Ines Moreau, the cafe owner, at The Copper Kettle."
    assert mend_facts(said, [quiz], now, town, "Grace Okafor")[0] == \
        "The pub quiz is hosted by Marcus Bell at The Copper Kettle."
