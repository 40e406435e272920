"""World benchmarks: map load time, path queries per second on the largest map (the imported Ville).

    .venv/bin/python bench/world_bench.py [--ville ../shared/the_ville]

Figures are recorded in docs/WORLD.md.  Single process, one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.world import PathFinder, default_town_path, load_town  # noqa: E402
from game.world.ville import import_ville  # noqa: E402


def timed(fn, n=5):
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts), out


def cold_load(path: Path) -> float:
    code = ("import time; t=time.perf_counter(); from game.world import load_town; "
            f"load_town({str(path)!r}); print(time.perf_counter()-t)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    return float(r.stdout.strip())


def paths(town, label: str) -> None:
    rng = random.Random(1)
    walk = [tuple(map(int, p[::-1])) for p in __import__("numpy").argwhere(town.grid)]
    t, pf = timed(lambda: PathFinder(town.grid), 3)
    print(f"  {label}: PathFinder build {t * 1000:.1f} ms ({len(walk)} walkable tiles, {pf.components} components)")
    main = [p for p in walk if pf.reachable(p, town.spawn[town.residents[0].name])]
    # cold: every query a new destination (a BFS each)
    pairs = [(rng.choice(main), rng.choice(main)) for _ in range(200)]
    pf = PathFinder(town.grid, cache_size=1)
    t0 = time.perf_counter()
    steps = sum(len(pf.path(a, b)) for a, b in pairs)
    dt = time.perf_counter() - t0
    print(f"  {label}: new destination every query: {len(pairs) / dt:,.0f} paths/s "
          f"(mean length {steps / len(pairs):.0f} steps)")
    # warm: 40 destinations (beds, desks, counters...), sources anywhere
    dests = [rng.choice(main) for _ in range(40)]
    pf = PathFinder(town.grid)
    for d in dests:
        pf.path(main[0], d)
    q = [(rng.choice(main), rng.choice(dests)) for _ in range(20000)]
    t0 = time.perf_counter()
    steps = sum(len(pf.path(a, b)) for a, b in q)
    dt = time.perf_counter() - t0
    print(f"  {label}: 40 frequent destinations (cached fields): {len(q) / dt:,.0f} paths/s "
          f"(mean length {steps / len(q):.0f} steps)")
    # avoiding occupied tiles (25 others standing on the way)
    occ = set(rng.sample(main, 25))
    q2 = q[:2000]
    t0 = time.perf_counter()
    for a, b in q2:
        pf.path(a, b, avoid=occ)
    dt = time.perf_counter() - t0
    print(f"  {label}: same, avoiding 25 occupied tiles: {len(q2) / dt:,.0f} paths/s")
    far, _ = pf.farthest_from(main[0])
    other, d = pf.farthest_from(far)
    t, _ = timed(lambda: PathFinder(town.grid, cache_size=1).path(far, other), 3)
    print(f"  {label}: longest shortest path found: {d} steps, {t * 1000:.1f} ms cold")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ville", default=str((ROOT / ".." / "shared" / "the_ville").resolve()))
    args = ap.parse_args()
    default = default_town_path()
    t, town = timed(lambda: load_town(default))
    print(f"default town ({town.width}x{town.height}): load_town {t * 1000:.0f} ms warm, "
          f"{cold_load(default) * 1000:.0f} ms cold (fresh process, imports included)")
    paths(town, "default")
    src = Path(args.ville)
    if not (src / "environment").is_dir():
        print(f"(no Ville data at {src}; skipping the largest map)")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "ville"
        t, _ = timed(lambda: import_ville(src, out), 1)
        print(f"the Ville: import-ville {t * 1000:.0f} ms")
        t, ville = timed(lambda: load_town(out))
        print(f"the Ville ({ville.width}x{ville.height}): load_town {t * 1000:.0f} ms warm, "
              f"{cold_load(out) * 1000:.0f} ms cold")
        paths(ville, "the Ville")
    return 0


if __name__ == "__main__":
    sys.exit(main())
