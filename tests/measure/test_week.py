"""bench/week.py (issue 41), its quick form, small: a few residents of the default town for two
"days" of half a game hour on the stand-in server.  The table has a row a day and its columns,
each night's save is reloaded in a fresh process to the same town, and the comparison it makes
notices a town that is not the same."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from game.engine.build import load_engine
from game.llm.client import ModelClient
from game.mind.mind import Mind

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("week_bench", ROOT / "bench" / "week.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def quick_week(tmp_path_factory):
    """One quick week for the tests of this file: (the bench module, its stdout, its JSON, its folder)."""
    week = _bench()
    tmp = tmp_path_factory.mktemp("week")
    out = tmp / "week.json"
    work = tmp / "work"
    argv = ["--quick", "--residents", "6", "--speedup", "20", "--day-hours", "0.5", "--json", str(out),
            "--workdir", str(work)]
    capture = tmp / "stdout.txt"
    real_stdout = sys.stdout
    with capture.open("w") as f:
        sys.stdout = f
        try:
            code = week.main(argv)
        finally:
            sys.stdout = real_stdout
    assert code == 0
    return week, capture.read_text(), json.loads(out.read_text()), work


@pytest.mark.slow
def test_the_table_has_a_row_a_day_and_every_column(quick_week):
    week, printed, out, _ = quick_week
    rows = [line for line in printed.splitlines() if line.startswith("|")]
    assert len(rows) == 2 + 2  # the header, its rule, a row a day
    assert all(len(r.strip("|").split("|")) == len(week.COLUMNS) for r in rows)
    days = out["days"]
    assert [d["day"] for d in days] == [1, 2] and out["residents"] == 6
    assert [d["until"] for d in days] == ["Day 1, 06:30:00", "Day 1, 07:00:00"]
    for d in days:
        assert d["ticks"] == 180 and d["engine_errors"] == 0
        assert d["step_ms_mean"] > 0 and d["step_ms_p95"] > 0  # (their ratio is the machine's load: not tested)
        assert d["rss_mb"] > 0 and d["save_s"] > 0 and d["whole_save_s"] > 0 and d["load_s"] > 0
        assert d["save_mb"] > 0 and d["retrieval_ms"] is not None and d["retrieval_ms"] > 0
    assert [d["save_kind"] for d in days] == ["whole", "changes"]  # as the game saves: changes after the first
    assert 0 < days[0]["memories"] <= days[1]["memories"]
    assert days[0]["chat_calls"] > 0  # the model led the town: the figures are of a living one


@pytest.mark.slow
def test_each_nightly_save_reloads_to_the_same_town(quick_week):
    _, printed, out, _ = quick_week
    assert all(d["reload_same"] and d["reload_differs"] == [] for d in out["days"])
    assert printed.count("| same |") == 2


@pytest.mark.slow
def test_growth_compares_every_figure_with_the_memories(quick_week):
    week, printed, out, _ = quick_week
    growth = {g["figure"]: g for g in out["growth"]}
    assert set(growth) == {key for key, _ in week.FIGURES}
    days = out["days"]
    mem = round(days[1]["memories"] / days[0]["memories"], 3)
    for key in ("step_ms_mean", "rss_mb", "whole_save_s", "load_s", "save_mb", "retrieval_ms"):
        g = growth[key]
        assert g["memories_ratio"] == mem and g["ratio"] == pytest.approx(days[1][key] / days[0][key], abs=1e-3)
        assert g["faster"] == (g["ratio"] > mem)
    assert growth["changes_save_s"]["ratio"] is None  # one night of changes only: nothing to compare
    assert "Grows faster than memories:" in printed


@pytest.mark.slow
def test_the_comparison_notices_a_town_that_is_not_the_same(quick_week):
    week, _, _, work = quick_week

    async def check() -> None:
        client = ModelClient(week.NO_SERVER)
        a = load_engine(work / "town.save", client)
        b = load_engine(work / "town.save", client)
        try:
            assert week.differing(week.canonical(a), week.canonical(b)) == []
            name = sorted(b.core.residents)[0]
            x, y = b.core.residents[name].pos
            b.core.residents[name].pos = (x + 1, y)
            assert week.differing(week.canonical(a), week.canonical(b)) == ["table residents"]
            other = sorted(b.core.minds)[-1]
            mind = b.core.minds[other]
            assert isinstance(mind, Mind) and len(mind.memory) > 0
            mind.memory.set_importance(0, 1.0 if mind.memory.get(0).importance > 5 else 9.0)
            assert week.differing(week.canonical(a), week.canonical(b)) == ["memories of " + other,
                                                                           "table residents"]
        finally:
            await a.aclose()
            await b.aclose()
            await client.aclose()

    asyncio.run(check())
