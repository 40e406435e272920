"""Affordances, state vocabularies and places picked by the world (issue 16): the absurd cases seen
in play ("having breakfast at Kenji and Aiko's bedroom", "the fridge ... is now browsing") cannot
happen now."""

from __future__ import annotations

import shutil

import pytest

from game.world import IDLE, load_town
from game.world.affordances import load_kinds
from game.world.resolve import Grounder
from game.world.states import match_state, settle

from .conftest import DEFAULT


@pytest.fixture(scope="module")
def town():
    return load_town(DEFAULT)


def grounder(town, name: str, here: str | None = None) -> Grounder:
    r = town.resident(name)
    known = town.spatial_seed(name).addresses()
    return Grounder(town.affordances, known, home=r.home, workplace=r.workplace or "",
                    here=here if here is not None else r.home, objects=town.objects)


# ------------------------------------------------------------------------- affordances
def test_every_object_and_room_of_the_default_town_says_what_it_is_for(town):
    aff = town.affordances
    for addr in town.tree.all_objects() + town.tree.all_arenas():
        info = aff.info(addr)
        assert info is not None and info.affords, addr
    # the examples of the issue
    kinds = load_kinds()
    assert {"sleep", "nap", "read in bed"} <= set(kinds.object_kind("bed").affords)
    assert {"cook", "boil"} <= set(kinds.object_kind("stove").affords)
    assert "wash" in kinds.object_kind("shower").affords
    assert {"serve", "sell"} <= set(kinds.object_kind("counter").affords)
    assert {"write", "study", "work"} <= set(kinds.object_kind("desk").affords)
    assert {"eat", "meet"} <= set(kinds.object_kind("table").affords)
    assert {"drink", "serve"} <= set(kinds.object_kind("bar counter").affords)
    # a kind not listed is known by its last word; an unknown one affords what its name says
    assert kinds.object_kind("oak writing desk").affords == kinds.object_kind("desk").affords
    assert kinds.object_kind("telescope").affords == ("use the telescope",)


def test_tiled_properties_override_the_defaults(tmp_path):
    d = tmp_path / "town"
    d.mkdir()
    for f in ("town.tmx", "town.tsx", "town.png", "residents.json"):
        shutil.copy(DEFAULT / f, d / f)
    tmx = d / "town.tmx"
    text = tmx.read_text(encoding="utf-8")
    i = text.index('<object id="91" name="stove"')
    j = text.index('<property name="kind" value="stove"/>', i)
    text = text[:j] + ('<property name="affords" value="smoke fish, cure ham"/>'
                       '<property name="states" value="cold, smoking, roaring"/>') + text[j:]
    tmx.write_text(text, encoding="utf-8")
    town = load_town(d)
    stove = next(a for a in town.tree.all_objects() if a.endswith(":stove") and town.tree.props[a].get("affords"))
    info = town.affordances.info(stove)
    assert info.affords == ("smoke fish", "cure ham") and info.rest == "cold"
    assert set(info.states) >= {"smoking", "roaring", "on fire"}  # anything can still catch fire
    assert match_state(info, "roaring") == "roaring" and match_state(info, "cold") == IDLE
    assert match_state(info, "boiling") is None


def test_every_object_and_room_of_the_ville_says_what_it_is_for(ville):
    ville = ville[0]  # imported from /work/shared/the_ville (skipped when it is absent)
    aff = ville.affordances
    for addr in ville.tree.all_objects() + ville.tree.all_arenas():
        info = aff.info(addr)
        assert info is not None and info.affords, addr
    assert "cook" in aff.info(next(a for a in ville.tree.all_objects() if a.endswith("cooking area"))).affords
    assert "serve" in aff.info(next(a for a in ville.tree.all_objects()
                                    if a.endswith("behind the cafe counter"))).affords


