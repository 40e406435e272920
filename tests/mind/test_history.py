"""A talk's filler held to the town (game/mind/facts/history.py): a time apart from one the speaker
lives or works with, an arrival nobody's life tells of, a reason to be here nothing of the speaker's
day holds.  Each case was said on 9d99520's whole day (2026-12-01); the default town's residents."""

from __future__ import annotations

from datetime import datetime

import pytest

from game.engine.build import new_engine
from game.mind.facts.history import apart_unheld, arrival_unheld, helping_unheld, own_place_visited, reason_unheld
from game.mind.view import Conversation

from .fakes import scripted_model

MONDAY = datetime(2026, 3, 2, 13, 0)
HOMES = {"Kenji Tanaka": "Tanaka house", "Aiko Tanaka": "Tanaka house", "Grace Okafor": "Okafor house"}
WORK = {"Ines Moreau": "Bluebell Cafe", "Rosa Brody": "Bluebell Cafe", "Grace Okafor": "Town Hall"}


def _names(got: str, why: str) -> bool:
    """The rule's reason names ``why``, or it finds none when ``why`` is ""."""
    return why in got and got != "" if why else got == ""


@pytest.fixture(scope="module")
def engine():
    return new_engine("default", scripted_model({}))


@pytest.mark.parametrize("speaker, listener, sent, why", [
    ("Kenji Tanaka", "Aiko Tanaka", "Hello, Aiko! It's been a while since we've talked.", "lives with"),
    ("Ines Moreau", "Rosa Brody", "We haven't talked in ages, Rosa.", "works with"),
    ("Grace Okafor", "Eli Moreau", "Long time no see, Eli!", "seen lately"),
    ("Grace Okafor", "Rosa Brody", "It's been a while since we've talked.", ""),  # nothing says otherwise
    ("Kenji Tanaka", "Aiko Tanaka", "Has it been a while since you ate?", ""),  # a question
    ("Kenji Tanaka", "Aiko Tanaka", "It's been a long day at the pharmacy.", ""),
])
def test_a_time_apart_is_not_said_to_one_the_speaker_lives_works_or_talked_with(speaker, listener, sent, why):
    talked = ["Eli Moreau"]  # the speaker's talks of late
    got = apart_unheld(sent, [listener], speaker, HOMES, WORK, talked)
    assert _names(got, why)


LIVES = {"Nora Lindqvist": "Nora Lindqvist is a retired teacher who has lived in Millbrook all her life. "
                           "Nora Lindqvist has a new lodger, Felix Adeyemi. "  # (his newness, not hers: 75fad48)
                           "Felix Adeyemi: the new baker who moved here.",
         "Felix Adeyemi": "Felix Adeyemi moved to Millbrook two weeks ago to open a bakery."}
PEOPLE = ("Nora Lindqvist", "Felix Adeyemi", "Grace Okafor")


@pytest.mark.parametrize("sent, listener, why", [
    ("I've been here since you moved in, and I've heard everything.", "Nora Lindqvist", "Nora's life"),
    ("I've been here since you moved in.", "Felix Adeyemi", ""),
    ("Nora has been kind since Felix arrived.", "Nora Lindqvist", ""),
    ("You're new here, aren't you.", "Nora Lindqvist", "Nora's life"),
    ("I know you're new here, but I'm glad to have you.", "Nora Lindqvist", "Nora's life"),  # Kenji's
    ("When did you move in?", "Nora Lindqvist", ""),
])
def test_an_arrival_is_one_the_life_of_the_one_who_arrived_tells(sent, listener, why):
    got = arrival_unheld(sent, "Grace Okafor", [listener], PEOPLE, LIVES)
    assert _names(got, why)


@pytest.mark.parametrize("sent, why", [
    ("Hey Kenji, I'm here to help you with your inventory.", "inventory"),
    ("I came by to drop off the bread for the shelf.", ""),
    ("I'm here to see you, Kenji.", ""),
    ("I'm just here to buy some flour.", ""),
    ("Are you here to help with the inventory?", ""),
])
def test_a_reason_to_be_here_is_one_the_speaker_s_day_holds(sent, why):
    held = ["deliver fresh bread to Greenway Market's shelf", "buy flour and yeast",
            "Felix Adeyemi is the new baker opening Rise & Shine bakery."]
    got = reason_unheld(sent, held)
    assert _names(got, why)


