"""The choices a free hour of a day plan is picked from, and the shapes the server's grammar gives
the plan's lines (issue 38): game/mind/planning/dayoptions.py and dayfill.py's schema."""

from __future__ import annotations

import re
from datetime import date

from game.mind.persona import Persona, Shift
from game.mind.planning.daycheck import check_day
from game.mind.planning.dayfill import day_fill_answer, line_choices
from game.mind.planning.dayframe import Slot, frame_for
from game.mind.planning.dayoptions import (
    WORK_PATTERN,
    fits_hour,
    fitting,
    free_choices,
    meal_words,
    wants_of,
    work_pattern,
)

MAYOR = Persona(name="Grace Okafor", wake=6 * 60, sleep=22 * 60 + 30, home="Okafor house:bedroom",
                workplace="Town Hall:mayor's office",
                meals=[("breakfast", 6 * 60 + 30), ("lunch", 12 * 60 + 30), ("dinner", 19 * 60)],
                schedule=[Shift(8 * 60, 17 * 60, "run the town from the mayor's office", "Town Hall:mayor's office",
                                (0, 1, 2, 3, 4))],
                daily="work on the debate notes in the mayor's office; talk with residents about the town; "
                      "have dinner with Samuel; open the fair at 9am; paint in the evening",
                relationships={"Samuel Okafor": "her husband", "Aiko Tanaka": "an old friend"})
PLACES = ["Okafor house", "Town Hall", "Willow Park", "Bluebell Cafe", "Oakhill College library", "Tanaka house"]


def test_the_choices_are_the_residents_own_wants_people_and_places_and_never_a_meal_or_an_hour():
    got = free_choices(MAYOR, PLACES)
    assert got[:2] == ["talk with residents about the town", "paint in the evening"]  # its own, first
    assert "catch up with Samuel Okafor" in got and "catch up with Aiko Tanaka" in got
    assert {"a walk in Willow Park", "some time at Bluebell Cafe", "reading at Oakhill College library"} <= set(got)
    # not its work (the shift has its line), a meal, an hour, its home or work, or another's house
    assert not [c for c in got if re.search(r"dinner|9am|debate notes|Okafor house|Town Hall|Tanaka house", c)]
    assert "reading at home" in got  # plain spare time last
    # a place the town lacks is no choice
    assert "a walk in Willow Park" not in free_choices(MAYOR, PLACES, lacks=lambda t: ["park"] if "Park" in t else [])


def test_each_choice_passes_the_check_alone_and_a_free_hour_gets_those_that_fit_it():
    slots = frame_for(MAYOR, date(2026, 3, 2))
    choices = free_choices(MAYOR, PLACES)
    morning = next(s for s in slots if s.kind == "free" and s.start < 12 * 60)
    evening = [s for s in slots if s.kind == "free" and s.start >= 17 * 60][-1]
    assert "paint in the evening" not in fitting(choices, morning)
    assert "paint in the evening" in fitting(choices, evening)
    for c in choices:
        assert not check_day([evening], [c]), c


def test_a_meal_the_resident_means_to_share_is_its_meal_line():
    assert meal_words(MAYOR, "dinner") == "have dinner with Samuel" and meal_words(MAYOR, "lunch") == ""


