"""What a whole talk is written from (game/mind/talk/drawn.py): only the memories about the others,
the one spoken to as "you", the starter's public self, and nothing taken from the prompt's example."""

import pytest
from fake_model import FakeModel

from game.engine.build import build_engine, read_input
from game.mind.talk.drawn import about_them, for_listener, from_example
from game.mind.talk.script import script_lines
from game.mind.view import Conversation
from game.world import default_town_path


def test_a_memory_goes_into_a_talk_only_when_it_is_about_the_others():
    ines = ["Ines Moreau"]
    assert about_them("Ines Moreau is taking the food back to home (the cafe table)", ines)
    # a line of a talk, even one with them; a thing seen; a word that only holds the name
    assert not about_them("I talked with Ines Moreau; I said: I'm nervous that Ines Moreau sees me as a rival.", ines)
    assert not about_them("Ines told me: the cafe opens at seven", ines)
    assert not about_them("Kenji Tanaka told me: I'll make sure everything is ready for you.", ines)
    assert not about_them("I talked with Nora Lindqvist; I said: How is Ines?", ines)
    assert not about_them("flower bed is idle (the garden of Willow Park)", ines)
    assert not about_them("Inessa came by", ines)


def test_the_one_spoken_to_is_you_in_a_point():
    assert (for_listener("Felix needs customers and is nervous that Ines Moreau sees him as a rival", ["Ines Moreau"])
            == "Felix needs customers and is nervous that you see him as a rival")
    assert for_listener("Rosa is helping Samuel prepare Samuel's party", ["Samuel Okafor"]) == (
        "Rosa is helping you prepare your party")
    assert for_listener("Nora knows of it", ["Nora Lindqvist"]) == "you know of it"
    # with two listeners "you" is either: the names stay
    assert for_listener("Ines is here", ["Ines Moreau", "Nora Lindqvist"]) == "Ines is here"


def test_the_examples_words_are_not_said_unless_something_backs_them():
    assert from_example("I'm sorry to hear about the market move.", {"market"}) == ["move"]
    assert from_example("See you at the market on Saturday.", {"market", "saturday"}) == []
    from game.mind.schemas import ScriptLine

    said = [ScriptLine(speaker="Felix", say="Hello, Kenji! I'm sorry to hear about the market move. How are you?")]
    counts: list[str] = []
    kept = script_lines(said, {"felix": "Felix Adeyemi"}, ["Felix Adeyemi", "Felix"], {"market", "kenji"},
                        lambda what, n=1: counts.append(what))
    assert kept == [("Felix Adeyemi", "Hello, Kenji! How are you?")] and "script_from_example" in counts


@pytest.fixture
async def town():
    """The default town on a fake model (tests only), and the model to read its prompts from."""
    llm = FakeModel()
    engine = build_engine(read_input(str(default_town_path())), llm, lockstep=True)
    yield engine, llm
    await engine.aclose()


async def test_a_talks_prompt_holds_no_private_line_of_the_starter_and_no_others_talk(town):
    engine, llm = town
    now = engine.clock.now
    hank = engine.core.minds["Hank Brody"]
    hank.core.memory.add("conversation", "Kenji Tanaka told me: I'll make sure everything is ready for you.", now)
    hank.core.memory.add("observation", "Marcus Bell is wiping the bar (the pub of The Copper Kettle)", now)
    side = await engine.core.minds["Marcus Bell"].talk_side(now, ["Hank Brody"])
    await hank.converse(now, Conversation("c1", ["Hank Brody", "Marcus Bell"]), {"Marcus Bell": side})
    prompt = llm.of("complete")[-1].text
    assert "Marcus Bell is wiping the bar" in prompt
    assert "everything is ready for you" not in prompt
    # Hank's "Privately, the store is losing money" (his own, in every other prompt of his)
    assert "losing money" not in prompt and "Privately" not in prompt
    assert "running for mayor" in prompt


async def test_a_line_among_residents_holds_no_secret_of_the_speaker_but_one_to_the_player_may(town):
    engine, llm = town
    now = engine.clock.now
    kenji = engine.core.minds["Kenji Tanaka"]
    talk = Conversation("c3", ["Nora Lindqvist", "Kenji Tanaka", "Felix Adeyemi"],
                        lines=[("Nora Lindqvist", "Hi Kenji! Can you tell me more about his baking?")])
    await kenji.say(now, talk, ["Nora Lindqvist", "Felix Adeyemi"])
    prompt = llm.of("complete")[-1].text
    assert "Millbrook Owl" not in prompt and "secretly" not in prompt and "pharmacist" in prompt
    with_player = Conversation("p1", ["Kenji Tanaka", "Visitor"], with_player=True)
    await kenji.say(now, with_player, ["Visitor"])
    assert "Millbrook Owl" in llm.of("complete")[-1].text  # (its whole self, as every other prompt of his)


async def test_a_recall_that_keeps_some_memories_refreshes_only_those(town):
    engine, _ = town
    now = engine.clock.now
    hank = engine.core.minds["Hank Brody"].core
    left = hank.memory.add("conversation", "Kenji Tanaka told me: the shelves are in.", now)
    kept = hank.memory.add("observation", "Marcus Bell is wiping the bar", now)
    later = now.replace(hour=now.hour + 2)
    got = await hank.recall("Marcus Bell", later, k=10, keep=lambda text: about_them(text, ["Marcus Bell"]))
    assert kept in [r.id for r in got] and left not in [r.id for r in got]
    assert hank.memory.get(kept).last_access == later and hank.memory.get(left).last_access == now


def test_a_last_line_stopped_mid_word_says_its_whole_sentences_or_nothing():
    # Rosa's "It's a b" closed a talk of 9d99520's save asked again
    from game.mind.schemas import ScriptLine

    names = {"rosa": "Rosa Brody", "ines": "Ines Moreau"}
    said = [ScriptLine(speaker="Rosa", say="Hey Ines! What's up?"), ScriptLine(speaker="Ines", say="Hi Rosa! Busy."),
            ScriptLine(speaker="Rosa", say="It's a b")]
    counted: list[str] = []
    lines = script_lines(said, names, list(names.values()), set(), lambda k, n=1: counted.append(k))
    assert [t for _, t in lines] == ["Hey Ines! What's up?", "Hi Rosa! Busy."]
    assert "script_line_unfinished" in counted
    said[-1] = ScriptLine(speaker="Rosa", say="Sure. I will bring the")
    lines = script_lines(said, names, list(names.values()), set(), lambda k, n=1: None)
    assert lines[-1] == ("Rosa Brody", "Sure.")


def test_a_speaker_answering_itself_ends_the_script_there():
    # Priya to Marcus at 21:05 on the evening's day of 2026-12-02: her request, then her own "Sure!"
    from game.mind.schemas import ScriptLine

    names = {"marcus": "Marcus Bell", "priya": "Priya Raman"}
    said = [ScriptLine(speaker="Marcus", say="Good evening, Priya! I'm excited to lead the quiz tonight."),
            ScriptLine(speaker="Priya", say="Hello, Marcus! Can I have a quick look at the quiz questions first?"),
            ScriptLine(speaker="Priya", say="Sure! I'll look at them right away."),
            ScriptLine(speaker="Marcus", say="Of course! I'll take a look at the questions.")]
    counted: list[str] = []
    lines = script_lines(said, names, list(names.values()), {"quiz", "questions"}, lambda k, n=1: counted.append(k))
    assert [w for w, _ in lines] == ["Marcus Bell", "Priya Raman"] and "script_same_speaker" in counted
