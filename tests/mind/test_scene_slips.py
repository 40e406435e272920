"""Scenes the town does not have, read on 4151289's day (2026-11-30): a home beyond the town (Grace's "a
small town in my home state"), a thing its people call broken said to work (Priya's "it's still functional"
of the park fountain Grace had just called broken), people come or heard whom the town does not have (Rosa's
"a couple is coming in", Grace's answer of "a group of people shouting outside" and "a protest")."""

from __future__ import annotations

from datetime import datetime

import pytest

from game.engine.build import new_engine
from game.mind.facts.fact import TownNames
from game.mind.facts.slips import (
    broken_said_to_work,
    broken_things,
    home_unbacked,
    made_for_me_said_as_mine,
    strangers_in_scene,
    works_said,
)
from game.mind.interview.backing import problems_in
from game.mind.view import Conversation

from .fakes import scripted_model

MONDAY = datetime(2026, 3, 2, 9, 21)
BROKEN = {"fountain"}


@pytest.fixture(scope="module")
def engine():
    return new_engine("default", scripted_model({}))


def test_things_called_broken_are_read_from_the_town_s_words():
    assert broken_things(["the town budget cannot cover both the broken park fountain and the road repairs",
                          "The fountain in Willow Park stopped working last month"]) == {"fountain"}
    assert broken_things(["Rosa is checking coffee quality at the espresso machine"]) == set()


def test_a_broken_thing_said_to_work_is_named_and_its_it_read_from_the_sentence_before():
    said = "It's a bit discolored, but it's still functional."
    assert broken_said_to_work(said, "Yes, the park fountain is still there.", BROKEN) == "the fountain is broken"
    assert broken_said_to_work("The park fountain still works.", "", BROKEN) == "the fountain is broken"
    assert broken_said_to_work("The fountain is working again!", "", BROKEN) == "the fountain is broken"
    assert works_said(said) and not works_said("Yes, the park fountain is still there.")


def test_what_says_it_is_broken_asks_of_it_or_speaks_of_another_thing_stands():
    for said, before in [("Yes, the park fountain is still there.", ""), ("The fountain is still broken.", ""),
                         ("It's not working.", "I saw the fountain."), ("Is it still working?", "The fountain."),
                         ("The fountain is no longer working.", ""), ("The espresso machine is working fine.", ""),
                         ("I'm working on the song.", "The fountain is broken."),
                         ("It's fine, thanks.", "How are you?"),
                         ("It's running late.", "The fountain")]:
        assert broken_said_to_work(said, before, BROKEN) == "", said


def test_the_talks_check_does_not_say_the_broken_fountain_works(engine):
    from game.engine.talks.facts import TalkFacts

    facts = TalkFacts(engine.talk_facts.core)
    talk = Conversation("t6", ["Grace Okafor", "Priya Raman"])
    talk.lines.append(("Grace Okafor", "Hello! I wanted to check on the broken park fountain. Is it still there?"))
    said = "Hello, Grace! Yes, the park fountain is still there. It's a bit discolored, but it's still functional."
    assert facts.vet(talk, "Priya Raman", said, MONDAY)[1] == "Hello, Grace! Yes, the park fountain is still there."
    # with no one having called it broken in the talk, the town's people still have
    quiet = Conversation("t7", ["Nora Lindqvist", "Hank Brody"])
    assert facts.vet(quiet, "Hank Brody", "The fountain in Willow Park is working fine.", MONDAY)[1] == ""


def test_people_the_town_does_not_have_are_not_in_a_scene():
    for said in ["I noticed that a couple is coming in.", "I see a group of people shouting outside.",
                 "Some customers asked about the new bread.", "A man walked in and ordered a latte."]:
        assert strangers_in_scene(said).startswith("no one the town has"), said
    for said in ["He needs customers.", "I made a new drink for my customers.", "I hope a lot of people come.",
                 "Felix is nervous about his customers."]:
        assert strangers_in_scene(said) == "", said


def test_the_talks_check_leaves_out_a_stranger_and_an_answer_with_one_is_asked_again(engine):
    from game.engine.talks.facts import TalkFacts

    facts = TalkFacts(engine.talk_facts.core)
    talk = Conversation("t8", ["Rosa Brody", "Aiko Tanaka"])
    said = "Yeah, I'm checking out some customers. I noticed that a couple is coming in."
    assert facts.vet(talk, "Rosa Brody", said, MONDAY)[1] == "Yeah, I'm checking out some customers."
    town = TownNames(people=["Grace Okafor", "Hank Brody"], places=["Town Hall"])
    answer = ("I rush to the window and see a group of people shouting outside. I find out that it's a protest "
              "outside the town hall.")
    found = problems_in(answer, me="Grace Okafor", known=["Hank Brody"], strangers=[], town=town,
                        backing="Grace Okafor is the mayor.", question="You hear shouting outside your window.")
    assert {p.kind for p in found} >= {"claim", "event"}
    calm = "I would open the window to see what is going on, then call Hank if I need help."
    assert problems_in(calm, me="Grace Okafor", known=["Hank Brody"], strangers=[], town=town,
                       backing="Grace Okafor is the mayor.", question="You hear shouting outside your window.") == []


def test_a_home_beyond_the_town_is_one_the_speaker_holds():
    said = "I am the mayor of Millbrook, a small town in my home state."
    assert home_unbacked(said, "Grace Okafor is the mayor of Millbrook.") == "nothing you hold tells of my home state"
    assert home_unbacked("I miss my home country.", "Ines moved to Millbrook from Lyon.") == ""
    assert home_unbacked("I love my home town.", "") == ""  # Millbrook is one's home town


