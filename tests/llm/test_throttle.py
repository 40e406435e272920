"""The throttle (game/llm/throttle.py): how many requests in flight, from the server's stated slots,
its refusals and its answer times.  Pure: no clock, no server."""

from __future__ import annotations

import asyncio
import random
import statistics
from collections.abc import Callable

import pytest

from game.llm.scheduler import PriorityScheduler
from game.llm.throttle import Throttle


def test_stated_slots_are_the_limit_and_answer_times_do_not_move_it():
    t = Throttle(8)
    for i in range(50):
        t.answered(t.ticket(), 0.1 * (i + 1), "plan", waiting=True)  # slower and slower
    assert t.value == 8 and t.stated


def test_a_refusal_cuts_once_a_round():
    t = Throttle(32)
    sent = [t.ticket() for _ in range(32)]
    assert t.refused(sent[0]) is True and t.value < 32
    after = t.value
    # the others of that round, refused too, were sent before the cut: one overload, one cut
    assert not any(t.refused(s) for s in sent[1:10])
    assert t.value == after and t.cuts == 1 and t.refusals == 10
    # refused at once, before half the new limit's worth of answers came back: the same overload
    assert t.refused(t.ticket()) is False and t.value == after
    for _ in range(after // 2):
        t.answered(t.ticket(), 1.0, "plan", waiting=False)
    # then refused again: cut again, by half the share of refusals among the last answers
    assert t.refused(t.ticket()) is True
    assert after / 2 <= t.value < after and t.lowest == t.value
    # answers while work waits take it back to the slots, never past them; with nothing waiting, none
    low = t.value
    for _ in range(10):
        t.answered(t.ticket(), 1.0, "plan", waiting=False)
    assert t.value == low
    for _ in range(80):
        t.answered(t.ticket(), 1.0, "plan", waiting=True)
    assert t.value == 32


def _rounds(t: Throttle, n: int, refused: Callable[[int], bool]) -> list[int]:
    """``n`` rounds of the limit's worth of requests, all in flight, each answered or refused."""
    values = []
    for _ in range(n):
        tickets = [t.ticket() for _ in range(t.value)]
        for i, k in enumerate(tickets):
            if refused(i):
                t.refused(k)
            else:
                t.answered(k, 1.0, "plan", waiting=True)
        values.append(t.value)
    return values


def test_a_server_that_refuses_past_its_capacity_is_sent_fewer():
    """It takes 20 and refuses the rest: the limit comes down and stays within about three times
    that (the refused wait their back-off outside the slots, none lost; the server stays full)."""
    values = _rounds(Throttle(64), 40, lambda i: i >= 20)
    assert 20 <= statistics.mean(values[10:]) <= 60 and max(values[10:]) < 64


def test_a_server_that_refuses_a_third_at_random_keeps_its_slots_nearly_full():
    draw = random.Random(1)
    values = _rounds(Throttle(64), 40, lambda i: draw.random() < 1 / 3)
    assert statistics.mean(values[10:]) > 48


def test_a_server_that_says_nothing_is_probed_up_while_it_answers_as_usual():
    t = Throttle(256, stated=False, start=4)
    assert t.value == 4
    for _ in range(60):
        t.answered(t.ticket(), 1.0, "plan", waiting=True)
    assert t.value > 40
    before = t.value
    for _ in range(20):
        t.answered(t.ticket(), 1.0, "plan", waiting=False)  # nothing held back: no news, no change
    assert t.value == before


def test_answers_slower_than_usual_bring_the_limit_down():
    t = Throttle(256, stated=False, start=64)
    for _ in range(20):
        t.answered(t.ticket(), 1.0, "plan", waiting=True)
    high = t.value
    for _ in range(40):
        t.answered(t.ticket(), 5.0, "plan", waiting=True)  # five times the usual: a queue at the server
    assert t.value < high / 4
    assert t.recent > t.tolerance


def test_the_usual_is_each_purposes_own():
    """A day plan takes ten times a reaction: the two mixed are not a slowing server."""
    t = Throttle(256, stated=False, start=8)
    for i in range(80):
        t.answered(t.ticket(), 10.0 if i % 2 else 1.0, "plan_day" if i % 2 else "react", waiting=True)
    assert t.value > 80 and t.recent == pytest.approx(1.0, abs=0.05)


def test_the_limit_never_leaves_its_bounds():
    t = Throttle(16, stated=False, start=4, floor=2)
    for _ in range(30):  # every other one refused, nothing waiting to grow it back
        t.answered(t.ticket(), 0.5, "x", waiting=False)
        t.refused(t.ticket())
    assert t.value == 2
    for _ in range(500):
        t.answered(t.ticket(), 0.5, "x", waiting=True)
    assert t.value == 16


async def test_the_scheduler_sends_what_the_throttle_allows_and_keeps_the_players_slot():
    s = PriorityScheduler(8, reserve=1)
    held = [await s.acquire(2) for _ in range(7)]  # the town fills 7 of 8
    assert s.in_flight == 7 and s.capacity == 8
    assert s.refused(held[0]) is True  # refused: fewer allowed
    cap = s.capacity
    assert 4 <= cap < 8
    while s.in_flight > cap - 1:  # down to the town's limit (one slot kept for the player)
        s.release(held.pop(0))
    tasks = [asyncio.ensure_future(s.acquire(2)) for _ in range(2)]
    await asyncio.sleep(0)
    assert not any(t.done() for t in tasks) and s.queued == 2
    player = await asyncio.wait_for(s.acquire(0), 1)  # the player's request starts at once
    assert s.in_flight == cap
    s.release(player)
    assert s.queued == 2
    for n in held:
        s.answered(n, 1.0, "plan")
        s.release(n)
    await asyncio.wait_for(asyncio.gather(*tasks), 1)
    assert s.queued == 0
