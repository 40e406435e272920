"""The report's JSON shape on a small save produced by the engine with the fake model."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta
from types import SimpleNamespace

import pytest
from measure_fakes import measure_model

from game.engine.build import new_engine
from game.measure.report import build_report, cli_report, render
from game.measure.run import measured_run, save_with_positions


@pytest.fixture
async def small_save(measureville, tmp_path):
    llm = measure_model()
    e = new_engine(measureville, llm, lockstep=True)
    until = e.clock.now + timedelta(hours=3)
    res = await measured_run(e, until, whispers=[("Ada Ito", "I will throw a Valentine party at the cafe")],
                             every=6)
    assert not res.errors, res.errors[:3]  # the fake model must answer every request the mind makes
    path = str(tmp_path / "run.save")
    save_with_positions(res, path)
    await e.aclose()
    return path


async def test_report_json_shape(small_save):
    r = build_report(small_save, track_spec="party=valentine, party")
    assert r["model_led"]["model_led_share"] is not None and r["model_led"]["by_resident"]
    assert isinstance(r["rules_and_fallbacks"], dict)
    json.dumps(r)  # plain data
    assert set(r) >= {"save", "town", "clock", "start", "now", "game_days", "residents", "relationships",
                      "spread", "attendance", "usage", "memories", "conversations"}
    assert r["town"] == "Measureville" and r["residents"] == ["Ada Ito", "Ben Ito", "Cy Moss"]
    assert r["game_days"] == pytest.approx(3 / 24, abs=1e-3)
    rel = r["relationships"]
    assert rel["start"]["edges"] == 1  # Ada and Ben are siblings from the start
    assert rel["end"]["density"] >= rel["start"]["density"]
    assert len(rel["curve"]) == 4  # 07:00 .. 10:00
    names = [s["name"] for s in r["spread"]]
    assert names == ["party"]  # the whisper it matches is not tracked twice
    party = r["spread"][0]
    assert party["seeded"] == ["Ada Ito"] and party["learned"][0]["how"] == "whisper"
    assert party["curve"][0][1] >= 1 and party["curve"][-1][1] == party["knew"]
    assert r["attendance"]["available"] and r["attendance"]["samples"] > 100
    assert sum(len(v) for v in r["attendance"]["places"].values()) >= 3
    u = r["usage"]
    assert u["available"] and u["whole_days"] == [] and u["per_resident_day"] is None  # 3 hours
    [day1] = u["per_covered_day"]
    assert day1["hours"] == 3.0 and day1["average"]["calls"] > 0 and day1["worst"]["resident"] in r["residents"]
    assert u["run_totals"]["chat"]["calls"] == day1["totals"]["calls"]
    assert u["run_totals"]["by_purpose"]["plan_day"]["calls"] > 0
    assert u["run_totals"]["chat"]["mean_latency_s"] == pytest.approx(0.5)


async def test_report_renders_names_as_plain_text(small_save, capsys):
    from rich.console import Console

    r = build_report(small_save)
    assert r["spread"][0]["name"].startswith("whisper to Ada Ito: I will throw")
    r["spread"][0]["learned"][0]["text"] = "[bold]not markup[/bold]"
    console = Console(record=True, width=160)
    render(r, console)
    out = console.export_text()
    assert "[bold]not markup[/bold]" in out
    assert "Relationships" in out and "covers no whole game day" in out and "\u2588" in out
    assert "Model use over the whole run" in out and "worst: " in out
    # the day plans: a timeline each, where the fixed blocks happen, what the check found
    plans = r["plans"]
    assert plans["totals"]["plans"] == len(plans["residents"]) > 0
    assert plans["totals"]["plan_checked"] >= plans["totals"]["plan_first_pass"] > 0
    one = next(iter(plans["residents"].values()))
    assert one["timeline"] and " @ " in one["timeline"][0] and one["fails"] == []
    assert "Day plans: " in out and one["timeline"][0] in out


def test_cli_report_bad_file(tmp_path, capsys):
    p = tmp_path / "x.save"
    p.write_text("not a save")
    assert cli_report(SimpleNamespace(save=str(p), json=True)) == 2
    err = capsys.readouterr().err
    assert "x.save" in err and "not a town save" in err and "Traceback" not in err


def test_measure_imports_without_textual():
    code = ("import sys, game.measure, game.measure.interview, game.measure.report, game.measure.spread, "
            "game.measure.relations, game.measure.bench, game.measure.run; print('textual' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
