"""``ServerSupervisor``: a model server that goes away is brought back, and the calls that found it
gone are asked again once it is.

The embedded llama-server (the one the game started) is watched: when its process stops on its
own, or a call finds it gone (connection refused or dropped), it is started again with the same
command line on the same port, after a back-off (``RESTART_BACKOFF_S``: 1, 2, 4, 8 s, one try
after each), and waited for until ``/health`` says ok.  A server at a URL the user gave is never
started by the game: it is looked for again with the same back-off, for ``REMOTE_WAIT_S`` at most.

One recovery at a time: every call that found the server gone waits on the same one
(``recover``), and is asked again when it comes back (``ServerLink`` counts them: ``reasked``).
When it cannot come back, the supervisor is *away*: calls fail at once with ``ModelUnavailable``
(the minds carry on by routine), the status says so (``ModelStatus.server``), and ``town run``
stops.  A remote server that answers a later call is back (``answered``); an embedded one that could
not be restarted is not tried again.

What happens is said, one line each, through ``say`` (``town run``: stderr; the screen reads the
status and shows it).
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from collections.abc import Callable

import httpx

from game.text import one_line

from .api import LLMError
from .server import EmbeddedServer

log = logging.getLogger(__name__)

RESTART_BACKOFF_S: tuple[float, ...] = (1.0, 2.0, 4.0, 8.0)  # seconds before each try
RESTART_READY_S = 120.0  # how long one restarted server may take to say /health ok
REMOTE_WAIT_S = 60.0  # how long a server at the user's URL is looked for before it is away
WATCH_EVERY_S = 0.5  # how often the embedded server's process is looked at
PROBE_TIMEOUT_S = 2.0

UP, RESTARTING, AWAY = "up", "restarting", "away"


class Recovery(enum.Enum):
    """What ``recover`` found: the server answers (it was never gone: retry as usual), it was
    brought back (ask again), or it is away (give up now)."""

    THERE = "there"
    BACK = "back"
    AWAY = "away"


class ServerSupervisor:
    """Owns the state of one model server as the game sees it: ``state`` (``UP``, ``RESTARTING``,
    ``AWAY``), ``restarts`` (times it was brought back), ``reasked`` (calls asked again after it
    came back), ``note`` (the last thing said) and ``away`` (why it is away)."""

    def __init__(self, url: str, *, server: EmbeddedServer | None = None,
                 say: Callable[[str], None] | None = None,
                 backoff_s: tuple[float, ...] | None = None, ready_s: float | None = None,
                 remote_wait_s: float | None = None, watch_every_s: float | None = None) -> None:
        """The timings default to the module's (read when made, so a test may change them)."""
        self.url = url.rstrip("/")
        self.server = server
        self._say = say or (lambda _msg: None)
        self.backoff_s = tuple(backoff_s if backoff_s is not None else RESTART_BACKOFF_S) or (1.0,)
        self.ready_s = ready_s if ready_s is not None else RESTART_READY_S
        self.remote_wait_s = remote_wait_s if remote_wait_s is not None else REMOTE_WAIT_S
        self.watch_every_s = watch_every_s if watch_every_s is not None else WATCH_EVERY_S
        self.state = UP
        self.restarts = 0
        self.reasked = 0
        self.note: str | None = None
        self.away: str | None = None
        self._task: asyncio.Task[Recovery] | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._closed = False
        self._http: httpx.AsyncClient | None = None

    @property
    def embedded(self) -> bool:
        return self.server is not None

    @property
    def _root(self) -> str:
        """The server root (llama-server serves /health there, not under /v1)."""
        return self.url[:-3] if self.url.endswith("/v1") else self.url

    def say(self, message: str) -> None:
        self.note = message
        log.warning("%s", message)
        try:
            self._say(message)
        except Exception:  # noqa: BLE001 - telling must never stop a recovery (test_supervisor.py)
            log.exception("could not say: %s", message)

    # --- lifecycle -------------------------------------------------------------------------

    def start(self) -> None:
        """Watch the embedded server's process (inside the running loop)."""
        if self.server is not None and self._watcher is None:
            self._watcher = asyncio.ensure_future(self._watch())

    def close(self) -> None:
        """Stop watching and recovering at once, without waiting (before the server is stopped on
        purpose: nothing may restart it after).  ``aclose`` then waits for the tasks to end."""
        self._closed = True
        for task in (self._watcher, self._task):
            if task is not None and not task.done():
                task.cancel()

    async def aclose(self) -> None:
        """Stop watching and recovering (before the server is stopped on purpose)."""
        self.close()
        for task in (self._watcher, self._task):
            if task is not None and not task.done():
                task.cancel()
                try:
                    await task
                except (asyncio.CancelledError, Exception):  # noqa: BLE001 - closing
                    pass
        if self._http is not None:
            await self._http.aclose()

    async def _watch(self) -> None:
        server = self.server
        assert server is not None
        while not self._closed and self.state != AWAY:
            await asyncio.sleep(self.watch_every_s)
            code = server.exited()
            if code is not None and self.state == UP:
                try:
                    await self.recover(f"the model server stopped (exit code {code})")
                except Exception:  # noqa: BLE001 - the watch goes on (test_supervisor.py)
                    log.exception("the model server's recovery failed")

    # --- recovery --------------------------------------------------------------------------

    async def recover(self, why: str) -> Recovery:
        """After a call found the server gone (``why``): the one recovery under way, or a new one.
        A caller that is cancelled does not stop it for the others."""
        if self._closed or self.state == AWAY:
            return Recovery.AWAY
        task = self._task
        if task is None or task.done():
            task = self._task = asyncio.ensure_future(self._bring_back(why))
        return await asyncio.shield(task)

    def answered(self) -> None:
        """A call was answered: a remote server that was away is back."""
        if self.state == AWAY and not self.embedded and not self._closed:
            self.state, self.away = UP, None
            self.restarts += 1
            self.say(f"the model server at {self.url} answers again")

    async def _bring_back(self, why: str) -> Recovery:
        if await self._answers():
            return Recovery.THERE
        self.state = RESTARTING
        t0 = time.monotonic()
        came = await (self._restart(why) if self.server is not None else self._reconnect(why))
        if came:
            self.state, self.away = UP, None
            self.restarts += 1
            what = "restarted" if self.embedded else "answers again"
            self.say(f"the model server is back ({what} {time.monotonic() - t0:.1f} s after it was lost)")
            return Recovery.BACK
        self.state = AWAY
        self.say(f"the model is away: {self.away}")
        return Recovery.AWAY

    async def _restart(self, why: str) -> bool:
        server = self.server
        assert server is not None
        code = server.exited()
        lost = f"the model server stopped (exit code {code})" if code is not None else one_line(why, 300)
        tries = len(self.backoff_s)
        last = ""
        for n, delay in enumerate(self.backoff_s, 1):
            self.say(f"{lost}: restarting it in {delay:g} s (try {n} of {tries})")
            await asyncio.sleep(delay)
            try:
                await server.restart(self.ready_s)
            except (LLMError, OSError) as e:  # it stopped while starting, or could not be run
                last = one_line(e, 300)
                lost = f"the restarted model server did not come up ({last})"
                continue
            return True
        self.away = f"the model server could not be restarted in {tries} tries ({last})"
        return False

    async def _reconnect(self, why: str) -> bool:
        t0 = time.monotonic()
        self.say(f"{one_line(why, 300)}: trying it again for up to {self.remote_wait_s:g} s")
        n = 0
        while (left := self.remote_wait_s - (time.monotonic() - t0)) > 0:
            await asyncio.sleep(min(left, self.backoff_s[min(n, len(self.backoff_s) - 1)]))
            n += 1
            if await self._answers():
                return True
        self.away = f"the model server at {self.url} did not answer for {self.remote_wait_s:g} s"
        return False

    async def _answers(self) -> bool:
        """Whether the server answers now: the embedded one's process runs and ``/health`` is ok;
        a remote one answers ``GET /models`` at all (any status: it is there)."""
        if self.server is not None and not self.server.alive():
            return False
        if self._http is None:
            self._http = httpx.AsyncClient(timeout=PROBE_TIMEOUT_S)
        try:
            if self.server is not None:
                return (await self._http.get(f"{self._root}/health")).status_code == 200
            await self._http.get(f"{self.url}/models")
            return True
        except httpx.HTTPError:
            return False
