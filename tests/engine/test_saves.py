"""Saves: round trip, atomicity, refusing bad files, and forks that continue identically."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from engine_fakes import engine_model, ticks

from game.engine import saves as save_mod
from game.engine.build import load_engine, new_engine
from game.engine.engine import Engine
from game.engine.events import EnterAsVisitor, SaveTown, SayToResident, SetObjectState, Whisper
from game.engine.saves import SaveError, describe_save
from game.llm.record import RecordingLLM, ReplayLLM

HERE = Path(__file__).parent


def state(e: Engine) -> dict:
    """Everything that must survive a save, as comparable plain data."""
    out = {"clock": e.clock.to_dict(), "step": e.core.step_no, "rng": e.core.rng.getstate(), "embodied": e.embodied,
           "player": None if e.player is None else (e.player.name, e.player.description, tuple(e.player.pos)),
           "objects": e.town.objects.to_dict(), "talks": {k: (t.conv.participants, t.conv.lines, t.turn)
                                                          for k, t in e.conversations.talks.items()},
           "jobs": sorted((j.resident, j.kind, j.ready_at, json.dumps(j.args), j.observations)
                          for j in e.board.jobs.values())}
    for n, r in e.core.residents.items():
        mind = e.core.minds[n]
        out[n] = {
            "pos": tuple(r.pos), "path": [tuple(p) for p in r.path],
            "action": r.action.to_dict() if r.action else None,
            "plan": r.plan.to_dict() if r.plan else None, "conversation": r.conversation,
            "seen": r.seen, "obs": r.obs_buffer, "salient": r.salient,
            "memory": [(m.id, m.kind, m.text, m.created, round(m.importance, 4)) for m in mind.memory.recent(10**6)],
            "mind_plan": mind.plan.to_dict() if mind.plan else None, "queue": [a.to_dict() for a in mind.agenda.queue],
            "spatial": e.core.spatial[n].to_dict(),
        }
    return out


async def settle(e: Engine) -> None:
    """Let the decisions in flight finish (they change their minds as they go) before comparing."""
    tasks = [j.task for j in e.board.jobs.values() if j.task is not None]
    await asyncio.gather(*tasks, return_exceptions=True)


def fingerprint(results: list) -> list:
    return [(r.step, r.clock, r.moves, r.bubbles, r.utterances, r.object_changes,
             [(e.kind, e.text) for e in r.log]) for r in results]


async def busy_town(town_dir, tmp_path) -> Engine:
    e = new_engine(town_dir, engine_model(), lockstep=True, seed=7)
    await ticks(e, 90)
    e.submit(EnterAsVisitor("Zed", "a tinker"))
    e.submit(SetObjectState("the stove in the Lin kitchen is on fire"))
    e.submit(Whisper("Bob Lin", "I should open a bakery"))
    cara = e.core.residents["Cara Diaz"]
    e.player.pos = cara.pos
    e.submit(SayToResident("Cara Diaz", "Good morning!"))
    await ticks(e, 4)
    e.step()  # leave some decisions in flight
    assert e.board.jobs, "the test wants pending decisions in the save"
    return e


async def test_round_trip_restores_everything(fake_town_loader, tmp_path):
    e = await busy_town(fake_town_loader, tmp_path)
    path = tmp_path / "a.save"
    assert e.submit(SaveTown(str(path))) == str(path)
    before = state(e)
    llm2 = engine_model()
    f = load_engine(path, llm2)
    after = state(f)
    assert llm2.accounting.to_dict()["by_resident_purpose"] == e.core.llm.accounting.to_dict()["by_resident_purpose"]
    assert llm2.accounting.total.calls == e.core.llm.accounting.total.calls > 0
    for key in before:
        assert after[key] == before[key], key
    assert f.saver.path == str(path)
    info = describe_save(path)
    assert info["town"] == "Testville" and info["clock"] == e.clock.text()
    assert info["residents"] == ["Ann Lin", "Bob Lin", "Cara Diaz"]
    # embeddings are stored as float32 blobs, one matrix per segment of records
    db = sqlite3.connect(path)
    count, dim, blob = db.execute("SELECT count, dim, embedding FROM memory_segments LIMIT 1").fetchone()
    assert isinstance(blob, bytes) and dim == 16 and len(blob) == count * 16 * 4
    assert db.execute("SELECT count(*) FROM pending").fetchone()[0] == len(e.board.jobs)
    db.close()
    raw = path.read_bytes()
    assert b"pickle" not in raw and b"\x80\x04\x95" not in raw  # no pickle protocol-4 frames
    await e.aclose()
    await f.aclose()


async def test_no_api_key_in_a_save(fake_town_loader, tmp_path, monkeypatch):
    secret = "sk-test-THIS-MUST-NOT-BE-SAVED"
    monkeypatch.setenv("TOWN_LLM_API_KEY", secret)
    llm = engine_model()
    llm.api_key = secret
    e = new_engine(fake_town_loader, llm, lockstep=True)
    await ticks(e, 20)
    e.save(tmp_path / "k.save")
    assert secret.encode() not in (tmp_path / "k.save").read_bytes()
    await e.aclose()


async def test_forks_continue_identically_on_the_same_answers(fake_town_loader, tmp_path):
    """Load one save twice; the first fork records its model answers, the second replays them."""
    e = await busy_town(fake_town_loader, tmp_path)
    path = tmp_path / "fork.save"
    e.save(path)
    await e.aclose()
    rec = tmp_path / "answers.jsonl"
    recorder = RecordingLLM(engine_model(latency_seed=1, jitter=0.004), rec)
    a = load_engine(path, recorder, lockstep=True)
    # 2.5 game hours: the decompose of the next window, a reaction and a talk are in them
    res_a = await ticks(a, 900)
    await settle(a)
    recorder._fh.close()
    replay = ReplayLLM(rec)
    b = load_engine(path, replay, lockstep=True)
    res_b = await ticks(b, 900)
    await settle(b)
    assert not a.core.errors and not b.core.errors, (a.core.errors, b.core.errors)
    assert fingerprint(res_a) == fingerprint(res_b)
    assert state(a) == state(b)
    assert any(r.moves for r in res_a) and any(r.bubbles for r in res_a)
    assert replay.calls >= 3  # the fork really ran on answers, not on rules alone (4 with 3-4 hour windows)
    await a.aclose()
    await b.aclose()


async def test_forks_with_differently_timed_answers_agree(fake_town_loader, tmp_path):
    e = await busy_town(fake_town_loader, tmp_path)
    path = tmp_path / "fork2.save"
    e.save(path)
    await e.aclose()
    runs = []
    for lat in (3, 4):
        f = load_engine(path, engine_model(latency_seed=lat, jitter=0.004), lockstep=True)
        fp = fingerprint(await ticks(f, 300))
        await settle(f)
        runs.append((fp, state(f)))
        await f.aclose()
    assert runs[0] == runs[1]


@pytest.mark.parametrize("how", ["whole", "changes"])
async def test_a_failed_save_leaves_the_previous_one_intact(fake_town_loader, tmp_path, monkeypatch, how):
    """A save that fails half way, written whole (temporary file) or as changes (a transaction)."""
    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    await ticks(e, 20)
    path = tmp_path / "t.save"
    e.save(path)
    old = path.read_bytes()
    await ticks(e, 20)

    def crash(*_):
        raise RuntimeError("power cut")
    if how == "whole":
        monkeypatch.setattr(save_mod.faults, "incremental", False)
        monkeypatch.setattr(save_mod.faults, "before_replace", crash)
    else:
        monkeypatch.setattr(save_mod.faults, "before_commit", crash)
    with pytest.raises(RuntimeError):
        e.save(path)
    assert path.read_bytes() == old
    assert load_engine(path, engine_model()).core.step_no == 20
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith((".tmp", "-journal"))]
    monkeypatch.setattr(save_mod.faults, "before_commit", None)
    monkeypatch.setattr(save_mod.faults, "before_replace", None)
    e.save(path)  # and the next save writes what the failed one could not
    assert load_engine(path, engine_model()).core.step_no == 40
    await e.aclose()


@pytest.mark.parametrize("how", ["whole", "changes"])
def test_a_crash_during_save_leaves_the_previous_one_intact(fake_town_loader, tmp_path, how):
    """A real crash: the process dies (os._exit) after writing the new data, before the rename
    (a whole save) or before the commit (a save of the changes: SQLite's journal rolls it back)."""
    path = tmp_path / "c.save"
    hook = ("save.faults.incremental = False; save.faults.before_replace = lambda tmp, final: os._exit(9)"
            if how == "whole" else "save.faults.before_commit = lambda p: os._exit(9)")
    script = textwrap.dedent(f"""
        import asyncio, os, sys
        sys.path[:0] = [{str(HERE)!r}, {str(HERE.parent)!r}]
        from engine_fakes import engine_model, make_town
        from game.engine import build
        from game.engine import saves as save
        from game.engine.build import new_engine
        build.load_world = lambda p: make_town()
        async def main():
            e = new_engine({str(fake_town_loader)!r}, engine_model(), lockstep=True)
            for _ in range(15):
                await e.wait_ready(); e.step()
            e.save({str(path)!r})
            for _ in range(15):
                await e.wait_ready(); e.step()
            {hook}
            e.save({str(path)!r})
        asyncio.run(main())
    """)
    proc = subprocess.run([sys.executable, "-c", script], cwd=HERE.parent.parent, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 9, proc.stderr
    if how == "whole":
        leftovers = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
        assert leftovers, "the crash should have happened with the new file written"
    else:
        assert (tmp_path / "c.save-journal").exists(), "the crash should have left SQLite's journal"
    f = load_engine(path, engine_model())
    assert f.core.step_no == 15
    f.core.step_no = 16
    f.save(path)  # whatever the crash left beside the file does not reach the next save
    assert load_engine(path, engine_model()).core.step_no == 16


def test_bad_files_are_refused_with_a_clear_message(fake_town_loader, tmp_path):
    missing = tmp_path / "nope.save"
    with pytest.raises(SaveError, match="does not exist"):
        load_engine(missing, engine_model())
    garbage = tmp_path / "garbage.save"
    garbage.write_bytes(os.urandom(4096))
    with pytest.raises(SaveError, match="not a town save"):
        load_engine(garbage, engine_model())
    foreign = tmp_path / "foreign.save"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE songs (title TEXT)")
    db.commit()
    db.close()
    with pytest.raises(SaveError, match="not a town save"):
        load_engine(foreign, engine_model())
    with pytest.raises(SaveError, match="folder"):
        load_engine(tmp_path, engine_model())


async def test_newer_and_damaged_saves_are_refused(fake_town_loader, tmp_path):
    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    await ticks(e, 10)
    good = tmp_path / "good.save"
    e.save(good)
    await e.aclose()
    newer = tmp_path / "newer.save"
    newer.write_bytes(good.read_bytes())
    db = sqlite3.connect(newer)
    db.execute("UPDATE meta SET value = '99' WHERE key = 'version'")
    db.commit()
    db.close()
    with pytest.raises(SaveError, match="newer version"):
        load_engine(newer, engine_model())
    cut = tmp_path / "cut.save"
    data = good.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(SaveError, match=r"cut\.save"):
        load_engine(cut, engine_model())
    broken = tmp_path / "broken.save"
    broken.write_bytes(good.read_bytes())
    db = sqlite3.connect(broken)
    db.execute("DELETE FROM residents WHERE name = 'Bob Lin'")
    db.commit()
    db.close()
    with pytest.raises(SaveError, match="broken.save"):
        load_engine(broken, engine_model())


async def test_listing(fake_town_loader, tmp_path):
    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    await ticks(e, 5)
    e.save(tmp_path / "saves" / "testville.save")
    (tmp_path / "saves" / "junk.save").write_text("not a save")
    listed = save_mod.list_saves(tmp_path / "saves")
    assert {Path(x["path"]).name for x in listed} == {"testville.save", "junk.save"}
    assert any("error" in x for x in listed)
    await e.aclose()


async def test_odd_file_names_save_and_load(fake_town_loader, tmp_path):
    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    await ticks(e, 5)
    path = tmp_path / "my town? #1 50%.save"
    e.save(path)
    assert load_engine(path, engine_model()).core.step_no == 5
    assert describe_save(path)["clock"] == e.clock.text()
    await e.aclose()


async def test_a_save_clears_what_a_killed_save_left_behind(fake_town_loader, tmp_path):
    """A process killed while saving leaves `.NAME.<pid>-<token>.tmp`; the next save of NAME removes
    it, whatever process has that PID now (the live-writer case: tests/faults/test_save_files.py)."""
    import os

    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    stale = tmp_path / f".t.save.{os.getppid()}-0123abcd.tmp"  # a live PID: once kept for ever
    stale.write_bytes(b"half a save")
    e.save(tmp_path / "t.save")
    assert not stale.exists() and (tmp_path / "t.save").exists()
    await e.aclose()


async def test_an_old_saves_pending_day_plan_is_asked_as_the_next_action(fake_town_loader, tmp_path):
    """Jobs of kind "plan" are not made any more (the next action plans the day itself); a save
    that still holds one loads it as a "next" job, and the town goes on."""
    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    await ticks(e, 3)
    assert e.board.jobs
    path = tmp_path / "old.save"
    e.save(path)
    await e.aclose()
    db = sqlite3.connect(path)
    db.execute("UPDATE pending SET kind = 'plan' WHERE seq = (SELECT MIN(seq) FROM pending)")
    db.commit()
    db.close()
    loaded = load_engine(path, engine_model(), lockstep=True)
    kinds = sorted(j.kind for j in loaded.board.jobs.values())
    assert "plan" not in kinds and "next" in kinds
    await ticks(loaded, 20)
    assert loaded.core.step_no == e.core.step_no + 20 and not loaded.core.errors
    await loaded.aclose()


async def test_a_pending_look_ahead_is_saved_and_asked_again_after_loading(fake_town_loader, tmp_path):
    from datetime import timedelta

    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    e.lookahead.ahead = timedelta(minutes=30)
    for _ in range(2000):
        if any(j.kind == "ahead" for j in e.board.jobs.values()):
            break
        await ticks(e, 1)
    job = next(j for j in e.board.jobs.values() if j.kind == "ahead")
    path = tmp_path / "ahead.save"
    e.save(path)
    await e.aclose()
    loaded = load_engine(path, engine_model(), lockstep=True)
    assert loaded.board.jobs[job.resident].kind == "ahead" and "view" in loaded.board.jobs[job.resident].args
    mind = loaded.core.minds[job.resident]
    before = len(mind.agenda.queue)
    # due when the steps run out, as asked (lanes.py, maybe_ahead): the tick is kept
    assert loaded.board.jobs[job.resident].ready_at == job.ready_at > loaded.core.step_no + loaded.core.decision_ticks
    await ticks(loaded, job.ready_at - loaded.core.step_no + 1)
    assert mind.stats["ahead_calls"] >= 1 and len(mind.agenda.queue) > before and not loaded.core.errors
    await loaded.aclose()


# ------------------------------------------------------------------ saves of what changed

async def test_a_second_save_writes_only_what_changed_and_loads_the_same_town(fake_town_loader, tmp_path):
    e = await busy_town(fake_town_loader, tmp_path)
    path = tmp_path / "inc.save"
    first = e.save_job(path)
    first.run()
    first.finish()
    assert not first.incremental
    await settle(e)
    await ticks(e, 40)
    e.submit(Whisper("Ann Lin", "the well is dry"))
    second = e.save_job(path)
    # only the records added or changed since the first save are in the image's change list
    img = second.prepared.memories["Ann Lin"]
    assert img.changed is not None and 0 < len(img.changed) < img.n or img.n < 3
    second.run()
    second.finish()
    assert second.incremental and second.result.generation == first.result.generation + 1
    before = state(e)
    f = load_engine(path, engine_model())
    assert state(f) == before
    # a loaded save is saved as changes too, and the file stays one file
    await settle(f)
    await ticks(f, 10)
    job = f.save_job(path)
    job.run()
    job.finish()
    assert job.incremental
    assert state(load_engine(path, engine_model())) == state(f)
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["inc.save"]
    await e.aclose()
    await f.aclose()


async def test_save_as_makes_a_whole_independent_save(fake_town_loader, tmp_path):
    e = await busy_town(fake_town_loader, tmp_path)
    a, b = tmp_path / "a.save", tmp_path / "b.save"
    e.save(a)
    await settle(e)
    await ticks(e, 20)
    e.save(b)  # save as: a new file, written whole
    step_b = e.core.step_no
    await ticks(e, 20)
    e.save(b)
    e.save(a)  # a changes; b is its own file
    assert load_engine(b, engine_model()).core.step_no == e.core.step_no
    b2 = tmp_path / "b2.save"
    b2.write_bytes(b.read_bytes())
    assert load_engine(b2, engine_model()).core.step_no == e.core.step_no
    assert step_b < e.core.step_no
    await e.aclose()


async def test_a_save_changed_by_another_game_is_written_whole(fake_town_loader, tmp_path):
    """Two games loaded the same save; one saves, then the other: the file is not the one the
    second knows any more, so it writes its whole town (nothing of either is mixed)."""
    e = await busy_town(fake_town_loader, tmp_path)
    path = tmp_path / "shared.save"
    e.save(path)
    await e.aclose()
    one, two = load_engine(path, engine_model(latency_seed=1)), load_engine(path, engine_model(latency_seed=2))
    await ticks(one, 30)
    await ticks(two, 50)
    one.save(path)
    job = two.save_job(path)
    job.run()
    job.finish()
    assert not job.incremental
    assert state(load_engine(path, engine_model())) == state(two)
    await one.aclose()
    await two.aclose()


async def test_a_version_1_save_still_loads_and_is_saved_in_the_new_format(fake_town_loader, tmp_path):
    e = await busy_town(fake_town_loader, tmp_path)
    path = tmp_path / "old.save"
    e.save(path)
    db = sqlite3.connect(path)  # made into what version 1 wrote: one row per memory
    db.executescript("DROP TABLE memory_segments; DROP TABLE memory_state; "
                     "DELETE FROM meta WHERE key IN ('memory', 'save_id', 'generation'); "
                     "UPDATE meta SET value = '1' WHERE key = 'version';")
    db.execute("CREATE TABLE memories (resident TEXT NOT NULL, id INTEGER NOT NULL, kind TEXT NOT NULL, "
               "text TEXT NOT NULL, created TEXT NOT NULL, data TEXT NOT NULL, embedding BLOB, "
               "PRIMARY KEY (resident, id))")
    for name, mind in e.core.minds.items():
        for row in mind.memory.to_rows():
            emb = row.pop("embedding")
            db.execute("INSERT INTO memories VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (name, row["id"], row["kind"], row["text"], row["created"], json.dumps(row), emb))
    db.commit()
    db.close()
    before = state(e)
    f = load_engine(path, engine_model())
    assert state(f) == before
    job = f.save_job(path)
    job.run()
    job.finish()
    assert not job.incremental and describe_save(path)["residents"] == ["Ann Lin", "Bob Lin", "Cara Diaz"]
    assert state(load_engine(path, engine_model())) == before
    await e.aclose()
    await f.aclose()


async def test_a_save_file_damaged_since_it_was_written_is_replaced_by_a_whole_save(fake_town_loader, tmp_path):
    e = await busy_town(fake_town_loader, tmp_path)
    path = tmp_path / "hurt.save"
    e.save(path)
    data = bytearray(path.read_bytes())
    for i in range(100, len(data), 997):  # garbage through every page after the header
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))
    with pytest.raises(SaveError):
        load_engine(path, engine_model())
    await settle(e)
    await ticks(e, 5)
    job = e.save_job(path)
    job.run()
    job.finish()
    assert not job.incremental
    assert state(load_engine(path, engine_model())) == state(e)
    await e.aclose()
