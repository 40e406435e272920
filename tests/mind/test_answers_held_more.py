"""Interview answers held to the records, the cases the third pass still let through (issue 39):
hours a usual day or tomorrow does not hold, kin a resident does not have, a host given by "and
hosting" or a pronoun, the retry note said back, and the resident's own name said as another's."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from game.engine.build import new_engine
from game.mind.facts.hours import clock_times, times_unbacked, usual_day_line
from game.mind.facts.kin import kin_unbacked
from game.mind.interview.answering import answer_backed
from game.mind.interview.backing import problems_in, wrong_host
from game.mind.interview.ownclaims import own_voice
from game.mind.interview.stepping import steps_out
from game.mind.persona import Persona
from game.mind.view import PlanBlock

from .fakes import interview_answers as _says
from .fakes import scripted_model

MONDAY = datetime(2026, 3, 2, 21)

_NO_ONE = Persona(name="Someone Else")  # (said_of_others: a persona of no relationships and no days)


@pytest.fixture()
def engine():
    return new_engine("default", scripted_model({}))


def test_times_of_day_are_read_as_said():
    assert clock_times("from 7:00 AM to 13:30 PM, at 6pm, 6 p.m. and noon; 18:00; 25:00 and 99pm") == \
        [420, 810, 1080, 1080, 720, 1080]


def test_a_usual_day_is_held_to_the_frame_and_tomorrow_to_what_holds_those_hours(engine):
    rosa = engine.core.minds["Rosa Brody"]
    usual = rosa.core.routine_blocks()
    line = usual_day_line(usual)
    assert line.startswith("On a usual weekday: I get up at 06:00, breakfast at 06:30, work behind the counter "
                           "at Bluebell Cafe from 07:00 to 15:00") and line.endswith("bed at 23:00.")
    cut = ("I wake up at 6:00 AM, work behind the counter at Bluebell Cafe from 7:00 AM to 10:15 AM, have lunch, "
           "work from 11:52 AM to 13:30 PM.")
    assert times_unbacked(cut, "Describe your typical weekday in broad strokes.", today=(), usual=usual,
                          tomorrow=(), facts=[], basis="") == [cut]
    right = "I work behind the counter at Bluebell Cafe from 7am to 3pm."
    assert not times_unbacked(right, "Describe your typical weekday.", today=(), usual=usual, tomorrow=(),
                              facts=[], basis="")
    samuel = engine.core.minds["Samuel Okafor"]
    party = [f for f in samuel.facts if "party" in f.what]
    frame = [PlanBlock(840, 960, "play the piano at Bluebell Cafe", kind="work")]
    piano = ("I plan to play the piano at Bluebell Cafe from 18:00 to 21:00 tomorrow, as I have a surprise party "
             "for Grace's 60th birthday at Bluebell Cafe tomorrow from 18:00 to 21:00.")
    also = "I'm hosting the surprise party at Bluebell Cafe tomorrow from 18:00 to 21:00."
    q = "What are your plans for tomorrow?"
    assert times_unbacked(f"{piano} {also}", q, today=(), usual=(), tomorrow=frame, facts=party, basis="") == [piano]
    # 82f1ab1's day: the piano's hours and the party put "at the same time" (the party is 18:00-21:00)
    same = ("Tomorrow, I plan to play the piano at Bluebell Cafe from 14:00 to 16:00, as I have arranged a surprise "
            "party for Grace's 60th birthday at the same time.")
    assert times_unbacked(same, q, today=(), usual=(), tomorrow=frame, facts=party, basis="") == [same]
    alone = "Tomorrow, I plan to play the piano at Bluebell Cafe from 14:00 to 16:00, and sing at the same time."
    assert times_unbacked(alone, q, today=(), usual=(), tomorrow=frame, facts=party, basis="") == []
    # Samuel, asked what he does when someone wants to talk while he is busy, gave his blocks at their ends
    day = [PlanBlock(450, 480, "having breakfast", kind="meal"), PlanBlock(720, 780, "practise the song on the piano"),
           PlanBlock(780, 840, "having lunch", kind="meal"), PlanBlock(420, 900, "work at the college", kind="work")]
    ends = ("I am planning to have breakfast at 8:00, practise the song on the piano at home at 13:00, have lunch "
            "at 14:00.")
    busy = "Someone wants to talk with you while you are busy. What do you do?"
    assert times_unbacked(ends, busy, today=day, usual=(), tomorrow=(), facts=[], basis="") == [ends]
    for right in ("I have breakfast at 7:30 and lunch at 13:00.", "I finish work at 15:00 and go home."):
        assert times_unbacked(right, busy, today=day, usual=(), tomorrow=(), facts=[], basis="") == []
    # Kenji on a0d10dc's day gave Aiko's book fair (its hours not held) his first plan line, hours and words
    from game.mind.facts.fact import Fact
    fair = Fact(key="f", kind="gathering", what="the book fair", host="Aiko Tanaka", place="Oak Hill College")
    mine = [PlanBlock(390, 420, "getting up and ready for the day", kind="wake"),
            PlanBlock(420, 450, "having breakfast")]
    pasted = "The book fair is scheduled for Monday March 2, 2026, from 06:30-07:00 getting up and ready for the day."
    q = "Do you know of a gathering planned in town? When and where is it, and who is hosting it?"
    for held in ([fair], []):  # (he held none: the fair was Aiko's, in his memories)
        assert times_unbacked(pasted, q, today=mine, usual=(), tomorrow=(), facts=held, basis="") == [pasted]
    # Hank at 06:20 of the stove run (5326750): his shift opens at 08:00
    shift = [PlanBlock(360, 390, "having breakfast"),
             PlanBlock(480, 720, "work behind the counter of the supply store")]
    done = "I have been working behind the counter of the supply store for the last few hours."
    asked = "What happened in your kitchen this morning, and what did you do?"
    assert times_unbacked(done, asked, today=shift, usual=(), tomorrow=(), facts=[], basis="",
                          at=(date(2026, 3, 2), 380)) == [done]
    for when in (500, 700):  # (at work, or after some hours of it)
        assert times_unbacked(done, asked, today=shift, usual=(), tomorrow=(), facts=[], basis="",
                              at=(date(2026, 3, 2), when)) == []
    # Rosa and Samuel at 06:20 of the stove run of 635d79d: her work from 07:00, her painting at 19:00, his waking
    rosa = [PlanBlock(360, 390, "getting up and ready for the day"), PlanBlock(420, 900, "work behind the counter at "
            "Bluebell Cafe"), PlanBlock(1140, 1260, "paint in the evening")]
    for wrong in ("I was busy working behind the counter at Bluebell Cafe, preparing for Grace's surprise party.",
                  "I was painting in the evening, as planned.", "I woke up at 7:00 AM and went to the kitchen."):
        assert times_unbacked(wrong, asked, today=rosa, usual=(), tomorrow=(), facts=[], basis="",
                              at=(date(2026, 3, 2), 380)) == [wrong], wrong
    for right in ("I was getting up and ready for the day.", "I was planning to paint in the evening.",
                  "I was painting in the evening yesterday.", "I woke up at 6:00 AM."):
        assert times_unbacked(right, asked, today=rosa, usual=(), tomorrow=(), facts=[], basis="",
                              at=(date(2026, 3, 2), 380)) == [], right
    for right in ("Aiko Tanaka is hosting the book fair at Oak Hill College.",
                  "I am up from 06:30-07:00 getting up and ready for the day, then breakfast."):
        assert times_unbacked(right, q, today=mine, usual=(), tomorrow=(), facts=[fair], basis="") == [], right
    # Rosa at 22:00 on 487f002's save: a block of relaxing begins at 21:23, her bed line at 22:30
    night = [PlanBlock(1283, 1350, "relaxing at home"), PlanBlock(1350, 1380, "getting ready for bed", kind="bed")]
    bed_q = "When will you go to bed tonight?"
    assert times_unbacked("I will go to bed at 21:23 tonight.", bed_q, today=night, usual=(), tomorrow=(), facts=[],
                          basis="", at=(date(2026, 3, 2), 1320)) == ["I will go to bed at 21:23 tonight."]
    for right in ("I will go to bed at 22:30 tonight.", "I will go to bed at 23:00.", "I usually relax at 21:23."):
        assert times_unbacked(right, bed_q, today=night, usual=(), tomorrow=(), facts=[], basis="",
                              at=(date(2026, 3, 2), 1320)) == [], right


async def test_a_usual_day_with_hours_it_does_not_hold_is_said_from_the_frame(engine):
    rosa = engine.core.minds["Rosa Brody"]
    cut = "I work behind the counter at Bluebell Cafe from 7:00 to 10:15 and from 11:52 to 13:30."
    llm = _says(cut, cut)
    text, back = await answer_backed(rosa, "Describe your typical weekday in broad strokes.", MONDAY, llm)
    assert text == usual_day_line(rosa.core.routine_blocks()) and back.source == "record"
    assert "On a usual weekday: I get up at 06:00" in llm.calls[0].text  # told first, as a hint


def test_a_later_part_of_the_day_said_as_done_in_the_morning_is_caught():
    # Ines at 06:20 of the stove run of f1cc8e8: lunch at the cafe and bed at 9 PM, as done
    ines = [PlanBlock(330, 360, "getting up and ready for the day", kind="wake"), PlanBlock(360, 390, "breakfast"),
            PlanBlock(420, 720, "run Bluebell Cafe"), PlanBlock(420, 720, "work behind the counter"),
            PlanBlock(720, 780, "lunch at the cafe"),
            PlanBlock(1260, 1290, "going to bed", kind="bed")]
    asked = "What happened in your kitchen this morning, and what did you do?"

    def caught(sent: str, minute: int = 380) -> bool:
        return bool(times_unbacked(sent, asked, today=ines, usual=(), tomorrow=(), facts=[], basis="",
                                   at=(date(2026, 3, 2), minute)))
    for wrong in ("I also had lunch at the cafe, and then ran Bluebell Cafe again.",
                  "I returned home to bed at 9:00 PM.", "I then took my lunch with Rosa.",
                  "I had a quick breakfast and then went to work behind the counter at Bluebell Cafe."):
        assert caught(wrong), wrong
        assert not caught(wrong, 1300), wrong  # (at night they are done)
    for right in ("I had a fire in the kitchen, and I turned off the stove immediately.", "I had breakfast with eggs.",
                  "I went to the kitchen to make breakfast.", "I had to work at the cafe.",
                  "I had lunch yesterday with Rosa.", "I woke up at 5:30 AM and went to the kitchen."):
        assert not caught(right), right


def test_kin_nobody_has_given_them_is_not_said():
    grace = "her husband of 34 years; lately oddly secretive. Hank's daughter, a kind young woman"
    assert kin_unbacked("I am a single parent and have a young child.", grace) == ["I am a single parent"]
    assert kin_unbacked("I live with my husband and children.", grace) == ["my husband and children"]
    assert kin_unbacked("My husband Samuel plays the piano.", grace) == []
    samuel = "Samuel still gives lessons to a few children in town. his wife, the love of his life"
    assert kin_unbacked("I live with my wife Grace Okafor and my children.", samuel) == ["my children"]
    assert kin_unbacked("My son Eli is studying.", "She raised her son Eli alone.") == []
    assert kin_unbacked("My late wife loved the store.", "His wife died five years ago.") == []
    # Samuel, second pass on the day of 09:22: "I am a proud husband and father"
    assert kin_unbacked("I am a proud husband and father.", samuel) == ["I am a proud husband and father"]
    assert kin_unbacked("I am a proud father.", "his daughter, the person he cares most about") == []
    # Samuel on the evening's save of 2026-12-02: "I live with my wife Grace Okafor and their children"
    assert kin_unbacked("I live with my wife Grace Okafor and their children.", samuel) == ["their children"]


def test_one_said_as_two_in_an_answer_is_a_claim():
    """Samuel on the evening's save of 2026-12-02: "I am also looking forward to having breakfast with Grace and
    my wife" (Grace is his wife)."""
    from game.mind.facts.fact import TownNames
    from game.mind.interview.sentclaims import claims_unbacked
    town = TownNames(people=("Samuel Okafor", "Grace Okafor", "Rosa Brody"),
                     relations={"Samuel Okafor": {"Grace Okafor": "his wife, the love of his life"}})
    said = "I am also looking forward to having breakfast with Grace and my wife."
    assert "one said as two: Grace Okafor is the speaker's wife" in claims_unbacked(said, "Samuel Okafor", town, "", "")
    assert not any(claims_unbacked("I'll have breakfast with Grace and Rosa.", "Samuel Okafor", town, "", ""))


