"""Work said at another's workplace, and a gathering said at a place not its own
(game/mind/facts/workplace.py).  Each case was said on 1703955's whole day (2026-12-01); the default
town's residents and places."""

from __future__ import annotations

from datetime import datetime

import pytest

from game.engine.build import new_engine
from game.mind.facts.fact import TownNames
from game.mind.facts.workplace import gathering_misplaced, work_elsewhere
from game.mind.view import Conversation

from .fakes import scripted_model

MONDAY = datetime(2026, 3, 2, 15, 0)
WORK = {"Ines Moreau": "Bluebell Cafe", "Rosa Brody": "Bluebell Cafe", "Marcus Bell": "The Copper Kettle",
        "Kenji Tanaka": "Greenway Market and Pharmacy", "Felix Adeyemi": "Greenway Market and Pharmacy",
        "Aiko Tanaka": "Oakhill College library", "Eli Moreau": "Oakhill College"}
PLACES = (*sorted(set(WORK.values())), "Willow Park", "Moreau house")
TOWN = TownNames(places=PLACES, people=(*WORK, "Nora Lindqvist"), workplaces=WORK,
                 homes={"Ines Moreau": "Moreau house", "Marcus Bell": "The Copper Kettle"},
                 tasks=(("Nora Lindqvist", "help at Bluebell Cafe"),))
QUIZ = [("a pub quiz", "The Copper Kettle"), ("a surprise party for Grace's 60th birthday", "Bluebell Cafe")]


@pytest.mark.parametrize("speaker, sent, own, why", [
    ("Ines Moreau", "Hello, Kenji! I just wanted to check on the customers at The Copper Kettle.", [], "Ines"),
    ("Felix Adeyemi", "I'm helping out at The Copper Kettle tonight.", [], "Felix"),
    ("Felix Adeyemi", "Rosa is working at The Copper Kettle tonight.", [], "Rosa"),
    ("Ines Moreau", "I'm working at Bluebell Cafe today.", [], ""),  # her own
    ("Kenji Tanaka", "I'm also work at the pharmacy counter.", [], ""),
    ("Ines Moreau", "I saw the customers at The Copper Kettle.", [], ""),  # seen, not served
    ("Felix Adeyemi", "Marcus is working at The Copper Kettle tonight.", [], ""),
    ("Felix Adeyemi", "Would you like to work at The Copper Kettle?", [], ""),  # a question
    ("Eli Moreau", "I'm working on my essay at Oakhill College library.", [], ""),
    ("Felix Adeyemi", "If I worked at The Copper Kettle I'd bake pies.", [], ""),
    ("Felix Adeyemi", "I'm serving pies at The Copper Kettle tonight.", ["serve pies at The Copper Kettle"], ""),
    ("Felix Adeyemi", "Nora is helping out at Bluebell Cafe.", [], ""),  # her task there
    ("Kenji Tanaka", "I'm still working on some orders for Bluebell Cafe.", [], "Kenji"),  # 75fad48's day
    ("Ines Moreau", "I'm working on some orders for Bluebell Cafe.", [], ""),
    ("Ines Moreau", "I just wanted to check on the customers at The Copper Kettle.",
     ["She is furious that Marcus Bell started serving breakfast at The Copper Kettle"], "Ines"),  # his
])
def test_work_at_anothers_workplace_is_backed_by_ones_own_words(speaker, sent, own, why):
    got = work_elsewhere(sent, speaker, TOWN, own)
    assert (why in got and got != "") if why else got == ""


@pytest.mark.parametrize("sent, why", [
    ("Hello Kenji. I'm visiting Greenway Market and Pharmacy today for a pub quiz.", "Greenway Market"),
    ("The pub quiz at Bluebell Cafe is tonight.", "not Bluebell Cafe"),
    ("I've been thinking about this new pub quiz at The Copper Kettle.", ""),
    ("I'll go to Greenway Market before the pub quiz.", ""),
    ("I'm going to Bluebell Cafe for the party tomorrow.", ""),
])
def test_a_gathering_is_said_at_its_own_place(sent, why):
    got = gathering_misplaced(sent, QUIZ, PLACES)
    assert (why in got and got != "") if why else got == ""


