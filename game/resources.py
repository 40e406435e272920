"""The files that ship inside the package (the built-in towns, prompt templates, tables), found
through ``importlib.resources`` so that an installed wheel (pip, pipx, uv tool) reads them exactly
as a checkout does, whatever the current directory."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def package_dir(package: str, *parts: str) -> Path:
    """``parts`` inside ``package`` as a path on disk.  The game hands these paths to code that
    opens files by name (Tiled maps with their tilesets, SQLite), so a package that is not on disk
    (imported from a zip archive) is refused with a message rather than half read."""
    root = files(package)
    if not isinstance(root, Path):
        raise RuntimeError(f"town's data in {package} is not on disk ({root!r}): install the game with "
                           f"pip, pipx or uv, which unpack it")
    return root.joinpath(*parts)
