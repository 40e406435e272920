"""Interview answers a reader found wrong on 82f1ab1's save (2026-11-30): a scene made up, with one
the resident knows in it, when asked what it would do on hearing shouting; a surprise it would tell
to the one it is kept from."""

from __future__ import annotations

from datetime import date

from game.mind.facts.fact import Fact, TownNames
from game.mind.facts.hypothetical import as_if_so
from game.mind.facts.parts import parts_unbacked

PEOPLE = ["Felix Adeyemi", "Grace Okafor", "Samuel Okafor", "Rosa Brody"]
SHOUTING = "You hear shouting outside your window. What do you do?"


def test_what_one_would_do_on_hearing_shouting_makes_up_no_scene_with_someone_in_it():
    for made_up in ("It's from Felix Adeyemi, the new baker.",
                    "I see Grace Okafor running towards the window, her face red with anger.",
                    "I rush to the window and see Grace and Hank Brody arguing in the street.",  # 1703955's
                    # (356ade6's save: "someone" beside the one named is no "if")
                    "I immediately rush to the door and open it to see Felix Adeyemi arguing with someone outside."):
        assert as_if_so(made_up, SHOUTING, PEOPLE) == "nothing has happened: say what you would do, naming no one"
    for fine in ("I go to check it out.", "I would call Samuel to see if he is okay.",
                 "If it were Grace, I would go out to her.", "I turn on the light and listen."):
        assert as_if_so(fine, SHOUTING, PEOPLE) == ""
    assert as_if_so("It's from Felix Adeyemi, the new baker.", "Who is the new baker?", PEOPLE) == ""
    # hearing of news is no sound (the measure tests' "Did you hear of a party?": "Ada Ito is hosting ...")
    assert as_if_so("Yes: Ada Ito is hosting a party at Cafe.", "Did you hear of a party?", ["Ada Ito"]) == ""


def _party() -> tuple[Fact, TownNames]:
    """Samuel's surprise party for Grace, which Rosa helps prepare, and the town that declares it."""
    party = Fact(key="samuel-okafor:party", kind="gathering", what="a surprise party for Grace's 60th birthday",
                 host="Samuel Okafor", place="Bluebell Cafe", day=date(2026, 3, 3), start=18 * 60, end=21 * 60,
                 honoree="Grace Okafor", secret_from=("Grace Okafor",))
    return party, TownNames(places=("Bluebell Cafe",), people=tuple(PEOPLE),
                            parts={party.what.lower(): ("Samuel Okafor", "Rosa Brody")})


def test_a_surprise_is_not_told_to_the_one_it_is_kept_from_even_in_what_one_would_do():
    party, town = _party()
    said = ("I would call my wife Grace and tell her that I'm going to Bluebell Cafe tomorrow evening to surprise "
            "her. I would also inform my friends.")
    assert [w for _, w in parts_unbacked(said, "Samuel Okafor", town, [party])] == [
        "surprise party for Grace's 60th birthday is kept from Grace: not told to Grace"]
    for told in ("I'll let Grace know about the surprise party tonight.", "I told Grace about the surprise party."):
        assert parts_unbacked(told, "Samuel Okafor", town, [party]), told
    for fine in ("I must not tell Grace about the surprise.", "I told Rosa about the surprise party.",
                 "I would call Grace to see if she is okay."):
        assert parts_unbacked(fine, "Samuel Okafor", town, [party]) == []
    for fine in (  # 4d3a658's day: those who hold it, of who told them and to one another
            "Samuel Okafor told me he's hosting a surprise party for Grace's 60th birthday at Bluebell Cafe.",
            "I'm calling to tell you about a surprise party for Grace's 60th birthday at Bluebell Cafe.",
            "I heard you're telling everyone about Samuel Okafor's surprise party for Grace's 60th birthday."):
        assert parts_unbacked(fine, "Rosa Brody", town, [party]) == [], fine


def test_those_named_to_help_with_a_party_are_those_with_a_part_in_it():
    # Samuel on 0e6b5f2's save, asked what he would do if someone close were sick: "I would also inform my friends
    # and family, including Ines Moreau, Felix Adeyemi, and Rosa Brody, so they can help prepare the party"
    party, town = _party()
    said = "I would inform Felix Adeyemi and Rosa Brody, so they can help prepare the party."
    assert [w for _, w in parts_unbacked(said, "Samuel Okafor", town, [party])] == [
        "Felix has no part in surprise party for Grace's 60th birthday"]
    assert parts_unbacked("I would inform Rosa Brody, so they can help prepare the party.", "Samuel Okafor", town,
                          [party]) == []
