"""The resident's "she" or "he" of itself, beside another's name, said as "I" (issue 39): the paper's
answers on 356ade6's save, and the pronoun each resident's own file gives it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from game.mind.facts.fact import TownNames
from game.mind.facts.unbacked import sentences
from game.mind.interview.asme import mend_voice, pronoun_of

_RESIDENTS = json.loads((Path(__file__).parents[2] / "game/maps/default/residents.json").read_text())["residents"]
TOWN = TownNames(people=tuple(r["name"] for r in _RESIDENTS),
                 relations={r["name"]: r["relationships"] for r in _RESIDENTS},
                 doings={r["name"]: tuple(sentences(r["currently"])) for r in _RESIDENTS})


def test_each_resident_of_the_default_town_has_the_pronoun_its_file_gives() -> None:
    she = {"Grace Okafor", "Rosa Brody", "Ines Moreau", "Aiko Tanaka", "Nora Lindqvist", "Priya Raman"}
    assert {r["name"]: pronoun_of(r["name"], TOWN) for r in _RESIDENTS} == {
        r["name"]: "she" if r["name"] in she else "he" for r in _RESIDENTS}
    assert pronoun_of("Nobody Here", TOWN) == ""


def test_the_speaker_s_own_pronoun_beside_another_of_the_other_is_i() -> None:
    rosa = ("I am a dedicated volunteer for Samuel Okafor's surprise party. Today, however, she is doing "
            "the laundry.")
    assert mend_voice(rosa, "Rosa Brody", TOWN)[0].endswith("Today, however, I am doing the laundry.")
    samuel = ("My plans for tomorrow include hosting a surprise party for Grace's 60th birthday. He is currently "
              "planning to invite people without Grace finding out, which he considers a surprise.")
    assert mend_voice(samuel, "Samuel Okafor", TOWN)[0].endswith(
        "I am currently planning to invite people without Grace finding out, which I consider a surprise.")
    samuel = ("I have been preparing for my wife Grace's surprise party. He is eager to surprise her and plans to "
              "play a song for her on the piano.")
    assert mend_voice(samuel, "Samuel Okafor", TOWN)[0].endswith(
        "I am eager to surprise her and plan to play a song for her on the piano.")
    grace = ("I am also worried about my husband, Samuel, and she suspects he is hiding something. "
             "I am preparing for the debate and is worried about her town's budget.")
    assert mend_voice(grace, "Grace Okafor", TOWN)[0] == (
        "I am also worried about my husband, Samuel, and I suspect he is hiding something. "
        "I am preparing for the debate and am worried about my town's budget.")
    # the panel of 86de9fc: "a civics teacher" is what she was, not another
    assert mend_voice("I am no longer a civics teacher at Oakhill College; she is running for a third term as mayor "
                      "against Hank Brody.", "Grace Okafor", replace(TOWN, places=("Oakhill College",)))[0] == (
        "I am no longer a civics teacher at Oakhill College; I am running for a third term as mayor against Hank "
        "Brody.")


def test_a_pronoun_another_may_stand_for_stays() -> None:
    for me, said in (
            ("Grace Okafor", "I would spend an hour with Ines Moreau. Ines is kind, and she is always helpful."),
            ("Rosa Brody", "I admire Felix. He is a talented baker and I admire his work."),
            ("Samuel Okafor", "I love my wife. She is the mayor and he is proud of her work."),  # (who is he?)
            ("Rosa Brody", "I serve the mayor every morning. She is preparing for her debate."),
            ("Rosa Brody", "She is preparing for the debate."),  # (no "I" before it: said of another)
            # the other pronoun is never the speaker (Samuel of his wife on b61bcdc's save)
            ("Samuel Okafor", "I am passionate about my wife's birthday party and am excited to help her plan it."),
            ("Samuel Okafor", "I love the piano. She sings along when I play."),
            # one the town does not know, and "him" (dayU's save, asked of a name no one knows)
            ("Grace Okafor", "I don't know Ezra Vance. I don't have any information about him or his presence."),
            ("Samuel Okafor", "I don't know Ezra Vance. I don't have any information about him or his presence."),
            # a role said with whose it is, and "her" as the one done to (Rosa of Grace on a0d10dc's save had
            # become "I admire my for my leadership")
            ("Rosa Brody", "I think the town's mayor is very kind and fair to everyone, which makes me feel good. "
                           "I admire her for her leadership and dedication to the community."),
            ("Rosa Brody", "I admire her for her leadership."),
    ):
        assert mend_voice(said, me, TOWN) == (said, []), said


def test_a_marriage_and_a_college_the_town_does_not_hold_are_claims():
    # Rosa's introduction on b61bcdc's save: "I am married to Hank Brody and love him" (her father); "a
    # student in the art program at Bluebell College" (the town's college is Oakhill College)
    from game.mind.facts.claims import relation_claims
    from game.mind.facts.unbacked import places_unknown

    [claim] = relation_claims("I am married to Hank Brody and love him.", "Rosa Brody", [], TOWN.people,
                              TOWN.relations)
    assert claim.who == "Hank Brody" and not claim.backed
    [claim] = relation_claims("I am married to Samuel Okafor.", "Grace Okafor", [], TOWN.people, TOWN.relations)
    assert claim.backed
    [claim] = relation_claims("Hank Brody is my father.", "Rosa Brody", [], TOWN.people, TOWN.relations)
    assert claim.backed
    town = TownNames(places=("Oakhill College", "Oakhill College library", "Bluebell Cafe"))
    assert places_unknown("I am also a student in the art program at Bluebell College.", town) == ["Bluebell College"]
    for fine in ("I taught civics at Oakhill College.", "I was at the Oakhill College Library.", "The College is old."):
        assert places_unknown(fine, town) == [], fine


def test_the_one_it_is_for_helping_plan_their_own_surprise_is_no_part_of_theirs():
    # Samuel on b61bcdc's save, asked his job: "excited to help her plan it", "her" his wife, whose party it is
    from dataclasses import replace
    from datetime import date

    from game.mind.facts.fact import Fact
    from game.mind.facts.parts import parts_unbacked

    party = Fact(key="samuel-okafor:party", kind="gathering", what="a surprise party for Grace's 60th birthday",
                 host="Samuel Okafor", place="Bluebell Cafe", day=date(2026, 3, 3), start=18 * 60, end=21 * 60,
                 honoree="Grace Okafor", secret_from=("Grace Okafor",))
    town = replace(TOWN, parts={party.what.lower(): ("Samuel Okafor", "Rosa Brody", "Ines Moreau")})
    said = "I am passionate about my wife's birthday party and am excited to help her plan it."
    assert [why for _, why in parts_unbacked(said, "Samuel Okafor", town, [party])] == [
        "Grace has no part in surprise party for Grace's 60th birthday"]
    for fine in ("I love my wife and I help her every day.",
                 "Rosa Brody is my former piano pupil, and I am grateful she will help me with the party."):
        assert parts_unbacked(fine, "Samuel Okafor", town, [party]) == [], fine


def test_its_own_name_admiring_another_is_i() -> None:
    """Rosa on the afternoon's save of 2026-12-02, asked of the mayor: "Rosa admires Grace" (her relationship's
    words, "the mayor; Rosa admires her", said back in the third person)."""
    from game.mind.interview.asme import as_me
    assert as_me("Rosa admires Grace. She is a good mayor.", "Rosa Brody") == "I admire Grace. She is a good mayor."
    assert as_me("Rosa Brody values the cafe, and Rosa wishes to paint.", "Rosa Brody") == \
        "I value the cafe, and I wish to paint."
