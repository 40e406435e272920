"""What retrieval scores with (Park et al. 2023; see stream.py): game hours, token estimates, the
weights, the min-max that normalises each term, and the figures of the prefilter (prefilter.py)
that picks candidates on a large stream (from ``PREFILTER_MIN`` records on)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

import numpy as np

Kind = Literal["observation", "conversation", "whisper", "plan", "reflection", "player"]
KINDS: tuple[str, ...] = ("observation", "conversation", "whisper", "plan", "reflection", "player")

_EPOCH = datetime(2000, 1, 1)


def game_hours(t: datetime) -> float:
    """Hours since a fixed epoch (naive datetimes are game time; aware ones are made naive UTC)."""
    if t.tzinfo is not None:
        t = t.astimezone(UTC).replace(tzinfo=None)
    return (t - _EPOCH).total_seconds() / 3600.0


def from_game_hours(h: float) -> datetime:
    return _EPOCH + timedelta(hours=float(h))


def estimate_tokens(text: str) -> int:
    """A cheap token estimate (about four characters a token for English)."""
    return len(text) // 4 + 2


@dataclass(frozen=True)
class Weights:
    recency: float = 1.0
    importance: float = 1.0
    relevance: float = 1.0


def clamp_importance(x: float) -> float:
    try:
        v = float(x)
    except (TypeError, ValueError):
        return 3.0
    if v != v:  # NaN
        return 3.0
    return float(min(10.0, max(1.0, v)))


def minmax(x: np.ndarray, mask: np.ndarray | None, weight: float = 1.0) -> np.ndarray:
    """``weight * (x - min) / (max - min)`` over the records in ``mask`` (all when None), as
    float64; 0 outside the mask; a flat ``x`` scores ``weight * 0.5`` (0 when it is all zeros)."""
    x = np.asarray(x, dtype=np.float64)  # float32 relevance too: the best record scores exactly 1
    sub = x if mask is None else x[mask]
    out = np.zeros(x.shape, dtype=np.float64)
    if sub.size == 0:
        return out
    lo, hi = float(sub.min()), float(sub.max())
    if hi - lo < 1e-12:
        fill = weight * (0.5 if hi != 0 else 0.0)
        if mask is None:
            out[:] = fill
        else:
            out[mask] = fill
        return out
    if mask is None:
        np.subtract(x, lo, out=out)
        out /= hi - lo
    else:
        out[mask] = (sub - lo) / (hi - lo)
    if weight != 1.0:
        out *= weight
    return out


PREFILTER_MIN = 20_000  # from this many records on, retrieval scores candidates only (see retrieve)
PREFILTER_DIM = 64  # the projection the relevance prefilter uses
PREFILTER_CANDIDATES = 1024  # candidates by recency + importance, and as many by projected relevance
PREFILTER_SAMPLE = 2048  # rows (evenly spread) whose exact relevance bounds the min-max with the candidates
PREFILTER_STEP = 4096  # rows projected per retrieval until all are (a fixed number: the same results every run)
