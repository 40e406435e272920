"""The talk bench (game/measure/talkbench.py): a save's talks asked again and vetted as the engine
vets them, on a fake model that misattributes as the embedded one did."""

from fake_model import FakeModel

from game.engine.build import build_engine, read_input
from game.measure.records import SaveData
from game.measure.talkbench import ask_talk, pairs
from game.world import default_town_path


def test_the_talks_of_a_save_are_its_residents_with_the_one_who_began_first():
    save = SaveData(path="s", meta={}, residents=["Grace Okafor", "Hank Brody", "Rosa Brody"], memories=[],
                    conversations=[{"participants": ["Grace Okafor", "Hank Brody"], "lines": [["Hank Brody", "Hi."]]},
                                   {"participants": ["Rosa Brody", "the visitor"], "lines": [["Rosa Brody", "Hi."]]},
                                   {"participants": ["Grace Okafor", "Rosa Brody"], "lines": []}])
    assert pairs(save) == [["Hank Brody", "Grace Okafor"]]


async def test_a_talk_asked_again_is_vetted_as_the_engine_vets_it():
    said = [{"speaker": "Grace", "say": "Hello Hank! I'll be meeting with the mayor there. How is the store?"},
            {"speaker": "Hank", "say": "Busy, Grace. See you at the debate."}]
    llm = FakeModel({"converse": [{"lines": said, "matters": "minor"}]})
    engine = build_engine(read_input(str(default_town_path()), small=True), llm, lockstep=True)
    try:
        lines = await ask_talk(engine, ["Grace Okafor", "Hank Brody"], 0)
    finally:
        await engine.aclose()
    assert [(s, t) for s, t, _ in lines] == [("Grace Okafor", "Hello Hank! How is the store?"),
                                            ("Hank Brody", "Busy, Grace. See you at the debate.")]
    assert "misattributed: Grace Okafor is the mayor" in lines[0][2]
    assert llm.purposes().count("converse") == 1


async def test_the_bench_reads_each_line_against_the_saves_facts_and_memories(tmp_path):
    # on c59f68b's save the bench read "party" as unbacked in every line of those who hold it: it
    # gave the audit's reading no facts and no memories
    from game.measure.talkbench import bench
    from game.mind.view import Conversation

    said = [{"speaker": "Rosa", "say": "Samuel is hosting the surprise party at Bluebell Cafe on Tuesday."},
            {"speaker": "Ines", "say": "Yes, and I am lending the cafe for it."}]
    llm = FakeModel({"converse": [{"lines": said, "matters": "minor"}] * 2})
    engine = build_engine(read_input(str(default_town_path())), llm, lockstep=True)
    try:
        talk = Conversation("c1", ["Rosa Brody", "Ines Moreau"])
        talk.lines.append(("Rosa Brody", "Hi."))
        engine.conversations.finished_talks.append(talk)
        path = engine.save(tmp_path / "t.save")
    finally:
        await engine.aclose()
    talks, totals = await bench(llm, str(path))
    assert totals["talks"] == 1 and totals["lines_said"] >= 1
    assert "unbacked event" not in totals["verdicts"]
