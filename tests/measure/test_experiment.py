"""`town experiment`: scenario files checked with clear messages, a whole small experiment on a fake
model giving the paper's table, and a rerun from its recording giving the same table with no model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.experiment.runner import prepare, run_experiment
from game.experiment.scenario import ScenarioError, load_scenario, parse_scenario
from game.experiment.table import format_table, rows

MINIMAL = """
name = "t"
[town]
map = "measureville"
[run]
until = "day 1 08:00"
"""


def _write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def _error(tmp_path: Path, text: str) -> str:
    p = _write(tmp_path, text)
    with pytest.raises(ScenarioError) as e:
        prepare(load_scenario(p), tmp_path / "out")
    msg = str(e.value)
    assert msg.startswith(str(p)), msg  # the file is named
    return msg


def test_a_minimal_scenario_is_read_with_its_defaults(measureville):
    s = load_scenario(_write(measureville.parent, MINIMAL))
    assert s.town.cast == "all" and s.run.pace == "lockstep" and s.seed == [] and s.run.until == "day 1 08:00"
    assert s.town_path() == measureville.resolve()  # relative to the file


@pytest.mark.parametrize("text, key, words", [
    ("name = 't'\n[run]\nuntil = 'day 1 08:00'\n", "town", "is missing"),
    (MINIMAL.replace('until = "day 1 08:00"', ""), "run.until", "is missing"),
    (MINIMAL.replace("day 1 08:00", "tomorrow"), "run.until", "is not a game time"),
    (MINIMAL.replace("day 1 08:00", "day 1 25:00"), "run.until", "is not a time of day"),
    (MINIMAL.replace("day 1 08:00", "day 0 08:00"), "run.until", "days count from 1"),
    (MINIMAL + "pace = 'fast'\n", "run.pace", "'lockstep' or 'play'"),
    (MINIMAL + "sample_every = 'often'\n", "run.sample_every", "integer"),
    (MINIMAL + "unti = 'day 1 09:00'\n", "run.unti", "not a key of a scenario"),
    (MINIMAL.replace('map = "measureville"', 'map = "measureville"\nsave = "x.save"'), "town",
     "exactly one of"),
    (MINIMAL.replace('map = "measureville"', 'map = "measureville"\nstart = "7am"'), "town.start",
     "not a time of day"),
    (MINIMAL + "[[seed]]\nkind = 'thought'\ntext = 'hi'\n", "seed[0]", "needs 'resident'"),
    (MINIMAL + "[[seed]]\nkind = 'rumour'\nresident = 'Ada'\ntext = 'hi'\n", "seed[0].kind", "'thought'"),
    (MINIMAL + "[[seed]]\nkind = 'thought'\nresident = 'Ada'\ntext = '  '\n", "seed[0].text", "is empty"),
    (MINIMAL + "[[seed]]\nkind = 'thought'\nresident = 'Ada'\ntext = 'x'\nat = 'day 1 09:00'\n", "seed[0].at",
     "not before run.until"),
    (MINIMAL + "[[question]]\nask = 'hm?'\nabout = 'party'\n", "question[0].about", "no info named 'party'"),
    (MINIMAL + "[[question]]\nask = 'hm?'\n[[question]]\nask = 'hm?'\n", "question[1]", "same question as question[0]"),
    (MINIMAL + "[[info]]\nname = 'p'\nkeywords = []\n", "info[0].keywords", "at least 1"),
    (MINIMAL + "[[info]]\nname = 'p'\nkeywords = ['valentine', 'party']\n"
     "[[question]]\nask = 'Did you hear of a Valentine party?'\nabout = 'p'\n", "question[0]",
     "would count as knowing"),
    (MINIMAL + "[attendance]\nplace = 'Cafe'\nstart = 'day 1 09:00'\nend = 'day 1 08:00'\n", "attendance",
     "'end' must be after 'start'"),
])
def test_bad_scenarios_name_the_file_the_key_and_the_problem(measureville, text, key, words):
    msg = _error(measureville.parent, text)
    assert key in msg and words in msg, msg


def test_not_toml_and_missing_file(tmp_path):
    with pytest.raises(ScenarioError, match="not valid TOML"):
        load_scenario(_write(tmp_path, "name = \n"))
    with pytest.raises(ScenarioError, match="cannot be read"):
        load_scenario(tmp_path / "nope.toml")


@pytest.mark.parametrize("extra, key, words", [
    ("[[seed]]\nkind = 'thought'\nresident = 'Zed Zorro'\ntext = 'x'\n", "seed[0].resident",
     "no resident called 'Zed Zorro'"),
    ("[[seed]]\nkind = 'object'\ntext = 'the piano is out of tune'\n", "seed[0].text", "no object"),
    ("[attendance]\nplace = 'Town Hall'\nstart = 'day 1 07:00'\nend = 'day 1 08:00'\n", "attendance.place",
     "no place called 'Town Hall'"),
])
def test_names_and_places_are_checked_against_the_town(measureville, extra, key, words):
    msg = _error(measureville.parent, MINIMAL + extra)
    assert key in msg and words in msg, msg


def test_a_named_cast_must_live_in_the_town_and_seeds_must_be_in_the_cast(measureville):
    msg = _error(measureville.parent, MINIMAL.replace('map = "measureville"',
                                                      'map = "measureville"\ncast = ["Ada Ito", "Max"]'))
    assert "town.cast[1]" in msg and "no resident called 'Max'" in msg
    msg = _error(measureville.parent, MINIMAL.replace('map = "measureville"', 'map = "measureville"\ncast = "small"')
                 + "[[seed]]\nkind = 'memory'\nresident = 'Cy Moss'\ntext = 'x'\n")
    assert "seed[0].resident" in msg and "no resident called 'Cy Moss'" in msg


def test_the_start_and_the_end_must_make_a_run(measureville):
    msg = _error(measureville.parent, MINIMAL.replace('map = "measureville"',
                                                      'map = "measureville"\nstart = "09:00"'))
    assert "run.until" in msg and "is not after the start" in msg


def test_a_missing_town(tmp_path):
    msg = _error(tmp_path, MINIMAL.replace("measureville", "elsewhere"))
    assert "town.map" in msg and "does not exist" in msg


def test_pure_parse_lists_every_problem():
    with pytest.raises(ScenarioError) as e:
        parse_scenario({"name": "x", "town": {"map": 3}, "run": {"until": "day 1 8:00", "pace": 1}}, "mem.toml")
    msg = str(e.value)
    assert msg.startswith("mem.toml:") and "town.map" in msg and "run.pace" in msg


SMALL = """
name = "Measureville: a party"
[town]
map = "measureville"
start = "07:00"
[run]
until = "day 1 08:00"
sample_every = 3
save_every = 20
[[seed]]
kind = "thought"
resident = "Ada"
text = "I am throwing a party at the Cafe tonight and I will tell everyone."
[[seed]]
kind = "memory"
resident = "Cy Moss"
text = "The council elects a new treasurer next week."
importance = 6
at = "day 1 07:05"
[[seed]]
kind = "object"
text = "the stove is on fire"
at = "day 1 07:10"
[[seed]]
kind = "player"
resident = "Ben Ito"
text = "Hello Ben, lovely morning."
visitor = "Vera"
at = "day 1 07:15"
[[info]]
name = "party"
keywords = ["party", "cafe"]
paper = "party"
[[info]]
name = "treasurer"
keywords = ["treasurer"]
paper = "candidacy"
[[question]]
ask = "Did you hear about a party?"
about = "party"
[[question]]
ask = "Who will be the new treasurer?"
about = "treasurer"
expect = ["treasurer", "cy"]
[[question]]
ask = "Tell me about yourself."
[attendance]
place = "Cafe"
start = "day 1 07:30"
end = "day 1 08:00"
invited = "party"
"""


def answering(user: str) -> str:
    """Interviews answered the way the scoring must tell apart: about the party from what it
    remembers (or "I haven't heard of any party"), about the treasurer always with the same claim
    (true for Cy Moss, who was given the memory; invented for the others)."""
    question = user.rsplit("asks", 1)[-1]
    if "treasurer" in question:
        return "I heard Cy will be the new treasurer."
    if "party" in question:
        remembered = user.split("You remember:", 1)[-1].splitlines()
        hit = next((ln[2:] for ln in remembered if "party" in ln.lower()), None)
        return f"Yes: {hit}" if hit else "No, I haven't heard of any party."
    return "I am well, thank you."


def answering_fake(**options):
    """The measure tests' fake model, answering interviews with ``answering``."""
    from measure_fakes import measure_model

    return measure_model(interview=answering, **options)


