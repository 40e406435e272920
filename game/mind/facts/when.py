"""When the words say something happens: the day (today, tomorrow, a weekday, a date) and the
hours (a range, "at 7", or a vague "this afternoon"), read by the clock of the moment they are
heard.  Facts (fact.py) are read with it, and answers are checked against them (factcheck.py)."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

DEFAULT_LENGTH = 120  # minutes a gathering lasts when its end was not said

_T = r"(?:\d{1,2}(?::\d{2})?\s*(?:[ap]\.?\s?m\.?)?|noon|midday|midnight)"
RANGE_RE = re.compile(rf"\b(?:from|between)?\s*(?P<a>{_T})\s*(?:to|until|till|and|-|–)\s*(?P<b>{_T})(?![\w:])", re.I)
AT_RE = re.compile(rf"\b(?:at|from|by|around|starting at|starts at)\s+(?P<a>{_T})(?![\w:])", re.I)
_ONE_RE = re.compile(r"^(\d{1,2})(?::(\d{2}))?\s*(?:([ap])\.?\s?m\.?)?$", re.I)
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
           "october", "november", "december")
_MONTH_RE = re.compile(r"\b(?:(?P<m1>" + "|".join(m[:3] for m in _MONTHS)
                       + r")[a-z]*\.?\s+(?P<d1>\d{1,2})(?:st|nd|rd|th)?"
                       r"|(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m2>" + "|".join(m[:3] for m in _MONTHS)
                       + r")[a-z]*)\b", re.I)
_VAGUE = (("this morning", 9 * 60, 11 * 60), ("lunchtime", 12 * 60, 13 * 60), ("lunch", 12 * 60, 13 * 60),
          ("this afternoon", 14 * 60, 16 * 60), ("afternoon", 14 * 60, 16 * 60),
          ("dinner", 19 * 60, 21 * 60), ("tonight", 19 * 60, 21 * 60), ("evening", 18 * 60, 20 * 60),
          ("morning", 9 * 60, 11 * 60))


def read_when(text: str, now: datetime) -> tuple[date | None, int | None, int | None]:
    """The day and the hours (minutes after midnight) the words say, by the clock of ``now``."""
    low = text.lower()
    day = _read_day(low, now)
    start = end = None
    r = RANGE_RE.search(low)
    if r:
        a, b = _clock(r.group("a")), _clock(r.group("b"))
        if a is not None and b is not None:
            (ah, am, ap), (bh, bm, bp) = a, b
            if ap:
                start_h = _h24(ah, ap)
            elif bp == "p":  # "12 to 1pm", "5-7pm"; "10 to 2pm" is in the morning
                start_h = ah if ah >= 12 else (ah + 12 if ah <= bh else ah)
            else:
                start_h = _h24(ah, bp, default_pm=bp is None and 1 <= ah <= 8)
            start = start_h * 60 + am
            end = _h24(bh, bp) * 60 + bm
            while end <= start:
                end += 12 * 60
            if end <= start or end - start > 12 * 60:
                end = start + DEFAULT_LENGTH
    if start is None:
        m = AT_RE.search(low)
        c = _clock(m.group("a")) if m else None
        if m is not None and c is not None:
            h, mi, ap = c
            if ap or ":" in m.group("a") or m.group("a") in ("noon", "midday", "midnight") or 1 <= h <= 11:
                start = _h24(h, ap, default_pm=ap is None and 1 <= h <= 8) * 60 + mi
                end = start + DEFAULT_LENGTH
    if start is None:
        for word, s, e in _VAGUE:
            if re.search(rf"\b{word}\b", low):
                start, end = s, e
                break
    if start is not None and end is not None:
        end = min(end, 24 * 60 + 6 * 60)
    if day is None and start is not None:
        day = now.date()
    return day, start, end


def _read_day(low: str, now: datetime) -> date | None:
    if re.search(r"\btomorrow\b", low):
        return now.date() + timedelta(days=1)
    if re.search(r"\b(?:today|tonight|this (?:morning|afternoon|evening))\b", low):
        return now.date()
    m = _MONTH_RE.search(low)
    if m:
        mon = (m.group("m1") or m.group("m2"))[:3]
        d = int(m.group("d1") or m.group("d2"))
        try:
            return date(now.year, [x[:3] for x in _MONTHS].index(mon) + 1, d)
        except ValueError:
            return None
    for i, wd in enumerate(WEEKDAYS):
        if re.search(rf"\b{wd}\b", low):
            return now.date() + timedelta(days=(i - now.weekday()) % 7)
    return None


def _clock(t: str) -> tuple[int, int, str | None] | None:
    t = t.strip().lower()
    if t in ("noon", "midday"):
        return 12, 0, "p"
    if t == "midnight":
        return 12, 0, "a"
    m = _ONE_RE.match(t)
    if not m:
        return None
    h, mi = int(m.group(1)), int(m.group(2) or 0)
    if h > 23 or mi > 59:
        return None
    return h, mi, (m.group(3) or "").lower() or None


def _h24(h: int, ap: str | None, *, default_pm: bool = False) -> int:
    if h > 12:
        return h
    if ap == "a":
        return 0 if h == 12 else h
    if ap == "p" or (ap is None and default_pm):
        return h if h == 12 else h + 12
    return h


def word_list(text: str) -> list[str]:
    """The words of ``text``, lower case, without a possessive 's."""
    return [w.replace("'s", "").replace("’s", "") for w in re.findall(r"[a-z][a-z'’-]*", text.lower())]
