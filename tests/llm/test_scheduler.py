import asyncio

import pytest

from game.llm.scheduler import PriorityScheduler


async def test_never_more_in_flight_than_slots_and_priority_order():
    sched = PriorityScheduler(2)
    peak = 0
    done: list[tuple[int, int]] = []

    async def job(prio: int, n: int) -> None:
        nonlocal peak
        async with sched.slot(prio):
            peak = max(peak, sched.in_flight)
            await asyncio.sleep(0.005)
            done.append((prio, n))

    blockers = [asyncio.create_task(job(9, i)) for i in range(2)]
    await asyncio.sleep(0)
    jobs = [asyncio.create_task(job(p, i)) for i, p in enumerate([3, 1, 2, 0, 1])]
    await asyncio.gather(*blockers, *jobs)
    assert peak == 2
    after = [p for p, _ in done[2:]]
    assert after == sorted(after)
    assert sched.in_flight == 0 and sched.queued == 0


async def test_same_priority_is_first_come_first_served():
    sched = PriorityScheduler(1)
    order = []

    async def job(n):
        async with sched.slot(1):
            order.append(n)
            await asyncio.sleep(0)

    await asyncio.gather(*(job(n) for n in range(6)))
    assert order == list(range(6))


async def test_cancelled_waiter_does_not_leak_a_slot():
    sched = PriorityScheduler(1)
    await sched.acquire(0)
    waiter = asyncio.create_task(sched.acquire(1))
    await asyncio.sleep(0)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    sched.release()
    assert sched.in_flight == 0
    async with sched.slot(0):
        assert sched.in_flight == 1


async def test_resize_wakes_waiters():
    sched = PriorityScheduler(1)
    await sched.acquire(0)
    waiter = asyncio.create_task(sched.acquire(0))
    await asyncio.sleep(0)
    assert not waiter.done()
    sched.resize(2)
    await asyncio.wait_for(waiter, 1)
    assert sched.in_flight == 2


def test_bad_slot_count():
    with pytest.raises(ValueError):
        PriorityScheduler(0)


async def test_a_slot_is_kept_for_the_player():
    """The town's own work fills at most slots - 1; a reply to the player starts at once, and the
    queued planning goes on as slots free up."""
    s = PriorityScheduler(4, reserve=1)
    for _ in range(3):
        await s.acquire(2)
    waiting = asyncio.ensure_future(s.acquire(2))
    await asyncio.sleep(0)
    assert s.in_flight == 3 and not waiting.done()
    player = await asyncio.wait_for(s.acquire(0), 0.1)  # the player's request: no wait
    assert s.in_flight == 4 and not waiting.done()
    s.release(player)  # the player's reply ends: still only three for planning
    await asyncio.sleep(0)
    assert not waiting.done()
    s.release()  # a plan ends: the queued one starts
    await asyncio.wait_for(waiting, 0.1)
    assert s.in_flight == 3
    one = PriorityScheduler(1, reserve=1)  # one slot: nothing can be kept back
    await asyncio.wait_for(one.acquire(3), 0.1)


async def test_slot_numbers_keep_slot_zero_for_the_player():
    sched = PriorityScheduler(4, reserve=1)
    town = [await sched.acquire(2) for _ in range(3)]  # the town fills what it may
    assert sorted(town) == [1, 2, 3]
    player = await sched.acquire(0)
    assert player == 0
    sched.release(player)
    sched.release(town[0])
    again = await sched.acquire(2)  # the town takes the highest free number, never the player's
    assert again == town[0]
    for n in town[1:] + [again]:
        sched.release(n)
    async with sched.slot(0) as a, sched.slot(0) as b:  # two of the player's at once: 0, then 1
        assert (a, b) == (0, 1)
    assert sched.in_flight == 0


async def test_a_residents_work_goes_back_to_the_slot_that_holds_its_prompt():
    sched = PriorityScheduler(4, reserve=1)
    a = await sched.acquire(2, "Ann")
    b = await sched.acquire(2, "Bob")
    assert (a, b) == (3, 2)
    sched.release(a)
    sched.release(b)
    assert await sched.acquire(2, "Bob") == 2  # not the highest free (3): Bob's prompt is in 2
    assert await sched.acquire(2, "Ann") == 3
    assert await sched.acquire(2, "Cid") == 1  # nobody's: the highest free
    for n in (1, 2, 3):
        sched.release(n)
    p = await sched.acquire(0, "Dee")  # the player talks to Dee in slot 0 ...
    sched.release(p)
    assert p == 0 and await sched.acquire(2, "Dee") == 3  # ... the town's work for Dee stays off 0
    sched.release(3)


