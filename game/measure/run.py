"""A measured headless run: the engine in lockstep, with seeded whispers and a position log.

``game.engine.running.headless`` runs a town; this adds what the measurements need and the engine does not
keep: the whispers that seed a piece of news at the start, and where everyone was over time (written
beside the save as ``SAVE.positions.jsonl``, which ``town report`` reads for attendance).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from game.engine.events import TickResult, Whisper
from game.engine.running.actionlog import ActionLog, actions_log_path
from game.measure.relations import PositionLog

if TYPE_CHECKING:  # pragma: no cover
    from game.engine.engine import Engine


@dataclass
class RunResult:
    engine: Engine
    positions: PositionLog
    ticks: int
    real_s: float
    waited_s: float
    errors: list[str] = field(default_factory=list)
    actions: ActionLog | None = None  # what everyone did where (the place-fit measure)


async def measured_run(engine: Engine, until: datetime, *, whispers: Sequence[tuple[str, str]] = (),
                       every: int = 6, on_tick: Callable[[Engine, TickResult], object] | None = None,
                       log: PositionLog | None = None) -> RunResult:
    """Step ``engine`` (made lockstep) until its clock reaches ``until``; whisper first."""
    engine.core.lockstep = True
    for name, text in whispers:
        engine.submit(Whisper(name, text))
    log = log if log is not None else PositionLog(every=every)
    log.sample(engine, force=True)
    actions = ActionLog()
    actions.sample(engine.core)
    t0 = time.monotonic()
    waited = 0.0
    ticks = 0
    errors: list[str] = []
    while engine.clock.now < until:
        if engine.blocked:
            w = time.monotonic()
            await engine.wait_ready()
            waited += time.monotonic() - w
        res = engine.step()
        ticks += 1
        log.sample(engine)
        actions.sample(engine.core, res)
        errors.extend(line.text for line in res.log if line.kind == "error")
        if on_tick is not None:
            on_tick(engine, res)
    log.sample(engine, force=True)
    return RunResult(engine, log, ticks, time.monotonic() - t0, waited, errors, actions=actions)


def save_with_positions(result: RunResult, path: str) -> str:
    result.engine.save(path)
    result.positions.write(str(path) + ".positions.jsonl")
    if result.actions is not None:
        result.actions.write(actions_log_path(path))
    return path
