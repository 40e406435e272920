"""The paced loop keeps the game's rate: a tick's own work is part of its delay, not added to it."""

from __future__ import annotations

import asyncio

from game.engine.running.pace import Governor, run_paced


class _Town:
    def lead(self) -> tuple[float | None, float]:
        return 1.0, 0.0

    def routine_wait_min(self) -> float:
        return 0.0

    async def wait_any(self) -> None:
        return None


class _Runner:
    """Three ticks at 0.05 s each, every tick busy for ``work`` seconds (a clock that is faked)."""

    def __init__(self, work: float) -> None:
        self.work, self.n, self.rests = work, 0, []

    def running(self) -> bool:
        return self.n < 3

    def rate(self) -> float | None:
        return 0.05

    async def tick(self):
        self.n += 1
        await asyncio.sleep(self.work)
        return type("Res", (), {"waiting_on_model": 0})()

    def ticked(self, result) -> None:
        pass

    async def rest(self, delay: float, left: float) -> None:
        self.rests.append((delay, left))


def test_a_tick_that_takes_time_rests_only_what_is_left_of_its_delay():
    quick, slow = _Runner(0.0), _Runner(0.03)
    asyncio.run(run_paced(_Town(), quick, Governor()))
    asyncio.run(run_paced(_Town(), slow, Governor()))
    assert [d for d, _ in slow.rests] == [0.05] * 3  # the governor's delay is reported whole
    assert all(left <= 0.05 - 0.029 for _, left in slow.rests)  # 30 ms of work leaves at most 21 ms
    assert all(left > 0.04 for _, left in quick.rests)


def test_a_tick_longer_than_its_delay_does_not_rest_and_does_not_owe():
    slow = _Runner(0.08)
    asyncio.run(run_paced(_Town(), slow, Governor()))
    assert [left for _, left in slow.rests] == [0.0, 0.0, 0.0]
