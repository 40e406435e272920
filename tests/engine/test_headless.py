"""`town run` without a screen: runs, reports the accounting, writes a save that continues."""

from __future__ import annotations

import argparse
import io
import json

from engine_fakes import engine_model

from game.engine.build import load_engine
from game.engine.running.headless import cli_run, run_headless
from game.engine.saves import describe_save


async def test_run_reports_and_saves_and_continues(fake_town_loader, tmp_path, capsys):
    save = tmp_path / "run.save"
    out = io.StringIO()
    rc = await run_headless(engine_model(jitter=0), str(fake_town_loader), until="day 1 09:00", save=str(save),
                            out=out)
    text = out.getvalue()
    assert rc == 0, capsys.readouterr().err
    # two hours of one day: figures for those hours as they came, never scaled up to a day
    assert "covers no whole game day" in text and "day 1 07:00-09:00 (2.0 game hours, part of the day only)" in text
    assert "worst: " in text and "evaluated" in text
    assert "Day 1, 08:00:00" in text  # hourly progress
    assert "model-led share" in text and "decision lag p50" in text
    e = load_engine(save, engine_model())
    assert e.clock.text() == "Day 1, 09:00:00"
    # (an hour and a half: a window of steps is three to four hours, so the first ones run out in it)
    out2 = io.StringIO()
    rc = await run_headless(engine_model(jitter=0), str(save), until="day 1 10:30", save=str(save), out=out2,
                            as_json=True)
    assert rc == 0
    report = json.loads(out2.getvalue())
    assert report["clock"] == "Day 1, 10:30:00" and report["residents"] == ["Ann Lin", "Bob Lin", "Cara Diaz"]
    b = report["budget"]
    assert b["per_resident_day"] is None and b["whole_days"] == []
    [day1] = b["per_covered_day"]
    assert (day1["from"], day1["to"], day1["whole"]) == ("09:00", "10:30", False)
    # only this run's calls: the continued save's earlier ones are not counted again
    run_calls = day1["totals"]["calls"]
    all_calls = sum(r["calls"] for r in report["accounting"]["by_day_resident_purpose"]
                    if r["purpose"] != "embed")
    assert 0 < run_calls < all_calls
    assert day1["average"]["calls"] == round(run_calls / 3, 2)
    lead = report["model_led"]
    assert 0 < lead["model_led_share"] <= 1 and set(lead["by_resident"]) == set(report["residents"])
    assert {"decision_lag_p50_min", "decision_lag_p90_min"} <= set(lead)
    assert describe_save(save)["clock"] == "Day 1, 10:30:00"


async def test_a_recorded_run_leaves_its_manifest_and_replays_the_same(fake_town_loader, tmp_path):
    from game.engine.running.manifest import RunManifest
    from game.llm.record import RecordingLLM
    from game.replay.tape import fingerprint, tape_of

    rec_path = tmp_path / "run.jsonl"
    rec = RecordingLLM(engine_model(jitter=0), rec_path)
    rc = await run_headless(rec, str(fake_town_loader), until="day 1 07:20", save=str(tmp_path / "r.save"),
                            small=True, out=io.StringIO(), record=str(rec_path))
    await rec.aclose()
    assert rc == 0
    m = RunManifest.load(rec_path)
    assert m.small and m.end_step == 120 and m.end_clock == "Day 1, 07:20:00" and m.commands == []
    tape, end = tape_of(rec_path)
    tape.open()
    first = await tape.advance(end)
    tape2, _ = tape_of(rec_path)
    tape2.open()
    assert fingerprint(await tape2.advance(end)) == fingerprint(first)
    assert not tape._engine.core.errors  # every answer was in the recording
    await tape.aclose()
    await tape2.aclose()


def test_the_code_fingerprint_reads_the_engine_and_the_minds_files():
    """A recording replays exactly only under the same fingerprint: it is of the files that decide
    which questions a run asks, wherever in game/engine and game/mind they live (a fingerprint of no
    file at all would let any code replay any recording)."""
    import hashlib

    from game.engine.running.manifest import code_fingerprint

    assert code_fingerprint() != hashlib.sha256().hexdigest()[:16]


async def test_small_cast(fake_town_loader, tmp_path):
    out = io.StringIO()
    rc = await run_headless(engine_model(jitter=0), str(fake_town_loader), until="day 1 07:10", save=None,
                            small=True, out=out, as_json=True)
    assert rc == 0
    assert json.loads(out.getvalue())["residents"] == ["Ann Lin", "Bob Lin"]


async def test_bad_until_and_bad_town_are_clear_messages(fake_town_loader, tmp_path, capsys):
    rc = await run_headless(engine_model(), str(fake_town_loader), until="tomorrow", save=None)
    assert rc == 2 and "day N HH:MM" in capsys.readouterr().err
    rc = await run_headless(engine_model(), str(fake_town_loader), until="day 1 06:00", save=None)
    assert rc == 2 and "is not after" in capsys.readouterr().err
    rc = await run_headless(engine_model(), str(tmp_path / "no-such-town"), until="day 2", save=None)
    err = capsys.readouterr().err
    assert rc == 2 and "no-such-town" in err and "Traceback" not in err


def test_cli_run_with_a_missing_recording(tmp_path, capsys):
    args = argparse.Namespace(town=str(tmp_path), until="day 2", save=None, small=False, json=False,
                              llm_url=None, model=None, embed_url=None, record=None,
                              replay=str(tmp_path / "missing.jsonl"))
    assert cli_run(args) == 2  # a recording that is not there is bad input, said before the town is read
    assert "missing.jsonl" in capsys.readouterr().err


