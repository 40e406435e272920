"""Talk lines a reader found wrong on 0e6b5f2's whole day (2026-11-30), each held by a rule: a host
unsure whether to go to its own gathering, the host asked to come to it, one with no part in a party
welcoming its guests, a gap in the speaker's life it holds nothing of, another's talk with the listener
that the speaker never saw, a place's days said as the speaker's to choose."""

from __future__ import annotations

from game.mind.facts.fact import TownNames
from game.mind.facts.pasttalk import told_you_unseen
from game.mind.facts.roleslips import gap_unheld, head_noun, role_slip, spoken_of
from game.mind.facts.slips import open_until_made_up

PEOPLE = ("Grace Okafor", "Samuel Okafor", "Nora Lindqvist", "Ines Moreau", "Rosa Brody", "Hank Brody")
TOWN = TownNames(people=PEOPLE, parts={
    "a surprise party for grace's 60th birthday": ("Samuel Okafor", "Ines Moreau", "Rosa Brody"),
    "the public debate": ("Grace Okafor", "Hank Brody")},
    tasks=(("Ines Moreau", "make the cake"), ("Rosa Brody", "decorate Bluebell Cafe")))
DEBATE = "You know, I heard about the public debate at Town Hall on Wednesday. Do you think you'll be there?"
PARTY = "They're having a surprise party for Grace's 60th birthday tomorrow at Bluebell Cafe."


def test_a_gathering_is_spoken_of_by_its_noun():
    assert head_noun("a surprise party for grace's 60th birthday") == "party"
    assert head_noun("the public debate") == "debate"
    assert spoken_of([DEBATE], TOWN) == ["the public debate"]
    assert spoken_of(["Nice weather today."], TOWN) == []


def test_the_host_of_a_gathering_is_sure_to_go():
    # Grace, of her own debate, after Nora asked whether she'd be there
    said = "Nora, I'm not sure if I want to go or not."
    assert role_slip(said, "Grace Okafor", ["Nora Lindqvist"], [DEBATE], TOWN) == "Grace hosts the debate: sure to go"
    assert role_slip(said, "Nora Lindqvist", ["Grace Okafor"], [DEBATE], TOWN) == ""  # a guest may be unsure
    assert role_slip(said, "Grace Okafor", ["Nora Lindqvist"], ["Nice weather today."], TOWN) == ""  # not its topic
    park = "I'm not sure I'll go to the park later."
    assert role_slip(park, "Grace Okafor", ["Nora Lindqvist"], [DEBATE], TOWN) == ""
    assert role_slip("I know she might not want to go.", "Samuel Okafor", ["Nora Lindqvist"], [PARTY], TOWN) == ""
    # one with a task for the party is as sure as its host
    assert role_slip("I might not make it.", "Rosa Brody", ["Nora Lindqvist"], [PARTY], TOWN) == \
        "Rosa helps with the party: sure to go"


def test_the_host_is_not_asked_to_come_to_its_own_gathering():
    # Samuel, after Nora spoke of Grace's debate
    said = "I was going to invite Grace to come with me."
    assert role_slip(said, "Samuel Okafor", ["Nora Lindqvist", "Grace Okafor"], [DEBATE], TOWN) == \
        "Grace hosts the debate: not asked to come"
    assert role_slip("I was going to invite Hank to come with me.", "Samuel Okafor", ["Nora Lindqvist"], [DEBATE],
                     TOWN) == ""
    assert role_slip("I was going to invite Grace to come with me to dinner.", "Samuel Okafor", ["Nora Lindqvist"],
                     [DEBATE], TOWN) == ""
    asked = "Would you like to come to the debate?"
    assert role_slip(asked, "Nora Lindqvist", ["Grace Okafor"], [], TOWN) == "Grace hosts the debate: not asked to come"
    assert role_slip(asked, "Grace Okafor", ["Nora Lindqvist"], [], TOWN) == ""  # its host asks others
    assert role_slip("Would you like to come to the library?", "Nora Lindqvist", ["Grace Okafor"], [DEBATE], TOWN) == ""


def test_a_gathering_is_not_the_listeners_unless_it_hosts_it():
    # a9a17c8's day: Marcus, the quiz's host, to Nora and Hank: "I can't participate in your pub quiz"
    said = "I'm sorry, but I can't come to your public debate."
    assert role_slip(said, "Samuel Okafor", ["Nora Lindqvist", "Hank Brody"], [], TOWN) == \
        "Grace hosts the debate: not the listener's"
    assert role_slip("Good luck with your public debate!", "Samuel Okafor", ["Grace Okafor"], [], TOWN) == ""


