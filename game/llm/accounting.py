"""Who spent the model's time: calls, tokens and latency per (resident, purpose) and per game day,
and the one definition of the call budget, "calls per resident-day" (``budget``), that ``town run``,
``town report`` and the docs all use."""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import asdict, replace
from datetime import date, datetime, timedelta
from datetime import time as dtime
from threading import Lock
from time import monotonic
from typing import Protocol, TypedDict, runtime_checkable

from .api import CallTag, Usage
from .jsonvalue import as_list, as_object

_NOBODY = "-"


@runtime_checkable
class Accounted(Protocol):
    """A model that keeps an ``Accounting``: the real client, a recording of it, a replay (a test's
    fake keeps none)."""

    @property
    def accounting(self) -> Accounting | None: ...


def accounting_of(llm: object) -> Accounting | None:
    """The ``Accounting`` a model keeps, or None where it keeps none (``Accounted``)."""
    return llm.accounting if isinstance(llm, Accounted) else None


class Accounting:
    """Thread-safe counters.  The engine sets ``day`` (1-based game day) as the clock advances."""

    def __init__(self) -> None:
        self._lock = Lock()
        self.day: int = 1
        self.by_key: dict[tuple[str, str], Usage] = {}
        self.by_day: dict[int, Usage] = {}
        # (day, resident, purpose): what the budget is made of (``budget``)
        self.by_day_key: dict[tuple[int, str, str], Usage] = {}
        self.total = Usage()
        self._purposes: dict[str, Usage] = {}  # ``by_key`` summed by purpose (``by_purpose``)
        # recent (time, completion tokens, generation seconds) for the status line's tokens/s
        self._recent: deque[tuple[float, int, float]] = deque(maxlen=32)

    def set_day(self, day: int) -> None:
        self.day = int(day)

    def restore(self, other: Accounting) -> None:
        """Take ``other``'s counts (a loaded town's usage carries on)."""
        with self._lock:
            self.by_key = other.by_key
            self.by_day = other.by_day
            self.by_day_key = other.by_day_key
            self.total = other.total
        self._purposes = self._summed(1)

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
        """One call.  ``cached_tokens``: prompt tokens served from the server's cache (not evaluated)."""
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
            self.by_day_key.setdefault((self.day, *key), Usage()).add(u)
            self.total.add(u)
            self._purposes.setdefault(tag.purpose, Usage()).add(u)
            if completion_tokens and not failed:
                gen = generation_s if generation_s and generation_s > 0 else latency_s
                self._recent.append((monotonic(), int(completion_tokens), float(gen)))

    def tokens_per_s(self) -> float:
        """Generation speed of one request, averaged over the recent ones."""
        with self._lock:
            toks = sum(r[1] for r in self._recent)
            secs = sum(r[2] for r in self._recent)
        return toks / secs if secs > 0 else 0.0

    def by_purpose(self) -> dict[str, Usage]:  # (kept as calls come: each tick asks; 19 ms summed at 1,000)
        with self._lock:
            return {k: replace(u) for k, u in self._purposes.items()}

    def by_resident(self) -> dict[str, Usage]:
        return self._summed(0)

    def _summed(self, part: int) -> dict[str, Usage]:
        """The usage summed by one part of the (resident, purpose) key: 0 resident, 1 purpose."""
        out: dict[str, Usage] = {}
        with self._lock:
            for key, u in self.by_key.items():
                out.setdefault(key[part], Usage()).add(u)
        return out

    def to_dict(self) -> dict[str, object]:
        """Plain data (JSON-ready) for reports and saves."""
        with self._lock:
            rows = [
                {"resident": None if r == _NOBODY else r, "purpose": p, **asdict(u)}
                for (r, p), u in sorted(self.by_key.items())
            ]
            days = {str(d): asdict(u) for d, u in sorted(self.by_day.items())}
            day_rows = [
                {"day": d, "resident": None if r == _NOBODY else r, "purpose": p, **asdict(u)}
                for (d, r, p), u in sorted(self.by_day_key.items())
            ]
            total = asdict(self.total)
        return {"total": total, "by_resident_purpose": rows, "by_day": days,
                "by_day_resident_purpose": day_rows,
                "tokens_per_s": round(self.tokens_per_s(), 2)}

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Accounting:
        acc = cls()
        for row in map(as_object, as_list(data.get("by_resident_purpose"))):
            key = (str(row.get("resident") or _NOBODY), str(row["purpose"]))
            acc.by_key[key] = usage_from(row)
        for day, u in as_object(data.get("by_day")).items():
            acc.by_day[int(day)] = usage_from(as_object(u))
        for row in map(as_object, as_list(data.get("by_day_resident_purpose"))):
            key3 = (_int(row["day"]), str(row.get("resident") or _NOBODY), str(row["purpose"]))
            acc.by_day_key[key3] = usage_from(row)
        acc.total = usage_from(as_object(data.get("total")))
        acc._purposes = acc._summed(1)
        if acc.by_day:
            acc.day = max(acc.by_day)
        return acc


