"""Another's thing given to the one spoken to, read on a9a17c8's and d326f2f's days (2026-11-30):
Samuel's music given to Grace twice ("I know you have some experience teaching music", "enjoy the
music and lessons you're giving out"), Hank's store given to the pharmacist ("I heard about your
store", Felix to Kenji).  Each word is someone's when at most two residents' own texts have it."""

from __future__ import annotations

from datetime import datetime

import pytest

from game.engine.build import new_engine
from game.mind.facts.owned import anothers_given, backing_words, owned_words
from game.mind.view import Conversation

from .fakes import scripted_model

MONDAY = datetime(2026, 3, 2, 8, 21)
TEXTS = {
    "Samuel Okafor": "Samuel Okafor taught music at Oakhill College for thirty years. He plays the piano at "
                     "Bluebell Cafe and still gives lessons to a few children in town.",
    "Grace Okafor": "Grace Okafor has been the mayor of Millbrook for eight years. Before that she taught civics "
                    "at Oakhill College. She is preparing for the public debate at the council chamber.",
    "Hank Brody": "Hank Brody owns the hardware store on Main Street. Hank is running for mayor.",
    "Kenji Tanaka": "Kenji Tanaka is the pharmacist at Greenway Market and Pharmacy.",
    "Felix Adeyemi": "Felix Adeyemi is a baker who sells his bread at a stall.",
}
OWNED = owned_words(TEXTS)


def test_a_word_is_owned_by_the_few_whose_texts_have_it():
    assert OWNED["music"] == {"Samuel Okafor"} and OWNED["store"] == {"Hank Brody"}
    assert OWNED["lesson"] == {"Samuel Okafor"}  # ("lessons": the stem)
    assert "college" not in OWNED and "running" not in OWNED  # (a name, a verb form: nobody's thing)
    assert "years" not in OWNED  # common words are no one's


@pytest.mark.parametrize("said, whose", [
    ("I know you have some experience teaching music.", "the music is Samuel's, not Grace's"),
    ("I'm excited to come to Bluebell Cafe and enjoy the music and lessons you're giving out.",
     "the music is Samuel's, not Grace's"),
    ("I heard about your store.", "the store is Hank's, not Grace's"),
])
def test_anothers_thing_said_to_be_the_listeners_is_named(said, whose):
    assert anothers_given(said, ["Grace Okafor"], OWNED, backing_words(TEXTS["Grace Okafor"])) == whose


@pytest.mark.parametrize("said", [
    "I'm here to talk to you about the public debate at the council chamber.",  # "you" an object
    "Do you like my music?",  # a question
    "I'll play the piano for you tonight.",  # the speaker's own, not given
    "I'll be at Samuel's music lesson, see you there.",
    "Your speech at the council chamber was great.",  # the listener's own
    "We could ask Hank about your campaign.",  # a candidacy's words are the candidate's
])
def test_the_speakers_own_the_listeners_own_and_questions_stand(said):
    back = backing_words(TEXTS["Grace Okafor"], "candidate for mayor")
    assert anothers_given(said, ["Grace Okafor"], OWNED, back) == "", said


def test_what_the_talk_or_the_listener_s_day_has_backs_it():
    said = "I heard about your store."
    assert anothers_given(said, ["Grace Okafor"], OWNED, backing_words(TEXTS["Grace Okafor"], "I run a store.")) == ""
    assert anothers_given(said, ["Grace Okafor", "Kenji Tanaka"], OWNED, set()) == ""  # "you" of two: unsaid whom


@pytest.fixture(scope="module")
def engine():
    return new_engine("default", scripted_model({}))


def test_the_talks_check_leaves_out_anothers_thing_given_to_the_listener(engine):
    from game.engine.talks.facts import TalkFacts

    facts = TalkFacts(engine.talk_facts.core)
    talk = Conversation("o1", ["Samuel Okafor", "Grace Okafor"])
    talk.lines.append(("Grace Okafor", "The town budget is running out. Do you have any ideas?"))
    said = "I know you have some experience teaching music. Maybe a small concert at the cafe would help."
    assert facts.vet(talk, "Samuel Okafor", said, MONDAY)[1] == "Maybe a small concert at the cafe would help."
    kenji = Conversation("o2", ["Felix Adeyemi", "Kenji Tanaka"])
    assert facts.vet(kenji, "Felix Adeyemi", "Hello Kenji! I heard about your store.", MONDAY)[1] == "Hello Kenji!"
    hank = Conversation("o3", ["Felix Adeyemi", "Hank Brody"])
    assert facts.vet(hank, "Felix Adeyemi", "Hello Hank! I heard about your store.", MONDAY)[1] == (
        "Hello Hank! I heard about your store.")
