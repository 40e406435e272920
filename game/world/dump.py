"""``town map [TOWN]``: print a town's map as text (default: the default town)."""

from __future__ import annotations

import argparse
import sys

from .errors import MapError
from .town import Town, default_town_path, load_town


def cli_dump_map(args: argparse.Namespace) -> int:
    path = getattr(args, "town", None) or default_town_path()
    try:
        town = load_town(path)
    except MapError as e:  # bad input: 2, as `town run` says of the same map
        print(f"town map: {e}", file=sys.stderr)
        return 2
    try:
        _print(town)
    except BrokenPipeError:  # `town map | head`
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _print(town: Town) -> None:
    rows = [list(r) for r in town.render_rows()]
    for r in town.residents:
        x, y = town.spawn[r.name]
        rows[y][x] = r.glyph
    out = sys.stdout
    out.write("\n".join("".join(r) for r in rows) + "\n")
    tree = town.tree
    n_obj = len(tree.all_objects())
    out.write(f"\n{town.name}: {town.width}x{town.height} tiles, {len(tree.sectors())} sectors, "
              f"{len(tree.all_arenas())} arenas, {n_obj} objects "
              f"({len(set(tree.kind.values()))} kinds), {len(town.residents)} residents\n")
    for r in town.residents:
        out.write(f"  {r.glyph}  {r.name} ({r.age}), home: {tree.describe(r.home)}\n")
    out.flush()