def _int(value: object) -> int:
    """A count read from JSON (None and anything not a number: 0)."""
    return int(value) if isinstance(value, (int, float, str)) else 0


def usage_from(row: Mapping[str, object]) -> Usage:
    """A ``Usage`` from its plain form (one saved before evaluated tokens: every token sent counts)."""
    latency = row.get("latency_s")
    u = Usage(calls=_int(row.get("calls")), prompt_tokens=_int(row.get("prompt_tokens")),
              completion_tokens=_int(row.get("completion_tokens")),
              latency_s=float(latency) if isinstance(latency, (int, float)) else 0.0,
              failures=_int(row.get("failures")), retries=_int(row.get("retries")),
              cached_tokens=_int(row.get("cached_tokens")))
    evaluated = row.get("evaluated_tokens")
    u.evaluated_tokens = (u.prompt_tokens - u.cached_tokens + u.completion_tokens
                          if evaluated is None else _int(evaluated))
    return u


# ------------------------------------------------------------------------------ the budget

# Purposes counted and shown but not chat-model calls: embeddings come from the local encoder (or a
# separate embedding server) and generate nothing, so they stay out of the call budget.
NOT_CHAT = frozenset({"embed"})


# A headless run (``town run``, ``town experiment``) in which more than this share of its chat
# calls failed (embeddings apart, as in the budget) is a failed run: it exits 1 with one line on
# stderr saying so, even where the town was saved (README.md, "Exit codes").  A run that made
# no chat call is judged by nothing here.
FAILED_CALLS_SHARE = 0.5


def failed_calls(now: Mapping[str, object] | None,
                 baseline: Mapping[str, object] | None = None) -> tuple[int, int]:
    """(failed, all) chat calls between two ``Accounting.to_dict()`` figures (``baseline``: where
    this run began, e.g. a loaded save's earlier usage; None: from nothing)."""
    def chat(d: Mapping[str, object] | None) -> tuple[int, int]:
        failed = calls = 0
        for row in as_list((d or {}).get("by_resident_purpose")):
            if isinstance(row, dict) and row.get("purpose") not in NOT_CHAT:
                failed += _int(row.get("failures"))
                calls += _int(row.get("calls"))
        return failed, calls

    (f1, c1), (f0, c0) = chat(now), chat(baseline)
    return max(0, f1 - f0), max(0, c1 - c0)


def run_failed(now: Mapping[str, object] | None, baseline: Mapping[str, object] | None = None) -> str | None:
    """Why a run whose model use went from ``baseline`` to ``now`` failed (more than
    ``FAILED_CALLS_SHARE`` of its chat calls failed), or None."""
    failed, calls = failed_calls(now, baseline)
    if calls and failed > FAILED_CALLS_SHARE * calls:
        return f"{failed} of {calls} chat calls to the model failed (more than {FAILED_CALLS_SHARE:.0%} fails a run)"
    return None


DEFINITION = ("chat calls (embeddings apart) per resident per whole game day (00:00-24:00) the run "
              "covers; the average over all residents (calls made for nobody in particular "
              "included) and the worst resident; tokens sent (prompt) beside tokens evaluated by "
              "the server (prompt tokens not served from its cache, plus completion)")


