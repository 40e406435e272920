"""A measured headless run: seed a piece of news with a whisper, run the town in lockstep, keep
where everyone was, save every game hour, then print the report.

    .venv/bin/python bench/spread_run.py maps/default --small --until "day 1 12:00" \
        --whisper "Rosa Brody=I am hosting a Valentine's party at the Bluebell Cafe on Friday at 5pm" \
        --track "party=valentine, party" --save /tmp/runs/spread.save --llm-url http://127.0.0.1:8377/v1 \
        --record /tmp/runs/spread.jsonl

The save is written every game hour (``--save-every`` minutes) (with SAVE.positions.jsonl beside it), so a run cut short
still leaves a report to read: ``town report /tmp/runs/spread.save``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.cli import _add_llm_flags  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("town")
    ap.add_argument("--until", required=True)
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--whisper", action="append", default=[], help="NAME=TEXT (repeatable)")
    ap.add_argument("--track", default=None, help='"name=keyword, keyword; ..."')
    ap.add_argument("--save", required=True)
    ap.add_argument("--every", type=int, default=6, help="ticks between position samples")
    ap.add_argument("--save-every", type=int, default=60, help="game minutes between saves (default 60)")
    ap.add_argument("--start", default=None, help='start a new town at this time of day 1, e.g. "07:30"')
    _add_llm_flags(ap)
    args = ap.parse_args()
    from game.llm.config import LLMConfig

    config = LLMConfig.from_args(args)
    return asyncio.run(run(args, config))


async def run(args, config) -> int:
    from rich.console import Console

    from game.engine.headless import open_engine
    from game.llm.session import open_llm
    from game.measure.report import build_report, render
    from game.measure.relations import PositionLog
    from game.measure.run import measured_run, save_with_positions
    from game.world.clock import parse_until

    whispers = []
    for w in args.whisper:
        name, _, text = w.partition("=")
        whispers.append((name.strip(), text.strip()))
    async with open_llm(config, progress=lambda m: print(m, file=sys.stderr)) as llm:
        if args.start:
            from datetime import datetime

            from game.engine.engine import Engine
            from game.world import load_town

            day1 = load_town(args.town).start
            hh, mm = (int(x) for x in args.start.split(":"))
            engine = Engine.new(args.town, llm, small=args.small, lockstep=True,
                                start=datetime(day1.year, day1.month, day1.day, hh, mm))
        else:
            engine = open_engine(llm, args.town, small=args.small)
        until = parse_until(args.until, engine.clock.start)
        every = timedelta(minutes=max(1, args.save_every))
        state = {"next": engine.clock.now + every, "t0": time.monotonic()}
        holder = {}

        def on_tick(e, res):
            for line in res.log:
                if line.kind in ("conversation", "whisper", "error", "reflection"):
                    print(f"  {e.clock.text()} [{line.kind}] {line.text}", file=sys.stderr, flush=True)
            if e.clock.now >= state["next"]:
                state["next"] += every
                r = holder.get("partial")
                e.save(args.save)
                if r is not None:
                    r.write(args.save + ".positions.jsonl")
                acc = getattr(llm, "accounting", None)
                print(f"{e.clock.text()}  calls {acc.total.calls if acc else '?'}  "
                      f"real {time.monotonic() - state['t0']:.0f}s  (saved)", file=sys.stderr, flush=True)

        holder["partial"] = log = PositionLog(every=args.every)
        result = await measured_run(engine, until, whispers=whispers, on_tick=on_tick, log=log)
        save_with_positions(result, args.save)
        if config.record:
            from game.engine.manifest import write_engine_manifest

            write_engine_manifest(config.record, engine, start=args.town, small=args.small,
                                  start_time=engine.clock.start if args.start else None)
        await engine.aclose()
        print(f"ran {result.ticks} ticks in {result.real_s:.0f} s ({result.waited_s:.0f} s waiting on the model); "
              f"errors {len(result.errors)}", file=sys.stderr)
    render(build_report(args.save, track_spec=args.track), Console())
    return 0


if __name__ == "__main__":
    sys.exit(main())
