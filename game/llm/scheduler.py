"""One queue in front of the model server: the most urgent request gets the next free slot.

``async with scheduler.slot(priority):`` waits until fewer than ``slots`` requests are in flight
and no more urgent (lower ``Priority``) or older request of the same priority is waiting.

``reserve`` slots are kept for the most urgent work (priority 0: what the player waits for): the
town's own planning never fills the server, so a resident's reply to the player starts at once
instead of queueing behind a minute of day plans.

While the player waits on a request (priority 0 in flight), and for ``linger`` seconds after one
ends, the town starts none of its own: a conversation with the player is a run of short requests
(the reply context evaluated while they type, the reply), and a town prompt started between two of
them would share every batch of the next with it.

Each request in flight holds a slot number (``slot()`` yields it): the most urgent work takes the
lowest free number, the town's own work the highest, so slot 0 is free for the player whenever
nothing of the player's is in flight.  Work with a ``key`` (the resident it is for) goes back to
the slot its key last had, if that is free (the town's never to slot 0): every prompt of a resident
begins with the same words (who the resident is: ``game.mind.prompting``), so a slot that served the
resident last still holds them evaluated, and two residents answering the player keep their own
prompts.  The client can pin requests to those server slots
(llama-server's ``id_slot``): llama-server fills each batch from its slots in order, so with a
small batch the prompt in slot 0 is evaluated before the others' (docs/MODEL.md).

With ``preempt`` on (one llama-server on a few cores: every slot shares the same compute), the
player's request also stops the town's requests already in flight: each holder of a town slot may
register how to stop its request (``on_preempt``); when work of the player's takes a slot, they are
called, and the town's requests go back to the queue to be asked again once the player's are done
(their prompts stay evaluated in their server slots, so only what they had written is lost).  A
reply that waited behind three town answers being written took 12.6 s to its first words on two
cores; alone, about one second.

How many may be in flight is the ``throttle``'s (throttle.py): the slots the server says it has,
or, where it says nothing, what its answer times show it can take; fewer after it refuses (429,
503).  ``slots`` stays the number of server slots to pin requests to (or the throttle's ceiling).
Each request in flight holds a ticket of the throttle's: the link reports its answer time
(``answered``) or its refusal (``refused``) before it gives the slot back.

The scheduler also keeps how long it has had nothing to do (nothing in flight, nothing queued):
``spare()`` is the share of the last ``window`` seconds it was idle (the time before it existed
counts as busy) and ``idle_s()`` how long the present idle stretch has lasted.  The engine reads
them, in real-time play only, to let the residents react and talk past their daily floor while
the server has time to spare (game/engine/decisions/capacity.py).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from .throttle import Throttle

SPARE_WINDOW_S = 60.0  # real seconds over which ``spare()`` measures the idle share


class PriorityScheduler:
    def __init__(self, slots: int = 4, reserve: int = 1, linger: float = 0.0,
                 clock: Callable[[], float] = time.monotonic, preempt: bool = False,
                 window: float = SPARE_WINDOW_S, throttle: Throttle | None = None) -> None:
        if slots < 1:
            raise ValueError("the scheduler needs at least one slot")
        self.slots = slots
        # how many may be in flight (a fixed ``slots`` unless a throttle of its own is given)
        self.throttle = throttle or Throttle(slots, stated=True)
        self.reserve = max(0, int(reserve))
        self.linger = max(0.0, float(linger))
        self._clock = clock
        self._player_until = float("-inf")  # the town waits until then (a player's request just ended)
        self.in_flight = 0
        self._heap: list[tuple[int, int, asyncio.Future[None]]] = []
        self._seq = itertools.count()
        self._held: dict[int, int] = {}  # slot number in use -> the priority that holds it
        self._tickets: dict[int, int] = {}  # slot number in use -> its request's throttle ticket
        self._player_held = 0  # slots held by priority 0 (the player's work)
        self._waiting = 0  # requests queued (their futures not yet granted nor cancelled)
        self._keyed: dict[str, int] = {}  # key (a resident) -> the slot number its work last had
        self.preempt = preempt
        self._stoppers: dict[int, Callable[[], None]] = {}  # slot number -> stops its town request
        self.preempted = 0  # town requests stopped for the player's
        # idle and busy time (``spare``): busy while anything is in flight or queued
        self.window = max(1.0, float(window))
        self._born = clock()
        self._busy_from: float | None = None  # when the present busy stretch began (None: idle)
        self._idle_from = self._born
        self._stretches: deque[tuple[float, float]] = deque()  # busy stretches of the last window

    def _note(self) -> None:
        """Keep the busy and idle stretches up to date (after anything in flight or queued changed)."""
        now = self._clock()
        busy = self.in_flight > 0 or self.queued > 0
        if busy and self._busy_from is None:
            self._busy_from = now
        elif not busy and self._busy_from is not None:
            self._stretches.append((self._busy_from, now))
            self._busy_from = None
            self._idle_from = now
        while self._stretches and self._stretches[0][1] < now - self.window:
            self._stretches.popleft()

    def spare(self, window: float | None = None) -> float:
        """The share (0..1) of the last ``window`` seconds (``self.window`` at most) in which nothing
        was in flight or queued.  The time before the scheduler was made counts as busy: a town
        just started has shown no spare time yet."""
        w = min(self.window, float(window)) if window else self.window
        now = self._clock()
        lo = now - w
        busy = max(0.0, min(self._born, now) - lo)
        for start, end in self._stretches:
            busy += max(0.0, min(end, now) - max(start, lo))
        if self._busy_from is not None:
            busy += max(0.0, now - max(self._busy_from, lo))
        return max(0.0, min(1.0, 1.0 - busy / w))

    def idle_s(self) -> float:
        """Seconds since the scheduler last had anything in flight or queued (0 while it has)."""
        if self._busy_from is not None or self.in_flight > 0 or self.queued > 0:
            return 0.0
        return max(0.0, self._clock() - self._idle_from)

    @property
    def queued(self) -> int:
        return self._waiting

    @property
    def capacity(self) -> int:
        """How many requests may be in flight now (the throttle's limit)."""
        return self.throttle.value

    def resize(self, slots: int) -> None:
        """The server has ``slots`` slots (it said so): as many in flight from now on."""
        if slots < 1:
            raise ValueError("the scheduler needs at least one slot")
        self.slots = slots
        self.throttle.state(slots)
        self._wake()

    def answered(self, number: int, seconds: float, purpose: str) -> None:
        """The request in slot ``number`` was answered after ``seconds`` (before it is released)."""
        ticket = self._tickets.get(number)
        if ticket is not None:
            self.throttle.answered(ticket, seconds, purpose, waiting=self._waiting > 0)

    def refused(self, number: int) -> bool:
        """The request in slot ``number`` was refused for the server's load (429, 503): fewer in
        flight from now on (once a round: see throttle.py).  Returns whether the limit was cut."""
        ticket = self._tickets.get(number)
        return ticket is not None and self.throttle.refused(ticket)

    def limit(self, priority: int) -> int:
        """How many requests may be in flight when one of ``priority`` starts.  While the player
        waits on a request (priority 0 in flight), the town starts none of its own: a new prompt
        would be evaluated beside the player's and slow its every step (requests already in
        flight go on)."""
        cap = self.throttle.value
        if priority <= 0:
            return cap
        if self._player_held > 0 or self._clock() < self._player_until:
            return 0
        return max(1, cap - self.reserve)

    def _head(self) -> int | None:
        """The priority of the most urgent request waiting (None: none waits)."""
        while self._heap and self._heap[0][2].done():  # cancelled while waiting
            heapq.heappop(self._heap)
        return self._heap[0][0] if self._heap else None

    def _wake(self) -> None:
        while (prio := self._head()) is not None:
            if self.in_flight >= self.limit(prio):
                break  # the most urgent waiting request cannot start yet; nor can any after it
            fut = heapq.heappop(self._heap)[2]
            self.in_flight += 1
            self._waiting -= 1
            fut.set_result(None)
        self._note()

    async def acquire(self, priority: int, key: str | None = None) -> int:
        """Wait for a slot; returns its number (see ``slot``)."""
        head = self._head()
        if self.in_flight < self.limit(priority) and (head is None or head > priority):
            self.in_flight += 1
            self._note()
            return self._number(priority, key)
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._heap, (int(priority), next(self._seq), fut))
        self._waiting += 1
        self._note()
        try:
            await fut
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                # the slot was granted just as we were cancelled: hand it on
                self.release()
            else:
                self._waiting -= 1
                self._note()  # (a cancelled waiter may have been the last thing queued)
            raise
        return self._number(priority, key)

    def _number(self, priority: int, key: str | None = None) -> int:
        free = [n for n in range(max(self.slots, len(self._held) + 1)) if n not in self._held]
        if priority > 0:
            last = self._keyed.get(key) if key is not None else None
            n = last if last is not None and last in free and (last > 0 or len(free) == 1) else free[-1]
            if key is not None:
                self._keyed[key] = n
        else:
            n = self._keyed.get(key, free[0]) if key is not None else free[0]
            n = n if n in free else free[0]
            if key is not None:
                self._keyed[key] = n
        self._held[n] = int(priority)
        self._tickets[n] = self.throttle.ticket()
        if priority <= 0:
            self._player_held += 1
        if priority <= 0 and self.preempt:
            self._preempt_town()
        return n

    def on_preempt(self, number: int, stop: Callable[[], None] | None) -> None:
        """Register (or, with None, forget) how to stop the town's request in slot ``number``."""
        if stop is None:
            self._stoppers.pop(number, None)
        else:
            self._stoppers[number] = stop

    def _preempt_town(self) -> None:
        for n, stop in list(self._stoppers.items()):
            if self._held.get(n, 0) > 0:
                del self._stoppers[n]
                self.preempted += 1
                stop()

    def release(self, number: int | None = None) -> None:
        """Give a slot back (its number, as ``acquire`` returned it)."""
        self.in_flight -= 1
        if self.in_flight < 0:
            raise RuntimeError("scheduler slot released twice")
        if number is not None:
            self._stoppers.pop(number, None)
            self._tickets.pop(number, None)
            held = self._held.pop(number, None)
            if held is not None and held <= 0:
                self._player_held -= 1
            if held is not None and held <= 0 and self.linger > 0:
                self._player_until = self._clock() + self.linger
                try:  # the town's waiting requests are looked at again once the pause is over
                    asyncio.get_running_loop().call_later(self.linger + 0.02, self._wake)
                except RuntimeError:  # no loop (released from plain code): the next release wakes them
                    pass
        self._wake()

    @asynccontextmanager
    async def slot(self, priority: int, key: str | None = None) -> AsyncIterator[int]:
        """``async with scheduler.slot(priority) as number:`` the request may run; ``number`` is
        the server slot it may use (lowest free for the player's work, or the one ``key`` last
        had; highest for the town's)."""
        number = await self.acquire(priority, key)
        try:
            yield number
        finally:
            self.release(number)
