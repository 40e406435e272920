"""bench/server_flags.py end to end against a FAKE llama-server (tests/llm/fake_llama_server.py):
each flag set starts the server with its own command line, every recorded request is replayed,
and the figures (requests/min, tokens sent and evaluated) come out side by side.  No model."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from faults.fake_llama import install_fake_llama

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("server_flags_bench", ROOT / "bench" / "server_flags.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def fake_llama(tmp_path, monkeypatch):
    install_fake_llama(tmp_path, monkeypatch)
    argv_log = tmp_path / "argv.jsonl"
    monkeypatch.setenv("FAKE_LLAMA_ARGV_LOG", str(argv_log))
    for var in ("TOWN_LLM_THREADS", "TOWN_LLM_BATCH", "TOWN_LLM_UBATCH", "TOWN_LLM_SLOTS", "TOWN_LLM_CACHE_RAM",
                "TOWN_LLM_CACHE_PROMPT", "TOWN_LLM_THREADS_BATCH", "TOWN_LLM_CTX_PER_SLOT"):
        monkeypatch.delenv(var, raising=False)
    return argv_log


def test_flag_sets_side_by_side_on_recorded_requests(fake_llama, tmp_path, capsys):
    bench = _bench()
    out = tmp_path / "flags.json"
    code = bench.main(["--set", "one: TOWN_LLM_THREADS=1 TOWN_LLM_BATCH=32 TOWN_LLM_UBATCH=32",
                       "--set", "two: TOWN_LLM_THREADS=2 TOWN_LLM_BATCH=2048 TOWN_LLM_UBATCH=512 "
                                "TOWN_LLM_CACHE_RAM=0 TOWN_LLM_SLOTS=2",
                       "--test-model", "--concurrency", "3", "--json", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    data = json.loads(out.read_text())
    recorded = len(bench.load_requests(list(bench.DEFAULT_RECORDINGS)))
    # every chat request of the fixtures (28 in those recorded on 2026-11-25)
    assert recorded >= 20 and data["requests"] == recorded
    one, two = data["results"]
    for r in (one, two):
        assert r["requests"] == recorded and r["failures"] == 0 and r["requests_per_min"] > 0
        # the fake caches prompts per slot like llama-server: less is evaluated than is sent
        assert 0 < r["tokens_evaluated"] < r["prompt_tokens_sent"] + r["completion_tokens"]
        assert r["tokens_evaluated"] == r["prompt_tokens_sent"] - r["cached_tokens"] + r["completion_tokens"]
        assert {"decompose", "plan_day", "dialogue"} <= set(r["by_purpose"])
    # each server was started with its own set's flags
    started = [json.loads(line) for line in fake_llama.read_text().splitlines()]
    assert len(started) == 2
    first, second = (" ".join(a) for a in started)
    assert "-t 1 " in first and "-b 32 -ub 32" in first and "--parallel 4" in first
    assert "-t 2 " in second and "-b 2048 -ub 512" in second and "--cache-ram 0" in second
    assert "--parallel 2" in second
    assert "one" in printed and "two" in printed and "req/min" in printed


def test_a_bad_flag_set_is_named(capsys):
    bench = _bench()
    assert bench.main(["--set", "x: THREADS=2"]) == 2
    assert "THREADS=2" in capsys.readouterr().err
    assert bench.main(["--set", "x: TOWN_LLM_BATCH=many"]) == 2
    assert "TOWN_LLM_BATCH" in capsys.readouterr().err


def test_the_first_words_hook_runs_play_latency_with_the_sets_flags(monkeypatch, tmp_path):
    bench = _bench()
    seen = {}

    def fake_run(cmd, env, capture_output, text):  # stands in for the minutes-long real measurement
        seen["cmd"], seen["env"] = cmd, env
        Path(cmd[cmd.index("--json") + 1]).write_text(json.dumps({"first_words_median_s": 1.2}))

        class Done:
            returncode, stdout, stderr = 0, "", ""
        return Done()

    monkeypatch.setattr(bench.subprocess, "run", fake_run)
    fs = bench.parse_set("t2: TOWN_LLM_THREADS=2 TOWN_LLM_CACHE_PROMPT=1")
    assert bench.play_latency(fs, ["--small"]) == {"first_words_median_s": 1.2}
    assert seen["cmd"][1].endswith("bench/play_latency.py") and "--small" in seen["cmd"]
    assert seen["env"]["TOWN_LLM_THREADS"] == "2" and seen["env"]["TOWN_LLM_CACHE_PROMPT"] == "1"
    assert seen["env"]["TOWN_LLM_BATCH"] == "32"  # the rest of the set: the shipped values
