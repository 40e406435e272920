"""A day an interview answer names is held to what the resident holds of that day, and an office
its speaker holds is not spoken of as another's (issue 39): the panel's Samuel, asked what he is busy
with this week, planned walks and dinners nothing he holds has (8267fec); what he, Grace and Rosa do
hold of those days is said freely."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from game.engine.build import new_engine
from game.mind.interview.answering import answer_backed
from game.mind.interview.otherdays import day_named, days_unbacked

from .fakes import interview_answers as _says
from .fakes import scripted_model

MONDAY_9 = datetime(2026, 3, 2, 9)
SAMUEL_WEEK = ("I am also preparing for a piano performance at Bluebell Cafe on Monday evening. I am also planning "
               "to go for a walk in Willow Park on Tuesday afternoon. I am also planning to have a walk in Willow Park "
               "on Wednesday morning. I am also planning to have dinner with Grace on Wednesday morning. I'm hosting "
               "a surprise party for Grace's 60th birthday at Bluebell Cafe tomorrow (Tuesday March 3) from 18:00 "
               "to 21:00.")


@pytest.fixture()
def engine():
    return new_engine("default", scripted_model({}))


def _unbacked(engine, who: str, text: str, now: datetime = MONDAY_9) -> list[tuple[str, str]]:
    mind = engine.core.minds[who]
    town = engine.core.town_names
    return days_unbacked(text, who, now, today=mind.core.routine_blocks(None, now.date()),
                         frame=lambda d: mind.core.routine_blocks(None, d), facts=list(mind.core.facts),
                         basis=f"{mind.core.persona.background}\n{mind.core.persona.currently}",
                         names=[*town.people, *town.places])


def test_days_are_read_by_the_clock_of_the_moment():
    assert day_named("tomorrow", MONDAY_9) == date(2026, 3, 3)
    assert day_named("Monday", MONDAY_9) == date(2026, 3, 2)
    assert day_named("sunday", MONDAY_9) == date(2026, 3, 8)


def test_plans_on_a_named_day_that_nothing_holds_are_found(engine):
    found = _unbacked(engine, "Samuel Okafor", SAMUEL_WEEK)
    said = [s for s, _ in found]
    assert [s.rstrip(".") for s in said] == SAMUEL_WEEK.split(". ")[:4]
    wednesday = dict(found)[said[2]]
    assert wednesday.startswith("Say only what Samuel holds of Wednesday: play the piano at Bluebell Cafe from "
                                "14:00 to 16:00") and wednesday.endswith("the rest is not planned yet.")
    assert "surprise party" in dict(found)[said[1]]  # Tuesday's party is named in the hint


def test_what_is_held_of_a_day_is_said_freely(engine):
    grace = "I am preparing for the public debate at Town Hall on Wednesday at 7pm."
    assert _unbacked(engine, "Grace Okafor", grace) == []
    rosa = "I will work behind the counter at Bluebell Cafe on Tuesday morning."
    assert _unbacked(engine, "Rosa Brody", rosa) == []
    samuel = "I will play the piano at Bluebell Cafe on Thursday afternoon."
    assert _unbacked(engine, "Samuel Okafor", samuel) == []
    # a wish, the past, someone else's plan, a day named with nothing done on it: no claim of its own plan
    for text in ("I hope to go for a walk on Wednesday.", "I went for a walk in Willow Park last Sunday.",
                 "Hank Brody will debate Grace on Wednesday.", "I'll be busy on Tuesday."):
        assert _unbacked(engine, "Samuel Okafor", text) == [], text


def test_the_hours_of_a_day_count_too(engine):
    # the piano is his afternoon; said of a Wednesday morning it is not what he holds
    assert _unbacked(engine, "Samuel Okafor", "I will play the piano at Bluebell Cafe on Wednesday morning.")
    assert not _unbacked(engine, "Samuel Okafor", "I will play the piano at Bluebell Cafe on Wednesday at 2pm.")
    # a part of today already past, said as to come (Samuel at 22:00 on 356ade6's save)
    late = datetime(2026, 3, 2, 22)
    said = "I am also planning to play the piano at Bluebell Cafe on Monday morning and relax at home afterwards."
    found = _unbacked(engine, "Samuel Okafor", said, late)
    assert [s for s, _ in found] == [said] and found[0][1].startswith("That time of Monday is past")
    assert not _unbacked(engine, "Samuel Okafor", said.replace("morning", "evening"), late.replace(hour=16))
    # asked of today's hours, the plan's hours are said as plans, past or not
    mind, town = engine.core.minds["Samuel Okafor"], engine.core.town_names
    assert not days_unbacked(said, "Samuel Okafor", late, today=mind.core.routine_blocks(None, late.date()),
                             frame=lambda d: mind.core.routine_blocks(None, d), facts=[], basis="",
                             names=[*town.people, *town.places], asked="What will you be doing at 10am today?")
    # today is a day it names too (Rosa's usual weekday on 356ade6's save), and a feeling is no doing
    assert _unbacked(engine, "Rosa Brody", "Today, however, I am doing the laundry.", late)
    for fine in ("I am working behind the counter at Bluebell Cafe today.", "Today I am feeling happy.",
                 "Today I'm looking forward to painting."):
        assert not _unbacked(engine, "Rosa Brody", fine, late), fine


async def test_an_answer_with_a_week_nothing_holds_is_asked_again_then_cut(engine):
    samuel = engine.core.minds["Samuel Okafor"]
    llm = _says(SAMUEL_WEEK, SAMUEL_WEEK)
    text, back = await answer_backed(samuel, "What are you busy with this week?", MONDAY_9, llm)
    assert "Wednesday: play the piano at Bluebell Cafe" in llm.calls[1].text  # asked again, the day named
    assert "walk" not in text and "Wednesday morning" not in text
    assert "surprise party for Grace's 60th birthday at Bluebell Cafe" in text
    assert back.asked == 2 and back.source == "model"  # asked twice; what is left is the model's words


def test_an_office_its_speaker_holds_is_not_spoken_of_as_another_s(engine):
    from game.mind.facts.hidden import own_office_problem

    town = engine.core.town_names
    # Grace's answer on b5e348b: she is the mayor
    said = "I believe these small rituals are being neglected by the current mayor."
    assert own_office_problem(said, "Grace Okafor", town) == "Grace Okafor is the mayor: the mayor is you"
    assert own_office_problem(said, "Hank Brody", town) == ""  # of her, by her rival: so
    for own in ("I am Grace Okafor, the mayor of Millbrook.", "As mayor, I care for the park.",
                "I work at the mayor's office.", "I have been the town's mayor for eight years.",
                "Being the mayor is hard.", "Hank wants to be the next mayor."):
        assert own_office_problem(own, "Grace Okafor", town) == "", own


def test_asked_of_a_fire_what_would_feed_it_is_not_said_nor_a_pastime_nothing_holds(engine):
    from game.mind.facts.hypothetical import feeds_the_fire
    from game.mind.interview.backing import problems_in
    from game.mind.interview.ownclaims import pastime_unbacked

    q = "Your breakfast is burning! What would you do?"
    rosa = "I would put the coffee pot on the stove and turn it on."  # b5e348b
    samuel = "If it is, I would turn it back on and let it cool down before eating."
    assert feeds_the_fire(rosa, q) and feeds_the_fire(samuel, q)
    for fine in ("I would turn off the stove and let it cool down.", "I would take the pan off the stove.",
                 "I would put out the fire with a lid."):
        assert feeds_the_fire(fine, q) == "", fine
    assert feeds_the_fire("I put the kettle on the stove.", "What did you do this morning?") == ""
    found = problems_in(f"{rosa} I would open a window.", me="Rosa Brody", known=[], strangers=[],
                        town=engine.core.town_names, backing="", question=q)
    assert [p.what for p in found] == [rosa]
    assert pastime_unbacked("I enjoy exploring the town's history.", "Samuel plays the piano.")
    assert pastime_unbacked("I enjoy exploring the town's history.", "He loves local history.") == ""


def test_asked_of_someone_sick_no_one_it_knows_is_said_to_be(engine):
    from game.mind.facts.hypothetical import as_if_so

    q = "Someone close to you is sick. What would you do?"
    people = engine.core.town_names.people
    for said in ("My husband is the one most affected by the illness.",  # Grace, b5e348b
                 "I would inform Rosa's other friends and family about her condition."):  # Samuel
        assert as_if_so(said, q, people).startswith("nobody you know is sick"), said
    for fine in ("If Samuel were sick, I would make him soup.", "I would bring them soup and sit with them.",
                 "I would take care of her and make sure she rests."):
        assert as_if_so(fine, q, people) == "", fine
    assert as_if_so("My husband has the flu.", "How is your family?", people) == ""  # asked of no such thing
