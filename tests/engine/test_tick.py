"""The tick loop on the real world and mind classes with the fake model."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from datetime import datetime

from engine_fakes import engine_model, two_hour_windows

from game.engine.build import load_engine, new_engine
from game.engine.engine import Engine


async def run(engine: Engine, ticks: int) -> list:
    out = []
    for _ in range(ticks):
        await engine.wait_ready()
        out.append(engine.step())
    return out


def fingerprint(engine: Engine, results: list) -> list:
    fp = [(r.step, r.clock, r.moves, r.bubbles, r.utterances, r.object_changes,
           [(e.kind, e.text) for e in r.log]) for r in results]
    fp.append(sorted((n, r.pos, r.action.description if r.action else None)
                     for n, r in engine.core.residents.items()))
    return fp


async def test_residents_move_and_decide(fake_town_loader):
    llm = engine_model()
    e = new_engine(fake_town_loader, llm, lockstep=True)
    assert e.clock.text() == "Day 1, 07:00:00"
    results = await run(e, 200)
    assert any(r.moves for r in results), "nobody moved in 200 ticks"
    assert any(r.bubbles for r in results)
    purposes = {p for p, _ in llm.pairs()}
    assert {"plan_day", "decompose"} <= purposes, purposes
    assert all(r.plan is not None for r in e.core.residents.values())
    assert not e.core.errors, e.core.errors
    # at most one job per resident, always
    assert len(e.board.jobs) <= len(e.core.residents)


async def test_same_answers_same_town_whatever_the_timing(fake_town_loader):
    fps = []
    for lat_seed in (1, 2):
        e = new_engine(fake_town_loader, engine_model(jitter=0.004, latency_seed=lat_seed), lockstep=True)
        fps.append(fingerprint(e, await run(e, 300)))
    assert fps[0] == fps[1]


async def test_step_never_awaits_the_model(fake_town_loader):
    """In real-time mode step() returns while every decision is still unanswered."""
    e = new_engine(fake_town_loader, engine_model(jitter=10.0), lockstep=False)
    for _ in range(30):
        r = e.step()
    assert r.waiting_on_model == len(e.core.residents)  # all still thinking, the clock ran anyway
    assert e.core.step_no == 30
    await e.aclose()


async def test_lockstep_waits_for_due_decisions(fake_town_loader):
    e = new_engine(fake_town_loader, engine_model(jitter=0.05), lockstep=True)
    for _ in range(e.core.decision_ticks + 3):
        e.step()
    first_due = min(j.ready_at for j in e.board.jobs.values())
    assert e.blocked and e.core.step_no == first_due  # stalled at the boundary
    await e.wait_ready()
    assert not e.blocked
    e.step()
    assert e.core.step_no == first_due + 1
    await e.aclose()


def test_engine_does_not_import_textual():
    code = "import sys, game.engine, game.engine.engine, game.engine.saves, game.engine.running.headless; " \
           "print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


async def test_inspect_and_snapshot(fake_town_loader):
    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    await run(e, 120)
    v = e.inspect("Ann")  # a first name is enough
    assert v.name == "Ann Lin" and v.action and v.emoji and v.place
    assert v.plan and all(isinstance(x, str) for x in v.plan)
    # the panel's day: a timeline with where the fixed blocks happen and the one in progress marked
    now = [x for x in v.plan if x.endswith("<- now")]
    assert len(now) == 1 and v.plan[0].startswith("06:30-07:00 getting up and ready for the day @ Lin house")
    assert any(" @ " in x and "working" not in x for x in v.plan[1:])
    assert v.recent and all(isinstance(x, str) for x in v.recent + v.retrieved)
    assert isinstance(v.relationships, dict) and not v.embodied
    snap = e.snapshot()
    assert {m.who for m in snap.moves} == set(e.core.residents)
    assert all(m.src == m.dst == e.positions()[m.who] for m in snap.moves)
    await e.aclose()


async def test_an_object_an_action_changed_goes_back_to_idle(fake_town_loader):
    from game.mind.view import Action

    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    bob = e.core.residents["Bob Lin"]
    now = e.clock.now
    e.walker.set_action(bob, Action("cooking", "\U0001F373", "Lin house:kitchen:stove", 10, "cooking", now), None, now)
    assert e.town.objects.get("Lin house:kitchen:stove") == "on"  # "cooking" is "on" for a stove
    e.walker.set_action(bob, Action("eating", "\U0001F37D", "Lin house:kitchen", 10, None, now), None, now)
    assert e.town.objects.get("Lin house:kitchen:stove") == "idle"
    r = e.step()
    assert [(c.state, c.by) for c in r.object_changes] == [("on", "Bob Lin"), ("idle", "Bob Lin")]
    await e.aclose()


async def test_group_talk_turn_by_turn_and_all_remember(fake_town_loader):
    from game.engine.events import TickResult

    e = new_engine(fake_town_loader, engine_model(talk=False), lockstep=True)
    await run(e, 3)
    for name, pos in (("Ann Lin", (14, 2)), ("Bob Lin", (15, 2)), ("Cara Diaz", (16, 2))):
        e.core.residents[name].pos = pos
        e.core.residents[name].path = []
    out = TickResult(step=0, clock="")
    assert e.conversations.start_talk("Ann Lin", "Bob Lin", e.clock.now, out)
    assert e.conversations.start_talk("Cara Diaz", "Ann", e.clock.now, out)  # joins the talk in progress
    cid = e.core.residents["Ann Lin"].conversation
    assert cid and e.core.residents["Cara Diaz"].conversation == cid
    assert e.conversations.talks[cid].conv.participants == ["Ann Lin", "Bob Lin", "Cara Diaz"]
    res = await run(e, 80)
    said = [u.speaker for r in res for u in r.utterances if u.conversation_id == cid]
    assert said[:3] == ["Ann Lin", "Bob Lin", "Cara Diaz"]  # round robin
    assert cid not in e.conversations.talks
    for name in ("Ann Lin", "Bob Lin", "Cara Diaz"):
        texts = [m.text for m in e.core.minds[name].memory.recent(100)]
        others = {"Ann Lin", "Bob Lin", "Cara Diaz"} - {name}
        assert any(t.startswith(f"{o} told me") for t in texts for o in others), (name, texts[-5:])
        assert e.core.residents[name].conversation is None
    await e.aclose()


async def test_model_failures_are_shown_and_the_town_goes_on(fake_town_loader):
    e = new_engine(fake_town_loader, engine_model(fail=("plan_day", "decompose")), lockstep=True)
    results = await run(e, 60)
    errors = [e.text for r in results for e in r.log if e.kind == "error"]
    assert errors and all(t.startswith("model: ") for t in errors) and "timed out" in errors[0]
    assert e.core.errors
    assert all(r.action is not None for r in e.core.residents.values())  # the routine carries them
    assert any(r.moves or r.bubbles for r in results)


async def test_a_resident_walks_over_to_someone_it_decided_to_talk_to(fake_town_loader):
    """Seen six tiles down the street (beyond talking range): the talk starts, the one who started it
    walks up to the other, and they talk."""
    from game.engine.events import TickResult
    from game.engine.tuning import PERCEIVE_RADIUS, TALK_RANGE, chebyshev

    e = new_engine(fake_town_loader, engine_model(talk=False), lockstep=True)
    await run(e, 3)
    for name, pos in (("Ann Lin", (2, 7)), ("Bob Lin", (8, 7))):
        e.core.residents[name].pos = pos
        e.core.residents[name].path = []
    out = TickResult(step=0, clock="")
    assert not e.conversations.start_talk("Ann Lin", "Bob Lin", e.clock.now, out)  # the player's reach: too far
    assert e.conversations.start_talk("Ann Lin", "Bob Lin", e.clock.now, out, reach=PERCEIVE_RADIUS)
    ann, bob = e.core.residents["Ann Lin"], e.core.residents["Bob Lin"]
    assert ann.conversation and ann.conversation == bob.conversation and ann.path
    assert chebyshev(ann.pos, bob.pos) > TALK_RANGE
    res = await run(e, 20)
    assert chebyshev(ann.pos, bob.pos) <= 1 and bob.pos == (8, 7)
    assert any(u.conversation_id for r in res for u in r.utterances)
    await e.aclose()


def _ahead_calls(e: Engine) -> int:
    return sum(m.stats.get("ahead_calls", 0) for m in e.core.minds.values())


async def test_in_real_time_the_next_window_is_asked_while_the_last_step_runs(fake_town_loader):
    """At play pace a resident's next steps are asked for before the ones in hand run out, so
    the step after them comes from its queue: no wait lived by routine (lanes.py, maybe_ahead)."""
    import asyncio

    e = new_engine(fake_town_loader, engine_model(jitter=0.001), lockstep=False)

    two_hour_windows(e)
    assert e.lookahead.ahead is None  # the default: tuning.AHEAD in real time
    asked: list[str] = []
    real_ask = e.lanes.ask

    def ask(r, kind, now, args):
        asked.append(kind)
        return real_ask(r, kind, now, args)
    e.lanes.ask = ask
    for _ in range(900):  # 2.5 game hours
        e.step()
        await asyncio.sleep(0.002 if e.board.jobs else 0)
    assert "ahead" in asked and _ahead_calls(e) >= len(e.core.residents), asked.count("ahead")
    assert not e.core.errors, e.core.errors
    # after each resident's first window every decompose call was a look ahead: the "next" jobs
    # took their steps from the queue
    decomposes = sum(1 for p, _ in e.core.llm.pairs() if p == "decompose")
    assert decomposes == len(e.core.residents) + _ahead_calls(e) < asked.count("next"), (decomposes, asked)
    await e.aclose()


async def test_in_real_time_the_day_is_planned_before_waking_and_the_first_step_is_the_models(fake_town_loader):
    """Asleep, a resident's day plan and first window are asked within tuning.WAKE_AHEAD of waking
    (three calls in a row: lived by routine after waking at play pace on a slow machine), so it
    wakes into the model's first step."""
    import asyncio
    from datetime import timedelta

    e = new_engine(fake_town_loader, engine_model(jitter=0.001), lockstep=False, start=datetime(2026, 3, 2, 4, 0))
    wake = datetime(2026, 3, 2, 6, 30)  # Testville's residents wake at 06:30
    while e.clock.now < wake - timedelta(minutes=30):
        e.step()
        await asyncio.sleep(0.002 if e.board.jobs else 0)
    for name, mind in e.core.minds.items():
        assert mind.plan is not None and mind.plan.source == "model", name
        assert mind.agenda.queue and mind.agenda.queue[0].start == wake and mind.stats["wake_ahead"] == 1, name
        assert e.core.residents[name].action.description == "sleeping"
    while e.clock.now < wake + timedelta(minutes=2):
        e.step()
        await asyncio.sleep(0.002 if e.board.jobs else 0)
    for name, r in e.core.residents.items():
        # a talk begun on waking was the model's decision too (the ledger counts it answered); which
        # of the two comes first depends on how fast the fake model answers beside a busy machine
        if r.conversation:
            assert r.action.description.startswith("talking with"), (name, r.action)
            continue
        assert r.action.source == "model" and r.action.start <= wake + timedelta(minutes=1), (name, r.action)
    assert not e.core.errors, e.core.errors
    await e.aclose()


