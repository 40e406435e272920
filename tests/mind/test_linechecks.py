"""Misattributions read by rule (game/mind/facts/linechecks.py): the lines are what the embedded model
said in the default town's whole day (docs/RUNLOG.md, 2026-11-28), and lines that must stand."""

from datetime import date

from game.mind.facts.fact import Fact, TownNames
from game.mind.facts.linechecks import drop_misattributed, meets_the_known, misattributes

TOWN = TownNames(places=("Okafor house", "Bluebell Cafe", "Town Hall", "The Copper Kettle", "Willow Park",
                         "Greenway Market and Pharmacy"),
                 people=("Grace Okafor", "Samuel Okafor", "Hank Brody", "Marcus Bell", "Ines Moreau", "Rosa Brody"),
                 roles={"Grace Okafor": ("mayor", "candidate for mayor"), "Hank Brody": ("candidate for mayor",)},
                 workplaces={"Grace Okafor": "Town Hall", "Hank Brody": "Brody's Supply Store",
                             "Marcus Bell": "The Copper Kettle", "Ines Moreau": "Bluebell Cafe",
                             "Rosa Brody": "Bluebell Cafe"})
PARTY = Fact(key="samuel-okafor:party", kind="gathering", what="a surprise party for Grace's 60th birthday",
             host="Samuel Okafor", place="Bluebell Cafe", day=date(2026, 3, 3), start=18 * 60, end=21 * 60,
             honoree="Grace Okafor", secret_from=("Grace Okafor",))


def why(sent: str, speaker: str, listeners=("Hank Brody",)) -> str:
    return misattributes(sent, speaker, list(listeners), TOWN, [PARTY])


def test_what_the_model_said_is_read_as_misattributed():
    assert "own speaker" in why("I'm so sorry to hear that, Grace.", "Grace Okafor")
    assert "mayor" in why("I'll be meeting with the mayor there.", "Grace Okafor")
    assert "hosts" in why("I heard about the party.", "Samuel Okafor", ["Nora Lindqvist"])
    assert "Copper Kettle" in why("I have to go to the town hall with Marcus Bell to serve breakfast at "
                                  "The Copper Kettle.", "Hank Brody")
    assert "as another" in why("I'm planning to meet with Marcus Bell at the pub.", "Marcus Bell")
    assert why("Hello, I'm Marcus Bell.", "Marcus Bell") == ""
    assert "Samuel does not work at Bluebell Cafe" == why("Samuel Okafor is managing Bluebell Cafe.", "Rosa Brody")
    # the day of 2026-11-28, Ines to Samuel: the honoree as the one who plans, and as one who knows
    assert "Grace does not plan" in why("I was wondering if there's any special surprise party that Grace has "
                                        "planned for her 60th birthday.", "Ines Moreau", ["Samuel Okafor"])
    assert "Grace does not plan" in why("I can help you plan the party with Grace.", "Rosa Brody", ["Ines Moreau"])
    assert "must not know" in why("We'll make sure it's a surprise and that she knows it's coming.", "Samuel Okafor",
                                  ["Ines Moreau"])


def test_what_is_true_stands():
    assert why("Thanks, Hank! See you at the debate.", "Grace Okafor") == ""
    assert why("I'm Grace, the mayor.", "Grace Okafor") == ""
    assert why("I'll be in the mayor's office all day.", "Grace Okafor") == ""
    assert why("Hank wants to meet the mayor.", "Rosa Brody") == ""  # said of another: true
    assert why("I'm planning the party for Grace, don't tell her.", "Samuel Okafor") == ""
    assert why("I heard about the party from Samuel.", "Rosa Brody") == ""  # not hers: heard is right
    assert why("Grace must not know about the party!", "Rosa Brody") == ""
    assert why("I'm planning Grace's party with Rosa.", "Samuel Okafor") == ""
    assert why("I'm serving breakfast at The Copper Kettle now.", "Marcus Bell") == ""
    assert why("I'm going to have breakfast at The Copper Kettle.", "Hank Brody") == ""
    assert why("Rosa is working at Bluebell Cafe today.", "Ines Moreau") == ""
    assert why("I'm walking in Willow Park.", "Hank Brody") == ""  # no one's workplace


def test_only_the_sentence_that_misattributes_is_not_said():
    fixes: list[str] = []
    out = drop_misattributed("Hello Hank! I'll be meeting with the mayor there. How is the store?", "Grace Okafor",
                             ["Hank Brody"], TOWN, [PARTY], fixes)
    assert out == "Hello Hank! How is the store?"
    assert fixes == ["misattributed: Grace Okafor is the mayor"]
    assert drop_misattributed("All fine here.", "Grace Okafor", [], TOWN, [], fixes) == "All fine here."
    # and the sentence just after that speaks of someone by a pronoun (Felix's "he", of himself, on 3668980)
    out = drop_misattributed("Hello Hank! I'll be meeting with the mayor there. I wonder if she'll come. Bye!",
                             "Grace Okafor", ["Hank Brody"], TOWN, [PARTY], [])
    assert out == "Hello Hank! Bye!"


