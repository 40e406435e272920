"""``town run TOWN_OR_SAVE --until "day 2 00:00" --save FILE``: the engine without a screen.

It runs the same engine in lockstep "as fast as decisions allow": it steps until the clock has to
wait for a decision whose answer has not come, then awaits it (the other residents' decisions go
to the model server together meanwhile).  At the end it prints the call budget (chat calls and
tokens per resident per whole game day, ``game.llm.accounting.budget``) and writes the save.
"""

from __future__ import annotations

import asyncio
import sys
import time
from datetime import datetime, timedelta
from typing import Any

from game.engine.actionlog import ActionLog, actions_log_path
from game.engine.build import TownInput, build_engine, read_input
from game.engine.ledger import format_lead, lead_since, mind_counts
from game.engine.pace import TICK_DELAY, Governor, policy_from_env
from game.engine.save import SaveError
from game.errors import GameError
from game.llm.accounting import run_failed
from game.llm.api import LLMError
from game.text import dumps, echo, one_line

NOTABLE = ("conversation", "reflection", "react", "whisper", "object")  # log lines worth printing

# ``--pace``: real seconds between ticks.  "normal" and "fast" are the game's own clock rates
# (``game.engine.pace.TICK_DELAY``, which the screen uses too): the engine runs in real time,
# decisions arrive when they arrive, and the pace policy decides what gives when the model falls
# behind (the clock slows, or residents live on their routine meanwhile), as in play, so play
# conditions can be measured without a terminal.  "lockstep" (None) waits for every due decision:
# the same town whatever the model's speed.
PACES: dict[str, float | None] = {"lockstep": None, **TICK_DELAY}


def _err(msg: str) -> None:
    echo(f"town run: {msg}", file=sys.stderr)


def read_run_input(town_or_save: str | TownInput, until: str, *,
                   small: bool = False) -> tuple[TownInput, datetime]:
    """The town or save and the moment to stop at, read and checked with no model: ``--until``'s
    words first (no file is read for a time that is not one), then the town or save, then that
    the time is after the town's.  Raises ``GameError`` (town, save) or ``ValueError`` (time)."""
    from game.world.clock import parse_until

    parse_until(until)  # a time that is not one is said before any file is read
    inp = town_or_save if isinstance(town_or_save, TownInput) else read_input(town_or_save, small=small)
    stop = parse_until(until, inp.clock.start)
    if stop <= inp.clock.now:
        raise ValueError(f"--until {until!r} is not after the town's time ({inp.clock.text()})")
    return inp, stop


def cli_run(args: Any) -> int:
    """Flags, the town or save and ``--until`` are all read and checked (exit 2) before the model
    is opened or the embedded server started."""
    from game.llm.config import LLMConfig

    try:
        config = LLMConfig.from_args(args)
        policy = policy_from_env(getattr(args, "pace_policy", None))
        inp, _ = read_run_input(args.town, args.until, small=bool(getattr(args, "small", False)))
    except (ValueError, GameError) as e:
        _err(str(e))
        return 2
    return asyncio.run(_main(args, config, policy, inp))


async def _main(args: Any, config: Any, policy: str = "lead", town: str | TownInput | None = None) -> int:
    import signal

    from game.llm.session import open_llm

    task = asyncio.current_task()
    assert task is not None  # (run inside the loop)
    try:  # SIGTERM stops the run like Ctrl-C: the town is saved and the report printed
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    except (NotImplementedError, RuntimeError, AttributeError):
        pass
    try:
        async with open_llm(config, progress=lambda m: echo(m, file=sys.stderr)) as llm:
            return await run_headless(llm, town if town is not None else args.town, until=args.until,
                                      save=args.save, small=bool(getattr(args, "small", False)),
                                      as_json=bool(getattr(args, "json", False)), record=config.record,
                                      pace=getattr(args, "pace", None) or "lockstep", pace_policy=policy)
    except LLMError as e:
        _err(str(e))
        return 1


