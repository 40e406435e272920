"""Saves, part 1: the process is SIGKILLed at random moments while it saves, many times over.

Each round forks a child that saves the town again and again (the step number goes up by one per
save, and the child notes each finished save in a side file), and kills it after a random delay
that lands anywhere in a save: while SQLite writes the temporary file, during the fsync, around
the rename (a save written whole), or inside the transaction of a save of changes (format 2: its
journal is left beside the file and rolled back by the next open).  Then the save on disk must
load, and be the last save the child finished (or one newer that finished just before the note
could be written).  Before the first finished save there must be either no file or nothing but a
loadable one.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import time
from pathlib import Path

import pytest

from game.engine.build import load_engine
from game.engine.engine import Engine
from game.engine.saves import SaveError, list_saves

from .fakes import any_answer_model
from .town_engine import busy_engine

DEFAULT_ROUNDS = 100
SLOW_ROUNDS = 400


def _child(e: Engine, path: Path, note: Path) -> None:
    """Runs in the forked child: save forever, noting each finished save's step number.  The
    first save to the file is written whole, the next ones as changes (each with a new memory, so
    segments and state chunks are rewritten: both kinds of save are killed)."""
    mind = next(iter(e.core.minds.values()))
    try:
        while True:
            e.core.step_no += 1
            mind.memory.add("observation", f"saved at step {e.core.step_no}", e.clock.now, importance=4)
            e.save(path)
            fd = os.open(note, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.write(fd, str(e.core.step_no).encode())
            os.close(fd)
    finally:
        os._exit(0)


def _measure_save(e: Engine, path: Path) -> float:
    """Seconds for a whole save and three saves of changes (the span a kill lands in)."""
    t0 = time.perf_counter()
    for _ in range(4):
        e.save(path)
    return (time.perf_counter() - t0) / 2


async def kill_rounds(tmp_path: Path, rounds: int, seed: int) -> dict:
    e = await busy_engine(tmp_path, 120, seed=seed)
    good = tmp_path / "good.save"
    save_s = _measure_save(e, good)
    good_step = e.core.step_no
    rng = random.Random(seed)
    stats = {"rounds": 0, "loaded": 0, "no_file_yet": 0, "lost": 0, "newer_than_note": 0,
             "leftover_tmp": 0, "save_ms": round(save_s * 1000, 1), "errors": []}
    for i in range(rounds):
        folder = tmp_path / f"r{i}"
        folder.mkdir()
        path, note = folder / "town.save", folder / "done"
        first_kill = i % 5 == 0  # every fifth round: killed during the very first save
        if not first_kill:
            shutil.copyfile(good, path)
            note.write_text(str(good_step))
        pid = os.fork()
        if pid == 0:
            _child(e, path, note)
        time.sleep(rng.uniform(0, save_s * (1.2 if first_kill else 2.5)))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        stats["rounds"] += 1
        done = int(note.read_text()) if note.exists() and note.read_text() else None
        stats["leftover_tmp"] += len(list(folder.glob(".*.tmp")))
        stats["journal_left"] = stats.get("journal_left", 0) + (folder / "town.save-journal").exists()
        if not path.exists():
            if done is not None:
                stats["lost"] += 1
                stats["errors"].append(f"round {i}: the save is gone (last finished: step {done})")
            else:
                stats["no_file_yet"] += 1
            continue
        try:
            loaded = load_engine(path, any_answer_model(), lockstep=True)
        except SaveError as err:
            stats["lost"] += 1
            stats["errors"].append(f"round {i}: {err}")
            continue
        stats["loaded"] += 1
        if done is not None and loaded.core.step_no < done:
            stats["lost"] += 1
            stats["errors"].append(f"round {i}: loaded step {loaded.core.step_no}, but step {done} had been saved")
        elif done is not None and loaded.core.step_no > done:
            stats["newer_than_note"] += 1  # killed between the rename and the note: fine
        # the folder listing (load screen) copes with whatever the kill left behind
        for row in list_saves(folder):
            assert "error" not in row, row
        await loaded.aclose()
    await e.aclose()
    return stats


async def test_sigkill_while_saving(tmp_path):
    stats = await kill_rounds(tmp_path, DEFAULT_ROUNDS, seed=1)
    print(f"\nSIGKILL while saving: {stats}")
    assert stats["rounds"] == DEFAULT_ROUNDS
    assert stats["lost"] == 0, stats["errors"][:10]


@pytest.mark.slow
async def test_sigkill_while_saving_many(tmp_path):
    stats = await kill_rounds(tmp_path, SLOW_ROUNDS, seed=2)
    print(f"\nSIGKILL while saving (slow): {stats}")
    assert stats["lost"] == 0, stats["errors"][:10]
