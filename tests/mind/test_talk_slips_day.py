"""Talk lines a reader found wrong on 82f1ab1's whole day (2026-11-30), each held by a rule: a part of
the day that is over, a meal begun out of its hours, what the listener is said to have said, the
speaker's own traits given to another, its own plan given to the listener, another's work, where the
listener is going."""

from __future__ import annotations

from datetime import datetime

from game.mind.facts.fact import TownNames
from game.mind.facts.hours import stems
from game.mind.facts.linechecks import works_elsewhere
from game.mind.facts.ownpoints import point_not_theirs
from game.mind.facts.pasttalk import said_unheard
from game.mind.facts.slips import own_traits_as_anothers, whereabouts_made_up
from game.mind.facts.timechecks import drop_nonsense

EVENING = datetime(2026, 3, 2, 19, 17)
MORNING = datetime(2026, 3, 2, 9, 17)


def test_a_part_of_the_day_that_is_over_is_not_one_to_come_and_breakfast_not_begun_at_night():
    fixes: list[str] = []
    said = "That's okay. I'll make sure to be there on time this morning. I just wanted to check in."
    assert drop_nonsense(said, EVENING, fixes) == "That's okay. I just wanted to check in."
    assert fixes == ["not so: this morning is over at 19:17"]
    assert drop_nonsense(said, MORNING, []) == said
    assert drop_nonsense("I had a long walk this morning.", EVENING, []) == "I had a long walk this morning."
    night = datetime(2026, 3, 2, 20, 19)
    assert drop_nonsense("Hi Nora! I'm just getting started with breakfast. Any plans?", night, []) == \
        "Hi Nora! Any plans?"
    assert drop_nonsense("I'm just getting started with breakfast.", MORNING, []) == \
        "I'm just getting started with breakfast."


def test_what_the_listener_is_said_to_have_said_is_what_it_said():
    # Rosa to Nora at 07:20: "What did you say about the surprise party for Grace's 60th birthday?" (Nora
    # had said "I see you're also having breakfast. What are you having?", and nothing of a party before)
    heard = ["I see you're also having breakfast. What are you having?"]
    asked = "What did you say about the surprise party for Grace's 60th birthday?"
    assert said_unheard(asked, heard, stems) == "the listener said nothing of it"
    told = [*heard, "Nora Lindqvist told me: there is a surprise party for Grace's birthday, I hear."]
    assert said_unheard(asked, told, stems) == ""
    assert said_unheard("You said you were having breakfast.", heard, stems) == ""
    assert said_unheard("How was your morning?", heard, stems) == ""


def test_the_speakers_own_traits_are_not_given_to_another():
    # Hank, asked what Marcus Bell is like: "He's gruff and practical, but he's proud of his father's store."
    others = {"Marcus": ["charming", "competitive", "restless"], "Rosa": ["warm", "artistic"]}
    mine = ["gruff", "practical", "proud"]
    assert own_traits_as_anothers("He's gruff and practical, but he's proud of his father's store.", mine, others)
    assert own_traits_as_anothers("Marcus is gruff and proud.", mine, others)
    assert own_traits_as_anothers("I'm gruff and practical, I know.", mine, others) == ""
    assert own_traits_as_anothers("He's charming and restless.", mine, others) == ""
    assert own_traits_as_anothers("He's practical.", mine, others) == ""  # one word: no description of self
    assert own_traits_as_anothers("He's gruff and practical.", mine, {**others, "Ed": ["gruff", "practical"]}) == ""


def test_what_the_listener_knows_of_the_speaker_does_not_make_the_speakers_plan_the_listeners():
    # Felix to Kenji: "I was wondering if you're going to start your bakery on Saturday." (Felix's stall;
    # Kenji's relationships call Felix "the new baker next door at the market")
    people = ["Felix Adeyemi", "Kenji Tanaka"]
    points = {"Felix Adeyemi": ["Felix Adeyemi is opening a bakery stall called Rise & Shine at Greenway Market on "
                                "Saturday."], "Kenji Tanaka": ["Kenji Tanaka secretly writes a column."]}
    lives = {"Kenji Tanaka": "Kenji Tanaka is the pharmacist. Felix Adeyemi: the new baker next door at the market.",
             "Felix Adeyemi": "Felix Adeyemi is a baker."}
    said = "I was wondering if you're going to start your bakery on Saturday."
    assert point_not_theirs(said, "Felix Adeyemi", ["Kenji Tanaka"], points, lives, people) == \
        "Felix's own, not Kenji's"
    baker = {**lives, "Kenji Tanaka": "Kenji Tanaka is a baker too."}  # its own life says so: it stands
    assert point_not_theirs(said, "Felix Adeyemi", ["Kenji Tanaka"], points, baker, people) == ""


