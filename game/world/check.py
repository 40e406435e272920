"""``town new NAME [--from TOWN]`` makes a town folder to edit, a copy of a built-in town (or of any
town folder); ``town check TOWN`` lists every problem of a town folder, each with its file and field.

The check is the loaders' own validation (game/world/tmx.py, town.py, residents.py), made to go on
past the first problem where it can: residents.json's every field and name at once, and every place
each resident's day needs (home, workplace, the places of its schedule, the places it knows, its
spawn; each event's place) against the map.  The map's own problems (XML, layers, tileset, tiles,
sectors, arenas) are told one at a time, as the map reader stops at the first; until the map reads,
the residents' places cannot be checked, and the report says so."""

from __future__ import annotations

import argparse
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from game.outpaths import writable_dir
from game.text import echo

from .errors import MapError
from .residents import residents_problems
from .town import Town, builtin_town_names, load_town, place_problems, resolve_town_path


@dataclass(frozen=True)
class Problem:
    """One problem of a town: the file, the field in it ("" for the file as a whole) and what is wrong."""

    file: Path
    field: str
    problem: str

    def __str__(self) -> str:
        return f"{self.file}: {self.field}: {self.problem}" if self.field else f"{self.file}: {self.problem}"


def town_files(path: str | Path) -> tuple[Path, Path]:
    """The map and the residents file of the town at ``path`` (a folder, a .tmx or a built-in
    town's name); a ``MapError`` when there is nothing there."""
    p = resolve_town_path(path)
    if not p.exists():
        raise MapError(p, f"no such town (expected a folder with town.tmx and residents.json, a .tmx, or a "
                          f"built-in town: {', '.join(builtin_town_names())})")
    if p.is_dir():
        return p / "town.tmx", p / "residents.json"
    return p, p.parent / "residents.json"


@dataclass
class Report:
    """What ``check_town`` found: every problem, whether the residents' places could be checked
    (the map and residents.json both read), and the town when it loads whole."""

    problems: list[Problem]
    places_checked: bool
    town: Town | None = None


def check_town(path: str | Path) -> Report:
    """Every problem of the town at ``path`` (none: it loads and plays)."""
    tmx, res = town_files(path)
    problems: list[Problem] = []
    town = None
    if not tmx.is_file():
        problems.append(Problem(tmx, "", "no map (a town folder needs town.tmx; town new makes one to edit)"))
    else:
        try:
            town = load_town(tmx, residents=False)
        except MapError as e:
            problems.append(Problem(Path(e.path), "", e.problem))
    rf, found = residents_problems(res)
    problems += [Problem(res, field, problem) for field, problem in found]
    if town is None or rf is None:
        return Report(problems, False)
    town.residents, town.small_cast = list(rf.residents), list(rf.small_cast)
    problems += [Problem(res, field, problem) for field, problem in place_problems(town, rf.events)]
    if problems:
        return Report(problems, True)
    try:  # as play reads it: whatever the checks above did not foresee is still said
        return Report([], True, load_town(tmx.parent if tmx.name == "town.tmx" else tmx))
    except MapError as e:
        return Report([Problem(Path(e.path), "", e.problem)], True)


def cli_check(args: argparse.Namespace) -> int:
    """``town check TOWN``: each problem on its line (stdout), then how many; 0 clean, 2 not."""
    try:
        report = check_town(args.town)
    except MapError as e:
        echo(f"town check: {e}", file=sys.stderr)
        return 2
    for p in report.problems:
        echo(p)
    n = len(report.problems)
    if n or report.town is None:
        note = ("" if report.places_checked
                else " (the residents' places are checked once the map and residents.json read)")
        echo(f"{args.town}: {n} problem{'s' if n != 1 else ''}{note}")
        return 2
    town, tree = report.town, report.town.tree
    echo(f"{args.town}: no problems ({town.name}: {town.width}x{town.height} tiles, {len(tree.sectors())} "
         f"sectors, {len(tree.all_arenas())} arenas, {len(tree.all_objects())} objects, "
         f"{len(town.residents)} residents)")
    return 0


def new_town_path(name: str) -> Path:
    """Where ``town new NAME`` makes the town: ``maps/NAME`` for a plain name, else the path given."""
    p = Path(name).expanduser()
    plain = len(p.parts) == 1 and name not in (".", "..") and not p.is_absolute()
    return Path("maps") / name if plain else p


def cli_new(args: argparse.Namespace) -> int:
    """``town new NAME [--from TOWN]``: a copy of the town to edit; never over anything there."""
    source = getattr(args, "source", None) or "default"
    src = resolve_town_path(source)
    dest = new_town_path(args.name)
    try:
        if not (src.is_dir() and (src / "town.tmx").is_file()):
            raise ValueError(f"--from {source}: not a town folder (a folder with town.tmx and residents.json, or "
                             f"a built-in town: {', '.join(builtin_town_names())})")
        if dest.exists() or dest.is_symlink():
            raise ValueError(f"{dest}: is already there (a new town is never written over anything); choose "
                             f"another name or move it away")
        writable_dir(str(dest), "town new")
        dest.parent.mkdir(parents=True, exist_ok=True)
        part = dest.with_name(f".{dest.name}.making")
        shutil.rmtree(part, ignore_errors=True)
        shutil.copytree(src, part, ignore=shutil.ignore_patterns("__pycache__", ".*", "*.save"))
        part.rename(dest)  # the town appears whole or not at all
    except (ValueError, OSError) as e:
        echo(f"town new: {e}", file=sys.stderr)
        return 2
    echo(f"made {dest}, a copy of {source} ({', '.join(sorted(f.name for f in dest.iterdir()))})")
    echo(f"next: edit {dest / 'town.tmx'} in Tiled and {dest / 'residents.json'} (docs/WORLD.md), then "
         f"town check {dest}, then town play {dest}")
    return 0
