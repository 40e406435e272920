"""One queue in front of the model server: the most urgent request gets the next free slot.

``async with scheduler.slot(priority):`` waits until fewer than ``slots`` requests are in flight
and no more urgent (lower ``Priority``) or older request of the same priority is waiting.

``reserve`` slots are kept for the most urgent work (priority 0: what the player waits for): the
town's own planning never fills the server, so a resident's reply to the player starts at once
instead of queueing behind a minute of day plans.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from contextlib import asynccontextmanager
from typing import AsyncIterator


class PriorityScheduler:
    def __init__(self, slots: int = 4, reserve: int = 1) -> None:
        if slots < 1:
            raise ValueError("the scheduler needs at least one slot")
        self.slots = slots
        self.reserve = max(0, int(reserve))
        self.in_flight = 0
        self._heap: list[tuple[int, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()

    @property
    def queued(self) -> int:
        return sum(1 for _, _, f in self._heap if not f.done())

    def resize(self, slots: int) -> None:
        """Change the number of slots (e.g. once the server has said how many it has)."""
        if slots < 1:
            raise ValueError("the scheduler needs at least one slot")
        self.slots = slots
        self._wake()

    def limit(self, priority: int) -> int:
        """How many requests may be in flight when one of ``priority`` starts."""
        if priority <= 0:
            return self.slots
        return max(1, self.slots - self.reserve)

    def _wake(self) -> None:
        while self._heap:
            prio, _, fut = self._heap[0]
            if fut.done():  # cancelled while waiting
                heapq.heappop(self._heap)
                continue
            if self.in_flight >= self.limit(prio):
                break  # the most urgent waiting request cannot start yet; nor can any after it
            heapq.heappop(self._heap)
            self.in_flight += 1
            fut.set_result(None)

    async def acquire(self, priority: int) -> None:
        if self.in_flight < self.limit(priority) and not any(
                not f.done() and p <= priority for p, _, f in self._heap):
            self.in_flight += 1
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._heap, (int(priority), next(self._seq), fut))
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                # the slot was granted just as we were cancelled: hand it on
                self.release()
            raise

    def release(self) -> None:
        self.in_flight -= 1
        if self.in_flight < 0:
            raise RuntimeError("scheduler slot released twice")
        self._wake()

    @asynccontextmanager
    async def slot(self, priority: int) -> AsyncIterator[None]:
        await self.acquire(priority)
        try:
            yield
        finally:
            self.release()
