"""A recorded run replays identically twice (and as it ran), and a fork from its middle goes on live."""

from __future__ import annotations

from measure_fakes import measure_model

from game.engine.build import new_engine
from game.engine.events import Whisper
from game.llm.record import RecordingLLM
from game.replay.tape import ReplayTape, fingerprint

TICKS = 150
WHISPER = Whisper("Ada Ito", "I will throw a Valentine party at the cafe")


async def _record(town, path) -> list:
    rec = RecordingLLM(measure_model(), path)
    e = new_engine(town, rec, lockstep=True)
    e.submit(WHISPER)
    out = []
    for _ in range(TICKS):
        await e.wait_ready()
        out.append(e.step())
    assert not e.core.errors, e.core.errors[:3]  # the fake model must answer every request the mind makes
    await e.aclose()
    await rec.aclose()
    return out


async def test_replay_twice_identical_and_fork(measureville, tmp_path):
    rec_path = tmp_path / "run.jsonl"
    live = await _record(measureville, rec_path)
    assert any(r.utterances for r in live), "the recorded run had no conversation"
    tapes = []
    for _ in range(2):
        tape = ReplayTape(str(measureville), str(rec_path), commands=[(0, WHISPER)])
        first = tape.open()
        assert first.step == 0 and len(first.moves) == 3
        await tape.advance(TICKS)
        assert tape.end == TICKS
        tapes.append(tape)
    assert fingerprint(tapes[0].results) == fingerprint(tapes[1].results) == fingerprint(live)

    tape = tapes[0]
    # a frame anywhere is the whole picture: the positions after every move up to it
    mid = 97
    pos = {m.who: m.dst for m in tape.frame(0).moves}
    for r in tape.results_between(0, mid):
        pos.update({m.who: m.dst for m in r.moves})
    f = tape.frame(mid)
    assert {m.who: m.dst for m in f.moves} == pos and f.clock == live[mid - 1].clock
    assert tape.step_at("day 1 07:10") == 60  # 10 s a tick from 07:00
    samples = tape.position_samples(every=1)
    assert len(samples) == TICKS + 1 and samples[mid][1] == pos

    # the memories of a replayed run are those of the run: who knows what, from the tape's engine
    from game.measure.records import rows_of_engine
    from game.measure.spread import Info, track
    sp = track(rows_of_engine(tape._engine), Info.parse("party", "valentine, party"), ["Ada Ito", "Ben Ito", "Cy Moss"])
    assert sp.seeds == ["Ada Ito"]

    # fork from the middle: a live engine with a new model goes on from there
    fresh = measure_model()
    e = await tape.fork(mid, fresh, tmp_path / "fork.save", lockstep=True)
    assert e.core.step_no == mid and e.clock.text() == live[mid - 1].clock
    for _ in range(1500):  # (a decompose call covers two hours of steps: the next may be 2 h away)
        await e.wait_ready()
        e.step()
        if fresh.calls:
            break
    assert fresh.calls, "the fork did not ask its live model in 1500 ticks"
    assert e.core.step_no > mid
    await e.aclose()
    for t in tapes:
        await t.aclose()


async def test_replay_of_a_different_run_says_what_is_missing(measureville, tmp_path):
    rec_path = tmp_path / "run.jsonl"
    await _record(measureville, rec_path)
    tape = ReplayTape(str(measureville), str(rec_path))  # without the whisper: other requests
    tape.open()
    await tape.advance(TICKS)
    e = tape._engine
    errors = list(e.core.errors) + [m.last_error or "" for m in e.core.minds.values()]
    assert any("has no answer" in x or "no embedding" in x for x in errors), errors
    await tape.aclose()


RECORD_SCRIPT = """
import asyncio, sys
sys.path[:0] = [{here!r}, {tests!r}]
from pathlib import Path
from game.engine import build
from measure_fakes import make_town
build.load_world = lambda p: make_town()
import test_replay as t
from game.replay.tape import fingerprint
live = asyncio.run(t._record(Path({town!r}), {rec!r}))
Path({fp!r}).write_text(repr(fingerprint(live)))
"""


async def test_a_run_recorded_in_another_process_replays_identically(measureville, tmp_path):
    """Another process has another string-hash seed: nothing in a request may depend on it."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    here = str(Path(__file__).parent)
    rec, fp = str(tmp_path / "run.jsonl"), tmp_path / "fp.txt"
    code = RECORD_SCRIPT.format(here=here, tests=str(Path(here).parent), town=str(measureville), rec=rec, fp=str(fp))
    env = dict(os.environ, PYTHONHASHSEED="12345")
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=str(Path(here).parents[1]),
                   capture_output=True, timeout=120)
    tape = ReplayTape(str(measureville), rec, commands=[(0, WHISPER)])
    tape.open()
    await tape.advance(TICKS)
    assert not tape._engine.core.errors, tape._engine.core.errors[:2]
    assert repr(fingerprint(tape.results)) == fp.read_text()
    await tape.aclose()
