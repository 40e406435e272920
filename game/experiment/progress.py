"""The experiment's progress bar: plain text on stderr with an ETA, redrawn in place on a
terminal and one line every 5% otherwise (a log file stays readable).

Its own module because only the running of a scenario uses it and it knows nothing of towns.
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import TextIO


class ProgressBar:
    """A progress bar with an ETA on stderr, plain text: redrawn in place on a terminal, one line
    every 5% otherwise (a log file stays readable)."""

    def __init__(self, start: datetime, end: datetime, out: TextIO | None, width: int = 30) -> None:
        self.start, self.end, self.out, self.width = start, end, out, width
        self.t0 = time.monotonic()
        self.tty = bool(out is not None and hasattr(out, "isatty") and out.isatty())
        self._last_pct = -5
        self._last_draw = 0.0

    def update(self, now: datetime, clock_text: str, note: str = "") -> None:
        if self.out is None:
            return
        total = max((self.end - self.start).total_seconds(), 1e-9)
        frac = min(1.0, max(0.0, (now - self.start).total_seconds() / total))
        pct = int(frac * 100)
        t = time.monotonic()
        if self.tty and t - self._last_draw < 0.2 and frac < 1.0:
            return
        if not self.tty and pct < self._last_pct + 5 and frac < 1.0:
            return
        self._last_pct, self._last_draw = pct, t
        spent = t - self.t0
        eta = f"ETA {_dur(spent * (1 - frac) / frac)}" if frac > 0.001 else "ETA ?"
        n = int(round(self.width * frac))
        line = (f"[{'#' * n}{'.' * (self.width - n)}] {pct:3d}%  {clock_text}  "
                f"{_dur(spent)} spent, {eta}" + (f"  {note}" if note else ""))
        if self.tty:
            print("\r" + line + "\x1b[K", end="", file=self.out, flush=True)
        else:
            print(line, file=self.out, flush=True)

    def say(self, text: str) -> None:
        if self.out is None:
            return
        if self.tty:
            print("\r\x1b[K" + text, file=self.out, flush=True)
            self._last_draw = 0.0
        else:
            print(text, file=self.out, flush=True)

    def done(self) -> None:
        if self.out is not None and self.tty:
            print(file=self.out, flush=True)


def _dur(s: float) -> str:
    s = int(max(0, s))
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"
