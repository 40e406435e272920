"""Who leads the town, the model or the routine: the model-led share and the decision lag.

The game promises that residents' decisions are made by a language model. When the model cannot
keep up, a resident lives by its rule-based routine until an answer comes, which is right (the
tick never waits) but must be visible. The ledger counts, per resident and per game hour:

- waking seconds spent in an action that came from a model decision (a planned or decomposed
  step, a reaction, a conversation whose lines the model writes) against seconds in a routine or
  rule action (the routine while a decision is pending, a fallback after a failed call, the short
  rule steps around talks). Asleep is not waking: an action whose words say the resident sleeps;
- the decision lag: game minutes from a decision being needed (an action ended, something
  salient seen) to the first model-made action applied after it.

It is plain data with no engine import, saved with the town (``to_dict``/``from_dict``), and read
by the status line, the resident panel, ``town run`` and ``town report``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

MODEL_SOURCES = frozenset({"model", "reaction", "talk"})
MAX_LAGS = 2000  # per resident: enough for days of decisions, bounded for saves


def is_model_led(source: str) -> bool:
    return source in MODEL_SOURCES


def _hour_key(now: datetime, day: int) -> str:
    return f"{day}:{now.hour:02d}"


@dataclass
class ResidentLedger:
    """One resident's counts: seconds by game hour ("day:HH") and source, and decision lags."""

    seconds: dict[str, dict[str, float]] = field(default_factory=dict)
    lags_min: list[float] = field(default_factory=list)
    need_since: datetime | None = None

    def add(self, key: str, source: str, seconds: float) -> None:
        row = self.seconds.setdefault(key, {})
        row[source] = row.get(source, 0.0) + seconds

    def totals(self, since: str | None = None) -> dict[str, float]:
        """Waking seconds by source, from hour key ``since`` on (all when None)."""
        out: dict[str, float] = {}
        for key, row in self.seconds.items():
            if since is not None and _key_order(key) < _key_order(since):
                continue
            for src, s in row.items():
                out[src] = out.get(src, 0.0) + s
        return out


def _key_order(key: str) -> tuple[int, int]:
    d, h = key.split(":")
    return int(d), int(h)


def share(totals: dict[str, float]) -> float | None:
    """Model-led share of the waking seconds in ``totals`` (None when there are none)."""
    total = sum(totals.values())
    if total <= 0:
        return None
    return sum(s for src, s in totals.items() if is_model_led(src)) / total


