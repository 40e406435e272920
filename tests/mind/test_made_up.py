"""An event or a plan for tomorrow that a talk's line makes up, read on e01221a's day (2026-11-30):
Priya's "garden party scheduled for next week" (the town has a surprise party, and "party" alone was
backed by it) and Rosa's "cook breakfast for everyone at Bluebell Cafe tomorrow" (her days are the
counter); and 2bbddfe's "Ines is going to talk with me tomorrow about the surprise party", said by
Rosa and then by Samuel, of a talk neither held."""

from __future__ import annotations

import pytest

from game.mind.facts.madeup import made_up_event, meeting_unheld, tomorrow_unheld, written_about_unheld

HELD = ["Samuel Okafor is planning a surprise party for Grace's 60th birthday at Bluebell Cafe.",
        "Marcus Bell is hosting a pub quiz at The Copper Kettle tonight.",
        "Samuel Okafor is inviting people to Grace's surprise party (the garden of the Okafor house)",
        "Grace Okafor is preparing for the public debate at Town Hall on Wednesday."]
PLACES = ["Bluebell Cafe", "The Copper Kettle", "Town Hall", "Greenway Market and Pharmacy"]


@pytest.mark.parametrize("said", [
    "I know there's a garden party scheduled for next week.",
    "We are having a book fair at the library on Friday.",
    "I'm off to the town meeting.",  # ("town" says no event: a meeting nothing holds)
])
def test_an_event_nothing_held_has_is_named(said):
    assert made_up_event(said, HELD).startswith("an event nothing it holds has")


@pytest.mark.parametrize("said", [
    "I'll be at the surprise party at Bluebell Cafe.",
    "Are you coming to the pub quiz tonight?",
    "Is there a garden party this week?",  # a question asks
    "Good luck with the public debate on Wednesday.",
    "It will be a big party!",  # ("big" says no event: the party is held)
    "I was just thinking about my day.",
    "Maybe a small concert at the cafe would help.",  # put forward
])
def test_an_event_held_or_asked_about_is_let_be(said):
    assert made_up_event(said, HELD) == ""


def test_a_place_in_brackets_names_no_event():
    assert made_up_event("There's a garden party at the Okafor house.", HELD[2:3]) != ""


DAYS = ["work behind the counter at Bluebell Cafe.", "paint in the evening.",
        "Samuel Okafor's surprise party for Grace's 60th birthday at Bluebell Cafe (Samuel Okafor)"]


def test_a_plan_for_tomorrow_is_the_speakers_days_or_what_it_holds_of_tomorrow():
    said = "Hi Ines! I'm going to cook breakfast for everyone at Bluebell Cafe tomorrow."
    assert tomorrow_unheld(said, DAYS, PLACES) == ("not in its days: cook breakfast for everyone at Bluebell Cafe"
                                                   " tomorrow")
    assert tomorrow_unheld("I'm going to work at Bluebell Cafe tomorrow.", DAYS, PLACES) == ""
    assert tomorrow_unheld("I'm planning to help with the surprise party tomorrow.", DAYS, PLACES) == ""
    assert tomorrow_unheld("I'm going to paint tomorrow.", DAYS, PLACES) == ""
    assert tomorrow_unheld("I'm going to cook breakfast today.", DAYS, PLACES) == ""  # (today: the plan's rule)
    # "I'll ..." too (Felix's, a talk of 9d99520's save asked again); "I'll see you tomorrow" says no plan
    assert tomorrow_unheld("I'll check with him tomorrow to see if he can help.", DAYS, PLACES) != ""
    assert tomorrow_unheld("I'll see you tomorrow!", DAYS, PLACES) == ""
    # "I was planning to ..." too (Samuel to Grace on 356ade6's day)
    assert tomorrow_unheld("I was planning to join you tomorrow morning.", DAYS, PLACES) == \
        "not in its days: join you tomorrow"
    assert tomorrow_unheld("I was planning to paint tomorrow.", DAYS, PLACES) == ""
    assert tomorrow_unheld("I'll be there tomorrow.", DAYS, PLACES) == ""
    assert tomorrow_unheld("I will paint tomorrow evening.", DAYS, PLACES) == ""


def test_the_talks_check_drops_a_made_up_event_and_a_plan_for_tomorrow():
    """In the default town, as the engine vets a line (no model call)."""
    from datetime import datetime

    from game.engine.build import new_engine
    from game.mind.view import Conversation

    from .fakes import scripted_model

    engine = new_engine("default", scripted_model({}))
    now = datetime(2026, 3, 2, 9, 22)
    talk = Conversation("t1", ["Grace Okafor", "Priya Raman"])
    said = "Hi Grace! I'm here. I know there's a garden party scheduled for next week."
    assert engine.talk_facts.vet(talk, "Priya Raman", said, now)[1] == "Hi Grace! I'm here."
    talk = Conversation("t2", ["Rosa Brody", "Ines Moreau"])
    said = "Hi Ines! I'm going to cook breakfast for everyone at Bluebell Cafe tomorrow. I hope you're ready."
    assert engine.talk_facts.vet(talk, "Rosa Brody", said, now)[1] == "Hi Ines! I hope you're ready."
    said = "Hi Ines! I'm going to work at Bluebell Cafe tomorrow."
    assert engine.talk_facts.vet(Conversation("t3", ["Rosa Brody", "Ines Moreau"]), "Rosa Brody", said, now)[1] == said


