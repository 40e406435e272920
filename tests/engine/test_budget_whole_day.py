"""`town run` over a whole game day: the budget comes from that day only (00:00-24:00), with the
worst resident beside the average; the partial first day is shown apart, per covered hours."""

from __future__ import annotations

import io
import json

from engine_fakes import engine_model

from game.engine.running.headless import run_headless


async def test_a_run_over_a_whole_day_reports_that_day(fake_town_loader):
    out = io.StringIO()
    rc = await run_headless(engine_model(jitter=0), str(fake_town_loader), until="day 3 00:00", save=None,
                            out=out, as_json=True)
    assert rc == 0
    r = json.loads(out.getvalue())
    b = r["budget"]
    assert b["whole_days"] == [2]
    pr = b["per_resident_day"]
    acc_day2 = [x for x in r["accounting"]["by_day_resident_purpose"] if x["day"] == 2]
    chat = [x for x in acc_day2 if x["purpose"] != "embed"]
    assert pr["totals"]["calls"] == sum(x["calls"] for x in chat) > 0
    assert pr["average"]["calls"] == round(pr["totals"]["calls"] / 3, 2)
    per_res = {name: sum(x["calls"] for x in chat if x["resident"] == name) for name in r["residents"]}
    assert pr["worst"]["calls"] == max(per_res.values())
    assert per_res[pr["worst"]["resident"]] == max(per_res.values())
    assert pr["average"]["tokens_evaluated"] > 0 and pr["average"]["prompt_tokens_sent"] > 0
    day1 = b["per_covered_day"][0]
    assert (day1["day"], day1["from"], day1["whole"]) == (1, "07:00", False)
