from __future__ import annotations

import pytest

from game.world.tree import AreaTree


def test_default_town_size_and_contents(town):
    t = town.tree
    assert town.width >= 100 and town.height >= 70
    assert len(t.sectors()) >= 12
    assert len(t.all_arenas()) >= 40
    assert len(set(t.kind.values())) >= 40
    for needed in ("Bluebell Cafe", "The Copper Kettle", "Willow Park", "Oakhill College",
                   "Oakhill College dorm", "Oakhill College library", "Greenway Market and Pharmacy",
                   "Brody's Supply Store", "Town Hall"):
        assert needed in t.sectors()


def test_addresses_round_trip(town):
    t = town.tree
    for addr in t.all_objects():
        tiles = t.tiles_of(addr)
        assert tiles, addr
        for p in tiles:
            assert t.address_at(p) == addr
            assert t.arena_at(p) == addr.rsplit(":", 1)[0]
    for addr in t.all_arenas():
        s, a = addr.split(":")
        assert a in t.arenas(s)
        assert all(t.address_at(p).startswith(addr) for p in t.tiles_of(addr))


def test_describe(town):
    t = town.tree
    assert t.describe("Okafor house:kitchen:stove") == "the stove in the kitchen of the Okafor house"
    assert t.describe("Okafor house:kitchen") == "the kitchen of the Okafor house"
    assert t.describe("Bluebell Cafe") == "Bluebell Cafe"
    assert t.describe("Oakhill College dorm:Priya's room") == "Priya's room of Oakhill College dorm"
    assert t.describe("") == "the streets of Millbrook"
    with pytest.raises(KeyError):
        t.describe("Nowhere:kitchen")


def test_street_has_empty_address(town):
    assert town.tree.address_at((40, 10)) == ""  # the road between the houses and the town hall
    assert town.tree.address_at((-1, 5)) == ""


def test_find_free_words(town):
    f = town.tree.find
    assert f("the stove in the Okafor kitchen") == "Okafor house:kitchen:stove"
    assert f("the piano at the cafe") == "Bluebell Cafe:cafe:piano"
    assert f("Hank's bedroom") == "Brody house:Hank's bedroom"
    assert f("the pond in the park") == "Willow Park:pond side:pond"
    assert f("beer tap") == "The Copper Kettle:pub:beer tap"
    assert f("xyzzy plugh") is None
    known = ["Moreau house:kitchen:stove", "Moreau house:kitchen"]
    assert f("the stove", among=known) == "Moreau house:kitchen:stove"


def test_tree_built_by_hand():
    t = AreaTree(4, 2, "Tiny")
    t.add_sector("Hut", [(x, y) for x in range(4) for y in range(2)])
    t.add_arena("Hut", "room", [(x, y) for x in range(2) for y in range(2)])
    t.add_object_tiles("bed", "bed", [(0, 0), (3, 1)])  # (3, 1) is in no arena: not placed
    t.finish()
    assert t.all_objects() == ["Hut:room:bed"]
    assert t.tiles_of("Hut:room:bed") == [(0, 0)]
    assert t.address_at((3, 1)) == "Hut"