async def test_in_real_time_the_look_ahead_lead_follows_how_long_windows_took_to_come(fake_town_loader):
    """A window asked a fixed 30 game minutes ahead came up to 24 minutes late at normal pace on
    two slow cores: in real time the lead is half as much again as the slowest of the last windows
    took (game minutes: the clock's rate and the machine's speed are in it), 30 to 120 minutes."""
    import asyncio
    from datetime import timedelta

    from game.engine.tuning import AHEAD, AHEAD_MAX

    e = new_engine(fake_town_loader, engine_model(jitter=0.001), lockstep=False)

    two_hour_windows(e)
    assert e.lookahead.real_lead() == AHEAD
    for _ in range(900):
        e.step()
        await asyncio.sleep(0.002 if e.board.jobs else 0)
    assert e.lookahead.took and all(t >= 0 for t in e.lookahead.took)  # measured as they came
    e.lookahead.took.extend([10, 40])
    assert e.lookahead.real_lead() == timedelta(minutes=60)
    e.lookahead.took.append(300)
    assert e.lookahead.real_lead() == AHEAD_MAX
    e.lookahead.took.clear()
    e.lookahead.took.append(5)
    assert e.lookahead.real_lead() == AHEAD
    await e.aclose()
    lock = new_engine(fake_town_loader, engine_model(), lockstep=True)
    lock.lookahead.ahead = timedelta(minutes=30)
    await run(lock, 600)
    assert not lock.lookahead.took  # in lockstep the lead is the scenario's, fixed: the same town whatever the timing
    await lock.aclose()