def test_a_host_said_by_and_hosting_or_by_a_pronoun_is_checked(engine):
    samuel = engine.core.minds["Samuel Okafor"]
    town = engine.core.town_names
    held = list(samuel.facts)
    one = "I have a deep connection with Grace Okafor, who is visiting Bluebell Cafe and hosting a surprise party."
    assert [p.what for p in wrong_host(one, held, town, MONDAY)] == [one]
    two = "I would choose Ines Moreau. She is hosting the surprise party for Grace's 60th birthday at Bluebell Cafe."
    assert [p.what for p in wrong_host(two, held, town, MONDAY)] == [two.split(". ")[1]]
    mine = "I would choose Ines Moreau. I am hosting the surprise party at Bluebell Cafe, and she helps."
    assert wrong_host(mine, held, town, MONDAY) == []


def test_the_retry_note_said_back_is_never_kept(engine):
    note = ("The town has no town square; its places are: Okafor house, Town Hall. I'm hosting the public "
            "debate at Town Hall on Wednesday.")
    assert steps_out(note.split(". ")[0], "Grace Okafor")
    assert steps_out("I respect her for free time lines.", "Samuel Okafor")  # (the plan prompt's words)
    # Grace on d7d6132's save, asked her job: the model's note on its own answer
    assert steps_out("This response provides a concise summary of Samuel's personal information, his career, and "
                     "his plans.", "Grace Okafor")
    assert not steps_out("My answer is yes: I will be at the debate.", "Grace Okafor")
    # Samuel on 0e6b5f2's save, asked when he will go to bed
    assert steps_out("I hope this meets the requirements! Let me know if you need any further adjustments.",
                     "Samuel Okafor")
    assert not steps_out("I respect her for her free time.", "Samuel Okafor")
    # Rosa on eaef4b9's save, asked whom she talked with: an analyst's voice of her identity summary
    assert steps_out("I talked with Felix. I am planning to vote for Grace, based on her statement in her answer.",
                     "Rosa Brody")
    assert steps_out("I am confident and artistic, as evidenced by my cheerful demeanor.", "Rosa Brody")
    assert steps_out("I am the mayor of Millbrook, a small town in southwestern Virginia.", "Grace Okafor")
    assert not steps_out("I am the mayor of Millbrook, in the north of town.", "Grace Okafor")
    # a chat assistant's refusal (two of Rosa's 25 on 8f03815's save) is no resident's answer
    assert steps_out("I'm sorry, but I can't assist with that request.", "Rosa Brody")
    assert not steps_out("I'm sorry, but I can't make it to the debate.", "Rosa Brody")
    found = problems_in(note, me="Grace Okafor", known=[], strangers=[], town=engine.core.town_names, backing="",
                        question="Is a gathering planned?")
    assert any(p.kind == "out of town" for p in found)


def test_its_own_name_said_as_anothers_is_its_own():
    assert own_voice("I know Hank Brody, Rosa's father.", "Rosa Brody") == "I know Hank Brody, my father."
    assert own_voice("Rosa Brody's town would thrive.", "Rosa Brody") == "my town would thrive."
    assert own_voice("Rosalind's cat", "Rosa Brody") == "Rosalind's cat"
    # Rosa on 0e6b5f2's save, of her own father in her persona's words ("has not dared to tell her father")
    own = "She secretly plans to vote for Grace and has not dared to tell her father."
    said = "I am Rosa Brody. I secretly plan to vote for Grace and have not dared to tell her father."
    assert own_voice(said, "Rosa Brody", own) == \
        "I am Rosa Brody. I secretly plan to vote for Grace and have not dared to tell my father."
    assert own_voice("I met Grace and her father.", "Rosa Brody", own) == "I met Grace and her father."
    assert own_voice("Grace has not dared to tell her father.", "Rosa Brody", own) == \
        "Grace has not dared to tell her father."