def test_the_part_of_the_day_of_a_gathering_is_its_hours():
    from datetime import datetime

    from game.mind.facts.factcheck import fix_fact_words

    debate = Fact(key="grace-okafor:debate", kind="gathering", what="the public debate", host="Grace Okafor",
                  place="Town Hall", day=date(2026, 3, 4), start=19 * 60, end=21 * 60)
    now = datetime(2026, 3, 2, 9, 0)
    text, fixes = fix_fact_words("I'm ready for the debate on Wednesday morning.", debate, now, TOWN, "Hank Brody")
    assert text == "I'm ready for the debate on Wednesday evening." and fixes == ["morning -> evening"]
    said = "Grace told me this morning about the debate on Wednesday night."
    assert fix_fact_words(said, debate, now, TOWN, "Hank Brody")[0] == said


def test_a_greeting_of_the_wrong_part_of_the_day_is_made_right():
    from datetime import datetime

    from game.mind.facts.timechecks import fix_greeting

    fixes: list[str] = []
    said = "Good morning, Priya! I'm serving at The Copper Kettle now."
    assert fix_greeting(said, datetime(2026, 3, 2, 15, 0), fixes) == said.replace("morning", "afternoon")
    assert fixes == ["greeting morning -> afternoon"]
    assert fix_greeting("good evening!", datetime(2026, 3, 2, 19, 0), fixes) == "good evening!"
    # Rosa to Eli at 21:00 on 487f002's day; a morning asked of in the past stands
    assert fix_greeting("Hello, Eli! How are you this morning?", datetime(2026, 3, 2, 21, 0), []) == \
        "Hello, Eli! How are you this evening?"
    assert fix_greeting("How was your morning?", datetime(2026, 3, 2, 21, 0), []) == "How was your morning?"
    # a bare one opening the line (Rosa's "Morning, Marcus." at 13:13 on b5e348b); not "morning" as a word
    one_pm = datetime(2026, 3, 2, 13, 13)
    assert fix_greeting("Morning, Marcus. I'm good.", one_pm, fixes) == "Afternoon, Marcus. I'm good."
    assert fix_greeting("Morning is busy here.", one_pm, fixes) == "Morning is busy here."


def test_one_who_hears_another_hosts_does_not_claim_it():
    from game.mind.facts.linechecks import own_hosting as _own_hosting

    assert not _own_hosting("Hi Grace! I hear you're hosting the public debate at Town Hall on March 4.")
    assert not _own_hosting("I think Grace is hosting it.")
    assert _own_hosting("I'm really excited to host the get-together.")
    assert _own_hosting("I have a surprise party for Grace's 60th birthday at Bluebell Cafe tomorrow.")
    assert not _own_hosting("I have a question about the party.")
    assert not _own_hosting("Do you have a party to go to?")


def test_a_claim_mended_to_its_host_is_said_to_the_host_as_you():
    from datetime import datetime

    from game.mind.facts.factcheck import fix_fact_words

    now = datetime(2026, 3, 2, 19, 0)
    text, fixes = fix_fact_words("I'm so excited to host the surprise party!", PARTY, now, TOWN, "Ines Moreau",
                                 to=["Samuel Okafor"])
    assert text.startswith("You're hosting a surprise party for Grace's 60th birthday at Bluebell Cafe tomorrow")
    assert fixes == ["claim -> Samuel Okafor"]
    text, _ = fix_fact_words("I'm so excited to host the surprise party!", PARTY, now, TOWN, "Ines Moreau",
                             to=["Rosa Brody"])
    assert text.startswith("Samuel is hosting")


def test_an_interview_answer_that_denies_an_office_its_resident_knows_is_a_denial():
    from game.mind.interview.backing import problems_in

    town = TownNames(places=TOWN.places, people=TOWN.people, roles=TOWN.roles,
                     relations={"Samuel Okafor": {"Grace Okafor": "his wife, the love of his life"}})
    said = "I don't know the mayor of the town, as I don't live there."
    found = problems_in(said, me="Samuel Okafor", known=["Grace Okafor"], strangers=[], town=town, backing="",
                        question="What do you think of the town's mayor?")
    assert [p.kind for p in found] == ["out of town", "denial"]  # (who does not live in the town steps out of it)
    assert "Grace Okafor, your wife" in found[1].tell
    assert not problems_in("She is a fine mayor.", me="Samuel Okafor", known=["Grace Okafor"], strangers=[],
                           town=town, backing="", question="What do you think of the town's mayor?")


def test_an_answer_about_today_says_today_not_another_weekday():
    from datetime import datetime

    from game.mind.interview.backing import today_not_another_day

    monday = datetime(2026, 3, 2, 22, 0)
    said = "I talked with Grace on Wednesday. The surprise party is on Tuesday."
    assert today_not_another_day(said, "Who did you talk with today?", monday, [PARTY]) == \
        "I talked with Grace today. The surprise party is on Tuesday."
    assert today_not_another_day(said, "What are your plans for tomorrow?", monday, [PARTY]) == said


