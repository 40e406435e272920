"""A thing the model brings into a talk that nothing it was given speaks of, read on the saved days
of 2026-11-30 (eaef4b9, a9a17c8, d326f2f): Ines's "tables", Samuel's "patients", Rosa's "project",
Rosa's "delivery", Grace's "presentation".  The word after a possessive or after "with the" must be
in the talk's prompt, the talk so far, or the everyday words."""

from __future__ import annotations

import pytest

from game.mind.facts.newthings import new_things, without_new_things
from game.mind.facts.owned import backing_words
from game.mind.schemas import ScriptLine
from game.mind.talk.script import script_lines
from game.mind.view import Conversation

from .test_mind_logic import DAY1, make

PROMPT = ("Ines Moreau runs Bluebell Cafe. Grace Okafor is the mayor and is preparing for the public debate at "
          "Town Hall on Wednesday. Samuel Okafor taught music and plays the piano at the cafe. Nora tends the "
          "vegetable patches. Kenji is the pharmacist.")
BACKED = backing_words(PROMPT)


@pytest.mark.parametrize("said, thing", [
    ("I'll be there to help you with the tables.", "tables"),
    ("He's always been very reliable with his patients.", "patients"),
    ("I'm helping my friend Nora Lindqvist with a project at the cafe right now.", "project"),
    ("I can make the cake and Rosa Brody can help with the delivery.", "delivery"),
    ("I'm looking forward to hearing your presentation.", "presentation"),
    ("Here is a picture from my friend's business.", "business"),  # (Felix to the mayor, a4c5919's day)
    ("Yes, I have some fresh tomatoes and basil.", "tomatoes"),  # (Kenji, the pharmacist, 2026-12-02 evening)
])
def test_a_thing_nothing_backs_is_named(said, thing):
    assert new_things(said, BACKED) == [thing]


@pytest.mark.parametrize("said", [
    "What's on your mind?",  # a question asks
    "What's your goal for the debate?",
    "I appreciate your offer, Grace!",  # the everyday
    "It's such a special day for her and her family.",
    "It's important to think about the long-term impact of our decisions.",
    "Good luck with the debate on Wednesday.",  # backed by the prompt
    "I love your piano playing at the cafe.",
    "How are your vegetable patches?",
    "I will see you at the pharmacy with the others.",  # ("others": everyday)
    "I heard your friend's piano at the cafe.",
    "I have some ideas for the debate.",  # (everyday)
])
def test_what_is_backed_asked_or_everyday_is_let_be(said):
    assert new_things(said, BACKED) == []


def test_the_talk_so_far_backs_a_thing_and_the_rest_of_the_line_is_said():
    text, found = without_new_things("Sure! I'll help you with the tables. See you there.", BACKED)
    assert text == "Sure! See you there." and found == ["tables"]
    assert without_new_things("I'll help you with the tables.", BACKED, ["We need ten tables."]) == (
        "I'll help you with the tables.", [])


def test_a_script_says_its_lines_less_the_sentences_that_bring_in_a_thing():
    counts: dict[str, int] = {}

    def count(what: str, n: int = 1) -> None:
        counts[what] = counts.get(what, 0) + n
    said = [ScriptLine(speaker="Ines", say="Good morning! I'll be there to help you with the tables."),
            ScriptLine(speaker="Grace", say="Thanks, Ines. See you at the debate."),
            ScriptLine(speaker="Ines", say="He's always been very reliable with his patients.")]
    lines = script_lines(said, {"ines": "Ines Moreau", "grace": "Grace Okafor"}, ["Ines Moreau", "Grace Okafor"],
                         BACKED, count)
    assert lines == [("Ines Moreau", "Good morning!"), ("Grace Okafor", "Thanks, Ines. See you at the debate.")]
    assert counts == {"script_new_thing": 2, "script_line_dropped": 1}


async def test_converse_reads_things_against_its_own_prompt():
    """The prompt's others' sides back what the listener has: Klaus's exams may be spoken of."""
    lines = [{"speaker": "Isabella", "say": "Good luck with your exams, Klaus. I'll help you with the lanterns."},
             {"speaker": "Klaus", "say": "Thank you!"}]
    mind, _ = make({"converse": [{"lines": lines}]})
    conv = Conversation("c1", ["Isabella Rodriguez", "Klaus Mueller"])
    script = await mind.converse(DAY1.replace(hour=9), conv, {"Klaus Mueller": "Klaus Mueller.\n- exams"})
    assert script.lines[0] == ("Isabella Rodriguez", "Good luck with your exams, Klaus.")
    assert mind.stats["script_new_thing"] == 1
