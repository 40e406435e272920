"""The embedded llama-server: started on a free loopback port, watched, and always stopped.

No orphan, ever: the server runs in its own process group; on Linux the kernel kills it when the
game dies (``PR_SET_PDEATHSIG``); ``atexit`` and SIGTERM/SIGHUP handlers stop it on a normal or
signalled exit; and ``stop()`` runs when the ``async with`` around it ends (Ctrl-C included).
"""

from __future__ import annotations

import asyncio
import atexit
import ctypes
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import BinaryIO

import httpx

from .api import ModelUnavailable
from .config import ServerFlags

Progress = Callable[[str], None]

_RUNNING: set[EmbeddedServer] = set()
_LOCK = threading.Lock()
_HANDLERS_INSTALLED = False


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _die_with_parent() -> None:  # runs in the child between fork and exec
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except OSError:
            pass


def _stop_all() -> None:
    with _LOCK:
        servers = list(_RUNNING)
    for server in servers:
        server.stop()


# what signal.getsignal answers: a handler, SIG_DFL/SIG_IGN, or None (set outside Python)
Handler = Callable[[int, FrameType | None], object] | int | signal.Handlers | None


def _install_handlers() -> None:
    """Stop the servers on SIGTERM/SIGHUP, then let the previous handler (or the default) act."""
    global _HANDLERS_INSTALLED
    if _HANDLERS_INSTALLED:
        return
    _HANDLERS_INSTALLED = True
    atexit.register(_stop_all)
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in (signal.SIGTERM, signal.SIGHUP):
        previous = signal.getsignal(sig)

        def handler(signum: int, frame: FrameType | None, previous: Handler = previous) -> None:
            _stop_all()
            if callable(previous):
                previous(signum, frame)
            elif previous == signal.SIG_IGN:
                return
            else:
                raise SystemExit(128 + signum)

        try:
            signal.signal(sig, handler)
        except (ValueError, OSError):
            pass