def test_the_talks_check_cuts_the_misplaced_sentence_and_keeps_the_rest():
    from game.engine.talks.facts import TalkFacts

    engine = new_engine("default", scripted_model({}))
    facts = TalkFacts(engine.talk_facts.core)
    talk = Conversation("w1", ["Ines Moreau", "Kenji Tanaka"])
    said = facts.vet(talk, "Ines Moreau", "Hello, Kenji! I just wanted to check on the customers at The Copper "
                     "Kettle. The weather is lovely.", MONDAY)[1]
    assert "Copper Kettle" not in said and "weather" in said
    quiz = Conversation("w2", ["Marcus Bell", "Kenji Tanaka"])
    said = facts.vet(quiz, "Marcus Bell", "Hello Kenji. I'm visiting Greenway Market and Pharmacy today for a pub "
                     "quiz.", MONDAY)[1]
    assert "quiz" not in said and said.startswith("Hello Kenji")


@pytest.mark.parametrize("sent, why", [
    ("Hello, Felix! I'm cooking a salad and would love to get your advice.", "cooking"),  # Kenji at lunch
    ("I'm just baking bread for the market.", "baking"),
    ("I'm writing a letter to Aiko.", ""),  # his evening: writing letters
    ("I'm doing well, thanks.", ""),
    ("Are you cooking tonight?", ""),
    ("If I'm cooking, I burn everything.", ""),
])
def test_a_doing_now_is_one_the_speaker_s_day_holds(sent, why):
    from game.mind.facts.workplace import doing_unheld

    got = doing_unheld(sent, ["work at the pharmacy counter", "having lunch", "writing letters at home"])
    assert (why in got and got != "") if why else got == ""


def test_a_gathering_for_another_is_not_said_to_be_for_the_speaker():
    from game.mind.facts.keptfrom import honoured_as_me

    engine = new_engine("default", scripted_model({}))
    rosa = list(engine.talk_facts.core.minds["Rosa Brody"].facts)
    said = "I'm helping Samuel Okafor prepare it for me, the surprise party."
    assert "for Grace, not Rosa" in honoured_as_me(said, "Rosa Brody", rosa)
    assert honoured_as_me("I'm helping Samuel prepare the surprise party for Grace.", "Rosa Brody", rosa) == ""
    before = "I just got a surprise party for Grace's 60th birthday coming up tomorrow."  # her line's first
    assert honoured_as_me("I'm helping Samuel Okafor prepare it for me.", "Rosa Brody", rosa, before)
    assert honoured_as_me("I'm helping Samuel Okafor prepare it for me.", "Rosa Brody", rosa) == ""
    assert honoured_as_me("Thanks for me telling you about the quiz.", "Rosa Brody", rosa) == ""


def test_the_host_is_not_asked_whether_they_heard_of_their_own_gathering():
    """Samuel to Grace at Town Hall at 18:46 on 356ade6's day: "Have you heard anything about the debate at
    Town Hall?" (hers)."""
    from game.mind.facts.keptfrom import host_asked_if_heard

    engine = new_engine("default", scripted_model({}))
    samuel = list(engine.talk_facts.core.minds["Samuel Okafor"].facts)
    said = "Have you heard anything about the debate at Town Hall?"
    assert "asks Grace Okafor whether they heard of their own" in host_asked_if_heard(said, ["Grace Okafor"], samuel)
    assert host_asked_if_heard(said, ["Priya Raman"], samuel) == ""  # not hers
    assert host_asked_if_heard("I heard about the debate at Town Hall.", ["Grace Okafor"], samuel) == ""
    # the talks' check cuts it, and keeps the rest
    talk = Conversation("d1", ["Samuel Okafor", "Grace Okafor"], place="Town Hall:council chamber")
    line = "Oh, that's good to know. Have you heard anything about the debate at Town Hall?"
    assert engine.talk_facts.vet(talk, "Samuel Okafor", line, MONDAY)[1] == "Oh, that's good to know."


