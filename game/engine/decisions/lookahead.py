"""How early the next window of a resident's steps is asked: a part of ``Engine`` that the lanes
(lanes.py) and the spare capacity (capacity.py) read."""

from __future__ import annotations

from collections import deque
from datetime import timedelta

from game.engine.tuning import AHEAD, AHEAD_MAX


class Lookahead:
    """Owns ``ahead``, how early a resident's next window of steps is asked (None: in real time
    ``AHEAD`` or as the last windows took, never in lockstep; a test or a run may set it), and
    ``took``, how long the last windows asked ahead took to come (game minutes, the lanes add
    them).  Takes nothing."""

    def __init__(self) -> None:
        self.ahead: timedelta | None = None
        self.took: deque[float] = deque(maxlen=6)

    def lead(self, lockstep: bool) -> timedelta:
        """How early to ask now (0: not before the steps run out)."""
        if self.ahead is not None:
            return self.ahead
        return timedelta(0) if lockstep else self.real_lead()

    def real_lead(self) -> timedelta:
        """How early the next window is asked in real time: ``AHEAD``, or half as much again as the
        slowest of the last windows asked ahead took to come (in game minutes, so the clock's rate,
        its slowing for the model and the machine's speed are all in it), up to ``AHEAD_MAX``.  At
        normal pace on two slow cores a window asked 30 game minutes ahead came up to 24 minutes
        late when four residents' windows ran out together."""
        if not self.took:
            return AHEAD
        return min(AHEAD_MAX, max(AHEAD, timedelta(minutes=1.5 * max(self.took))))
