"""In real time a decision never waits behind a reflection: the reflection is made in an
``observe`` job of its own, when the resident's lane is free and the server is idle: nothing in
flight, nothing queued (``Capacity.room_to_reflect``).  In lockstep every job still reflects first, as
the recordings were made (issue 30: the arrivals at work, when reflections came due in the crowd,
held the clock at "slowed x9" while decisions waited behind them)."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from engine_fakes import engine_model

from game.engine.build import new_engine
from game.engine.state import JobKind
from game.engine.tuning import SUBJECT_COOLDOWN
from game.llm.api import ModelStatus
from game.world import default_town_path

MORNING = datetime(2026, 3, 2, 10, 0)
BUSY = ModelStatus(url="fake", model="fake", spare=0.0, idle_s=0.0, in_flight=3, queued=2, slots=4)
ROOM = ModelStatus(url="fake", model="fake", spare=0.5, idle_s=5.0, in_flight=0, slots=4)
# slots free, but a call in flight: the crowd's, whose next call would wait behind a reflection
BETWEEN = ModelStatus(url="fake", model="fake", spare=0.5, idle_s=0.0, in_flight=1, slots=4)


def _engine(lockstep: bool, status: ModelStatus):
    llm = engine_model(jitter=0.002, status=status)
    e = new_engine(default_town_path(), llm, lockstep=lockstep, start=MORNING)
    for mind in e.core.minds.values():
        mind.core.config.reflect_threshold = 1.0  # due after any memory at all
    return e, llm


def _reflections(llm) -> list[str | None]:
    return [who for purpose, who in llm.pairs() if purpose == "reflect"]


async def _run(e, ticks: int, kinds: list[JobKind]) -> None:
    for _ in range(ticks):
        e.step()
        kinds.extend(j.kind for j in e.board.jobs.values())
        if e.board.jobs:
            await asyncio.wait_for(e.wait_any(), 5)
        await asyncio.sleep(0)


async def test_not_in_the_crowd_then_in_an_observe_job_of_its_own():
    e, llm = _engine(lockstep=False, status=BUSY)
    kinds: list[JobKind] = []
    await _run(e, 30, kinds)
    assert kinds and _reflections(llm) == []  # decisions made, none waited behind a reflection
    llm.model_status = BETWEEN
    await _run(e, 30, kinds)
    assert _reflections(llm) == []
    llm.model_status = ROOM
    kinds.clear()
    await _run(e, 30, kinds)
    assert _reflections(llm) and JobKind.OBSERVE in kinds
    await e.aclose()


async def test_lockstep_reflects_before_the_decision_as_recorded():
    e, llm = _engine(lockstep=True, status=BUSY)
    for _ in range(30):
        e.step()
        await e.wait_ready()
    assert _reflections(llm)
    await e.aclose()


async def test_in_a_crowd_people_are_seen_and_remembered_not_reacted_to():
    """While decisions queue at the server for half its slots, a person come into view is only
    remembered (``Capacity.crowded``) and passed over as if reacted to: met again within the
    cool-down, not reacted to (else each later sight asked one: more reactions and talks on
    eaef4b9's day, not fewer); after it, with room, reacted to.  Lockstep never counts the crowd."""
    crowd = ModelStatus(url="fake", model="fake", spare=0.0, idle_s=0.0, in_flight=4, queued=2, slots=4)
    e, llm = _engine(lockstep=False, status=crowd)
    a, b = e.core.residents["Aiko Tanaka"], e.core.residents["Hank Brody"]  # (not at home together)
    assert not a.asleep and not b.asleep  # (10:00)
    b.pos = (a.pos[0] + 1, a.pos[1])
    now = e.clock.now
    assert e.capacity.crowded()
    e.perceiver.look(a, now)
    assert "person:Hank Brody" in a.seen and a.salient == [] and e.perceiver.quiet_in_crowd == 1
    assert a.reacted.get("Hank Brody") == now  # (passed over: the cool-down runs)
    llm.model_status = ROOM
    e.core.step_no += 1
    a.seen.clear()
    e.perceiver.look(a, now + timedelta(minutes=30))
    assert not e.capacity.crowded() and a.salient == []  # met again within the cool-down
    a.seen.clear()
    e.perceiver.look(a, now + SUBJECT_COOLDOWN + timedelta(minutes=1))
    assert any("Hank Brody" in s for s in a.salient) and e.perceiver.quiet_in_crowd == 1
    await e.aclose()
    e, llm = _engine(lockstep=True, status=crowd)
    assert not e.capacity.crowded()
    await e.aclose()


async def test_reactions_asked_for_half_the_slots_make_a_crowd_before_the_server_queues_them():
    """a9a17c8's lunch: five residents met at the cafe saw each other in one tick, and five reactions
    took the four slots before the server showed a queue; the reactions on the board count."""
    e, llm = _engine(lockstep=False, status=ROOM)
    now = e.clock.now
    assert not e.capacity.crowded()
    assert e.capacity.crowded(2)  # two reactions to be asked this tick: half of four slots
    for name in ("Grace Okafor", "Samuel Okafor"):
        e.lanes.ask(e.core.residents[name], JobKind.REACT, now, {"percept": "Hank Brody is reading"})
    e.core.step_no += 1
    assert e.capacity.crowded()  # the two on the board, sent or not
    await e.aclose()
    # in one round of looks: the first to see someone reacts, the second is the half and remembers only
    e, llm = _engine(lockstep=False, status=ROOM)
    a, b, c = (e.core.residents[n] for n in ("Aiko Tanaka", "Hank Brody", "Priya Raman"))
    b.pos = c.pos = (a.pos[0] + 1, a.pos[1])
    e.perceiver.reacting = 1  # one resident of this round before them has something to react to
    e.perceiver.look(a, e.clock.now)
    assert a.salient and e.perceiver.reacting == 2 and e.perceiver.quiet_in_crowd == 0
    e.perceiver.look(b, e.clock.now)
    assert b.salient == [] and e.perceiver.quiet_in_crowd >= 1
    await e.aclose()


async def test_someone_just_talked_with_is_seen_not_reacted_to():
    """As a talk ends, the others are all in view at once: no new talk with them may start within
    ``TALK_COOLDOWN``, so the sight asks no reaction (``Perceiver.talked_lately``), in lockstep too."""
    for lockstep in (False, True):
        e, _ = _engine(lockstep=lockstep, status=ROOM)
        a, b = e.core.residents["Aiko Tanaka"], e.core.residents["Hank Brody"]
        b.pos = (a.pos[0] + 1, a.pos[1])
        now = e.clock.now
        a.last_talk["Hank Brody"] = now - timedelta(minutes=20)
        e.perceiver.look(a, now)
        assert "person:Hank Brody" in a.seen and a.salient == [] and e.perceiver.quiet_after_talk == 1
        a.seen.clear()
        a.last_talk["Hank Brody"] = now - timedelta(hours=2)
        e.perceiver.look(a, now)
        assert any("Hank Brody" in s for s in a.salient)
        await e.aclose()


def _ratings(llm) -> int:
    return sum(1 for purpose, _ in llm.pairs() if purpose == "importance")


async def test_importance_ratings_wait_for_a_server_with_room():
    """In real time a batch of importance ratings is asked only with nothing queued and nothing in
    flight (``Capacity.room_to_score``): in the crowd the memories keep their
    provisional rating; with room, they are rated.  Lockstep rates as it always did."""
    e, llm = _engine(lockstep=False, status=BUSY)
    for mind in e.core.minds.values():
        mind.core.config.importance_batch = 1  # due after any memory at all
    assert not e.capacity.room_to_score()
    kinds: list[JobKind] = []
    await _run(e, 30, kinds)
    assert kinds and _ratings(llm) == 0
    assert any(m.core.memory.unscored() for m in e.core.minds.values())  # kept, provisional
    llm.model_status = BETWEEN  # one call in flight: the next would share the cores with it
    e.core.step_no += 1  # (the status is read once a tick)
    assert not e.capacity.room_to_score()
    llm.model_status = ROOM
    e.core.step_no += 1
    assert e.capacity.room_to_score()
    await _run(e, 30, kinds)
    assert _ratings(llm) > 0
    await e.aclose()
    e, llm = _engine(lockstep=True, status=BUSY)
    assert e.capacity.room_to_score()
    await e.aclose()


async def test_one_reflection_at_a_time_in_the_whole_town():
    """Two residents' ``observe`` jobs asked in one tick both found the server idle, and their
    reflections ran side by side at the lunch of 2c4c6ac's day: one at a time now
    (``Capacity.reflect``), the others' wait for the next lull."""
    e, llm = _engine(lockstep=False, status=ROOM)  # (the fake's status never shows the reflection)
    running, peak, made = 0, 0, []

    def slowed(mind):
        inner = mind.reflect_if_due

        async def reflect(now):
            nonlocal running, peak
            running += 1
            peak = max(peak, running)
            try:
                await asyncio.sleep(0.05)
                made.append(mind.core.name)
                return await inner(now)
            finally:
                running -= 1
        return reflect

    for mind in e.core.minds.values():
        mind.reflect_if_due = slowed(mind)
    await _run(e, 60, [])
    assert len(made) >= 2 and peak == 1
    assert e.capacity.reflecting == 0
    await e.aclose()