def test_a_line_written_as_narration_says_only_what_it_quotes():
    # the whole day of 2026-11-28 05:00: a talk of three came back as a story's narration
    from game.mind.facts.linechecks import unnarrate

    fixes: list[str] = []
    said = ("Rosa looks over her menu and finds that there's a special cake for Grace's birthday. She thinks it "
            "looks delicious and suggests ordering it.")
    assert unnarrate(said, "Rosa Brody", fixes) == "" and fixes == ["narration not said"]
    assert unnarrate("Nora nods and says, 'Sure, Rosa, let's order that special cake.'", "Nora Lindqvist",
                     []) == "Sure, Rosa, let's order that special cake."
    assert unnarrate("Rosa, I think she has a point.", "Samuel Okafor", []) == "Rosa, I think she has a point."
    assert unnarrate("She thinks it looks good. I agree.", "Samuel Okafor", []) == "She thinks it looks good. I agree."


def test_the_one_spoken_to_is_you_and_a_spouse_is_no_new_acquaintance():
    from game.mind.facts.linechecks import meets_the_known
    from game.mind.facts.tolistener import to_listener

    fixes: list[str] = []
    assert to_listener("I've heard about it from Felix. Thanks, Felix!", ["Felix Adeyemi"], fixes) == \
        "I've heard about it from you. Thanks, Felix!"
    assert fixes == ["Felix spoken to as you"]
    # a point's tail said back to the one it names (Samuel to Ines on d326f2f's morning)
    assert to_listener("I'm here to have a surprise for Grace. Ines knows of it.", ["Ines Moreau"], []) == \
        "I'm here to have a surprise for Grace. You know of it."
    assert to_listener("I talked with Felix's mother.", ["Felix Adeyemi"], []) == \
        "I talked with Felix's mother."
    # (b765e22's day: Hank to Marcus, Felix to Ines)
    assert to_listener("I'm going to Marcus's pub quiz.", ["Marcus Bell"], []) == "I'm going to your pub quiz."
    # a sentence that begins with it (Nora to Samuel, a test of 2026-12-02)
    assert to_listener("Of course! Samuel Okafor's party sounds lovely.", ["Samuel Okafor"], []) == \
        "Of course! Your party sounds lovely."
    assert to_listener("I'm nervous that Ines Moreau sees me as a rival.", ["Ines Moreau"], []) == \
        "I'm nervous that you see me as a rival."
    assert to_listener("I'd sell it to the cafe instead of going through Ines Moreau.", ["Ines Moreau"], []) == \
        "I'd sell it to the cafe instead of going through you."
    assert to_listener("I heard it from Felix.", ["Felix Adeyemi", "Rosa Brody"], []) == \
        "I heard it from Felix."  # a talk of three: a name says which one
    # (9d99520's day: Rosa to Samuel, twice)
    assert to_listener("I've been helping Samuel with the party and painting.", ["Samuel Okafor"], []) == \
        "I've been helping you with the party and painting."
    # (74bd764's day: Hank to Marcus) a doing in the past tense
    assert to_listener("It looks like Marcus put my campaign posters up there.", ["Marcus Bell"], []) == \
        "It looks like you put my campaign posters up there."
    assert to_listener("Marcus, I noticed the posters.", ["Marcus Bell"], []) == "Marcus, I noticed the posters."
    # (654b82e's day: Samuel to Ines) the plan's step said back to the one it names
    assert to_listener("Yes, I know! I'm going to talk with Ines Moreau about it. I'm really excited!",
                       ["Ines Moreau"], []) == "Yes, I know! I'm really excited!"
    town = TownNames(relations={"Samuel Okafor": {"Grace Okafor": "his wife"}})
    assert meets_the_known("It's been great meeting you.", "Samuel Okafor", ["Grace Okafor"], town)
    assert not meets_the_known("It's been great meeting you.", "Samuel Okafor", ["Felix Adeyemi"], town)


def test_a_gathering_or_a_campaign_is_not_the_listeners_when_it_is_not():
    # the day's talks asked again (talkbench, 2026-11-28 06:34): Kenji to Felix "What about your
    # surprise party?"; Hank, the candidate, to Marcus "Can we meet ... to discuss your campaign?"
    from game.mind.facts.linechecks import yours_not_theirs

    town = TownNames(roles={"Hank Brody": ("candidate for mayor",)})
    party = [PARTY]
    assert yours_not_theirs("What about your surprise party?", "Kenji Tanaka", ["Felix Adeyemi"], town, party)
    assert not yours_not_theirs("How is your surprise party coming along?", "Rosa Brody", ["Samuel Okafor"], town,
                                party)
    assert yours_not_theirs("Can we meet to discuss your campaign?", "Hank Brody", ["Marcus Bell"], town, party)
    assert not yours_not_theirs("How is your campaign?", "Marcus Bell", ["Hank Brody"], town, party)
    assert not yours_not_theirs("What about your party?", "Kenji Tanaka", ["Felix Adeyemi", "Nora Lindqvist"],
                                town, party)
    # Samuel, its host, to Ines on 2026-12-02: "I'm glad you're going to have a surprise party."
    assert yours_not_theirs("I'm glad you're going to have a surprise party.", "Samuel Okafor", ["Ines Moreau"],
                            town, party)
    assert not yours_not_theirs("I hear you're having a surprise party!", "Rosa Brody", ["Samuel Okafor"], town, party)


