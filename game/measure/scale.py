"""The ``scale`` benchmark: the ``standin`` benchmark (swarm.py) at 100, 300 and 1,000 residents,
one game hour from 08:00 (the morning rush: everyone up, the arrivals at work), in one table.

``python bench/scale.py`` (or ``town bench --only scale``; ``--quick``: ten game minutes each) runs
``scale_config(n)`` for each size one after the other: a town of ``n`` (past 100, the default town
repeated in blocks of about 100: bigtown.py) against a stand-in of a slot for every three
residents, at the normal rate with the game's pace policy, through the game's own client, whose
throttle (game/llm/throttle.py) takes the slots the stand-in states in ``/props`` (or, with
``hide_slots``, finds how many from the answer times).  ``refuse`` has the stand-in answer HTTP
429 to that share of the calls: the table then says how many were refused and asked again, and
how many calls failed (none should).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from game.measure.swarm import run_swarm
from game.measure.swarmconfig import SwarmConfig, scale_config

SIZES = (100, 300, 1000)


def run_scale(sizes: Sequence[int] = SIZES, *, quick: bool = False, refuse: float = 0.0,
              retry_after: float | None = None, hide_slots: bool = False,
              machine: dict | None = None, progress: Callable[[str], None] | None = None,
              configure: Callable[[SwarmConfig], None] | None = None) -> dict:
    """Each size's run (``run_swarm``), with the load average at its start and end."""
    runs = []
    for n in sizes:
        cfg = scale_config(n, quick=quick)
        cfg.refuse, cfg.retry_after, cfg.hide_slots = refuse, retry_after, hide_slots
        if configure is not None:
            configure(cfg)
        if progress is not None:
            progress(f"{n} residents, {cfg.slots} slots, {cfg.start}-{cfg.until}")
        r = run_swarm(cfg, machine)
        r["machine"]["load_1min_at_end"] = round(os.getloadavg()[0], 2)
        runs.append(r)
    return {"runs": runs, "quick": quick, "refuse": refuse, "hide_slots": hide_slots}


def _pct(x: object) -> str:
    return f"{x:.1%}" if isinstance(x, float) else "-"


def row(r: dict) -> str:
    """One run as a line of the table."""
    s, sv, ml, th = r.get("slots", {}), r.get("server", {}), r.get("model_led", {}), r.get("throttle", {})
    m = r.get("machine", {})
    low = r.get("model_led_lowest")
    lowest = f" (lowest {low[0]:.0%})" if isinstance(low, (list, tuple)) and low and low[0] is not None else ""
    refused = sv.get("refused", 0)
    before = r.get("slots_before_the_clock", {})
    return (f"| {r['residents']} | {sv.get('slots', '-')} (client: {th.get('limit', '-')}"
            f"{', found' if not th.get('stated', True) else ''}) "
            f"| x{r['real_over_normal']} ({r['real_s']} s / {r['normal_rate_s']} s), slowed {r['ticks_slowed']} of "
            f"{r['ticks']} | **{r['step_cpu_ms_median']}** ({r['step_cpu_ms_p95']}) "
            f"| {r['process_cpu_ms_per_tick_median']} ({r['process_cpu_ms_per_tick_p95']}) "
            f"| {r['rss_mb_town_built']} / **{r['rss_mb_end']}** ({r['rss_mb_peak']}) "
            f"| **{_pct(s.get('busy_share_while_work_waits'))}** ({_pct(s.get('share_of_samples_with_work_waiting'))}"
            f" of the time) | **{_pct(ml.get('model_led_share'))}**{lowest} "
            f"| {r.get('prepare_s', '-')} s ({_pct(before.get('busy_share_while_work_waits'))}) "
            f"| {r['chat_calls']} ({r['chat_failures']} failed; {refused} refused, "
            f"{r.get('refusals_asked_again', 0)} asked again) "
            f"| {m.get('load_1min_at_start', '-')} / {m.get('load_1min_at_end', '-')} |")


HEADER = ("| residents | stand-in slots (client's limit at the end) | real / normal rate, slowed ticks "
          "| engine step CPU ms: median (p95) | whole process CPU ms a tick: median (p95) "
          "| RSS MB: built / end (peak) | slots busy while work waits (time work waited) "
          "| model-led | day plans before the clock (slots busy while work waits) "
          "| chat calls (failed; 429s, asked again) | load 1 min: start / end |\n"
          "|---|---|---|---|---|---|---|---|---|---|---|")


def scale_table(result: dict) -> str:
    """The runs as one markdown table."""
    return "\n".join([HEADER, *(row(r) for r in result["runs"])])