def test_the_schema_holds_a_free_line_to_its_choices_and_a_work_line_to_its_shift():
    free, work = Slot(17 * 60, 19 * 60, "free", "free time"), Slot(8 * 60, 12 * 60, "work", "run the town")
    shapes = (line_choices(free, ["a walk in Willow Park", "reading at home"]), line_choices(work, ["x", "y"]))
    keys = ("17:00 free time", "08:00 run the town")
    schema = day_fill_answer(keys, shapes, ("", "run the town")).model_json_schema()
    props = schema["properties"]
    assert props["17:00 free time"]["enum"] == ["a walk in Willow Park", "reading at home"]
    pattern = props["08:00 run the town"]["pattern"]
    assert pattern == work_pattern("run the town")
    # the shift's own words, with or without the day's task after a comma, or "instead, ..."
    for ok in ("run the town", "run the town, going over the budget with the clerk",
               "instead, help Samuel at the cafe because he is ill"):
        assert re.fullmatch(pattern, ok), ok
    for bad in ("free time", "catch up with Hank Brody", "run the town, from 8am to 5pm", "run the town,",
                "work"):
        assert not re.fullmatch(pattern, bad), bad
    assert work_pattern("bake test batches in Nora's kitchen").startswith("^(?:bake test batches in Nora's kitchen")
    assert work_pattern("(!)") == WORK_PATTERN  # no words to anchor to: plain words
    assert re.fullmatch(WORK_PATTERN, "go over the budget with the clerk")
    assert not re.fullmatch(WORK_PATTERN, "work from 8am to 5pm") and not re.fullmatch(WORK_PATTERN, "work")
    # the rest of a day offers the old plan's line too; a single choice is no choice (plain words)
    assert line_choices(free, ["reading at home", "a walk"], old="practise the song")[0] == "practise the song"
    assert line_choices(free, ["reading at home"]) == ()
    # an answer off the shapes (a server that ignores the schema) is read, and left to the check
    ans = day_fill_answer(("17:00 free time",), (("a", "b"),)).model_validate({"17:00 free time": "go bowling"})
    assert ans.lines() == ["go bowling"]


def test_the_choices_are_dealt_so_no_two_free_hours_can_pick_the_same():
    from game.mind.planning.dayoptions import deal

    slots = frame_for(MAYOR, date(2026, 3, 2))
    free = [i for i, s in enumerate(slots) if s.kind == "free"]
    hands = deal(slots, free, free_choices(MAYOR, PLACES))
    dealt = [c for i in free for c in hands[i]]
    assert len(free) >= 2 and len(dealt) == len(set(dealt))  # disjoint
    assert all(len(hands[i]) >= 2 for i in free)
    # its own wants go first, one to each hour they fit ("paint in the evening" only to the evening)
    assert hands[free[0]][0] == "talk with residents about the town" and hands[free[1]][0] == "paint in the evening"
    # a line left with too few takes others that fit (a repeat is then the check's to find)
    one = deal(slots, free, ["reading at home", "a walk"])
    assert all(len(one[i]) == 2 for i in free)


def test_the_check_reads_what_the_grammar_cannot_stop():
    from game.mind.planning.daycheck import _shares_run, line_key, without_hours

    work = Slot(8 * 60, 12 * 60, "work", "run the pub", "The Copper Kettle:pub")
    evening = Slot(17 * 60, 23 * 60, "work", "run the pub", "The Copper Kettle:pub")

    def kinds(slot, line):
        return [p.kind for p in check_day([slot], [line])]

    assert kinds(work, "open the supply store at o") == ["garbled"]  # the grammar kept the hour out
    assert kinds(work, "Yes, Nora is gardening in the park") == ["garbled"]
    assert kinds(evening, "serve breakfast at The Copper Kettle") == ["hour"]  # another shift's words
    assert kinds(work, "serve breakfast at The Copper Kettle") == []
    assert kinds(work, "relax at home with a book") == ["work"]  # at home in work hours
    assert kinds(work, "catch up with Hank Brody") == []
    # after the shift's words and a comma, a task of the day: not a place, a reason or a pronoun
    assert kinds(work, "run the pub, pulling pints for the quiz crowd") == []
    assert kinds(work, "run the pub, at The Copper Kettle") == ["work"]
    assert kinds(work, "run the pub, as it is his main occupation") == ["work"]
    # skipping work needs its reason (the grammar lets "instead, ..." open a work line)
    assert kinds(work, "instead, I am taking a long walk in Johnson Park") == ["work"]
    assert kinds(work, "instead, plan the cake and the food for Grace's party") == ["work"]  # ("for": no reason)
    assert kinds(work, "instead, visit Samuel because he is ill") == []
    # the shift's own words are never a free-time choice on its own line, whatever the choices hold
    assert check_day([work], ["run the pub"], leisure=["run the pub"]) == []
    # a place the work is for or is sold to is not where it happens
    cafe = {"Bluebell Cafe": "Bluebell Cafe"}

    def named(t):
        return next((v for k, v in cafe.items() if k in t), None)

    bake = Slot(5 * 60, 7 * 60, "work", "bake test batches", "Lindqvist house:kitchen")
    assert check_day([bake], ["bake test batches, a rye loaf to sell to Bluebell Cafe"], named=named) == []
    assert check_day([bake], ["bake test batches, a rye loaf for Bluebell Cafe"], named=named) == []
    assert [p.kind for p in check_day([bake], ["bake test batches, serving at Bluebell Cafe"], named=named)] == [
        "work"]
    assert [p.kind for p in check_day([work], ["catch up with Hank Brody"], leisure=["catch up with Hank Brody"])] == [
        "work"]  # a free-time choice is no work
    # the requirements' hours are not shown to the model, whose frame has them
    assert without_hours("work at the pharmacy counter from 8am to 5pm") == "work at the pharmacy counter"
    assert without_hours("open the cafe at 6:30am; serve until noon") == "open the cafe; serve"
    assert without_hours("play the piano at the cafe in the afternoon") == "play the piano at the cafe in the afternoon"
    # a line that says back the problem named to it
    said = line_key("the 14:00 line is at home during  |  (begin it with 'instead,' and say why, or stay at work)")
    assert _shares_run(line_key("begin it with instead and say why"), {said})
    assert not _shares_run(line_key("study at the college library"), {said})
    assert "cook dinner for Felix" not in fitting(["cook dinner for Felix", "a walk"], Slot(11 * 60, 12 * 60, "free",
                                                                                          "free time"))