def test_a_place_is_not_called_a_kind_its_name_says_it_is_not():
    # the whole day of 2026-11-28: Hank to Felix, Bluebell Cafe "a local bakery"
    from game.mind.facts.linechecks import wrong_kind_of_place

    places = ["Bluebell Cafe", "Greenway Market and Pharmacy", "Brody's Supply Store", "The Copper Kettle"]
    assert wrong_kind_of_place("Bluebell Cafe, a local bakery, is lovely.", places) == "Bluebell Cafe is no bakery"
    assert not wrong_kind_of_place("Bluebell Cafe is the best coffee shop in town.", places)
    assert not wrong_kind_of_place("Greenway Market and Pharmacy is a great grocery store.", places)
    assert not wrong_kind_of_place("The Copper Kettle is a bakery now.", places)  # its name says no kind
    town = TownNames(places=tuple(places))
    assert misattributes("I love Bluebell Cafe, a local bakery.", "Hank Brody", ["Felix Adeyemi"], town, [])


def test_the_one_spoken_to_is_not_put_to_work_at_anothers_workplace():
    # talkbench of 2026-11-28 06:34: Felix to Samuel, "I heard you're opening a bakery stall" (his own)
    from game.mind.facts.linechecks import works_elsewhere

    town = TownNames(places=("Greenway Market and Pharmacy", "Bluebell Cafe"),
                     workplaces={"Felix Adeyemi": "Greenway Market and Pharmacy", "Rosa Brody": "Bluebell Cafe"})
    said = "I heard you're opening a bakery stall at Greenway Market and Pharmacy."
    assert works_elsewhere(said, "Felix Adeyemi", town, ["Samuel Okafor"]) == \
        "Samuel does not work at Greenway Market and Pharmacy"
    assert not works_elsewhere("I heard you're serving at Bluebell Cafe today.", "Felix Adeyemi", town,
                               ["Rosa Brody"])
    assert not works_elsewhere(said, "Felix Adeyemi", town, ["Samuel Okafor", "Rosa Brody"])  # "you" of several
    # the place before the doing: Ines to Marcus of his pub's new breakfast (74bd764's day)
    town = TownNames(places=("Bluebell Cafe", "The Copper Kettle"),
                     workplaces={"Ines Moreau": "Bluebell Cafe", "Marcus Bell": "The Copper Kettle"})
    assert works_elsewhere("I was just at The Copper Kettle serving breakfast.", "Ines Moreau", town) == \
        "Ines does not work at The Copper Kettle"
    assert not works_elsewhere("I was at The Copper Kettle, but now I'm serving breakfast.", "Ines Moreau", town)


def test_a_chat_assistants_words_are_not_a_residents():
    # talkbench of 2026-11-28 06:34: Eli, "I'm sorry, but I can't help you with that. It seems like
    # there might be some kind of miscommunication."
    from game.mind.facts.linechecks import assistant_voice

    assert assistant_voice("I'm sorry, but I can't help you with that.")
    assert assistant_voice("It seems like there might be some kind of miscommunication.")
    assert assistant_voice("I am not able to assist with that request.")  # Samuel's answer, 356ade6's save
    assert assistant_voice("I am not able to help at the cafe today.") == ""
    assert assistant_voice("Marcus, it's Monday 11:59.") == "the prompt's clock read out"  # (Ines, 2c4c6ac's day)
    assert not assistant_voice("The quiz starts at 20:00 on Monday.")
    assert not assistant_voice("I'm sorry, I can't come to the market today.")
    assert not assistant_voice("Can I help you carry that?")


def test_an_amount_of_money_nobody_holds_is_not_said():
    # the whole day of 2026-11-28 08:27: Samuel to Grace, "the budget for the park is $100,000"
    from game.mind.facts.unbacked import amount_unbacked

    assert amount_unbacked("I heard the budget for the park is $100,000.") == "an amount nobody holds ($100,000)"
    assert amount_unbacked("It cost me fifty... no, 20 dollars!")
    assert amount_unbacked("They spent a million dollars on it.")
    assert not amount_unbacked("The park opens at 8 and I have 2 dogs.")
    assert not amount_unbacked("My rent is $900 a month.", "Her rent is $900 a month.")  # what she holds