def test_where_the_speaker_says_it_is_is_where_the_talk_is():
    from game.mind.facts.workplace import here_elsewhere

    shop = "Brody's Supply Store:shop floor"  # Hank to Marcus at Hank's store, 75fad48's day
    assert "not The Copper Kettle" in here_elsewhere("I'm already in The Copper Kettle, so I'll check in later.", shop,
                                                     PLACES + ("Brody's Supply Store",))
    assert here_elsewhere("I'm at Brody's Supply Store all day.", shop, PLACES + ("Brody's Supply Store",)) == ""
    assert here_elsewhere("I'm in The Copper Kettle.", "", PLACES) == ""  # a talk in the street
    pub = "The Copper Kettle:pub:bar counter"  # Hank to Marcus at the pub's bar, 654b82e's day
    assert here_elsewhere("Hi Marcus! I'm walking to The Copper Kettle now.", pub, PLACES) == \
        "the talk is at The Copper Kettle already"
    assert here_elsewhere("I'm going to The Copper Kettle tonight for the quiz.", pub, PLACES) == ""
    cafe = "Bluebell Cafe:cafe:cafe counter"  # Samuel to Ines of his party, at her cafe (dayT's)
    assert here_elsewhere("I'm planning a surprise, and I'm going to use Bluebell Cafe.", cafe, PLACES) == ""
    assert here_elsewhere("I'm heading over to the Bluebell Cafe.", cafe, PLACES) == \
        "the talk is at Bluebell Cafe already"


def test_a_doing_said_as_now_is_where_the_talk_is_and_with_whom():
    """a0d10dc's day: Samuel in the college library at 14:33, "I'm playing the piano at Bluebell Cafe right now"
    (his plan's block); Kenji to Grace at 18:29, "I'm sitting with Eli Moreau in the lobby" (Eli was at home)."""
    from game.mind.facts.workplace import here_elsewhere, with_absent

    library = "Oakhill College library:reading room"
    places = PLACES + ("Oakhill College library",)
    line = "Hello, Eli. I'm playing the piano at Bluebell Cafe right now."
    assert here_elsewhere(line, library, places) == "the talk is at Oakhill College library, not Bluebell Cafe"
    assert here_elsewhere(line, "Bluebell Cafe:cafe:piano", places) == ""  # where it is said
    for fine in ("I'm playing the piano at Bluebell Cafe this afternoon.", "I'm playing the piano at Bluebell Cafe.",
                 "Are you playing the piano at Bluebell Cafe right now?"):
        assert here_elsewhere(fine, library, places) == "", fine
    people = ("Eli Moreau", "Grace Okafor", "Kenji Tanaka")
    assert with_absent("Hello, Grace! I'm sitting with Eli Moreau in the lobby.", ["Grace Okafor"], people) == \
        "Eli Moreau is not here"
    assert with_absent("I'm sitting with Eli right now.", ["Eli Moreau"], people) == ""  # in the talk
    for fine in ("I'm having lunch with Eli tomorrow.", "Are you sitting with Eli?", "I'm sitting with Tom Reed."):
        assert with_absent(fine, ["Grace Okafor"], people) == "", fine


def test_a_doing_of_home_is_not_said_as_now_away_from_home():
    """Eli at the college library at 16:39 on 2c4c6ac's day: "I'm watching TV too" (his plan's next
    step, at home)."""
    from game.mind.facts.workplace import here_elsewhere

    library, home = "Oakhill College:library", "Moreau house"
    assert here_elsewhere("Hey, Aiko! I'm watching TV too.", library, PLACES, home) == \
        "watching TV is done at home, the talk is at Oakhill College"
    assert here_elsewhere("I'm also taking a nap.", library, PLACES, home)
    assert here_elsewhere("I'm watching TV too.", "Moreau house:living room", PLACES, home) == ""  # at home
    assert here_elsewhere("I'm watching TV later tonight.", library, PLACES, home) == ""
    assert here_elsewhere("Are you watching TV?", library, PLACES, home) == ""
    assert here_elsewhere("I'm watching TV too.", library, PLACES) == ""  # no home known


def test_back_from_work_is_not_said_at_work():
    """Rosa behind the counter of her cafe at 07:34 on 356ade6's day: "Just got back from work"."""
    from game.mind.facts.workplace import here_elsewhere

    counter = "Bluebell Cafe:cafe:behind the counter"
    assert here_elsewhere("I'm feeling good too. Just got back from work.", counter, PLACES, "Brody house",
                          "Bluebell Cafe") == "back from work said at its workplace, Bluebell Cafe"
    home = "Moreau house:kitchen"
    assert here_elsewhere("Just got back from work.", home, PLACES, "Moreau house", "Bluebell Cafe") == ""
    assert here_elsewhere("Did you just get back from work?", counter, PLACES, "", "Bluebell Cafe") == ""