def test_what_another_made_for_the_speaker_is_not_said_as_its_own():
    held = "Samuel Okafor is practising the song he wrote for Grace on the piano at home"
    said = "I also want to catch up with Samuel, who is working on the song I wrote for him."
    assert made_for_me_said_as_mine(said, "Grace Okafor", held) == "another wrote it for Grace"
    assert made_for_me_said_as_mine("I'm working on the song I wrote for Grace.", "Samuel Okafor",
                                    "Samuel is practising the song he wrote for Grace.") == ""
    assert made_for_me_said_as_mine("I baked a cake for her.", "Ines Moreau", "") == ""


def test_something_together_is_what_the_speaker_holds_with_them(engine):
    # 4151289's day: Felix to Ines and Samuel, "I see we're going to be working together soon" (his own text has
    # Ines as "the cafe owner he hopes to work with", nothing of Samuel)
    from game.engine.talks.facts import TalkFacts

    facts = TalkFacts(engine.talk_facts.core)
    said = "I see we're going to be working together soon. What's the plan for the weekend?"
    talk = Conversation("tw", ["Felix Adeyemi", "Samuel Okafor"])
    assert facts.vet(talk, "Felix Adeyemi", said, MONDAY)[1] == "What's the plan for the weekend?"
    hoped = Conversation("tv", ["Felix Adeyemi", "Ines Moreau"])  # "the cafe owner he hopes to work with"
    hope = "I think we're going to be working together soon."
    assert facts.vet(hoped, "Felix Adeyemi", hope, MONDAY)[1] == hope
    crew = Conversation("tx", ["Rosa Brody", "Ines Moreau"])  # barista and owner of one cafe
    assert facts.vet(crew, "Rosa Brody", "We're working together today.", MONDAY)[1] == "We're working together today."


def test_a_trade_is_its_holders_by_the_residents_own_texts(engine):
    # a9a17c8's day: Felix, the baker, "Ines Moreau is a local baker"; Rosa to Ines, "You're doing such a great
    # job baking cookies" (her cafe's cake is a party task; "bakery" in her text is Felix's stall)
    from game.mind.facts.roleslips import trade_given, trades

    lives = engine.talk_facts._points()[1]
    people = list(lives)
    assert trades(lives)["Felix Adeyemi"] == {"baker"} and trades(lives)["Rosa Brody"] == {"barista"}
    assert trade_given("Ines Moreau is a local baker and she is always looking for new customers.",
                       ["Kenji Tanaka"], lives, people) == "Felix is the baker, not Ines"
    assert trade_given("You're doing such a great job baking cookies.", ["Ines Moreau"], lives, people) == \
        "Felix is the baker, not Ines"
    # b61bcdc's day: Rosa, the barista, to Ines, who owns the cafe
    assert trade_given("How's everything going with your barista work?", ["Ines Moreau"], lives, people) == \
        "Rosa is the barista, not Ines"
    assert trade_given("How's your barista work going?", ["Rosa Brody"], lives, people) == ""
    for said, to in (("Felix is a baker.", "Ines Moreau"), ("You're a great baker!", "Felix Adeyemi"),
                     ("Rosa, the barista, made my coffee.", "Ines Moreau"), ("I love baking bread.", "Ines Moreau")):
        assert trade_given(said, [to], lives, people) == "", said


def test_one_in_the_talk_is_not_spoken_of_by_its_trade_as_someone_else():
    from game.mind.facts.roleslips import trade_as_third

    lives = {"Felix Adeyemi": "Felix Adeyemi is a baker who came to Millbrook.",
             "Kenji Tanaka": "Kenji Tanaka is the pharmacist."}
    # Kenji to Felix, the baker; and Felix of himself (7765899's day)
    assert trade_as_third("Hey Felix, I heard about the new baker next door at the market.", "Kenji Tanaka",
                          ["Felix Adeyemi"], lives) == "Felix is the baker, here in the talk"
    assert trade_as_third("What's going on with the new baker?", "Felix Adeyemi", ["Kenji Tanaka"], lives)
    assert trade_as_third("I'm really nervous about this new baker, Ines Moreau.", "Felix Adeyemi", ["Kenji Tanaka"],
                          lives)
    assert trade_as_third("I'm the baker here.", "Felix Adeyemi", ["Kenji Tanaka"], lives) == ""
    assert trade_as_third("Ask the pharmacist.", "Felix Adeyemi", ["Nora Lindqvist"], lives) == ""
    # with two listeners the baker may be spoken of to the other
    assert trade_as_third("Meet the baker.", "Kenji Tanaka", ["Felix Adeyemi", "Nora Lindqvist"], lives) == ""


def test_a_trade_nobody_names_is_of_the_one_whose_text_holds_its_field(engine):
    # 4d3a658's day: Eli to his mother, who keeps Bluebell Cafe; Eli "studies history at Oakhill College"
    from game.mind.facts.roleslips import trade_given

    lives = engine.talk_facts._points()[1]
    people = list(lives)
    said = "I know you're a historian at Oakhill College. Do you know anything about it?"
    assert trade_given(said, ["Ines Moreau"], lives, people) == "Eli is the historian, not Ines"
    assert trade_given("You're a historian at heart, Eli.", ["Eli Moreau"], lives, people) == ""
    assert trade_given("You're a great listener.", ["Ines Moreau"], lives, people) == ""
    assert trade_given("You're a real optimist.", ["Ines Moreau"], lives, people) == ""