class Figures(TypedDict):
    """Chat figures of ``Usage`` per resident-day (or per resident per covered part of a day)."""

    calls: float
    prompt_tokens_sent: float
    completion_tokens: float
    tokens_evaluated: float
    cached_tokens: float
    failures: float
    mean_latency_s: float


class ResidentFigures(Figures):
    resident: str


class Totals(TypedDict):
    calls: int
    prompt_tokens_sent: int
    completion_tokens: int
    tokens_evaluated: int


class DayFigures(TypedDict):
    """The figures over some days: the average, the worst resident, by purpose and by resident."""

    days: list[int]
    average: Figures
    worst: ResidentFigures | None
    worst_tokens: ResidentFigures | None
    by_purpose: dict[str, Figures]
    by_resident: dict[str, Figures]
    totals: Totals


# a part of a game day the run covers ("from" and "to": HH:MM; "whole": all of 00:00-24:00)
Covered = TypedDict("Covered", {"day": int, "from": str, "to": str, "hours": float, "whole": bool})
CoveredFigures = TypedDict("CoveredFigures", {
    "day": int, "from": str, "to": str, "hours": float, "whole": bool,
    "days": list[int], "average": Figures, "worst": ResidentFigures | None,
    "worst_tokens": ResidentFigures | None, "by_purpose": dict[str, Figures],
    "by_resident": dict[str, Figures], "totals": Totals})


class Budget(TypedDict, total=False):
    """``budget``'s answer: ``available`` and ``definition`` always; ``why`` where it is not available."""

    available: bool
    definition: str
    why: str
    residents: int
    whole_days: list[int]
    covered: list[Covered]
    per_resident_day: DayFigures | None
    per_covered_day: list[CoveredFigures]
    note: str


def _figures(rows: dict[tuple[int, str, str], Usage], days: list[int], residents: list[str]) -> DayFigures:
    """Chat figures over ``days``, per resident per day: the average and each resident's."""
    n_days = max(1, len(days))
    per_res: dict[str, Usage] = {r: Usage() for r in residents}
    by_purpose: dict[str, Usage] = {}
    total = Usage()
    for (d, r, p), u in rows.items():
        if d not in days or p in NOT_CHAT:
            continue
        total.add(u)
        by_purpose.setdefault(p, Usage()).add(u)
        if r != _NOBODY:
            per_res.setdefault(r, Usage()).add(u)
    share = max(1, len(residents)) * n_days

    def per(u: Usage, k: float) -> Figures:
        return {"calls": round(u.calls / k, 2), "prompt_tokens_sent": round(u.prompt_tokens / k, 1),
                "completion_tokens": round(u.completion_tokens / k, 1),
                "tokens_evaluated": round(u.evaluated_tokens / k, 1),
                "cached_tokens": round(u.cached_tokens / k, 1),
                "failures": round(u.failures / k, 2),
                "mean_latency_s": round(u.latency_s / u.calls, 3) if u.calls else 0.0}

    by_res = {r: per(u, n_days) for r, u in sorted(per_res.items())}
    worst = max(by_res.items(), key=lambda kv: (kv[1]["calls"], kv[1]["tokens_evaluated"]), default=None)
    worst_tokens = max(by_res.items(), key=lambda kv: kv[1]["tokens_evaluated"], default=None)
    return {"days": list(days), "average": per(total, share),
            "worst": {"resident": worst[0], **worst[1]} if worst else None,
            "worst_tokens": {"resident": worst_tokens[0], **worst_tokens[1]} if worst_tokens else None,
            "by_purpose": {p: per(u, share) for p, u in sorted(by_purpose.items())},
            "by_resident": by_res,
            "totals": {"calls": total.calls, "prompt_tokens_sent": total.prompt_tokens,
                       "completion_tokens": total.completion_tokens,
                       "tokens_evaluated": total.evaluated_tokens}}


def _day_rows(acc: Mapping[str, object] | None) -> dict[tuple[int, str, str], Usage]:
    out: dict[tuple[int, str, str], Usage] = {}
    for row in map(as_object, as_list((acc or {}).get("by_day_resident_purpose"))):
        out.setdefault((_int(row["day"]), str(row.get("resident") or _NOBODY), str(row["purpose"])),
                       Usage()).add(usage_from(row))
    return out


