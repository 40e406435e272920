"""Which blocks of the day plan one decompose call covers (``planning.decompose_window``)."""

from game.mind.config import MindConfig
from game.mind.planning.planner import decompose_window
from game.mind.view import DayPlan, PlanBlock


def plan(*spans: tuple[int, int]) -> DayPlan:
    return DayPlan(1, 6 * 60, 22 * 60, tuple(PlanBlock(a * 60, b * 60, f"block {a}-{b}") for a, b in spans))


def hours(blocks: list[PlanBlock]) -> list[tuple[float, float]]:
    return [(b.start / 60, b.end / 60) for b in blocks]


def test_two_hour_blocks_are_decomposed_four_hours_a_call():
    cfg = MindConfig()
    day = plan((8, 10), (10, 12), (12, 14), (14, 16))
    assert hours(decompose_window(day, 10 * 60, cfg.decompose_window_min, cfg.decompose_window_max)) == [
        (10, 12), (12, 14)]
    # from the middle of a block, the next one is whole or not at all: never past four hours
    assert hours(decompose_window(day, 10 * 60 + 30, cfg.decompose_window_min, cfg.decompose_window_max)) == [
        (10, 12), (12, 14)]
    assert hours(decompose_window(day, 11 * 60, 180, 240)) == [(10, 12), (12, 14)]
    assert hours(decompose_window(day, 9 * 60, 180, 240)) == [(8, 10), (10, 12)]


def test_hour_blocks_fill_three_hours_and_a_long_block_stands_alone():
    day = plan((8, 9), (9, 10), (10, 11), (11, 12), (12, 17))
    assert hours(decompose_window(day, 8 * 60, 180, 240)) == [(8, 9), (9, 10), (10, 11)]
    assert hours(decompose_window(day, 11 * 60, 180, 240)) == [(11, 12)]  # 12-17 would pass four hours
    assert hours(decompose_window(day, 12 * 60, 180, 240)) == [(12, 17)]  # at least the block in progress


def test_no_window_outside_the_plan_and_gaps_end_it():
    day = plan((8, 9), (10, 11))
    assert decompose_window(day, 7 * 60, 180, 240) == []
    assert hours(decompose_window(day, 8 * 60, 180, 240)) == [(8, 9)]  # the next block is not back to back
    assert decompose_window(None, 8 * 60, 180, 240) == []
    # the old rule, the limit alone: blocks that end within it
    assert hours(decompose_window(plan((8, 9), (9, 10), (10, 12)), 8 * 60, 120)) == [(8, 9), (9, 10)]


def test_a_block_all_but_over_is_not_asked_for_the_next_starts_now():
    day = plan((8, 10), (10, 12), (12, 14), (14, 16))
    window = decompose_window(day, 11 * 60 + 57, 180, 240)  # three minutes of 10-12 left
    assert [(b.start, b.end, b.activity) for b in window] == [(11 * 60 + 57, 14 * 60, "block 12-14"),
                                                              (14 * 60, 16 * 60, "block 14-16")]
    # five minutes or more left: the block in progress is asked for as before
    assert hours(decompose_window(day, 11 * 60 + 55, 180, 240))[0] == (10, 12)
    # the last block of the plan all but over: nothing after it, so it stands (bridged by rule)
    assert hours(decompose_window(plan((8, 10)), 9 * 60 + 58, 180, 240)) == [(8, 10)]
