"""Who does what for a gathering, as data (residents.json ``events[].tasks``): a line or an answer
that gives a declared task to another as theirs is not said (game/mind/facts/parts.py).  Samuel on
90db376, asked what he likes to do in his free time: "I also like to help others, such as lending
Bluebell Cafe and making the cake" (Ines lends the cafe and makes the cake).  And a relation said of
two others is held to theirs (claims.py): "Grace Okafor and her husband Hank Brody"."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from game.mind.facts.fact import TownNames
from game.mind.facts.parts import part_not_theirs, parts_unbacked, task_not_theirs
from game.world import default_town_path
from game.world.knowledge import EventSpec, among

PEOPLE = ("Grace Okafor", "Samuel Okafor", "Ines Moreau", "Rosa Brody", "Marcus Bell")
TOWN = TownNames(places=("Bluebell Cafe", "Town Hall"), people=PEOPLE,
                 tasks=(("Ines Moreau", "lend Bluebell Cafe"), ("Ines Moreau", "make the cake"),
                        ("Rosa Brody", "decorate Bluebell Cafe")))
SAMUEL = "I also like to help others, such as lending Bluebell Cafe and making the cake."


@pytest.mark.parametrize("speaker, listeners, line, why", [
    ("Samuel Okafor", [], SAMUEL, "Ines is the one to lend Bluebell Cafe"),
    ("Samuel Okafor", ["Rosa Brody"], "I'm baking, no, I'm making the cake myself this year.",
     "Ines is the one to make the cake"),
    ("Samuel Okafor", ["Marcus Bell"], "You made a lovely cake for it, I hear.", "Ines is the one to make the cake"),
    ("Rosa Brody", [], "Marcus is decorating the cafe for Tuesday.", "Rosa is the one to decorate Bluebell Cafe"),
    ("Samuel Okafor", [], "I've been preparing the cake and making sure that everything is ready.",
     "Ines is the one to make the cake"),  # (d2ec812's interview: the task said in another verb)
    ("Samuel Okafor", [], "I've been making sure that everything is ready for the cake.", ""),
    # its holder, or said of its holder, or asked, or denied: said
    ("Ines Moreau", ["Samuel Okafor"], "I'm making the cake tonight.", ""),
    ("Samuel Okafor", ["Rosa Brody"], "Ines is making the cake, and I'm writing the invitations.", ""),
    ("Samuel Okafor", ["Ines Moreau"], "Thank you, Ines, you are lending me Bluebell Cafe.", ""),
    ("Samuel Okafor", ["Ines Moreau"], "Could you make the cake a little smaller?", ""),
    ("Samuel Okafor", [], "I'm not making the cake; Ines is.", ""),
    ("Rosa Brody", ["Samuel Okafor"], "I'll decorate Bluebell Cafe on Tuesday afternoon.", ""),
    # helping with it is doing it (Samuel's answer on c59f68b's save, of Rosa); helping its holder is not
    ("Samuel Okafor", [], "Rosa has been helping me with the cake.", "Ines is the one to make the cake"),
    ("Rosa Brody", [], "I'm helping Ines with the cake.", ""),
    # the task by its noun (Samuel of Ines on b61bcdc's save)
    ("Samuel Okafor", [], "Ines has lent Bluebell Cafe for the party and is helping with the decorations.",
     "Rosa is the one to decorate Bluebell Cafe"),
    ("Samuel Okafor", [], "Rosa is in charge of the decorations.", ""),
])
def test_a_task_of_a_gathering_given_to_another_is_named(speaker, listeners, line, why):
    assert task_not_theirs(line, speaker, listeners, TOWN) == why
    assert part_not_theirs(line, speaker, listeners, TOWN, []) == why  # (the talk lines' check runs it)


def test_an_answer_that_takes_anothers_task_is_caught_and_a_town_without_tasks_says_nothing():
    assert parts_unbacked(f"I play the piano. {SAMUEL}", "Samuel Okafor", TOWN, []) == [
        (SAMUEL, "Ines is the one to lend Bluebell Cafe")]
    assert task_not_theirs(SAMUEL, "Samuel Okafor", [], TownNames(people=PEOPLE)) == ""
    # "She" of the one named before (Samuel's answer on c59f68b's save)
    said = "I would spend an hour with Rosa Brody. She has been helping me with the cake."
    assert parts_unbacked(said, "Samuel Okafor", TOWN, []) == [
        ("She has been helping me with the cake.", "Ines is the one to make the cake")]


def test_the_default_town_declares_the_partys_tasks_and_a_task_needs_one_who_knows_of_it():
    town = default_town_path().parent if default_town_path().suffix else default_town_path()
    data = json.loads((town / "residents.json").read_text(encoding="utf-8"))
    party = EventSpec(**data["events"][0])
    assert party.tasks == {"Ines Moreau": ["lend Bluebell Cafe", "make the cake"],
                           "Rosa Brody": ["decorate Bluebell Cafe"]}
    base = {k: v for k, v in data["events"][0].items() if k != "tasks"}
    with pytest.raises(ValidationError, match="Marcus Bell has a task"):
        EventSpec(**base, tasks={"Marcus Bell": ["make the cake"]})
    with pytest.raises(ValidationError, match="a verb and what it is done to"):
        EventSpec(**base, tasks={"Ines Moreau": ["bake"]})
    cut = among(data, {"Samuel Okafor", "Ines Moreau", "Grace Okafor"})
    assert cut["events"][0]["tasks"] == {"Ines Moreau": ["lend Bluebell Cafe", "make the cake"]}


def test_a_relation_said_of_two_others_is_held_to_their_relationships():
    # Samuel on 90db376, asked what he does when he hears shouting: "see Grace Okafor and her husband
    # Hank Brody arguing in the kitchen" (her husband is Samuel)
    from game.mind.facts.claims import relation_claims

    rel = {"Grace Okafor": {"Samuel Okafor": "her husband", "Hank Brody": "her rival in the election"},
           "Hank Brody": {"Rosa Brody": "his daughter"}, "Samuel Okafor": {"Grace Okafor": "his wife"}}
    people = ["Grace Okafor", "Samuel Okafor", "Hank Brody", "Rosa Brody"]

    def said(text: str) -> list[tuple[str, str, bool]]:
        return [(c.who, c.what, c.backed) for c in relation_claims(text, "Samuel Okafor", [], people, rel)]
    assert said("I see Grace Okafor and her husband Hank Brody arguing in the kitchen.") == [
        ("Hank Brody", "husband of Grace Okafor", False)]
    assert said("Grace's husband Samuel plays the piano.") == [("Samuel Okafor", "husband of Grace Okafor", True)]
    assert said("Rosa Brody, Hank Brody's daughter, serves coffee.") == [("Rosa Brody", "daughter of Hank Brody", True)]
    assert said("Hank's daughter Rosa paints.") == [("Rosa Brody", "daughter of Hank Brody", True)]
    assert said("Rosa's father Samuel came by.") == [("Samuel Okafor", "father of Rosa Brody", False)]


def test_an_answer_that_speaks_to_a_neighbour_or_says_a_sentence_again_is_read_so():
    # Grace on 90db376: "I have been thinking about starting the town again, just like you did when I
    # was your mayor. I understand, Samuel. ..."; Samuel's shouting answer, said again place by place
    from game.mind.interview.ownclaims import AGAIN, addressed, tidy

    said = ("I have been thinking about starting the town again. I understand, Samuel. Hello Rosa, how are you? "
            "I want the town ready for the debate, Samuel said.")
    assert addressed(said, PEOPLE, "Grace Okafor") == ["I understand, Samuel.", "Hello Rosa, how are you?"]
    assert addressed("Grace, I think, would say so.", PEOPLE, "Grace Okafor") == []  # one's own name
    assert addressed("Grace, my wife, is a fine mayor.", PEOPLE, "Samuel Okafor") == []  # of her, not to her
    again = ("I find Grace and Hank arguing in the cafe, and I tell them to stop arguing and to leave the cafe "
             "immediately. I then go to her bedroom. I find Grace and Hank arguing in her bedroom, and I tell them to "
             "stop arguing and to leave the bedroom immediately.")
    once = ("I find Grace and Hank arguing in the cafe, and I tell them to stop arguing and to leave the cafe "
            "immediately.")
    assert tidy(again, [], AGAIN) == f"{once} I then go to her bedroom."
    assert tidy(again, []) == again  # (before the checks, only a sentence said word for word)
    assert tidy("I will go home. I will go home early.", [], AGAIN) == "I will go home. I will go home early."
    # Grace on 90db376: a memory's place tag said back
    assert tidy("Samuel told me he's reading at home (the living room of the Okafor house).", ["Okafor house"]) == \
        "Samuel told me he's reading at home."
    kept = "I like the fountain (it needs repairs)."
    assert tidy(kept, ["Okafor house"]) == kept


def test_a_memory_said_back_as_stored_gives_the_talk_s_words_as_quotes():
    # Kenji on 19282ee, asked of a gathering: his own record of a talk said back word for word
    from game.mind.interview.ownclaims import AGAIN, tidy

    said = ("Ines Moreau told me about it. I talked with Ines Moreau; I said: Hi Ines! I'm going to meet Grace "
            "Okafor at Bluebell Cafe. Ines Moreau told me: Oh, yes! I'm so excited! Ines Moreau told me that "
            "Samuel Okafor is hosting a party at Bluebell Cafe tomorrow from 18:00 to 21:00.")
    assert tidy(said, ["Bluebell Cafe"], AGAIN) == (
        "Ines Moreau told me about it. I talked with Ines Moreau and said: “Hi Ines! I'm going to meet Grace "
        "Okafor at Bluebell Cafe.” Ines Moreau told me: “Oh, yes! I'm so excited!” Ines Moreau told me that "
        "Samuel Okafor is hosting a party at Bluebell Cafe tomorrow from 18:00 to 21:00.")
    assert tidy(said, ["Bluebell Cafe"]) == said  # the checks read it as the model wrote it
    quoted = 'Grace Okafor told me: "See you at six."'
    assert tidy(quoted, [], AGAIN) == quoted
    assert tidy("I talked with Rosa. Rosa told me: I'm so excited!", [], AGAIN) == \
        "I talked with Rosa. Rosa told me: “I'm so excited!”"  # a quote last is not a sentence cut off
    # Rosa on c59f68b's save, of her usual weekday, in the present
    assert tidy("I talk with Ines Moreau; I said: Hey Ines!", [], AGAIN) == \
        "I talked with Ines Moreau and said: “Hey Ines!”"


def test_whose_gathering_it_is_holds_who_invites_and_who_is_told():
    """6186d53's day: Ines, of Samuel's surprise party for Grace, "I'm planning to invite Samuel Okafor,
    Grace Okafor, and maybe some friends"; Marcus to Hank, of his own quiz, "Thanks for letting me
    know about the pub quiz at The Copper Kettle"."""
    from datetime import date

    from game.mind.facts.fact import Fact

    party = Fact(key="p", kind="gathering", what="a surprise party for Grace's 60th birthday", host="Samuel Okafor",
                 place="Bluebell Cafe", day=date(2026, 3, 3), start=18 * 60, end=21 * 60, honoree="Grace Okafor",
                 secret_from=("Grace Okafor",))
    quiz = Fact(key="q", kind="gathering", what="a pub quiz", host="Marcus Bell", place="The Copper Kettle",
                day=date(2026, 3, 2), start=20 * 60, end=22 * 60)
    town = TownNames(people=(*PEOPLE, "Hank Brody"), parts={party.what.lower(): ("Samuel Okafor", "Ines Moreau"),
                                                            quiz.what: ("Marcus Bell", "Hank Brody")})
    ines = "I'm planning to invite Samuel Okafor, Grace Okafor, and maybe some friends."  # (the party named before)
    assert part_not_theirs(ines, "Ines Moreau", ["Felix Adeyemi"], town, [party]) == \
        "Samuel hosts surprise party for Grace's 60th birthday"
    assert "kept from Grace" in part_not_theirs("I'll invite Grace to the surprise party too.", "Rosa Brody",
                                                ["Ines Moreau"], town, [party])
    assert part_not_theirs("I'm inviting Rosa to the surprise party.", "Samuel Okafor", ["Ines Moreau"], town,
                           [party]) == ""
    assert part_not_theirs("I'll invite Samuel to the pub quiz.", "Marcus Bell", ["Hank Brody"], town,
                           [party, quiz]) == ""  # (one who hosts a gathering may invite anyone to it)
    assert part_not_theirs("I'll invite Marcus for a beer.", "Hank Brody", ["Rosa Brody"], town, [quiz]) == ""
    said = "Thanks for letting me know about the pub quiz at The Copper Kettle."
    assert part_not_theirs(said, "Marcus Bell", ["Hank Brody"], town, [quiz]).startswith("Marcus hosts")
    assert part_not_theirs(said, "Hank Brody", ["Marcus Bell"], town, [quiz]) == ""
    # 8f03815's day: Rosa, who helps Samuel with his party, to Ines, "Thanks for coming to help me
    # prepare the surprise party for Grace's 60th birthday"; the host may say it
    rosa = "Thanks for coming to help me prepare the surprise party for Grace's 60th birthday."
    assert part_not_theirs(rosa, "Rosa Brody", ["Ines Moreau"], town, [party]) == \
        "Samuel hosts surprise party for Grace's 60th birthday"
    assert part_not_theirs(rosa, "Samuel Okafor", ["Ines Moreau"], town, [party]) == ""
    assert part_not_theirs("Can you help me prepare the surprise party?", "Rosa Brody", ["Ines Moreau"], town,
                           [party]) == ""  # (a question is no claim)


