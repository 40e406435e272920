"""The clock's rate over a stretch, read from a real-time run's progress lines."""

from __future__ import annotations

import pytest

from game.measure.clockrate import main, points, stretch

LOG = """running the Ville with 25 residents from Day 1, 02:00:00 to day 1 12:00, pace normal
  Day 1, 07:00:00  model calls 324  thinking 2  model-led 91%  server idle 54%  real 980s
  Day 1, 07:00:10  the counter is now staffed
  Day 1, 08:00:00  model calls 400  thinking 5  model-led 97%  server idle 7%  slowed x3 for the model  real 1205s
  Day 1, 09:00:00  model calls 474  thinking 5  model-led 97%  server idle 7%  real 1385s
"""


def test_a_stretch_is_its_real_seconds_against_three_a_game_minute():
    pts = points(LOG.splitlines())
    assert len(pts) == 3
    slow = stretch(pts, "07:00", "08:00")
    assert (slow.game_min, slow.real_s, slow.normal_s) == (60, 225, 180) and slow.rate == pytest.approx(0.8)
    assert stretch(pts, "08:00", "09:00").rate == pytest.approx(1.0)


def test_the_command_says_what_is_wrong_with_a_log_without_progress_lines(tmp_path, capsys):
    log = tmp_path / "run.err"
    log.write_text("starting the model server\n")
    assert main([str(log), "05:00", "12:00"]) == 1 and "no progress lines" in capsys.readouterr().err
    log.write_text(LOG)
    assert main([str(log), "07:00", "09:00"]) == 0 and "x0.89" in capsys.readouterr().out
    assert main([str(log)]) == 2
