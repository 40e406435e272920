#!/usr/bin/env python3
"""The talk checks alone on a big town: ``TalkFacts.vet`` of real talk lines (a save's) in a town of
N residents, so that what each line costs as the town grows is seen apart from the rest of a step
(docs/SCALE.md).  Prints the time a line at each size and the ratio to the smallest; with
``--profile`` the functions that take most of the largest size's time.

    .venv/bin/python bench/talk_checks.py SAVE                 # 12, 100, 1,000 residents
    .venv/bin/python bench/talk_checks.py SAVE --sizes 1000 --profile

SAVE: a save of the default town whose talks have lines (a whole day's).  Measure alone on the machine.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
import time
from pathlib import Path

from game.engine.build import new_engine
from game.measure.bench_saves import start_at_eight
from game.measure.benchkit import bench_double
from game.measure.bigtown import big_town
from game.measure.records import read_save
from game.mind.view import Conversation
from game.world import default_town_path

ROUNDS = 3  # each line is vetted this many times (in as many talks), the best round counted


def _lines(save: str) -> list[tuple[list[str], str, str]]:
    """(participants, speaker, line) of every line of the save's talks between residents."""
    data = read_save(save)
    out = []
    for c in data.conversations:
        people = list(c.get("participants", []))
        for who, text in c.get("lines", []):
            if who in people and text:
                out.append((people, who, text))
    return out


def _vet_all(engine, lines: list[tuple[list[str], str, str]], tag: str) -> float:
    """Seconds to vet every line once, each talk a new conversation (no copy of an earlier round)."""
    now = engine.clock.now
    convs: dict[tuple[str, ...], Conversation] = {}
    t = time.perf_counter()
    for people, who, text in lines:
        key = tuple(people)
        conv = convs.get(key) or convs.setdefault(key, Conversation(id=f"{tag}-{len(convs)}", participants=people,
                                                                     place="", lines=[], started=now))
        said = engine.talk_facts.vet(conv, who, text, now)[1]
        if said:
            conv.lines.append((who, said))
    return time.perf_counter() - t


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("save")
    ap.add_argument("--sizes", default="12,100,1000")
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args(argv)
    lines = _lines(args.save)
    base = default_town_path()
    base = base.parent if base.suffix else base
    first = None
    for size in (int(s) for s in args.sizes.split(",")):
        town = base if size <= 12 else big_town(base, size, Path(tempfile.mkdtemp(prefix="checks")) / "town")
        engine = new_engine(town, bench_double(), lockstep=True)
        start_at_eight(engine)
        best = min(_vet_all(engine, lines, f"r{r}") for r in range(ROUNDS))
        per = 1000 * best / max(1, len(lines))
        first = first or per
        print(f"{size:>5} residents: {len(lines)} lines, {per:.2f} ms a line (x{per / first:.1f})")
        if args.profile:
            prof = cProfile.Profile()
            prof.enable()
            _vet_all(engine, lines, "p")
            prof.disable()
            pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