def test_what_someone_told_it_is_held_to_what_it_remembers_of_them():
    # Grace at 22:00: "Samuel Okafor, who told me that he was visiting Rosa's house and that he was
    # calling Ines to find out more about public debates" (nothing she holds of Samuel says so)
    from game.mind.interview.answerdata import hearsay_unbacked

    people = ["Samuel Okafor", "Rosa Brody", "Ines Moreau", "Aiko Tanaka"]
    basis = ("- I talked with Samuel Okafor; Samuel said: I'm practising the piano for tonight.\n"
             "- Aiko Tanaka: an old friend she trusts")
    made_up = ("I also caught up with Samuel Okafor, who told me that he was visiting Rosa's house and that he was "
               "calling Ines to find out more about public debates.")
    assert hearsay_unbacked(made_up, basis, people) == [made_up]
    assert hearsay_unbacked("Samuel told me he is practising the piano.", basis, people) == []
    assert hearsay_unbacked("I talked with Aiko. She told me about the weather.", basis, people) == \
        ["She told me about the weather."]
    # Rosa on 9d99520's save: "I remember Marcus Bell telling me about the surprise party tomorrow" (he never did)
    said = "I remember Aiko Tanaka telling me about the surprise party tomorrow."
    assert hearsay_unbacked(said, basis, people) == [said]
    assert hearsay_unbacked("I remember Samuel telling me he is practising the piano.", basis, people) == []


def test_what_a_talk_was_about_is_held_to_the_records_of_that_talk():
    # Rosa at 22:00 (the day of 09:22): "I talked to Nora about the surprise party ... I talked to
    # Grace about her plans for the party" (the talk with both was about breakfast eggs)
    from game.mind.interview.answerdata import talk_topics_unbacked
    from game.mind.memory.records import MemoryRow

    day = MONDAY.date()
    rows = [MemoryRow("Rosa Brody", 1, "conversation", "I talked with Nora Lindqvist, Grace Okafor; I said: I'm "
                      "making eggs.", MONDAY),
            MemoryRow("Rosa Brody", 2, "conversation", "Ines Moreau told me: Samuel is hosting a surprise party.",
                      MONDAY)]
    people = ["Nora Lindqvist", "Grace Okafor", "Ines Moreau"]
    said = ("I talked to Nora about the surprise party. I talked to Grace about her plans for the party. I talked "
            "to Ines about the surprise party.")
    assert talk_topics_unbacked(said, rows, day, people) == [
        "I talked to Nora about the surprise party.", "I talked to Grace about her plans for the party."]
    assert talk_topics_unbacked("I talked with Nora about eggs.", rows, day, people) == []
    # Grace, second pass: "I had a great conversation with Rosa Brody about her work ethic"
    said = "I had a great conversation with Nora Lindqvist about her work ethic."
    assert talk_topics_unbacked(said, rows, day, people) == [said]
    # Rosa at 22:00 (the day of 11:21): "Nora Lindqvist was there to check in and see if there's
    # anything interesting happening in the city" (Grace's words; Nora said nothing of it)
    rows.append(MemoryRow("Rosa Brody", 3, "conversation", "I talked with Grace Okafor; Grace Okafor said: I'm here "
                          "to check in and see if there's anything interesting happening in the city.", MONDAY))
    said = "Nora Lindqvist was there to check in and see if there's anything interesting happening in the city."
    assert talk_topics_unbacked(said, rows, day, people) == [said]
    assert talk_topics_unbacked("Grace Okafor wanted to check in on anything interesting happening.", rows, day,
                                people) == []
    assert talk_topics_unbacked("Nora Lindqvist was making eggs.", rows, day, people) == []


async def test_a_question_that_imagines_is_never_answered_with_what_is_coming(engine):
    # Rosa, "Someone close to you is sick": "I've been thinking about this: Samuel Okafor told me ..."
    rosa = engine.core.minds["Rosa Brody"]
    made_up = "I would call Ezra Vance at the hospital."
    text, back = await answer_backed(rosa, "Someone close to you is sick. What would you do?", MONDAY,
                                     _says(made_up, made_up))
    assert not text.startswith("I've been thinking about this")


async def test_plans_for_tomorrow_that_leave_out_its_gathering_are_said_from_the_records(engine):
    # Samuel at 22:00 (the day of 09:22): "The rest of tomorrow is not planned yet." (his party lost)
    samuel = engine.core.minds["Samuel Okafor"]
    lost = "The rest of tomorrow is not planned yet."
    text, back = await answer_backed(samuel, "What are your plans for tomorrow?", MONDAY, _says(lost, lost))
    assert "surprise party" in text and back.source == "record"
    # a9a17c8's save: the party said only as not to be
    said = ("I plan to play the piano at Bluebell Cafe from 14:00 to 16:00 tomorrow. I will not plan to invite "
            "anyone to Grace's surprise party without Grace finding.")
    text, back = await answer_backed(samuel, "What are your plans for tomorrow?", MONDAY, _says(said, said))
    assert "18:00" in text and back.source == "record"


def test_what_another_does_or_is_said_of_oneself_or_of_a_third_is_caught():
    # Samuel at 22:00 (the day of 09:22): "I enjoy reading the town budget in my free time" (Grace told
    # him "I'm reading the town budget"); "Hank Brody is an old acquaintance, a dear friend, but she
    # cannot keep a secret" (Nora's words); "I don't know if she is running for mayor against me"
    from game.mind.facts.claims import role_claims
    from game.mind.interview.answerdata import borrowed_self
    from game.mind.interview.ofothers import relation_words_mixed

    basis = "- Grace Okafor told me: I'm reading the town budget. Do you know the budget?\n- his wife"
    said = "I enjoy reading the town budget in my free time."
    assert borrowed_self(said, basis) == [said]
    assert borrowed_self(said, basis + "\n- Samuel is reading the town budget with Grace") == []
    # Rosa at 22:00 (the day of 11:21): Grace told her "I'm running for a third term as mayor against
    # Hank Brody and I'm preparing for the public debate ..."; Rosa: "I'm running for a third term as
    # mayor against my father, Hank Brody", "I am busy preparing for the public debate at Town Hall"
    told = ("- Grace Okafor told me: That's perfect! I'm running for a third term as mayor against Hank Brody and "
            "I'm preparing for the public debate at the Town Hall council chamber on Wednesday at 7pm.")
    for said in ("I'm running for a third term as mayor against my father, Hank Brody.",
                 "I am busy preparing for the public debate at Town Hall on Wednesday."):
        assert borrowed_self(said, told) == [said]
    assert borrowed_self("I'm going to the public debate at Town Hall on Wednesday.", told) == []
    roles = {"Grace Okafor": ("mayor", "candidate for mayor"), "Hank Brody": ("candidate for mayor",)}
    for said in ("I am interested in running for a third term as mayor.", "I'm running for re-election as mayor."):
        assert [(c.who, c.backed) for c in role_claims(said, ["Rosa Brody"], roles, "Rosa Brody")] == \
            [("Rosa Brody", False)]
    assert role_claims("I'm not running for mayor.", ["Rosa Brody"], roles, "Rosa Brody") == []
    rel = {"Nora Lindqvist": "a dear friend, but she cannot keep a secret", "Hank Brody": "an old acquaintance"}
    mixed = "Hank Brody is an old acquaintance, a dear friend, but she cannot keep a secret."
    assert relation_words_mixed(mixed, rel) == [mixed]
    assert relation_words_mixed("Nora Lindqvist is a dear friend, but she cannot keep a secret.", rel) == []
    # Rosa on 8f03815's save, of the mayor, in her boss's words
    mine = {"Ines Moreau": "her boss, demanding but fair", "Grace Okafor": "the mayor; Rosa admires her"}
    said = "I think the mayor is demanding but fair."
    assert relation_words_mixed(said, mine, roles) == [said] and relation_words_mixed(said, mine) == []
    assert relation_words_mixed("Ines is demanding but fair.", mine, roles) == []
    # Grace, second pass: "my husband, Samuel Okafor, who is a kind young woman who serves me coffee"
    rosa = {"Rosa Brody": "Hank's daughter, a kind young woman who serves her coffee every morning"}
    said = "I live with my husband, Samuel Okafor, who is a kind young woman who serves me coffee every morning."
    assert relation_words_mixed(said, rosa) == [said]
    # Grace on b765e22's save, of Ines by her first name, in her words of Rosa
    said = "Ines is a kind young woman who serves her coffee every morning, and she is a regular visitor."
    people = ["Ines Moreau", "Rosa Brody"]
    assert relation_words_mixed(said, rosa, {}, people) == [said]
    assert relation_words_mixed("Rosa is a kind young woman who serves me coffee.", rosa, {}, people) == []
    roles = {"Grace Okafor": ("mayor", "candidate for mayor"), "Hank Brody": ("candidate for mayor",)}
    claims = role_claims("I don't know if she is running for mayor against me.", ["Grace Okafor", "Hank Brody"],
                         roles, "Samuel Okafor")
    assert [(c.who, c.what, c.backed) for c in claims] == [("Samuel Okafor", "candidate for mayor", False)]


