"""The clock's rate over a stretch of a real-time ``town run``, read from its progress lines.

``town run ... --pace normal`` writes a progress line every 30 real seconds to stderr
("  Day 1, 07:00:00  model calls 324 ... real 980s").  Between two game times this reads the real
seconds the run took against the normal rate's (a game minute every 3 real seconds: a tick of 10
game seconds every 0.5 s, ``game/engine/running/pace.py``), which is how docs/BENCHMARKS.md gives a stretch
of a run ("the work hours, 07:00-09:00: x0.80").

    python -m game.measure.clockrate RUN.err 05:00 12:00 [07:00 09:00 ...]
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass

NORMAL_S_PER_GAME_MIN = 3.0
_LINE = re.compile(r"Day (\d+), (\d\d):(\d\d):(\d\d)\s+model calls.*\breal (\d+)s")


@dataclass(frozen=True)
class Stretch:
    start: str
    end: str
    game_min: float
    real_s: int

    @property
    def normal_s(self) -> float:
        return self.game_min * NORMAL_S_PER_GAME_MIN

    @property
    def rate(self) -> float:
        """The clock's rate against the normal one (1.0: the normal rate; 0.5: half as fast)."""
        return self.normal_s / self.real_s if self.real_s else float("inf")

    def line(self) -> str:
        return (f"{self.start}-{self.end}: {self.real_s} s / {self.normal_s:.0f} s at the normal rate, "
                f"the clock at x{self.rate:.2f}")


def points(lines: Iterable[str]) -> list[tuple[float, int]]:
    """(game minute from day 1's midnight, real seconds) of each progress line."""
    out = []
    for line in lines:
        m = _LINE.search(line)
        if m:
            day, h, mi, s, real = map(int, m.groups())
            out.append(((day - 1) * 1440 + h * 60 + mi + s / 60, real))
    return out


def stretch(pts: list[tuple[float, int]], start: str, end: str, day: int = 1) -> Stretch:
    """The stretch between the progress lines nearest ``start`` and ``end`` ("HH:MM" of ``day``)."""
    if not pts:
        raise ValueError("no progress lines (a `town run` log written at pace normal or fast?)")

    def near(hhmm: str) -> tuple[float, int]:
        h, m = map(int, hhmm.split(":"))
        t = (day - 1) * 1440 + h * 60 + m
        return min(pts, key=lambda p: abs(p[0] - t))

    (t0, r0), (t1, r1) = near(start), near(end)
    return Stretch(start, end, t1 - t0, r1 - r0)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 3 or len(args) % 2 == 0:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8", errors="replace") as f:
        pts = points(f)
    try:
        for a, b in zip(args[1::2], args[2::2], strict=True):
            print(stretch(pts, a, b).line())
    except ValueError as e:
        print(f"clockrate: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