async def test_in_lockstep_nothing_is_asked_ahead_unless_set_and_then_the_same_town_whatever_the_timing(
        fake_town_loader):
    from datetime import timedelta

    e = new_engine(fake_town_loader, engine_model(), lockstep=True)

    two_hour_windows(e)
    await run(e, 600)
    assert _ahead_calls(e) == 0
    fps, calls = [], []
    for lat_seed in (1, 2):
        e = new_engine(fake_town_loader, engine_model(jitter=0.004, latency_seed=lat_seed), lockstep=True)
        two_hour_windows(e)
        e.lookahead.ahead = timedelta(minutes=30)
        fps.append(fingerprint(e, await run(e, 900)))  # (a window asked ahead is due when the steps run out)
        calls.append(_ahead_calls(e))
        assert not e.core.errors, e.core.errors
        await e.aclose()
    assert calls[0] == calls[1] > 0 and fps[0] == fps[1]


async def test_in_lockstep_a_window_asked_ahead_is_applied_when_the_steps_run_out(fake_town_loader):
    """With ``Engine.ahead`` set in lockstep, the next window's answer is due when the steps in hand
    run out, not a game minute after it was asked: the clock does not wait for it before then
    (it is written while the clock waits for others), and the next step comes from the queue
    with no step lived by routine between."""
    from datetime import timedelta

    e = new_engine(fake_town_loader, engine_model(), lockstep=True)

    two_hour_windows(e)
    e.lookahead.ahead = timedelta(minutes=10)
    job = await _first_ahead_job(e)
    run_out = datetime.fromisoformat(job.args["run_out"])
    assert job.ready_at == e.core.step_no + e.clock.steps_until(run_out) - 1 > e.core.step_no + e.core.decision_ticks
    r = e.core.residents[job.resident]
    await e.wait_ready()
    while e.board.jobs.get(job.resident) is job:
        e.step()
        await e.wait_ready()
    # applied by the step that reaches the run-out, before its decisions: its steps in hand
    assert e.clock.now == run_out and e.core.minds[job.resident].agenda.queue
    first = e.core.minds[job.resident].agenda.queue[0].description
    asked = e.core.llm.pairs().count(("decompose", job.resident))
    while r.action.source != "model" or r.action.start < run_out:  # the "next" job takes it from the queue
        e.step()
        await e.wait_ready()
    assert r.action.description == first and e.core.llm.pairs().count(("decompose", job.resident)) == asked
    assert not e.core.errors, e.core.errors
    await e.aclose()