class EmbeddedServer:
    """One llama-server process.  ``await start(progress)``; ``stop()``; ``url``."""

    @classmethod
    def with_flags(cls, binary: Path, model: Path, flags: ServerFlags, *, alias: str | None = None,
                   log_path: Path | None = None, keep_log: bool = True) -> EmbeddedServer:
        """A server started with ``flags`` (``LLMConfig.server``)."""
        return cls(binary, model, parallel=flags.slots, ctx_per_slot=flags.ctx_per_slot,
                   threads=flags.threads, threads_batch=flags.threads_batch, batch=flags.batch,
                   ubatch=flags.ubatch, cache_ram_mib=flags.cache_ram_mib, alias=alias,
                   log_path=log_path, keep_log=keep_log)

    def __init__(
        self,
        binary: Path,
        model: Path,
        *,
        parallel: int = 4,
        ctx_per_slot: int = 2048,
        embeddings: bool = False,
        threads: int | None = None,
        threads_batch: int | None = None,
        batch: int | None = None,
        ubatch: int | None = None,
        cache_ram_mib: int | None = None,
        alias: str | None = None,
        log_path: Path | None = None,
        port: int | None = None,
        extra_args: list[str] | None = None,
        keep_log: bool = True,
    ) -> None:
        self.binary = Path(binary)
        self.model = Path(model)
        self.parallel = parallel
        self.ctx_per_slot = ctx_per_slot
        self.batch = batch
        self.ubatch = ubatch if ubatch is not None else batch  # -ub: the batch unless said
        self.cache_ram_mib = cache_ram_mib
        self.embeddings = embeddings
        self.threads = threads
        self.threads_batch = threads_batch
        self.alias = alias or self.model.stem
        self.log_path = log_path
        self.port = port
        self.extra_args = extra_args or []
        self.keep_log = keep_log
        self.failed = False
        self.stopping = False  # stopped on purpose (``stop``): its exit is no crash to restart after
        self.died = 0  # times it stopped on its own while running (restarted by ``ServerSupervisor``)
        self.proc: subprocess.Popen[bytes] | None = None
        self._log_fh: BinaryIO | None = None
        self._log_from = 0  # where this start's lines begin in the log (a restart carries it on)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        cmd = [
            str(self.binary), "-m", str(self.model),
            "--host", "127.0.0.1", "--port", str(self.port),
            "--parallel", str(self.parallel),
            "-c", str(self.parallel * self.ctx_per_slot),
            "--alias", self.alias,
            "--no-webui",
        ]
        if self.threads:
            cmd += ["-t", str(self.threads)]
        if self.threads_batch:
            cmd += ["-tb", str(self.threads_batch)]
        if self.batch:  # small batches: slot 0 (the player's) is evaluated first in each one
            cmd += ["-b", str(self.batch)]
        if self.ubatch:
            cmd += ["-ub", str(self.ubatch)]
        if self.cache_ram_mib is not None:  # llama-server's host-memory prompt cache (MiB; 0: off)
            cmd += ["--cache-ram", str(self.cache_ram_mib)]
        if self.embeddings:
            cmd += ["--embeddings"]
        return cmd + self.extra_args

    def log_tail(self, lines: int = 12) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        try:
            with open(self.log_path, "rb") as fh:
                fh.seek(self._log_from)
                text = fh.read().decode(errors="replace").splitlines()
        except OSError:
            return ""
        return "\n".join(text[-lines:])

    def _launch(self, *, append_log: bool = False) -> None:
        if not self.binary.is_file():
            raise ModelUnavailable(f"the model server '{self.binary}' is not installed: run `town setup`")
        if not self.model.is_file():
            raise ModelUnavailable(f"the model '{self.model}' is not installed: run `town setup`")
        if self.port is None:
            self.port = free_port()
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            self._log_fh = open(self.log_path, "ab" if append_log else "wb")
            self._log_from = self._log_fh.tell()
        out = self._log_fh if self._log_fh is not None else subprocess.DEVNULL
        _install_handlers()
        # Popen from the calling (event-loop) thread: PDEATHSIG fires when *this thread* exits
        self.proc = subprocess.Popen(
            self.command(), stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True, preexec_fn=_die_with_parent, close_fds=True,
        )
        with _LOCK:
            _RUNNING.add(self)

    async def start(self, progress: Progress | None = None, timeout_s: float = 300.0, *,
                    append_log: bool = False) -> None:
        """Launch and wait until ``/health`` says ok.  Raises ``ModelUnavailable`` with the log."""
        say = progress or (lambda _msg: None)
        say(f"starting the model server ({self.model.name})")
        self.stopping = False
        self._launch(append_log=append_log)
        t0 = time.monotonic()
        last = ""
        async with httpx.AsyncClient(timeout=2.0) as http:
            while True:
                code = self._exit_code()
                if code is not None:
                    tail = self.log_tail()
                    raise ModelUnavailable(
                        f"the model server stopped while starting (exit code {code})"
                        + (f"; its last words:\n{tail}" if tail else ""))
                try:
                    resp = await http.get(f"{self.root}/health")
                    if resp.status_code == 200:
                        say(f"model server ready on {self.url} ({time.monotonic() - t0:.1f} s)")
                        return
                    state = "loading the model"
                except httpx.HTTPError:
                    state = "waiting for the model server"
                elapsed = time.monotonic() - t0
                msg = f"{state}... {elapsed:.0f} s"
                if msg != last:
                    say(msg)
                    last = msg
                if elapsed > timeout_s:
                    self._give_up()
                    raise ModelUnavailable(f"the model server did not become ready in "
                                           f"{timeout_s:.0f} s; log: {self.log_path}")
                await asyncio.sleep(0.25)

    def start_sync(self, timeout_s: float = 120.0) -> None:
        """Launch and wait for ``/health`` without an event loop (test fixtures, scripts)."""
        self.stopping = False
        self._launch()
        t0 = time.monotonic()
        with httpx.Client(timeout=2.0) as http:
            while True:
                code = self._exit_code()
                if code is not None:
                    raise ModelUnavailable(f"the model server stopped while starting (exit code "
                                           f"{code}):\n{self.log_tail()}")
                try:
                    if http.get(f"{self.root}/health").status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                if time.monotonic() - t0 > timeout_s:
                    self._give_up()
                    raise ModelUnavailable(f"the model server did not become ready in {timeout_s:.0f} s")
                time.sleep(0.2)

    def _exit_code(self) -> int | None:
        """The exit code of a server that stopped while starting (it is then given up: marked failed
        and cleaned up), or None while it runs."""
        assert self.proc is not None
        code = self.proc.poll()
        if code is not None:
            self._give_up()
        return code

    def _give_up(self) -> None:
        """Starting failed: no retry of this server, and nothing of it left running."""
        self.failed = True
        self.stop()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def exited(self) -> int | None:
        """The exit code of a server that stopped on its own (not by ``stop``), else None."""
        if self.proc is None or self.stopping:
            return None
        return self.proc.poll()

    async def restart(self, timeout_s: float = 120.0) -> None:
        """Start it again after it stopped on its own: the same command line, on the same port,
        its log carried on (kept).  Raises ``ModelUnavailable`` like ``start``."""
        self.died += 1
        self.stop(grace_s=2.0)  # whatever is left of it (a process that hangs on, the log file)
        self.failed = False
        await self.start(None, timeout_s, append_log=True)

    def stop(self, grace_s: float = 5.0) -> None:
        self.stopping = True
        proc = self.proc
        if proc is not None and proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                proc.wait(grace_s)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
                proc.wait(5)
        elif proc is not None:
            proc.poll()
        with _LOCK:
            _RUNNING.discard(self)
        if self._log_fh is not None:
            self._log_fh.close()
            self._log_fh = None
            crashed = proc is not None and proc.returncode not in (0, -signal.SIGTERM, -signal.SIGKILL, None)
            kept = self.keep_log or self.failed or crashed or self.died > 0
            if not kept and self.log_path is not None:
                try:
                    self.log_path.unlink()
                except OSError:
                    pass

    def kill(self) -> None:
        """Kill hard (tests: the server dying in the middle of a request)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)