async def _experiment(town_dir: Path, llm, out: Path, **kw) -> dict:
    scenario = load_scenario(_write(town_dir.parent, SMALL, "small.toml"))
    return await run_experiment(prepare(scenario, out), llm, out, progress=None, **kw)


async def test_a_small_experiment_on_a_fake_model_gives_the_table_and_replays_the_same(measureville, tmp_path):
    from game.llm.record import RecordingLLM, ReplayLLM

    rec = tmp_path / "out" / "recording.jsonl"
    rec.parent.mkdir()
    llm = RecordingLLM(answering_fake(), rec)
    result = await _experiment(measureville, llm, tmp_path / "out", record=str(rec))
    await llm.aclose()

    assert result["errors"] == [] and result["ticks"] == 360
    assert result["residents"] == ["Ada Ito", "Ben Ito", "Cy Moss"]
    assert [s["seed"] for s in result["seeded"]] == [0, 1, 2, 3]
    assert "Vera to Ben Ito" in result["seeded"][3]["what"] and "stove" in result["seeded"][2]["what"]
    party, treasurer = result["diffusion"]
    assert party["start"] == 1 and party["knew"][0]["resident"] == "Ada Ito" and party["knew"][0]["how"] == "whisper"
    assert party["by_memory"] >= 2  # the fake's talk spreads "a party at the cafe"
    assert treasurer["by_memory"] == 1 and treasurer["knew"][0]["resident"] == "Cy Moss"
    # every resident answered every question: the treasurer claim is backed by a memory for Cy Moss
    # only (invented for the others); the party is known by those who remember it
    answers = result["answers"]
    assert len(answers) == 9
    for a in answers:
        if a["about"] == "treasurer":
            assert a["verdict"] == ("knows" if a["resident"] == "Cy Moss" else "invented"), a
            assert a["backed"] == (a["resident"] == "Cy Moss")
        elif a["about"] == "party":
            assert a["verdict"] == ("knows" if a["answer"].startswith("Yes") else "does not know"), a
            assert a["verdict"] != "knows" or a["backed"], a
        else:
            assert a["verdict"] == "unscored"
    assert any(a["about"] == "party" and a["verdict"] == "knows" for a in answers)
    assert party["by_interview"] == sum(a["about"] == "party" and a["verdict"] == "knows" for a in answers)
    cy = next(a for a in answers if a["about"] == "treasurer" and a["resident"] == "Cy Moss")
    assert cy["how"] == "saw" and "treasurer" in cy["memory"]
    h = result["hallucination"]
    assert h["scored"] == 6 and h["invented"] == 2 and h["share"] == round(2 / 6, 4)
    assert 0 <= result["density"]["start"] <= result["density"]["end"] <= 1
    att = result["attendance"]
    assert att["place"] == "Cafe" and att["observed"] and set(att["invited_came"]) <= set(att["invited"])
    assert result["model_use"]["available"] and result["model_use"]["calls_per_resident_day"] > 0
    assert result["model_use"]["evaluated_per_resident_day"] >= 0
    assert "evaluated_tokens" in result["model_use"]["by_purpose"]["plan_day"]
    assert "interview" not in [p for p in result["model_use"]["by_purpose"] if p not in ("interview",)]
    assert result["model_led"]["samples"] > 0
    table = format_table(result)
    for words in ("Park et al. 2023", "knew of party (interviews)", "knows [learned: told by Ada Ito at 07:",
                  "4% -> 48%", "0.167 -> 0.74", "5 of 12 invited", "1.3%", "invented answers",
                  "chat calls per resident-day", "model-led"):
        assert words in table, table
    out = tmp_path / "out"
    assert (out / "town.save").is_file() and (out / "town.save.positions.jsonl").is_file()
    assert json.loads((out / "result.json").read_text())["scenario"] == "Measureville: a party"
    assert (Path(str(rec) + ".usage.json")).is_file()
    assert not Path(str(rec) + ".run.json").exists()  # a seeded memory: `town play --watch` could not redo it

    # the same scenario from the recording, with no model: the same town, answers and table
    async with ReplayLLM(rec) as replay:
        again = await _experiment(measureville, replay, tmp_path / "again", replay=str(rec))
    assert again["errors"] == []
    recorded = ("chat calls per resident-day", "tokens per resident-day", "  of them evaluated by the server")
    assert rows(again) == [(m, f"{v} (recorded run)" if m in recorded else v, p) for m, v, p in rows(result)]
    assert outside_the_table(format_table(again)) == outside_the_table(format_table(result))
    for k in ("answers", "diffusion", "density", "attendance", "hallucination", "model_led", "seeded"):
        assert again[k] == result[k], k


