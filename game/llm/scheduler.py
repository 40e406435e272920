"""One queue in front of the model server: the most urgent request gets the next free slot.

``async with scheduler.slot(priority):`` waits until fewer than ``slots`` requests are in flight
and no more urgent (lower ``Priority``) or older request of the same priority is waiting.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from contextlib import asynccontextmanager
from typing import AsyncIterator


class PriorityScheduler:
    def __init__(self, slots: int = 4) -> None:
        if slots < 1:
            raise ValueError("the scheduler needs at least one slot")
        self.slots = slots
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

    def _wake(self) -> None:
        while self.in_flight < self.slots and self._heap:
            _, _, fut = heapq.heappop(self._heap)
            if fut.done():  # cancelled while waiting
                continue
            self.in_flight += 1
            fut.set_result(None)

    async def acquire(self, priority: int) -> None:
        if self.in_flight < self.slots and not any(not f.done() for _, _, f in self._heap):
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