def test_one_with_no_part_does_not_welcome_the_guests():
    said = "Well, I'm going to be there to welcome everyone."
    assert role_slip(said, "Nora Lindqvist", ["Ines Moreau"], [PARTY], TOWN) == \
        "Samuel hosts the party: Nora has no part in it"
    assert role_slip(said, "Ines Moreau", ["Nora Lindqvist"], [PARTY], TOWN) == ""  # she lends the cafe
    assert role_slip("I'm running the store today.", "Hank Brody", ["Ines Moreau"], [PARTY], TOWN) == ""
    assert role_slip("I'm hosting the party.", "Nora Lindqvist", ["Ines Moreau"], [PARTY], TOWN)


def test_a_gap_in_the_speakers_life_needs_something_it_holds():
    # Rosa of mixing drinks, her daily work
    said = "It's been a while since I've done that, and I'm excited to try it out."
    assert gap_unheld(said, ["Rosa Brody tends the bar at Bluebell Cafe."]) == "a gap in its life it holds nothing of"
    assert gap_unheld(said, ["Rosa took up the piano again after ten years."]) == ""
    assert gap_unheld("I haven't baked bread in years.", []) == "a gap in its life it holds nothing of"
    assert gap_unheld("I've been here since seven.", []) == ""


def test_a_talk_of_another_with_the_listener_is_one_the_speaker_holds():
    # Nora to Rosa: Grace had told Rosa at a talk Nora was not in
    said = "I heard Grace told you that she's hosting the public debate at Town Hall on Wednesday."
    assert told_you_unseen(said, ["Rosa Brody"], PEOPLE, ["I talked with Ines Moreau; I said: hello"]) == \
        "a talk of Grace with Rosa it knows nothing of"
    assert told_you_unseen(said, ["Rosa Brody"], PEOPLE, ["I talked with Grace Okafor, Rosa Brody; I said: hi"]) == ""
    assert told_you_unseen(said, ["Rosa Brody", "Ines Moreau"], PEOPLE, []) == ""  # whom "you" is: not one
    assert told_you_unseen("Grace told me about it.", ["Rosa Brody"], PEOPLE, []) == ""


def test_a_places_days_are_not_the_speakers_to_choose():
    # Ines of Bluebell Cafe: "I'm trying to keep it open until the weekend."
    assert open_until_made_up("I'm trying to keep it open until the weekend.") == "a place's days nothing holds"
    assert open_until_made_up("We'll stay closed for a few days.") == "a place's days nothing holds"
    assert open_until_made_up("The cafe is open until 15:00.") == ""
    assert open_until_made_up("I'll keep the door open for you.") == ""


def test_what_one_heard_of_the_listener_is_what_it_holds_of_them():
    # Nora to Ines on 4151289's day, who had heard nothing of her: "I hear you're planning something important."
    from game.mind.facts.hours import stems
    from game.mind.facts.pasttalk import heard_of_you_unheld

    said = "Hi Ines! I hear you're planning something important."
    assert heard_of_you_unheld(said, "Ines Moreau", ["Ines Moreau is working at the cafe"], stems) == \
        "what it heard of Ines, which nothing it holds has"
    held = ["Rosa Brody told me: Ines is planning something important for Tuesday."]
    assert heard_of_you_unheld(said, "Ines Moreau", held, stems) == ""
    assert heard_of_you_unheld("I hear the cafe is busy.", "Ines Moreau", [], stems) == ""


def test_one_named_with_a_role_at_a_place_works_there():
    # Rosa on 4151289's save: "a growing crush on Felix Adeyemi, who is a new baker at Bluebell Cafe" (his stall is
    # at Greenway Market)
    from game.mind.facts.roleslips import named_at_work_elsewhere

    town = TownNames(people=("Felix Adeyemi", "Hank Brody", "Ines Moreau"),
                     places=("Bluebell Cafe", "Greenway Market", "Brody's Supply Store"),
                     workplaces={"Felix Adeyemi": "Greenway Market", "Hank Brody": "Brody's Supply Store",
                                 "Ines Moreau": "Bluebell Cafe"})
    said = "I have a growing crush on Felix Adeyemi, who is a new baker at Bluebell Cafe."
    assert named_at_work_elsewhere(said, town) == "Felix does not work at Bluebell Cafe"
    # said of him (Samuel's, a talk of 9d99520's save asked again)
    assert named_at_work_elsewhere("Felix Adeyemi is a new baker at Bluebell Cafe.", town) == \
        "Felix does not work at Bluebell Cafe"
    # a trade with none of the endings of one ("Eli is the barista at Bluebell Cafe", Rosa of a student, d7d6132's save)
    said = "Hank is the barista at Bluebell Cafe."
    assert named_at_work_elsewhere(said, town) == "Hank does not work at Bluebell Cafe"
    for right in ("Hank Brody, the owner of Brody's Supply Store, is my father.", "Ines is the chef at Bluebell Cafe.",
                  "Felix is a baker at Greenway Market.",
                  "Hank is a regular customer at Bluebell Cafe.",
                  "Hank, a regular customer at Bluebell Cafe, came by.", "Felix, the baker at Greenway Market."):
        assert named_at_work_elsewhere(right, town) == ""