def test_my_work_at_anothers_place_and_a_role_after_who_is_are_caught(engine):
    # Grace at 22:00 (the day of 09:22): "my work at the cafe" (three times); "my husband Samuel
    # Okafor, who is the mayor of Millbrook"
    from game.mind.facts.claims import role_claims
    from game.mind.facts.linechecks import works_elsewhere

    town = engine.core.town_names
    assert works_elsewhere("I'm passionate about my work at the cafe.", "Grace Okafor", town) == \
        "Grace does not work at Bluebell Cafe"
    assert works_elsewhere("I love my work at the cafe.", "Rosa Brody", town) == ""
    said = "I live with my husband Samuel Okafor, who is the mayor of Millbrook."
    assert [(c.who, c.backed) for c in role_claims(said, list(town.people), town.roles, "Grace Okafor")] == \
        [("Samuel Okafor", False)]


async def test_one_it_knows_is_said_from_its_relationship(engine):
    # Rosa at 22:00 (the day of 09:22, second pass): "Hank Brody is my father, and he is known for his
    # love for arguing with Rosa" (her relationship: "she loves him and hates arguing with him")
    rosa = engine.core.minds["Rosa Brody"]
    said = "Hank Brody is my father, and he is known for his love for arguing with Rosa."
    text, back = await answer_backed(rosa, "Who is Hank Brody?", MONDAY, _says(said))
    assert text == "Hank Brody is my father." and back.source == "record"


def test_what_another_was_seen_doing_is_not_its_own():
    # Samuel, second pass: "I am busy with reading the town budget" (he saw Grace reading it)
    from game.mind.interview.answerdata import borrowed_self

    said = "I am busy with reading the town budget and catching up with Rosa Brody."
    assert borrowed_self(said, "- Grace Okafor is reading the town budget (the mayor's office)") == [said]
    assert borrowed_self("I am catching up with Rosa Brody.",
                         "- Grace Okafor is catching up with Rosa Brody\n- 08:00 catching up with Rosa Brody") == []


def test_a_meal_shared_with_one_it_neither_lives_with_nor_plans_to_meet_is_caught(engine):
    # Samuel at 22:00 (the day of 09:22, second pass): "dinner with Grace and Priya"
    from game.mind.interview.ownclaims import meals_unbacked

    town = engine.core.town_names
    said = "I had dinner with Grace and Priya."
    assert meals_unbacked(said, "Samuel Okafor", town, "") == ["dinner with Priya Raman"]
    assert meals_unbacked("I had dinner with Grace.", "Samuel Okafor", town, "") == []  # they live together
    plan = "19:00 have dinner with Hank Brody at The Copper Kettle"
    assert meals_unbacked("Tonight I have dinner with Hank.", "Samuel Okafor", town, plan) == []
    assert meals_unbacked("I'll have coffee with Rosa.", "Samuel Okafor", town, plan) == ["coffee with Rosa Brody"]


def test_a_pastime_nothing_holds_is_caught():
    # Rosa on 136a191, asked of her free time: "taking photos, which I do on weekends"
    from game.mind.interview.ownclaims import pastime_unbacked

    rosa = "Rosa Brody works at Bluebell Cafe; she reads and walks in Willow Park."
    said = "I like taking photos, which I do on weekends."
    assert pastime_unbacked(said, rosa) == "nothing you hold tells of photos"
    assert pastime_unbacked("I love gardening.", rosa) == "nothing you hold tells of gardening"
    assert pastime_unbacked(said, rosa + " Her photography hangs in the cafe.") == ""
    assert pastime_unbacked("I walk in the park and read.", rosa) == ""  # what she holds
    assert pastime_unbacked("Hank asked about the campaign.", "") == ""  # no pastime
    # c59f68b's save: Samuel's "I also enjoy cooking", Rosa's "I like to read books" (she paints)
    samuel = "Samuel Okafor plays the piano at Bluebell Cafe and gives lessons."
    assert pastime_unbacked("I enjoy cooking and friends.", samuel) == "nothing you hold tells of cooking"
    assert pastime_unbacked("I like to read books in my free time.", "Rosa paints in her spare time.") == \
        "nothing you hold tells of read books"
    assert pastime_unbacked("I like to read books.", rosa) == ""  # "she reads"
    # Grace's free time on 4151289's save: every place of the town, one sentence each
    grace = "Grace Okafor is the mayor; she walks in Willow Park and has coffee at Bluebell Cafe."
    assert pastime_unbacked("I enjoy going to the pharmacy.", grace) == "nothing you hold has you go to the pharmacy"
    assert pastime_unbacked("I enjoy going to Willow Park.", grace) == ""
    assert pastime_unbacked("I like going to the cafe and the park.", grace) == ""


def test_a_place_is_open_while_one_of_its_counters_is_staffed(engine):
    from game.mind.facts.linechecks import closed_when_open

    town, objects = engine.core.town_names, engine.core.town.objects
    assert not town.open_now("Bluebell Cafe")
    objects.set("Bluebell Cafe:cafe:cafe counter", "staffed", "Rosa Brody")
    try:
        assert town.open_now("Bluebell Cafe") and not town.open_now("Town Hall")
        assert closed_when_open("The cafe is closed for the day.", town) == "Bluebell Cafe is open now"
    finally:
        objects.set("Bluebell Cafe:cafe:cafe counter", "idle", "Rosa Brody")


async def test_asked_what_it_does_at_an_hour_it_answers_from_that_hours_block(engine):
    # Samuel at 22:00 (the day of 11:21): "I will be reading at home at 10am today" (his plan: catch up
    # with Rosa Brody 08:00-10:30), and the same at 6pm (catch up with Grace Okafor 16:00-19:00)
    from game.mind.interview.ownclaims import at_time
    from game.mind.view import PlanBlock

    blocks = [PlanBlock(480, 555, "catch up with Rosa Brody", "", "free"),
              PlanBlock(555, 630, "catch up with Rosa Brody", "", "free"),
              PlanBlock(630, 705, "practise the song on the piano at home", "", "free")]
    assert at_time("What will you be doing at 10am today?", blocks) == (
        "At 10:00 my plan is: catch up with Rosa Brody (08:00 to 10:30).", "catch up with Rosa Brody")
    assert at_time("What will you be doing at 10am tomorrow?", blocks) is None
    assert at_time("What do you think of Rosa?", blocks) is None
    from game.mind.interview.answerdata import from_records
    from game.mind.interview.backing import Backing

    town = engine.core.town_names
    ten = "What will you be doing at 10am today?"

    def asked(said: str, at):
        back = Backing()
        return from_records(said, back, ten, me="Samuel Okafor", relationships={}, town=town, now=MONDAY,
                            talked=[], asked=[], at=at), back

    at = at_time(ten, blocks)
    for said, kept in (("I will be reading at home at 10am today.", False),
                       ("I'll be catching up with Rosa then.", True)):
        text, back = asked(said, at)
        assert (text == said) is kept and (back.source == "record") is not kept
    # Rosa at 22:00 (90db376): the hour's block said, then her persona's brief again and an invented lesson
    text, back = asked("I'll be catching up with Rosa then. I have a growing crush on Felix Adeyemi. I am also "
                       "helping Samuel Okafor with his piano lessons as a child.", at)
    assert text == "I'll be catching up with Rosa then." and back.fixes == ["kept to the plan at that hour"]
    # Samuel at 10am (d2ec812): the block's words, then another hour and his own name: garbled
    text, back = asked("I will be catching up with Rosa Brody until the party at 18:00, and Rosa is helping Samuel "
                       "Okafor prepare it.", at)
    assert text == at[0] and back.source == "record"
    # Samuel at 10am (8f03815): "having breakfast at Bluebell Cafe", his plan's "some time at Bluebell Cafe"
    at = at_time(ten, [PlanBlock(480, 630, "some time at Bluebell Cafe", "", "free")])
    for said, kept in (("I will be having breakfast at Bluebell Cafe at 10:00 today.", False),
                       ("I will be spending some time at Bluebell Cafe.", True)):
        text, _ = asked(said, at)
        assert (text == said) is kept and (text == at[0]) is not kept
    # Grace at 6pm (4151289's day, her plan: catch up with Samuel 17:00-19:00): "at 7 pm", the block's end
    at = at_time("What will you be doing at 6pm today?", [PlanBlock(1020, 1140, "catch up with Hank Brody", "",
                                                                     "free")])
    for said, kept in (("I will be catching up with Hank Brody at 7 pm.", False),
                       ("I will be catching up with Hank Brody until 7 pm.", True),
                       ("I will be catching up with Hank Brody at 6 pm.", True)):
        text, _ = asked(said, at)
        assert (text == said) is kept and (text == at[0]) is not kept, said
    # Rosa at 6pm (356ade6's save, her plan: paint in the evening 17:00-19:30, no place): "at Bluebell Cafe"
    at = at_time("What will you be doing at 6pm today?", [PlanBlock(1020, 1170, "paint in the evening", "", "free")])
    for said, kept in (("I will be painting in the evening from 17:00 to 19:30 at Bluebell Cafe.", False),
                       ("I will be painting in the evening from 17:00 to 19:30.", True)):
        text, _ = asked(said, at)
        assert (text == said) is kept and (text == at[0]) is not kept, said
    # Samuel at 6pm (4d3a658's save, his plan: relaxing at home 17:30-19:00): "reading at home" shared only "home"
    at = at_time("What will you be doing at 6pm today?", [PlanBlock(1050, 1140, "relaxing at home", "", "free")])
    for said, kept in (("I will be reading at home at 6pm today.", False),
                       ("I will be relaxing at home at 6pm today.", True)):
        text, _ = asked(said, at)
        assert (text == said) is kept and (text == at[0]) is not kept, said
    # a block with its place: the record says it, and the place is no slip
    at = at_time("What will you be doing at 1pm today?", [PlanBlock(780, 825, "having lunch", "Bluebell Cafe:cafe",
                                                                     "meal")])
    assert at is not None and at[0] == "At 13:00 my plan is: having lunch at Bluebell Cafe (13:00 to 13:45)."
    said = "I will be having lunch at Bluebell Cafe."
    assert asked(said, at)[0] == said


