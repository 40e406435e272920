"""Interview answers held to the resident's records (issue 39, game/mind/interview/answerdata.py): whom it
talked with today, who holds a role, a place the town lacks, the way to a place of the town, and
the words tidied as a reader reads them.  Each case is one the whole day's interviews showed."""

from __future__ import annotations

from datetime import datetime

import pytest

from game.engine.build import new_engine
from game.mind.interview.answerdata import record_lines, talk_claims, talks_on
from game.mind.interview.answering import answer_backed
from game.mind.interview.ownclaims import tidy
from game.mind.memory.records import MemoryRow

from .fakes import interview_answers as _says
from .fakes import scripted_model

MONDAY = datetime(2026, 3, 2, 21)
PEOPLE = ["Grace Okafor", "Rosa Brody", "Aiko Tanaka", "Ines Moreau", "Kenji Tanaka", "Samuel Okafor"]


@pytest.fixture()
def engine():
    return new_engine("default", scripted_model({}))


def test_a_talk_the_records_do_not_hold_is_found_and_one_they_hold_is_not():
    grace = ("I talked with Aiko Tanaka, who is an old friend. I also had breakfast with my family, and I talked "
             "with Ines Moreau. I talked with Rosa about Grace's debate.")
    found = talk_claims(grace, ["Rosa Brody"], PEOPLE, "Grace Okafor")
    assert found == ["I talked with Aiko Tanaka, who is an old friend.",
                     "I also had breakfast with my family, and I talked with Ines Moreau."]
    assert talk_claims("I also had a conversation with Ines Moreau.", ["Rosa Brody"], PEOPLE, "Grace Okafor") == \
        ["I also had a conversation with Ines Moreau."]
    assert talk_claims("I talked with Rosa and Samuel about the party.", ["Rosa Brody"], PEOPLE,
                       "Grace Okafor") == ["I talked with Rosa and Samuel about the party."]
    rows = [MemoryRow("Grace Okafor", 1, "conversation", "I talked with Rosa Brody; I said: Hi Rosa!", MONDAY),
            MemoryRow("Grace Okafor", 2, "conversation", "I talked with Hank Brody; I said: Hello.",
                      datetime(2026, 3, 1, 12))]
    assert talks_on(rows, MONDAY.date()) == ["Rosa Brody"]


def test_the_words_are_tidied_as_a_reader_reads_them():
    said = ("I will be catching up with Rosa at 10:00 today. Plans for other days are not for today. I am "
            "listening to the radio (Town Hall). I am listening to the radio (Town Hall). And then I went to")
    assert tidy(said, ["Town Hall"]) == "I will be catching up with Rosa at 10:00 today. I am listening to the radio."
    assert tidy("I'm at home (in my own words)", ["Town Hall"]) == "I'm at home (in my own words)"


async def test_asked_whom_she_talked_with_she_names_only_those_she_did(engine):
    grace = engine.core.minds["Grace Okafor"]
    grace.memory.add("conversation", "I talked with Rosa Brody; I said: Hi Rosa! How is the cafe?", MONDAY)
    made_up = "I talked with Aiko Tanaka and Ines Moreau about the town."
    llm = _says(made_up, made_up)
    text, back = await answer_backed(grace, "Who did you talk with today, and what about?", MONDAY, llm)
    assert text == "Today I talked with Rosa Brody." and back.source == "record" and back.asked == 2
    assert "Today Grace talked with Rosa Brody, and with no one else." in llm.calls[0].text  # told first
    right = "I talked with Rosa Brody about the cafe."
    text, back = await answer_backed(grace, "Who did you talk with today?", MONDAY, _says(right))
    assert text == right and back.source == "model"


async def test_who_runs_for_mayor_names_every_candidate_in_the_speakers_voice(engine):
    q = "Who is running for mayor?"
    text, _ = await answer_backed(engine.core.minds["Rosa Brody"], q, MONDAY,
                                  _says("Grace Okafor is running for mayor."))
    assert text == "Grace Okafor and Hank Brody are running for mayor."
    text, _ = await answer_backed(engine.core.minds["Grace Okafor"], q, MONDAY, _says("I am running for mayor."))
    assert text == "Hank Brody and I are running for mayor."
    both = "Grace and Hank Brody are both running; I'm voting for Grace."
    text, back = await answer_backed(engine.core.minds["Rosa Brody"], q, MONDAY, _says(both))
    assert text == both and back.source == "model"


