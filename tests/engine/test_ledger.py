"""The model-led share and the decision lag: the ledger on its own, then counted by the engine."""

from __future__ import annotations

from datetime import datetime, timedelta

from engine_fakes import engine_model

from game.engine.build import load_engine, new_engine
from game.engine.decisions.ledger import DecisionLedger, percentile, share
from game.engine.engine import Engine

T0 = datetime(2026, 3, 2, 6, 50)


def test_share_counts_waking_seconds_by_source_and_not_sleep():
    led = DecisionLedger()
    for i in range(60):  # 10 min of routine, then 20 min led by the model, asleep for an hour
        now = T0 + timedelta(seconds=10 * i)
        led.tick("Ann", now, 1, source="routine", seconds=10)
    for i in range(120):
        led.tick("Ann", T0 + timedelta(minutes=10, seconds=10 * i), 1, source="model", seconds=10)
    for i in range(360):
        led.tick("Ann", T0 + timedelta(minutes=30, seconds=10 * i), 1, source="routine", seconds=10,
                 asleep=True)
    s = led.summary()
    assert s["model_led_share"] == round(20 / 30, 3)
    assert s["by_resident"]["Ann"]["waking_min_by_source"] == {"model": 20.0, "routine": 10.0}
    # from 07:00 on, only what came after 07:00 counts (the hour keys "day:HH")
    assert led.summary(since="1:07")["model_led_share"] == 1.0


def test_tick_all_counts_as_tick_for_each():
    """``tick_all`` (the hour's key made once for the town) counts what ``tick`` would for each."""
    one, many = DecisionLedger(), DecisionLedger()
    rows = [("Ann", "model"), ("Bo", "routine"), ("Cy", "talk")]
    for i in range(400):  # across an hour's edge
        now = T0 + timedelta(seconds=30 * i)
        for name, src in rows:
            one.tick(name, now, 1, source=src, seconds=10)
        many.tick_all(now, 1, rows, seconds=10)
    many.tick_all(T0, 1, rows, seconds=0)
    assert {n: r.seconds for n, r in many.residents.items()} == {n: r.seconds for n, r in one.residents.items()}
    assert many.summary() == one.summary()


def test_lag_runs_from_the_first_need_to_the_model_answer_and_survives_a_save():
    led = DecisionLedger()
    led.need("Ann", T0)
    led.need("Ann", T0 + timedelta(minutes=5))  # still the same need: the first time counts
    led.answered("Ann", T0 + timedelta(minutes=12))
    led.answered("Ann", T0 + timedelta(minutes=20))  # no need open: nothing counted
    led.need("Bob", T0)
    led.drop("Bob")  # the player took Bob over
    led.answered("Bob", T0 + timedelta(hours=3))
    s = led.summary()
    assert s["decision_lag_p50_min"] == 12.0 and s["decisions"] == 1
    again = DecisionLedger.from_dict(led.to_dict())
    assert again.summary() == s
    # damaged saved data is left out, never fatal
    assert DecisionLedger.from_dict({"Ann": {"seconds": {"x": 1, "1:07": {"model": -1, "rule": 5}},
                                             "lags_min": ["a", 3], "need_since": "nope"}, 5: {}}
                                    ).summary()["by_resident"]["Ann"]["decision_lag_p50_min"] == 3.0
    assert DecisionLedger.from_dict("garbage").summary()["model_led_share"] is None


def test_percentiles_and_share_edges():
    assert percentile([], 0.5) is None and percentile([4.0], 0.9) == 4.0
    assert percentile([1, 2, 3, 4], 0.5) == 2.5
    assert share({}) is None and share({"rule": 5.0, "talk": 5.0}) == 0.5


async def _run(e: Engine, ticks: int) -> None:
    for _ in range(ticks):
        await e.wait_ready()
        e.step()