# ------------------------------------------------------------------------- states
def test_a_proposed_state_is_one_of_the_kind_or_dropped(town):
    kinds = load_kinds()
    fridge, closet, shower, stove = (kinds.object_kind(k) for k in ("fridge", "closet", "shower", "stove"))
    # what the town log showed in play
    assert match_state(fridge, "browsing") is None
    assert match_state(closet, "washing") is None
    assert match_state(shower, "waking up") is None
    # what makes sense
    assert match_state(fridge, "open") == "open" and match_state(fridge, "empty") == "empty"
    assert match_state(shower, "running") == "running" and match_state(shower, "on") == "running"
    assert match_state(stove, "cooking") == "on" and match_state(stove, "is on fire!") == "on fire"
    assert match_state(stove, "turned off") == IDLE and match_state(stove, "off") == IDLE


def test_a_fire_goes_out_when_put_out(town):
    stove = load_kinds().object_kind("stove")
    assert settle(stove, "on fire", "", "putting out the fire") == IDLE
    assert settle(stove, "on fire", "extinguished", "grabbing the extinguisher") == IDLE
    assert settle(stove, "on fire", None, "reading the paper") is None  # it keeps burning
    assert settle(stove, "on fire", "on", "checking if the stove is still on fire") is None  # recorded
    g = grounder(town, "Grace Okafor")
    addr = "Okafor house:kitchen:stove"
    town.objects.set(addr, "on fire", "player")
    try:
        placed = g.place("putting out the fire", "", "the stove in the kitchen is on fire")
        assert placed.address == addr
        assert g.state(addr, "off", "putting out the fire") == IDLE
    finally:
        town.objects.reset(addr)


def test_a_hazard_is_mended_by_an_action_that_mends_it_and_by_nothing_else():
    """Issue 27: the world says which states call for action (``[mishap.*]`` of kinds.toml, urgent:
    a fire, a leak) and what mends each.  Turning the burner off puts the fire out (the paper's
    Isabella); looking at it, inviting someone to look, or proposing "on" does not."""
    from game.world.states import HAZARDS, MISHAPS, mends, mishap
    stove, sink, machine = (load_kinds().object_kind(k) for k in ("stove", "kitchen sink", "espresso machine"))
    assert HAZARDS == {"on fire", "leaking"} and MISHAPS == HAZARDS | {"broken", "blocked"}
    fire = mishap("on fire")
    assert fire.urgent and fire.doing == "putting out the fire" and mishap("on") is None
    assert fire.words(fire.says, "stove") == "puts out the fire on the stove"
    assert settle(stove, "on fire", "off", "turning off the stove") == IDLE
    assert settle(stove, "on fire", "", "switching off the burner") == IDLE
    assert settle(stove, "on fire", "off", "grabbing a wet towel") == IDLE  # its state says so
    assert settle(stove, "on fire", "off", "checking on the fire") is None  # only looking
    assert settle(stove, "on fire", "on fire", "inviting Samuel to the kitchen to check on the fire") is None
    assert not mends(stove, "on fire", "on", "cooking on it")
    assert settle(sink, "leaking", "", "fixing the leak") == IDLE
    assert settle(sink, "leaking", "", "shutting off the water") == IDLE
    assert settle(sink, "leaking", "running", "washing the dishes") is None
    assert settle(machine, "broken", "", "repairing the espresso machine") == IDLE
    assert settle(machine, "broken", "", "making coffee") is None


def test_a_resident_sets_nothing_on_fire_unless_its_action_says_so(town):
    """Seen in play (2026-11-24): the player set the Lindqvist stove on fire; Felix Adeyemi reacted
    "calling Nora Lindqvist" with the state "on fire", and his desk caught fire."""
    desk, stove, shower = (load_kinds().object_kind(k) for k in ("desk", "stove", "shower"))
    assert settle(desk, IDLE, "on fire", "calling Nora Lindqvist") is None
    assert settle(shower, IDLE, "broken", "taking a shower") is None
    assert settle(stove, IDLE, "on fire", "cooking breakfast") is None
    assert settle(stove, IDLE, "on", "cooking breakfast") == "on"
    assert settle(stove, IDLE, "on fire", "burning the toast") == "on fire"  # the words say so
    g = grounder(town, "Grace Okafor")
    assert g.state("Okafor house:kitchen:stove", "on fire", "calling the fire brigade") is None
    assert settle(desk, IDLE, "on fire", "running away from the fire") is None
    assert settle(stove, IDLE, "broken", "making breakfast") is None


