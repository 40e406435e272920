"""Roles the town keeps secret and roles held once, as data (issue 39): the residents file declares
them (game/world/knowledge.py), and a line or an answer that breaks them is not said
(game/mind/facts/hidden.py).  On 4f22354 Kenji, who secretly writes the Owl column, told Eli that
Samuel wrote it; asked about herself, the mayor said she teaches civics, as she did years ago."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from pydantic import ValidationError

from game.engine.build import new_engine
from game.mind.facts.fact import TownNames
from game.mind.facts.factcheck import vet_line
from game.mind.facts.hidden import hidden_role_problem, marks
from game.world import default_town_path
from game.world.knowledge import RoleSpec, knowledge_problems, role_tables

from .fakes import scripted_model

OWL = "author of the anonymous 'Millbrook Owl' column"
PEOPLE = ("Kenji Tanaka", "Aiko Tanaka", "Eli Moreau", "Samuel Okafor", "Grace Okafor", "Nora Lindqvist", "Hank Brody")
WAS = "Grace Okafor is no longer a civics teacher at Oakhill College"
DEFAULT = default_town_path().parent if default_town_path().suffix else default_town_path()
TOWN = TownNames(people=PEOPLE, secret_roles=(("Kenji Tanaka", OWL, ("Kenji Tanaka", "Aiko Tanaka")),),
                 former_roles={"Grace Okafor": (("civics teacher", "Oakhill College"),),
                               "Nora Lindqvist": (("town nurse", ""),),
                               "Samuel Okafor": (("music teacher", "Oakhill College"),)},
                 workplaces={"Grace Okafor": "Town Hall", "Hank Brody": "Brody's Supply Store"},
                 roles={"Grace Okafor": ("mayor", "candidate for mayor"), "Hank Brody": ("candidate for mayor",)})


@pytest.mark.parametrize("speaker, listeners, line, why", [
    # given to another as a fact: invented; as a guess or a question: a resident's own suspicion
    ("Kenji Tanaka", ["Eli Moreau"], "I heard Samuel wrote the anonymous 'Millbrook Owl' column.",
     f"Samuel Okafor is not the {OWL}"),
    ("Kenji Tanaka", ["Eli Moreau"], "I think Samuel wrote the Owl column.", ""),
    ("Eli Moreau", ["Aiko Tanaka"], "Who writes the Owl column?", ""),
    # told by its holder or its knower to one outside: a secret told; among those who know: said
    ("Kenji Tanaka", ["Eli Moreau"], "I write the Millbrook Owl, you know.",
     f"the {OWL} is kept secret from Eli Moreau"),
    ("Aiko Tanaka", ["Eli Moreau"], "Kenji writes the Millbrook Owl.", f"the {OWL} is kept secret from Eli Moreau"),
    ("Kenji Tanaka", ["Aiko Tanaka"], "I wrote this week's Owl column about the fountain.", ""),
    # its holder at its work without its name (0e6b5f2's day, Kenji to Felix): told all the same
    ("Kenji Tanaka", ["Felix Adeyemi"], "I'm working on the column right now.",
     f"the {OWL} is kept secret from Felix Adeyemi"),
    ("Kenji Tanaka", ["Felix Adeyemi"], "My column is almost done.", f"the {OWL} is kept secret from Felix Adeyemi"),
    ("Kenji Tanaka", ["Aiko Tanaka"], "I'm working on the column right now.", ""),
    # (b765e22's day, Kenji to Nora and Felix)
    ("Kenji Tanaka", ["Nora Lindqvist", "Felix Adeyemi"], "I'm actually working on the Millbrook Owl column right now.",
     f"the {OWL} is kept secret from Nora Lindqvist"),
    ("Kenji Tanaka", ["Felix Adeyemi"], "I'm checking the stock of the pharmacy.", ""),
    ("Aiko Tanaka", ["Kenji Tanaka"], "Your Owl column this week was sharp.", ""),
    # named by one who cannot know it
    ("Eli Moreau", ["Aiko Tanaka"], "The Owl is written by Kenji.", f"Eli Moreau does not know who is the {OWL}"),
    # writing about it, one's own research or thoughts: no claim of authorship
    ("Eli Moreau", ["Aiko Tanaka"], "I wrote about the Owl for the college paper.", ""),
    ("Eli Moreau", ["Aiko Tanaka"], "My thoughts on the Owl are mixed.", ""),
    ("Aiko Tanaka", ["Eli Moreau"], "Your Owl research is going well.", ""),
    # a former role said as now, of its holder, by anyone; said as past, or another role: said
    ("Grace Okafor", [], "I teach civics at Oakhill College.", WAS),
    ("Grace Okafor", [], "I'm a civics teacher and the mayor.", WAS),
    ("Eli Moreau", ["Aiko Tanaka"], "Grace teaches civics, you know.", WAS),
    ("Grace Okafor", [], "I taught civics at Oakhill College before I was mayor.", ""),
    ("Grace Okafor", [], "I work at the Town Hall.", ""),
    ("Nora Lindqvist", [], "I'm the town's nurse.", "Nora Lindqvist is no longer a town nurse"),
    ("Nora Lindqvist", [], "I am a retired nurse.", ""),
    # d4e0254's interview: Samuel, retired last spring, "who has been teaching music at Oakhill College"
    ("Samuel Okafor", [], "I am Samuel, a gentle man who has been teaching music at Oakhill College for thirty "
     "years.", "Samuel Okafor is no longer a music teacher at Oakhill College"),
    ("Samuel Okafor", [], "I've been teaching music for years.", "Samuel Okafor is no longer a music teacher at "
     "Oakhill College"),
    ("Samuel Okafor", [], "I still teach piano to a few children in town.", ""),  # his lessons: of no subject
    ("Samuel Okafor", [], "I taught music at Oakhill College for thirty years.", ""),
    # 90db376's interview: "What is your job?"
    ("Samuel Okafor", [], "My job is to teach music at Oakhill College and play the piano at Bluebell Cafe.",
     "Samuel Okafor is no longer a music teacher at Oakhill College"),
    ("Samuel Okafor", [], "My job is playing the piano at Bluebell Cafe.", ""),
    ("Samuel Okafor", [], "These days my professional commitments at Oakhill College and my passion for teaching "
     "music matter most.", "Samuel Okafor is no longer a music teacher at Oakhill College"),
    ("Samuel Okafor", [], "I miss my old classes at Oakhill College.", ""),
    # 0e6b5f2's interview, what matters most: "my passion for teaching music at Oakhill College"
    ("Samuel Okafor", [], "What matters most is my passion for teaching music at Oakhill College.",
     "Samuel Okafor is no longer a music teacher at Oakhill College"),
    # 4151289's interview, his introduction: the "and" of an "I"
    ("Samuel Okafor", [], "I have a passion for music and have been teaching at Oakhill College for thirty years.",
     "Samuel Okafor is no longer a music teacher at Oakhill College"),
    ("Samuel Okafor", [], "I play the piano and have been teaching children at home.", ""),
    # d2ec812's interview: "Give an introduction of yourself."
    ("Samuel Okafor", [], "I am Samuel Okafor, a music teacher at Oakhill College.",
     "Samuel Okafor is no longer a music teacher at Oakhill College"),
    ("Samuel Okafor", [], "I am here to teach music to students.",
     "Samuel Okafor is no longer a music teacher at Oakhill College"),
    ("Eli Moreau", ["Aiko Tanaka"], "I saw Grace Okafor, a civics teacher, at the cafe.", WAS),
    ("Samuel Okafor", [], "I am Samuel Okafor, a retired music teacher.", ""),
    # 8f03815's interview, Grace of her retired husband: "Samuel is the main breadwinner, working hard"
    ("Grace Okafor", [], "Samuel is the main breadwinner in our family.", "Samuel Okafor is no longer a music "
     "teacher at Oakhill College"),
    ("Grace Okafor", [], "Samuel works long hours.", "Samuel Okafor is no longer a music teacher at Oakhill College"),
    ("Grace Okafor", [], "Samuel works hard on his garden.", ""),
    ("Grace Okafor", [], "Samuel worked hard all his life.", ""),
    ("Rosa Brody", [], "Hank works hard at the store.", ""),
    # Grace's answer on c59f68b's save: another term is the office holder's
    ("Grace Okafor", [], "I catch up with Hank Brody, who is running for a third term as mayor against me.",
     "Hank Brody does not hold the office of mayor: no other term to run for"),
    ("Hank Brody", [], "I'm running for a second term.", "Hank Brody does not hold the office of mayor: no other "
     "term to run for"),
    ("Hank Brody", [], "Grace is running for a third term as mayor.", ""),
    ("Grace Okafor", [], "I'm running for a third term as mayor against Hank Brody.", ""),
    # 8f03815's interview: the past of a word before, a "who" of the present after
    ("Samuel Okafor", [], "I am Samuel Okafor, a retired musician who teaches music at Oakhill College and plays "
     "the piano at Bluebell Cafe.", "Samuel Okafor is no longer a music teacher at Oakhill College"),
    ("Samuel Okafor", [], "I am Samuel, a gentle man who has been teaching music at Oakhill College for thirty "
     "years and retired last spring.", ""),
    ("Samuel Okafor", [], "I am here to play the piano.", ""),
])
def test_a_sentence_that_breaks_a_secret_or_former_role_is_named(speaker, listeners, line, why):
    assert hidden_role_problem(line, speaker, listeners, TOWN) == why


def test_a_role_is_marked_by_its_quoted_title_and_the_noun_after_it():
    assert marks(OWL) == [("Owl", "column")]
    assert marks("keeper of the Old Mill") == [("Mill", "")]


def test_the_residents_file_declares_secret_and_former_roles_and_refuses_impossible_ones():
    with pytest.raises(ValidationError, match="known_by is for a secret role"):
        RoleSpec(who="Kenji Tanaka", role=OWL, known_by=["Aiko Tanaka"])
    with pytest.raises(ValidationError, match="Kenji Tanaka holds it"):
        RoleSpec(who="Kenji Tanaka", role=OWL, secret=True, known_by=["Kenji Tanaka"])
    with pytest.raises(ValidationError, match="both secret and former"):
        RoleSpec(who="Kenji Tanaka", role=OWL, secret=True, former=True)
    bad = RoleSpec(who="Kenji Tanaka", role=OWL, secret=True, known_by=["Nobody Atall"])
    assert list(knowledge_problems([], [bad], {"Kenji Tanaka"})) == [
        ("roles[0].known_by", f"role {OWL!r}: known_by names 'Nobody Atall', who is not a resident")]
    data = json.loads((DEFAULT / "residents.json").read_text(encoding="utf-8"))
    tables = role_tables([RoleSpec(**r) for r in data["roles"]])
    # what anyone may say of anyone holds neither a secret nor a former role
    assert all(OWL not in rs and "civics teacher" not in rs for rs in tables.public.values())
    assert tables.secret == (("Kenji Tanaka", OWL, ("Kenji Tanaka", "Aiko Tanaka")),)
    assert tables.former["Grace Okafor"] == (("civics teacher", "Oakhill College"),)


def test_a_talk_line_that_names_the_columnist_to_eli_is_not_said():
    engine = new_engine("default", scripted_model({}))
    town = engine.core.town_names
    assert town.secret_roles and "Kenji Tanaka" not in town.roles  # the column is no public role
    books = {n: engine.core.minds[n].facts for n in ("Kenji Tanaka", "Eli Moreau")}
    said = vet_line("Kenji Tanaka", "Good morning, Eli. Samuel wrote the anonymous 'Millbrook Owl' column, I hear.",
                    ["Kenji Tanaka", "Eli Moreau"], books, datetime(2026, 3, 2, 9), town)
    assert said.text == "Good morning, Eli." and said.fixes == [
        f"misattributed: Samuel Okafor is not the {OWL}"]


# ---------------------------------------------------------------- from the reading of the day at 4f3568e

def test_a_secret_said_to_come_from_the_one_it_is_kept_from_is_not_said():
    engine = new_engine("default", scripted_model({}))
    books = {n: engine.core.minds[n].facts for n in ("Samuel Okafor", "Nora Lindqvist")}
    said = vet_line("Nora Lindqvist", "Yes, Samuel. Grace has already told me about it. I'm trying to remember.",
                    ["Nora Lindqvist", "Samuel Okafor"], books, datetime(2026, 3, 2, 15), engine.core.town_names)
    assert said.text == "Yes, Samuel. I'm trying to remember." and \
        "secret said to come from Grace Okafor, from whom it is kept" in said.fixes
    # one it is not kept from may have told it
    told = vet_line("Nora Lindqvist", "Rosa has already told me about it.", ["Nora Lindqvist", "Samuel Okafor"],
                    books, datetime(2026, 3, 2, 15), engine.core.town_names)
    assert "Rosa" in told.text


def test_the_pub_and_the_grocery_store_are_places_of_the_town():
    from game.mind.facts.unbacked import places_unknown
    town = new_engine("default", scripted_model({})).core.town_names
    # Marcus's "a new idea to bring to the pub quiz tonight" (true: his Monday quiz) was not said
    assert places_unknown("I'm looking for a new idea to bring to the pub quiz tonight.", town) == []
    assert places_unknown("I'll talk with Felix at the grocery store today.", town) == []
    assert places_unknown("We could meet at the community centre.", town) == ["the community centre"]


def test_organising_something_for_a_gathering_is_not_hosting_it():
    engine = new_engine("default", scripted_model({}))
    books = {n: engine.core.minds[n].facts for n in ("Priya Raman", "Hank Brody")}
    now = datetime(2026, 3, 2, 15)
    # Eli's "I'm organizing a student group to attend the debate" became "Grace is organizing ..."
    said = vet_line("Priya Raman", "I'm organizing a student group to attend the debate.",
                    ["Priya Raman", "Hank Brody"], books, now, engine.core.town_names)
    assert said.text.startswith("I'm organizing a student group") and not any("claim" in f for f in said.fixes)
    hosted = vet_line("Priya Raman", "I'm organizing the debate at Town Hall.", ["Priya Raman", "Hank Brody"],
                      books, now, engine.core.town_names)
    assert hosted.text.startswith("Grace is organizing") and "claim -> Grace Okafor" in hosted.fixes


def test_a_public_transport_the_town_lacks_and_parents_one_does_not_have_are_claims_nothing_backs():
    from game.mind.facts.kin import kin_unbacked
    town = new_engine("default", scripted_model({})).core.town_names
    assert town.lacks is not None
    # Grace and Rosa, asked what they would change: "improving the town's public transportation system"
    assert town.lacks("I would improve the town's public transportation system.") == ["public transport"]
    # Rosa, whose mother died: "I would call my parents"; her father alone is hers
    own = "Rosa Brody is a barista at Bluebell Cafe. She lives with her father, Hank."
    assert kin_unbacked("I would call my parents and inform them.", own) == ["my parents"]
    assert kin_unbacked("I would call my father.", own) == []
    assert kin_unbacked("I would call my parents.", "Eli lives with his mother and his father.") == []
    # Grace, who has no children (4d3a658's save): "I am Grace Okafor, a dedicated mother and wife"
    grace = "Grace Okafor is the mayor of Millbrook. Samuel Okafor: her husband of 34 years."
    assert kin_unbacked("I am Grace Okafor, a dedicated mother and wife.", grace) == [
        "I am Grace Okafor, a dedicated mother"]
    assert kin_unbacked("I am Ines Moreau, a proud mother and cafe owner.", "Ines raised her son Eli alone.") == []
    # ... and "my husband Samuel Okafor, who is my devoted wife": her text says husband, his says wife
    from game.mind.facts.claims import relation_claims
    bad = [c.what for c in relation_claims("I live with my husband Samuel Okafor, who is my devoted wife.",
                                           "Grace Okafor", [], town.people, town.relations) if not c.backed]
    assert bad == ["wife of Grace Okafor"]
    assert all(c.backed for c in relation_claims("I live with my wife Grace Okafor.", "Samuel Okafor", [],
                                                 town.people, town.relations))


def test_a_true_answer_to_the_player_written_as_narration_or_in_the_third_person_is_said_as_hers():
    """In play (2026-12-02, 05:50), Felix (embodied) asked Nora whether Rosa works at the cafe today: both her
    answers were true and both were withheld, so she did not answer ('Nora nods, "Yes, Rosa Brody works at the
    cafe today.', no closing quote; 'Yes, Nora Lindqvist remembers that Rosa Brody works at the cafe today.')."""
    engine = new_engine("default", scripted_model({}))
    books = {n: engine.core.minds[n].facts for n in ("Nora Lindqvist", "Felix Adeyemi")}
    for line, said in (('Nora nods, "Yes, Rosa Brody works at the cafe today.',
                        "Yes, Rosa Brody works at the cafe today."),
                       ("Yes, Nora Lindqvist remembers that Rosa Brody works at the cafe today.",
                        "Yes, I remember that Rosa Brody works at the cafe today.")):
        assert vet_line("Nora Lindqvist", line, ["Nora Lindqvist", "Felix Adeyemi"], books,
                        datetime(2026, 3, 2, 5, 52), engine.core.town_names, may_move=False).text == said


def test_a_bare_yes_goes_with_the_claim_it_affirms():
    """Aiko to Eli at 15:02 on the evening's day of 2026-12-02, asked "Did Samuel Okafor tell you about this?":
    "Samuel Okafor told me about it" (a talk she never had) was not said, and "Yes, Eli!" alone affirmed it."""
    from game.mind.facts.leaning import kept_apart
    from game.mind.view import Conversation
    engine = new_engine("default", scripted_model({}))
    talk = Conversation("k9", ["Eli Moreau", "Aiko Tanaka"], place="Oakhill College library:reading room")
    talk.add("Eli Moreau", "Hi, Aiko! Did Samuel Okafor tell you about this?")
    line = "Yes, Eli! Samuel Okafor told me about it. I'm looking for a book on the town's history."
    said = engine.talk_facts.vet(talk, "Aiko Tanaka", line, datetime(2026, 3, 2, 15, 2))[1]
    assert said == "I'm looking for a book on the town's history.", said
    assert kept_apart(["Yes, I am.", "Bad."], lambda p: p == "Bad.") == ["Yes, I am."]  # (a yes that says more)
    assert kept_apart(["Sure!", "Fine.", "Bad."], lambda p: p == "Bad.") == ["Sure!", "Fine."]  # (not just before)
