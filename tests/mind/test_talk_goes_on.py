"""A talk whose rest was not said after a line lost a claim goes on from what was said
(``Talker.converse`` with the lines said: converse_more.txt), and says none of them again."""

from __future__ import annotations

from game.mind.talk.script import talk_so_far
from game.mind.view import Conversation

from .conftest import DAY1
from .test_mind_logic import make


async def test_a_talk_goes_on_from_the_lines_said_with_its_next_speaker_named():
    lines = [{"speaker": "Klaus", "say": "Good morning, Isabella! How is the cafe?"},  # said before: not again
             {"speaker": "Klaus", "say": "I am writing my paper today."},
             {"speaker": "Isabella", "say": "Good luck with it, Klaus."}]
    mind, llm = make({"converse_more": [{"lines": lines, "matters": "minor"}]})
    conv = Conversation("c1", ["Isabella Rodriguez", "Klaus Mueller"],
                        lines=[("Isabella Rodriguez", "Morning, Klaus!"),
                               ("Klaus Mueller", "Good morning, Isabella! How is the cafe?")])
    script = await mind.converse(DAY1.replace(hour=9), conv, {})
    tag, messages = llm.calls[-1][0], llm.calls[-1][1]
    assert tag.purpose == "converse_more"  # counted apart from the talks' first calls
    user = messages[-1].content
    assert "What they said so far:\nIsabella: Morning, Klaus!\nKlaus: Good morning, Isabella! How is the cafe?" in user
    assert user.rstrip().endswith("Isabella says the next line. Write the rest of their conversation.")
    assert script.lines == []  # its first line said again what was said: the talk stops there
    assert mind.stats["talk_in_circles"] == 1


async def test_the_rest_of_a_talk_keeps_its_new_lines():
    lines = [{"speaker": "Isabella", "say": "The cafe is busy today."},
             {"speaker": "Klaus", "say": "I will come by for lunch."}]
    mind, llm = make({"converse_more": [{"lines": lines, "matters": "minor"}]})
    conv = Conversation("c1", ["Isabella Rodriguez", "Klaus Mueller"], lines=[("Klaus Mueller", "Hello, Isabella!")])
    script = await mind.converse(DAY1.replace(hour=9), conv, {})
    assert script.lines == [("Isabella Rodriguez", "The cafe is busy today."),
                            ("Klaus Mueller", "I will come by for lunch.")]


def test_the_next_speaker_is_the_one_after_the_last_who_spoke():
    calls = {"Ann Lin": "Ann", "Bob Lin": "Bob", "Cara Diaz": "Cara"}
    assert talk_so_far([("Ann Lin", "Hi!")], calls) == ("Ann: Hi!", "Bob")
    assert talk_so_far([("Ann Lin", "Hi!"), ("Cara Diaz", "Hello.")], calls)[1] == "Ann"