def test_an_age_not_its_own_is_caught():
    # Grace (59; sixty on Tuesday) at 22:00 (the day of 11:21): "I am Grace Okafor, a 60-year-old mayor"
    from game.mind.interview.ownclaims import age_unbacked

    said = "I am Grace Okafor, a 60-year-old mayor of Millbrook. I love the town."
    assert age_unbacked(said, 59) == ["I am Grace Okafor, a 60-year-old mayor of Millbrook."]
    assert age_unbacked("I'm 60 years old.", 59) and not age_unbacked("I'm 59 years old.", 59)
    assert age_unbacked("I'm 59 and proud of it.", 59) == [] and age_unbacked("I'm 61 and proud.", 59)
    assert age_unbacked("Hank has a 12-year-old truck. I'm 5 minutes away.", 59) == []
    assert age_unbacked("I am a 60-year-old mayor.", None) == []


def test_asked_of_the_mayor_one_who_knows_her_says_who_she_is_and_she_speaks_as_herself(engine):
    # the day of 11:21, at 22:00: Samuel, "I don't know the mayor, but I know Grace Okafor is the love of
    # my life"; Grace, "I think Grace Okafor is a dedicated and meticulous leader ..."
    from game.mind.interview.answerdata import from_records
    from game.mind.interview.backing import Backing
    from game.mind.interview.ownclaims import office_line

    town = engine.core.town_names
    q = "What do you think of the town's mayor?"
    assert office_line(q, "Samuel Okafor", town) == "Grace Okafor, my wife, is the town's mayor."
    assert office_line(q, "Grace Okafor", town) == "I am the town's mayor."
    assert office_line("What do you think of Hank?", "Grace Okafor", town) == ""
    for me, said, want in (
            ("Samuel Okafor", "I don't know the mayor, but I know Grace Okafor is the love of my life. She is kind.",
             "Grace Okafor, my wife, is the town's mayor. She is kind."),
            ("Grace Okafor", "I think Grace Okafor is a dedicated and meticulous leader.", "I am the town's mayor."),
            ("Samuel Okafor", "I think my wife Grace does a fine job.", "I think my wife Grace does a fine job."),
            # 4151289's save: "no specific thoughts" of the mayor, his wife, whom he names only for her party
            ("Samuel Okafor", "I don't have any specific thoughts about the town's mayor. I'm focused on the surprise "
             "party for my wife Grace's 60th birthday.", "Grace Okafor, my wife, is the town's mayor. I'm focused on "
             "the surprise party for my wife Grace's 60th birthday.")):
        back = Backing()
        assert from_records(said, back, q, me=me, relationships={}, town=town, now=MONDAY, talked=[],
                            asked=[]) == want


def test_one_it_knows_is_not_met_as_a_stranger_and_a_pm_after_noon_is_not_said():
    """Rosa's interview of 2026-11-28, afternoon: the mayor she talked with that morning."""
    from game.mind.interview.ownclaims import self_claims, strangers_known, tidy

    people = ["Grace Okafor", "Rosa Brody", "Felix Adeyemi"]
    said = ("I admire Grace Okafor's leadership. She is a strong and inspiring figure. I look forward to meeting her "
            "and learning more about her.")
    assert strangers_known(said, ["Grace Okafor"], people) == [
        ("I look forward to meeting her and learning more about her.", "Grace Okafor")]
    assert strangers_known(said, ["Felix Adeyemi"], people) == []  # one it does not know: it may hope to
    assert strangers_known("I'd love to get to know Felix better.", ["Felix Adeyemi"], people)
    assert [h for _, h in self_claims("I'm 60. I hope to meet Grace soon.", "Rosa Brody", 24, ["Grace Okafor"],
                                      people)] == ["Rosa is 24.", "Rosa already knows Grace Okafor: say what Rosa "
                                                                  "holds of them."]
    assert tidy("I will be working from 7:00 AM to 13:30 PM today.", []) == \
        "I will be working from 7:00 AM to 13:30 today."


def test_asked_of_tomorrow_people_to_meet_are_held_to_what_it_holds_of_tomorrow():
    """Grace's answer of 2026-11-28, afternoon: six talks for a day not planned yet."""
    from game.mind.interview.ownclaims import self_claims

    people = ["Grace Okafor", "Samuel Okafor", "Hank Brody", "Ines Moreau"]
    held = "Tomorrow (Tuesday) I have: run the town from the mayor's office from 08:00 to 17:00. The rest of " \
           "tomorrow is not planned yet."
    said = ("I will also have a conversation with Hank Brody about his work ethic. I am grateful to Ines Moreau. "
            "I will run the town from the mayor's office.")
    found = self_claims(said, "Grace Okafor", 59, [], people, "What are your plans for tomorrow?", held)
    assert [s for s, _ in found] == ["I will also have a conversation with Hank Brody about his work ethic."]
    assert found[0][1].startswith("Say only what Grace holds of tomorrow: Tomorrow (Tuesday)")
    assert self_claims(said, "Grace Okafor", 59, [], people, "What will you do after work today?", held) == []