def test_a_moved_line_needs_its_reason_and_still_eats_no_second_meal():
    lunch = Slot(12 * 60, 13 * 60, "meal", "lunch")
    study = Slot(14 * 60, 16 * 60, "work", "study at the college library", "Oakhill College library:reading room")
    kinds = [p.kind for p in check_day([lunch, study], ["having lunch", "Instead of having lunch, catch up with Ines"])]
    assert "meal" in kinds  # "instead of" is no reason, and lunch is the 12:00 line
    ok = check_day([lunch, study], ["having lunch", "instead, help Ines at the cafe because she is ill"],
                   named=lambda t: "Bluebell Cafe" if "cafe" in t else None)
    assert ok == []


def test_a_line_may_not_copy_the_residents_story_but_may_say_its_wants():
    from game.mind.planning.daycheck import _shares_run, line_key

    seed = {line_key("Marcus Bell has not been invited to any party this week, as far as he knows")}
    assert _shares_run(line_key("has not been invited to any party this week, so he cannot run"), seed)
    garden = {line_key("Nora tends the vegetable patches in the community garden every morning")}
    line = line_key("tend the vegetable patches in the community garden")
    assert _shares_run(line, garden)
    assert not _shares_run(line, garden, allowed={line})  # her want (or the shift's label) says it


def test_a_want_that_shares_only_small_words_with_a_shift_is_still_a_want():
    pianist = Persona(name="Samuel Okafor", schedule=[Shift(14 * 60, 16 * 60, "play the piano at Bluebell Cafe",
                                                            "Bluebell Cafe:cafe", (0, 1, 2, 3, 4))],
                      daily="play the piano at Bluebell Cafe in the afternoon; practise the song he wrote for Grace "
                            "on the piano at home")
    assert wants_of(pianist) == ["practise the song he wrote for Grace on the piano at home"]


def test_no_calling_on_people_nor_going_out_in_the_night():
    assert fits_hour("catch up with Hank Brody", 10 * 60)
    assert not fits_hour("catch up with Hank Brody", 23 * 60) and not fits_hour("catch up with Hank Brody", 6 * 60)
    assert not fits_hour("some time at Bluebell Cafe", 24 * 60) and not fits_hour("a walk in Willow Park", 23 * 60)
    assert not fits_hour("reading at Oakhill College library", 22 * 60 + 30)
    assert fits_hour("reading at home", 23 * 60) and fits_hour("a walk around town", 20 * 60)


