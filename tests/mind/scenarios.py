"""Small, focused scenarios of the mind, run once against a real model to record its answers
(``python -m tests.mind.record``) and replayed from ``tests/fixtures/mind/*.jsonl`` by
``test_recorded.py``.  Each returns what the tests check; none of them judges anything itself."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from game.mind import Mind, MindConfig
from game.mind.mind import shape_plan
from game.mind.view import Conversation, DayPlan, WorldView

DAY1 = datetime(2026, 2, 13, 0, 0)  # a Friday

TOWN = (
    "Isabella's apartment:bedroom:bed", "Isabella's apartment:kitchen:stove",
    "Isabella's apartment:bathroom:shower",
    "Hobbs Cafe:cafe:counter", "Hobbs Cafe:cafe:coffee machine", "Hobbs Cafe:cafe:customer seating",
    "Hobbs Cafe:kitchen:stove",
    "Johnson Park:park:bench", "Town Hall:hall:notice board", "Town Hall:hall:meeting room",
    "Harvey Oak Supply Store:store:shelf", "Oak Hill College:library:library table",
)

ISABELLA = {
    "name": "Isabella Rodriguez", "age": 34, "traits": "friendly, outgoing, hospitable",
    "background": "Isabella Rodriguez runs Hobbs Cafe in Smallville and loves to make people feel welcome.",
    "currently": "Isabella is planning a Valentine's Day party at Hobbs Cafe.",
    "lifestyle": {"wake": "06:00", "sleep": "22:00",
                  "meals": {"breakfast": "06:30", "lunch": "12:00", "dinner": "18:00"}},
    "home": "Isabella's apartment", "workplace": "Hobbs Cafe",
    "seed_memories": ["Isabella knows Klaus Mueller, a regular at the cafe who studies sociology",
                      "Isabella knows Maria Lopez, a student who often works at the cafe"],
    "relationships": {"Klaus Mueller": "a regular at the cafe", "Maria Lopez": "a friend and regular"},
}

KLAUS = {
    "name": "Klaus Mueller", "age": 20, "traits": "kind, curious, passionate",
    "background": "Klaus Mueller is a sociology student at Oak Hill College writing a paper on gentrification.",
    "currently": "Klaus is researching his paper at the library.",
    "lifestyle": {"wake": "07:00", "sleep": "23:00",
                  "meals": {"breakfast": "07:30", "lunch": "12:30", "dinner": "19:00"}},
    "home": "Moreno family house", "workplace": "Oak Hill College",
    "seed_memories": ["Klaus knows Isabella Rodriguez, who runs Hobbs Cafe"],
    "relationships": {"Isabella Rodriguez": "runs Hobbs Cafe, where Klaus drinks coffee"},
}

MARIA = {
    "name": "Maria Lopez", "age": 21, "traits": "energetic, enthusiastic, inquisitive",
    "background": "Maria Lopez studies physics at Oak Hill College and streams games online.",
    "currently": "Maria is getting ready for her physics exam.",
    "lifestyle": {"wake": "08:00", "sleep": "00:00"},
    "home": "Moreno family house", "workplace": "Oak Hill College",
    "relationships": {"Klaus Mueller": "a classmate she has a crush on",
                      "Isabella Rodriguez": "runs Hobbs Cafe"},
}


def cafe_view(people: tuple[str, ...] = ()) -> WorldView:
    return WorldView(now_text="Friday February 13", here="Hobbs Cafe:cafe",
                     here_text="the cafe of Hobbs Cafe",
                     known_places="Isabella's apartment\nHobbs Cafe\nJohnson Park\nTown Hall\n"
                                  "Harvey Oak Supply Store\nOak Hill College",
                     allowed=TOWN, nearby=tuple(f"{p} is in the cafe" for p in people), people_here=people)


IDENTITY = ("Isabella is friendly and outgoing. She runs Hobbs Cafe in Smallville. She is excited about "
            "the Valentine's Day party she is planning.")

CAMPAIGN_WORDS = ("mayor", "campaign", "election", "vote", "poster", "flyer", "speech", "candidate")


async def whisper_mayor(llm: Any) -> dict:
    """Isabella plans her day; her inner voice tells her to run for mayor; her plan changes."""
    mind = Mind(ISABELLA, llm, now=DAY1)
    # planned at wake-up (cached here: fewer calls to a slow shared server; react_fire records a plan)
    mind.core.identity, mind.core.identity_date = IDENTITY, DAY1.date()
    mind.agenda.plan = plan0 = DayPlan(day=1, wake=360, bed=1320, blocks=shape_plan([
        (360, 480, "wake up and have breakfast"), (480, 720, "run Hobbs Cafe"),
        (720, 780, "lunch"), (780, 1020, "decorate the cafe for the party"), (1020, 1320, "dinner and rest")],
        360, 1320))
    mind.agenda.plan_date = DAY1.date()
    view = cafe_view()
    mind.whisper(DAY1.replace(hour=10), "I have decided to run for mayor of Smallville. The election is "
                                        "next month, so I must start my campaign today.")
    a1 = await mind.next_action(DAY1.replace(hour=10), view)
    after = [a1] + list(mind.agenda.queue)
    plan1 = mind.plan
    later = []  # the first block that names the campaign, decomposed when its time comes
    for b in plan1.blocks:
        if b.start > 10 * 60 and any(w in b.activity.lower() for w in CAMPAIGN_WORDS):
            a2 = await mind.next_action(DAY1 + timedelta(minutes=b.start), view)
            later = [a2] + list(mind.agenda.queue)
            break
    return {"mind": mind, "plan0": plan0, "plan1": plan1, "after": after, "later": later}


async def react_fire(llm: Any) -> dict:
    """Isabella works in the cafe; the kitchen stove catches fire; she reacts and re-plans."""
    mind = Mind(ISABELLA, llm, now=DAY1)
    mind.core.identity, mind.core.identity_date = IDENTITY, DAY1.date()  # cached from the morning
    view = cafe_view()
    t = DAY1.replace(hour=8)
    a0 = await mind.next_action(t, view)
    plan0, raw0 = mind.plan, list(mind.agenda.last_raw_plan)
    before = [a0] + list(mind.agenda.queue)
    r = await mind.react(t + timedelta(minutes=5), "the stove in the kitchen of Hobbs Cafe is on fire", view)
    after: list = []
    if r.kind == "react" and r.new_action is not None:
        end = r.new_action.end()
        after = [await mind.next_action(end, view)] + list(mind.agenda.queue)
    return {"mind": mind, "plan0": plan0, "raw0": raw0, "before": before, "reaction": r, "after": after}


async def news_talk(llm: Any) -> dict:
    """Klaus heard news; he talks with Isabella; hours later Isabella remembers it."""
    klaus = Mind(KLAUS, llm, now=DAY1)
    isa = Mind(ISABELLA, llm, now=DAY1)
    t = DAY1.replace(hour=9)
    klaus.whisper(t - timedelta(minutes=30), "I just read that the town library will close for good next "
                                             "Friday. I must tell everyone I meet.")
    for who in (klaus, isa):
        who.agenda.current = None
    conv = Conversation("news", [klaus.core.name, isa.core.name], place="Hobbs Cafe:cafe", started=t)
    speakers = [klaus, isa, klaus]
    for n, sp in enumerate(speakers):
        other = isa if sp is klaus else klaus
        line = await sp.say(t + timedelta(minutes=n), conv, [other.core.name])
        if line.text:
            conv.add(sp.core.name, line.text)
        if line.end:
            break
    end = t + timedelta(minutes=len(conv.lines))
    klaus.remember_conversation(end, conv)
    isa.remember_conversation(end, conv)
    # Isabella's afternoon: other things happen
    await isa.observe(DAY1.replace(hour=12), ["Maria Lopez is drinking coffee", "the coffee machine is brewing",
                                             "a customer is reading a newspaper"])
    later = DAY1.replace(hour=16)
    recalled = await isa.core.recall("the library", later, k=3)
    return {"klaus": klaus, "isabella": isa, "conversation": conv, "recalled": recalled}


async def reflect_day(llm: Any) -> dict:
    """Isabella's morning fills her memory; the importance passes the threshold; she reflects."""
    mind = Mind(ISABELLA, llm, now=DAY1, config=MindConfig(reflect_threshold=25, importance_batch=10))
    t = DAY1.replace(hour=8)
    sights = [
        "Isabella invited Klaus Mueller to the Valentine's Day party at Hobbs Cafe",
        "Klaus Mueller said he would come to the party",
        "Isabella is brushing her teeth",
        "Maria Lopez told Isabella she has a crush on Klaus Mueller",
        "Isabella bought red paper hearts to decorate the cafe",
        "the coffee machine is brewing",
        "Isabella asked Maria Lopez to help decorate the cafe for the party",
        "Maria Lopez agreed to help decorate on Friday afternoon",
        "Klaus Mueller is sleeping",
        "the cafe had more customers than usual this morning",
    ]
    for n, s in enumerate(sights):
        await mind.observe(t + timedelta(minutes=10 * n), [s])
    await mind.score_pending(t + timedelta(hours=2), force=True)
    scores = {mind.memory.text(i): mind.memory.get(i).importance for i in range(len(mind.memory))}
    insights = await mind.reflect_if_due(t + timedelta(hours=2))
    return {"mind": mind, "scores": scores, "insights": insights}


async def group_talk(llm: Any) -> dict:
    """Three residents in the cafe talk in turn; each line sees the whole talk so far."""
    minds = [Mind(s, llm, now=DAY1) for s in (ISABELLA, KLAUS, MARIA)]
    names = [m.core.name for m in minds]
    conv = Conversation("group", names, place="Hobbs Cafe:cafe")
    t = DAY1.replace(hour=17)
    lines = []
    for n, m in enumerate(minds):
        line = await m.say(t + timedelta(minutes=n), conv, [x for x in names if x != m.core.name])
        lines.append(line)
        if line.text:
            conv.add(m.core.name, line.text)
    return {"minds": minds, "conversation": conv, "lines": lines}


SCENARIOS = {f.__name__: f for f in (whisper_mayor, react_fire, news_talk, reflect_day, group_talk)}


def view_with(view: WorldView, **kw) -> WorldView:
    return replace(view, **kw)