def test_another_places_stock_is_not_the_speakers_work():
    town = TownNames(places=("Greenway Market and Pharmacy", "Oakhill College library"),
                     people=("Aiko Tanaka", "Kenji Tanaka"),
                     workplaces={"Aiko Tanaka": "Oakhill College library",
                                 "Kenji Tanaka": "Greenway Market and Pharmacy"})
    said = "Yes, I was just checking the inventory of the grocery."
    assert works_elsewhere(said, "Aiko Tanaka", town) == "Aiko does not work at Greenway Market and Pharmacy"
    assert works_elsewhere("I'm checking the inventory of the pharmacy now.", "Kenji Tanaka", town) == ""


def test_where_another_is_going_is_what_the_speaker_holds():
    # Grace to Samuel at 08:05: "I know you're going to Bluebell Cafe tomorrow morning" (nothing of hers said it)
    people = ("Grace Okafor", "Samuel Okafor", "Ines Moreau")
    places = ("Bluebell Cafe", "Town Hall", "Okafor House")
    theirs = {"Samuel Okafor": ("Town Hall", "Okafor House")}  # (a made-up workplace, to show one's own places)
    held = ["Samuel Okafor: her husband of 34 years, a retired teacher", "I saw Ines Moreau at Bluebell Cafe"]
    said = "I know you're going to Bluebell Cafe tomorrow morning."
    why = whereabouts_made_up(said, ["Samuel Okafor"], people, places, held, theirs)
    assert why == "Samuel going to Bluebell Cafe, which nothing held says"
    assert whereabouts_made_up("You'll be at Bluebell Cafe later, then.", ["Samuel Okafor"], people, places, held,
                               theirs) == "Samuel going to Bluebell Cafe, which nothing held says"
    assert whereabouts_made_up("Ines is heading to Town Hall now.", ["Samuel Okafor"], people, places, held,
                               theirs) == "Ines going to Town Hall, which nothing held says"
    # Eli to Felix at the cafe (eaef4b9's day): "I noticed you're visiting Willow Park"; where they talk is held
    assert whereabouts_made_up("I noticed you're visiting Bluebell Cafe.", ["Samuel Okafor"], people, places, held,
                               theirs) == "Samuel going to Bluebell Cafe, which nothing held says"
    assert whereabouts_made_up("I see you're visiting Bluebell Cafe.", ["Samuel Okafor"], people, places,
                               [*held, "Samuel Okafor is at Millbrook:Bluebell Cafe:counter"], theirs) == ""
    # what does back it: what they said in this talk, a memory of them there, their own places, a question
    backed = [*held, "Samuel Okafor: I'm off to Bluebell Cafe for a coffee."]
    assert whereabouts_made_up(said, ["Samuel Okafor"], people, places, backed, theirs) == ""
    assert whereabouts_made_up("You're going to Town Hall, I suppose.", ["Samuel Okafor"], people, places, held,
                               theirs) == ""
    assert whereabouts_made_up("Are you going to Bluebell Cafe?", ["Samuel Okafor"], people, places, held,
                               theirs) == ""
    assert whereabouts_made_up("You're going to love Bluebell Cafe's scones.", ["Samuel Okafor"], people,
                               places, held, theirs) == ""


def test_a_scripted_talk_ends_with_a_line_that_lost_a_claim():
    # the same talk: Grace's claim was not said, and Samuel's reply to it, "Oh, you're telling me! I know!
    # I'm going to make sure to go", was; the replies written after such a line are not said
    from game.engine.build import new_engine
    from game.engine.events import TickResult
    from game.engine.state import Talk
    from game.mind.view import Conversation

    from .fakes import scripted_model

    engine = new_engine("default", scripted_model({}))
    conv = Conversation("t8", ["Grace Okafor", "Samuel Okafor"])
    talk = Talk(conv, mode="script", script=[
        ("Grace Okafor", "Oh, Samuel! I was just looking for you. I know you're going to Bluebell Cafe tomorrow "
                         "morning."),
        ("Samuel Okafor", "Oh, you're telling me! I know! I'm going to make sure to go."),
        ("Grace Okafor", "See you there.")])
    engine.conversations.say_scripted(talk, MORNING, TickResult(step=0, clock="Day 1, 09:17:00"))
    assert conv.lines == [("Grace Okafor", "Oh, Samuel! I was just looking for you.")] and talk.script == []
    assert [(w[0], w[2]) for w in conv.withheld] == [
        ("Samuel Okafor", "written after a line whose claim was not said"),
        ("Grace Okafor", "written after a line whose claim was not said")]
    # a line that lost only a sentence said in another talk keeps the replies written to it
    from game.engine.talks.cuts import cut_for_a_claim
    assert not cut_for_a_claim("Hi Rosa! I hope you're well.", "Hi Rosa!",
                               ["1 sentence(s) copied from another talk or said again not said"])


