"""Facts as data (game/mind/facts/fact.py) and the model's words checked against them (factcheck.py):
pure rules, no model."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.mind.facts.fact import Fact, FactBook, TownNames, read_fact, read_when
from game.mind.facts.factcheck import fact_in, vet_line
from game.mind.facts.unbacked import events_unbacked, people_named, places_unknown
from game.mind.interview.stepping import steps_out

TOWN = TownNames(places=("Okafor house", "Bluebell Cafe", "Greenway Market and Pharmacy", "The Copper Kettle",
                         "Willow Park", "Hobbs Cafe", "Town Hall"),
                 people=("Rosa Brody", "Ines Moreau", "Aiko Tanaka", "Kenji Tanaka"))
MONDAY = datetime(2026, 3, 2, 7, 0)


@pytest.mark.parametrize("host, text, sentence", [
    ("Rosa Brody", "I am hosting a Valentine's lunch party at Bluebell Cafe today from 12 to 1pm, and I want to "
     "invite everyone I meet this morning.",
     "Rosa Brody is hosting a Valentine's lunch party at Bluebell Cafe today (Monday March 2) from 12:00 to 13:00"),
    ("Ines Moreau", "I have decided to run for town treasurer, and I want people to know before the debate.",
     "Ines Moreau is running for town treasurer"),
    ("Isabella Rodriguez", "I am hosting a Valentine's Day party at Hobbs Cafe on February 14th from 5pm to 7pm.",
     "Isabella Rodriguez is hosting a Valentine's Day party at Hobbs Cafe on Saturday February 14 from 17:00 to 19:00"),
    ("Aiko Tanaka", "I'm organising a small get-together at my cafe tomorrow evening for the neighbours.",
     "Aiko Tanaka is hosting a small get-together at Bluebell Cafe tomorrow (Tuesday March 3) from 18:00 to 20:00"),
    ("Kenji Tanaka", "Aiko is hosting a book club meeting at the Copper Kettle on Friday at 7pm",
     "Aiko Tanaka is hosting a book club meeting at The Copper Kettle on Friday March 6 from 19:00 to 21:00"),
    ("Kenji Tanaka", "There's a poetry reading in Willow Park from 10 to 2pm tomorrow, I'm giving it",
     "Kenji Tanaka is hosting a poetry reading at Willow Park tomorrow (Tuesday March 3) from 10:00 to 14:00"),
])
def test_a_gathering_or_a_candidacy_is_read_with_its_host_place_and_hours(host, text, sentence):
    f = read_fact(text, host, MONDAY, TOWN, work="Bluebell Cafe")
    assert f is not None and f.sentence(MONDAY) == sentence


@pytest.mark.parametrize("text", ["I need to buy milk", "having lunch with Samuel at noon",
                                  "I feel tired today", "The weather is lovely in Willow Park"])
def test_words_that_tell_of_no_gathering_make_no_fact(text):
    assert read_fact(text, "Kenji Tanaka", MONDAY, TOWN) is None


@pytest.mark.parametrize("words, hours", [("from 5pm to 7pm", (1020, 1140)), ("12-1pm", (720, 780)),
                                          ("at 17:30", (1050, 1170)), ("at noon", (720, 840)),
                                          ("from 10 to 2pm", (600, 840)), ("at 8", (1200, 1320))])
def test_hours_are_read_as_people_say_them(words, hours):
    assert read_when(f"a party {words}", MONDAY)[1:] == hours


def test_a_fact_is_kept_in_a_save_as_plain_data():
    book = FactBook(town=TOWN)
    f = book.read("I'm throwing a party at the pub tomorrow at 8pm", "Kenji Tanaka", MONDAY)
    assert f is not None and f.place == "" and f.day == date(2026, 3, 3)  # the town has no place called pub
    book.told_to(f.key, ["Rosa Brody"])
    back = FactBook.from_list(book.to_list())
    assert back.get(f.key) == book.get(f.key) and back.get(f.key).told == ("Rosa Brody",)
    assert FactBook.from_list([{"nonsense": 1}, "x"]).facts == {}  # a damaged save row is dropped


def books_with(host: str, text: str, *others: str) -> tuple[dict[str, FactBook], Fact]:
    books = {n: FactBook(town=TOWN) for n in (host, *others)}
    fact = books[host].read(text, host, MONDAY, work="Bluebell Cafe")
    assert fact is not None
    return books, fact


def test_a_line_about_anothers_gathering_goes_to_the_host_and_keeps_the_place():
    books, fact = books_with("Aiko Tanaka", "I'm organising a get-together at my cafe tomorrow at 6pm", "Kenji Tanaka")
    v = vet_line("Kenji Tanaka", "Actually, I'm planning a get-together tomorrow at Greenway Market at 7pm.",
                 ["Kenji Tanaka", "Aiko Tanaka"], books, MONDAY, TOWN)
    assert v.speaker == "Aiko Tanaka" and v.fact == fact and v.told == ["Kenji Tanaka"]
    assert v.text == "Actually, I'm planning a get-together tomorrow at Bluebell Cafe from 18:00 to 20:00."


def test_one_who_heard_it_names_the_host_and_does_not_claim_it():
    books, fact = books_with("Aiko Tanaka", "I'm organising a get-together at my cafe tomorrow at 6pm",
                             "Kenji Tanaka", "Rosa Brody")
    books["Kenji Tanaka"].hear(fact, "Aiko Tanaka", MONDAY)
    v = vet_line("Kenji Tanaka", "I'm hosting a get-together on Wednesday at the community center!",
                 ["Kenji Tanaka", "Rosa Brody"], books, MONDAY, TOWN)
    assert v.speaker == "Kenji Tanaka" and v.told == ["Rosa Brody"]
    assert v.text == "Aiko is hosting a get-together tomorrow at Bluebell Cafe!"


def test_small_talk_and_other_news_pass_untouched():
    books, _ = books_with("Rosa Brody", "I am hosting a Valentine's party at Bluebell Cafe today at noon",
                          "Ines Moreau")
    for text in ("Nice weather in Willow Park today.", "I am running late for work at the Town Hall."):
        v = vet_line("Ines Moreau", text, ["Ines Moreau", "Rosa Brody"], books, MONDAY, TOWN)
        assert (v.speaker, v.text, v.told) == ("Ines Moreau", text, [])


def test_two_parties_are_told_apart_by_their_own_words():
    a = read_fact("I am hosting a Valentine's party at Bluebell Cafe today at noon", "Rosa Brody", MONDAY, TOWN)
    b = read_fact("I am throwing a surprise party at the Copper Kettle on Tuesday at 8pm", "Kenji Tanaka", MONDAY, TOWN)
    assert fact_in("the surprise party for Grace", [a, b]) == b
    assert fact_in("Rosa's Valentine lunch", [a, b]) == a
    assert fact_in("a party", [a, b]) is None  # which one: not for a rule to guess


def test_what_an_answer_says_that_nothing_backs_is_found():
    assert people_named("I know Ezra Vance and Rosa Brody from Bluebell Cafe.", ["Rosa Brody"], TOWN,
                        "Kenji Tanaka") == ["Ezra Vance"]
    # a greeting is not a stranger: "Hey Kenji!" lost the whole sentence in the day of 2026-11-28
    assert people_named("Hey Rosa, hope you're well. Morning Samuel!", ["Rosa Brody"], TOWN, "Kenji Tanaka") == []
    assert places_unknown("We met at the community center, then at the cafe near Willow Park.", TOWN) == \
        ["the community center"]
    # read on the day of 2026-11-28: a title is no stranger, "the shop" is the town's market, "the gym" is none
    assert people_named("Who writes the anonymous 'Millbrook Owl' column? The Millbrook Owl knows.", [], TOWN,
                        "Eli Moreau") == []
    assert places_unknown("I'm going to the shop floor to organize supplies.", TOWN) == []
    assert places_unknown("I'll be at the gym.", TOWN) == ["the gym"]
    assert events_unbacked("The spring fair is on Wednesday, and a party at 7.",
                           "grace loves the spring fair") == ["party"]
    assert steps_out("Hank Brody is not familiar with him, as he is not mentioned in the given information.",
                     "Hank Brody")
    assert not steps_out("I have not met him.", "Hank Brody")
    assert steps_out("In the morning, Samuel woke up and found his kitchen messy.", "Samuel Okafor")
    assert not steps_out("Samuel and I had breakfast.", "Samuel Okafor")
    # a chat assistant's sign-off (Samuel on b5e348b, asked what has been on his mind)
    assert steps_out("I hope this meets your requirements! Let me know if you have any other questions.",
                     "Samuel Okafor")
    assert not steps_out("Let me know if you need anything, Rosa.", "Samuel Okafor")
    # the meeting call's reasoning said back (Ines on 3668980's save)
    assert steps_out("Therefore, she does not start a conversation with Rosa Brody.", "Ines Moreau")
    assert not steps_out("I will start a conversation with Rosa tomorrow.", "Ines Moreau")
    # the prompt's rules said back (Grace on b5e348b, asked of the town's mayor)
    assert steps_out("I am the mayor. I hope the town can find a time of day, use your plan for today.",
                     "Grace Okafor")
    assert not steps_out("I am Samuel Okafor, a person who lives in a small town.", "Samuel Okafor")


def test_a_residents_line_does_not_name_a_place_the_town_lacks_or_a_person_nobody_is():
    books = {n: FactBook(town=TOWN) for n in ("Rosa Brody", "Ines Moreau")}
    v = vet_line("Rosa Brody", "Morning, Ines! I saw Ezra Vance at the community center. Coffee later?",
                 ["Rosa Brody", "Ines Moreau"], books, MONDAY, TOWN)
    assert v.text == "Morning, Ines! Coffee later?" and v.fixes
    alone = vet_line("Rosa Brody", "Let's go to the community center.", ["Rosa Brody", "Ines Moreau"], books,
                     MONDAY, TOWN)
    assert alone.text == "Let's go to the community center."  # nothing else to say: the talk goes on
    # a kind of place the town lacks (the world reads it: game/world/lacking.py)
    from dataclasses import replace

    from game.world.lacking import lacking

    lacks = replace(TOWN, lacks=lambda text: lacking(text, " bluebell cafe cafe pub market pharmacy "))
    v = vet_line("Rosa Brody", "Morning, Ines! Let's take the train to the coast. Coffee later?",
                 ["Rosa Brody", "Ines Moreau"], {n: FactBook(town=lacks) for n in books}, MONDAY, lacks)
    assert v.text == "Morning, Ines! Coffee later?"

_WORDS = st.sampled_from(["hosting", "a", "party", "at", "Bluebell Cafe", "tomorrow", "from", "12", "to", "1pm",
                          "I'm", "throwing", "picnic", "on", "Friday", "at 8", "noon", "the pub", "running for",
                          "mayor", "\x1b[31m", "\u202e", "99:99", "February 30th", "-", "my cafe", ",", "."])


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=200), st.lists(_WORDS, max_size=25).map(" ".join)))
def test_any_words_read_safely_and_a_fact_is_always_sound(text):
    f = read_fact(text, "Rosa Brody", MONDAY, TOWN, work="Bluebell Cafe")
    if f is not None:
        assert f.kind in ("gathering", "candidacy") and f.what and f.host
        assert f.place in ("", *TOWN.places)
        assert f.start is None or 0 <= f.start < 24 * 60
        assert f.end is None or (f.start is not None and f.start < f.end <= 30 * 60)
        assert not any(c in f.sentence(MONDAY) for c in "\x1b\u202e\x00")
    books = {"Rosa Brody": FactBook(town=TOWN), "Ines Moreau": FactBook(town=TOWN)}
    if f is not None:
        books["Rosa Brody"].learn(f)
    v = vet_line("Ines Moreau", text, ["Ines Moreau", "Rosa Brody"], books, MONDAY, TOWN)
    assert v.speaker in ("Ines Moreau", "Rosa Brody") and isinstance(v.text, str)


def test_the_towns_own_places_are_known_however_they_are_spelled():
    assert places_unknown("Let's meet at 12:30 in the café of Bluebell Cafe.", TOWN) == []
    assert places_unknown("See you at the café!", TOWN) == []  # the town has a cafe
    assert places_unknown("See you at the bowling alley club", TOWN) == ["the bowling alley club"]


def test_one_who_heard_of_it_does_not_say_it_is_theirs_to_host():
    books, fact = books_with("Ines Moreau", "I am hosting a neighbourhood get-together at Bluebell Cafe tomorrow "
                             "from 6pm to 8pm", "Samuel Okafor")
    books["Samuel Okafor"].hear(fact, "Ines Moreau", MONDAY)
    # (recorded on the embedded model, 2026-11-26: Samuel echoed Ines's line as his own, then Chinese)
    v = vet_line("Samuel Okafor", "Hi Ines, hope you're doing well too. I'm really excited to host the "
                 "neighbourhood get-together at Bluebell Cafe tomorrow. Do you have any plans\u62c5\u5fc3",
                 ["Samuel Okafor", "Ines Moreau"], books, MONDAY, TOWN, may_move=False)
    assert v.text == ("Hi Ines, hope you're doing well too. You're hosting a neighbourhood get-together at "
                      "Bluebell Cafe tomorrow (Tuesday March 3) from 18:00 to 20:00. Do you have any plans")


def test_an_answer_names_who_told_it_and_whose_it_is_as_the_facts_say():
    from game.mind.interview.backing import mend_facts
    books, fact = books_with("Ines Moreau", "I am hosting a neighbourhood get-together at Bluebell Cafe tomorrow "
                             "from 6pm to 8pm", "Rosa Brody")
    heard = books["Rosa Brody"].hear(fact, "Grace Okafor", MONDAY)
    q = "Who told you about the get-together, and whose idea was it?"
    # (answers given on the embedded model, 2026-11-26)
    text, fixes = mend_facts("Ines Moreau told me about the get-together, and Rosa Brody's idea was it.", [heard],
                             MONDAY, TOWN, "Rosa Brody", q)
    assert text == "Grace Okafor told me about the get-together, and Ines Moreau's idea was it." and len(fixes) == 2
    text, _ = mend_facts("Hank Brody told me about the get-together, and Rosa Brody's idea was it.", [fact],
                         MONDAY, TOWN, "Ines Moreau", q)
    assert text == "It is my own neighbourhood get-together: I am hosting it, so nobody had to tell me."
    text, _ = mend_facts("It is a neighbourhood get-together at Bluebell Cafe, hosted by Samuel Okafor.", [fact],
                         MONDAY, TOWN, "Ines Moreau", "Did you hear of a get-together?")
    assert text == "It is a neighbourhood get-together at Bluebell Cafe, hosted by me."


def test_an_answer_that_gives_the_gathering_to_its_teller_or_turns_the_telling_round_is_mended():
    from game.mind.interview.backing import mend_facts
    books, fact = books_with("Ines Moreau", "I am hosting a neighbourhood get-together at Bluebell Cafe tomorrow "
                             "from 6pm to 8pm", "Samuel Okafor", "Grace Okafor")
    heard = books["Samuel Okafor"].hear(fact, "Grace Okafor", MONDAY)
    q = "Did you hear of a get-together planned in town? If so, who is hosting it, where and when?"
    # (answers given on the embedded model, 2026-11-26, second gathering run)
    text, fixes = mend_facts("Yes, I heard of a get-together planned in town. It is happening at Bluebell Cafe on "
                             "Tuesday March 3, 2026, from 18:00 to 20:00. Grace Okafor is hosting it.", [heard],
                             MONDAY, TOWN, "Samuel Okafor", q)
    assert text.endswith("Ines Moreau is hosting it.") and "whose: Grace Okafor -> Ines Moreau" in fixes
    text, _ = mend_facts("I am hosting it at the cafe.", [heard], MONDAY, TOWN, "Samuel Okafor", q)
    assert text.startswith("Ines") and text.endswith(" is hosting it at the cafe.")  # the host's name, not "I"
    text, _ = mend_facts("I was organizing the food for it.", [heard], MONDAY, TOWN, "Samuel Okafor", q)
    assert text == "I was organizing the food for it."  # not the gathering: left alone
    grace = books["Grace Okafor"].hear(fact, "Ines Moreau", MONDAY)
    text, fixes = mend_facts("I told Ines Moreau about the get-together. Ines Moreau's idea was to host it.",
                             [grace], MONDAY, TOWN, "Grace Okafor", "Who told you about the get-together?")
    assert text.startswith("Ines Moreau told me about the get-together.") and len(fixes) == 1


def test_a_sentence_that_leans_on_a_dropped_one_is_dropped_with_it():
    from game.mind.interview.backing import Problem, drop_unbacked
    problems = [Problem("event", "get-together", "")]
    # (Hank Brody, who had not heard of it, on the embedded model, 2026-11-26)
    text, dropped = drop_unbacked("Rosa Brody told me about the get-together. She suggested it because she was "
                                  "planning to visit her daughter and wanted to catch up with her.", problems,
                                  "Hank Brody")
    assert text == "" and len(dropped) == 2
    text, dropped = drop_unbacked("I like the cafe. Rosa told me about the get-together. I am busy. She is kind.",
                                  problems, "Hank Brody")
    assert text == "I like the cafe. I am busy. She is kind." and len(dropped) == 1


def test_an_answer_that_echoes_the_prompt_or_the_note_it_was_asked_again_with_steps_out():
    from game.mind.interview.stepping import steps_out
    # (answers given on the embedded model, 2026-11-26: the second from the re-ask's own note)
    assert steps_out("I don't know Ezra Vance. I only know the people listed under 'People you know'.", "Samuel Okafor")
    assert steps_out("I do not make one up; say only what you know.", "Hank Brody")
    assert not steps_out("I know most people in town by name.", "Hank Brody")


def test_the_host_told_by_no_one_also_when_the_answer_says_who_told_you():
    from game.mind.interview.backing import mend_facts
    books, fact = books_with("Ines Moreau", "I am hosting a neighbourhood get-together at Bluebell Cafe tomorrow "
                             "from 6pm to 8pm")
    text, _ = mend_facts("Grace Okafor told you about the get-together, and her idea was it.", [fact], MONDAY, TOWN,
                         "Ines Moreau", "Who told you about the get-together, and whose idea was it?")
    assert text == "It is my own neighbourhood get-together: I am hosting it, so nobody had to tell me."


def test_an_answer_on_the_day_itself_says_today_where_it_names_the_place():
    from game.mind.interview.backing import mend_facts
    books, fact = books_with("Ines Moreau", "I am hosting a neighbourhood get-together at Bluebell Cafe tomorrow "
                             "from 6pm to 8pm", "Samuel Okafor")
    heard = books["Samuel Okafor"].hear(fact, "Grace Okafor", MONDAY)
    tuesday = MONDAY + timedelta(days=1)
    # (Samuel on Tuesday evening, on the embedded model, 2026-11-26: the memory's "tomorrow" repeated)
    text, fixes = mend_facts("It is hosted by Ines Moreau at Bluebell Cafe tomorrow (Tuesday March 3) from 18:00 to "
                             "20:00. Ines Moreau told you about it.", [heard], tuesday, TOWN, "Samuel Okafor",
                             "Did you hear of a get-together planned in town?")
    assert text.startswith("It is hosted by Ines Moreau at Bluebell Cafe today") and "Grace Okafor told me" in text


def test_what_is_left_of_an_answer_is_never_in_the_third_person():
    from game.mind.interview.backing import Problem, drop_unbacked
    # (Rosa Brody, who had only seen Ines at it, on the embedded model, 2026-11-26)
    text, dropped = drop_unbacked("Yes, I heard of a get-together planned in town. It's at Bluebell Cafe on Wednesday "
                                  "at 7:00 PM. Rosa is going to help prepare it.",
                                  [Problem("event", "get-together", "")], "Rosa Brody")
    assert text == "" and len(dropped) == 3