async def _first_ahead_job(e: Engine, *, due_after: int = 0):
    """Step ``e`` in lockstep until a window is asked ahead that is due more than ``due_after``
    ticks from now; that job."""
    for _ in range(900):
        await e.wait_ready()
        e.step()
        job = next((j for j in e.board.jobs.values()
                    if j.kind == "ahead" and j.ready_at > e.core.step_no + due_after), None)
        if job is not None:
            return job
    raise AssertionError("no window was asked ahead in 900 ticks")


async def test_in_lockstep_a_window_asked_ahead_is_due_at_once_when_the_lane_is_wanted(fake_town_loader):
    """A window asked ahead in lockstep is due when the steps in hand run out; if they end sooner
    (a reaction or a talk took their time) or the resident sees something worth a reaction, it is
    due at once: no resident lives by routine, or leaves a sight unanswered, until the tick it was
    first due (the whole day of 2026-11-25: 14 game minutes of 'working' at a time)."""
    from dataclasses import replace
    from datetime import timedelta

    for want in ("ended", "seen"):
        e = new_engine(fake_town_loader, engine_model(), lockstep=True)
        two_hour_windows(e)
        e.lookahead.ahead = timedelta(minutes=30)
        job = await _first_ahead_job(e, due_after=e.core.decision_ticks)
        r = e.core.residents[job.resident]
        if want == "ended":  # its step ends now, long before the window asked ahead was due
            r.action = replace(r.action, duration_min=0)
            r.path = []
        else:
            r.salient = ["a stranger waves from across the room"]
        await e.wait_ready()
        e.step()
        assert job.ready_at == e.core.step_no  # due at this boundary: the clock waits for it if it must
        await e.wait_ready()
        e.step()
        assert e.board.jobs.get(r.name) is not job  # applied: the lane is free for what is wanted now
        if want == "seen":
            assert e.board.jobs[r.name].kind == "react"
        else:  # the next step from the queue the window filled, a game minute later
            assert e.board.jobs[r.name].kind == "next"
            for _ in range(e.core.decision_ticks + 1):
                await e.wait_ready()
                e.step()
            assert r.action.source == "model", r.action
        assert not e.core.errors, e.core.errors
        await e.aclose()


