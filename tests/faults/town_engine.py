"""A running engine on the fault town with the instant fake model (tests only)."""

from __future__ import annotations

from pathlib import Path

from game.engine.build import new_engine
from game.engine.engine import Engine

from .fakes import any_answer_model
from .townfiles import write_town


async def ticks(e: Engine, n: int) -> list:
    out = []
    for _ in range(n):
        await e.wait_ready()
        out.append(e.step())
    return out


async def busy_engine(folder: Path, n_ticks: int = 90, seed: int = 1) -> Engine:
    town = write_town(Path(folder) / "town")
    e = new_engine(town, any_answer_model(seed), lockstep=True, seed=seed)
    await ticks(e, n_ticks)
    return e
