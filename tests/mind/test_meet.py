"""Seeing someone asks the narrow question (meet.txt): talk to them, or carry on; a sight with a
thing in it asks the whole reaction (react.txt)."""

from __future__ import annotations

import json
from dataclasses import replace

from game.llm.answers import strict_schema
from game.mind.view import Conversation

from .conftest import DAY1
from .test_mind_logic import make

KLAUS = "Klaus Mueller is reading a book (the desk in the library)"


def _seeing(view, *people: str, nearby: tuple[str, ...] = (KLAUS,)):
    return replace(view, people_here=people, nearby=nearby)


async def test_seeing_someone_asks_whom_to_talk_to_among_those_at_hand(view):
    mind, llm = make({"react": [{"why": "to ask about his thesis", "talk_to": "Klaus Mueller"}]})
    r = await mind.react(DAY1.replace(hour=9), KLAUS, _seeing(view, "Klaus Mueller", "Maria Lopez"))
    assert r.kind == "talk" and r.with_whom == "Klaus Mueller"
    call = llm.calls[-1]
    assert call.purpose == "react" and call.kind == "MeetAnswer"
    assert "Does Isabella start a conversation" in call.user
    assert "People nearby: Klaus Mueller, Maria Lopez" in call.user
    assert "Places Isabella knows" not in call.user  # (the whole reaction's lines are not asked for)
    assert mind.stats["react_meet"] == 1


async def test_the_answer_can_name_only_those_at_hand_or_nobody(view):
    from game.mind.schemas import meet_answer
    schema = json.dumps(strict_schema(meet_answer(("Klaus Mueller", "Maria Lopez"))))
    assert '"enum": ["", "Klaus Mueller", "Maria Lopez"]' in schema
    mind, _ = make({"react": [{"why": "busy at work", "talk_to": ""}]})
    r = await mind.react(DAY1.replace(hour=9), KLAUS, _seeing(view, "Klaus Mueller"))
    assert r.kind == "continue" and r.reason == "model"


async def test_whom_the_resident_talked_with_today_is_in_the_question(view):
    mind, llm = make({"react": [{"why": "", "talk_to": ""}]})
    t = DAY1.replace(hour=9)
    mind.remember_conversation(t, Conversation("c1", [mind.core.name, "Maria Lopez"],
                                               lines=[(mind.core.name, "Hello!"), ("Maria Lopez", "Hi.")]))
    assert mind.core.talked_with_on(t.date()) == ["Maria Lopez"]
    await mind.react(t.replace(minute=30), KLAUS, _seeing(view, "Klaus Mueller"))
    assert "Talked with today: Maria Lopez\n" in llm.calls[-1].user


async def test_a_sight_with_a_thing_in_it_asks_the_whole_reaction(view):
    mind, llm = make({"react": [{"decision": "react", "new_action": "turning the stove off", "place": "",
                                 "minutes": 5, "state": "off"}]})
    text = KLAUS + "; the stove in the kitchen is smoking"
    r = await mind.react(DAY1.replace(hour=9), text, _seeing(view, "Klaus Mueller"))
    assert llm.calls[-1].kind == "ReactAnswer" and r.kind == "react"
    assert mind.stats["react_meet"] == 0