def outside_the_table(text: str) -> list[str]:
    """The lines of ``format_table`` outside its rich table: the header line, the errors, the answers."""
    return [ln for ln in text.splitlines() if not ln.startswith(("┏", "┃", "┡", "│", "└"))]


ROOT = Path(__file__).resolve().parents[2]


def test_the_whole_day_scenario_asks_the_next_window_ahead_in_lockstep(tmp_path):
    from datetime import timedelta

    from measure_fakes import measure_model

    from game.experiment.runner import open_engine

    p = prepare(load_scenario(ROOT / "scenarios" / "small-cast-day.toml"), tmp_path)
    assert p.scenario.run.ahead_min == 15 and p.scenario.run.pace == "lockstep"
    engine = open_engine(p, measure_model())
    assert engine.lockstep and engine.lookahead.ahead == timedelta(minutes=15)
    p = prepare(load_scenario(ROOT / "scenarios" / "millbrook-small.toml"), tmp_path)
    assert open_engine(p, measure_model()).lookahead.ahead is None  # by default, asked when the steps run out


def test_the_shipped_small_scenario_validates_against_the_default_town(tmp_path):
    p = prepare(load_scenario(ROOT / "scenarios" / "millbrook-small.toml"), tmp_path)
    assert p.cast == ["Grace Okafor", "Hank Brody", "Ines Moreau", "Rosa Brody", "Samuel Okafor"]
    assert p.start is not None and f"{p.start:%H:%M}" == "07:00"