PEOPLE = ["Ines Moreau", "Hank Brody", "Eli Moreau", "Rosa Brody", "Samuel Okafor"]


@pytest.mark.parametrize("said", [
    "Ines is going to talk with me tomorrow about the surprise party.",
    "I'm meeting Hank on Friday.",
    "Eli and I will catch up tomorrow.",
    "I'll talk to Hank tomorrow about it.",
])
def test_a_meeting_another_day_nothing_holds_is_named(said):
    assert meeting_unheld(said, HELD, PEOPLE).startswith("a meeting with ")


@pytest.mark.parametrize(("said", "held"), [
    ("I'm going to talk with Ines tomorrow.", ["Ines Moreau: Can we meet tomorrow at noon?"]),
    ("I'll see Samuel tomorrow.", ["Grace's surprise party (Samuel Okafor) on Tuesday March 3"]),
    ("Maybe I'll see Hank tomorrow.", []),  # put forward
    ("Are you meeting Hank on Friday?", []),  # asked
    ("I talked with Ines yesterday.", []),  # (the past: pasttalk.py's)
    ("She is going to talk with me tomorrow.", []),  # (no name)
    ("I'm meeting Zed tomorrow.", []),  # (not the town's: unbacked.py's)
])
def test_a_meeting_held_asked_or_put_forward_is_let_be(said, held):
    assert meeting_unheld(said, held, PEOPLE) == ""


def test_news_whose_words_were_not_said_is_not_heard():
    """9d99520's day: Ines's "I noticed you mentioned Samuel Okafor's surprise party tomorrow" was not said
    (Felix had said nothing of it), and yet Felix and Marcus heard of the party from it."""
    from datetime import datetime

    from game.engine.build import new_engine
    from game.mind.view import Conversation

    from .fakes import scripted_model

    engine = new_engine("default", scripted_model({}))
    now = datetime(2026, 3, 2, 11, 53)
    talk = Conversation("t1", ["Felix Adeyemi", "Ines Moreau", "Marcus Bell"],
                        lines=[("Felix Adeyemi", "Hello, Ines! Would Bluebell Cafe sell my bread?")])
    said = ("Hello, Felix! I'd be happy to talk about that. I noticed you mentioned Samuel Okafor's surprise "
            "party tomorrow, which is on March 3 at 18:00 to 21:00.")
    _, text = engine.talk_facts.vet(talk, "Ines Moreau", said, now)
    assert "party" not in text
    assert not [f for p in ("Felix Adeyemi", "Marcus Bell") for f in engine.core.minds[p].facts if "party" in f.what]
    told = "Samuel Okafor is hosting a surprise party for Grace's 60th birthday here tomorrow."
    _, text = engine.talk_facts.vet(Conversation("t2", ["Ines Moreau", "Marcus Bell"]), "Ines Moreau", told, now)
    assert "party" in text and [f for f in engine.core.minds["Marcus Bell"].facts if "party" in f.what]


def test_a_meal_with_named_people_nothing_holds_is_made_up_one_at_home_is_not():
    from game.mind.facts.madeup import meal_unheld

    people = ["Samuel Okafor", "Priya Raman", "Rosa Brody", "Grace Okafor"]
    said = "I'm having lunch with Priya and Rosa."  # Samuel to Felix, 75fad48's day: his lunch is with no one
    assert meal_unheld(said, ["having lunch", "Samuel Okafor is a retired music teacher."], people) == \
        "a meal with Priya nothing it holds has"
    assert meal_unheld(said, ["lunch with Priya and Rosa at Bluebell Cafe"], people) == ""
    assert meal_unheld("We had dinner with Grace.", ["Grace Okafor: his wife"], people) == ""  # his household
    assert meal_unheld("Maybe we could have lunch with Rosa?", [], people) == ""


def test_a_book_about_a_place_of_the_town_is_one_the_speaker_holds():
    """Aiko at the library on 356ade6's day: "I was actually reading a book about the history of Bluebell Cafe"."""
    names = ["Bluebell Cafe", "Oakhill College library", "Grace Okafor"]
    own = ["Aiko Tanaka is organizing a book fair in the library.", "Aiko keeps an article about Grace Okafor."]
    said = "I was actually reading a book about the history of Bluebell Cafe, where the party is."
    assert written_about_unheld(said, own, names) == "a book about Bluebell Cafe"
    assert written_about_unheld("I'm reading a book about gardening.", own, names) == ""  # nothing of the town
    assert written_about_unheld("I found that article about Grace Okafor again.", own, names) == ""  # hers
