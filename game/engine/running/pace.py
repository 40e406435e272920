"""How fast the clock runs in play, and what happens when the model falls behind.

The game's own clock rates: at "normal" a tick (10 game seconds) every 0.5 real seconds, at "fast"
every 0.1 s. A town asks for decisions faster than a small model on two cores can give them, and a
resident whose decision has not come lives by its rule-based routine meanwhile. The town must not
silently turn into its routine, so the player chooses, as a setting (``--pace-policy``, or
``TOWN_PACE_POLICY``), what gives:

- ``lead`` (the default): the clock slows to a pace the model can lead. While the oldest open
  decision has waited more than ``max_lag_min`` game minutes, each tick waits longer, in proportion
  to the wait, up to ``slowest`` times the chosen rate; and while a resident has lived by its
  routine for more than ``routine_lag_min`` game minutes waiting for its decision, more steeply
  (``routine_ramp`` times more for each game minute past it): a decision that waits for a reaction
  costs no routine, one that waits for the resident's next steps does, and the model's answer
  takes the same real seconds however fast the clock runs. The status line says so ("slowed x3 for
  the model"). The player keeps walking and talking meanwhile; only the town's clock waits.
- ``clock``: the clock keeps its rate and the routine fills in; the status line's model-led share
  and the resident panel show how much of the town the model leads.

The same governor paces ``town run --pace normal|fast`` and the screen, so what is measured
headless is what a player sees; and the same loop runs both (``run_paced``: a tick, then the wait
before the next), the screen's worker (game/ui/worker.py) and ``town run`` (game/engine/running/headless.py).
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Protocol

from game.engine.events import TickResult

TICK_DELAY = {"normal": 0.5, "fast": 0.1}  # real seconds per tick at the game's own rates
AS_FAST = 0.0  # a rate of 0: as fast as decisions allow (the screen's "max")
MAX_WAIT = 5.0  # as fast as decisions allow: the longest the clock waits for the next answer before ticking anyway
MAX_MIN_DELAY = 0.01  # as fast as decisions allow: at most 100 ticks a second, so keys and frames stay smooth
POLICIES = ("lead", "clock")
DEFAULT_POLICY = "lead"
MAX_LAG_MIN = 10.0  # game minutes an open decision may wait before the clock slows
ROUTINE_LAG_MIN = 2.0  # game minutes a resident may live by routine waiting for its decision before it slows
ROUTINE_RAMP = 2.0  # then x1 slower for each half game minute more (x12 at 7.5 minutes)
SLOWEST = 12.0  # at most this many times slower than the chosen rate


def policy_from_env(value: str | None = None) -> str:
    """The pace policy from a flag's value or ``TOWN_PACE_POLICY``; a clear error for anything else."""
    v = (value or os.environ.get("TOWN_PACE_POLICY") or DEFAULT_POLICY).strip().lower()
    if v not in POLICIES:
        raise ValueError(f"pace policy {v!r} is not one of: {', '.join(POLICIES)}")
    return v


class Governor:
    """Turns the chosen rate and the model's backlog into the real seconds before the next tick."""

    def __init__(self, policy: str = DEFAULT_POLICY, *, max_lag_min: float = MAX_LAG_MIN,
                 slowest: float = SLOWEST, routine_lag_min: float = ROUTINE_LAG_MIN,
                 routine_ramp: float = ROUTINE_RAMP) -> None:
        if policy not in POLICIES:
            raise ValueError(f"pace policy {policy!r} is not one of: {', '.join(POLICIES)}")
        self.policy = policy
        self.max_lag_min = max(0.1, float(max_lag_min))
        self.slowest = max(1.0, float(slowest))
        self.routine_lag_min = max(0.0, float(routine_lag_min))
        self.routine_ramp = max(0.0, float(routine_ramp))
        self.factor = 1.0  # how much slower than the chosen rate the clock runs now (for the screen)

    def delay(self, base_s: float, backlog_min: float, routine_min: float = 0.0) -> float:
        """Seconds to wait before the next tick at a base rate of ``base_s``, given that the oldest
        open decision has waited ``backlog_min`` game minutes and the longest wait lived by routine
        (a resident waiting for its next steps meanwhile) has lasted ``routine_min``."""
        factor = 1.0
        if self.policy == "lead":
            if backlog_min > self.max_lag_min:
                factor = backlog_min / self.max_lag_min
            if routine_min > self.routine_lag_min:
                factor = max(factor, 1.0 + (routine_min - self.routine_lag_min) * self.routine_ramp)
        self.factor = min(self.slowest, factor)
        return base_s * self.factor

    def label(self) -> str:
        """A few words for the status line ("" at full rate)."""
        if self.factor <= 1.0:
            return ""
        return f"slowed x{self.factor:.0f} for the model" if self.factor >= 1.5 else "slowed for the model"


class PacedTown(Protocol):
    """What the paced loop reads of a town (``EngineView`` and the live ``Engine`` have it)."""

    def lead(self) -> tuple[float | None, float]:
        """The model-led share, and the game minutes the oldest open decision has waited."""
        ...

    def routine_wait_min(self) -> float: ...

    async def wait_any(self) -> None: ...


class Ticking(Protocol):
    """Who runs the loop: the screen's worker or ``town run``.  It says when to stop, the rate,
    how to make a tick (``None``: none this turn, as while paused or when the tick failed), what to
    do with it, and how to wait out the seconds between ticks."""

    def running(self) -> bool: ...

    def rate(self) -> float | None:
        """Real seconds per tick: ``None`` in lockstep (no wait: the tick waits for its decisions),
        ``AS_FAST`` as fast as decisions allow, else the game's rate, which the governor slows."""
        ...

    async def tick(self) -> TickResult | None: ...

    def ticked(self, result: TickResult) -> None: ...

    async def rest(self, delay: float, left: float) -> None:
        """Wait out what is ``left`` of the tick's ``delay`` (the rate as the governor set it) after the
        tick's own work, so the clock keeps its rate however long a tick takes to make."""
        ...


async def run_paced(town: PacedTown, runner: Ticking, governor: Governor) -> float:
    """Tick until ``runner.running()`` is false, each tick at the runner's rate; returns the real
    seconds the clock waited beyond its rate for the model (the pace policy's slowing)."""
    slowed = 0.0
    rested = time.monotonic()  # when the last wait ended: the tick's own work since then is part of its delay
    while runner.running():
        rate = runner.rate()
        result = await runner.tick()
        if result is None:
            continue
        if rate is None or rate == AS_FAST:
            runner.ticked(result)
            if rate == AS_FAST:
                await _as_fast(town, result.waiting_on_model)
            rested = time.monotonic()
            continue
        delay = governor.delay(rate, town.lead()[1], town.routine_wait_min())
        slowed += delay - rate
        runner.ticked(result)
        await runner.rest(delay, max(0.0, delay - (time.monotonic() - rested)))
        rested = time.monotonic()
    return slowed


async def _as_fast(town: PacedTown, waiting_on_model: int) -> None:
    """As fast as decisions allow: wait for the next answer (at most ``MAX_WAIT``) when one is awaited."""
    if not waiting_on_model:
        await asyncio.sleep(MAX_MIN_DELAY)
        return
    try:
        await asyncio.wait_for(town.wait_any(), MAX_WAIT)
    except TimeoutError:
        pass

