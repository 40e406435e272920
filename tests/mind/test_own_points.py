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
    return point_not_theirs(line, speaker, [listener], points, lives, town.people, public=public, homes=town.homes,
                             places=town.places)


@pytest.mark.parametrize("speaker, listener, line, why", [
    ("Ines Moreau", "Rosa Brody", "I also know she has a growing crush on Felix Adeyemi, the new baker.",
     "Rosa's own to bring up"),
    ("Kenji Tanaka", "Felix Adeyemi", "I see you're selling your bread to Bluebell Cafe.", "Felix's own to bring up"),
    # Rosa's own point given to Ines: one word ("crush") and one third person (Felix) tell it
    ("Rosa Brody", "Ines Moreau", "I know you have a crush on Felix.", "Rosa's own, not Ines's"),
    ("Rosa Brody", "Ines Moreau", "You have a busy day with Felix, I hear.", ""),
    # the listener's point taken as the speaker's own (Aiko, the librarian, to Felix, the baker)
    ("Aiko Tanaka", "Felix Adeyemi", "I was thinking about selling some bread.", "Felix's own, not Aiko's"),
    # ... with "I want to" (Kenji, the pharmacist, to Felix on 2c4c6ac's day: Felix fears Ines sees him as a rival)
    ("Kenji Tanaka", "Felix Adeyemi", "I know Ines Moreau is coming to visit soon, and I want to make sure she sees "
     "me as a friend rather than a rival.", "Felix's own, not Kenji's"),
    ("Felix Adeyemi", "Kenji Tanaka", "I want to make sure Ines sees me as a friend, not a rival.", ""),
    ("Ines Moreau", "Samuel Okafor", "I'm making the cake for the surprise party.", ""),
    ("Felix Adeyemi", "Ines Moreau", "I'm selling my bread at the market on Saturday.", ""),
    # a place's name is no one's point (19282ee: Ines to her son; Nora to Ines)
    ("Ines Moreau", "Eli Moreau", "It's great that you're eating lunch at Bluebell Cafe.", ""),
    ("Nora Lindqvist", "Ines Moreau", "I'm going to meet Grace Okafor at Bluebell Cafe.", ""),
    # what the speaker's own life holds, what everyone knows, what one's housemate is busy with: said
    ("Ines Moreau", "Rosa Brody", "I know Rosa is helping Samuel prepare Grace's surprise party.", ""),
    ("Rosa Brody", "Ines Moreau", "I'm helping Samuel Okafor prepare Grace's surprise party at Bluebell Cafe.", ""),
    ("Marcus Bell", "Hank Brody", "I know you're running for mayor against Grace.", ""),
    ("Samuel Okafor", "Grace Okafor", "You are preparing for the debate on Wednesday, aren't you.", ""),
    ("Aiko Tanaka", "Kenji Tanaka", "How is the pharmacy today?", ""),
    # the speaker's own doing said as the listener's in the past tense (Marcus to Nora, 8f03815's day)
    ("Marcus Bell", "Nora Lindqvist", "I know you started serving breakfast and coffee at 2 PM and that's been "
     "making Ines Moreau furious.", "Marcus's own, not Nora's"),
    ("Marcus Bell", "Nora Lindqvist", "I started serving breakfast and coffee at The Copper Kettle.", ""),
    ("Samuel Okafor", "Grace Okafor", "You started as mayor eight years ago.", ""),
    # "we" and a tag question claim too (Kenji to Felix on b765e22's day); a plain question claims nothing
    ("Kenji Tanaka", "Felix Adeyemi", "We're opening Rise & Shine on Saturday, right?", "Felix's own to bring up"),
    ("Kenji Tanaka", "Felix Adeyemi", "Are you opening Rise & Shine on Saturday?", ""),
    # what everyone knows (who the candidates are) does not back the rest of another's point: Eli's Owl column
    # "mocks both mayoral candidates", said by Felix to Eli on 9d99520's day
    ("Felix Adeyemi", "Eli Moreau", "It's kind of funny that both mayoral candidates are mocking him.",
     "Eli's own to bring up"),
    ("Felix Adeyemi", "Eli Moreau", "Both mayoral candidates are busy with the debate.", ""),
    ("Felix Adeyemi", "Kenji Tanaka", "We're opening Rise & Shine on Saturday, right?", ""),
    # the listener's search taken as the speaker's by one who holds much of it (Aiko, who knows her husband writes
    # the column, to Eli on 4d3a658's day)
    ("Aiko Tanaka", "Eli Moreau", "I need to find out who writes the anonymous 'Millbrook Owl' column in the town "
     "newsletter, which mocks both mayoral candidates.", "Eli's own, not Aiko's"),
    ("Eli Moreau", "Aiko Tanaka", "I need to find out who writes the anonymous 'Millbrook Owl' column.", ""),
    ("Aiko Tanaka", "Kenji Tanaka", "I need to find out what time the book fair opens.", ""),
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


def test_a_point_given_to_a_third_and_a_point_s_day_told_as_done(engine):
    # 136a191's day: Ines to Eli "I'm also talking with Marcus Bell about his new bakery stall" (Felix's);
    # Felix to Rosa on the Monday "I opened Rise & Shine at Greenway Market on Saturday"
    from game.mind.facts.ownpoints import done_before_its_day, point_given_to_another

    minds, town = engine.core.minds, engine.core.town_names
    points = {p: sentences(m.persona.currently) for p, m in minds.items()}
    lives = {p: m.persona.brief() for p, m in minds.items()}

    def given(speaker: str, listener: str, line: str) -> str:
        return point_given_to_another(line, speaker, [listener], points, lives, town.people, places=town.places,
                                      gatherings=tuple(town.parts))
    assert given("Ines Moreau", "Eli Moreau", "I'm also talking with Marcus Bell about his new bakery stall.") == \
        "Felix's, not Marcus's"
    assert given("Ines Moreau", "Eli Moreau", "I'm worried about Felix's new bakery stall.") == ""
    # its own point, done for a third (6186d53's day, Priya to Grace): said
    assert given("Priya Raman", "Grace Okafor", "I'm volunteering for Hank Brody's campaign and writing his debate "
                 "notes for Wednesday.") == ""
    assert given("Rosa Brody", "Ines Moreau", "I'm helping with the surprise party for Grace's 60th birthday.") == ""
    assert given("Rosa Brody", "Ines Moreau", "Samuel told me he's hosting a surprise party for Grace.") == ""
    every = [x for ps in points.values() for x in ps]
    assert done_before_its_day("Yeah, I opened Rise & Shine at Greenway Market on Saturday.", every) == \
        "Saturday is still to come"
    assert done_before_its_day("I'm opening Rise & Shine on Saturday.", every) == ""
    assert done_before_its_day("We opened the garden on Saturday.", every) == ""  # no point has it ahead


def test_the_talks_check_reads_what_was_heard_copies_with_a_word_changed_and_a_memory_s_form(engine):
    from game.engine.talks.facts import TalkFacts

    facts = TalkFacts(engine.talk_facts.core)
    talk = Conversation("t1", ["Marcus Bell", "Ines Moreau"])
    talk.lines.append(("Ines Moreau", "I'm planning the cake for Grace's surprise party at Bluebell Cafe."))
    said = "I hear you're planning the cake for Grace."  # Ines's point, but she said it to him just now
    assert facts.vet(talk, "Marcus Bell", said, MONDAY)[1] == said
    first = Conversation("t2", ["Nora Lindqvist", "Ines Moreau"])
    line = "I just wanted to let you know that I'm going to Greenway Market and Pharmacy."
    assert facts.vet(first, "Nora Lindqvist", line, MONDAY)[1] == line
    other = Conversation("t3", ["Grace Okafor", "Nora Lindqvist"])
    again = "Hi, Nora! I wanted to let you know that I'm going to Greenway Market and Pharmacy."
    assert facts.vet(other, "Grace Okafor", again, MONDAY)[1] == "Hi, Nora!"
    told = facts.vet(Conversation("t4", ["Nora Lindqvist", "Felix Adeyemi"]), "Nora Lindqvist",
                     "I talked with Ines Moreau; I said: Hello, Ines! How is the garden, Felix?", MONDAY)
    assert told[1] == "How is the garden, Felix?"


def test_a_number_of_years_a_resident_holds_is_not_set_from_another_relationship(engine):
    # 8f03815's day: Ines "I've been working here for twelve years" (she opened the cafe twelve years
    # ago) set to 34: Grace's relationships ran together as one sentence, "her husband of 34 years"
    # with the cafe and the work of the next ones
    from game.engine.talks.facts import TalkFacts

    facts = TalkFacts(engine.talk_facts.core)
    line = "Hey, Rosa! I've been working here for twelve years."
    assert facts.vet(Conversation("t5", ["Ines Moreau", "Rosa Brody"]), "Ines Moreau", line, MONDAY)[1] == line
    wrong = "Grace and I have been married for over 50 years."
    assert facts.vet(Conversation("t6", ["Samuel Okafor", "Rosa Brody"]), "Samuel Okafor", wrong,
                     MONDAY)[1] == "Grace and I have been married."


def test_after_anothers_plan_said_as_ones_own_the_line_goes_no_further(engine):
    # 8f03815's day: Eli to Felix "I'm also planning to sell my bread to Bluebell Cafe instead of Ines
    # Moreau's bakery. It's a bit more challenging, ... Do you have any advice on how to market my bread?"
    from game.engine.talks.facts import TalkFacts

    facts = TalkFacts(engine.talk_facts.core)
    # (its "instead of Ines Moreau's bakery" is cut before, by placekinds.py: test_placekinds.py)
    line = ("Hello Felix! I'm also planning to sell my bread to Bluebell Cafe. "
            "It's a bit more challenging, but I'm excited. Do you have any advice on how to market my bread?")
    talk = Conversation("t7", ["Eli Moreau", "Felix Adeyemi"])
    assert facts.vet(talk, "Eli Moreau", line, MONDAY)[1] == "Hello Felix!"
    # the listener's own said to it ("you're"): only that sentence goes (Kenji to Felix, the same day)
    line = "Hello Felix! I'm glad you're opening the stall on Saturday. What are you preparing?"
    said = facts.vet(Conversation("t8", ["Kenji Tanaka", "Felix Adeyemi"]), "Kenji Tanaka", line, MONDAY)[1]
    assert said.endswith("What are you preparing?")


def test_a_talk_of_today_is_not_one_of_last_night_and_she_is_the_one_the_talk_named():
    # ca91aae's day, Marcus to Hank after "What's up with Ines?" and "She's really upset ...": "Yes, I do.
    # She told me about it last night." (he talked with Ines that day, not the night before)
    engine = new_engine("default", scripted_model({}))  # (its own: a memory is added)
    facts = engine.talk_facts
    mind = engine.core.minds["Marcus Bell"]
    mind.memory.add("conversation", "I talked with Ines Moreau; I said: Morning, Ines! Busy day?",
                    MONDAY.replace(hour=9))
    lines = [("Marcus Bell", "I'm fine, thanks. What's up with Ines?"),
             ("Hank Brody", "She's really upset because of the coffee shop. Do you know anything about that?")]
    talk = Conversation("t9", ["Hank Brody", "Marcus Bell"], lines=list(lines))
    said = facts.vet(talk, "Marcus Bell", "Yes, I do. She told me about it last night.", MONDAY)[1]
    assert said == "Yes, I do."
    talk = Conversation("t10", ["Hank Brody", "Marcus Bell"], lines=list(lines))
    assert facts.vet(talk, "Marcus Bell", "Yes, I do. She told me about it this morning.", MONDAY)[1].endswith(
        "this morning.")


def test_a_past_told_as_remembered_is_one_the_speaker_holds():
    from game.mind.facts.pasttalk import shared_past_unheld
    eli = ["Eli studies history at Oakhill College and writes for the college paper."]
    said = "Do you remember when you were in high school and started writing for the college paper?"
    assert shared_past_unheld(said, eli) == "a past nothing it holds tells of: high school"  # (Priya to Eli)
    assert shared_past_unheld("Remember when you took piano lessons with me?", ["his former piano pupil"]) == ""
    assert shared_past_unheld("When you were little, you loved the piano.", ["taught her when she was little"]) == ""
    assert shared_past_unheld("I was young once, and I loved the piano.", []) == ""
    # b61bcdc's day: Grace to Eli, of the Owl column he had just said he read of
    grace = ["Grace Okafor has been the mayor of Millbrook for eight years.", "Eli: I saw a funny article."]
    assert shared_past_unheld("I remember you writing about it in the paper.", grace).startswith("a past nothing")
    assert shared_past_unheld("I remember you writing for the college paper.", eli) == ""
    assert shared_past_unheld("I remember you told me.", grace) == ""


def test_another_s_sentence_said_back_in_the_same_talk_is_not_said():
    # 2bbddfe's day: Marcus says Hank's line back; Samuel says Rosa's with a word or two changed
    from game.engine.talks.copies import SaidLines
    from game.mind.facts.factcheck import Vetted

    said = SaidLines()
    talk = Conversation("t11", ["Hank Brody", "Marcus Bell"], lines=[
        ("Hank Brody", "I'll be back soon. I want to make sure everything is packed up and ready to go.")])
    v = said.not_copied(talk, Vetted("Marcus Bell", "Alright, Hank. I want to make sure everything is packed up "
                                                    "and ready to go."))
    assert v.text == "Alright, Hank."
    talk = Conversation("t12", ["Rosa Brody", "Samuel Okafor"], lines=[
        ("Rosa Brody", "I just got up and ready for the day, and Ines is going to talk with me tomorrow about the "
                       "surprise party.")])
    v = said.not_copied(talk, Vetted("Samuel Okafor", "I'm ready for the day, and Ines is going to talk with me "
                                                      "tomorrow about the surprise party. See you at six!"))
    assert v.text == "See you at six!"
    v = said.not_copied(talk, Vetted("Samuel Okafor", "Thank you, Rosa, I will see you tomorrow at the cafe."))
    assert v.text == "Thank you, Rosa, I will see you tomorrow at the cafe."
    # the question just asked, said back as the answer (Marcus to the player on 48faeb3)
    talk = Conversation("t13", ["Tom Reed", "Marcus Bell"], lines=[
        ("Tom Reed", "Sorry to wake you, I'm Tom, a mapmaker. Is there a quiz at the pub tonight?")])
    v = said.not_copied(talk, Vetted("Marcus Bell", "Is there a quiz at The Copper Kettle tonight? Yes, at eight."))
    assert v.text == "Yes, at eight."
    for fine in ("Am I going to the party? Yes, I am!", "Is it tonight? I thought it was tomorrow."):
        talk = Conversation("t14", ["Tom Reed", "Marcus Bell"], lines=[
            ("Tom Reed", "Are you going to the party? Is there a quiz at the pub tonight?")])
        assert said.not_copied(talk, Vetted("Marcus Bell", fine)).text == fine, fine
    # a question's words said as a statement are its answer, not a copy
    talk = Conversation("t15", ["Tom Reed", "Marcus Bell"], lines=[
        ("Tom Reed", "Hello there. Is there a quiz at the pub tonight for everyone?")])
    fine = "Yes, there is a quiz at the pub tonight for everyone."
    assert said.not_copied(talk, Vetted("Marcus Bell", fine)).text == fine


def test_help_offered_with_the_speakers_own_task_gives_it_to_the_listener():
    # Eli to Aiko on 75fad48's day: his search for the Owl's author, said as hers; Aiko's own words
    # speak of a column too (her husband's), which alone does not make the search hers
    from game.mind.facts.ownpoints import point_not_theirs

    points = {"Eli Moreau": ["Eli Moreau is trying to find out who writes the anonymous 'Millbrook Owl' column."],
              "Aiko Tanaka": ["Aiko Tanaka is organizing a book fair in the library for next weekend."]}
    lives = {"Eli Moreau": "Eli Moreau is a student. " + points["Eli Moreau"][0],
             "Aiko Tanaka": "Aiko Tanaka is the librarian. She worries that he will discover her husband's secret "
                            "column."}
    people = ["Eli Moreau", "Aiko Tanaka"]
    said = "I'm here to help you find out who writes the Owl column."
    assert point_not_theirs(said, "Eli Moreau", ["Aiko Tanaka"], points, lives, people) == "Eli's own, not Aiko's"
    assert point_not_theirs("I can help you with the book fair.", "Eli Moreau", ["Aiko Tanaka"], points, lives,
                            people) == ""
