"""The bench command's plumbing (the benchmarks themselves run with `town bench`)."""

from __future__ import annotations

from types import SimpleNamespace

from game.measure import bench


def test_unknown_benchmark_is_a_clear_error(capsys):
    assert bench.cli_bench(SimpleNamespace(only="retrieval,nope", json=True, quick=True)) == 2
    assert "unknown benchmark nope" in capsys.readouterr().err


def test_a_failing_benchmark_is_reported_not_raised(monkeypatch):
    def broken(quick):
        raise RuntimeError("no map")
    monkeypatch.setitem(bench.BENCHMARKS, "paths", broken)
    out = bench.run(["paths"], quick=True)
    assert out["results"]["paths"]["error"] == "RuntimeError: no map"
    assert out["machine"]["nproc"] >= 1 and out["command"] == "town bench --quick --only paths"


def test_retrieval_benchmark_small(monkeypatch):
    r = bench.bench_retrieval(quick=True)
    assert r["memories"] == 20_000 and r["retrieve_ms_median"] > 0