async def test_a_place_the_town_lacks_is_asked_again_and_the_way_to_one_it_has_is_known(engine):
    grace = engine.core.minds["Grace Okafor"]
    llm = _says("I would call the police at once.", "I would go outside and see what is happening.")
    text, back = await answer_backed(grace, "You hear shouting outside your window. What do you do?", MONDAY, llm)
    assert text == "I would go outside and see what is happening."
    assert "The town has no police station" in llm.calls[1].text
    near = engine.core.town_names.near
    assert near["Town Hall"] == "next to Bluebell Cafe and Willow Park, on the north side of town"
    rosa = engine.core.minds["Rosa Brody"]
    llm = _says("I'm sorry, I don't know where the Town Hall is.", "It's next to Bluebell Cafe, by Willow Park.")
    way = "A stranger asks you the way to the Town Hall. What do you say?"
    text, back = await answer_backed(rosa, way, MONDAY, llm)
    assert text == "It's next to Bluebell Cafe, by Willow Park." and back.problems == ["denial"]
    assert "Town Hall is next to Bluebell Cafe and Willow Park" in llm.calls[0].text
    deny = "I'm sorry, I don't know where the Town Hall is."
    text, back = await answer_backed(rosa, "Where is the Town Hall?", MONDAY, _says(deny, deny))
    assert text == "Town Hall is next to Bluebell Cafe and Willow Park, on the north side of town."
    assert back.source == "record"
    # the mayor on a9a17c8's save: "I'm sorry, but I don't know the way to the Town Hall."
    deny = "I'm sorry, but I don't know the way to the Town Hall."
    text, back = await answer_backed(rosa, "Where is the Town Hall?", MONDAY, _says(deny, deny))
    assert text.startswith("Town Hall is next to") and back.source == "record"


def test_after_work_and_tomorrow_are_read_from_the_plan_and_the_frame(engine):
    rosa = engine.core.minds["Rosa Brody"]
    blocks = rosa.core.routine_blocks()
    _, lines = record_lines("What will you do after work today?", "Rosa", MONDAY, [], blocks, 21 * 60,
                            lambda: (), [], engine.core.town_names)
    assert lines and lines[0].startswith("After work today (it ends at 15:00) Rosa's plan is:")
    party = [f for f in rosa.facts if f.kind == "gathering" and "party" in f.what]
    _, lines = record_lines("What are your plans for tomorrow?", "Rosa", MONDAY, [], blocks, 21 * 60,
                            lambda: blocks, party, engine.core.town_names)
    assert lines == ["Tomorrow (Tuesday) Rosa has: work behind the counter at Bluebell Cafe from 07:00 to 15:00; "
                     "Samuel Okafor is hosting a surprise party for Grace's 60th birthday at Bluebell Cafe tomorrow "
                     "(Tuesday March 3) from 18:00 to 21:00. The rest of tomorrow is not planned yet."]