def test_our_own_mends_leave_no_wrong_date_and_no_place_inside_a_pub_quiz():
    # 0e6b5f2's day: "on Wednesday, March 4" of the party was made "tomorrow, March 4" (it is March 3), and
    # "the pub quiz at The Copper Kettle" was made "The Copper Kettle quiz at The Copper Kettle"
    from game.mind.facts.fact import TownNames, declared
    from game.mind.facts.factcheck import fix_fact_words

    monday = datetime(2026, 3, 2, 11)
    party = declared("a surprise party for Grace's 60th birthday", "Samuel Okafor", "Bluebell Cafe",
                     datetime(2026, 3, 3).date(), 18 * 60, 21 * 60, holder="Samuel Okafor", now=monday)
    quiz = declared("a pub quiz", "Marcus Bell", "The Copper Kettle", monday.date(), 20 * 60, 22 * 60,
                    holder="Marcus Bell", now=monday)
    town = TownNames(places=("Bluebell Cafe", "Town Hall", "The Copper Kettle"),
                     people=("Samuel Okafor", "Marcus Bell", "Priya Raman"))
    said = "I'm looking forward to our surprise party at Town Hall on Wednesday, March 4, from 19:00 to 21:00."
    fixed, _ = fix_fact_words(said, party, monday, town, "Samuel Okafor")
    assert fixed == "I'm looking forward to our surprise party at Bluebell Cafe tomorrow, from 18:00 to 21:00."
    said = "Let's meet at the pub quiz at The Copper Kettle in about half an hour."
    assert fix_fact_words(said, quiz, monday, town, "Priya Raman") == (said, [])
    assert fix_fact_words("See you at the pub tonight.", quiz, monday, town, "Priya Raman")[0] == \
        "See you at The Copper Kettle tonight."


def test_a_teller_never_talked_with_and_an_own_point_on_another_day():
    # 0e6b5f2's day: Samuel "I noticed that Felix Adeyemi has been preparing bread. He told me it's going to be
    # busy" (he never talked with Felix); a stall that opens on Saturday said to open tomorrow
    from game.mind.facts.ownpoints import own_point_day
    from game.mind.facts.pasttalk import named_teller, talks_claimed

    people = ["Felix Adeyemi", "Samuel Okafor", "Kenji Tanaka"]
    before = "I noticed that Felix Adeyemi has been preparing bread for the market tomorrow."
    told = named_teller("He told me it's going to be a bit busy.", before, people)
    assert told == "Felix told me it's going to be a bit busy." and talks_claimed(told, people) == ["Felix Adeyemi"]
    assert named_teller("He told me so.", "Felix and Kenji were there.", people) == "He told me so."
    assert talks_claimed("I told Felix about it.", people) == []
    # Ines to Nora on d326f2f's morning: "I'm talking with Felix Adeyemi about his new bakery stall"
    assert talks_claimed("I'm talking with Felix Adeyemi about his new bakery stall.", people) == ["Felix Adeyemi"]
    own = ["Felix Adeyemi is opening a bakery stall called Rise & Shine at Greenway Market on Saturday."]
    assert own_point_day("My bakery stall opens tomorrow!", own, 0, people) == "bake, open, stal: Saturday, not as said"
    assert own_point_day("My bakery stall opens on Saturday!", own, 0, people) == ""
    # the market is also his workplace's: bread for it tomorrow is his daily work
    assert own_point_day("I'm preparing bread for the market tomorrow.", own, 0, people,
                         "Greenway Market and Pharmacy") == ""


