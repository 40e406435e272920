"""``town bench``: the game's benchmarks (``game.measure.bench``) and the screen's own, ``render``.

The screen's benchmark lives here because it measures the screen: ``game.measure`` never imports
the UI.  ``town bench`` comes here and runs them all, ``render`` in its old place among them.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from game.measure.bench import BENCHMARKS, cli_bench as measure_cli_bench, largest_town, median_ms


def bench_render(quick: bool) -> dict:
    from game.ui.mapview import Actor, MapView  # here: `town bench --only tick` starts without Textual

    town = largest_town()
    rng = np.random.default_rng(3)
    walk = np.argwhere(town.grid)
    view = MapView(town)
    actors = []
    emojis = ["\u2615", "\U0001F4DA", "\U0001F373", "\U0001F4AC", "\U0001F634"]
    for i in range(25):
        y, x = walk[rng.integers(len(walk))]
        actors.append(Actor(f"r{i}", chr(65 + i), "#ffcc00", (int(x), int(y)), emojis[i % len(emojis)]))
    view.set_actors(actors)
    n = 10 if quick else 30

    def full() -> None:
        view._rows.clear()
        view.render_frame()

    full_med, full_best = median_ms(full, n)

    def moves() -> None:
        for a in actors:
            x, y = a.pos
            view.move(a.name, (x + 1 if x + 1 < town.width else x - 1, y))
        view.render_frame()

    inc_med, inc_best = median_ms(moves, n * 3)
    return {"map": f"{town.name} {town.width}x{town.height}", "actors": 25,
            "full_frame_ms_median": round(full_med, 2), "full_frame_ms_best": round(full_best, 2),
            "frame_after_25_moves_ms_median": round(inc_med, 3),
            "note": "MapView.render_frame(): composing the map rows (Strips); the terminal write is not included"}



def benchmarks() -> dict[str, Callable[[bool], dict]]:
    """Every benchmark, in the order ``town bench`` runs them."""
    out = {k: v for k, v in BENCHMARKS.items() if k != "paths"}
    out["render"] = bench_render
    out.update({k: v for k, v in BENCHMARKS.items() if k not in out})
    return out


def cli_bench(args: Any) -> int:
    return measure_cli_bench(args, benchmarks())
