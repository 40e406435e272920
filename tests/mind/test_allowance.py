"""The engine's allowance past the daily caps (game/engine/decisions/capacity.py gives it while the model
server has time to spare): the floor stays the fixed cap, the allowance raises it for one reaction,
and a call past the floor is asked below the town's planning and counted."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from game.llm.api import Priority
from game.mind.view import Allowance, Conversation

from .conftest import DAY1
from .test_mind_logic import make

CONT = {"decision": "continue", "talk_to": "", "new_action": "", "place": "", "emoji": "", "minutes": 5}
TALK = {"decision": "talk", "talk_to": "Klaus Mueller", "new_action": "", "place": "", "emoji": "", "minutes": 5}


def react_priorities(llm) -> list[Priority]:
    return [t.priority for t, _, _ in llm.calls if t.purpose == "react"]


async def test_an_allowance_lets_a_reaction_past_the_floor_at_a_priority_below_planning(view):
    mind, llm = make({"react": [CONT]}, max_reacts_per_day=2)
    t = DAY1.replace(hour=9)
    for i in range(2):
        assert (await mind.react(t + timedelta(minutes=i), f"sight {i}", view)).reason == "model"
    refused = await mind.react(t + timedelta(minutes=2), "sight 2", view)
    assert refused.reason == "budget" and mind.stats["react_budget"] == 1
    # with an allowance of one: one more, asked at the priority of reflection, not of a reaction
    more = await mind.react(t + timedelta(minutes=3), "sight 3", view, allowance=Allowance(reacts=1))
    assert more.reason == "model" and mind.stats["react_spare"] == 1
    assert react_priorities(llm) == [Priority.REACT, Priority.REACT, Priority.REFLECT]
    assert Priority.REFLECT > Priority.PLAN  # (the scheduler starts lower numbers first)
    # the ceiling: the floor plus the allowance, whatever is offered for the call after
    again = await mind.react(t + timedelta(minutes=4), "sight 4", view, allowance=Allowance(reacts=1))
    assert again.reason == "budget" and llm.purposes().count("react") == 3
    # below the floor an allowance changes nothing: the call is an ordinary one
    nxt = await mind.react(t + timedelta(days=1), "sight 5", view, allowance=Allowance(reacts=5))
    assert nxt.reason == "model" and mind.stats["react_spare"] == 1
    assert react_priorities(llm)[-1] == Priority.REACT


async def test_news_needs_no_allowance_and_spends_none(view):
    mind, llm = make({"react": [CONT]}, max_reacts_per_day=0)
    t = DAY1.replace(hour=9)
    news = await mind.react(t, "the stove is on fire", view, urgent=True, allowance=Allowance(reacts=2))
    assert news.reason == "model" and mind.stats["react_spare"] == 0
    assert react_priorities(llm) == [Priority.REACT]


async def test_an_allowance_of_talks_lets_one_more_talk_start_and_counts_it(view):
    mind, llm = make({"react": [TALK]}, max_talks_per_day=1, max_reacts_per_day=10)
    v = replace(view, people_here=("Klaus Mueller",))
    t = DAY1.replace(hour=9)
    r = await mind.react(t, "Klaus Mueller is reading", v)
    assert r.kind == "talk" and mind.stats["talk_spare"] == 0  # the first talk: under the floor
    mind.remember_conversation(t, Conversation("c0", [mind.core.name, "Klaus Mueller"],
                                               lines=[(mind.core.name, "Hello!"), ("Klaus Mueller", "Hi.")]))
    r = await mind.react(t + timedelta(minutes=1), "Klaus Mueller is writing", v)
    assert r.kind == "continue" and r.reason == "talked enough today"
    r = await mind.react(t + timedelta(minutes=2), "Klaus Mueller is eating", v, allowance=Allowance(talks=1))
    assert r.kind == "talk" and mind.stats["talk_spare"] == 1


def test_an_allowance_as_plain_data():
    a = Allowance(reacts=3, talks=1)
    assert Allowance.from_dict(a.to_dict()) == a
    assert Allowance.from_dict(None) is None and Allowance.from_dict({}) is None
    assert Allowance.from_dict({"reacts": -4}) == Allowance(0, 0)
