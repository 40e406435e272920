"""A surprise's host speaks of it as its host, and no one who holds it is about to speak of "it" to the one it is
kept from (issue 39): on 160f87f's day Samuel, told by Ines of his own party, said "It sounds like a fun party"
and "I was just about to talk to Grace about it"."""

from __future__ import annotations

from datetime import date

from game.mind.facts.fact import Fact, TownNames
from game.mind.facts.linechecks import drop_misattributed, host_as_guest
from game.mind.facts.parts import tells_kept_of_it

_PARTY = Fact(key="p", kind="gathering", what="a surprise party for Grace's 60th birthday", host="Samuel Okafor",
              place="Bluebell Cafe", day=date(2026, 3, 3), start=18 * 60, end=21 * 60, honoree="Grace Okafor",
              secret_from=("Grace Okafor",))


def test_its_host_hearing_of_it_is_a_guest_s_words():
    assert host_as_guest("It sounds like a fun party.", "Samuel Okafor", [_PARTY])
    assert not host_as_guest("It sounds like a fun party.", "Ines Moreau", [_PARTY])  # (she lends the cafe)


def test_speaking_of_it_to_the_kept_one_is_a_telling():
    text = "It sounds like a fun party. I was just about to talk to Grace about it."
    assert "kept from Grace" in tells_kept_of_it("I was just about to talk to Grace about it.", text, [_PARTY])
    assert not tells_kept_of_it("I won't talk to Grace about it.", text, [_PARTY])
    assert not tells_kept_of_it("I'll talk to Grace about it.", "The debate is on Wednesday. I'll talk to Grace "
                                "about it.", [_PARTY])  # (no surprise in the line: the debate is hers)
    assert not tells_kept_of_it("I'll talk to Rosa about it.", text, [_PARTY])


def test_the_line_keeps_what_is_true():
    line = ("Hey Ines! Thanks for reminding me. It sounds like a fun party. I'll definitely be there! I was just "
            "about to talk to Grace about it. She's going to be really excited.")
    fixes: list[str] = []
    town = TownNames(people=("Samuel Okafor", "Ines Moreau", "Grace Okafor"))
    out = drop_misattributed(line, "Samuel Okafor", ["Ines Moreau"], town, [_PARTY], fixes)
    assert "fun party" not in out and "talk to Grace" not in out and out.startswith("Hey Ines!")
    assert len(fixes) == 2


def test_a_sentence_leaning_on_one_dropped_for_what_the_town_lacks_goes_with_it():
    # Ines to Rosa on 160f87f's day: the car was dropped, and "He's telling me" was said of no one
    from game.mind.facts.unbacked import drop_unbacked_sentences

    town = TownNames(people=("Ines Moreau", "Rosa Brody", "Samuel Okafor"),
                     lacks=lambda s: ["car"] if "driving" in s else [])
    fixes: list[str] = []
    line = ("Hi Rosa! I'm driving to Bluebell Cafe to lend it for Samuel Okafor's surprise party. He's telling me "
            "it's coming up tomorrow at 18:00 to 21:00. I'm sure it will be a great surprise to Grace.")
    out = drop_unbacked_sentences(line, town, town.people, "Ines Moreau", fixes)
    assert out == "Hi Rosa! I'm sure it will be a great surprise to Grace."
    assert fixes == ["dropped 2 unbacked sentence(s)"]


def test_the_honoree_said_to_be_the_one_who_hosts_is_a_wrong_host_in_an_answer():
    # Samuel on 160f87f's save, asked what he thinks of the mayor
    from datetime import datetime

    from game.mind.interview.backing import wrong_host

    town = TownNames(people=("Samuel Okafor", "Grace Okafor", "Ines Moreau"))
    said = ("Grace Okafor is my wife, the love of my life, and the one who is hosting the surprise party for Grace's "
            "60th birthday.")
    [p] = wrong_host(f"Grace Okafor, my wife, is the town's mayor. {said}", [_PARTY], town, datetime(2026, 3, 2, 22))
    assert p.what == said and "Samuel Okafor is the host" in p.tell
    assert wrong_host("Samuel Okafor is the one who is hosting the surprise party.", [_PARTY], town, None) == []