@pytest.mark.parametrize("sent, why", [
    ("It's Monday too, and I'm visiting the cafe too.", "Bluebell Cafe"),
    ("I'm visiting Bluebell Cafe today.", "Bluebell Cafe"),
    ("I'm visiting the park today.", ""),
    ("Are you visiting the cafe?", ""),
])
def test_a_visit_is_to_a_place_not_the_speaker_s_own(sent, why):
    got = own_place_visited(sent, ["Bluebell Cafe", "Moreau house"])
    assert _names(got, why)


@pytest.mark.parametrize("sent, why", [
    ("Yeah, I've been helping out with the pharmacy.", "pharmacy"),
    ("I'm helping with the surprise party.", "surprise party"),
    ("I've been helping out at the pub all day.", ""),
    ("I'm helping with the pub quiz tonight.", ""),
    ("Are you helping with the pharmacy?", ""),
])
def test_help_the_speaker_gives_is_its_own_work(sent, why):
    own = ["run the pub quiz at The Copper Kettle", "Marcus Bell took over The Copper Kettle pub from his uncle."]
    got = helping_unheld(sent, own)
    assert _names(got, why)


@pytest.mark.parametrize("sent, why", [
    ("I'm paying the bill for Hank Brody.", "Hank Brody"),  # Kenji, the pharmacist, to Felix: 2c4c6ac's day
    ("I'm just picking up some nails for Hank.", "Hank Brody"),
    ("I'm picking up medicine for Rosa.", ""),  # his own words name her
    ("I'm baking a cake for Grace's party.", ""),  # (whose party: the gathering rules read it)
    ("I'm making coffee for Felix.", ""),  # the listener
    ("Are you paying for Hank?", ""),
])
def test_an_errand_for_a_third_is_the_speaker_s_own(sent, why):
    own = ["work at the pharmacy counter", "Kenji Tanaka is a friend of Rosa Brody."]
    got = helping_unheld(sent, own, ["Hank Brody", "Rosa Brody", "Grace Okafor"])
    assert _names(got, why)


@pytest.mark.parametrize("sent, why", [
    ("I'm also helping Felix Adeyemi prepare his new bakery stall.", "Felix Adeyemi"),  # Rosa, 356ade6's day
    ("I'm helping Samuel Okafor prepare it.", ""),  # "Rosa Brody is helping Samuel Okafor prepare ..."
    ("I'm helping Hank with his notes.", ""),  # "volunteers for Hank Brody's campaign"
    ("Are you helping Felix?", ""),
])
def test_help_for_a_third_is_held_by_a_sentence_of_the_speaker_s_own_with_them(sent, why):
    own = ["Rosa Brody is helping Samuel Okafor prepare Grace's surprise party.",
           "She has a growing crush on Felix Adeyemi, the new baker.", "She volunteers for Hank Brody's campaign"]
    got = helping_unheld(sent, own, ["Felix Adeyemi", "Samuel Okafor", "Hank Brody"])
    assert _names(got, why)


def test_the_talks_check_cuts_the_filler_and_keeps_the_rest(engine):
    from game.engine.talks.facts import TalkFacts

    facts = TalkFacts(engine.talk_facts.core)
    talk = Conversation("h1", ["Kenji Tanaka", "Aiko Tanaka"])
    said = facts.vet(talk, "Kenji Tanaka", "Hello, Aiko! It's been a while since we've talked. Lunch was good.",
                     MONDAY)[1]
    assert said == "Hello, Aiko! Lunch was good."
    shop = Conversation("h2", ["Felix Adeyemi", "Kenji Tanaka"])
    said = facts.vet(shop, "Felix Adeyemi", "Hey Kenji, I'm here to help you with your inventory. Nice day.",
                     MONDAY)[1]
    assert "inventory" not in said and "Nice day" in said
