"""A room given to a place of the town that has none such is a place the town lacks (issue 39): Grace, asked on
160f87f's save what she would do on hearing shouting, "meet at the living room of Town Hall" (the houses have
living rooms; Town Hall has a lobby, offices and a council chamber)."""

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
