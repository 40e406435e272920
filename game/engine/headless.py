"""``town run TOWN_OR_SAVE --until "day 2 00:00" --save FILE``: the engine without a screen.

It runs the same engine in lockstep "as fast as decisions allow": it steps until the clock has to
wait for a decision whose answer has not come, then awaits it (the other residents' decisions go
to the model server together meanwhile).  At the end it prints calls, tokens and latency per
resident-day by purpose, from the model layer's accounting, and writes the save.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from dataclasses import asdict
from datetime import datetime, timedelta
from typing import Any

from game.llm.api import LLMError, Usage


NOTABLE = ("conversation", "reflection", "react", "whisper", "object")  # log lines worth printing


def _err(msg: str) -> None:
    print(f"town run: {msg}", file=sys.stderr)


def cli_run(args: Any) -> int:
    from game.llm.config import LLMConfig

    try:
        config = LLMConfig.from_args(args)
    except ValueError as e:
        _err(str(e))
        return 2
    return asyncio.run(_main(args, config))


async def _main(args: Any, config: Any) -> int:
    from game.llm.session import open_llm

    import signal

    task = asyncio.current_task()
    try:  # SIGTERM stops the run like Ctrl-C: the town is saved and the report printed
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    except (NotImplementedError, RuntimeError, AttributeError):
        pass
    try:
        async with open_llm(config, progress=lambda m: print(m, file=sys.stderr)) as llm:
            return await run_headless(llm, args.town, until=args.until, save=args.save,
                                      small=bool(getattr(args, "small", False)),
                                      as_json=bool(getattr(args, "json", False)), record=config.record)
    except LLMError as e:
        _err(str(e))
        return 1


def open_engine(llm: Any, town_or_save: str, *, small: bool) -> Any:
    from game.engine.engine import Engine
    from game.engine.save import SUFFIX, is_save

    # a damaged .save is still a save: Engine.load says what is wrong with it (not "not a map")
    if is_save(town_or_save) or str(town_or_save).endswith(SUFFIX):
        return Engine.load(town_or_save, llm, lockstep=True)
    return Engine.new(town_or_save, llm, small=small, lockstep=True)


async def run_headless(llm: Any, town_or_save: str, *, until: str, save: str | None, small: bool = False,
                       as_json: bool = False, out: Any = None, record: str | None = None) -> int:
    """Run to ``until`` and report; returns an exit code (messages, never tracebacks, on bad input)."""
    from game.engine.save import SaveError
    from game.engine.wiring import TownError
    from game.world.clock import parse_until

    out = out or sys.stdout
    try:
        engine = open_engine(llm, town_or_save, small=small)
    except (SaveError, TownError) as e:
        _err(str(e))
        return 2
    try:
        stop = parse_until(until, engine.clock.start)
    except ValueError as e:
        _err(str(e))
        return 2
    if stop <= engine.clock.now:
        _err(f"--until {until!r} is not after the town's time ({engine.clock.text()})")
        return 2
    engine.lockstep = True
    start_time = engine.clock.now
    t0 = time.monotonic()
    waited = 0.0
    next_report = engine.clock.now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    errors = 0
    last_print = time.monotonic()
    log = sys.stderr if as_json else out
    print(f"running {getattr(engine.town, 'name', 'the town')} with {len(engine.residents)} residents "
          f"from {engine.clock.text()} to {until}", file=log, flush=True)
    interrupted = False
    from game.engine.actionlog import ActionLog, actions_log_path

    actions = ActionLog()  # for the place-fit measure of `town report` (SAVE.actions.jsonl)
    actions.sample(engine)
    try:
        while engine.clock.now < stop:
            while engine.blocked:
                w0 = time.monotonic()
                try:
                    await asyncio.wait_for(engine.wait_ready(), timeout=30)
                except asyncio.TimeoutError:  # still thinking: say so (the decisions keep running)
                    print(f"  {engine.clock.text()}  waiting on the model: {len(engine.jobs)} decisions "
                          f"in flight, {_total_calls(llm)} calls so far, real {time.monotonic() - t0:.0f}s",
                          file=log, flush=True)
                    last_print = time.monotonic()
                finally:
                    waited += time.monotonic() - w0
            res = engine.step()
            actions.sample(engine, res)
            for line in res.log:
                if line.kind == "error":
                    errors += 1
                    print(f"  ! {line.text}", file=sys.stderr)
                elif line.kind in NOTABLE:
                    print(f"  {res.clock}  {line.text}", file=log)
            if engine.clock.now >= next_report or time.monotonic() - last_print >= 30:
                if engine.clock.now >= next_report:
                    next_report += timedelta(hours=1)
                last_print = time.monotonic()
                calls = _total_calls(llm)
                print(f"  {engine.clock.text()}  model calls {calls}  thinking {len(engine.jobs)}  "
                      f"real {time.monotonic() - t0:.0f}s", file=log, flush=True)
    except asyncio.CancelledError:
        interrupted = True
        print(f"interrupted at {engine.clock.text()}", file=sys.stderr)
    finally:
        if record:  # what a replay needs besides the model's answers (game.engine.manifest)
            try:
                from game.engine.manifest import write_engine_manifest

                write_engine_manifest(record, engine, start=town_or_save, small=small)
            except OSError as e:
                _err(f"could not write the run's manifest beside {record}: {e}")
        if save:
            try:
                engine.save(save)
            except SaveError as e:
                _err(str(e))
                save = None
        if save:
            try:
                actions.write(actions_log_path(save))
            except OSError as e:
                _err(f"could not write the run's action log beside {save}: {e}")
        await engine.aclose()
    elapsed = time.monotonic() - t0
    report = make_report(llm, engine, start_time, elapsed, waited, errors, save)
    if as_json:
        print(json.dumps(report, indent=2), file=out)
    else:
        print(format_report(report), file=out)
    return 130 if interrupted else 0


def _total_calls(llm: Any) -> int:
    acc = getattr(llm, "accounting", None)
    if acc is not None:
        return int(acc.total.calls)
    return int(getattr(llm, "calls", 0))


def _by_purpose(llm: Any) -> dict[str, Usage]:
    acc = getattr(llm, "accounting", None)
    if acc is not None:
        return acc.by_purpose()
    return dict(getattr(llm, "by_purpose", {}) or {})


# Purposes that are counted and shown but are not chat-model calls, so they stay out of the budget
# total: embeddings come from the local encoder (or a separate embedding server) and cost no
# generation.
NOT_MODEL_CALLS = frozenset({"embed"})


def make_report(llm: Any, engine: Any, start: datetime, real_s: float, waited_s: float, errors: int,
                save: str | None) -> dict:
    game_days = max((engine.clock.now - start).total_seconds() / 86400.0, 1e-9)
    n = max(1, len(engine.residents))
    resident_days = n * game_days
    rows = {}
    total = Usage()
    for purpose, u in sorted(_by_purpose(llm).items()):
        rows[purpose] = _per(u, resident_days)
        if purpose not in NOT_MODEL_CALLS:
            total.add(u)
    acc = getattr(llm, "accounting", None)
    return {
        "town": getattr(engine.town, "name", ""), "residents": sorted(engine.residents),
        "clock": engine.clock.text(), "game_days": round(game_days, 4),
        "resident_days": round(resident_days, 4), "real_seconds": round(real_s, 1),
        "seconds_waiting_on_model": round(waited_s, 1), "errors": errors,
        "per_resident_day": {"by_purpose": rows, "total": _per(total, resident_days),
                             "total_excludes": sorted(NOT_MODEL_CALLS)},
        "totals": asdict(total), "save": save,
        "accounting": acc.to_dict() if acc is not None and hasattr(acc, "to_dict") else None,
    }


def _per(u: Usage, resident_days: float) -> dict:
    return {"calls": round(u.calls / resident_days, 2),
            "tokens": round((u.prompt_tokens + u.completion_tokens) / resident_days, 1),
            "prompt_tokens": round(u.prompt_tokens / resident_days, 1),
            "completion_tokens": round(u.completion_tokens / resident_days, 1),
            "latency_s": round(u.latency_s / resident_days, 2),
            "mean_latency_s": round(u.latency_s / u.calls, 3) if u.calls else 0.0,
            "failures": round(u.failures / resident_days, 2)}


def format_report(r: dict) -> str:
    lines = [f"{r['town']}: {len(r['residents'])} residents, now {r['clock']}; "
             f"{r['game_days']} game days ({r['resident_days']} resident-days) in {r['real_seconds']} s "
             f"({r['seconds_waiting_on_model']} s waiting on the model); errors: {r['errors']}",
             "per resident-day, by purpose:",
             f"  {'purpose':<14}{'calls':>8}{'tokens':>10}{'prompt':>10}{'complet.':>10}"
             f"{'latency s':>11}{'s/call':>8}"]
    rows = dict(r["per_resident_day"]["by_purpose"])
    rows["TOTAL (chat)"] = r["per_resident_day"]["total"]
    for purpose, u in rows.items():
        lines.append(f"  {purpose:<14}{u['calls']:>8}{u['tokens']:>10}{u['prompt_tokens']:>10}"
                     f"{u['completion_tokens']:>10}{u['latency_s']:>11}{u['mean_latency_s']:>8}")
    if r.get("save"):
        lines.append(f"saved to {r['save']}")
    return "\n".join(lines)