def test_the_listener_as_a_subject_is_you_and_today_is_no_other_day():
    # the whole day of 2026-11-28 (09:22): Samuel to Grace, "I'm sure Grace is excited about it";
    # Felix to Kenji in four talks on a Monday, "It's Saturday, you know?"
    from datetime import datetime

    from game.mind.facts.timechecks import drop_wrong_today
    from game.mind.facts.tolistener import to_listener

    fixes: list[str] = []
    assert to_listener("I'm sure Grace is excited about it.", ["Grace Okafor"], fixes) == \
        "I'm sure you are excited about it."
    assert to_listener("Grace is my wife.", ["Grace Okafor"], []) == "You are my wife."
    assert to_listener("Grace, is that you?", ["Grace Okafor"], []) == "Grace, is that you?"  # said to her
    assert to_listener("I'm sure Grace is excited.", ["Grace Okafor", "Rosa Brody"], []) == \
        "I'm sure Grace is excited."  # a talk of three: a name says which one
    monday = datetime(2026, 3, 2, 12)
    fixes = []
    assert drop_wrong_today("How's everything going? It's Saturday, you know?", monday, fixes) == \
        "How's everything going?" and fixes == ["today is Monday"]
    assert drop_wrong_today("It's Monday again. The stall opens on Saturday.", monday, []) == \
        "It's Monday again. The stall opens on Saturday."


def test_a_talks_shared_prompt_holds_nothing_either_keeps_to_itself_nor_anothers_self():
    # Hank's "has not told anyone ... the store is in trouble" became Marcus's "I'm sorry to hear about
    # the store"; Aiko, the librarian, said Eli's "I'm studying history at Oakhill College"
    from game.mind.facts.linechecks import not_anothers_self as _not_anothers_self
    from game.mind.talk.points import public_lines

    shown = "- Hank Brody has not told anyone, not even Rosa, that the store is in trouble\n- Marcus Bell: his friend"
    assert public_lines(shown) == "- Marcus Bell: his friend"
    eli = "Hello, Aiko! I'm studying history at Oakhill College."
    assert _not_anothers_self("I'm checking out books. I'm studying history at Oakhill College.", [eli]) == \
        "I'm checking out books."
    assert _not_anothers_self("I'm fine.", ["I'm fine, thanks."]) == "I'm fine."


def test_a_meal_out_of_its_hours_the_listener_with_itself_and_a_sentence_twice_are_not_said():
    # the whole day of 2026-11-28 11:21: Ines at 12:37 "I'm starting my day with breakfast"; Eli at
    # 17:00 "I just finished breakfast"; Kenji to Felix "I see that you're talking with you" (the
    # model's "with Felix Adeyemi", said to Felix); "I'm glad to hear that. I'm glad to hear that."
    from datetime import datetime

    from game.mind.facts.timechecks import drop_nonsense

    monday = datetime(2026, 3, 2, 8, 0)
    noon, five, morning = monday.replace(hour=12, minute=37), monday.replace(hour=17), monday.replace(hour=7)
    fixes: list[str] = []
    assert drop_nonsense("I'm starting my day with breakfast. How are you?", noon, fixes) == "How are you?"
    assert drop_nonsense("Hey! I just finished breakfast and I was thinking of you.", five, fixes) == "Hey!"
    assert drop_nonsense("I just finished breakfast.", morning, fixes) == "I just finished breakfast."
    assert drop_nonsense("I'm having lunch at noon tomorrow.", five, fixes) == "I'm having lunch at noon tomorrow."
    assert drop_nonsense("I see that you're talking with you. I'm glad.", noon, fixes) == "I'm glad."
    assert drop_nonsense("I'm glad to hear that. I'm glad to hear that.", noon, fixes) == "I'm glad to hear that."
    assert fixes == ["not so: breakfast at 12:37", "not so: breakfast at 17:00", "not so: the listener with itself",
                     "a sentence said twice"]
    # Marcus to Hank at his pub's counter at 19:45 on 356ade6's day
    evening = monday.replace(hour=19, minute=45)
    assert drop_nonsense("Hi, Hank! I'm here to serve you lunch.", evening, fixes) == "Hi, Hank!"
    assert drop_nonsense("I'm serving dinner.", evening, fixes) == "I'm serving dinner."
    # Rosa to Ines at 14:16 on 487f002's day
    two = monday.replace(hour=14, minute=16)
    assert drop_nonsense("Hey, Ines! I'm here at Bluebell Cafe for breakfast. Can you help me?", two, []) == \
        "Hey, Ines! Can you help me?"
    assert drop_nonsense("I'm here for lunch.", two, []) == "I'm here for lunch."


def test_a_place_said_to_be_closed_while_it_is_open_is_not_said():
    # the whole day of 2026-11-28 11:21: Rosa, its barista, at 07:16: "The cafe is closed for the day."
    from game.mind.facts.linechecks import closed_when_open

    town = TownNames(places=("Bluebell Cafe", "Town Hall"), people=("Rosa Brody",),
                     open_now=lambda place: place == "Bluebell Cafe")
    assert closed_when_open("I'm sorry. The cafe is closed for the day.", town) == "Bluebell Cafe is open now"
    assert closed_when_open("Bluebell Cafe is already closed.", town) == "Bluebell Cafe is open now"
    assert closed_when_open("Town Hall is closed.", town) == ""  # not open now: may be so
    assert closed_when_open("The cafe is closed on Sundays.", town) == ""
    assert closed_when_open("The cafe is closed.", TownNames(places=("Bluebell Cafe",))) == ""  # no world


