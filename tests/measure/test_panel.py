"""Words in character on a played save (issue 16): the small cast of the default town, played for
three game hours on the embedded Qwen 1.5B and then asked a fixed panel about their own work and
stances (tests/fixtures/grounding/panel.toml, recorded in panel.jsonl), answer from the facts their
personas hold, and no answer copies an example from a prompt.

Before the issue, Marcus Bell, who runs The Copper Kettle and backs Hank, told a visitor "It's
fascinating how Millbrook is thriving!" and answered "who will win the election?" with his pub quiz;
3 of 11 residents answered a question with the interview prompt's own example.  Re-record with the
command in panel.toml after a change to the mind's or the interview's prompts."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from game.experiment.runner import prepare, run_experiment
from game.experiment.scenario import load_scenario
from game.llm.record import ReplayLLM

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "grounding"
PROMPTS = [Path(__file__).resolve().parents[2] / "game" / d / "prompts" for d in ("mind", "measure")]

WORK, VOTE, WEEK = (
    "What is your work, and where do you do it?",
    "Who do you want to win the election for mayor, and why?",
    "What are you busy with this week?",
)

# What each persona says (game/maps/default/residents.json), as words an answer from it must hold one
# of.  A question a persona says nothing about (whom Ines votes for) is not scored.
FACTS: dict[str, dict[str, tuple[str, ...]]] = {
    "Grace Okafor": {WORK: ("mayor", "town hall"),
                     VOTE: ("myself", "i am running", "i'm running", "third term", "re-elect", "me ", "i want to win"),
                     WEEK: ("debate", "campaign", "fountain", "budget", "election", "council")},
    "Samuel Okafor": {WORK: ("music", "piano", "lesson", "retired", "taught"),
                      WEEK: ("party", "birthday", "surprise", "grace", "lesson", "piano")},
    "Hank Brody": {WORK: ("store", "supply", "shop", "fix"),
                   VOTE: ("myself", "i am running", "i'm running", "me ", "roads", "repairs", "i want to win"),
                   WEEK: ("debate", "campaign", "store", "election", "roads", "repairs")},
    "Rosa Brody": {WORK: ("barista", "bluebell", "cafe", "café", "coffee"),
                   VOTE: ("grace",),
                   WEEK: ("party", "birthday", "surprise", "grace", "paint", "cafe")},
    "Ines Moreau": {WORK: ("cafe", "café", "bluebell"),
                    WEEK: ("party", "birthday", "cake", "cafe", "pastr", "grace")},
}


def _examples() -> list[str]:
    """The example answers and sentences in every prompt template: quoted strings of 4+ words."""
    out = []
    for folder in PROMPTS:
        for f in folder.glob("*.txt"):
            for q in re.findall(r'"([^"]{12,})"', f.read_text(encoding="utf-8")):
                if len(q.split()) >= 4:
                    out.append(q.lower())
    return out


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    out = tmp_path_factory.mktemp("panel")

    async def run() -> dict:
        llm = ReplayLLM(FIXTURES / "panel.jsonl")
        try:
            return await run_experiment(prepare(load_scenario(FIXTURES / "panel.toml"), out), llm, out,
                                        progress=None)
        finally:
            await llm.aclose()

    return asyncio.run(run())


def test_the_panel_replays_whole(result):
    assert result["errors"] == []
    assert sorted({a["resident"] for a in result["answers"]}) == sorted(FACTS)
    assert len(result["answers"]) == 3 * len(FACTS)
    assert [a["resident"] for a in result["answers"] if a["verdict"] == "no answer"] == []  # (each one recorded)
    assert result["model_led"]["share"] >= 0.5  # a played save: the model led their morning


def test_residents_answer_about_their_role_and_stances_from_their_facts(result):
    missed = []
    scored = 0
    for a in result["answers"]:
        words = FACTS[a["resident"]].get(a["question"])
        if words is None:
            continue
        scored += 1
        text = a["answer"].lower() + " "
        if not any(w in text for w in words):
            missed.append(f'{a["resident"]} / {a["question"]}: {a["answer"]}')
    assert scored == 13
    # recorded 2026-11-25 (the two-hour decompose): 13 of 13.  The recording before: 12 of 13, Rosa,
    # who secretly backs Grace, answered "I want to win the election for mayor ... because Rosa
    # admires her and I want to help her become the mayor": the 1.5B reads "who do you want to win"
    # as "do you want to win" (4 of 5 answered so, then and now; for the two candidates it is their
    # stance, and the questions that read so are not scored).  One miss is the most a recording may have.
    assert len(missed) <= 1, "\n".join(missed)


def test_no_answer_copies_a_prompts_example(result):
    examples = _examples()
    assert len(examples) >= 5
    for a in result["answers"]:
        text = a["answer"].lower()
        assert not any(e in text for e in examples), a
        assert "anyone called sam" not in text and "fascinating how millbrook" not in text, a