def test_a_campaign_is_said_to_be_one_of_a_candidate_s_own():
    from game.mind.facts.workplace import campaign_given

    town = TownNames(roles={"Hank Brody": ("candidate for mayor",), "Grace Okafor": ("mayor", "candidate for mayor")})
    said = "I think you might want to update your campaign posters in The Copper Kettle."  # Hank to Marcus
    assert campaign_given(said, ["Marcus Bell", "Priya Raman"], town)
    assert campaign_given("How is your campaign going?", ["Hank Brody"], town) == ""
    # Marcus to Hank of Hank's posters, 74bd764's day: a campaign of one's own is a candidate's
    said = "I know, it was important for my campaign posters to be up there."
    assert campaign_given(said, ["Hank Brody"], town, "Marcus Bell") == "Marcus runs for nothing"
    assert campaign_given("My campaign posters are up at the pub.", ["Marcus Bell"], town, "Hank Brody") == ""
    # Hank, asked of a gathering, of the posters Marcus promised to put up for him (654b82e's save)
    town = TownNames(people=("Hank Brody", "Marcus Bell"), roles=town.roles)
    said = "Marcus Bell is hosting it, and he has promised to put Marcus's campaign posters up in The Copper Kettle."
    assert campaign_given(said, [], town, "Hank Brody") == "Marcus runs for nothing"
    assert campaign_given("Marcus put Hank's campaign posters up.", [], town, "Rosa Brody") == ""
    assert campaign_given("How is your campaign going?", [], town, "Rosa Brody") == ""  # (no listener)


@pytest.mark.parametrize("speaker, sent, before, why", [
    ("Samuel Okafor", "I'll make it for Grace and Rosa will help with it.", "I'm hoping you can help me with the cake.",
     "Ines is to make the cake"),  # 75fad48's day
    ("Samuel Okafor", "I'm decorating Bluebell Cafe tomorrow.", "", "Rosa is to decorate"),
    ("Ines Moreau", "I'll make the cake tonight.", "", ""),
    ("Samuel Okafor", "I'll make sure the cake is ready.", "", ""),
    ("Samuel Okafor", "I'll make it to the party.", "We talked about the debate.", ""),
])
def test_a_gathering_s_task_is_done_by_the_one_the_town_gives_it(speaker, sent, before, why):
    from game.mind.facts.workplace import task_taken

    tasks = (("Ines Moreau", "lend Bluebell Cafe"), ("Ines Moreau", "make the cake"),
             ("Rosa Brody", "decorate Bluebell Cafe"))
    got = task_taken(sent, before, speaker, tasks)
    assert (why in got and got != "") if why else got == ""


def test_a_call_and_a_meal_another_day_are_held_to_what_the_speaker_holds():
    from game.mind.facts.madeup import meeting_unheld
    from game.mind.facts.pasttalk import talks_claimed

    people = ["Marcus Bell", "Priya Raman", "Grace Okafor"]
    assert talks_claimed("Morning! I just got a call from Marcus Bell.", people) == ["Marcus Bell"]  # Ines's
    assert talks_claimed("Marcus called me this morning.", people) == ["Marcus Bell"]
    said = "I'm planning to have dinner with Priya at the dining table of the Okafor house next week."  # Grace's
    assert meeting_unheld(said, [], people)
    assert meeting_unheld("I'll have lunch with Priya tomorrow.", ["Priya: lunch tomorrow at the cafe"], people) == ""


def test_the_day_s_lines_are_cut_in_the_talk():
    from game.engine.talks.facts import TalkFacts

    engine = new_engine("default", scripted_model({}))
    facts = TalkFacts(engine.talk_facts.core)
    morning = datetime(2026, 3, 2, 6, 49)
    talk = Conversation("v1", ["Grace Okafor", "Ines Moreau"], place="Bluebell Cafe:cafe")
    said = facts.vet(talk, "Ines Moreau", "Morning, Grace! I just got a call from Marcus Bell. I'm good.", morning)[1]
    assert "call" not in said and "I'm good" in said
    store = Conversation("v2", ["Hank Brody", "Marcus Bell"], place="Brody's Supply Store:shop floor")
    said = facts.vet(store, "Hank Brody", "Afternoon, Marcus! I'm already in The Copper Kettle, so I'll check in "
                     "later.", MONDAY)[1]
    assert "Copper Kettle" not in said and said.startswith("Afternoon, Marcus")


