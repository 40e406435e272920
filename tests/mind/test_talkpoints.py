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


async def test_a_tagged_talk_has_each_line_name_one_of_its_own_speakers_points_or_reply():
    # issue 39: the line names what it brings up before its words, and the schema offers each speaker
    # only its own points' tags, so a line cannot carry another's point as its own
    from dataclasses import replace

    from game.llm.answers import strict_schema
    from game.mind.talk.points import point_tags
    from game.mind.view import Conversation

    seen: dict = {}

    def answer(messages, schema, tag):
        seen["schema"], seen["prompt"] = strict_schema(schema), messages[-1].content
        return {"lines": [{"speaker": "Samuel", "point": "Samuel 1", "say": "The party at Bluebell Cafe is set."},
                          {"speaker": "Ines", "point": "reply", "say": "Good, I will have the cake ready."},
                          {"speaker": "Samuel", "point": "Samuel 2", "say": "Lovely weather."}],
                "matters": "notable"}

    engine = build_engine(read_input(str(default_town_path())),
                          FakeModel({"converse": [answer]}, otherwise="town"), lockstep=True)
    try:
        now = engine.clock.now
        minds = engine.core.minds
        for m in minds.values():
            m.core.use_config(replace(m.core.config, talk_tagged=True))
        samuel, ines = minds["Samuel Okafor"], minds["Ines Moreau"]
        conv = Conversation(id="t", participants=["Samuel Okafor", "Ines Moreau"], place="", lines=[], started=now)
        script = await samuel.converse(now, conv, {"Ines Moreau": await ines.talk_side(now, ["Samuel Okafor"])})
        prompt = seen["prompt"]
        assert "- (Samuel 1) Samuel's own surprise party" in prompt and "(Ines 1)" in prompt
        assert '"point": "Tom 1"' in prompt  # the example names its points too
        kinds = [seen["schema"]["$defs"][ref["$ref"].rsplit("/", 1)[1]]
                 for ref in seen["schema"]["properties"]["lines"]["items"]["anyOf"]]
        tags = {k["properties"]["speaker"]["enum"][0]: k["properties"]["point"]["enum"] for k in kinds}
        assert tags["Samuel"][0] == "reply" and all(t.startswith("Samuel ") for t in tags["Samuel"][1:])
        assert all(t.startswith("Ines ") for t in tags["Ines"][1:]) and len(tags["Ines"]) > 1
        assert dict(point_tags(prompt, ["Samuel", "Ines"])) == {k: tuple(v[1:]) for k, v in tags.items()}
        assert [who for who, _ in script.lines][:2] == ["Samuel Okafor", "Ines Moreau"]
        # "Lovely weather." shares no word with the point it names: counted, to tell how the tags are used
        assert samuel.core.stats["script_point_unworded"] == 1
    finally:
        await engine.aclose()
