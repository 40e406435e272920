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


def test_an_aside_about_the_answer_is_cut_where_it_starts():
    from game.mind.interview.stepping import cut_aside
    # Samuel on b765e22's save, asked whom he talked with and what his job is
    assert cut_aside("They were discussing the surprise party for Grace's answer is correct because Grace is "
                     "relaxing at home.") == "They were discussing the surprise party for Grace."
    assert cut_aside("I am Samuel Okafor, a retired pianist and music teacher's note: Grace Okafor is running "
                     "for a third term.") == "I am Samuel Okafor, a retired pianist and music teacher."
    assert cut_aside("I sleep early. (Note: the party is at six.)") == "I sleep early."
    for kept in ("I wrote a note: see you soon.", "My answer is yes.", "I left Grace a note: back at six."):
        assert cut_aside(kept) == kept


def test_an_office_held_is_not_spoken_of_as_if_not_nor_the_speaker_as_sick():
    from game.mind.facts.hypothetical import as_if_so, held_as_if
    # Grace, a candidate, on b765e22's save: "If I were running for mayor, I would ..."
    assert held_as_if("If I were running for mayor, I would fix the fountain.", ["mayor", "candidate for mayor"])
    assert held_as_if("If I were the mayor, I would fix it.", ["mayor"])
    assert not held_as_if("If I were running for mayor, I would fix it.", [])
    assert not held_as_if("If I win, I will fix the fountain.", ["candidate for mayor"])
    # Rosa, asked of someone close being sick: "let them know that I'm sick"
    q = "Someone close to you is sick. What would you do?"
    assert as_if_so("I would call my family to let them know that I'm sick.", q)
    assert not as_if_so("I would bring them soup and stay with them.", q)
    assert not as_if_so("If I were sick, I would rest.", q)


def test_one_s_own_day_told_of_he_steps_out():
    from game.mind.interview.stepping import steps_out
    q = "Describe your typical weekday in broad strokes."
    said = "After that, he practices the song he wrote for Grace on the piano. He has lunch at 13:00."
    assert steps_out(said, "Samuel Okafor", q)
    assert not steps_out("I practise the piano, and then I have lunch at 13:00.", "Samuel Okafor", q)
    assert not steps_out(said, "Samuel Okafor", "Who is Hank Brody?")  # (of another: his day may be told)
    assert not steps_out("She is a kind mayor who works hard.", "Samuel Okafor", "What will you do after work?")


def test_a_scene_with_people_no_one_names_is_not_told_as_so():
    from game.mind.facts.hypothetical import as_if_so
    q = "You hear shouting outside your window. What do you do?"
    assert as_if_so("I see a group of people running towards the town hall.", q)  # (Grace on ca91aae's save)
    assert not as_if_so("I would open the window to see if someone needs help.", q)
    assert not as_if_so("I see a group of people at the cafe every morning.", "What do you do on Sundays?")