async def test_interrupted_run_still_saves(fake_town_loader, tmp_path):
    import asyncio

    save = tmp_path / "int.save"
    task = asyncio.ensure_future(run_headless(engine_model(jitter=100.0), str(fake_town_loader), until="day 2",
                                              save=str(save), out=io.StringIO()))
    await asyncio.sleep(0.3)
    task.cancel()
    assert await task == 130
    info = describe_save(save)
    assert info["clock"].startswith("Day 1")
    e = load_engine(save, engine_model())
    assert e.board.jobs  # the unanswered decisions were kept, to be asked again


async def test_pace_runs_at_the_games_own_clock_rate(fake_town_loader):
    """--pace fast: 0.1 s a tick whatever the model does; the clock never waits for a decision (the
    residents keep their routine until it comes).  Lockstep with the same slow model waits."""
    runs = {}
    for pace in ("fast", "lockstep"):
        out = io.StringIO()
        rc = await run_headless(engine_model(jitter=1.0, latency_seed=4), str(fake_town_loader), until="day 1 07:02",
                                save=None, out=out, as_json=True, pace=pace)
        assert rc == 0
        runs[pace] = json.loads(out.getvalue())
    fast, lock = runs["fast"], runs["lockstep"]
    assert fast["pace"] == "fast" and fast["clock"] == lock["clock"] == "Day 1, 07:02:00"
    assert fast["seconds_waiting_on_model"] == 0 and fast["real_seconds"] >= 12 * 0.1 - 0.05  # 12 ticks
    assert lock["seconds_waiting_on_model"] > 0
    # reactions past the daily caps on the server's spare time: counted in real time only
    assert fast["spare_capacity"] == {"allowances_given": 0, "reactions_past_floor": 0, "talks_past_floor": 0,
                                      "crowd_sights": 0, "sights_after_talk": 0}
    assert lock["spare_capacity"] is None
    from game.engine.running.headless import format_report
    fast["spare_capacity"] = {"allowances_given": 5, "reactions_past_floor": 3, "talks_past_floor": 1,
                              "crowd_sights": 7, "sights_after_talk": 4}
    assert ("spare capacity: 3 reactions and 1 talks past the daily caps while the server was idle "
            "(5 allowances given); 7 people seen and not reacted to while it was crowded, 4 for having just "
            "talked with them") in format_report(fast)
    assert "spare capacity" not in format_report(lock)


async def test_a_bad_pace_is_a_clear_message(fake_town_loader, capsys):
    rc = await run_headless(engine_model(), str(fake_town_loader), until="day 1 08:00", save=None, pace="slow")
    assert rc == 2 and "--pace 'slow'" in capsys.readouterr().err


def test_the_paces_are_the_games_clock_rates():
    from game.engine.running.headless import PACES
    from game.ui.worker import TICK_DELAY

    assert {k: v for k, v in PACES.items() if v is not None} == {k: TICK_DELAY[k] for k in ("normal", "fast")}


async def test_a_full_disk_at_the_end_of_a_run_is_a_message_a_report_and_exit_1(fake_town_loader, tmp_path,
                                                                                 monkeypatch, capsys):
    from game.engine import saves as save_mod

    monkeypatch.setattr(save_mod.faults, "max_pages", 3)  # SQLite's own "database or disk is full"
    out = io.StringIO()
    rc = await run_headless(engine_model(jitter=0), str(fake_town_loader), until="day 1 07:20",
                            save=str(tmp_path / "r.save"), out=out)
    err = capsys.readouterr().err
    assert rc == 1 and "the disk is full" in err and "Traceback" not in err
    assert "model-led share" in out.getvalue()  # the report is printed all the same


async def test_in_real_time_the_first_day_plans_come_before_the_clock_starts(capsys):
    """--pace normal|fast: the residents up at the town's hour, or soon, plan their day before the
    first tick (game/engine/decisions/prepare.py), said as each comes; the report says who and how long, and
    what the clock's first minute looked like."""
    from game.world import default_town_path

    out = io.StringIO()
    rc = await run_headless(engine_model(jitter=0.002), str(default_town_path()), until="day 1 06:01",
                            save=None, out=out, as_json=True, pace="fast")
    assert rc == 0
    r = json.loads(out.getvalue())
    assert len(r["prepared"]["asked"]) == 8 and r["prepared"]["planned"] == r["prepared"]["asked"]
    assert r["first_minute"] is None  # (a run shorter than a real minute)
    err = capsys.readouterr().err
    assert "the residents plan their day: 0 of 8" in err and "the residents plan their day: 8 of 8" in err
    assert r["model_led"]["waking_min_by_source"].get("routine", 0) == 0  # nobody up lived by routine
    from game.engine.running.headless import format_report
    r["first_minute"] = {"real_s": 60.1, "clock": "Day 1, 06:20:00", "model_led_share": 0.97,
                         "waking_min_by_source": {}, "slowed_s": 0.0, "slowest": 1.0}
    text = format_report(r)
    assert "before the clock started: 8 of 8 residents planned their day in" in text
    assert "the clock's first 60.1 s (to Day 1, 06:20:00): model-led 97%, slowed 0.0 s (at most x1.0)" in text
    lock = io.StringIO()
    assert await run_headless(engine_model(jitter=0.002), str(default_town_path()), until="day 1 06:01",
                              save=None, out=lock, as_json=True) == 0
    assert json.loads(lock.getvalue())["prepared"] is None  # lockstep waits for every decision anyway
