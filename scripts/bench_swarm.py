#!/usr/bin/env python3
"""The ``standin`` benchmark from the command line (game/measure/swarm.py; docs/BENCHMARKS.md,
"Past one machine"): a town of many residents in real time against the stand-in server, or
against a real OpenAI-compatible server with ``--llm-url``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.measure.bench import machine  # noqa: E402
from game.measure.swarm import DECODE_RATE, PREFILL_RATE, SwarmConfig, format_swarm, run_swarm  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--residents", type=int, default=100)
    p.add_argument("--slots", type=int, default=32, help="the stand-in's slots")
    p.add_argument("--decode-rate", type=float, default=DECODE_RATE, help="tokens/s generated in one slot")
    p.add_argument("--prefill-rate", type=float, default=PREFILL_RATE, help="prompt tokens/s evaluated in one slot")
    p.add_argument("--from", dest="start", default="05:30", help="game time to start at (day 1)")
    p.add_argument("--until", default="08:00", help="game time to stop at (day 1)")
    p.add_argument("--speedup", type=float, default=1.0,
                   help="the tick's 0.5 s and every stand-in latency divided by this (stated in the output)")
    p.add_argument("--llm-url",
                   help="a real OpenAI-compatible server (llama-server with -np N) instead of the stand-in")
    p.add_argument("--embed-url", help="embeddings from this server (default: the stand-in's hashed vectors)")
    p.add_argument("--ville", help="the_ville folder: its 25 residents as the base (default: the default town's 12)")
    p.add_argument("--town", help="another town folder as the base")
    p.add_argument("--tracemalloc", action="store_true", help="the Python heap's peak too (slower)")
    p.add_argument("--json", action="store_true")
    a = p.parse_args(argv)
    cfg = SwarmConfig(residents=a.residents, slots=a.slots, decode_rate=a.decode_rate, prefill_rate=a.prefill_rate,
                      start=a.start, until=a.until, speedup=a.speedup, llm_url=a.llm_url, embed_url=a.embed_url,
                      ville=a.ville, town=a.town, trace_memory=a.tracemalloc)
    out = run_swarm(cfg, machine())
    print(json.dumps(out, indent=2, default=str) if a.json else format_swarm(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