async def test_a_gathering_given_another_host_is_asked_again_and_the_way_is_never_a_stray_memory(engine):
    # Rosa's interview at 22:00 on the day of 05:00: "Grace Okafor is hosting it, and Ines Moreau is
    # choosing the ingredients for the party"; asked the way, "I say, 'Sure, Rosa, let's order that cake.'"
    from game.mind.interview.backing import problems_in

    rosa = engine.core.minds["Rosa Brody"]
    held = [*[f for f in rosa.facts if "party" in f.what], *[f for f in engine.core.minds["Grace Okafor"].facts
                                                              if "debate" in f.what]]
    wrong = "Grace Okafor is hosting it, and Ines Moreau is choosing the ingredients for the party."
    found = problems_in(wrong, me="Rosa Brody", known=["Grace Okafor", "Ines Moreau", "Samuel Okafor"], strangers=[],
                        town=engine.core.town_names, backing="", question="Is a gathering planned?", held=held,
                        now=MONDAY)
    assert [p.kind for p in found][:2] == ["denial", "claim"] and found[1].tell.startswith("Samuel Okafor is the host")
    right = "Grace Okafor is hosting the public debate, and Samuel Okafor is hosting the party at Bluebell Cafe."
    assert not [p for p in problems_in(right, me="Rosa Brody", known=[], strangers=[], town=engine.core.town_names,
                                       backing="", question="", held=held, now=MONDAY) if p.kind == "claim"]
    cake = "I say, 'Sure, Rosa, let's order that special cake.'"
    text, back = await answer_backed(rosa, "A stranger asks you the way to the Town Hall. What do you say?", MONDAY,
                                     _says(cake))
    assert text == "Town Hall is next to Bluebell Cafe and Willow Park, on the north side of town."
    said = "I'd tell them to walk past Bluebell Cafe."
    text, _ = await answer_backed(rosa, "A stranger asks you the way to the Town Hall. What do you say?", MONDAY,
                                  _says(said))
    assert text == said
    for made_up in ("I'll take the right turn and go straight to Town Hall. It's just a few blocks away from "
                    "Bluebell Cafe.", "It's on the south side of town, by Willow Park."):  # (d2ec812: Rosa)
        text, back = await answer_backed(rosa, "A stranger asks you the way to the Town Hall. What do you say?",
                                         MONDAY, _says(made_up, made_up))
        assert text == "Town Hall is next to Bluebell Cafe and Willow Park, on the north side of town."
    north = "It's on the north side of town, next to the cafe."
    text, _ = await answer_backed(rosa, "A stranger asks you the way to the Town Hall. What do you say?", MONDAY,
                                  _says(north))
    assert text == north


def test_the_plan_after_work_says_a_block_cut_in_two_once_and_the_town_lacks_a_fire_department(engine):
    from game.mind.interview.ownclaims import after_work_line
    from game.mind.view import PlanBlock

    blocks = [PlanBlock(420, 900, "work behind the counter", kind="work"), PlanBlock(1020, 1095, "paint"),
              PlanBlock(1095, 1170, "paint"), PlanBlock(1170, 1215, "having dinner")]
    said = after_work_line("Rosa", blocks, 600)
    assert said == "After work today (it ends at 15:00) Rosa's plan is: paint at 17:00; having dinner at 19:30."
    lacks = engine.core.town_names.lacks
    assert lacks("I will call the fire department.") == ["fire station"]
    assert lacks("I'd call an ambulance.") == ["hospital"]


async def test_who_lives_with_whom_and_the_evening_are_never_denied(engine):
    # Samuel's interview at 22:00 on the day of 05:00: "Who do you live with?" -> "I'm not sure, I don't
    # know."; "What will you do after work today?" -> the same; the mayor, his wife, "I hope he will do well"
    samuel = engine.core.minds["Samuel Okafor"]
    deny = "I'm not sure, I don't know."
    text, back = await answer_backed(samuel, "Who do you live with?", MONDAY, _says(deny, deny))
    assert text == "I live with Grace Okafor, my wife." and back.source == "record"
    text, back = await answer_backed(samuel, "What will you do after work today?", MONDAY, _says(deny, deny))
    assert text.startswith("After work today (it ends at ") and "my plan is:" in text and back.source == "record"
    llm = _says("I hope he will do a good job.", "Grace, my wife, is a fine mayor.")
    text, back = await answer_backed(samuel, "What do you think of the town's mayor?", MONDAY, llm)
    assert "The mayor is Grace Okafor, your wife" in llm.calls[1].text and text == "Grace, my wife, is a fine mayor."