async def test_a_model_that_keeps_up_leads_and_one_that_fails_leaves_the_routine(fake_town_loader):
    fast = new_engine(fake_town_loader, engine_model(), lockstep=True)
    await _run(fast, 300)
    led = fast.core.ledger.summary()
    assert led["model_led_share"] is not None and led["model_led_share"] > 0.5, led
    assert led["decisions"] > 0 and led["decision_lag_p50_min"] is not None
    down = new_engine(fake_town_loader, engine_model(fail=("plan_day", "decompose", "react")), lockstep=True)
    await _run(down, 300)
    led_down = down.core.ledger.summary()
    assert led_down["model_led_share"] is not None and led_down["model_led_share"] < 0.2, led_down
    assert led_down["waking_min_by_source"].get("routine", 0) > 0
    await fast.aclose()
    await down.aclose()


async def _open_needs_with_nothing_asked(e: Engine, ticks: int) -> list[str]:
    """Residents whose decision the ledger holds open while nothing is asked of the model for them
    and nothing is to be asked (what slows the play clock "for the model")."""
    seen = []
    for _ in range(ticks):
        await e.wait_ready()
        e.step()
        for name, r in e.core.residents.items():
            lr = e.core.ledger.residents.get(name)
            if (lr is not None and lr.need_since is not None and name not in e.board.jobs
                    and not r.needs_decision and not r.salient):
                seen.append(f"{e.clock.now:%H:%M:%S} {name} open since {lr.need_since:%H:%M:%S}")
    return seen


async def test_no_decision_stays_open_when_nothing_is_asked(fake_town_loader):
    """Seen at play pace on the embedded model: "slowed x5 for the model" with nothing in flight.
    A reaction that carries on, a rule's answer or a failed call closed no need, and the governor
    slowed the clock for it until the resident's next model-made action."""
    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    assert await _open_needs_with_nothing_asked(e, 400) == []
    down = new_engine(fake_town_loader, engine_model(fail=("react", "decompose")), lockstep=True)
    assert await _open_needs_with_nothing_asked(down, 400) == []
    assert down.lead_time.backlog_min() < 10  # the clock would not be slowed
    await e.aclose()
    await down.aclose()


async def test_the_ledger_is_saved_with_the_town(fake_town_loader, tmp_path):
    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    await _run(e, 120)
    before = e.core.ledger.summary()
    path = tmp_path / "t.save"
    e.save(path)
    back = load_engine(path, engine_model())
    assert back.core.ledger.summary() == before
    await e.aclose()
    await back.aclose()


def test_the_governor_slows_the_clock_only_when_the_model_falls_behind_and_only_when_asked():
    from game.engine.running.pace import Governor, policy_from_env

    lead = Governor("lead", max_lag_min=10, slowest=12)
    assert lead.delay(0.5, 4.0) == 0.5 and lead.label() == ""
    assert lead.delay(0.5, 30.0) == 1.5 and lead.label() == "slowed x3 for the model"
    assert lead.delay(0.5, 10_000.0) == 0.5 * 12  # bounded: the screen keeps ticking
    # a resident living by routine while it waits for its next steps slows the clock sooner and
    # more steeply: past 2 game minutes, x1 more for each half minute (a reaction waited for does
    # not count there: its model-made step goes on)
    assert lead.delay(0.5, 4.0, routine_min=2.0) == 0.5
    assert lead.delay(0.5, 4.0, routine_min=3.0) == 1.5 and lead.label() == "slowed x3 for the model"
    assert lead.delay(0.5, 30.0, routine_min=2.5) == 1.5  # the steeper of the two
    assert lead.delay(0.5, 4.0, routine_min=60.0) == 0.5 * 12
    clock = Governor("clock")
    assert clock.delay(0.5, 10_000.0) == 0.5 and clock.label() == ""
    assert clock.delay(0.5, 0.0, routine_min=60.0) == 0.5
    assert policy_from_env("clock") == "clock"
    import pytest
    with pytest.raises(ValueError, match="not one of"):
        policy_from_env("sometimes")


