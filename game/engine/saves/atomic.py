"""Files written whole or not at all, and no half-written leftovers, whatever happens to the process.

A file is written to a temporary file beside it, flushed to disk (fsync), moved over the old one
in one step (``os.replace``) and the folder flushed, so a crash leaves the old file or the new one.
A process killed while writing leaves its temporary file behind; the next writer of the same name
removes it. Which leftovers are dead is told by a lock, not by a process id (a PID is reused: a
leftover of a dead writer whose PID now belongs to a live process was kept for ever): the writer
holds an exclusive ``flock`` on its temporary file while it writes, the kernel releases it when
the process dies however it dies, and a leftover nobody holds is removed.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: leftovers are kept, never a live one dropped
    fcntl = None  # type: ignore[assignment]

SUFFIX = ".tmp"


def _pattern(name: str) -> str:
    return f".{name}.*{SUFFIX}"


def fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def drop(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


def drop_stale(folder: Path, name: str) -> int:
    """Remove the temporary files of ``name`` in ``folder`` that no live writer holds; returns how
    many were removed."""
    if fcntl is None:
        return 0
    try:
        leftovers = list(Path(folder).glob(_pattern(name)))
    except OSError:
        return 0
    removed = 0
    for tmp in leftovers:
        try:
            fd = os.open(tmp, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue  # a live writer holds it
        drop(tmp)
        removed += 1
        os.close(fd)
    return removed


@contextmanager
def temp_beside(path: Path) -> Iterator[Path]:
    """A fresh temporary file beside ``path``, locked for as long as the block runs and removed
    after it unless it was moved into place (see ``replace``). Stale leftovers go first."""
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    drop_stale(folder, path.name)
    tmp = folder / f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}{SUFFIX}"
    fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield tmp
    finally:
        drop(tmp)  # gone already when it was moved into place
        os.close(fd)


def replace(tmp: Path, path: Path) -> None:
    """Flush ``tmp`` to disk, move it over ``path`` in one step and flush the folder."""
    with open(tmp, "rb+") as f:
        os.fsync(f.fileno())
    os.replace(tmp, path)
    fsync_dir(Path(path).parent if str(Path(path).parent) else Path("."))


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically and durably."""
    path = Path(path)
    with temp_beside(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
        replace(tmp, path)