async def test_a_housemate_that_is_not_one_and_no_plans_for_tomorrow_are_mended(engine):
    # Grace's interview at 22:00 on the day of 05:00: "I live with my husband, Samuel Okafor, and my
    # daughter, Rosa Brody." (Rosa is Hank's); "I'm sorry, but I don't have any plans for tomorrow."
    grace = engine.core.minds["Grace Okafor"]
    wrong = "I live with my husband, Samuel Okafor, and my daughter, Rosa Brody."
    text, back = await answer_backed(grace, "Who do you live with?", MONDAY, _says(wrong, wrong))
    assert "Rosa" not in text and back.asked == 2
    none = "I'm sorry, but I don't have any plans for tomorrow."
    text, back = await answer_backed(grace, "What are your plans for tomorrow?", MONDAY, _says(none))
    assert text.startswith("Tomorrow (Tuesday) I have: ") and back.source == "record"


def test_helping_one_who_does_not_host_it_is_a_wrong_host(engine):
    from game.mind.interview.backing import wrong_host

    minds = engine.core.minds
    held = [*minds["Rosa Brody"].facts, *[f for f in minds["Grace Okafor"].facts if "debate" in f.what]]
    town = engine.core.town_names
    said = "I am also helping Samuel Okafor prepare Grace's public debate at Town Hall on Wednesday."
    assert [p.what for p in wrong_host(said, held, town, MONDAY)] == [said]
    assert not wrong_host("I am helping Samuel Okafor prepare Grace's surprise party.", held, town, MONDAY)
    # Samuel of his own party, on 74bd764's save
    said = "It is a surprise party for Grace's 60th birthday. Grace Okafor is the host, and Ines is lending her cafe."
    assert [p.what for p in wrong_host(said, held, town, MONDAY)] == [
        "Grace Okafor is the host, and Ines is lending her cafe."]


async def test_a_gathering_spoken_of_as_the_event_is_at_its_own_place(engine):
    # Samuel, asked of any gathering on eaef4b9's save: "The event is held at the Greenway Market and Pharmacy.
    # I'm hosting a surprise party for Grace's 60th birthday at Bluebell Cafe tomorrow ..."
    from game.mind.interview.backing import problems_in
    from game.mind.interview.placeclaims import wrong_place

    samuel = engine.core.minds["Samuel Okafor"]
    held, town = list(samuel.facts), engine.core.town_names
    said = "The event is held at the Greenway Market and Pharmacy."
    assert [s for s, _ in wrong_place(said, held, town, MONDAY)] == [said]
    assert wrong_place(said, held, town, MONDAY)[0][1].startswith("It is at Bluebell Cafe")
    assert wrong_place("It will be held at Bluebell Cafe, in the cafe.", held, town, MONDAY) == []
    assert wrong_place("I work at the Greenway Market and Pharmacy.", held, town, MONDAY) == []
    found = problems_in(said + " I'm hosting a surprise party for Grace's 60th birthday at Bluebell Cafe tomorrow.",
                        me="Samuel Okafor", known=[], strangers=[], town=town, backing=samuel.persona.brief(),
                        question="Do you know of any gathering planned in town?", held=held, now=MONDAY)
    assert any(p.kind == "claim" and p.what == said for p in found)


async def test_an_open_question_left_with_nothing_says_what_it_knows_is_coming(engine):
    # Samuel, asked what has been on his mind, "I'm not sure, I don't know." (every sentence dropped);
    # asked of one close to him who is sick, "my wife Grace, who is hosting the surprise party"
    from game.mind.interview.backing import wrong_host

    samuel = engine.core.minds["Samuel Okafor"]
    made_up = "I've been thinking about Ezra Vance's concert at the community center."
    text, back = await answer_backed(samuel, "What has been on your mind lately?", MONDAY, _says(made_up, made_up))
    assert text.startswith("I've been thinking about this: I'm hosting a surprise party") and back.source == "record"
    said = "I would call my wife Grace, who is hosting the surprise party for Grace's 60th birthday."
    assert [p.what for p in wrong_host(said, list(samuel.facts), engine.core.town_names, MONDAY)] == [said]


async def test_a_second_answer_left_empty_by_the_checks_gives_way_to_the_first_s_good_sentences(engine):
    # 3 of 75 answers on 2026-11-29 said "I'm not sure, I don't know": the second answer, all its
    # sentences unbacked, was taken over a first that had one good sentence
    rosa = engine.core.minds["Rosa Brody"]
    first = "I paint in my spare time. I also visit Ezra Vance at the train station."
    second = "I visit Ezra Vance."
    text, back = await answer_backed(rosa, "What do you like to do in your free time?", MONDAY,
                                     _says(first, second))
    assert text == "I paint in my spare time." and back.asked == 2 and "I visit Ezra Vance." in back.dropped