def test_a_lines_other_gatherings_and_an_it_after_one_get_their_own_day_and_hours():
    # 0e6b5f2's day: Priya "I have some notes for your debate today" in a line about the quiz; Marcus "the
    # quiz. Do you know when it starts? I think it's starting at 8:00 tomorrow morning" (his quiz at 20:00)
    from game.mind.facts.fact import FactBook, TownNames, declared
    from game.mind.facts.factcheck import fix_fact_words, vet_line

    monday = datetime(2026, 3, 2, 15)
    quiz = declared("a pub quiz", "Marcus Bell", "The Copper Kettle", monday.date(), 20 * 60, 22 * 60,
                    holder="Marcus Bell", now=monday)
    debate = declared("the public debate", "Grace Okafor", "Town Hall", datetime(2026, 3, 4).date(), 19 * 60,
                      21 * 60, holder="Hank Brody", now=monday)
    town = TownNames(places=("Town Hall", "The Copper Kettle"), people=("Marcus Bell", "Priya Raman", "Hank Brody"))
    said = "I was just looking forward to the quiz. Do you know when it starts? I think it's starting at 8:00 tomorrow."
    fixed, _ = fix_fact_words(said, quiz, monday, town, "Marcus Bell")
    assert fixed.endswith("I think it's starting at 8:00 today.")
    # 4151289's day, Hank of the quiz at 20:27: "He's hosting it tomorrow night" ("it" its object; "tonight")
    said = "I was thinking about getting into the pub quiz with Marcus Bell. He's hosting it tomorrow night."
    fixed, _ = fix_fact_words(said, quiz, monday, town, "Hank Brody")
    assert fixed.endswith("He's hosting it tonight.")
    book = FactBook()
    for f in (quiz, debate):
        book.learn(f)
    line = "I have some notes for the debate today. See you at the pub quiz at The Copper Kettle tonight."
    v = vet_line("Priya Raman", line, ["Priya Raman", "Hank Brody"], {"Priya Raman": book}, monday, town)
    assert v.text.startswith("I have some notes for the debate on Wednesday.") and "day today -> Wednesday" in v.fixes


def test_a_day_it_would_rather_have_is_not_mended_to_the_gatherings():
    # Grace on 0e6b5f2's save, asked what she would change: "hold the debate at a different time, such as on
    # a weekend" was made "such as on a on Wednesday or on Wednesday"
    from game.mind.facts.claims import fix_day
    from game.mind.facts.fact import declared

    monday = datetime(2026, 3, 2, 22)
    debate = declared("the public debate", "Grace Okafor", "Town Hall", datetime(2026, 3, 4).date(), 19 * 60,
                      21 * 60, holder="Grace Okafor", now=monday)
    said = "I would hold the debate at a different time, such as on a Saturday or on Sunday."
    assert fix_day(said, debate, monday, []) == said
    assert fix_day("The debate is on Thursday.", debate, monday, []) == "The debate is on Wednesday."
    # a9a17c8's day: Rosa, "It's Monday, and I'm helping Samuel prepare ..." was made "It's tomorrow"
    said = "It's Monday, and I'm helping with the debate."
    assert fix_day(said, debate, monday, []) == said
    assert fix_day("The debate is on Monday.", debate, monday, []) == "The debate is on Wednesday."


def _tuesdays_party(holder: str, now: datetime):
    from game.mind.facts.fact import declared

    return declared("a surprise party for Grace's 60th birthday", "Samuel Okafor", "Bluebell Cafe",
                    datetime(2026, 3, 3).date(), 18 * 60, 21 * 60, holder=holder, now=now)


def test_one_on_its_way_now_to_a_gathering_of_another_day_says_its_day():
    # 4d3a658's day: Nora, at 19:51 on Monday, of Tuesday's party: "I'm going to Bluebell Cafe for a surprise party"
    from game.mind.facts.claims import fix_day

    monday = datetime(2026, 3, 2, 19, 51)
    party = _tuesdays_party("Nora Lindqvist", monday)
    fixes: list[str] = []
    assert fix_day("I'm going to Bluebell Cafe for a surprise party.", party, monday, fixes) == \
        "I'm going to Bluebell Cafe for a surprise party tomorrow."
    assert fixes == ["day now -> tomorrow"]
    for said in ("I'm going to help with the surprise party.", "I'm going to Bluebell Cafe for the party tomorrow."):
        assert fix_day(said, party, monday, []) == said
    tuesday = datetime(2026, 3, 3, 17, 50)
    assert fix_day("I'm heading to Bluebell Cafe for the party!", party, tuesday, []) == \
        "I'm heading to Bluebell Cafe for the party!"