def test_an_action_changes_only_the_object_it_uses(town):
    g = grounder(town, "Grace Okafor")
    assert g.state("Okafor house:kitchen", "on", "cooking") is None  # a room has no state
    assert g.state("Okafor house:kitchen:fridge", "browsing", "browsing the news") is None


# ------------------------------------------------------------------------- places
def test_breakfast_is_had_at_a_table_or_in_a_kitchen_not_in_a_bedroom(town):
    g = grounder(town, "Aiko Tanaka")
    for hint in ("Kenji and Aiko's bedroom", "Tanaka house:Kenji and Aiko's bedroom", "home", ""):
        placed = g.place("having breakfast", hint)
        assert placed.fits and placed.address.startswith("Tanaka house:kitchen"), (hint, placed)
        assert town.tree.kind.get(placed.address, "kitchen") in ("dining table", "kitchen"), placed


def test_reading_up_on_running_for_mayor_is_never_at_a_shower(town):
    for name in ("Grace Okafor", "Hank Brody", "Priya Raman"):
        g = grounder(town, name)
        for hint in ("", "home", "work", "bathroom"):
            placed = g.place("reading up on running for mayor", hint)
            assert "shower" not in placed.address and "toilet" not in placed.address, (name, hint, placed)


@pytest.mark.parametrize("activity,hint,want", [
    ("sleeping", "", ("bed",)),
    ("taking a shower", "", ("shower",)),
    ("cooking dinner", "home", ("stove", "kitchen counter")),
    ("watching tv", "", ("tv", "sofa")),
    ("working on the debate notes", "work", ("desk",)),
    ("serving breakfast", "The Copper Kettle", ("bar counter", "behind the counter")),
    ("pouring a pint", "The Copper Kettle", ("beer tap", "bar counter")),
])
def test_the_world_picks_a_fitting_object(town, activity, hint, want):
    name = "Marcus Bell" if "Copper" in hint else "Grace Okafor"
    placed = grounder(town, name).place(activity, hint)
    assert placed.fits and town.tree.kind.get(placed.address) in want, placed


def test_the_area_named_by_the_plan_block_counts(town):
    g = grounder(town, "Ines Moreau")
    placed = g.place("setting up the tables", "", "host Grace's party at Bluebell Cafe")
    assert placed.address.startswith("Bluebell Cafe:"), placed
    assert "Bluebell Cafe (work)" in g.places_text() or "Bluebell Cafe" in g.places_text()


def test_only_places_the_resident_knows(town):
    g = grounder(town, "Grace Okafor")
    for act in ("having breakfast", "sleeping", "pouring a pint", "playing darts", "swinging"):
        assert g.place(act).address in g.known or g.place(act).address == g.home


def test_a_trip_happens_where_it_goes_and_a_named_place_that_cannot_serve_gives_way():
    """Recorded on the embedded model (tests/fixtures/ui/journey.jsonl, 2026-11-24): "drive to
    Bluebell Cafe" with the place "home", "drive back home" at the cafe, a shower and breakfast at
    Hank's store.  A trip is placed where it goes; a named place with nothing for the activity
    gives way to home or work when something there fits."""
    from game.world import default_town_path, load_town
    from game.world.resolve import Grounder

    town = load_town(default_town_path())

    def g(who):
        r = town.resident(who)
        return Grounder(town.affordances, town.spatial_seed(who).addresses(), home=r.home,
                        workplace=r.workplace or "", here=r.home, objects=town.objects)

    rosa, hank = g("Rosa Brody"), g("Hank Brody")
    assert rosa.place("drive to Bluebell Cafe", "home").address.startswith("Bluebell Cafe")
    assert rosa.place("drive back home", "Bluebell Cafe").address.startswith("Brody house")
    shower = hank.place("shower", "Brody's Supply Store").address
    assert shower.startswith("Brody house:") and "shower" in shower
    assert hank.place("eat breakfast", "Brody's Supply Store").address.startswith("Brody house:")
    # a named place that serves is kept
    assert hank.place("stocking shelves", "Brody's Supply Store").address.startswith("Brody's Supply Store")
