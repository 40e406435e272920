"""What a resident is busy with is its own to say (game/mind/facts/ownpoints.py): a talk line that
says another's point with nothing of the speaker's life behind it, or gives the speaker's own point
to the listener, is not said.  Read on 19282ee's whole day: Ines told Rosa "she has a growing crush
on Felix Adeyemi, the new baker" (Rosa's), Kenji told Felix "I see you're selling your bread to
Bluebell Cafe" (Felix's plan, which nobody told him).  The default town's own residents."""

from __future__ import annotations

from datetime import datetime

import pytest

from game.engine.build import new_engine
from game.mind.facts.ownpoints import point_not_theirs
from game.mind.facts.unbacked import sentences
from game.mind.view import Conversation

from .fakes import scripted_model

MONDAY = datetime(2026, 3, 2, 10, 24)


@pytest.fixture(scope="module")
def engine():
    return new_engine("default", scripted_model({}))


def _why(engine, speaker: str, listener: str, line: str) -> str:
    minds, town = engine.core.minds, engine.core.town_names
    points = {p: sentences(m.persona.currently) for p, m in minds.items()}
    lives = {p: f"{m.persona.brief()} {' '.join(m.persona.relationships.values())}" for p, m in minds.items()}
    public = " ".join(f"{p} is {r}" + (" running against in the election" if r.startswith("candidate") else "")
                      for p, rs in town.roles.items() for r in rs)
    return point_not_theirs(line, speaker, [listener], points, lives, town.people, public=public, homes=town.homes)


@pytest.mark.parametrize("speaker, listener, line, why", [
    ("Ines Moreau", "Rosa Brody", "I also know she has a growing crush on Felix Adeyemi, the new baker.",
     "Rosa's own to bring up"),
    ("Kenji Tanaka", "Felix Adeyemi", "I see you're selling your bread to Bluebell Cafe.", "Felix's own to bring up"),
    # Rosa's own point given to Ines: one word ("crush") and one third person (Felix) tell it
    ("Rosa Brody", "Ines Moreau", "I know you have a crush on Felix.", "Rosa's own, not Ines's"),
    ("Rosa Brody", "Ines Moreau", "You have a busy day with Felix, I hear.", ""),
    # what the speaker's own life holds, what everyone knows, what one's housemate is busy with: said
    ("Ines Moreau", "Rosa Brody", "I know Rosa is helping Samuel prepare Grace's surprise party.", ""),
    ("Rosa Brody", "Ines Moreau", "I'm helping Samuel Okafor prepare Grace's surprise party at Bluebell Cafe.", ""),
    ("Marcus Bell", "Hank Brody", "I know you're running for mayor against Grace.", ""),
    ("Samuel Okafor", "Grace Okafor", "You are preparing for the debate on Wednesday, aren't you.", ""),
    ("Aiko Tanaka", "Kenji Tanaka", "How is the pharmacy today?", ""),
])
def test_a_line_that_says_anothers_point_is_named(engine, speaker, listener, line, why):
    assert _why(engine, speaker, listener, line) == why


def test_the_talks_check_leaves_the_rest_of_the_line(engine):
    from game.engine.talks.facts import TalkFacts

    facts = TalkFacts(engine.talk_facts.core)
    talk = Conversation("t9", ["Rosa Brody", "Ines Moreau"])
    line = "I know you are mixing coffee. I also know she has a growing crush on Felix Adeyemi, the new baker."
    assert facts.vet(talk, "Ines Moreau", line, MONDAY)[1] == "I know you are mixing coffee."
    assert talk.checks[0][0] == "misattributed: Rosa's own to bring up"