async def run_headless(llm: Any, town_or_save: str | TownInput, *, until: str, save: str | None,
                       small: bool = False, as_json: bool = False, out: Any = None, record: str | None = None,
                       pace: str = "lockstep", pace_policy: str = "lead") -> int:
    """Run to ``until`` at ``pace`` (``PACES``) with ``pace_policy`` (game/engine/pace.py) and
    report; returns an exit code (messages, never tracebacks): 2 for bad input, 1 when the model
    failed (``run_failed``: more than ``FAILED_CALLS_SHARE`` of its chat calls) or the save could
    not be written, 130 when interrupted, else 0."""
    out = out or sys.stdout
    if pace not in PACES:
        _err(f"--pace {pace!r} is not one of {', '.join(PACES)}")
        return 2
    tick_delay = PACES[pace]
    try:
        inp, stop = read_run_input(town_or_save, until, small=small)
        engine = build_engine(inp, llm, lockstep=True)
    except (GameError, ValueError) as e:
        _err(str(e))
        return 2
    engine.lockstep = tick_delay is None
    governor = Governor(pace_policy)
    slowed = 0.0
    start_time = engine.clock.now
    baseline = _accounting(llm)  # a continued save's earlier usage is not this run's
    t0 = time.monotonic()
    waited = 0.0
    next_report = engine.clock.now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
    errors = 0
    last_error = ""
    last_print = time.monotonic()
    log = sys.stderr if as_json else out
    echo(f"running {getattr(engine.town, 'name', 'the town')} with {len(engine.residents)} residents "
          f"from {engine.clock.text()} to {until}, pace {pace}"
          + (f", pace policy {pace_policy}" if tick_delay else ""), file=log, flush=True)
    interrupted = False
    save_failed = False
    actions = ActionLog()  # for the place-fit measure of `town report` (SAVE.actions.jsonl)
    actions.sample(engine)
    try:
        while engine.clock.now < stop:
            while engine.blocked:
                w0 = time.monotonic()
                try:
                    await asyncio.wait_for(engine.wait_ready(), timeout=30)
                except TimeoutError:  # still thinking: say so (the decisions keep running)
                    echo(f"  {engine.clock.text()}  waiting on the model: {len(engine.jobs)} decisions "
                          f"in flight, {_total_calls(llm)} calls so far, real {time.monotonic() - t0:.0f}s",
                          file=log, flush=True)
                    last_print = time.monotonic()
                finally:
                    waited += time.monotonic() - w0
            res = engine.step()
            actions.sample(engine, res)
            if tick_delay:  # the game's clock rate, slowed by the pace policy when the model lags
                delay = governor.delay(tick_delay, engine.backlog_min(), engine.routine_wait_min())
                slowed += delay - tick_delay
                await asyncio.sleep(delay)
            for line in res.log:
                if line.kind == "error":
                    errors += 1
                    last_error = line.text
                    echo(f"  ! {one_line(line.text)}", file=sys.stderr)
                elif line.kind in NOTABLE:
                    echo(f"  {res.clock}  {one_line(line.text)}", file=log)
            if engine.clock.now >= next_report or time.monotonic() - last_print >= 30:
                if engine.clock.now >= next_report:
                    next_report += timedelta(hours=1)
                last_print = time.monotonic()
                calls = _total_calls(llm)
                lead = engine.ledger.share_now(engine.clock.day, hours=1, now=engine.clock.now)
                echo(f"  {engine.clock.text()}  model calls {calls}  thinking {len(engine.jobs)}  "
                     f"model-led {'n/a' if lead is None else f'{lead:.0%}'}{_idle_text(llm, engine)}"
                     f"{'  ' + governor.label() if governor.label() else ''}  "
                      f"real {time.monotonic() - t0:.0f}s", file=log, flush=True)
    except asyncio.CancelledError:
        interrupted = True
        echo(f"interrupted at {engine.clock.text()}", file=sys.stderr)
    finally:
        if record:  # what a replay needs besides the model's answers (game.engine.manifest)
            try:
                from game.engine.manifest import write_engine_manifest

                write_engine_manifest(record, engine, start=inp.path, small=small)
            except OSError as e:
                _err(f"could not write the run's manifest beside {record}: {e}")
        if save:
            try:
                engine.save(save)
            except SaveError as e:
                _err(str(e))
                save = None
                save_failed = True
        if save:
            try:
                actions.write(actions_log_path(save))
            except OSError as e:
                _err(f"could not write the run's action log beside {save}: {e}")
        await engine.aclose()
    elapsed = time.monotonic() - t0
    report = make_report(llm, engine, start_time, elapsed, waited, errors, save, baseline=baseline)
    report["pace"] = pace
    report["pace_policy"] = pace_policy if tick_delay else None
    report["seconds_slowed_for_the_model"] = round(slowed, 1)
    report["spare_capacity"] = spare_summary(engine) if tick_delay else None
    failed = run_failed(report["accounting"], baseline)
    report["failed"] = failed
    if as_json:
        echo(dumps(report, indent=2), file=out)
    else:
        echo(format_report(report), file=out)
    if failed:  # the last line on stderr: a script that checks the exit code is not told it worked
        _err(f"the run failed: {failed}" + (f"; last error: {one_line(last_error, 200)}" if last_error else "")
             + (f"; the town was saved to {save} all the same" if save else ""))
    return 130 if interrupted else 1 if save_failed or failed else 0


