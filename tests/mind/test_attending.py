"""Whether a resident goes to a gathering it was told of (issue 27, ``mind/planning/attending.py``): the host
goes; one whose plan already has it at the gathering's place then goes with no call; the others are
asked, and the prompt shows what their plan says for that hour, "nothing planned" for a gap."""

from __future__ import annotations

from datetime import datetime

from fake_model import FakeModel

from game.mind.config import MindConfig
from game.mind.facts.fact import TownNames
from game.mind.mind import Mind
from game.mind.planning.attending import _plan_then
from game.mind.view import DayPlan, PlanBlock, WorldView

from .conftest import ALLOWED, DAY1, SPEC
from .fakes import scripted_model

KLAUS = {**SPEC, "name": "Klaus Mueller", "workplace": "Town Hall", "home": "Isabella's apartment",
         "currently": "Klaus is writing a paper.", "relationships": {"Isabella Rodriguez": "a friend"}}
PLACES = ("Isabella's apartment", "Hobbs Cafe", "Johnson Park", "Town Hall")
VIEW = WorldView(now_text="Friday, Day 1", here="Isabella's apartment:kitchen", allowed=ALLOWED,
                 known_places="\n".join(PLACES))


def klaus(plan: list[str], go: bool = False) -> tuple[Mind, FakeModel]:
    llm = scripted_model({"identity": [{"summary": "Klaus studies."}], "plan_day": [{"plan": plan}],
                   "decompose": [{"steps": [{"action": "reading", "minutes": 30, "place": ALLOWED[0]}]}],
                   "importance": [lambda *_: {"ratings": ["important"] * 40}],
                   "attend": [{"go": go, "why": "x"}]})
    mind = Mind(KLAUS, llm, config=MindConfig(), now=DAY1)
    mind.know_town(TownNames(places=PLACES, people=("Isabella Rodriguez", "Klaus Mueller")))
    return mind, llm


def day(at_five: str) -> list[str]:
    """Klaus's Friday, line by line of its frame between waking and bed (work at Town Hall from 9 to
    5), ``at_five`` at 17:00."""
    return ["read the paper", "file the reports", at_five, "rest at home"]


async def told(mind: Mind, now: datetime) -> None:
    fact = mind.read_fact("I am hosting a party at Hobbs Cafe today from 5pm to 7pm", now,
                          host="Isabella Rodriguez", source="Isabella Rodriguez")
    assert fact is not None and fact.place == "Hobbs Cafe" and (fact.start, fact.end) == (17 * 60, 19 * 60)


async def test_one_whose_plan_has_it_at_the_place_then_goes_without_a_call():
    mind, llm = klaus(day("help out at Hobbs Cafe"))
    now = DAY1.replace(hour=8)
    await told(mind, now)
    await mind.next_action(now, VIEW)
    assert "attend" not in llm.purposes()
    assert mind.stats["attend_yes"] == 1
    assert any(b.activity.startswith("going to Isabella's party") for b in mind.plan.blocks)


async def test_the_others_are_asked_with_what_their_plan_says_then():
    mind, llm = klaus(day("read a book at home"))
    now = DAY1.replace(hour=8)
    await told(mind, now)
    await mind.next_action(now, VIEW)
    asked = [m for t, m, _ in llm.calls if t.purpose == "attend"]
    assert len(asked) == 1
    assert "Klaus's plan at that time: read a book at home\n" in asked[0][-1].content
    assert mind.stats["attend_no"] == 1 and not any("party" in b.activity for b in mind.plan.blocks)


async def test_a_gap_or_a_blank_in_the_plan_reads_nothing_planned():
    mind, _ = klaus(["6-22 rest"])
    await told(mind, DAY1.replace(hour=8))
    fact = next(iter(mind.facts))
    for blocks in ((PlanBlock(360, 600, "work"),), (PlanBlock(360, 1320, "  "),)):
        mind.agenda.plan = DayPlan(day=1, wake=360, bed=1320, blocks=blocks)
        assert _plan_then(mind.agenda, fact) == "nothing planned"