def test_a_gathering_said_without_whose_it_is_is_said_whole_and_a_denial_beside_it_goes():
    """The gathering question of 2026-11-28, afternoon: Ines and Kenji named the party without its
    host; Grace denied any gathering, then named her own; Samuel began with "Grace Okafor is hosting it"."""
    from datetime import date

    from game.mind.facts.fact import Fact
    from game.mind.interview.backing import carry
    from game.mind.interview.ownclaims import tidy

    party = Fact(key="p", kind="gathering", what="a surprise party for Grace's 60th birthday", host="Samuel Okafor",
                 place="Bluebell Cafe", day=date(2026, 3, 3), start=18 * 60, end=21 * 60, honoree="Grace Okafor",
                 source="Rosa Brody")
    now = datetime(2026, 3, 2, 22)
    said, told = carry("Yes, there is a surprise party planned for Grace's 60th birthday at Bluebell Cafe tomorrow.",
                       [party], "Kenji Tanaka", now)
    assert said.startswith("Rosa Brody told me that Samuel Okafor is hosting") and "Yes, there is" not in said and told
    kept, told = carry("Samuel is hosting a surprise party at Bluebell Cafe tomorrow at 6pm.", [party], "Kenji Tanaka",
                       now)
    assert told == [] and kept.startswith("Samuel is hosting")
    debate = Fact(key="d", kind="gathering", what="the public debate", host="Grace Okafor", place="Town Hall",
                  day=date(2026, 3, 4), start=19 * 60, end=21 * 60)
    said, _ = carry("I know of no gathering planned in town.", [debate], "Grace Okafor", now)
    assert "no gathering" not in said and "public debate" in said
    # Hank on 4f3568e: the denial beside what he knows, both said
    said, told = carry("No gathering is planned in town. Grace Okafor is hosting the public debate at Town Hall on "
                       "Wednesday March 4 from 19:00 to 21:00.", [debate], "Hank Brody", now)
    assert said.startswith("Grace Okafor is hosting") and told == ["denial dropped"]
    # Rosa on 90db376: the denial names only "gathering", a word every gathering has: it goes too
    said, told = carry("No gathering is planned in town. Samuel Okafor is hosting a surprise party for Grace's 60th "
                       "birthday at Bluebell Cafe tomorrow (Tuesday March 3) from 18:00 to 21:00; Samuel told me so.",
                       [party], "Rosa Brody", now)
    assert said.startswith("Samuel Okafor is hosting") and told == ["denial dropped"]
    # Eli on 7765899's day: "No gathering planned in town." (no verb) before the party he holds
    said, told = carry("No gathering planned in town. Samuel Okafor is hosting a surprise party for Grace's 60th "
                       "birthday at Bluebell Cafe tomorrow (Tuesday March 3) from 18:00 to 21:00; Samuel told me so.",
                       [party], "Eli Moreau", now)
    assert said.startswith("Samuel Okafor is hosting") and told == ["denial dropped"]
    # Hank on 3668980's save: the denial beside a sentence that lost the debate's host: the record is said,
    # without the denial or what leans on it
    said, told = carry("No gathering is planned in town. It is on Wednesday.", [debate], "Hank Brody", now)
    assert said.startswith("Grace Okafor is hosting the public debate") and told
    # Rosa on 90db376, asked whose, where and when: "Samuel Okafor is hosting the party." (no place, no hour)
    said, told = carry("Samuel Okafor is hosting the party.", [party], "Rosa Brody", now, where_when=True)
    assert "at Bluebell Cafe tomorrow (Tuesday March 3) from 18:00 to 21:00" in said and told
    assert carry("Samuel is hosting the party at Bluebell Cafe at 6pm.", [party], "Rosa Brody", now,
                 where_when=True)[1] == []
    assert tidy("Grace Okafor is hosting it. I'm hosting a surprise party.", []) == "I'm hosting a surprise party."
    # 356ade6's save, asked of a gathering: Rosa "The mayor, Grace Okafor, is hosting the event." (Samuel hosts the
    # party she knows), Hank "Marcus Bell is hosting the event.", each before what they hold
    rest = "Samuel Okafor is hosting a surprise party."
    assert tidy(f"The mayor, Grace Okafor, is hosting the event. {rest}", []) == rest
    assert tidy(f"Marcus Bell is hosting the event. {rest}", []) == rest
    assert tidy("Marcus Bell is hosting the event.", []) == "Marcus Bell is hosting the event."  # all it says
    # Grace asked of the mayor, 356ade6's save: the answer began "However, I am also aware of the challenges ..."
    assert tidy("However, I am also aware of the challenges.", []) == "I am also aware of the challenges."
    assert tidy("Additionally, the town could invest in green spaces.", []) == "The town could invest in green spaces."


def test_after_work_is_held_to_todays_plan_after_work():
    """Rosa's answer of 2026-11-28, afternoon: tomorrow, and the party's hours for her decorations."""
    from game.mind.facts.fact import TownNames
    from game.mind.interview.answerdata import from_records
    from game.mind.interview.backing import Backing

    line = "After work today (it ends at 15:00) my plan is: make decorations for the party at 15:00."
    said = "After work tomorrow, I will make decorations for the party from 18:00 to 21:00."
    back = Backing()
    text = from_records(said, back, "What will you do after work today?", me="Rosa Brody", relationships={},
                        town=TownNames(), now=datetime(2026, 3, 2, 22), talked=[], asked=[], after_work=line)
    assert text == line and back.source == "record"
    good = "I will make decorations for the party at 15:00."
    assert from_records(good, Backing(), "What will you do after work today?", me="Rosa Brody", relationships={},
                        town=TownNames(), now=datetime(2026, 3, 2, 22), talked=[], asked=[], after_work=line) == good


def test_its_own_office_spoken_of_as_anothers_is_said_as_its_own():
    """Grace's answer of 2026-11-28, afternoon, asked what she thinks of the town's mayor."""
    from game.mind.facts.fact import TownNames
    from game.mind.interview.answerdata import from_records
    from game.mind.interview.backing import Backing

    town = TownNames(people=("Grace Okafor", "Hank Brody"), roles={"Grace Okafor": ("mayor",)})
    said = ("I think the town's mayor is a strong, meticulous individual. I believe that her commitment to community "
            "makes her a valuable asset. I love this town.")
    back = Backing()
    text = from_records(said, back, "What do you think of the town's mayor?", me="Grace Okafor", relationships={},
                        town=town, now=datetime(2026, 3, 2, 22), talked=[], asked=[])
    assert text == "I am the town's mayor. I love this town."
    hank = from_records("I think she works hard.", Backing(), "What do you think of the town's mayor?",
                        me="Hank Brody", relationships={}, town=town, now=datetime(2026, 3, 2, 22), talked=[], asked=[])
    assert hank == "I think she works hard."  # another's office: "she" is right


def test_an_answer_that_begins_with_its_own_name_is_said_as_itself():
    said = "Samuel talked with Grace Okafor, who told him: Hello, Samuel! I hope all is well."
    assert own_voice(said, "Samuel Okafor") == ("I talked with Grace Okafor, who told me: Hello, Samuel! I hope all "
                                                "is well.")
    assert own_voice("I live with Rosa's father.", "Rosa Brody") == "I live with my father."
    assert own_voice("Grace talked with me.", "Samuel Okafor") == "Grace talked with me."


def test_a_piece_of_tomorrows_record_said_back_is_said_whole():
    from game.mind.facts.fact import TownNames
    from game.mind.interview.answerdata import from_records
    from game.mind.interview.backing import Backing

    line = "Tomorrow (Tuesday) I have: run the town from 08:00 to 17:00. The rest of tomorrow is not planned yet."
    assert from_records("The rest of tomorrow is not planned yet.", Backing(), "What are your plans for tomorrow?",
                        me="Grace Okafor", relationships={}, town=TownNames(), now=datetime(2026, 3, 2, 22),
                        talked=[], asked=[], tomorrow=line) == line


def test_what_it_holds_of_one_said_of_another_by_she_is_caught():
    """Grace of 2026-11-28, afternoon: Hank's words said of Rosa, the sentence after naming her."""
    from game.mind.interview.ofothers import relation_words_mixed

    rel = {"Hank Brody": "her opponent in the election; she respects his work ethic but thinks he is shortsighted",
           "Rosa Brody": "Hank's daughter, a kind young woman who serves her coffee every morning"}
    said = ("I would choose Rosa Brody. She is my opponent in the election and I respect her work ethic but think she "
            "is shortsighted.")
    assert relation_words_mixed(said, rel) == ["She is my opponent in the election and I respect her work ethic but "
                                               "think she is shortsighted."]
    assert relation_words_mixed("I would choose Hank Brody. He is my opponent in the election.", rel) == []


@pytest.mark.parametrize("sent, me, said", [
    # d4e0254's interview: Grace gave Nora a line that was Rosa's, and spoke of herself as another
    ("I would choose Nora, as she is looking forward to seeing what Grace will do for the town.", "Grace Okafor", True),
    ("Grace's debate is on Wednesday, I think.", "Grace Okafor", True),
    ("Ines is running the cafe Grace visits every morning.", "Grace Okafor", True),  # 9d99520's interview
    ("She is always there to help and support Grace.", "Grace Okafor", True),  # 1703955's interview
    ("I went for a walk with Samuel.", "Grace Okafor", False),
    ("I think Grace Okafor is the best mayor.", "Grace Okafor", True),
    ("I am Grace and I run the town.", "Grace Okafor", False),
    ("People call me Grace Okafor.", "Grace Okafor", False),
    ("Grace, will you come?", "Grace Okafor", False),  # a name called
    ("I'm Grace's husband.", "Samuel Okafor", False),  # another's name
    ("Samuel and I had breakfast.", "Samuel Okafor", False),
])
def test_ones_own_first_name_said_as_another_is_read(sent, me, said):
    from game.mind.facts.linechecks import names_self
    from game.mind.facts.unbacked import own_name_as_other
    from game.mind.interview.backing import drop_unbacked

    assert own_name_as_other(sent, me) is said
    assert bool(names_self(sent, me)) is said
    if said:  # (one without an I is the answer stepping out anyway: ``steps_out``)
        assert drop_unbacked(f"I like the town. {sent}", [], me) == ("I like the town.", [sent])