async def test_the_town_starts_nothing_new_while_the_player_waits():
    sched = PriorityScheduler(4, reserve=1)
    town = await sched.acquire(2)
    async with sched.slot(0):
        later = asyncio.create_task(sched.acquire(2))
        await asyncio.sleep(0.01)
        assert not later.done() and sched.in_flight == 2  # the town's request in flight goes on
    assert await asyncio.wait_for(later, 1) == 2  # and the waiting one starts when the player's ends
    sched.release(town)


async def test_the_town_waits_a_moment_after_the_players_request_for_the_next_one():
    now = [100.0]
    sched = PriorityScheduler(4, reserve=1, linger=3.0, clock=lambda: now[0])
    async with sched.slot(0):  # the player's prefill while they type
        pass
    later = asyncio.create_task(sched.acquire(2))
    await asyncio.sleep(0.01)
    assert not later.done()  # the player is still typing: the town waits
    async with sched.slot(0):  # their next prefill (or reply) starts at once
        pass
    now[0] += 2.0
    sched._wake()
    await asyncio.sleep(0.01)
    assert not later.done()  # 2 s after the last of the player's requests: still waiting
    now[0] += 1.5
    sched._wake()  # (the scheduler's own timer does this once the pause is over)
    assert await asyncio.wait_for(later, 1) == 3
    sched.release(3)


async def test_the_pause_after_the_players_request_ends_by_itself():
    sched = PriorityScheduler(4, reserve=1, linger=0.05)
    async with sched.slot(0):
        pass
    t = asyncio.get_running_loop().time()
    number = await asyncio.wait_for(sched.acquire(2), 1)  # woken by the scheduler's timer
    assert asyncio.get_running_loop().time() - t >= 0.04
    sched.release(number)


async def test_the_players_work_for_a_resident_goes_back_to_that_residents_slot():
    sched = PriorityScheduler(4, reserve=1)
    rosa = await sched.acquire(0, "Rosa")
    hank = await sched.acquire(0, "Hank")
    assert (rosa, hank) == (0, 1)
    sched.release(rosa)
    sched.release(hank)
    # Hank's next request finds slot 0 free, but his own evaluated prompt is in slot 1
    assert await sched.acquire(0, "Hank") == 1
    assert await sched.acquire(0, "Rosa") == 0
    assert await sched.acquire(0, "Ines") == 2  # her slot was never hers: the lowest free
    sched.release(0)
    sched.release(1)
    sched.release(2)
    town = await sched.acquire(2, "Hank")  # the town's work for Hank: where his prompt is
    assert town == 1
    assert await sched.acquire(2, "Rosa") == 3  # hers is in slot 0, the player's: the highest free
    sched.release(town)
    sched.release(3)


# ------------------------------------------------------------------ spare time (idle share)

async def test_spare_is_the_idle_share_of_the_window_and_a_new_scheduler_has_none():
    now = [100.0]
    sched = PriorityScheduler(2, clock=lambda: now[0], window=60.0)
    assert sched.spare() == 0.0  # nothing seen yet: the time before it existed counts as busy
    now[0] = 130.0
    assert sched.spare() == pytest.approx(0.5)
    assert sched.idle_s() == pytest.approx(30.0)
    n = await sched.acquire(1)  # busy from 130 to 145
    assert sched.idle_s() == 0.0
    now[0] = 145.0
    sched.release(n)
    now[0] = 160.0  # the last minute (100-160): busy from 130 to 145
    assert sched.spare() == pytest.approx(45 / 60)
    assert sched.idle_s() == pytest.approx(15.0)
    now[0] = 300.0  # long idle: the busy stretch is out of the window
    assert sched.spare() == 1.0
    assert sched.spare(window=10) == 1.0


async def test_queued_work_counts_as_busy_even_with_nothing_in_flight():
    """While a player's request lingers the town's work waits with nothing in flight: busy still."""
    now = [0.0]
    sched = PriorityScheduler(4, reserve=1, linger=3.0, clock=lambda: now[0], window=60.0)
    now[0] = 60.0
    n = await sched.acquire(0)
    sched.release(n)  # the town waits 3 s after the player's request
    waiter = asyncio.create_task(sched.acquire(2))
    await asyncio.sleep(0)
    assert sched.in_flight == 0 and sched.queued == 1
    now[0] = 62.0
    assert sched.idle_s() == 0.0
    assert sched.spare() == pytest.approx(58 / 60)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    assert sched.queued == 0
    now[0] = 70.0
    assert sched.idle_s() == pytest.approx(8.0)
