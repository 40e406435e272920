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


def test_a_verb_is_an_act_not_a_thing_of_someone_s():
    # Grace to Ines on eaef4b9's day: "It's great that you're planning to attend." (cut for Priya's "attend")
    owned = owned_words({**TEXTS, "Priya Raman": "Priya Raman studies politics and will attend the seminar."})
    back = backing_words(TEXTS["Grace Okafor"])
    assert anothers_given("It's great that you're planning to attend.", ["Grace Okafor"], owned, back) == ""
    assert anothers_given("I loved your seminar.", ["Grace Okafor"], owned, back) == (
        "the seminar is Priya's, not Grace's")


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


def test_a_fixed_part_of_ones_days_is_ones_own_and_the_talks_check_reads_it(engine):
    # Nora to Kenji on eaef4b9's day: "I heard you were going to the vegetable patches" (her shift's)
    from game.engine.talks.facts import TalkFacts
    from game.mind.facts.owned import own_text

    nora = engine.talk_facts.core.minds["Nora Lindqvist"].persona
    assert "vegetable patches" in own_text(nora)
    facts = TalkFacts(engine.talk_facts.core)
    talk = Conversation("o4", ["Kenji Tanaka", "Nora Lindqvist"])
    said = "Hi Kenji! I heard you were going to the vegetable patches."
    assert facts.vet(talk, "Nora Lindqvist", said, MONDAY)[1] == "Hi Kenji!"


def test_a_word_of_what_is_kept_from_the_speaker_is_not_said_by_it():
    # Grace to Samuel on eaef4b9's day: "Can you come over and help make the cake for the cafe?" (the
    # cake of the party kept from her: Ines makes it)
    from game.mind.facts.owned import hints_by_word, kept_words

    told = ["Samuel Okafor is secretly planning a surprise party for his wife Grace's 60th birthday. Ines Moreau "
            "is lending him Bluebell Cafe and making the cake."]
    kept = kept_words(told, "surprise party for Grace's 60th birthday", TEXTS["Grace Okafor"])
    owned = owned_words({**TEXTS, "Ines Moreau": "Ines runs the cafe and is making the cake."})
    assert hints_by_word("Can you come over and help make the cake for the cafe?", kept, owned)
    assert hints_by_word("It's my birthday soon, you know.", kept, owned) == ""  # the thing's name: hers to say
    assert hints_by_word("I'm preparing for the debate.", kept, owned) == ""


def test_the_talks_check_keeps_the_party_s_cake_from_grace(engine):
    from game.engine.talks.facts import TalkFacts

    facts = TalkFacts(engine.talk_facts.core)
    talk = Conversation("o5", ["Grace Okafor", "Samuel Okafor"])
    said = "Hey, Samuel! I thought I'd have dinner with you tonight. Can you help make the cake for the cafe?"
    kept = facts.vet(talk, "Grace Okafor", said, MONDAY)[1]
    assert kept == "Hey, Samuel! I thought I'd have dinner with you tonight."
    # Samuel, who holds it, may speak of the cake to Rosa, who helps
    helper = Conversation("o6", ["Samuel Okafor", "Rosa Brody"])
    assert "cake" in facts.vet(helper, "Samuel Okafor", "Ines is making the cake for Tuesday.", MONDAY)[1]


def test_the_speaker_spoken_of_as_another_is_not_said():
    # Grace to Nora on eaef4b9's day: "Ines Moreau runs the cafe Grace visits every morning" (her prompt's line)
    from game.mind.facts.slips import self_named

    assert self_named("Ines Moreau runs the cafe Grace visits every morning", "Grace Okafor")
    assert self_named("Hi, I'm Grace. I run the town.", "Grace Okafor") == ""
    assert self_named("Samuel's own surprise party is tomorrow.", "Samuel Okafor") == ""  # (the news, mended later)
    assert self_named("Grace, is that you?", "Grace Okafor") == ""
    # Priya to Samuel on 2bbddfe's day, of herself beside "you"
    assert self_named("I'm visiting with you and Priya, and we'll all eat lunch together.", "Priya Raman")
    assert self_named("You and Samuel should come.", "Priya Raman") == ""
    # Rosa to Felix, a talk of 9d99520's save asked again: "she's cooking lunch for Rosa today"
    assert self_named("I saw Ines, and she's cooking lunch for Rosa today.", "Rosa Brody")
    assert self_named("I want to share it with Rosa and the other customers.", "Rosa Brody")
    assert self_named("I'm cooking lunch for Rosa today.", "Ines Moreau") == ""
    assert self_named("Thanks for asking, Rosa.", "Ines Moreau") == ""


def test_the_talks_check_says_the_speaker_spoken_of_as_another_as_i(engine):
    from game.engine.talks.facts import TalkFacts

    facts = TalkFacts(engine.talk_facts.core)
    talk = Conversation("o7", ["Nora Lindqvist", "Grace Okafor"])
    said = "Hi, Nora! Ines Moreau runs the cafe Grace visits every morning."  # (her relationship's words)
    # mended as the interviews mend it (asme.as_me), not left out, since the play of 2026-12-02
    assert facts.vet(talk, "Grace Okafor", said, MONDAY)[1] == \
        "Hi, Nora! Ines Moreau runs the cafe I visit every morning."
    said = "Hi, Nora! Ines Moreau knows Grace Okafor well."  # (no verb of hers to say as "I")
    assert facts.vet(talk, "Grace Okafor", said, MONDAY)[1] == "Hi, Nora!"


def test_the_holder_does_not_hint_at_it_before_the_one_it_is_kept_from(engine):
    # b299333's morning, Ines, Grace and Samuel at the cafe: Samuel "I'll make sure to be there on time and help
    # out with the cake" (the party's cake, with Grace listening)
    from game.engine.talks.facts import TalkFacts

    facts = TalkFacts(engine.talk_facts.core)
    talk = Conversation("o8", ["Ines Moreau", "Grace Okafor", "Samuel Okafor"])
    said = "Oh, no problem! I'll make sure to be there on time and help out with the cake."
    assert facts.vet(talk, "Samuel Okafor", said, MONDAY)[1] == "Oh, no problem!"
    helpers = Conversation("o9", ["Ines Moreau", "Samuel Okafor"])
    assert facts.vet(helpers, "Samuel Okafor", said, MONDAY)[1] == said  # (Grace not there)


@pytest.mark.parametrize("speaker, said, why", [
    # Kenji, the pharmacist, to Felix, the baker, on 654b82e's day
    ("Kenji Tanaka", "Yes, I need to make sure all the bread is ready to be sold.", "the bread is Felix's to sell"),
    ("Felix Adeyemi", "I need to make sure all the bread is ready to be sold.", ""),  # his own
    ("Kenji Tanaka", "I bought some bread at the stall.", ""),  # bought, not sold
    ("Kenji Tanaka", "Is your bread ready to be sold?", ""),  # a question, of the listener
    ("Kenji Tanaka", "I sold the last of the cough syrup.", ""),  # nobody's word
])
def test_the_speaker_does_not_sell_anothers_goods(speaker, said, why):
    from game.mind.facts.owned import goods_taken

    assert goods_taken(said, speaker, OWNED, backing_words(TEXTS[speaker])) == why
