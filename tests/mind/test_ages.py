"""A birthday's number and an age one is turning, said in a talk or an answer, are the records'
(game/mind/facts/ages.py)."""

from game.mind.facts.ages import ages_mended, ordinal

PEOPLE = ("Grace Okafor", "Samuel Okafor", "Ines Moreau")
AGES = {"Grace Okafor": 59, "Samuel Okafor": 61, "Ines Moreau": 44}
PARTY = ("a surprise party for grace's 60th birthday",)


def mended(text: str, speaker: str = "Ines Moreau", listeners: tuple[str, ...] = ("Samuel Okafor",)) -> tuple:
    return ages_mended(text, speaker, listeners, PEOPLE, AGES, PARTY)


def test_a_birthday_s_number_is_the_one_the_town_gives_it():
    # Ines on 19282ee, to Samuel: "since Grace's 40th birthday"
    assert mended("It has been a while since Grace's 40th birthday.") == (
        "It has been a while since Grace's 60th birthday.", ["corrected: Grace Okafor is 59 (said 40)"])
    assert mended("Your 50th birthday was fun.") == ("Your 62nd birthday was fun.",
                                                     ["corrected: Samuel Okafor is 61 (said 50)"])
    assert mended("Samuel is turning 70 soon!")[0] == "Samuel is turning 62 soon!"


def test_a_right_number_an_unknown_one_and_a_crowd_s_your_stand():
    said = "Grace's 60th birthday, my 44th birthday and Samuel's 61st birthday."
    assert mended(said) == (said, [])
    assert mended("Tom's 30th birthday was loud.") == ("Tom's 30th birthday was loud.", [])  # no such resident
    two = ("Samuel Okafor", "Grace Okafor")
    assert mended("Your 50th birthday!", listeners=two) == ("Your 50th birthday!", [])  # whose "your" is not told


def test_ordinals():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 60, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "60th", "101st", "111th"]


def test_an_age_said_now_is_the_one_the_records_hold():
    # Grace on b765e22's save, of Samuel: his 34 years of marriage said as his age
    said = "I live with my husband Samuel Okafor, who is 34 years old and has been married to me for 34 years."
    assert mended(said, speaker="Grace Okafor") == (
        "I live with my husband Samuel Okafor, who is 61 years old and has been married to me for 34 years.",
        ["corrected: Samuel Okafor is 61 (said 34)"])
    assert mended("You are 50 years old!")[0] == "You are 61 years old!"
    assert mended("I'm 45 years old.")[0] == "I'm 44 years old."
    assert mended("Grace is 59 years old, and Tom is 30 years old.") == (
        "Grace is 59 years old, and Tom is 30 years old.", [])
    assert mended("Grace is 60 years old.")[0] == "Grace is 59 years old."  # (60 tomorrow: not yet)
