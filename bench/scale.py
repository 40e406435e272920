#!/usr/bin/env python3
"""A hundred, three hundred and a thousand residents on a stand-in server, one table
(game/measure/scale.py; docs/SCALE.md).

    .venv/bin/python bench/scale.py                          # 100, 300, 1,000 residents, 08:00-09:00 each
    .venv/bin/python bench/scale.py --quick                  # 08:00-08:10 each
    .venv/bin/python bench/scale.py --sizes 1000 --refuse 0.33 --retry-after 1
    .venv/bin/python bench/scale.py --hide-slots             # the client finds how many from answer times
    .venv/bin/python bench/scale.py --sizes 1000 --llm-url http://gpu-box:8000/v1   # a real server
    .venv/bin/python bench/scale.py --json /tmp/scale.json

Each run plays in real time (one game hour is three real minutes at the normal rate, plus the
day plans before the clock and the town's building); the machine's load average at each run's
start and end is in the table: measure alone on the machine.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.measure.benchkit import machine  # noqa: E402
from game.measure.scale import SIZES, run_scale, scale_table  # noqa: E402
from game.measure.swarm import format_swarm  # noqa: E402
from game.measure.swarmconfig import SwarmConfig  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default=",".join(str(n) for n in SIZES), help="residents, comma-separated")
    p.add_argument("--quick", action="store_true", help="ten game minutes each (08:00-08:10)")
    p.add_argument("--refuse", type=float, default=0.0, help="the stand-in answers 429 to this share of calls")
    p.add_argument("--retry-after", type=float, help="with --refuse: the Retry-After seconds it sends")
    p.add_argument("--hide-slots", action="store_true", help="the stand-in does not say its slots (/props 404)")
    p.add_argument("--speedup", type=float, default=1.0, help="every latency and the tick divided by this")
    p.add_argument("--llm-url", help="a real OpenAI-compatible server (vLLM, a router) instead of the stand-in")
    p.add_argument("--embed-url", help="embeddings from this server (default: the stand-in's hashed vectors)")
    p.add_argument("--json", help="write every figure here")
    a = p.parse_args(argv)

    def configure(cfg: SwarmConfig) -> None:
        cfg.speedup, cfg.llm_url, cfg.embed_url = a.speedup, a.llm_url, a.embed_url

    sizes = [int(x) for x in a.sizes.split(",") if x.strip()]
    if len(sizes) > 1:  # each size in a process of its own: its memory is its own
        out = {"runs": [], "quick": a.quick, "refuse": a.refuse, "hide_slots": a.hide_slots}
        with tempfile.TemporaryDirectory(prefix="town-scale-") as tmp:
            for n in sizes:
                rest = [x for i, x in enumerate(argv or sys.argv[1:]) if x != "--json" and
                        (i == 0 or (argv or sys.argv[1:])[i - 1] != "--json")]
                one = Path(tmp) / f"{n}.json"
                subprocess.run([sys.executable, __file__, *rest, "--sizes", str(n), "--json", str(one)],
                               check=True, stdout=subprocess.DEVNULL)
                out["runs"] += json.loads(one.read_text())["runs"]
    else:
        out = run_scale(sizes, quick=a.quick, refuse=a.refuse, retry_after=a.retry_after,
                        hide_slots=a.hide_slots, machine=machine(),
                        progress=lambda line: print(line, file=sys.stderr, flush=True), configure=configure)
    for r in out["runs"]:
        print(format_swarm(r), end="\n\n")
    print(scale_table(out))
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
