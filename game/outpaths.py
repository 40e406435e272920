"""Where a command will write, checked before any model starts (issue 41): a save, a recording or
an experiment's folder that cannot be written was found only at the end of a run, or after the
model server had started, with a traceback.  Each check raises ``ValueError`` with one plain line
naming the flag, for the command to print and exit 2."""

from __future__ import annotations

import os
from pathlib import Path


def _nearest(p: Path) -> Path:
    """The nearest folder above ``p`` (or ``p``) that exists: what is made below it is made there."""
    p = p.absolute()
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


def _can_make_in(p: Path, flag: str, path: str) -> None:
    at = _nearest(p)
    if not at.is_dir():
        raise ValueError(f"{flag} {path}: {at} is a file, not a folder")
    if not os.access(at, os.W_OK | os.X_OK):
        raise ValueError(f"{flag} {path}: cannot write in {at}")


def writable_file(path: str, flag: str) -> None:
    """``path`` can be written as a file: not a folder, its folder there or makeable, and writable."""
    p = Path(path)
    if p.is_dir():
        raise ValueError(f"{flag} {path}: is a folder; name a file")
    if p.exists() and not os.access(p, os.W_OK):
        raise ValueError(f"{flag} {path}: cannot be written (read-only)")
    _can_make_in(p.parent, flag, path)


def writable_dir(path: str, flag: str) -> None:
    """``path`` can be (or be made) a folder that files are written in."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise ValueError(f"{flag} {path}: is a file; name a folder")
    _can_make_in(p, flag, path)