def test_going_at_once_to_a_gathering_of_another_day_says_its_day():
    # 160f87f's day: Samuel, asked on Monday what he does on hearing shouting, of Tuesday's party: "I'll get
    # ready and go to the party right away" (the shouting is now; the party is not)
    from game.mind.facts.claims import fix_day

    monday = datetime(2026, 3, 2, 16, 30)
    party = _tuesdays_party("Samuel Okafor", monday)
    fixes: list[str] = []
    assert fix_day("I'll get ready and go to the party right away.", party, monday, fixes) == \
        "I'll get ready and go to the party tomorrow."
    assert fixes == ["day right away -> tomorrow"]
    # what is done at once is not the gathering ("tell Grace about the party right away"), nor on its own day
    for said in ("I'll call Samuel about the party right away.", "I'll go to the bakery right away."):
        assert fix_day(said, party, monday, []) == said
    tuesday = datetime(2026, 3, 3, 17, 50)
    assert fix_day("I'll go to the party right away.", party, tuesday, []) == "I'll go to the party right away."


def test_one_who_holds_a_gathering_does_not_wait_to_hear_of_it_nor_its_host_ask_about_it():
    # 0e6b5f2's day: Rosa, who helps prepare the party, "I'll let you know when I hear about Samuel's surprise
    # party"; Samuel, its host, to a helper: "can you tell me more about the surprise party at Bluebell Cafe?"
    from game.mind.facts.fact import declared
    from game.mind.facts.slips import held_as_unheard

    monday = datetime(2026, 3, 2, 8)
    party = declared("a surprise party for Grace's 60th birthday", "Samuel Okafor", "Bluebell Cafe",
                     datetime(2026, 3, 3).date(), 18 * 60, 21 * 60, holder="Samuel Okafor", now=monday)
    said = "I'll let you know when I hear about Samuel's surprise party."
    assert held_as_unheard(said, "Rosa Brody", [party]) == "surprise party for Grace's 60th birthday is known to " \
        "the speaker"
    asked = "Ines, can you tell me more about the surprise party at Bluebell Cafe?"
    assert held_as_unheard(asked, "Samuel Okafor", [party]) == "surprise party for Grace's 60th birthday is the " \
        "speaker's own"
    assert held_as_unheard(asked, "Rosa Brody", [party]) == ""  # a helper may ask its host
    project = "Ines, can you tell me more about the project at Bluebell Cafe?"  # (the party, not named)
    assert held_as_unheard(project, "Samuel Okafor", [party]) == "surprise party for Grace's 60th birthday is " \
        "the speaker's own"
    assert held_as_unheard("I'm so excited about the surprise party!", "Rosa Brody", [party]) == ""
    # 2bbddfe's day: Ines, who lends the cafe for it, "I'm curious what the party is about."
    assert held_as_unheard("I'm curious what the surprise party is about.", "Ines Moreau", [party]) != ""
    # 4151289's day: Hank, who holds the quiz, to its host: "can you tell me what time the pub quiz is today?"
    when = "Samuel, can you tell me what time the surprise party is tomorrow?"
    assert held_as_unheard(when, "Rosa Brody", [party]) == "the hours of surprise party for Grace's 60th birthday " \
        "are known to the speaker"
    assert held_as_unheard("What time is it now, Samuel?", "Rosa Brody", [party]) == ""


def test_one_a_gathering_is_kept_from_does_not_hint_at_it_by_its_place():
    # 0e6b5f2's day: Grace, to Samuel who prepares her surprise party at Bluebell Cafe: "They might be interested
    # in helping us with our project at Bluebell Cafe"
    from game.mind.facts.fact import declared
    from game.mind.facts.slips import hints_at_the_kept

    monday = datetime(2026, 3, 2, 8)
    party = declared("a surprise party for Grace's 60th birthday", "Samuel Okafor", "Bluebell Cafe",
                     datetime(2026, 3, 3).date(), 18 * 60, 21 * 60, holder="Samuel Okafor", now=monday)
    said = "They might be interested in helping us with our project at Bluebell Cafe."
    assert hints_at_the_kept(said, [party]) == "surprise party for Grace's 60th birthday is kept from the speaker"
    assert hints_at_the_kept("I'll have my coffee at Bluebell Cafe.", [party]) == ""