def _idle_text(llm: Any, engine: Any) -> str:
    """In real time, the server's idle share of the last minute (game/engine/capacity.py uses it)."""
    if engine.lockstep:
        return ""
    try:
        spare = getattr(llm.status(), "spare", None)
    except Exception:  # noqa: BLE001 - a figure for the log only
        return ""
    return "" if spare is None else f"  server idle {spare:.0%}"


def spare_summary(engine: Any) -> dict[str, int]:
    """Reactions and talks past the daily caps on the server's spare time (game/engine/capacity.py)."""
    counts = mind_counts(engine.minds.values())
    return {"allowances_given": int(getattr(engine, "spare_given", 0)),
            "reactions_past_floor": counts.get("react_spare", 0),
            "talks_past_floor": counts.get("talk_spare", 0)}


def _total_calls(llm: Any) -> int:
    acc = getattr(llm, "accounting", None)
    if acc is not None:
        return int(acc.total.calls)
    return int(getattr(llm, "calls", 0))


def _accounting(llm: Any) -> dict | None:
    acc = getattr(llm, "accounting", None)
    return acc.to_dict() if acc is not None and hasattr(acc, "to_dict") else None


def make_report(llm: Any, engine: Any, start: datetime, real_s: float, waited_s: float, errors: int,
                save: str | None, baseline: dict | None = None) -> dict:
    """The run's figures; the call budget as ``game.llm.accounting.budget`` defines it (chat calls
    per resident per whole game day, worst resident beside the average, tokens evaluated beside
    tokens sent), the same definition ``town report`` uses."""
    from game.llm.accounting import budget

    acc = _accounting(llm)
    game_days = (engine.clock.now - start).total_seconds() / 86400.0
    start_day = (start.date() - engine.clock.start.date()).days + 1
    b = budget(acc, list(engine.residents), start=start, end=engine.clock.now,
               first_date=engine.clock.start.date(), baseline=baseline)
    return {
        "town": getattr(engine.town, "name", ""), "residents": sorted(engine.residents),
        "clock": engine.clock.text(), "from": start.isoformat(), "game_days": round(game_days, 4),
        "real_seconds": round(real_s, 1),
        "seconds_waiting_on_model": round(waited_s, 1), "errors": errors,
        "budget": b, "save": save, "accounting": acc,
        "model_led": engine.ledger.summary(since=lead_since(start, start_day)),
        "rules_and_fallbacks": mind_counts(engine.minds.values()),
    }


def format_report(r: dict) -> str:
    from game.llm.accounting import format_budget

    lines = [f"{r['town']}: {len(r['residents'])} residents, now {r['clock']}; "
             f"{r['game_days']} game days in {r['real_seconds']} s "
             f"({r['seconds_waiting_on_model']} s waiting on the model, pace {r.get('pace', 'lockstep')}); "
             f"errors: {r['errors']}"]
    lines += format_budget(r["budget"])
    if r.get("pace_policy"):
        lines.append(f"pace policy {r['pace_policy']}: the clock waited "
                     f"{r.get('seconds_slowed_for_the_model', 0)} s for the model")
    sp = r.get("spare_capacity")
    if sp:
        lines.append(f"spare capacity: {sp['reactions_past_floor']} reactions and {sp['talks_past_floor']} talks "
                     f"past the daily caps while the server was idle ({sp['allowances_given']} allowances given)")
    if r.get("model_led"):
        lines += format_lead(r["model_led"], r.get("rules_and_fallbacks"))
    if r.get("save"):
        lines.append(f"saved to {r['save']}")
    return "\n".join(lines)