async def test_a_free_time_answer_that_shares_no_pastime_with_the_records_is_told_from_them(engine):
    # Grace on 82f1ab1's save: "In my free time, I enjoy reading books, going for walks, and spending time
    # with my family" (none of her records holds a book or a walk; here without the books, which an event
    # check finds in the test town)
    grace = engine.core.minds["Grace Okafor"]
    made_up = "In my free time, I enjoy going for long walks and spending time with my family."
    text, back = await answer_backed(grace, "What do you like to do in your free time?", MONDAY,
                                     _says(made_up, made_up))
    assert "walks" not in text and text.startswith("In my free time I like to") and back.source == "record"


async def test_a_usual_day_answer_that_says_nothing_of_it_is_told_from_the_record(engine):
    # Rosa on 136a191's save: "Describe your typical weekday in broad strokes." -> "Today, she is going
    # to Hank's house."
    rosa = engine.core.minds["Rosa Brody"]
    odd = "Today, she is going to Hank's house."
    text, back = await answer_backed(rosa, "Describe your typical weekday in broad strokes.", MONDAY,
                                     _says(odd, odd))
    assert text.startswith("On a usual weekday") and "Bluebell Cafe" in text and back.source == "record"


async def test_a_job_answer_that_says_none_of_its_work_is_told_from_the_record(engine):
    # Samuel on 136a191's save: "What is your job?" -> "I am known for my supportive and attentive
    # father to my wife Grace."
    samuel = engine.core.minds["Samuel Okafor"]
    odd = "I am known for my supportive and attentive father to my wife Grace."
    text, back = await answer_backed(samuel, "What is your job?", MONDAY, _says(odd, odd))
    assert text == "I play the piano at Bluebell Cafe. I was the music teacher at Oakhill College."
    assert back.source == "record"
    mayor = "I am the mayor of Millbrook and I run the town from the mayor's office."
    text, back = await answer_backed(engine.core.minds["Grace Okafor"], "What is your job?", MONDAY, _says(mayor))
    assert text == mayor  # her words hold her work


async def test_asked_of_burning_food_the_model_is_told_what_comes_first(engine):
    """d2ec812: Grace would add ice cubes to the milk, Rosa make fresh coffee "to help it cool down"."""
    from game.mind.facts.hypothetical import first_step

    step = first_step("Your breakfast is burning! What would you do?")
    assert "the heat goes off" in step and not first_step("You hear shouting outside. What do you do?")
    assert not first_step("The town is burning with gossip about the debate. What do you think?")
    llm = _says("I would turn off the stove and take the pan off the heat.")
    text, _ = await answer_backed(engine.core.minds["Grace Okafor"], "Your breakfast is burning! What would you do?",
                                  MONDAY, llm)
    assert step in llm.calls[0].text and text == "I would turn off the stove and take the pan off the heat."


async def test_one_who_heard_of_a_party_in_its_own_words_says_so_when_its_answer_denies_it(engine):
    # Nora on 9d99520's day: "No gathering has been planned in town", her life saying she has heard of a party
    q = "Do you know of a gathering planned in town? When and where is it, and who is hosting it?"
    denial = "No gathering has been planned in town."
    text, back = await answer_backed(engine.core.minds["Nora Lindqvist"], q, MONDAY, _says(denial, denial))
    assert text.startswith("I have heard there is a party being planned and I am determined")
    assert back.source == "record"
    said = "I've heard there is a party being planned, but I don't know where or when."
    text, back = await answer_backed(engine.core.minds["Nora Lindqvist"], q, MONDAY, _says(said))
    assert text == said and back.source == "model"
    text, _ = await answer_backed(engine.core.minds["Priya Raman"], q, MONDAY, _says(denial, denial))
    assert "heard there is a party" not in text  # (Priya heard of none)
