"""One a gathering is kept from, said to know of it or talk it over (game/mind/facts/keptfrom.py):
Samuel's answers on 1703955's save (2026-12-01), of Grace's surprise party."""

from __future__ import annotations

from datetime import datetime

import pytest

from game.engine.build import new_engine
from game.mind.facts.keptfrom import kept_one_in_the_know
from game.mind.facts.parts import parts_unbacked
from game.mind.facts.unbacked import sentences
from game.mind.view import Conversation

from .fakes import scripted_model

MONDAY = datetime(2026, 3, 2, 15, 0)


@pytest.fixture(scope="module")
def engine():
    return new_engine("default", scripted_model({}))


@pytest.mark.parametrize("answer, flagged", [
    ("I talked with Grace Okafor tomorrow, discussing plans for their surprise party for Grace's 60th birthday at "
     "Bluebell Cafe.", 1),
    ("I would choose Grace Okafor. She is the love of my life. She is also interested in my plans for the surprise "
     "party, and I would want to hear about it.", 1),
    ("Grace told me she is excited about the surprise party.", 1),
    ("I'm hosting a surprise party for Grace's 60th birthday at Bluebell Cafe tomorrow.", 0),
    ("At 10:00 my plan is: invite people to Grace's surprise party without Grace finding out.", 0),
    ("I'm planning a surprise party for Grace. She doesn't know about it yet.", 0),
    ("I told Rosa and Ines about the surprise party; Grace has no idea.", 0),
    ("My most important thing is the surprise party for my wife Grace's 60th birthday. I want it to be special.", 0),
    ("I talked with Grace about the public debate. Rosa is helping me with the surprise party.", 0),
])
def test_the_one_it_is_kept_from_neither_knows_nor_talks_of_it(engine, answer, flagged):
    samuel = engine.talk_facts.core.minds["Samuel Okafor"]
    town = engine.talk_facts.core.town_names
    got = kept_one_in_the_know(sentences(answer), list(samuel.facts), town.people)
    assert len(got) == flagged
    assert all("Grace must not know" in why for _, why in got)
    said = [s for s, _ in parts_unbacked(answer, "Samuel Okafor", town, samuel.facts)]  # the interview's check
    assert [s for s, _ in got if s not in said] == []


def test_a_talk_line_that_has_her_know_is_not_said(engine):
    from game.engine.talks.facts import TalkFacts

    facts = TalkFacts(engine.talk_facts.core)
    talk = Conversation("k1", ["Samuel Okafor", "Rosa Brody"])
    talk.lines.append(("Rosa Brody", "How is Grace these days?"))
    said = facts.vet(talk, "Samuel Okafor", "She is very excited about the surprise party. The weather is fine.",
                     MONDAY)[1]
    assert "excited" not in said and "weather" in said


def test_news_heard_just_now_is_not_said_to_be_long_awaited():
    from game.mind.facts.slips import news_as_known

    said = "I've been looking forward to it for ages too."  # Priya, told of the party in that talk
    assert news_as_known(said, True) == ""
    assert news_as_known(said, False) == said  # (known before: let be)
    assert news_as_known("Yes, I know about the party.", True) == "No, I hadn't heard about the party."
    assert news_as_known("I'm so glad you're going to be there.", True) == "I'm so glad you're going to be there."


def test_the_host_does_not_ask_what_his_own_surprise_is(engine):
    from game.mind.facts.slips import held_as_unheard

    samuel = list(engine.talk_facts.core.minds["Samuel Okafor"].facts)
    said = "Oh, that sounds exciting! Can you let me know what the surprise is?"  # Samuel to Felix, 75fad48's day
    assert "the speaker's own" in held_as_unheard(said, "Samuel Okafor", samuel)
    assert held_as_unheard("Can you let me know what the weather is?", "Samuel Okafor", samuel) == ""
