"""``town bench``'s save_load runs end to end (small: 25 residents x 1,000 memories, one autosave in
the running app): the saves after the first are of the changes only and the screen's figures come
back.  Figures, not timings, are asserted: the timings are the benchmark's to report."""

from __future__ import annotations

from game.measure.bench import bench_save_load
from game.ui.bench import screen_during_autosave


def test_the_save_load_benchmark_runs_with_the_screen():
    out = bench_save_load(True, screen=lambda town, save: screen_during_autosave(town, save, rounds=1, ticks=6))
    assert out["memories_loaded"] >= 25 * 1000
    assert out["autosave_incremental"] is True and out["screen_autosaves_incremental"] is True
    assert out["file_mb_after_autosaves"] < 1.5 * out["file_mb"]
    for key in ("save_s", "load_s", "autosave_ms_median", "screen_longest_frame_during_autosave_ms",
                "screen_longest_frame_playing_no_save_ms"):
        assert out[key] >= 0, key