# -- a part in a gathering (game/mind/facts/parts.py): what the model said on 2026-11-28 afternoon ---------

PARTS = TownNames(places=TOWN.places, people=TOWN.people, roles=TOWN.roles, workplaces=TOWN.workplaces,
                  parts={PARTY.what.lower(): ("Samuel Okafor", "Ines Moreau", "Rosa Brody")})


def test_a_part_in_a_gathering_given_to_one_who_has_none_is_read_as_misattributed():
    from game.mind.facts.parts import part_not_theirs, parts_unbacked

    def part(sent: str, speaker: str, listeners=("Marcus Bell",)) -> str:
        return part_not_theirs(sent, speaker, list(listeners), PARTS, [PARTY])

    said = ("I've been looking forward to meeting you, especially since I know you're helping prepare Grace's "
            "surprise party.")
    assert part(said, "Rosa Brody") == "Marcus has no part in surprise party for Grace's 60th birthday"
    assert part(said, "Rosa Brody", ["Ines Moreau"]) == ""  # she lends the cafe: a hand in it
    assert "Marcus" in part("Thanks for helping with the surprise party!", "Rosa Brody")
    assert "Hank has no part" in part("I enjoy helping my father, Hank, prepare Grace's surprise party at Bluebell "
                                      "Cafe.", "Rosa Brody", [])
    assert "Hank has no part" in part("Hank is helping with the surprise party.", "Rosa Brody", [])
    # a part by another verb: Grace to Kenji on c59f68b's day, "you're providing feedback at the town debate"
    assert "Marcus has no part" in part("I know you're providing feedback at the surprise party.", "Rosa Brody")
    assert part("I know you're coming to the surprise party.", "Rosa Brody") == ""
    # what stands: a helper helping its host, asking one to help, a party it does not speak of
    assert part("I'm helping Samuel prepare Grace's surprise party.", "Rosa Brody") == ""
    assert part("Could you help me decorate for the surprise party?", "Rosa Brody") == ""
    assert part("I know you're helping Hank with the store.", "Rosa Brody") == ""
    town_without = TownNames(places=TOWN.places, people=TOWN.people)
    assert part_not_theirs(said, "Rosa Brody", ["Marcus Bell"], town_without, [PARTY]) == ""  # no declared event
    # Rosa to Marcus on c59f68b's day: what follows, of "you" at its start, goes on with it (his "cake")
    said = "I know you're hosting the surprise party. You're doing such a good job with the cake. See you!"
    assert drop_misattributed(said, "Rosa Brody", ["Marcus Bell"], PARTS, [PARTY], []) == "See you!"
    assert [w for _, w in parts_unbacked("I paint. I enjoy helping my father, Hank, prepare Grace's surprise party.",
                                         "Rosa Brody", PARTS, [PARTY])] == ["Hank has no part in surprise party for "
                                                                             "Grace's 60th birthday"]


def test_one_not_asked_to_a_gathering_is_not_said_to_come():
    # Samuel of his party, c59f68b's interview: "such as Priya Raman and Nora Lindqvist, to let them know
    # that they will be attending the party" (asked: Eli Moreau, Aiko Tanaka)
    from dataclasses import replace

    from game.mind.facts.parts import parts_unbacked

    party = replace(PARTY, invited=("Eli Moreau", "Aiko Tanaka"))
    people = (*TOWN.people, "Eli Moreau", "Aiko Tanaka", "Priya Raman", "Nora Lindqvist")
    town = replace(PARTS, people=people)

    def why(text: str) -> list[str]:
        return [w for _, w in parts_unbacked(text, "Samuel Okafor", town, [party])]

    said = ("I would also tell the people I know, such as Priya Raman and Nora Lindqvist, that they will be "
            "attending the party.")
    assert why(said) == ["Priya is not asked to surprise party for Grace's 60th birthday"]
    assert why("Nora will be coming to the surprise party too.") == [
        "Nora is not asked to surprise party for Grace's 60th birthday"]
    # the asked, its helpers and its guest of honour come; an invitation, a question, a "not" are no claim
    assert why("Eli and Aiko will be attending the surprise party.") == []
    assert why("Rosa will be coming early to decorate for the surprise party.") == []
    assert why("I told Priya that Eli will be attending the party.") == []
    assert why("Nora will not be coming to the party.") == []
    assert why("I might invite Nora; she will be coming to the party if I do.") == []
    assert parts_unbacked(said, "Samuel Okafor", town, [PARTY]) == []  # no guest list declared: not judged


