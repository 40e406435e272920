"""Words in character (issue 16): no prompt that asks for a resident's words holds an example that
could be copied as an answer ("I don't know anyone called Sam." was answered by 3 of 11); replies
are asked to come from the resident's own work, plans and opinions, which their context holds; a
talk that ran long ends as an event, not with a canned line passed off as the resident's words."""

from __future__ import annotations

from datetime import datetime

from game.mind import Mind
from game.mind.prompting import PROMPT_DIR
from game.mind.view import Conversation
from game.world import default_town_path, load_town

from .fakes import scripted_model

WORDS_SAID = ("dialogue", "dialogue_stream", "dialogue_stream_open")


def test_no_prompt_for_a_residents_words_holds_an_example_to_copy():
    for name in WORDS_SAID:
        text = (PROMPT_DIR / f"{name}.txt").read_text(encoding="utf-8")
        assert "Example" not in text and "library is closing" not in text, name
        assert "own work, plans and opinions" in text, name
    text = (PROMPT_DIR.parent / "interview" / "interview.txt").read_text(encoding="utf-8")  # the interview's own
    assert "Example" not in text and "Sam" not in text and "pottery" not in text
    assert "own work, plans and opinions" in text


async def test_a_pub_owner_is_asked_from_his_own_facts():
    town = load_town(default_town_path())
    llm = scripted_model({"interview": [{"answer": "Hank will win: the fountain needs fixing."}]})
    marcus = Mind(town.resident("Marcus Bell"), llm, now=datetime(2026, 3, 2, 6))
    await marcus.answer(datetime(2026, 3, 2, 18), "Who will win the election?", asker="A visitor")
    _, messages, _ = llm.calls[-1]
    text = "\n".join(m.content for m in messages)
    assert "Copper Kettle" in text and "Hank" in text  # what he runs and whom he backs
    assert "own work, plans and opinions first" in text


async def test_a_talk_that_ran_long_ends_as_an_event_not_a_canned_line():
    town = load_town(default_town_path())
    llm = scripted_model({"dialogue": [{"say": "More about the fountain.", "end_conversation": False}]})
    rosa = Mind(town.resident("Rosa Brody"), llm, now=datetime(2026, 3, 2, 6))
    conv = Conversation("c1", ["Rosa Brody", "Hank Brody"])
    for i in range(4):
        conv.add("Rosa Brody", f"line {i} about the store")
        conv.add("Hank Brody", f"answer {i} about the store")
    line = await rosa.say(datetime(2026, 3, 2, 9), conv, ["Hank Brody"])
    assert line.text == "" and line.end and line.source == "rule" and "took their leave" in line.reason
    assert not llm.calls  # no model call, and no words put in Rosa's mouth
