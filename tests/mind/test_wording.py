"""The words of a model's action as others see them (game/mind/planning/wording.py), and the answer schemas
that apply them.  The bare verbs here are the ones the 1.5B model began its steps with in the
recorded panel morning (tests/fixtures/grounding/panel.jsonl, 2026-11-25)."""

from __future__ import annotations

import pytest

from game.mind.planning.shaping import emoji_for
from game.mind.planning.steps import DecomposeAnswer, parse_step_line
from game.mind.planning.wording import as_doing, fit_action, ing, whole_words
from game.mind.schemas import ReactAnswer


@pytest.mark.parametrize("verb, doing", [
    ("prepare", "preparing"), ("make", "making"), ("meet", "meeting"), ("arrive", "arriving"),
    ("commute", "commuting"), ("attend", "attending"), ("walk", "walking"), ("drive", "driving"),
    ("serve", "serving"), ("discuss", "discussing"), ("return", "returning"), ("have", "having"),
    ("lie", "lying"), ("see", "seeing"), ("shop", "shopping"), ("sit", "sitting"), ("plan", "planning"),
    ("chat", "chatting"), ("visit", "visiting"), ("open", "opening"), ("fix", "fixing"), ("go", "going"),
    ("begin", "beginning"), ("play", "playing"), ("sew", "sewing"), ("wait", "waiting"), ("greet", "greeting"),
])
def test_ing_forms(verb, doing):
    assert ing(verb) == doing


def test_a_bare_verb_first_reads_as_what_someone_is_doing():
    assert as_doing("prepare breakfast") == "preparing breakfast"
    assert as_doing("Commute to Bluebell Cafe") == "Commuting to Bluebell Cafe"
    assert as_doing("inform Grace about her surprise party") == "informing Grace about her surprise party"
    # anything that does not start with a known verb stays as it was
    for text in ("driving to Bluebell Cafe", "breakfast at home", "morning routine", "the debate", "", "  "):
        assert as_doing(text) == text


def test_an_action_stays_within_its_limit_when_its_verb_grows():
    recorded = "start helping Samuel Okafor with the surprise party at 6pm at"  # 60 characters, cut
    r = ReactAnswer.model_validate({"decision": "react", "new_action": recorded + " Bluebell Cafe"})
    assert r.new_action == "starting helping Samuel Okafor with the surprise party"  # ("at" left dangling)
    assert fit_action("start the day", 60) == "starting the day"
    s = DecomposeAnswer.model_validate({"steps": [recorded + " Bluebell Cafe (10 min, work)"]}).items()[0]
    assert len(s.action) <= 60 and s.action.startswith("starting helping") and s.minutes == 10


def test_a_cut_off_last_word_is_dropped():
    cut = "inform Ines about Rosa's plans and the cafe counter being id"
    assert len(cut) == 60
    assert whole_words(cut, 60) == "inform Ines about Rosa's plans and the cafe counter being"
    assert whole_words("eating toast", 60) == "eating toast"
    assert whole_words("x" * 60, 60) == "x" * 60  # one word: nothing better to keep
    cut = "visiting the hardware store to get the latest tools and gett"  # recorded, 2026-11-25
    assert len(cut) == 60 and whole_words(cut, 60) == "visiting the hardware store to get the latest tools"
    assert whole_words("walking to the " + "x" * 45, 60) == "walking to"  # (two words are kept)


def test_the_answers_carry_actions_as_others_will_read_them():
    steps = DecomposeAnswer.model_validate({"steps": ["prepare breakfast (15 min, home)",
                                                      {"action": "walking to work", "minutes": 10, "place": "work"}]})
    assert [s.action for s in steps.items()] == ["preparing breakfast", "walking to work"]
    r = ReactAnswer.model_validate({"decision": "react", "new_action": "inform Ines about Rosa's plans and "
                                    "the cafe counter being id"})
    assert r.new_action == "informing Ines about Rosa's plans and the cafe counter"  # (60 at most)


@pytest.mark.parametrize("line, action, minutes, place", [
    ("brewing coffee (10 min, home)", "brewing coffee", 10, "home"),
    ("eating toast (15 min)", "eating toast", 15, ""),
    ("walking to work (10 minutes, work)", "walking to work", 10, "work"),
    ("serving customers (20, Bluebell Cafe)", "serving customers", 20, "Bluebell Cafe"),
    ("reading (5 min; Oakhill College library).", "reading", 5, "Oakhill College library"),
    ("painting in the garden", "painting in the garden", 10, ""),  # no brackets: the action alone
    ("(10 min, home)", "", 10, "home"),  # no action: the block's activity stands for it
    # recorded (the answer's length limit cut the line off): the first brackets count, and a
    # place whose bracket never closed is dropped
    ("arranging the tables (10 min, home or Hobbs Cafe depending on the guest number if not already",
     "arranging the tables", 10, ""),
    ("arranging the tables (10 min, home or Hobbs Cafe) (10 min, home or a", "arranging the tables", 10,
     "home or Hobbs Cafe"),
    # recorded in the whole day of 2026-11-25: hours, and the step's own times before it
    ("visiting the hardware store (1 hour, work)", "visiting the hardware store", 60, "work"),
    ("07:30-08:00 prepare coffee for her father (30 min, Bluebell Cafe)", "preparing coffee for her father", 30,
     "Bluebell Cafe"),
    ("reading the paper (1.5 hrs)", "reading the paper", 60, ""),  # (60 at most a step)
    ("8am - 9am: opening the shop (20 min, work)", "opening the shop", 20, "work"),
    ("9:15 feeding the cat (5 min, home)", "feeding the cat", 5, "home"),
    ("8-9 walking the dog (15 min)", "walking the dog", 15, ""),
    ("3 eggs for breakfast (10 min, home)", "3 eggs for breakfast", 10, "home"),  # a number, not a time
    ("helping (2 h, home)", "helping", 60, "home"),
])
def test_a_step_line_reads_as_action_minutes_and_place(line, action, minutes, place):
    s = parse_step_line(line)
    assert (s.action, s.minutes, s.place) == (action, minutes, place)


def test_remarks_between_the_steps_are_not_steps():
    recorded = DecomposeAnswer.model_validate({"steps": [  # tests/fixtures/mind, 2026-11-25
        "arriving at Maria Lopez's house (5 min, home)", "They live in a small town, so it's not far.",
        "introducing herself (5 min, home)", "She's friendly and outgoing, so she's a good host."]})
    assert [s.action for s in recorded.items()] == ["arriving at Maria Lopez's house", "introducing herself"]
    bare = DecomposeAnswer.model_validate({"steps": ["reading the news", "walking the dog"]})
    assert [(s.action, s.minutes) for s in bare.items()] == [("reading the news", 10), ("walking the dog", 10)]


def test_emoji_rules_know_the_ing_forms():
    for base, doing in (("prepare the speech", "preparing the speech"), ("bake bread", "baking a cake"),
                        ("write a letter", "writing a letter"), ("vote", "voting")):
        assert emoji_for(base) == emoji_for(doing) != "🙂"
