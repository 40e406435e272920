"""Talking points (game/mind/talk/points.py): what a resident may bring up, whose each point is, and
nothing kept from a listener, on the default town's declared events."""

from fake_model import FakeModel

from game.engine.build import build_engine, read_input
from game.mind.talk.points import render_points, talking_points
from game.world import default_town_path


async def test_points_say_whose_each_is_and_keep_the_surprise_from_the_one_it_is_for():
    engine = build_engine(read_input(str(default_town_path())), FakeModel(), lockstep=True)
    try:
        now = engine.clock.now
        samuel, rosa = engine.core.minds["Samuel Okafor"].core, engine.core.minds["Rosa Brody"].core
        to_ines = talking_points(samuel, now, ["Ines Moreau"], "playing the piano")
        assert to_ines[0].startswith("Samuel's own surprise party for Grace's 60th birthday at Bluebell Cafe")
        assert "Samuel is playing the piano" in to_ines
        to_grace = " ".join(talking_points(samuel, now, ["Grace Okafor"]))
        assert "party" not in to_grace and "surprise" not in to_grace and "secret" not in to_grace.lower()
        # the party is Samuel's to speak of: Rosa, with him, has her own part in it
        with_samuel = talking_points(rosa, now, ["Samuel Okafor"])
        assert not any(p.startswith("Samuel Okafor's surprise party") for p in with_samuel)
        assert "Rosa Brody is helping Samuel Okafor prepare Grace's surprise party" in " ".join(with_samuel)
        assert any(p.startswith("Samuel Okafor's surprise party") for p in talking_points(rosa, now, ["Ines Moreau"]))
        # a persona's sentence it keeps to itself is not a point ("secretly plans to vote for Grace")
        assert not any("vote" in p for p in talking_points(rosa, now, ["Hank Brody"]))
        assert render_points("Rosa", ["a", "b"]) == "Rosa's own to bring up:\n- a\n- b"
    finally:
        await engine.aclose()


def test_what_a_persona_keeps_to_itself_is_not_on_its_side_of_a_talk():
    from game.mind.talk.points import public

    said = ("Kenji Tanaka (age 39). Kenji Tanaka is the pharmacist. Kenji Tanaka secretly writes the anonymous "
            "'Millbrook Owl' column.")
    assert public(said) == "Kenji Tanaka (age 39). Kenji Tanaka is the pharmacist."
