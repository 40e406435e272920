"""The past said as now and a routine made part of a gathering (game/mind/facts/pastnow.py), each
with the line the town said on 75fad48's save: pure rules, no model."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

import pytest

from game.mind.facts.fact import Fact, TownNames
from game.mind.facts.madeup import made_up
from game.mind.facts.pastnow import part_of_mended, part_of_unheld, past_as_now
from game.mind.interview.backing import mend_facts
from game.mind.interview.sentclaims import claims_unbacked
from game.mind.persona import Persona

ROSA = ("Rosa Brody is a barista at Bluebell Cafe and paints in her spare time. She took piano lessons from "
        "Samuel Okafor as a child. She lives with her father, Hank.")
SAMUEL = ("Samuel Okafor taught music at Oakhill College for thirty years and retired last spring. He plays the "
          "piano at Bluebell Cafe on weekday afternoons and still gives lessons to a few children in town.")
SONG = "Samuel Okafor wrote a song for Grace and wants to play it at the party"
PARTY = Fact(key="party", kind="gathering", what="a surprise party for Grace's 60th birthday", host="Samuel Okafor",
             place="Bluebell Cafe", day=date(2026, 3, 3), start=18 * 60, end=21 * 60, secret_from=("Grace Okafor",))
TOWN = TownNames(places=("Bluebell Cafe", "Oakhill College", "Okafor house"),
                 people=("Rosa Brody", "Samuel Okafor", "Grace Okafor"))
MONDAY = datetime(2026, 3, 2, 22, 0)


@pytest.mark.parametrize("said, held, wrong", [
    # Rosa, asked of her free time (75fad48's save)
    ("In my free time, I enjoy painting in my spare time as a hobby and also taking piano lessons from Samuel "
     "Okafor, which I find challenging but rewarding.", ROSA, True),
    ("I'm taking more piano lessons these days.", ROSA, True),
    ("I took piano lessons from Samuel Okafor as a child.", ROSA, False),  # said as the past
    ("Are you still taking piano lessons?", ROSA, False),  # asked of the listener
    ("In my free time I'm taking piano lessons from you.", ROSA, True),  # said to Samuel: "you" as the object
    ("You still take piano lessons, I think.", ROSA, False),
    ("I love painting and piano music.", ROSA, False),
    ("I teach music at Oakhill College.", SAMUEL, True),  # he retired
    ("I'm retired now, after teaching music at Oakhill College.", SAMUEL, False),
    ("I still give lessons to a few children.", SAMUEL, False),  # held as now
    ("I teach music to a few children in town.", SAMUEL, False),  # one word, and no name of the past's
])
def test_what_is_held_only_as_past_is_not_said_as_now(said, held, wrong):
    assert bool(past_as_now(said, [held])) is wrong


def test_a_routine_at_other_hours_is_not_part_of_the_gathering():
    said = ("I plan to play the piano at Bluebell Cafe from 14:00 to 16:00 tomorrow (Tuesday March 3) as part of "
            "my surprise party for Grace's 60th birthday.")  # Samuel, asked of tomorrow (75fad48's save)
    text, fixes = part_of_mended(said, [PARTY], [SAMUEL, SONG], [*TOWN.people, *TOWN.places])
    assert text == "I plan to play the piano at Bluebell Cafe from 14:00 to 16:00 tomorrow (Tuesday March 3)."
    assert fixes and "part of my surprise party" in fixes[0]
    # through the interview's mend, the party's words are still mended after it
    text, _ = mend_facts(said, [PARTY], MONDAY, TOWN, "Samuel Okafor", "What are your plans for tomorrow?", SAMUEL)
    assert "part of" not in text and text.startswith("I plan to play the piano")


@pytest.mark.parametrize("said, cut", [
    ("I will play the song I wrote for Grace as part of the party.", False),  # his seed memory holds both
    ("I will play the song at 19:00 as part of the party.", False),  # within its hours
    ("I will paint the walls as part of the party for Grace, then go home.", True),  # nothing holds it
    ("I play the piano at the cafe every afternoon.", False),  # no "part of" at all
])
def test_as_part_of_stands_only_where_something_holds_it(said, cut):
    assert bool(part_of_unheld(said, [PARTY], [SAMUEL, SONG], ["Bluebell Cafe"])) is cut


def test_the_interview_and_the_talk_read_the_past_said_as_now():
    said = "In my free time I enjoy taking piano lessons from Samuel Okafor."
    assert any(claims_unbacked(said, "Rosa Brody", TOWN, ROSA, "What do you like to do in your free time?"))

    @dataclass
    class Holder:
        persona: Persona
        facts: tuple[Fact, ...] = ()

    rosa = Holder(Persona(name="Rosa Brody", age=24, traits=["cheerful"], background=ROSA, currently=""))
    assert "past" in made_up(said, "", (), rosa, TOWN.places, TOWN.people)
    assert made_up("I took piano lessons from Samuel Okafor as a child.", "", (), rosa, TOWN.places,
                   TOWN.people) == ""


def test_three_slips_of_grace_s_answers_on_654b82e_s_save():
    from game.mind.facts.hypothetical import as_if_so
    from game.mind.interview.asme import orphan_pronouns
    from game.mind.interview.ownclaims import pastime_unbacked

    # "She will not have any other plans scheduled.": herself as another, no one named before it
    said = ("Tomorrow, I plan to run the town from the mayor's office from 08:00 to 17:00. She will not have any "
            "other plans scheduled.")
    assert orphan_pronouns(said, "Grace Okafor", TOWN.people) == ["She will not have any other plans scheduled."]
    assert orphan_pronouns("I talked with Samuel. He is fine.", "Grace Okafor", TOWN.people) == []
    assert orphan_pronouns("I asked my husband. He says yes.", "Grace Okafor", TOWN.people) == []
    from game.mind.interview.asme import mend_orphans
    assert mend_orphans(said, "Grace Okafor", TOWN.people)[0].endswith("I will not have any other plans scheduled.")
    assert mend_orphans("I paint. She also enjoys time with her family.", "Rosa Brody", TOWN.people)[0] == \
        "I paint. I also enjoy time with my family."
    # inside a sentence of "I", with no one else named (Rosa asked again on 654b82e's save)
    said = "I enjoy painting in her spare time, which she finds both therapeutic and fulfilling."
    assert mend_orphans(said, "Rosa Brody", TOWN.people)[0] == \
        "I enjoy painting in my spare time, which I find both therapeutic and fulfilling."
    assert mend_orphans("I admire the mayor; she works hard.", "Rosa Brody", TOWN.people)[0] == \
        "I admire the mayor; she works hard."
    # a scene made up for a sound heard
    q = "You hear shouting outside your window. What do you do?"
    assert as_if_so("I rush to the window, open it, and see that it's a group of people in the park.", q)
    assert as_if_so("I then go to the park and help the people who are injured.", q)
    assert not as_if_so("I would look out of the window to see what is happening.", q)
    # reading, held by nothing: "getting ready" is no reading
    assert pastime_unbacked("I enjoy reading books.", "06:00 getting ready for the day")
    assert not pastime_unbacked("I enjoy reading books.", "Grace reads novels in the evening")


def test_samuel_s_slips_on_654b82e_s_save():
    from game.mind.facts.hypothetical import feeds_the_fire
    from game.mind.interview.backing import UNKNOWING

    q = "Your breakfast is burning! What would you do?"
    assert feeds_the_fire("If it's not, I would turn up the heat and try again.", q)
    assert not feeds_the_fire("I would turn off the heat and take the pan off.", q)
    # of his wife, the mayor: not knowing is a denial
    assert UNKNOWING.search("I know that Grace Okafor is the mayor, but I don't have any information about her "
                            "personality or character.")
    assert not UNKNOWING.search("I think she is a kind and thoughtful person.")
    # what he would change: a lack nothing holds
    from game.mind.interview.sentclaims import lack_unheld

    places = ("Bluebell Cafe", "Willow Park")
    assert lack_unheld("I would improve Bluebell Cafe, as it currently lacks a wheelchair-accessible entrance.",
                       places, SAMUEL)
    assert not lack_unheld("Willow Park has no working fountain.", places,
                           "The fountain in Willow Park stopped working last month")


def test_the_records_tomorrow_says_one_s_own_gathering_as_i():
    # Samuel asked of tomorrow on 654b82e's save: "...; Samuel Okafor is hosting a surprise party ..."
    from game.mind.interview.answerdata import tomorrow_line

    line = tomorrow_line("Samuel Okafor", (), [PARTY], MONDAY, mine=True)
    assert "I'm hosting a surprise party for Grace's 60th birthday at Bluebell Cafe tomorrow" in line
    assert "Samuel Okafor is hosting" not in line
    assert "Samuel Okafor is hosting" in tomorrow_line("Rosa", (), [PARTY], MONDAY)


def test_no_staff_is_made_up_for_a_mishap_at_home():
    from game.mind.facts.hypothetical import as_if_so

    q = "Your breakfast is burning! What would you do?"  # Samuel asked again on 654b82e's save
    assert as_if_so("If the stove is still not working, I would call an emergency number to report the issue to the "
                    "kitchen staff.", q)
    assert not as_if_so("I would call the fire department if the flames spread.", q)
    assert not as_if_so("I would ask the staff for help.", "Someone wants to talk with you while you are busy.")


def test_an_office_held_now_is_not_said_as_former():
    # Grace on 2c4c6ac's save: "I am Grace Okafor, a 59-year-old former mayor of Millbrook who has been running
    # for a third term" (she is the mayor; the civics teaching is her former role)
    from game.mind.interview.sentclaims import current_not_former

    town = TownNames(people=("Grace Okafor", "Samuel Okafor"), roles={"Grace Okafor": ("mayor", "candidate for mayor")})
    said = "I am Grace Okafor, a 59-year-old former mayor of Millbrook who has been running for a third term."
    assert current_not_former(said, "Grace Okafor", town) == (
        "I am Grace Okafor, a 59-year-old mayor of Millbrook who has been running for a third term.",
        ["former mayor: mayor now"])
    assert current_not_former("I am a former civics teacher.", "Grace Okafor", town)[1] == []
    assert current_not_former("I am the former mayor.", "Samuel Okafor", town)[1] == []


def test_the_whole_town_coming_is_a_claim_nothing_holds():
    # Grace of her debate on 2c4c6ac's save: "It is hosted by Grace Okafor and will be attended by all residents"
    from game.mind.interview.sentclaims import all_come

    assert all_come("It is hosted by Grace Okafor and will be attended by all residents of Millbrook.", "")
    assert all_come("Everyone in town will be there.", "")
    assert not all_come("Rosa and Eli will be there.", "")
    assert not all_come("I hope everyone will come.", "")