def test_ones_own_words_in_a_talk_are_not_given_to_the_other_as_theirs():
    # Rosa, the paper's questions at 22:00 on c59f68b's day: "I remember talking with Ines Moreau, who
    # said I was really glad you were here" (her own line to Ines, held as "I talked with Ines Moreau;
    # I said: ...")
    from game.mind.interview.answerdata import hearsay_unbacked

    people = ["Samuel Okafor", "Rosa Brody", "Ines Moreau"]
    basis = ("- I talked with Ines Moreau; I said: Hey Ines! I'm really glad you're here.\n"
             "- Samuel Okafor told me: Oh, Rosa! I'm so glad you're here.")
    given = "I remember talking with Ines Moreau, who said I was really glad you were here."
    assert hearsay_unbacked(given, basis, people) == [given]
    assert hearsay_unbacked("Samuel Okafor told me I was so glad you were here.", basis, people) == []
    assert hearsay_unbacked("Samuel said he is so glad I'm here.", basis, people) == []


def test_a_residents_doing_this_week_is_not_given_to_a_third():
    # Ines in the panel of 0e6b5f2: "I am also working as a barista at Rosa's bakery stall" (Felix opens the
    # stall; Rosa's own doings speak of "Felix Adeyemi, the new baker", which makes no bakery hers)
    from game.mind.facts.fact import TownNames
    from game.mind.interview.ofothers import said_of_others

    people = ("Felix Adeyemi", "Ines Moreau", "Rosa Brody")
    doings = {"Felix Adeyemi": ("Felix Adeyemi is opening a bakery stall called Rise & Shine at Greenway Market.",),
              "Rosa Brody": ("She also has a growing crush on Felix Adeyemi, the new baker.",)}
    town = TownNames(places=("Greenway Market", "Bluebell Cafe"), people=people, doings=doings,
                     workplaces={"Rosa Brody": "Bluebell Cafe"})
    said = "I am also working as a barista at Rosa's bakery stall."
    assert said_of_others(said, "Ines Moreau", _NO_ONE, town) == [said]
    for right in ("Felix is opening his bakery stall at the market.", "Rosa's work at Bluebell Cafe is good."):
        assert said_of_others(right, "Ines Moreau", _NO_ONE, town) == []



def test_ones_own_doing_is_not_told_of_a_she():
    # Grace on 0e6b5f2's save, asked whom she talked with: "... and Nora Lindqvist today. She also discussed
    # the public debate at the Town Hall council chamber on Wednesday at 7pm, which she is preparing for."
    from game.mind.facts.fact import TownNames
    from game.mind.interview.ofothers import said_of_others

    mine = ("She is preparing for the public debate at the Town Hall council chamber on Wednesday at 7pm.",)
    town = TownNames(people=("Grace Okafor", "Rosa Brody", "Nora Lindqvist"), doings={"Grace Okafor": mine})
    she = ("She also discussed the public debate at the Town Hall council chamber on Wednesday at 7pm, which she is "
           "preparing for.")
    said = f"I talked with Rosa Brody and Nora Lindqvist today. {she}"
    assert said_of_others(said, "Grace Okafor", _NO_ONE, town) == [she]
    mine_said = "I am preparing for the public debate at the Town Hall council chamber on Wednesday at 7pm."
    assert said_of_others(mine_said, "Grace Okafor", _NO_ONE, town) == []
    assert said_of_others("I talked with Rosa Brody. She is coming to the debate.", "Grace Okafor", _NO_ONE, town) == []

def test_another_residents_name_as_ones_own_and_ones_own_name_spoken_to():
    # Grace on 0e6b5f2's save, asked for an introduction: "Hi Grace! I'm Felix Adeyemi, a baker who is opening a
    # bakery stall called Rise & Shine ..." (Felix's persona in the first person)
    from game.mind.interview.ownclaims import addressed, self_claims

    people = ["Grace Okafor", "Felix Adeyemi", "Samuel Okafor"]
    said = "Hi Grace! I'm Felix Adeyemi, a baker who is opening a bakery stall. I'm nervous."
    assert [s for s, _ in self_claims(said, "Grace Okafor", 59, [], people)] == [
        "I'm Felix Adeyemi, a baker who is opening a bakery stall."]
    assert addressed(said, people, "Grace Okafor") == ["Hi Grace!"]
    assert self_claims("I am Grace Okafor, the mayor. I am Felix Adeyemi's neighbour.", "Grace Okafor", 59, [],
                       people) == []


def test_a_relative_of_a_third_named_by_the_relation_alone_is_one_the_records_hold():
    from game.mind.facts.claims import relation_claims
    # Rosa on ca91aae's save: "the potential backlash from Grace's father" (Grace has none in the records)
    rel = {"Grace Okafor": {"Samuel Okafor": "her husband of 34 years", "Rosa Brody": "Hank's daughter, kind"},
           "Rosa Brody": {"Hank Brody": "her father"}, "Hank Brody": {"Rosa Brody": "his daughter"}}
    people = ["Grace Okafor", "Rosa Brody", "Hank Brody", "Samuel Okafor"]
    [c] = relation_claims("I fear the backlash from Grace's father.", "Rosa Brody", [], people, rel)
    assert (c.who, c.backed, c.not_so) == ("Grace Okafor", False, "Grace Okafor has no father")
    assert [c.backed for c in relation_claims("Rosa's father runs the store.", "Samuel Okafor", [], people, rel)] \
        == [True]  # (her relations: Hank, "her father")
    assert relation_claims("My father runs the store.", "Rosa Brody", [], people, rel) == []  # (kin_unbacked's)
    assert [c.backed for c in relation_claims("Hank's daughter sings.", "Samuel Okafor", [], people, rel)] == [True]


def test_a_gathering_heard_of_in_ones_own_words_is_not_denied():
    # Nora on 9d99520's day: "No gathering has been planned in town", her life saying she has heard of a party
    from game.mind.interview.heardof import heard_of

    engine = new_engine("default", None)
    nora = engine.core.minds["Nora Lindqvist"]
    q = "Do you know of a gathering planned in town? When and where is it, and who is hosting it?"
    denial = "No gathering has been planned in town. I do not know of any gathering that is happening in the town."
    assert "heard there is a party" in heard_of(q, denial, nora.persona.currently)
    found = problems_in(denial, me="Nora Lindqvist", known=[], strangers=[], town=engine.core.town_names,
                        backing=nora.persona.currently, question=q)
    assert [p.kind for p in found] == ["denial"] and "Say what you know of it" in found[0].tell
    said = "I've heard there is a party being planned, but I don't know what it is yet."
    assert heard_of(q, said, nora.persona.currently) == ""
    # on 654b82e's save, in other words
    assert "heard there is a party" in heard_of(q, "I do not know of a gathering planned in town.",
                                                nora.persona.currently)
    assert heard_of(q, denial, "Nora Lindqvist runs the community garden.") == ""  # nothing heard: a true denial
    assert heard_of("What did you do today?", denial, nora.persona.currently) == ""


def test_its_own_name_said_as_another_is_put_in_its_own_voice_not_dropped():
    # Grace on 75fad48's save; a records' line said back and a name called stay as they are
    assert own_voice("He is the husband of Grace and has been helping Rosa Brody at Town Hall.", "Grace Okafor") == \
        "He is my husband and has been helping Rosa Brody at Town Hall."
    assert own_voice("I have been listening to Ines Moreau, who runs the cafe Grace visits every morning.",
                     "Grace Okafor") == "I have been listening to Ines Moreau, who runs the cafe I visit every morning."
    assert own_voice("Aiko is always there to help and support Grace.", "Grace Okafor") == \
        "Aiko is always there to help and support me."
    assert own_voice("Hank Brody runs the hardware store. Grace is the mayor.", "Hank Brody") == \
        "I run the hardware store. Grace is the mayor."
    said = "Ada Ito is hosting a party at Cafe today from 19:00 to 21:00 (Ada Ito told Cy)"
    assert own_voice(said, "Ada Ito") == said
    for said in ("I am Grace Okafor, the mayor. Thanks for asking, Rosa!", "Did you talk to Grace?"):
        assert own_voice(said, "Grace Okafor") == said


