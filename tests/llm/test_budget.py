"""The one definition of "calls per resident-day" (game.llm.accounting.budget)."""

from __future__ import annotations

from datetime import date, datetime

from game.llm.accounting import Accounting, budget, format_budget
from game.llm.api import CallTag

DAY1 = date(2026, 3, 2)


def _acc() -> Accounting:
    acc = Accounting()
    acc.set_day(1)  # a partial first day: lots of planning, not a day's worth
    for _ in range(9):
        acc.record(CallTag("plan_day", "Ann"), prompt_tokens=1000, completion_tokens=100)
    for day in (2, 3):
        acc.set_day(day)
        for _ in range(10):
            acc.record(CallTag("decompose", "Ann"), prompt_tokens=500, completion_tokens=50,
                       cached_tokens=400)
        for _ in range(4):
            acc.record(CallTag("react", "Bob"), prompt_tokens=300, completion_tokens=20)
        acc.record(CallTag("importance", None), prompt_tokens=100, completion_tokens=2)
        for _ in range(50):
            acc.record(CallTag("embed"), latency_s=0.01)  # not a chat call
    acc.set_day(4)
    acc.record(CallTag("react", "Bob"), prompt_tokens=300, completion_tokens=20)
    return acc


def test_whole_days_only_worst_and_average():
    b = budget(_acc().to_dict(), ["Ann", "Bob"], start=datetime(2026, 3, 2, 6), end=datetime(2026, 3, 4, 12),
               first_date=DAY1)
    assert b["whole_days"] == [2]  # day 1 began at 06:00, day 3 ended at 12:00
    pr = b["per_resident_day"]
    # day 2: 10 + 4 + 1 (for nobody) chat calls over 2 residents; embeddings apart
    assert pr["average"]["calls"] == 7.5
    assert pr["worst"]["resident"] == "Ann" and pr["worst"]["calls"] == 10
    assert pr["by_resident"]["Bob"]["calls"] == 4
    assert "embed" not in pr["by_purpose"]
    # evaluated: Ann 10 x (100 + 50), Bob 4 x 320, nobody 102
    assert pr["totals"]["tokens_evaluated"] == 1500 + 1280 + 102
    assert pr["totals"]["prompt_tokens_sent"] == 5000 + 1200 + 100
    assert [(c["day"], c["hours"], c["whole"]) for c in b["covered"]] == [(1, 18.0, False), (2, 24.0, True),
                                                                        (3, 12.0, False)]
    text = "\n".join(format_budget(b))
    assert "from 1 whole game day(s) (day 2" in text and "worst: Ann" in text
    assert "day 1 06:00-24:00 (18.0 game hours, part of the day only)" in text


def test_no_whole_day_is_never_scaled_up():
    b = budget(_acc().to_dict(), ["Ann", "Bob"], start=datetime(2026, 3, 2, 6), end=datetime(2026, 3, 2, 12),
               first_date=DAY1)
    assert b["per_resident_day"] is None and "no whole game day" in b["note"]
    [c] = b["per_covered_day"]
    assert c["hours"] == 6.0 and c["average"]["calls"] == 4.5  # 9 calls, 2 residents: as they came
    assert "covers no whole game day" in "\n".join(format_budget(b))


def test_a_continued_run_counts_only_its_own_calls():
    acc = _acc()
    before = acc.to_dict()
    acc.record(CallTag("react", "Bob"), prompt_tokens=300, completion_tokens=20)  # day 4, this run
    b = budget(acc.to_dict(), ["Ann", "Bob"], start=datetime(2026, 3, 5, 0), end=datetime(2026, 3, 6, 0),
               first_date=DAY1, baseline=before)
    assert b["whole_days"] == [4] and b["per_resident_day"]["totals"]["calls"] == 1


def test_accounting_without_days_per_resident_says_so():
    b = budget({"total": {}}, ["Ann"], start=datetime(2026, 3, 2), end=datetime(2026, 3, 4), first_date=DAY1)
    assert not b["available"] and "not available" in format_budget(b)[0]