def test_nice_to_meet_you_said_to_one_long_known():
    town = TownNames(people=TOWN.people, relations={"Samuel Okafor": {"Grace Okafor": "his wife"}})
    assert meets_the_known("I'm excited to meet you.", "Samuel Okafor", ["Grace Okafor"], town)
    assert meets_the_known("So glad to finally meet you!", "Samuel Okafor", ["Grace Okafor"], town)
    assert not meets_the_known("I'm excited to see you.", "Samuel Okafor", ["Grace Okafor"], town)


def test_ones_own_part_in_a_gathering_is_not_denied():
    from game.mind.facts.parts import part_not_theirs

    said = "I will not be helping Samuel Okafor prepare Grace's surprise party on Tuesday."
    assert part_not_theirs(said, "Rosa Brody", [], PARTS, [PARTY]) == \
        "Rosa has a hand in surprise party for Grace's 60th birthday"
    assert part_not_theirs(said, "Hank Brody", [], PARTS, [PARTY]) == ""  # one with no hand in it may say so
    assert part_not_theirs("I'm helping Samuel prepare the surprise party.", "Rosa Brody", [], PARTS, [PARTY]) == ""


def test_a_sentence_that_leans_on_one_dropped_goes_with_it():
    # Nora on b5e348b: "Hey Ines! I hear you have a surprise party coming up. What's it about?" (the
    # party not hers to tell), and "... Do you know anything about it?"
    from game.mind.facts.leaning import kept_apart, leans

    party = "I hear you have a surprise party coming up."

    def bad(s: str) -> bool:
        return "party" in s

    assert kept_apart(["Hey Ines!", party, "What's it about?"], bad) == ["Hey Ines!"]
    assert kept_apart([party, "Do you know anything about it?", "See you at noon."], bad) == ["See you at noon."]
    # Marcus to Rosa on eaef4b9's day, the party not known to him: "... Have you started preparing for it yet?"
    assert kept_apart(["Good afternoon, Rosa!", party, "Have you started preparing for it yet?"], bad) == [
        "Good afternoon, Rosa!"]
    assert kept_apart(["Hey Ines!", "What's it about?"], bad) == ["Hey Ines!", "What's it about?"]  # nothing cut
    # Eli to Aiko on 2c4c6ac's day, the party not said to him by her: "Hey, Aiko! I heard you mentioned ...
    # Is that true?"
    assert kept_apart(["Hey, Aiko!", party, "Is that true?"], bad) == ["Hey, Aiko!"]
    assert kept_apart(["Hey, Aiko!", "Is that true?"], bad) == ["Hey, Aiko!", "Is that true?"]
    assert [leans(s) for s in ("It's tomorrow.", "Tell me about her!", "What is this?", "I love the cafe.",
                               "It was Ines who baked", "I'm looking forward to it too.")] == [True, True, True, False,
                                                                                          True, True]


def test_a_listener_that_would_be_spoken_of_twice_is_not_made_you():
    from game.mind.facts.tolistener import to_listener
    # Kenji to Felix and Ines to Marcus on ca91aae's day: the mend made "talked to you" and "but you are."
    fixes: list[str] = []
    said = ("That's a good idea! Have you talked to Felix Adeyemi yet? Is he opening a bakery stall at Greenway "
            "Market on Saturday?")
    assert to_listener(said, ["Felix Adeyemi"], fixes) == "That's a good idea!"
    assert fixes == ["Felix spoken of as another: not said"]
    said = "It's a surprise to keep from Grace. I've been trying to keep her out of the party, but Marcus is."
    assert to_listener(said, ["Marcus Bell"], []) == "It's a surprise to keep from Grace."
    assert to_listener("I heard it from Felix.", ["Felix Adeyemi"], []) == "I heard it from you."
    # Grace to Marcus, Rosa and Nora at one table: "talk to Marcus Bell about" is to him, now
    group = ["Rosa Brody", "Marcus Bell", "Nora Lindqvist"]
    assert to_listener("I need to talk to Marcus Bell about the fountain.", group, []) == \
        "I need to talk to you, Marcus, about the fountain."
    assert to_listener("I heard it from Marcus.", group, []) == "I heard it from Marcus."


def test_a_guest_planning_to_attend_claims_no_hosting():
    # Priya to Marcus at his quiz (1703955's day): "I'm planning on attending the quiz today" became "Marcus is
    # planning on attending the quiz today", said to Marcus
    from datetime import datetime

    from game.mind.facts.factcheck import fix_fact_words

    now = datetime(2026, 3, 2, 19, 0)
    for said in ("Yes, I'm planning on attending the surprise party.", "I'm planning to go to the surprise party."):
        text, fixes = fix_fact_words(said, PARTY, now, TOWN, "Ines Moreau", to=["Rosa Brody"])
        assert text == said and not [f for f in fixes if f.startswith("claim")]
    text, fixes = fix_fact_words("I'm planning the surprise party.", PARTY, now, TOWN, "Ines Moreau", to=["Rosa Brody"])
    assert "claim -> Samuel Okafor" in fixes