@pytest.mark.parametrize("speaker, line, why", [
    # d7d6132's day: Ines, told of the debate by Grace, who hosts it, "I'm trying to figure out the best time to start
    # our public debate" (she has no part in it)
    ("Ines Moreau", "I'm trying to figure out the best time to start our public debate.",
     "Ines has no part in the public debate"),
    ("Rosa Brody", "I'm organising the public debate this year.", "Rosa has no part in the public debate"),
    # its host, one with a hand in it, a guest getting ready or going, a denial, a question: said
    ("Grace Okafor", "I'm planning the public debate at Town Hall.", ""),
    ("Priya Raman", "I'm planning the public debate questions with Hank.", ""),
    ("Ines Moreau", "I'm planning to go to the public debate.", ""),
    ("Ines Moreau", "I'm preparing for the public debate.", ""),
    ("Ines Moreau", "I'm not organising the public debate.", ""),
    ("Ines Moreau", "Should I plan the public debate?", ""),
    ("Ines Moreau", "I'm planning the menu for the cafe.", ""),
])
def test_one_with_no_part_in_a_gathering_does_not_arrange_it(speaker, line, why):
    from datetime import date

    from game.mind.facts.fact import Fact

    debate = Fact(key="d", kind="gathering", what="the public debate", host="Grace Okafor", place="Town Hall",
                  day=date(2026, 3, 4), start=19 * 60, end=21 * 60)
    town = TownNames(people=(*PEOPLE, "Hank Brody", "Priya Raman"),
                     parts={debate.what: ("Grace Okafor", "Hank Brody", "Priya Raman", "Samuel Okafor")})
    assert part_not_theirs(line, speaker, ["Grace Okafor"], town, [debate]) == why