async def test_the_paper_scenario_imports_smallville_validates_and_starts(tmp_path):
    from measure_fakes import measure_model

    scenario = load_scenario(ROOT / "scenarios" / "smallville-valentine.toml")
    if not scenario.town_path().is_dir():
        pytest.skip(f"the original Smallville is not at {scenario.town_path()}")
    p = prepare(scenario, tmp_path)
    assert len(p.cast) == 25 and "Isabella Rodriguez" in p.cast and "Sam Moore" in p.cast
    short = scenario.model_copy(update={"run": scenario.run.model_copy(update={"until": "day 1 06:03"})})
    p.scenario = short
    result = await run_experiment(p, measure_model(), tmp_path, progress=None)
    assert result["errors"] == [] and result["ticks"] == 18 and len(result["residents"]) == 25
    # Isabella; Sam and his wife Jennifer, whose first memories in the original data say he is running
    assert [[x["resident"] for x in d["knew"] if x["at"] <= "2023-02-13T06:00:00"] for d in result["diffusion"]] \
        == [["Isabella Rodriguez"], ["Jennifer Moore", "Sam Moore"]]
    assert [d["start"] for d in result["diffusion"]] == [1, 2]
    assert len(result["answers"]) == 50 and result["attendance"]["place"] == "Hobbs Cafe"
    assert not result["attendance"]["observed"]  # the party is tomorrow
    assert "(the run did not reach the event)" in format_table(result)