async def test_a_headless_run_at_play_pace_is_not_lockstep_and_reports_its_pace(fake_town_loader):
    import io
    import json

    from game.engine.running.headless import run_headless

    out = io.StringIO()
    rc = await run_headless(engine_model(jitter=0.3, latency_seed=3), str(fake_town_loader), until="day 1 07:03",
                            save=None, out=out, as_json=True, pace="fast", pace_policy="lead")
    assert rc == 0
    report = json.loads(out.getvalue())
    assert report["pace"] == "fast" and report["pace_policy"] == "lead"
    assert report["seconds_slowed_for_the_model"] >= 0
    # the slowing by game hour and by who held the clock: it adds up to the whole
    by = report["slowed_by"]
    assert abs(sum(x for h in by.values() for x in h.values()) - report["seconds_slowed_for_the_model"]) < 0.2 + \
        0.05 * sum(len(h) for h in by.values())
    assert report["model_led"]["model_led_share"] is not None
    assert report["real_seconds"] >= 18 * 0.1 * 0.9  # 18 ticks of 10 s at 0.1 s each, at least
    bad = await run_headless(engine_model(), str(fake_town_loader), until="day 1 07:03", save=None, pace="warp")
    assert bad == 2


def test_a_run_that_ended_before_seven_is_reported_from_its_start():
    led = DecisionLedger()
    led.tick("Ann", T0, 1, source="model", seconds=10)  # 06:50 only
    s = led.summary(since="1:07")
    assert s["since"] is None and s["model_led_share"] == 1.0


def test_a_run_that_ends_at_seven_is_not_reported_by_its_last_tick():
    # an experiment from 06:00 to 07:00: its last tick, at 07:00, is all there is of the hour 1:07;
    # the Smallville hour printed "90%" from it while the hour as a whole was 79% led by the model
    led = DecisionLedger()
    for i in range(6):
        led.tick("Ann", T0 + timedelta(seconds=100 * i), 1, source="routine", seconds=100)
    led.tick("Ann", T0.replace(hour=7, minute=0), 1, source="model", seconds=10)
    s = led.summary(since="1:07")
    assert s["since"] is None and s["model_led_share"] == round(10 / 610, 3)


async def test_the_wait_lived_by_routine_is_of_waking_residents_on_their_routine_with_a_decision_open(fake_town_loader):
    from game.mind.view import Action

    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    await _run(e, 30)
    now = e.clock.now
    names = sorted(e.core.residents)
    for name in names:
        r = e.core.residents[name]
        r.action = Action("spending time at home", "", "", 30, start=now - timedelta(minutes=6), source="routine")
        e.core.ledger.answered(name, now)
    assert e.routine_wait_min() == 0.0  # no decision open: the routine is not a wait for the model
    residents = e.core.residents
    ann = next(residents[n] for n in names if not residents[n].conversation)  # (one in a talk is not waiting)
    e.core.ledger.need(ann.name, now - timedelta(minutes=5))
    assert e.routine_wait_min() == 5.0
    # who holds the clock, as `town run` counts its slowing ("slowed_by"): the one on its routine
    assert e.holding().startswith(f"{ann.name}: routine, waiting on ")
    ann.action = Action("reading", "", "", 30, start=now - timedelta(minutes=6), source="model")
    assert e.routine_wait_min() == 0.0  # its model-made step goes on while a reaction is asked
    assert e.holding().startswith(f"{ann.name}: decision, waiting on ")  # (its reaction still open)
    ann.action = Action("sleeping", "", "", 30, start=now - timedelta(minutes=6), source="routine")
    assert e.routine_wait_min() == 0.0  # asleep is not waking time
    ann.action = Action("spending time at home", "", "", 30, start=now - timedelta(minutes=6), source="routine")
    e.core.embodied = ann.name
    assert e.routine_wait_min() == 0.0  # the player's
    await e.aclose()