async def test_a_resident_who_decided_to_talk_goes_after_someone_who_walked_off(fake_town_loader, tmp_path):
    """At play pace a reaction comes minutes after the sight; the one it names may have walked
    off.  The resident walks after them (the model's decision, model-led) and the talk starts
    within range; it gives up after tuning.SEEK_TIME, or when the other cannot talk."""
    from game.engine.events import TickResult
    from game.mind.view import Reaction

    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    await run(e, 3)
    ann, cara = e.core.residents["Ann Lin"], e.core.residents["Cara Diaz"]
    ann.pos, cara.pos = (2, 8), (21, 10)  # the street, 19 tiles apart: out of a reaction's reach
    cara.path = []
    e.board.cancel("Ann Lin")
    res = TickResult(step=e.core.step_no, clock="")
    e.lanes.apply_reaction(ann, Reaction("talk", with_whom="Cara"), res, e.clock.now)
    assert ann.seeking == "Cara Diaz" and ann.action.source == "reaction" and ann.path
    assert "going to talk with Cara Diaz" in ann.action.description
    assert any("goes to talk with Cara Diaz" in e.text for e in res.log)
    # saved and loaded while on its way: it goes on
    path = tmp_path / "seek.save"
    e.save(path)
    f = load_engine(path, engine_model(), lockstep=True)
    theirs = f.core.residents["Ann Lin"]
    assert theirs.seeking == "Cara Diaz" and theirs.seek_until == ann.seek_until
    await f.aclose()
    started = None
    for _ in range(60):
        for r in await run(e, 1):
            started = started or next((e.text for e in r.log if "starts talking" in e.text), None)
        if started:
            break
    assert started == "Ann Lin starts talking with Cara Diaz", started
    assert ann.conversation is not None and ann.seeking is None
    await e.aclose()

    # the other falls asleep (or cannot be reached in time): it gives up and decides again
    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    await run(e, 3)
    ann, cara = e.core.residents["Ann Lin"], e.core.residents["Cara Diaz"]
    ann.pos, cara.pos = (2, 8), (21, 10)
    e.board.cancel("Ann Lin")
    e.lanes.apply_reaction(ann, Reaction("talk", with_whom="Cara Diaz"), TickResult(step=0, clock=""), e.clock.now)
    cara.action = replace(cara.action, description="sleeping")
    cara.path = []
    await run(e, 1)
    assert ann.seeking is None and ann.conversation is None
    assert "Ann Lin" in e.board.jobs or ann.needs_decision  # decides again
    await e.aclose()


async def test_a_decision_s_view_finds_those_near_as_the_whole_town_would(fake_town_loader):
    # the view asks those within talking range from the step's round of looks (perceiving.within), not the
    # whole town: the same people, and the player's and the embodied one's places as they are now
    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    await run(e, 30)
    p, core = e.perceiver, e.core
    names = list(core.residents)

    def everyone(pos, reach):
        return {n for n, (x, y) in core.actors().items() if abs(x - pos[0]) <= reach and abs(y - pos[1]) <= reach}

    for n in names:
        for reach in (1, 4, 6):
            assert p.within(n, core.residents[n].pos, reach) == everyone(core.residents[n].pos, reach)
    mover, other = names[0], names[1]
    e.walker.put(core.residents[mover], core.residents[other].pos)  # (as the player walks one it embodies)
    core.embodied = mover
    assert mover in p.within(other, core.residents[other].pos, 1)
    sm = core.spatial[other]
    before, known = sm.version, sm.addresses()
    assert not sm.learn(known[0]) and sm.version == before  # known already: the same version, the same list
    assert sm.learn("somewhere new") and sm.version == before + 1 and "somewhere new" in sm.addresses()
