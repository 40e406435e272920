from __future__ import annotations

import math

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


def test_objects_in_view_as_read_from_the_tiles(town):
    """``objects_in_view`` (kept by tile) says what reading the arena's objects' tiles says."""
    t = town.tree
    for here in ("Bluebell Cafe:cafe", "Okafor house:kitchen"):
        for pos in town.walkable_tiles_of(here)[::3]:
            want = []
            for obj in t.objects(*here.split(":")):
                addr = f"{here}:{obj}"
                ds = [math.dist(pos, p) for p in t.tiles_of(addr) if max(abs(p[0] - pos[0]), abs(p[1] - pos[1])) <= 4]
                if ds:
                    want.append((min(ds), addr))
            assert t.objects_in_view(pos, 4) == tuple(want)
            assert t.objects_in_view(pos, 4) is t.objects_in_view(pos, 4)  # kept
    street = next((x, y) for y in range(town.height) for x in range(town.width)
                  if t.arena_at((x, y)).count(":") == 0 and town.paths.walkable((x, y)))
    assert t.objects_in_view(street, 8) == ()  # (a street, or a sector's open ground: no objects seen)


def test_objects_in_view_read_again_after_the_areas_change():
    t = AreaTree(6, 2, "Tiny")
    t.add_sector("Hut", [(x, y) for x in range(6) for y in range(2)])
    t.add_arena("Hut", "room", [(x, y) for x in range(6) for y in range(2)])
    t.add_object_tiles("bed", "bed", [(0, 0)])
    t.finish()
    assert t.objects_in_view((2, 0), 3) == ((2.0, "Hut:room:bed"),)
    t.add_object_tiles("desk", "desk", [(3, 1)])
    t.finish()
    assert t.objects_in_view((2, 0), 3) == ((2.0, "Hut:room:bed"), (math.sqrt(2), "Hut:room:desk"))
    t.add_arena("Hut", "porch", [(0, 0), (1, 0), (2, 0)])  # the bed's tile is the porch's now
    t.finish()
    assert t.objects_in_view((2, 0), 3) == ()