def test_what_the_speaker_says_it_will_do_today_is_in_its_plan():
    # a play of 10e7489: Grace, at 04:27, to her embodied husband: "I was planning to go for a walk around the
    # park this morning" (her morning: breakfast, a catch-up with Hank, her office)
    from game.mind.facts.slips import own_plan_unheld

    plan = ["having breakfast", "catch up with Hank Brody", "run the town from the mayor's office", "having lunch"]
    said = "I was planning to go for a walk around the park this morning."
    assert own_plan_unheld(said, plan) == "not in its plan today: go for a walk around the park"
    assert own_plan_unheld("I'm going to catch up with Hank this morning.", plan) == ""
    assert own_plan_unheld("I'm going to have lunch later.", plan) == ""
    assert own_plan_unheld("I went for a walk this morning.", plan) == ""  # (said as done: another rule's)


def test_a_sentence_the_model_broke_off_is_not_said():
    from game.mind.facts.slips import unfinished_tail
    from game.mind.facts.unbacked import sentences

    for said, kept in (("Oh, Rosa! A", "Oh, Rosa!"),  # Nora on 4151289's day, after the checks
                       ("How have you been? I know you,", "How have you been?"),  # Marcus's
                       ("See you tomorrow! Bye", "See you tomorrow! Bye"), ("I know you,", "I know you,"),
                       # Priya on a9a17c8's day, its last word (in another script) dropped
                       ("Did you know of the quiz? I need to talk to you about", "Did you know of the quiz?"),
                       ("It's what I was thinking about.", "It's what I was thinking about.")):
        assert unfinished_tail(said, sentences(said)) == kept


def test_its_hours_said_after_its_name_as_it_and_its_start_said_as_one_are_mended():
    # d7d6132's day: Ines, who holds Tuesday's party, "Yes, I got the surprise party. It's tomorrow at 7 pm" (18:00)
    from game.mind.facts.factcheck import fix_fact_words

    monday = datetime(2026, 3, 2, 16, 41)
    party = _tuesdays_party("Ines Moreau", monday)
    town = TownNames(places=("Bluebell Cafe",), people=("Samuel Okafor", "Ines Moreau", "Rosa Brody", "Grace Okafor"))
    said = "Hi Rosa! Yes, I got the surprise party. It's tomorrow at 7 pm, and it's a surprise to keep from Grace."
    assert fix_fact_words(said, party, monday, town, "Ines Moreau")[0] == \
        said.replace("at 7 pm", "from 18:00 to 21:00")
    # the time now is not its hours
    said = "I love the party. It's 4:41 PM now, and I am tired."
    assert fix_fact_words(said, party, monday, town, "Ines Moreau")[0] == said
    # its start said as one keeps its verb (was "The party from 18:00 to 21:00", "begins from 18:00 to 21:00")
    for said, mended in (("The party starts at 7 pm.", "The party starts at 18:00."),
                         ("The party begins at 7 pm.", "The party begins at 18:00."),
                         ("The party begins at 6 pm.", "The party begins at 6 pm."),
                         ("The party is from 7 to 9 pm.", "The party is from 18:00 to 21:00.")):
        assert fix_fact_words(said, party, monday, town, "Ines Moreau")[0] == mended


def test_one_who_holds_a_gathering_does_not_deny_it_when_it_is_spoken_of():
    # d7d6132's day: Samuel, "Yes, I have a surprise party for Grace's 60th birthday at Bluebell Cafe tomorrow";
    # Ines, who lends her cafe for it, "Oh, I don't know what you're talking about!"
    from game.mind.facts.slips import denied_after

    monday = datetime(2026, 3, 2, 13, 17)
    party = _tuesdays_party("Ines Moreau", monday)
    samuel = "Yes, I have a surprise party for Grace's 60th birthday at Bluebell Cafe tomorrow."
    denial = "Oh, I don't know what you're talking about!"
    assert denied_after(denial, samuel, [party]) == "surprise party for Grace's 60th birthday is known to the speaker"
    # not held, or the line before of something else, or no denial: said
    assert denied_after(denial, samuel, []) == ""
    assert denied_after(denial, "The weather is odd today.", [party]) == ""
    assert denied_after("Oh, I know what you're talking about!", samuel, [party]) == ""
    # the talk's check of what its speaker holds asks it with the line before (engine/talks/facts.py)
    from game.mind.facts.slips import held_as_unheard

    assert held_as_unheard(denial, "Ines Moreau", [party], before=samuel).endswith("is known to the speaker")
