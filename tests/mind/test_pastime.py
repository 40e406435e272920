"""What a resident does in its free time, from its records (game/mind/interview/pastime.py).  On
d2ec812's whole day, Rosa (who paints) and Samuel (who practises the song he wrote for Grace)
answered the paper's "What do you like to do in your free time?" with "I don't know"."""

from __future__ import annotations

from datetime import datetime

import pytest

from game.engine.build import new_engine
from game.mind.interview.answering import answer_backed
from game.mind.interview.pastime import FREE_Q, free_time_line, pastimes
from game.mind.persona import Persona

from .fakes import interview_answers as _says
from .fakes import scripted_model

MONDAY = datetime(2026, 3, 2, 21, 0)
OWL = "author of the anonymous 'Millbrook Owl' column"


@pytest.fixture()
def engine():
    return new_engine("default", scripted_model({}))


def test_the_records_say_what_each_does_in_its_free_time_and_keep_its_secrets(engine):
    minds = engine.core.minds
    assert free_time_line(minds["Rosa Brody"].persona) == "In my free time I like to paint."  # (once, not twice)
    assert free_time_line(minds["Samuel Okafor"].persona) == (
        "In my free time I like to practise the song I wrote for Grace on the piano at home.")  # (not the party)
    kenji = minds["Kenji Tanaka"].persona
    assert "write this week's Millbrook Owl column in the study" in pastimes(kenji)
    assert pastimes(kenji, [OWL]) == ["walk in Willow Park after work"]  # his column is kept from everyone
    assert free_time_line(minds["Marcus Bell"].persona) == ""  # (work, his quiz: nothing of free time)


def test_a_pastime_said_in_the_background_is_said_in_the_first_person():
    p = Persona(name="Ada Lee", background="Ada Lee fixes clocks and teaches chess in her spare time.",
                daily="make lunch at noon; walk the dog in the evening")
    assert pastimes(p) == ["teach chess", "walk the dog in the evening"]
    assert FREE_Q.search("What do you like to do in your free time?") and FREE_Q.search("Any hobbies?")
    assert not FREE_Q.search("What is your job?")


async def test_an_answer_that_lost_its_pastimes_is_said_from_the_records(engine):
    q = "What do you like to do in your free time?"
    rosa = engine.core.minds["Rosa Brody"]
    text, back = await answer_backed(rosa, q, MONDAY, _says("I'm not sure, I don't know.", "I don't know."))
    assert text == "In my free time I like to paint." and back.source == "record"
    own = "I love painting in the evening, after my shift at the cafe."
    text, back = await answer_backed(rosa, q, MONDAY, _says(own))
    assert text == own and back.source == "model"  # its own words, where they hold something
