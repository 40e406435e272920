"""The embedded server never outlives the game, however the game ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import HAVE_SERVER, PATHS, SKIP_REASON

pytestmark = [pytest.mark.real_model, pytest.mark.skipif(not HAVE_SERVER, reason=SKIP_REASON)]

CHILD = """
import sys, time
from pathlib import Path
from game.llm.server import EmbeddedServer
s = EmbeddedServer(Path(sys.argv[1]), Path(sys.argv[2]), parallel=1, ctx_per_slot=512, threads=1)
s.start_sync()
print(s.proc.pid, flush=True)
if sys.argv[3] == "exit":
    sys.exit(0)  # atexit stops it
time.sleep(60)
"""


def _gone(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        # a zombie is gone for our purposes once reaped by init; check its state
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split()[2]
            if state == "Z":
                return True
        except OSError:
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM", "exit"])
def test_server_dies_with_the_game(how):
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(PATHS.server_bin), str(PATHS.test_model),
         "exit" if how == "exit" else "stay"],
        stdout=subprocess.PIPE, text=True, cwd=Path(__file__).resolve().parents[2])
    try:
        line = child.stdout.readline()
        server_pid = int(line)
        if how != "exit":
            child.send_signal(getattr(signal, how))
        child.wait(10)
        assert _gone(server_pid), f"llama-server {server_pid} outlived the game ({how})"
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
