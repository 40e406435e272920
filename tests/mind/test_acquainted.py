"""Who knows whom, as data (issue 39): a small town's residents all know each other but its
newcomers, who know whom their relationships name (residents.json ``small_town``, ``newcomer``).
On d4e0254 Nora, the town nurse of forty years, told Kenji the pharmacist "It's great to meet you":
their relationships do not name each other, and nothing else said they had met."""

from __future__ import annotations

import json
import shutil
from datetime import datetime

import pytest

from game.engine.build import new_engine
from game.mind.components import Context, Relationships, assemble
from game.mind.facts.fact import TownNames
from game.mind.facts.linechecks import meets_the_known
from game.world import default_town_path, load_town

from .fakes import scripted_model

DEFAULT = default_town_path().parent if default_town_path().suffix else default_town_path()
MONDAY = datetime(2026, 3, 2, 9)
FOLK = frozenset({"Nora Lindqvist", "Kenji Tanaka", "Eli Moreau"})
TOWN = TownNames(people=(*FOLK, "Felix Adeyemi"), townsfolk=FOLK,
                 relations={"Felix Adeyemi": {"Nora Lindqvist": "his landlady"}})


@pytest.fixture(scope="module")
def engine():
    return new_engine("default", scripted_model({}))


@pytest.mark.parametrize("a, b, known", [
    ("Nora Lindqvist", "Kenji Tanaka", True),  # both townsfolk
    ("Felix Adeyemi", "Nora Lindqvist", True),  # his relationship names her
    ("Nora Lindqvist", "Felix Adeyemi", True),  # (either way)
    ("Felix Adeyemi", "Eli Moreau", False),  # a newcomer and one his relationships do not name
    ("Eli Moreau", "Felix Adeyemi", False),
])
def test_who_knows_whom_by_what_the_town_declares(a, b, known):
    assert TOWN.acquainted(a, b) is known
    line = "It's great to meet you."
    assert bool(meets_the_known(line, a, [b], TOWN)) is known


def test_a_town_that_declares_no_small_town_knows_only_the_relationships():
    town = TownNames(people=tuple(FOLK), relations={"Nora Lindqvist": {"Kenji": "the pharmacist"}})
    assert town.acquainted("Kenji Tanaka", "Nora Lindqvist") and not town.acquainted("Eli Moreau", "Nora Lindqvist")


def test_the_default_town_is_a_small_town_with_one_newcomer(engine):
    names = engine.core.town_names
    assert "Felix Adeyemi" not in names.townsfolk and {"Nora Lindqvist", "Kenji Tanaka"} <= names.townsfolk
    assert len(names.townsfolk) == 11
    assert meets_the_known("It's great to meet you, Kenji.", "Nora Lindqvist", ["Kenji Tanaka"], names)
    assert not meets_the_known("Nice to meet you, Eli.", "Felix Adeyemi", ["Eli Moreau"], names)


def test_a_file_without_small_town_declares_no_townsfolk(tmp_path):
    shutil.copytree(DEFAULT, tmp_path / "t")
    data = json.loads((tmp_path / "t" / "residents.json").read_text())
    del data["small_town"]
    (tmp_path / "t" / "residents.json").write_text(json.dumps(data))
    town = load_town(tmp_path / "t")
    assert town.small_town is False and next(r for r in town.residents if r.name == "Felix Adeyemi").newcomer


async def test_a_talks_prompt_names_a_neighbour_as_known_and_a_newcomer_as_not_met_until_they_talk(engine):
    nora, felix = engine.core.minds["Nora Lindqvist"], engine.core.minds["Felix Adeyemi"]

    async def people(mind, about):
        mind.core.seed(MONDAY)
        ctx = Context(mind.core, mind.agenda, MONDAY, None, focus=" ".join(about), about=about)
        return await assemble([Relationships()], ctx)

    assert "- Kenji Tanaka: a neighbour you have known for years (works at Greenway Market and Pharmacy)" in \
        await people(nora, ["Kenji Tanaka"])
    assert "- Eli Moreau: you have not met before" in await people(felix, ["Eli Moreau"])
    felix.core.memory.add("conversation", "I talked with Eli Moreau; I said: Hello.", MONDAY)
    assert (await people(felix, ["Eli Moreau"])).endswith("- Eli Moreau: someone you have talked with")


async def test_an_interview_about_a_neighbour_of_years_knows_them_and_a_newcomer_has_never_met_them(engine):
    from game.mind.interview.answering import build_context

    everyone = sorted(engine.core.minds)
    nora = await build_context(engine.core.minds["Nora Lindqvist"], "What do you think of Kenji Tanaka?", MONDAY,
                               candidates=everyone)
    assert "Kenji Tanaka" in nora.known and not nora.strangers
    assert "- Kenji Tanaka: a neighbour you have known for years (works at Greenway Market and Pharmacy)" in \
        nora.sections["People you know"]
    felix = await build_context(engine.core.minds["Felix Adeyemi"], "What do you think of Marcus Bell?", MONDAY,
                                candidates=everyone)
    assert felix.strangers == ["Marcus Bell"]


# The day at d4e0254 read by hand: two of its talks were made wrong by our own checks.
def test_a_place_in_the_other_half_of_an_or_is_not_the_gatherings(engine):
    from game.mind.facts.factcheck import fix_fact_words

    debate = next(f for f in engine.core.minds["Priya Raman"].facts if "debate" in f.what)
    said = "Do you think I should go to the debate or stay in the pub?"  # Priya to Marcus, of his pub
    assert fix_fact_words(said, debate, MONDAY, engine.core.town_names) == (said, [])
    fixed, how = fix_fact_words("The debate is in the pub, right?", debate, MONDAY, engine.core.town_names)
    assert fixed == "The debate is in Town Hall, right?" and how == ["place the pub -> Town Hall"]


def test_a_sentence_that_leans_on_one_not_said_is_not_said_either(engine):
    from game.mind.facts.factcheck import vet_line

    books = {n: engine.core.minds[n].facts for n in ("Nora Lindqvist", "Rosa Brody", "Samuel Okafor", "Grace Okafor")}
    # Nora has heard of no party: its hour, in the sentence after, is not hers to say
    said = vet_line("Nora Lindqvist", "Hello, Rosa! I saw a headline about a party being planned in Millbrook. "
                    "It's happening tomorrow at 6:00 PM.", ["Nora Lindqvist", "Rosa Brody"], books, MONDAY,
                    engine.core.town_names)
    assert said.text == "Hello, Rosa!" and said.speaker == "Nora Lindqvist"
    # to Grace, the surprise and what leans on it go; what stands alone stays
    said = vet_line("Samuel Okafor", "I've been planning a surprise party for your birthday. She hates a fuss, "
                    "they say. I hope the debate goes well.", ["Samuel Okafor", "Grace Okafor"], books, MONDAY,
                    engine.core.town_names)
    assert said.text == "I hope the debate goes well."