def test_a_guest_visiting_and_a_candidate_s_own_campaign_claim_no_hosting():
    # Hank to Priya at the pub (dayA, b61bcdc+): "I'm planning to visit Marcus's pub quiz" became "Marcus is
    # planning to visit Marcus's pub quiz"; "talk to Priya about my campaign and writing my debate notes"
    # (Grace's debate) became "Grace's campaign": Hank runs for mayor
    from datetime import datetime

    from game.mind.facts.factcheck import fix_fact_words

    now = datetime(2026, 3, 2, 20, 25)
    quiz = Fact(key="marcus-bell:quiz", kind="gathering", what="a pub quiz", host="Marcus Bell",
                place="The Copper Kettle", day=date(2026, 3, 2), start=20 * 60, end=22 * 60)
    said = "I'm planning to visit Marcus's pub quiz on Monday at 20:00."
    assert fix_fact_words(said, quiz, now, TOWN, "Hank Brody", to=["Priya Raman"])[0] == said
    debate = Fact(key="grace-okafor:debate", kind="gathering", what="the public debate", host="Grace Okafor",
                  place="Town Hall", day=date(2026, 3, 4), start=19 * 60, end=21 * 60)
    said = "I'm also planning to talk to Priya about my campaign and writing my debate notes."
    text, fixes = fix_fact_words(said, debate, now, TOWN, "Hank Brody", to=["Priya Raman"])
    assert "my campaign" in text and not [f for f in fixes if f.startswith("claim")]
    # a party is still its host's: "my party" by a guest
    text, fixes = fix_fact_words("I'm bringing snacks to my surprise party.", PARTY, now, TOWN, "Ines Moreau")
    assert "Samuel's surprise party" in text


def test_a_gathering_is_said_to_be_of_its_host_or_of_the_one_it_is_for():
    """Rosa, asked of her morning in the stove run of 3d7f279: "cinnamon buns for Felix Adeyemi's surprise
    party tomorrow" (Samuel's party for Grace)."""
    from datetime import datetime

    from game.mind.facts.fact import Fact, TownNames
    from game.mind.facts.factcheck import fix_fact_words
    from game.mind.facts.linechecks import fix_whose

    party = Fact("p", "gathering", "a surprise party for Grace's 60th birthday", "Samuel Okafor",
                 place="Bluebell Cafe", honoree="Grace Okafor")
    people = ("Samuel Okafor", "Grace Okafor", "Felix Adeyemi", "Rosa Brody")
    fixes: list[str] = []
    said = "I also made some cinnamon buns for Felix Adeyemi's surprise party tomorrow."
    assert fix_whose(said, party, people, fixes) == said.replace("Felix Adeyemi", "Grace Okafor")
    assert fixes == ["whose Felix Adeyemi -> Grace Okafor"]
    for right in ("Grace's surprise party", "Samuel's party", "Marcus's pub quiz", "the town's party",
                  "Felix's debate", "Felix's party"):  # (Felix may hold a party of his own)
        assert fix_whose(right, party, people, []) == right
    town = TownNames(places=("Bluebell Cafe",), people=people)
    assert "Felix" not in fix_fact_words(said, party, datetime(2026, 3, 2, 6, 20), town, "Rosa Brody")[0]


def test_todays_weekday_is_no_day_to_come():
    """Rosa on a Monday (487f002's day): "We have to get everything ready by Monday" (the party was Tuesday's)."""
    from datetime import datetime

    from game.mind.facts.timechecks import drop_nonsense
    monday = datetime(2026, 3, 2, 14, 16)
    fixes: list[str] = []
    said = "I'm helping Samuel prepare the party. We have to get everything ready by Monday."
    assert drop_nonsense(said, monday, fixes) == "I'm helping Samuel prepare the party."
    assert fixes == ["not so: Monday is today"]
    for right in ("We have to get everything ready by Tuesday.", "See you next Monday.", "I work until Friday."):
        assert drop_nonsense(right, monday, []) == right


def test_there_after_a_dropped_place_goes_with_it():
    # 160f87f's day: Grace's "I'm going to the cafe this morning" was cut (not in her plan), and "I'll be there at
    # 7pm", two sentences on, was said of nowhere
    from game.mind.facts.leaning import kept_apart

    parts = ["Hey Ines!", "You still there?", "I'm going to the cafe this morning.", "Can I come with you?",
             "I'll be there at 7pm."]
    assert kept_apart(parts, lambda s: "going to the cafe" in s) == ["Hey Ines!", "You still there?",
                                                                     "Can I come with you?"]
    # a place kept before it, or said in it, still holds it; with nothing dropped nothing goes
    assert kept_apart(["I work at the pub.", "The quiz is fun.", "I'll be there at 8."],
                      lambda s: "quiz" in s) == ["I work at the pub.", "I'll be there at 8."]
    assert kept_apart(["The quiz is fun.", "Meet me at the pub, I'll be there at 8."], lambda s: "quiz" in s) == [
        "Meet me at the pub, I'll be there at 8."]
    assert kept_apart(["Hey!", "I'll be there at 7pm."], lambda s: False) == ["Hey!", "I'll be there at 7pm."]