def test_a_long_call_on_someone_and_time_at_a_closed_place_are_no_choice():
    # 19282ee's plans: Eli "16:30-19:30 catch up with Priya Raman", Grace "19:45-22:00 some time at
    # Bluebell Cafe" (it closes at four), Eli "20:15-22:00 some time at Greenway Market and Pharmacy"
    from game.mind.planning.dayoptions import fits

    cafe = {"Bluebell Cafe": [(6 * 60 + 30, 16 * 60)]}

    def open_at(place: str, a: int, b: int) -> bool:
        return not cafe.get(place) or any(x <= a and a + min(60, b - a) <= y for x, y in cafe[place])
    evening, afternoon = Slot(19 * 60 + 45, 22 * 60, "free", "free time"), Slot(13 * 60, 14 * 60, "free", "free time")
    assert not fits("some time at Bluebell Cafe", evening, open_at)
    assert fits("some time at Bluebell Cafe", afternoon, open_at)
    late = Slot(20 * 60, 22 * 60, "free", "free time")
    assert fits("some time at Bluebell Cafe", late)  # where nothing tells the hours, the hour alone
    assert fits("a walk in Willow Park", late, open_at) and fits("reading at home", evening, open_at)
    # nor time at a place or a walk of more than two hours (2c4c6ac's day: Marcus 14:45-17:00 at Brody's
    # Supply Store, Samuel 16:00-19:00 at Town Hall)
    assert not fits("some time at Brody's Supply Store", Slot(14 * 60 + 45, 17 * 60, "free", "free time"))
    assert not fits("a walk in Willow Park", evening) and fits("reading at home", evening)
    assert not fits("catch up with Priya Raman", Slot(16 * 60 + 30, 19 * 60 + 30, "free", "free time"))
    assert fits("catch up with Priya Raman", Slot(16 * 60 + 30, 18 * 60 + 30, "free", "free time"))
    assert fitting(["some time at Bluebell Cafe", "reading at home"], evening, open_at) == ["reading at home"]


def test_the_world_tells_a_place_s_hours_by_who_works_there():
    from game.engine.build import new_engine

    from .fakes import scripted_model

    engine = new_engine("default", scripted_model({}))
    ground = engine.perceiver.grounder("Grace Okafor", ["Bluebell Cafe:cafe", "Willow Park:community garden"], "")
    assert ground is not None
    assert ground.open_between("Bluebell Cafe", 13 * 60, 14 * 60)  # Monday: Ines 06:30-16:00, Rosa 07:00-15:00
    assert not ground.open_between("Bluebell Cafe", 19 * 60 + 45, 22 * 60)
    assert not ground.open_between("Greenway Market and Pharmacy", 20 * 60 + 15, 22 * 60)
    assert ground.open_between("The Copper Kettle", 19 * 60, 21 * 60)  # Marcus runs the pub 17:00-00:00
    assert ground.open_between("Okafor house", 23 * 60, 24 * 60)  # nobody works there: not judged


def test_no_call_on_someone_while_they_work():
    # 136a191's plans: Marcus "11:30-14:00 catch up with Hank Brody" (Hank at his store 08:00-18:00)
    from game.engine.build import new_engine
    from game.mind.planning.dayoptions import fits

    from .fakes import scripted_model

    engine = new_engine("default", scripted_model({}))
    ground = engine.perceiver.grounder("Marcus Bell", ["The Copper Kettle:pub"], "")
    assert ground is not None
    assert not ground.free_between("Hank Brody", 11 * 60 + 30, 13 * 60 + 30)
    assert ground.free_between("Hank Brody", 18 * 60 + 30, 20 * 60) and ground.free_between("Nobody", 600, 700)
    noon, evening = Slot(11 * 60 + 30, 13 * 60, "free", "free time"), Slot(19 * 60, 20 * 60, "free", "free time")
    assert not fits("catch up with Hank Brody", noon, free_at=ground.free_between)
    assert fits("catch up with Hank Brody", evening, free_at=ground.free_between)
    # nor on someone in bed (b5e348b's plans: Hank "06:30-08:00 go over the debate questions with
    # Priya Raman", who wakes at 07:30), nor as their shift begins
    assert not ground.free_between("Priya Raman", 6 * 60 + 30, 8 * 60)
    assert ground.free_between("Priya Raman", 18 * 60, 19 * 60)
    assert not ground.free_between("Hank Brody", 7 * 60 + 50, 8 * 60 + 10)
    # a want done with someone is held to them too (3668980's plans: the same want, still at 06:30)
    dawn = Slot(6 * 60 + 30, 8 * 60, "free", "free time")
    want = "go over the debate questions with Priya Raman"
    assert not fits(want, dawn, free_at=ground.free_between) and fits(want, evening, free_at=ground.free_between)
