"""The game clock: a start date and time and a number of game seconds per step."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

DEFAULT_START = datetime(2026, 3, 2, 6, 0, 0)  # a Monday morning


class Clock:
    def __init__(self, start: datetime = DEFAULT_START, seconds_per_step: float = 10, step: int = 0):
        if seconds_per_step <= 0:
            raise ValueError("seconds_per_step must be positive")
        self.start = start
        self.seconds_per_step = seconds_per_step
        self.step = step

    @property
    def now(self) -> datetime:
        return self.start + timedelta(seconds=self.step * self.seconds_per_step)

    def tick(self, steps: int = 1) -> datetime:
        self.step += steps
        return self.now

    @property
    def day(self) -> int:
        """1 on the start date, 2 the day after, ..."""
        return (self.now.date() - self.start.date()).days + 1

    def text(self) -> str:
        """``"Day 1, 07:30:10"``"""
        return f"Day {self.day}, {self.now:%H:%M:%S}"

    def long_text(self) -> str:
        """``"Monday March 2, 2026, 07:30"``"""
        n = self.now
        return f"{n:%A %B} {n.day}, {n.year}, {n:%H:%M}"

    def steps_until(self, when: datetime) -> int:
        secs = (when - self.now).total_seconds()
        return max(0, int(-(-secs // self.seconds_per_step)))

    def to_dict(self) -> dict:
        return {"start": self.start.isoformat(), "seconds_per_step": self.seconds_per_step,
                "step": self.step}

    @classmethod
    def from_dict(cls, d: dict) -> Clock:
        return cls(datetime.fromisoformat(d["start"]), d["seconds_per_step"], int(d.get("step", 0)))


MAX_DAYS = 36_500  # a hundred game years: past it, dates overflow before a town could get there
_DAY = re.compile(r"^\s*day\s+(\d+)(?:[\s,]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?\s*$", re.I)


def parse_until(text: str, start: datetime = DEFAULT_START) -> datetime:
    """``"day 2 08:00"`` -> that moment (day 1 is ``start``'s date); also ISO date-times.

    Raises ValueError with a readable message."""
    m = _DAY.match(text or "")
    if m:
        day = int(m.group(1))
        if day < 1:
            raise ValueError(f"{text!r}: days count from 1")
        hh, mm, ss = int(m.group(2) or 0), int(m.group(3) or 0), int(m.group(4) or 0)
        if hh > 24 or mm > 59 or ss > 59 or (hh == 24 and (mm or ss)):
            raise ValueError(f"{text!r}: not a time of day")
        if day > MAX_DAYS:
            raise ValueError(f"{text!r}: a town runs at most {MAX_DAYS} days")
        base = datetime(start.year, start.month, start.day)
        return base + timedelta(days=day - 1, hours=hh, minutes=mm, seconds=ss)
    try:
        when = datetime.fromisoformat(text.strip())
    except (ValueError, AttributeError):
        raise ValueError(f"{text!r}: expected 'day N HH:MM' (e.g. 'day 2 08:00') or an ISO "
                         f"date-time") from None
    if when.tzinfo is not None:
        raise ValueError(f"{text!r}: a game time has no time zone (leave out the offset)")
    if abs((when - start).days) > MAX_DAYS:
        raise ValueError(f"{text!r}: more than {MAX_DAYS} days from the town's start ({start:%Y-%m-%d})")
    return when
