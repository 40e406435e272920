"""`town run` on the embedded server (the FAKE llama-server, tests/faults/fake_llama.py) SIGKILLed in
the middle of the run: it is restarted and the run goes on with the model leading again; a server
that cannot come back stops the run at once with exit 1, one line on stderr, the town saved.

The run is the real one (``headless._main``: ``open_llm``, the supervisor, the engine in lockstep);
the test only watches the engine (to kill the server at a known game time) and the server."""

from __future__ import annotations

import argparse
import asyncio
import json
import time

from game.engine.running import headless
from game.engine.saves import describe_save
from game.llm.server import _RUNNING

from .fake_llama import fake_llama_env, started
from .townfiles import write_town


async def _until(cond, timeout: float = 30.0) -> None:
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"not within {timeout} s")
        await asyncio.sleep(0.01)


def _run_args(town, save, until: str) -> argparse.Namespace:
    return argparse.Namespace(town=str(town), until=until, save=str(save), record=None, json=True,
                              small=False, pace="lockstep")


async def _run_and_kill_at(tmp_path, monkeypatch, at_hour: int, until: str, max_starts: int | None = None):
    """``town run`` to ``until``, its server killed once the clock reaches ``at_hour``; returns the
    exit code, the engine and the game time of the kill, and the file of the server's starts."""
    config, starts = fake_llama_env(tmp_path, monkeypatch, max_starts=max_starts)
    town = write_town(tmp_path / "town")
    before = set(_RUNNING)  # (a server another test of this process left registered is not this one)
    seen: dict = {"before": before}
    build = headless.build_engine

    def spy(*a, **kw):
        seen["engine"] = engine = build(*a, **kw)
        return engine
    monkeypatch.setattr(headless, "build_engine", spy)

    async def killer() -> None:
        await _until(lambda: "engine" in seen and seen["engine"].clock.now.hour >= at_hour)
        [server] = [s for s in _RUNNING if s not in before]
        seen["killed_at"] = seen["engine"].clock.now
        seen["pid"] = server.proc.pid
        server.kill()
        llm = seen["engine"].core.llm
        await _until(lambda: llm.status().server != "up" or llm.status().restarts > 0)
        await _until(lambda: llm.status().server != "restarting", timeout=60)
        seen["settled_at"] = seen["engine"].clock.now  # back, or away

    kill = asyncio.create_task(killer())
    code = await headless._main(_run_args(town, tmp_path / "out.save", until), config)
    await asyncio.wait_for(kill, 1)
    return code, seen, starts


async def test_town_run_restarts_a_killed_server_and_the_model_leads_again(tmp_path, monkeypatch, capsys):
    code, seen, starts = await _run_and_kill_at(tmp_path, monkeypatch, 8, "day 1 11:00")
    out, err = capsys.readouterr()
    assert code == 0, err[-2000:]
    report = json.loads(out)
    assert report["model_server"]["state"] == "up" and report["model_server"]["restarts"] == 1, report["model_server"]
    assert len(started(starts)) == 2  # one restart, same command
    assert "town run: the model server stopped (exit code -9): restarting it in" in err
    assert "town run: the model server is back (restarted" in err
    engine, killed = seen["engine"], seen["killed_at"]
    assert report["clock"] == "Day 1, 11:00:00"
    # the model leads again: the share of the whole hours after the kill, beside the share before it
    after = engine.core.ledger.summary(since=f"1:{killed.hour + 1:02d}")["model_led_share"]
    before = engine.core.ledger.summary()["model_led_share"]
    print(f"\nkilled at {killed:%H:%M}: model-led {before:.0%} over the run, {after:.0%} from the next hour; "
          f"{report['model_server']['reasked']} calls asked again")
    assert after >= 0.5 and after >= before - 0.2, (before, after)
    assert describe_save(tmp_path / "out.save")["clock"] == "Day 1, 11:00:00"


async def test_town_run_stops_at_once_with_exit_1_when_the_server_cannot_come_back(tmp_path, monkeypatch, capsys):
    code, seen, starts = await _run_and_kill_at(tmp_path, monkeypatch, 8, "day 1 16:00", max_starts=1)
    out, err = capsys.readouterr()
    assert code == 1
    report = json.loads(out)
    assert report["model_away"] and report["model_server"]["state"] == "away"
    assert len(started(starts)) == 4  # the first start and three tries
    stopped = seen["engine"].clock.now
    # at once: the clock went on by no more than a few minutes of routine once the model was away
    assert (stopped - seen["settled_at"]).total_seconds() <= 5 * 60, (seen["settled_at"], stopped)
    print(f"\naway at {seen['settled_at']:%H:%M}, stopped at {stopped:%H:%M}")
    assert report["clock"] == seen["engine"].clock.text()
    last = err.strip().splitlines()[-1]
    assert last.startswith("town run: stopped at Day 1, 0") and "the model is away" in last, last
    assert "could not be restarted in 3 tries" in last and "saved to" in last
    assert last.count("refusing to start again") == 1  # this start's last words, not all the log
    assert describe_save(tmp_path / "out.save")["clock"] == seen["engine"].clock.text()
    assert not (set(_RUNNING) - seen["before"])  # nothing left running