def percentile(values: Iterable[float], q: float) -> float | None:
    xs = sorted(values)
    if not xs:
        return None
    pos = (len(xs) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


class DecisionLedger:
    """The town's ledger: ``tick`` every step for every resident, ``need`` when a decision is
    needed, ``answered`` when a model-made action is applied, ``drop`` when the need goes away."""

    def __init__(self) -> None:
        self.residents: dict[str, ResidentLedger] = {}

    def _r(self, name: str) -> ResidentLedger:
        r = self.residents.get(name)
        if r is None:
            r = self.residents[name] = ResidentLedger()
        return r

    def tick(self, name: str, now: datetime, day: int, *, source: str, seconds: float,
             asleep: bool = False) -> None:
        if asleep or seconds <= 0:
            return
        self._r(name).add(_hour_key(now, day), source, seconds)

    def tick_all(self, now: datetime, day: int, sources: Iterable[tuple[str, str]], seconds: float) -> None:
        """``tick`` for each waking (name, source) of ``sources``: the hour's key made once, not
        for each of a thousand residents at every step."""
        if seconds <= 0:
            return
        key = _hour_key(now, day)
        for name, source in sources:
            self._r(name).add(key, source, seconds)

    def need(self, name: str, now: datetime) -> None:
        r = self._r(name)
        if r.need_since is None:
            r.need_since = now

    def answered(self, name: str, now: datetime) -> None:
        r = self._r(name)
        if r.need_since is not None:
            r.lags_min.append(max(0.0, (now - r.need_since).total_seconds() / 60.0))
            del r.lags_min[:-MAX_LAGS]
            r.need_since = None

    def need_since(self, name: str) -> datetime | None:
        """When the resident's open decision became needed (None when none is open)."""
        r = self.residents.get(name)
        return None if r is None else r.need_since

    def drop(self, name: str) -> None:
        """The need went away without a model answer (the player took the resident over)."""
        self._r(name).need_since = None

    def backlog_min(self, now: datetime, skip: Iterable[str] = ()) -> float:
        """Game minutes the oldest open decision has waited (0 when none is open)."""
        skip = set(skip)
        oldest = min((r.need_since for n, r in self.residents.items()
                      if r.need_since is not None and n not in skip), default=None)
        return 0.0 if oldest is None else max(0.0, (now - oldest).total_seconds() / 60.0)

    # ------------------------------------------------------------------ figures

    def summary(self, since: str | None = None) -> dict:
        """JSON-ready figures: the town's share and lag percentiles, and each resident's.

        ``since`` is an hour key "day:HH" (e.g. "1:07"); lags are counted over the whole run.  A
        run that has less than ten waking minutes a resident from ``since`` on (a game played until
        06:40, or an experiment that ends at 07:00, whose last tick alone would be "the share from
        07:00") is reported from its start."""
        if since is not None:
            awake = [r for r in self.residents.values() if r.seconds]
            after = sum(s for r in awake for k, by in r.seconds.items()
                        if _key_order(k) >= _key_order(since) for s in by.values())
            if after < SINCE_MIN_S * max(1, len(awake)):
                since = None
        town: dict[str, float] = {}
        lags: list[float] = []
        by: dict[str, dict] = {}
        for name in sorted(self.residents):
            r = self.residents[name]
            tot = r.totals(since)
            for src, s in tot.items():
                town[src] = town.get(src, 0.0) + s
            lags += r.lags_min
            by[name] = {"model_led_share": _round(share(tot)),
                        "decision_lag_p50_min": _round(percentile(r.lags_min, 0.5), 1),
                        "decision_lag_p90_min": _round(percentile(r.lags_min, 0.9), 1),
                        "decisions": len(r.lags_min),
                        "waking_min_by_source": {k: round(v / 60.0, 1) for k, v in sorted(tot.items())}}
        return {"model_led_share": _round(share(town)),
                "decision_lag_p50_min": _round(percentile(lags, 0.5), 1),
                "decision_lag_p90_min": _round(percentile(lags, 0.9), 1),
                "decisions": len(lags), "since": since,
                "waking_min_by_source": {k: round(v / 60.0, 1) for k, v in sorted(town.items())},
                "by_resident": by}

    def share_now(self, day: int, hours: int = 2, now: datetime | None = None) -> float | None:
        """The town's share over the last ``hours`` game hours (for the live status line)."""
        if now is None:
            return share(self._town_totals())
        start = now.hour - hours + 1
        keys = {f"{day}:{h:02d}" for h in range(max(0, start), now.hour + 1)}
        keys |= {f"{day - 1}:{h:02d}" for h in range(24 + start, 24)} if start < 0 else set()
        tot: dict[str, float] = {}
        for r in self.residents.values():
            for key in keys & r.seconds.keys():
                for src, s in r.seconds[key].items():
                    tot[src] = tot.get(src, 0.0) + s
        return share(tot)

    def _town_totals(self) -> dict[str, float]:
        tot: dict[str, float] = {}
        for r in self.residents.values():
            for src, s in r.totals().items():
                tot[src] = tot.get(src, 0.0) + s
        return tot

    # ------------------------------------------------------------------ saves

    def to_dict(self) -> dict:
        return {name: {"seconds": r.seconds, "lags_min": list(r.lags_min),
                       "need_since": r.need_since.isoformat() if r.need_since else None}
                for name, r in self.residents.items()}

    @classmethod
    def from_dict(cls, data: object) -> DecisionLedger:
        """A ledger from saved data; anything malformed is left out (figures, not the town)."""
        led = cls()
        if not isinstance(data, dict):
            return led
        for name, d in data.items():
            if not isinstance(name, str) or not isinstance(d, dict):
                continue
            r = led._r(name)
            secs = d.get("seconds")
            if isinstance(secs, dict):
                for key, row in secs.items():
                    if not isinstance(row, dict) or not _valid_key(key):
                        continue
                    r.seconds[key] = {str(s): float(v) for s, v in row.items()
                                      if isinstance(v, (int, float)) and v >= 0}
            lags = d.get("lags_min")
            if isinstance(lags, list):
                r.lags_min = [float(x) for x in lags if isinstance(x, (int, float)) and x >= 0][-MAX_LAGS:]
            since = d.get("need_since")
            if isinstance(since, str):
                try:
                    r.need_since = datetime.fromisoformat(since)
                except ValueError:
                    pass
        return led


def _valid_key(key: object) -> bool:
    if not isinstance(key, str) or ":" not in key:
        return False
    try:
        _key_order(key)
    except ValueError:
        return False
    return True


def _round(x: float | None, nd: int = 3) -> float | None:
    return None if x is None else round(x, nd)


SINCE_MIN_S = 600.0  # waking seconds a resident, from ``since`` on, for a share from ``since``


def lead_since(start: datetime, day: int = 1, hour: int = 7) -> str | None:
    """The hour key from which a run's share is reported: 07:00 of the first day (the first
    morning's plans are still coming before then), or the run's start if it began later."""
    if start.hour >= hour:
        return None
    return f"{day}:{hour:02d}"


def format_lead(summary: dict, fallbacks: dict[str, int] | None = None) -> list[str]:
    """Plain-text lines for a terminal: the share, the lag, each resident, rules by kind."""
    def pct(x: float | None) -> str:
        return "n/a" if x is None else f"{x:.0%}"

    def mins(x: float | None) -> str:
        return "n/a" if x is None else f"{x:g} min"

    since = summary.get("since")
    since_txt = f" from day {since.split(':')[0]} {since.split(':')[1]}:00" if since else ""
    out = [f"model-led share{since_txt}: {pct(summary.get('model_led_share'))} of waking resident-minutes; "
           f"decision lag p50 {mins(summary.get('decision_lag_p50_min'))}, "
           f"p90 {mins(summary.get('decision_lag_p90_min'))} ({summary.get('decisions', 0)} decisions)"]
    by_src = summary.get("waking_min_by_source") or {}
    if by_src:
        out.append("  waking minutes by source: " + ", ".join(f"{k} {v:g}" for k, v in by_src.items()))
    rows = summary.get("by_resident") or {}
    if rows:
        worst = min((r for r in rows.items() if r[1].get("model_led_share") is not None),
                    key=lambda kv: kv[1]["model_led_share"], default=None)
        if worst is not None:
            out.append(f"  lowest: {worst[0]} {pct(worst[1]['model_led_share'])}")
        for name, r in rows.items():
            out.append(f"  {name:<22} {pct(r.get('model_led_share')):>5}  lag p50 "
                       f"{mins(r.get('decision_lag_p50_min'))}, p90 {mins(r.get('decision_lag_p90_min'))}")
    if fallbacks:
        out.append("  rules and fallbacks: " + ", ".join(f"{k} {v}" for k, v in sorted(fallbacks.items())))
    return out


def mind_counts(stats: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """The minds' own counts of rules and fallbacks (each mind's ``stats``: a place fallback, a rule
    score instead of the model's, a reaction held back by its cooldown, an error...), summed."""
    out: dict[str, int] = {}
    for counts in stats:
        for k, v in counts.items():
            out[str(k)] = out.get(str(k), 0) + int(v)
    return dict(sorted(out.items()))
