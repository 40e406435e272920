"""``SlotWatch``: whether a llama-server has stood still with work in its slots.

A llama-server was seen to wedge (2026-11-29): one slot ``is_processing``, its prompt 32 tokens
in, nothing moving for minutes while the server's main thread spun a core, and every request
behind it waiting.  It came from a request pinned to a slot while the server was still ending one
dropped there a moment before (a preempted or stalled request asked again at once; two clients
pinning to one slot); each later request pinned there wedged again, and dropping the stuck one set
the server going.  ``ServerLink`` no longer pins to a slot right after a drop there
(``REPIN_AFTER_S``), and, should the server stand still all the same, ``ServerLink.watched`` asks
this watch how long it has, while a request of its own is in flight; past ``wedge_s`` it drops its
request and asks again.

"Still" is read from ``GET /slots``: each slot's task, prompt tokens evaluated and tokens written.
Any change in any slot is progress (one slot may wait while others evaluate a long prompt, which
is no wedge).  A server with no ``/slots`` (vLLM, a llama-server started with
``--no-slots``), or one that does not answer it in time, is never called still.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import httpx

WATCH_EVERY_S = 5.0  # seconds between two looks at /slots (only while a request is in flight)
WEDGE_S = 30.0  # seconds the server may stand still with work in a slot before a request is dropped
PROBE_TIMEOUT_S = 2.0


def progress_of(slots: object) -> tuple[tuple[object, ...], ...] | None:
    """What moves while a llama-server works, from its ``/slots`` answer (None: not that answer)."""
    if not isinstance(slots, list) or not slots:
        return None
    seen = []
    for s in slots:
        if not isinstance(s, dict):
            return None
        nxt = s.get("next_token")
        first = nxt[0] if isinstance(nxt, list) and nxt and isinstance(nxt[0], dict) else {}
        seen.append((s.get("id"), bool(s.get("is_processing")), s.get("id_task"),
                     s.get("n_prompt_tokens_processed"), first.get("n_decoded")))
    return tuple(seen)


class SlotWatch:
    """Owns what is known of one llama-server's progress: the last ``/slots`` look and when it
    last changed.  ``standing_s`` is how long it has stood still with work in a slot."""

    def __init__(self, root: str, http: httpx.AsyncClient, *, every_s: float | None = None,
                 wedge_s: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.root = root.rstrip("/")
        self.http = http
        self.every_s = every_s if every_s is not None else WATCH_EVERY_S
        self.wedge_s = wedge_s if wedge_s is not None else WEDGE_S
        self.clock = clock
        self.usable = True  # False once the server showed it has no /slots to read
        self.wedges = 0  # requests dropped because the server stood still
        self._last: tuple[tuple[object, ...], ...] | None = None
        self._since = 0.0  # when ``_last`` was first seen
        self._looked = -1e9
        self._lock = asyncio.Lock()

    async def standing_s(self) -> float:
        """Seconds the server has shown the same progress with a slot at work (0: moving, idle
        or unknown).  Looks at ``/slots`` at most every ``every_s``."""
        if not self.usable:
            return 0.0
        async with self._lock:
            now = self.clock()
            if now - self._looked >= self.every_s:
                self._looked = now
                self._see(await self._look(), now)
        if self._last is None or not any(s[1] for s in self._last):
            return 0.0
        return self.clock() - self._since

    def _see(self, seen: tuple[tuple[object, ...], ...] | None, now: float) -> None:
        if seen is None:
            self._last = None
        elif seen != self._last:
            self._last, self._since = seen, now

    async def _look(self) -> tuple[tuple[object, ...], ...] | None:
        try:
            resp = await self.http.get(f"{self.root}/slots", timeout=PROBE_TIMEOUT_S)
        except httpx.HTTPError:
            return None  # busy or gone: not a sign either way (the link's own errors tell)
        if resp.status_code in (404, 405, 501):
            self.usable = False
            return None
        if resp.status_code != 200:
            return None
        try:
            return progress_of(resp.json())
        except ValueError:
            return None

    def wedged(self, standing: float) -> bool:
        return standing >= self.wedge_s