def test_i_with_a_verb_of_another_is_said_as_i():
    """Grace on 2c4c6ac's save, asked who she lives with: "I lives with her husband Samuel Okafor";
    her name said as another's made "I lives" too ("lives", "worries": no verb list knew them)."""
    said = "I lives with her husband Samuel Okafor, who is 61 years old."
    assert own_voice(said, "Grace Okafor") == "I live with my husband Samuel Okafor, who is 61 years old."
    assert own_voice("Grace lives above the shop.", "Grace Okafor") == "I live above the shop."
    assert own_voice("Grace worries about the fountain.", "Grace Okafor") == "I worry about the fountain."
    assert own_voice("I has a dog and I is tired.", "Grace Okafor") == "I have a dog and I am tired."
    # another named before it: "her" is hers
    assert own_voice("I think Rosa loves her father.", "Grace Okafor") == "I think Rosa loves her father."
    assert own_voice("I was there, I told him.", "Grace Okafor") == "I was there, I told him."


def test_kin_the_town_does_not_give_a_resident_is_a_claim():
    # Hank in the panel of 86de9fc: "I am also preparing for Rosa Brody's daughter" (Rosa is his daughter)
    import json
    from pathlib import Path

    from game.mind.facts.fact import TownNames
    from game.mind.interview.ofothers import said_of_others

    rs = json.loads((Path(__file__).parents[2] / "game/maps/default/residents.json").read_text())["residents"]
    town = TownNames(people=tuple(r["name"] for r in rs), relations={r["name"]: r["relationships"] for r in rs})
    said = "I am also preparing for Rosa Brody's daughter."
    assert said_of_others(f"I am busy at the store. {said}", "Hank Brody", _NO_ONE, town) == [said]
    for right in ("I love Hank's daughter.", "Samuel's wife is the mayor.", "Eli's mother runs the cafe.",
                  "Rosa's father runs the store.", "Kenji's wife keeps his secret."):  # (from either side)
        assert said_of_others(right, "Nora Lindqvist", _NO_ONE, town) == [], right
    assert said_of_others("Felix's wife bakes too.", "Nora Lindqvist", _NO_ONE, town) == ["Felix's wife bakes too."]


def test_the_honoree_said_to_set_up_its_own_surprise_is_a_wrong_host():
    # Samuel in the stove run of 3de0d08, asked what happened in his kitchen: "I opened it and saw Grace, who was
    # already setting up the party in the dining room" (his surprise for her); Rosa sets it up with him
    from datetime import date

    from game.mind.facts.fact import Fact, TownNames
    from game.mind.interview.backing import wrong_host

    party = Fact(key="p", kind="gathering", what="a surprise party for Grace's 60th birthday", host="Samuel Okafor",
                 place="Bluebell Cafe", day=date(2026, 3, 3), start=18 * 60, end=21 * 60, honoree="Grace Okafor")
    town = TownNames(people=("Samuel Okafor", "Grace Okafor", "Rosa Brody"))
    said = "I opened it and saw Grace, who was already setting up the party in the dining room."
    assert [p.what for p in wrong_host(said, [party], town, None)] == [said]
    for right in ("Rosa, who is setting up the party, came by.", "Grace is planning the debate.",
                  "I saw Grace in the kitchen."):
        assert wrong_host(right, [party], town, None) == [], right


def test_ones_own_summary_is_not_said_of_another():
    """Rosa, asked what she thinks of the mayor (487f002's save), gave Grace her own summary's words."""
    from game.mind.interview.ofothers import self_as_anothers
    own = ("I am Rosa Brody, a cheerful and artistic barista. I am a kind, dedicated person who values my time and "
           "relationships. I am fair to my boss and admire the mayor's leadership.")
    said = ("I think the mayor, Grace Okafor, is a kind, dedicated person who values her time and relationships. "
            "She is fair to her boss and admires the mayor's leadership.")
    assert self_as_anothers(said, own) == [
        "I think the mayor, Grace Okafor, is a kind, dedicated person who values her time and relationships.",
        "She is fair to her boss and admires the mayor's leadership."]
    assert self_as_anothers("I think I am a kind, dedicated person who values my time.", own) == []
    assert self_as_anothers("I am a kind, dedicated person who values my time and relationships.", own) == []
    assert self_as_anothers("Grace is warm, stubborn and meticulous.", own) == []
    assert self_as_anothers(said, "") == []


def test_ones_own_days_are_not_said_of_another():
    from game.mind.interview.ofothers import own_words, self_as_anothers
    from game.mind.persona import Persona, Shift
    rosa = Persona(name="Rosa Brody", schedule=[Shift(7 * 60, 15 * 60, "work behind the counter at Bluebell Cafe",
                                                      "Bluebell Cafe:cafe")])
    said = ("Tomorrow, I plan to help Samuel Okafor prepare Grace's surprise party. She will also continue working "
            "behind the counter at Bluebell Cafe from 07:00 to 15:00.")
    assert self_as_anothers(said, own_words(rosa, "")) == [
        "She will also continue working behind the counter at Bluebell Cafe from 07:00 to 15:00."]
    assert self_as_anothers("I work behind the counter at Bluebell Cafe.", own_words(rosa, "")) == []


def test_a_trade_the_speaker_gives_itself_is_held_to_what_it_holds():
    # Grace on d7d6132's save, introducing herself: "I am also a great singer and songwriter" (Samuel wrote the song)
    from game.mind.interview.sentclaims import trade_unheld

    grace = "Grace Okafor has been the mayor of Millbrook for eight years. Before that she taught civics."
    samuel = "Samuel Okafor taught music at Oakhill College for thirty years. practise the song he wrote for Grace"
    assert trade_unheld("I am also a great singer and songwriter.", grace) == "you are not a singer"
    assert trade_unheld("I'm a talented painter.", grace) == "you are not a painter"
    for said, held in (("I am a retired music teacher and songwriter.", samuel), ("I am the mayor.", grace),
                       ("I am a good listener and a firm believer in rituals.", grace),
                       ("I am a dedicated mother.", grace)):  # (kin is kin.py's)
        assert trade_unheld(said, held) == "", said


def test_two_true_answers_read_as_false_are_taken_as_said():
    # d7d6132's save, asked again (the recorded answers): Rosa's "I live with my father, Hank." was read as spoken to
    # Hank ("This is no talk"), and her "Yes, I know of a gathering planned in town. It's a surprise party ..." as a
    # gathering she never heard of (the question's own word); each was asked again into nonsense
    from game.mind.facts.fact import TownNames, declared
    from game.mind.interview.ownclaims import addressed

    assert addressed("I live with my father, Hank.", ["Hank Brody"], "Rosa Brody") == []
    assert addressed("I understand, Hank.", ["Hank Brody"], "Rosa Brody") == ["I understand, Hank."]
    now = datetime(2026, 3, 2, 22, 0)
    party = declared("a surprise party for Grace's 60th birthday", "Samuel Okafor", "Bluebell Cafe", date(2026, 3, 3),
                     18 * 60, 21 * 60, holder="Rosa Brody", now=now)
    town = TownNames(places=("Bluebell Cafe", "Willow Park"), people=("Samuel Okafor", "Rosa Brody", "Grace Okafor"))
    q = "Do you know of any gathering planned in town? Whose is it, where and when?"
    said = ("Yes, I know of a gathering planned in town. It's a surprise party for Grace's 60th birthday at Bluebell "
            "Cafe tomorrow from 18:00 to 21:00.")
    found = problems_in(said, me="Rosa Brody", known=["Samuel Okafor", "Grace Okafor"], strangers=[], town=town,
                        backing=party.sentence(now), question=q, held=[party], now=now)
    assert [p.kind for p in found] == []
    # one who holds none and makes one up is still told so
    made = problems_in("Yes, there is a gathering at Willow Park on Friday.", me="Rosa Brody", known=[], strangers=[],
                       town=town, backing="", question=q, held=[], now=now)
    assert [(p.kind, p.what) for p in made] == [("event", "gathering")]