def budget(acc: Mapping[str, object] | None, residents: list[str], *, start: datetime, end: datetime,
           first_date: date, baseline: Mapping[str, object] | None = None) -> Budget:
    """The call budget of a run from ``start`` to ``end`` (game times; day 1 is ``first_date``), from
    an accounting's plain form (``Accounting.to_dict``) less ``baseline`` (the accounting when the
    run began, for a run that continued a save).

    The figure per resident-day comes only from whole game days (00:00-24:00) inside the run, never
    from a partial day scaled up: a day's calls are not spread evenly (plans in the morning,
    reflections in the evening). A run with no whole day gets figures per covered day instead,
    each with the hours it covers."""
    residents = sorted(residents)
    if not acc or "by_day_resident_purpose" not in acc:
        return {"available": False, "definition": DEFINITION,
                "why": "no accounting per game day and resident (a replayed run, or a save written "
                       "before the game kept it)"}
    rows = _day_rows(acc)
    for key, u in _day_rows(baseline).items():  # what the run itself spent
        mine = rows.get(key)
        if mine is not None:
            rows[key] = mine.minus(u)
    covered: list[Covered] = []
    one_day = timedelta(days=1)
    d = (start.date() - first_date).days + 1
    while True:
        d0 = datetime.combine(first_date + timedelta(days=d - 1), dtime())
        if d0 >= end:
            break
        lo, hi = max(start, d0), min(end, d0 + one_day)
        if hi > lo:
            covered.append({"day": d, "from": lo.strftime("%H:%M"),
                            "to": "24:00" if hi == d0 + one_day else hi.strftime("%H:%M"),
                            "hours": round((hi - lo).total_seconds() / 3600, 2),
                            "whole": lo == d0 and hi == d0 + one_day})
        d += 1
    whole = [c["day"] for c in covered if c["whole"]]
    out: Budget = {"available": True, "definition": DEFINITION, "residents": len(residents),
                           "whole_days": whole, "covered": covered}
    out["per_resident_day"] = _figures(rows, whole, residents) if whole else None
    out["per_covered_day"] = [{**c, **_figures(rows, [c["day"]], residents)} for c in covered]
    if not whole:
        out["note"] = ("the run covers no whole game day (00:00-24:00): the figures are per covered "
                       "part of a day, as they came, not scaled up to a day")
    return out


def format_budget(b: Budget) -> list[str]:
    """The budget as plain lines for a terminal (``town run``, ``town report``)."""
    if not b.get("available"):
        return [f"calls per resident-day: not available ({b.get('why')})"]

    def row(label: str, x: Figures) -> str:
        return (f"  {label:<22}{x['calls']:>8}{x['prompt_tokens_sent']:>13}{x['tokens_evaluated']:>11}"
                f"{x['completion_tokens']:>10}{x['mean_latency_s']:>8}{x['failures']:>9}")

    head = (f"  {'':<22}{'calls':>8}{'prompt sent':>13}{'evaluated':>11}{'complet.':>10}{'s/call':>8}"
            f"{'failures':>9}")
    lines: list[str] = []
    pr = b.get("per_resident_day")
    if pr:
        days = ", ".join(str(d) for d in pr["days"])
        lines += [f"chat calls per resident-day, from {len(pr['days'])} whole game day(s) (day {days}; "
                  f"embeddings apart; tokens sent = prompt, evaluated = not from the server's cache "
                  f"+ completion):", head, row("average", pr["average"])]
        if pr["worst"]:
            lines.append(row(f"worst: {pr['worst']['resident']}", pr["worst"]))
        lines.append("  by purpose (average):")
        for p, x in pr["by_purpose"].items():
            lines.append(row(f"  {p}", x))
    else:
        lines.append(f"calls per resident-day: {b['note']}")
    for c in b["per_covered_day"]:
        if c["whole"] and pr:
            continue
        lines += [f"day {c['day']} {c['from']}-{c['to']} ({c['hours']} game hours, "
                  f"{'whole day' if c['whole'] else 'part of the day only'}): chat calls per resident "
                  f"in those hours", head, row("average", c["average"])]
        if c["worst"]:
            lines.append(row(f"worst: {c['worst']['resident']}", c["worst"]))
    return lines
