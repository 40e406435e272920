"""Watching a recorded run: the manifest beside the recording, the tape behind the screen's face,
seeking back and forth, refusing commands, and forking a live town from the step on screen."""

from __future__ import annotations

import json

import pytest
from measure_fakes import measure_model

from game.engine.build import new_engine
from game.engine.engine import CommandError
from game.engine.events import Whisper
from game.engine.running.manifest import ManifestError, RunManifest, manifest_path, write_engine_manifest
from game.llm.record import RecordingLLM
from game.replay.tape import fingerprint, tape_of
from game.replay.watch import WatchEngine

TICKS = 120


async def _record(town, path):
    rec = RecordingLLM(measure_model(), path)
    e = new_engine(town, rec, lockstep=True)
    out = []
    for i in range(TICKS):
        if i == 3:
            e.submit(Whisper("Ada Ito", "I will throw a Valentine party at the cafe"))
        await e.wait_ready()
        out.append(e.step())
    write_engine_manifest(path, e.core, e.commands.log, start=town, small=False)
    await e.aclose()
    await rec.aclose()
    return out


async def test_watch_a_recorded_run_seek_and_fork(measureville, tmp_path):
    rec = tmp_path / "run.jsonl"
    live = await _record(measureville, rec)
    m = RunManifest.load(rec)
    assert m.end_step == TICKS and [(at, type(c).__name__) for at, c in m.commands] == [(3, "Whisper")]

    w = WatchEngine.of_recording(rec)
    assert m.same_code and w.warning is None  # recorded by this very code
    assert w.at == 0 and set(w.positions()) == {"Ada Ito", "Ben Ito", "Cy Moss"}
    watched = [await w.step_async() for _ in range(TICKS + 5)]  # five past the end: the clock stands
    assert fingerprint(watched[:TICKS]) == fingerprint(live)
    assert w.at == TICKS and w.at_end and not watched[-1].moves and w.clock.text() == live[-1].clock

    # back to the middle: one whole picture, the clock of that step
    mid = await w.seek(50)
    assert w.at == 50 and mid.clock == live[49].clock and len(mid.moves) == 3
    assert w.clock.text() == live[49].clock
    assert w.step_at("day 1 07:05") == 30  # 10 s a tick from 07:00
    assert w.step_at("07:05") == 30
    with pytest.raises(ValueError):
        w.step_at("teatime")
    card = w.inspect("Ada Ito")
    assert card.name == "Ada Ito" and card.place and card.plan

    with pytest.raises(CommandError, match="fork"):
        w.submit(Whisper("Ada Ito", "hello"))
    with pytest.raises(CommandError):
        w.save(tmp_path / "x.save")

    engine = await w.fork(measure_model(), tmp_path / "fork.save")
    assert engine.core.step_no == 50 and engine.clock.text() == live[49].clock
    await engine.wait_ready()
    engine.step()  # it goes on live
    assert engine.core.step_no == 51
    await engine.aclose()
    await w.aclose()


def test_a_run_that_cannot_be_watched_says_why(tmp_path, measureville):
    rec = tmp_path / "run.jsonl"
    with pytest.raises(ManifestError, match="no such recording"):
        RunManifest.load(rec)
    rec.write_text("")
    with pytest.raises(ManifestError, match="run.json"):
        RunManifest.load(rec)
    manifest_path(rec).write_text("{not json")
    with pytest.raises(ManifestError, match="damaged"):
        RunManifest.load(rec)
    manifest_path(rec).write_text(json.dumps({"format": "town-run", "version": 1, "start": str(tmp_path / "gone"),
                                              "commands": [], "end_step": 3}))
    with pytest.raises(ManifestError, match="not there"):
        tape_of(rec)
    manifest_path(rec).write_text(json.dumps({"format": "town-run", "version": 1, "start": str(measureville),
                                              "commands": [], "end_step": 3, "code": "0123"}))
    assert not RunManifest.load(rec).same_code  # made by another version: the watch screen says so
    manifest_path(rec).write_text(json.dumps({"format": "town-run", "version": 1, "start": str(measureville),
                                              "commands": [[0, {"type": "Teleport"}]], "end_step": 3}))
    with pytest.raises(ManifestError, match="unknown command"):
        RunManifest.load(rec)
