"""Relationships and attendance.

Who knows whom, and how well, from the memory streams: resident A *knows* B when B is one of A's
relationships from the start, or A talked with B (a line B said to A, or A's own summary of a talk
with B).  Having only seen B (an observation ``"B is ..."``) makes B *seen*, a weaker tie that is
reported but not counted as knowing.  The strength of a tie is the number of conversations (records
created at the same moment with the same partner count once), sightings and the time of the last
interaction.  Density is that of the undirected graph (an edge when either knows the other):
``2|E| / (n (n - 1))``, as in Park et al. 2023; the directed density is reported too.

Attendance (who was at a place in a time window) needs where everyone was over time.  Saves hold
only the positions at the moment of saving, so attendance is computed from a ``PositionLog``: one
sample per resident per tick (or per ``every`` ticks) taken from a running engine, saved as JSON
lines beside the save; a series of saves can stand in for it (one sample per save).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from game.measure.records import MemoryRow, by_resident, mentioned, name_pattern, source_of, talked_with

if TYPE_CHECKING:  # pragma: no cover
    from game.engine.engine import Engine


@dataclass
class Tie:
    talks: int = 0
    lines_heard: int = 0
    seen: int = 0
    seed: bool = False  # a relationship from the start
    first: datetime | None = None
    last: datetime | None = None

    @property
    def knows(self) -> bool:
        return self.seed or self.talks > 0 or self.lines_heard > 0

    def touch(self, t: datetime) -> None:
        self.first = t if self.first is None or t < self.first else self.first
        self.last = t if self.last is None or t > self.last else self.last

    def to_dict(self) -> dict:
        return {"knows": self.knows, "seed": self.seed, "talks": self.talks, "lines_heard": self.lines_heard,
                "seen": self.seen, "first": self.first.isoformat() if self.first else None,
                "last": self.last.isoformat() if self.last else None}


@dataclass
class Graph:
    residents: list[str]
    ties: dict[tuple[str, str], Tie] = field(default_factory=dict)  # (a, b): what a knows of b

    def tie(self, a: str, b: str) -> Tie:
        return self.ties.setdefault((a, b), Tie())

    def knows(self, a: str, b: str) -> bool:
        t = self.ties.get((a, b))
        return bool(t and t.knows)

    def edges(self) -> set[frozenset]:
        return {frozenset((a, b)) for (a, b), t in self.ties.items() if t.knows and a != b
                and a in self._set and b in self._set}

    @property
    def _set(self) -> set[str]:
        return set(self.residents)

    def density(self) -> float:
        n = len(self.residents)
        return 2 * len(self.edges()) / (n * (n - 1)) if n > 1 else 0.0

    def directed_density(self) -> float:
        n = len(self.residents)
        s = self._set
        d = sum(1 for (a, b), t in self.ties.items() if t.knows and a != b and a in s and b in s)
        return d / (n * (n - 1)) if n > 1 else 0.0

    def to_dict(self) -> dict:
        return {
            "residents": len(self.residents), "edges": len(self.edges()),
            "density": round(self.density(), 4), "directed_density": round(self.directed_density(), 4),
            "ties": [{"from": a, "to": b, **t.to_dict()} for (a, b), t in sorted(self.ties.items())],
        }


def _canonical(name: str, residents: Sequence[str]) -> str:
    if name in residents:
        return name
    for r in residents:
        if r.split()[0].lower() == name.strip().lower():
            return r
    return name


def graph(rows: Iterable[MemoryRow], residents: Sequence[str], *, until: datetime | None = None,
          relationships: dict[str, dict[str, str]] | None = None, start: datetime | None = None) -> Graph:
    """The graph from memory rows created at or before ``until``.  ``relationships`` (resident ->
    {other: text}) marks the starting ties; without it, the seed records ``"<name>: <text>"`` stored
    at ``start`` (the town's first moment) are read as relationships."""
    g = Graph(residents=sorted(residents))
    rel = relationships or {}
    for a, known in rel.items():
        for b in known:
            g.tie(a, _canonical(b, residents)).seed = True
    groups = by_resident(rows)
    for a, recs in groups.items():
        talk_times: dict[str, set[datetime]] = {}
        for r in recs:
            if until is not None and r.created > until:
                break
            src = source_of(r)
            if src:
                b = _canonical(src, residents)
                t = g.tie(a, b)
                t.lines_heard += 1
                t.touch(r.created)
                talk_times.setdefault(b, set()).add(r.created)
                continue
            partners = talked_with(r)
            if partners:
                for p in partners:
                    b = _canonical(p, residents)
                    g.tie(a, b).touch(r.created)
                    talk_times.setdefault(b, set()).add(r.created)
                continue
            if r.kind == "observation":
                if not relationships and start is not None and r.created <= start and ":" in r.text:
                    who = r.text.split(":", 1)[0].strip()
                    if who in residents and who != a:
                        g.tie(a, who).seed = True
                        continue
                others = [b for b in residents if b != a]
                for b in mentioned(r.text[:80], others):
                    if name_pattern(b).match(r.text):  # "<name> is ..." : a sighting
                        t = g.tie(a, b)
                        t.seen += 1
                        t.touch(r.created)
        for b, times in talk_times.items():
            g.tie(a, b).talks = len(times)
    for key in [k for k in g.ties if k[0] == k[1]]:
        del g.ties[key]
    return g


def density_over_time(rows: Sequence[MemoryRow], residents: Sequence[str], start: datetime, end: datetime,
                      step: timedelta = timedelta(hours=1), relationships: dict | None = None
                      ) -> list[tuple[datetime, float]]:
    out = []
    t = start
    while t <= end:
        out.append((t, graph(rows, residents, until=t, relationships=relationships, start=start).density()))
        t += step
    if not out or out[-1][0] < end:
        out.append((end, graph(rows, residents, until=end, relationships=relationships, start=start).density()))
    return out


# ------------------------------------------------------------------------------ attendance


class PositionLog:
    """Where everyone was, sampled every ``every`` ticks from a running engine.

    ``log.sample(engine)`` after each ``engine.step()``; ``log.write(path)`` writes JSON lines
    (a header, then ``{"t": iso, "pos": {name: [x, y]}}`` per sample)."""

    FORMAT = "town-positions"

    def __init__(self, every: int = 6) -> None:
        self.every = max(1, int(every))
        self.samples: list[tuple[datetime, dict[str, tuple[int, int]]]] = []
        self._n = 0

    def sample(self, engine: Engine, force: bool = False) -> None:
        if force or self._n % self.every == 0:
            self.samples.append((engine.clock.now, {k: (v[0], v[1]) for k, v in engine.positions().items()}))
        self._n += 1

    def write(self, path: str | Path) -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps({"format": self.FORMAT, "version": 1, "every": self.every}) + "\n")
            for t, pos in self.samples:
                f.write(json.dumps({"t": t.isoformat(), "pos": {k: list(v) for k, v in pos.items()}}) + "\n")

    @classmethod
    def read(cls, path: str | Path) -> PositionLog:
        from game.engine.running.actionlog import read_headed

        head, lines = read_headed(path, cls.FORMAT, "position log")
        log = cls(every=int(head.get("every", 1)))
        for n, line in enumerate(lines[1:], start=2):
            try:
                d = json.loads(line)
                log.samples.append((datetime.fromisoformat(d["t"]),
                                    {k: (int(v[0]), int(v[1])) for k, v in d["pos"].items()}))
            except (ValueError, KeyError, TypeError, IndexError):
                raise ValueError(f"position log '{path}', line {n}: not a sample") from None
        return log


def attendance(samples: Iterable[tuple[datetime, dict[str, tuple[int, int]]]], tiles: Iterable[tuple[int, int]],
               start: datetime, end: datetime) -> dict[str, dict]:
    """Who was on any of ``tiles`` between ``start`` and ``end``: first and last time seen there and
    the number of samples (a measure of how long they stayed)."""
    area = set(map(tuple, tiles))
    out: dict[str, dict] = {}
    for t, pos in samples:
        if t < start or t > end:
            continue
        for name, p in pos.items():
            if tuple(p) in area:
                d = out.setdefault(name, {"first": t, "last": t, "samples": 0})
                d["last"] = t
                d["samples"] += 1
    return {k: {"first": v["first"].isoformat(), "last": v["last"].isoformat(), "samples": v["samples"]}
            for k, v in sorted(out.items())}
