from __future__ import annotations

import pytest

from game.world import Perceiver, perceive
from game.world.objects import IDLE


def test_vision_radius_and_same_arena(town):
    t = town.tree
    cafe = [p for p in town.walkable_tiles_of("Bluebell Cafe:cafe")]
    me, near = cafe[0], cafe[1]
    far_in_cafe = max(cafe, key=lambda p: abs(p[0] - me[0]) + abs(p[1] - me[1]))
    kitchen = town.walkable_tiles_of("Bluebell Cafe:kitchen")[0]  # next door, behind a wall
    actors = {"Rosa Brody": me, "Ines Moreau": near, "Samuel Okafor": far_in_cafe, "Eli Moreau": kitchen}
    seen = perceive("Rosa Brody", me, town, actors, radius=3, bandwidth=50)
    names = {p.subject for p in seen if p.kind == "person"}
    assert "Ines Moreau" in names
    assert "Samuel Okafor" not in names  # out of the radius
    assert "Eli Moreau" not in names  # another room
    assert "Rosa Brody" not in names  # not herself
    objs = [p for p in seen if p.kind == "object"]
    assert objs and all(p.address.startswith("Bluebell Cafe:cafe:") for p in objs)
    assert all(p.distance <= 3 * 1.5 for p in seen)
    assert t.describe(objs[0].address) in objs[0].text and objs[0].text.endswith("is idle")


def test_attention_bandwidth_nearest_first(town):
    me = town.walkable_tiles_of("Bluebell Cafe:cafe")[0]
    seen = perceive("Rosa Brody", me, town, {}, radius=20, bandwidth=3)
    assert len(seen) == 3
    everything = perceive("Rosa Brody", me, town, {}, radius=20, bandwidth=100)
    assert len(everything) > 3
    assert [p.distance for p in everything] == sorted(p.distance for p in everything)
    assert seen == everything[:3]


def test_no_repeats_until_something_changes(town):
    pv = Perceiver(town, radius=8, bandwidth=20)
    me = town.spawn["Samuel Okafor"]
    actors = {"Samuel Okafor": me, "Grace Okafor": town.spawn["Grace Okafor"]}
    first = pv.perceive("Samuel Okafor", me, actors, doing={"Grace Okafor": "sleeping"})
    assert any(p.subject == "Grace Okafor" and "sleeping" in p.text for p in first)
    again = pv.perceive("Samuel Okafor", me, actors, doing={"Grace Okafor": "sleeping"})
    assert again == []
    later = pv.perceive("Samuel Okafor", me, actors, doing={"Grace Okafor": "getting dressed"})
    assert [p.subject for p in later] == ["Grace Okafor"]
    # an object changes state: seen once as new
    bed = "Okafor house:Grace and Samuel's bedroom:bed"
    town.objects.set(bed, "being made", "Samuel Okafor")
    try:
        changed = pv.perceive("Samuel Okafor", me, actors, doing={"Grace Okafor": "getting dressed"})
        assert [p.subject for p in changed] == [bed]
        assert changed[0].text.endswith("is being made")
    finally:
        town.objects.set(bed, IDLE)


def test_object_states(town):
    objs = town.objects
    stove = "Okafor house:kitchen:stove"
    assert objs.get(stove) == "idle"
    ch = objs.set(stove, "cooking  pancakes", "Samuel Okafor")
    assert (ch.previous, ch.state, ch.by) == ("idle", "cooking pancakes", "Samuel Okafor")
    assert objs.get(stove) == "cooking pancakes" and objs.changed_by(stove) == "Samuel Okafor"
    assert dict(objs.items())[stove] == "cooking pancakes"
    saved = objs.to_dict()
    objs.set(stove, "on fire", "player")
    objs.load_dict(saved)
    assert objs.get(stove) == "cooking pancakes"
    objs.set(stove, "")
    assert objs.get(stove) == "idle" and stove not in objs.busy()
    with pytest.raises(KeyError):
        objs.set("Okafor house:kitchen:dragon", "asleep")
    assert len(list(objs.items())) == len(town.tree.all_objects())