def test_one_s_own_work_or_gathering_is_not_denied():
    # the player asked Marcus, in his pub, whether he hosts tonight's quiz (48faeb3): "No, I'm not running this pub."
    from datetime import date

    from game.mind.facts.fact import Fact
    from game.mind.facts.workplace import work_denied

    quiz = Fact(key="marcus-bell:quiz", kind="gathering", what="a pub quiz", host="Marcus Bell",
                place="The Copper Kettle", day=date(2026, 3, 2), start=20 * 60, end=22 * 60)
    pub = "The Copper Kettle:pub:bar counter"
    for said in ("No, I'm not running this pub.", "I'm not hosting a quiz tonight.", "I am not working here."):
        assert work_denied(said, "Marcus Bell", pub, "The Copper Kettle:pub", [quiz]), said
    for fine in ("I'm not running late.", "I'm not working at the cafe.", "I'm not hosting anything else."):
        assert work_denied(fine, "Marcus Bell", pub, "The Copper Kettle:pub", [quiz]) == "", fine
    assert work_denied("I'm not running this pub.", "Hank Brody", pub, "Brody's Supply Store:shop floor", []) == ""


def test_a_block_of_the_day_is_not_said_as_done_before_it_begins():
    """The interviews' rule (facts/hours.py) in a talk: a block said as done for hours, or as what the
    speaker was doing, before it begins (Hank's "working behind the counter ... for the last few hours" at
    06:20, his shift from 08:00); once it has begun it stands, and so does what another day held."""
    from datetime import date

    from game.mind.view import DayPlan, PlanBlock

    engine = new_engine("default", scripted_model({}))
    hank = engine.talk_facts.core.minds["Hank Brody"]
    blocks = (PlanBlock(5 * 60 + 30, 8 * 60, "wake up and have breakfast", kind="wake"),
              PlanBlock(8 * 60, 17 * 60, "work behind the counter of the supply store", kind="work"))
    hank.agenda.start_day(DayPlan(1, 5 * 60 + 30, 22 * 60, blocks), date(2026, 3, 2))
    line = "Morning, Nora. I have been working behind the counter for the last few hours. How are you?"
    talk = Conversation("b1", ["Hank Brody", "Nora Lindqvist"])
    early, late = datetime(2026, 3, 2, 6, 20), datetime(2026, 3, 2, 11, 20)
    assert engine.talk_facts.vet(talk, "Hank Brody", line, early)[1] == "Morning, Nora. How are you?"
    assert engine.talk_facts.vet(Conversation("b2", ["Hank Brody", "Nora Lindqvist"]), "Hank Brody", line,
                                 late)[1] == line
    yesterday = "Morning, Nora. I was working behind the counter yesterday. How are you?"
    assert engine.talk_facts.vet(Conversation("b3", ["Hank Brody", "Nora Lindqvist"]), "Hank Brody", yesterday,
                                 early)[1] == yesterday


def test_news_heard_in_the_talk_is_not_given_a_host_or_place_the_talk_did_not_say():
    """Nora at 06:52 on a dawn of 0e42de2 (2026-12-02): Ines had asked only about "the surprise party for
    Grace's 60th birthday", and Nora answered with its host and place."""
    engine = new_engine("default", scripted_model({}))
    at = datetime(2026, 3, 2, 6, 52)
    talk = Conversation("n1", ["Ines Moreau", "Nora Lindqvist"], place="Bluebell Cafe:cafe", started=at)
    asked = ("So, what's happening with the surprise party for Grace's 60th birthday tomorrow? Is anyone planning "
             "anything?")
    who, said = engine.talk_facts.vet(talk, "Ines Moreau", asked, at)
    talk.add(who, said)
    assert engine.talk_facts.core.minds["Nora Lindqvist"].facts.holds(
        next(iter(engine.talk_facts.core.minds["Ines Moreau"].facts)).key)
    line = ("Yes, Samuel Okafor has a surprise party planned for Grace's 60th birthday. I can't wait to hear what he "
            "has in store for everyone.")
    said = engine.talk_facts.vet(talk, "Nora Lindqvist", line + " Thanks for asking, Ines.", at)[1]
    assert said == "Thanks for asking, Ines."
    # said by the host, it was said
    talk2 = Conversation("n2", ["Samuel Okafor", "Nora Lindqvist"], place="Willow Park", started=at)
    talk2.add(*engine.talk_facts.vet(talk2, "Samuel Okafor", "I'm planning a surprise party for Grace's 60th "
                                     "birthday. Please keep it quiet!", at))
    line2 = "Of course! Samuel Okafor's surprise party for Grace's 60th birthday sounds lovely."
    assert "surprise party for Grace's 60th birthday sounds lovely" in engine.talk_facts.vet(
        talk2, "Nora Lindqvist", line2, at)[1]