def test_the_command_replays_a_recording_and_refuses_a_bad_scenario(measureville, tmp_path, capsys):
    import asyncio

    from measure_fakes import measure_model

    from game.cli import main
    from game.llm.record import RecordingLLM

    rec = tmp_path / "rec.jsonl"

    async def record() -> dict:
        llm = RecordingLLM(measure_model(), rec)
        try:
            return await _experiment(measureville, llm, tmp_path / "first", record=str(rec))
        finally:
            await llm.aclose()
    first = asyncio.run(record())
    scenario = str(measureville.parent / "small.toml")
    assert main(["experiment", scenario, "--replay", str(rec), "--out", str(tmp_path / "cli")]) == 0
    out, err = capsys.readouterr()
    assert format_table(first).split("\n")[0] in out and "4% -> 48%" in out
    assert "100%" in err and "ETA" in err  # the progress bar, on stderr
    assert main(["experiment", scenario, "--replay", str(rec), "--json", "--out", str(tmp_path / "j")]) == 0
    assert json.loads(capsys.readouterr().out)["answers"] == first["answers"]

    assert main(["experiment", scenario, "--replay", str(rec), "--out", str(tmp_path / "cli")]) == 2
    assert "already holds an experiment" in capsys.readouterr().err
    assert main(["experiment", scenario, "--record", str(rec), "--out", str(tmp_path / "new")]) == 2
    assert "already holds a recording" in capsys.readouterr().err

    bad = _write(tmp_path, MINIMAL.replace("day 1 08:00", "day 1 8am"), "bad.toml")
    assert main(["experiment", str(bad), "--replay", str(rec)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "run.until" in err and "Traceback" not in err


async def test_play_pace_runs_on_the_clock_and_cannot_be_replayed(measureville, tmp_path, capsys):
    from measure_fakes import measure_model

    from game.cli import main

    text = MINIMAL.replace('until = "day 1 08:00"', 'until = "day 1 07:05"\npace = "play"\nticks_per_second = 500')
    scenario = load_scenario(_write(measureville.parent, text + "[[question]]\nask = 'How are you?'\n", "play.toml"))
    result = await run_experiment(prepare(scenario, tmp_path / "o"), measure_model(), tmp_path / "o", progress=None)
    assert result["pace"] == "play" and result["ticks"] == 30 and result["errors"] == []
    assert len(result["answers"]) == 3 and result["hallucination"]["scored"] == 0
    rec = tmp_path / "r.jsonl"
    rec.write_text("")
    assert main(["experiment", str(measureville.parent / "play.toml"), "--replay", str(rec)]) == 2
    assert "cannot be replayed" in capsys.readouterr().err


async def test_a_named_cast_with_first_names_and_a_scenario_that_continues_a_save(measureville, tmp_path):
    from measure_fakes import measure_model

    text = MINIMAL.replace('map = "measureville"', 'map = "measureville"\ncast = ["ada", "Cy Moss"]') \
        .replace("day 1 08:00", "day 1 07:10")
    scenario = load_scenario(_write(measureville.parent, text + "[[question]]\nask = 'How are you?'\n"))
    p = prepare(scenario, tmp_path / "a")
    assert p.cast == ["Ada Ito", "Cy Moss"]
    first = await run_experiment(p, measure_model(), tmp_path / "a", progress=None)
    assert first["residents"] == ["Ada Ito", "Cy Moss"] and first["errors"] == [] and len(first["answers"]) == 2

    save = tmp_path / "a" / "town.save"
    text = f'name = "more"\n[town]\nsave = "{save}"\n[run]\nuntil = "day 1 07:20"\n' \
           "[[seed]]\nkind = 'thought'\nresident = 'Cy'\ntext = 'I will paint the cafe blue.'\n"
    scenario = load_scenario(_write(tmp_path, text, "more.toml"))
    p = prepare(scenario, tmp_path / "b")
    assert p.is_save and p.cast == ["Ada Ito", "Cy Moss"]
    more = await run_experiment(p, measure_model(), tmp_path / "b", progress=None)
    assert more["start"].endswith("07:10:00") and more["end"].endswith("07:20:00") and more["ticks"] == 60
    assert more["seeded"][0]["what"] == "inner voice to Cy Moss: I will paint the cafe blue."

    with pytest.raises(ScenarioError, match="seed\\[0\\].at: day 1 07:00 is before the start"):
        prepare(load_scenario(_write(tmp_path, text.replace("text = 'I", "at = 'day 1 07:00'\ntext = 'I"),
                                     "early.toml")), tmp_path / "c")
    with pytest.raises(ScenarioError, match="town: 'cast' is for a new town"):
        load_scenario(_write(tmp_path, text.replace("[run]", "cast = 'small'\n[run]"), "cast.toml"))


@pytest.mark.parametrize("answer, verdict", [
    ("Yes, Isabella is hosting a Valentine's Day party at Hobbs Cafe.", "knows"),
    ("Sam Moore is running for mayor; I don't know if he will win. Isabella's party is at Hobbs Cafe.", "knows"),
    ("Isabella told me about her party, but I'm not sure I will go.", "knows"),
    ("I haven't heard of any party at Hobbs Cafe.", "does not know"),
    ("I\u2019m not aware of a party Isabella is throwing.", "does not know"),
    ("No idea. Is Isabella throwing a party?", "does not know"),  # a question of its own states nothing
    ("I am going to the library.", "does not know"),
])
def test_scoring_an_answer(answer, verdict):
    from datetime import datetime

    from game.experiment.score import score_answer
    from game.measure.spread import Info, Learned

    facts = Info.parse("party", ["party", "isabella", "hobbs"])
    backing = Learned("Ana", datetime(2023, 2, 13, 9), "told", "Isabella Rodriguez", 4, "Isabella told me: a party")
    v = score_answer("Ana", "Did you know there is a party?", answer, "party", facts, backing)
    assert v.verdict == verdict and v.backed and v.source == "Isabella Rodriguez"
    alone = score_answer("Ana", "Did you know there is a party?", answer, "party", facts, None)
    assert alone.verdict == {"knows": "invented"}.get(verdict, verdict) and not alone.backed


async def test_a_failed_interview_is_counted_apart(measureville, tmp_path):
    from game.llm.api import ModelTimeout

    def ben_fails(messages, schema, tag):
        if tag.resident == "Ben Ito":
            raise ModelTimeout("the fake model timed out")
        return {"answer": answering(messages[-1].content)}

    text = MINIMAL.replace("day 1 08:00", "day 1 07:05") + (
        "[[info]]\nname = 'treasurer'\nkeywords = ['treasurer']\n"
        "[[question]]\nask = 'Who will be the new treasurer?'\nabout = 'treasurer'\nexpect = ['treasurer', 'cy']\n")
    scenario = load_scenario(_write(measureville.parent, text))
    result = await run_experiment(prepare(scenario, tmp_path / "o"), answering_fake(script={"interview": ben_fails}),
                                  tmp_path / "o", progress=None)
    ben = next(a for a in result["answers"] if a["resident"] == "Ben Ito")
    assert ben["verdict"] == "no answer" and ben["answer"] == ""
    h = result["hallucination"]
    assert h == {"invented": 2, "scored": 2, "answers": 3, "no_answer": 1, "share": 1.0}
    table = format_table(result)
    assert "1 not answered" in table and "Ben Ito: no answer (the model failed)" in table


async def test_a_recorded_experiment_of_commands_can_be_watched(measureville, tmp_path):
    from game.llm.record import RecordingLLM
    from game.replay.tape import fingerprint, tape_of

    text = MINIMAL.replace("day 1 08:00", "day 1 07:20") \
        .replace('map = "measureville"', 'map = "measureville"\ncast = "small"') \
        + "[[seed]]\nkind = 'thought'\nresident = 'Ada'\ntext = 'I will paint the cafe blue.'\nat = 'day 1 07:05'\n"
    scenario = load_scenario(_write(measureville.parent, text))
    rec = tmp_path / "rec.jsonl"
    llm = RecordingLLM(answering_fake(), rec)
    result = await run_experiment(prepare(scenario, tmp_path / "o"), llm, tmp_path / "o", progress=None,
                                  record=str(rec))
    await llm.aclose()
    assert result["residents"] == ["Ada Ito", "Ben Ito"] and result["ticks"] == 120
    tape, end = tape_of(rec)  # the manifest beside the recording: the whisper at its step
    tape.open()
    first = await tape.advance(end)
    assert end == 120 and not tape._engine.core.errors
    assert any("inner voice to Ada Ito" in line.text for r in first for line in r.log)
    tape2, _ = tape_of(rec)
    tape2.open()
    assert fingerprint(await tape2.advance(end)) == fingerprint(first)
    await tape.aclose()
    await tape2.aclose()


async def test_the_shipped_small_scenario_on_the_default_town_replays_to_the_same_table(tmp_path):
    """The whole small scenario on Millbrook on the fake model, then again from its recording: the
    same table (this caught the recorder handing the run full-precision vectors and the replay
    rounded ones, which reordered near-equal memories)."""
    from game.llm.record import RecordingLLM, ReplayLLM

    scenario = load_scenario(ROOT / "scenarios" / "millbrook-small.toml")
    rec = tmp_path / "rec.jsonl"
    llm = RecordingLLM(answering_fake(), rec)
    first = await run_experiment(prepare(scenario, tmp_path / "a"), llm, tmp_path / "a", progress=None,
                                 record=str(rec))
    await llm.aclose()
    assert first["errors"] == [] and first["ticks"] == 2340 and len(first["answers"]) == 15
    async with ReplayLLM(rec) as replay:
        again = await run_experiment(prepare(scenario, tmp_path / "b"), replay, tmp_path / "b", progress=None,
                                     replay=str(rec))
    assert again["errors"] == []
    assert [tuple(c.replace(" (recorded run)", "") for c in r) for r in rows(again)] == rows(first)
    assert outside_the_table(format_table(again)) == outside_the_table(format_table(first))
