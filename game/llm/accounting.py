"""Who spent the model's time: calls, tokens and latency per (resident, purpose) and per game day."""

from __future__ import annotations

from collections import deque
from dataclasses import asdict
from threading import Lock
from time import monotonic
from typing import Any

from .api import CallTag, Usage

_NOBODY = "-"


class Accounting:
    """Thread-safe counters.  The engine sets ``day`` (1-based game day) as the clock advances."""

    def __init__(self) -> None:
        self._lock = Lock()
        self.day: int = 1
        self.by_key: dict[tuple[str, str], Usage] = {}
        self.by_day: dict[int, Usage] = {}
        self.total = Usage()
        # recent (time, completion tokens, generation seconds) for the status line's tokens/s
        self._recent: deque[tuple[float, int, float]] = deque(maxlen=32)

    def set_day(self, day: int) -> None:
        self.day = int(day)

    def record(
        self,
        tag: CallTag,
        *,
        prompt_tokens: int = 0,
        completion_tokens: int = 0,
        latency_s: float = 0.0,
        failed: bool = False,
        retries: int = 0,
        generation_s: float | None = None,
        cached_tokens: int = 0,
    ) -> None:
        """One call.  ``cached_tokens``: prompt tokens the server served from its cache (so not
        evaluated); the evaluated tokens are the rest of the prompt plus the completion."""
        prompt_tokens, completion_tokens = int(prompt_tokens), int(completion_tokens)
        cached = max(0, min(int(cached_tokens), prompt_tokens))
        u = Usage(
            calls=1,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            latency_s=float(latency_s),
            failures=1 if failed else 0,
            retries=int(retries),
            cached_tokens=cached,
            evaluated_tokens=prompt_tokens - cached + completion_tokens,
        )
        key = (tag.resident or _NOBODY, tag.purpose)
        with self._lock:
            self.by_key.setdefault(key, Usage()).add(u)
            self.by_day.setdefault(self.day, Usage()).add(u)
            self.total.add(u)
            if completion_tokens and not failed:
                gen = generation_s if generation_s and generation_s > 0 else latency_s
                self._recent.append((monotonic(), int(completion_tokens), float(gen)))

    def tokens_per_s(self) -> float:
        """Generation speed of one request, averaged over the recent ones."""
        with self._lock:
            toks = sum(r[1] for r in self._recent)
            secs = sum(r[2] for r in self._recent)
        return toks / secs if secs > 0 else 0.0

    def by_purpose(self) -> dict[str, Usage]:
        out: dict[str, Usage] = {}
        with self._lock:
            for (_, purpose), u in self.by_key.items():
                out.setdefault(purpose, Usage()).add(u)
        return out

    def by_resident(self) -> dict[str, Usage]:
        out: dict[str, Usage] = {}
        with self._lock:
            for (resident, _), u in self.by_key.items():
                out.setdefault(resident, Usage()).add(u)
        return out

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-ready) for reports and saves."""
        with self._lock:
            rows = [
                {"resident": None if r == _NOBODY else r, "purpose": p, **asdict(u)}
                for (r, p), u in sorted(self.by_key.items())
            ]
            days = {str(d): asdict(u) for d, u in sorted(self.by_day.items())}
            total = asdict(self.total)
        return {"total": total, "by_resident_purpose": rows, "by_day": days,
                "tokens_per_s": round(self.tokens_per_s(), 2)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Accounting":
        acc = cls()
        for row in data.get("by_resident_purpose", []):
            key = (row.get("resident") or _NOBODY, row["purpose"])
            acc.by_key[key] = usage_from(row)
        for day, u in data.get("by_day", {}).items():
            acc.by_day[int(day)] = usage_from(u)
        acc.total = usage_from(data.get("total", {}))
        if acc.by_day:
            acc.day = max(acc.by_day)
        return acc


def usage_from(row: dict[str, Any]) -> Usage:
    """A ``Usage`` from its plain form.  Accounting written before evaluated tokens were counted
    has no ``evaluated_tokens``: it knew nothing of a cache, so every token sent counts."""
    fields = ("calls", "prompt_tokens", "completion_tokens", "latency_s", "failures", "retries",
              "cached_tokens")
    u = Usage(**{f: row.get(f, 0) or 0 for f in fields})
    u.evaluated_tokens = int(row.get("evaluated_tokens",
                                     u.prompt_tokens - u.cached_tokens + u.completion_tokens) or 0)
    return u
