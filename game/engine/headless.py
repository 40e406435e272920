"""``town run TOWN_OR_SAVE --until "day 2 00:00" --save FILE``: the engine without a screen.

It runs the same engine in lockstep "as fast as decisions allow": it steps until the clock has to
wait for a decision whose answer has not come, then awaits it (the other residents' decisions go
to the model server together meanwhile).  At the end it prints the call budget (chat calls and
tokens per resident per whole game day, ``game.llm.accounting.budget``) and writes the save.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from datetime import datetime, timedelta
from typing import TextIO

from game.engine.actionlog import ActionLog, actions_log_path
from game.engine.build import TownInput, build_engine, read_input
from game.engine.engine import Engine
from game.engine.events import Prepared, PrepStep, TickResult
from game.engine.ledger import format_lead, lead_since, mind_counts, share
from game.engine.pace import TICK_DELAY, Governor, policy_from_env, run_paced
from game.engine.save import SaveError
from game.errors import GameError
from game.llm.accounting import run_failed
from game.llm.api import LLM, LLMError
from game.llm.config import LLMConfig
from game.outpaths import writable_file
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


def cli_run(args: argparse.Namespace) -> int:
    """Flags, the town or save and ``--until`` are all read and checked (exit 2) before the model
    is opened or the embedded server started."""
    try:
        config = LLMConfig.from_args(args)
        policy = policy_from_env(getattr(args, "pace_policy", None))
        inp, _ = read_run_input(args.town, args.until, small=bool(getattr(args, "small", False)))
        for flag in ("save", "record"):  # where it writes, before any model starts
            if getattr(args, flag, None):
                writable_file(getattr(args, flag), f"--{flag}")
    except (ValueError, GameError) as e:
        _err(str(e))
        return 2
    return asyncio.run(_main(args, config, policy, inp))


async def _main(args: argparse.Namespace, config: LLMConfig, policy: str = "lead",
                town: str | TownInput | None = None) -> int:
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


class HeadlessRun:
    """One ``town run``, the runner of the paced loop (``game.engine.pace.run_paced``): in lockstep
    each tick first waits for the decisions due (saying so every 30 s), and what the town does is
    printed as it happens, with its figures once a game hour (or every 30 real seconds)."""

    def __init__(self, llm: LLM, engine: Engine, stop: datetime, log: TextIO, tick_delay: float | None,
                 governor: Governor) -> None:
        self.llm = llm
        self.engine = engine
        self.stop = stop
        self.log = log
        self.tick_delay = tick_delay
        self.governor = governor
        self.t0 = time.monotonic()
        self.last_print = self.t0
        self.waited = 0.0  # real seconds the clock waited for the model in lockstep
        self.slowed = 0.0  # real seconds the pace policy slowed the clock for the model
        self.errors = 0
        self.last_error = ""
        self.next_report = engine.clock.now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
        self.actions = ActionLog()  # for the place-fit measure of `town report` (SAVE.actions.jsonl)
        self.actions.sample(engine)
        self.prepared: Prepared | None = None
        self.first_minute: dict[str, object] | None = None  # the clock's first 60 real seconds (real time)
        self._at_start = _waking(engine)
        self._first_slowest = 1.0

    async def prepare(self) -> None:
        """In real time, the first day plans before the clock starts (game/engine/prepare.py), each
        said as it comes; the run's real time is counted from the end of it."""
        def said(step: PrepStep) -> None:
            what = f"  {step.name}: {one_line(step.plan, 160) or 'no plan from the model'}" if step.name else ""
            echo(f"  the residents plan their day: {step.done} of {step.total}{what}", file=self.log, flush=True)

        self.prepared = await self.engine.prepare(progress=said)
        self.t0 = self.last_print = time.monotonic()
        self._at_start = _waking(self.engine)

    def _first_minute(self) -> None:
        """What the first minute of the clock looked like: was it slowed, and who led the town."""
        now_by = _waking(self.engine)
        delta = {k: v - self._at_start.get(k, 0.0) for k, v in now_by.items()}
        led = share(delta)
        self.first_minute = {"real_s": round(time.monotonic() - self.t0, 1), "clock": self.engine.clock.text(),
                             "model_led_share": None if led is None else round(led, 3),
                             "waking_min_by_source": {k: round(v, 1) for k, v in sorted(delta.items()) if v},
                             "slowed_s": round(self.slowed, 1), "slowest": round(self._first_slowest, 1)}

    def running(self) -> bool:
        return self.engine.clock.now < self.stop

    def rate(self) -> float | None:
        return self.tick_delay

    async def tick(self) -> TickResult:
        engine = self.engine
        while engine.blocked:
            w0 = time.monotonic()
            try:
                await asyncio.wait_for(engine.wait_ready(), timeout=30)
            except TimeoutError:  # still thinking: say so (the decisions keep running)
                echo(f"  {engine.clock.text()}  waiting on the model: {len(engine.jobs)} decisions "
                     f"in flight, {_total_calls(self.llm)} calls so far, real {time.monotonic() - self.t0:.0f}s",
                     file=self.log, flush=True)
                self.last_print = time.monotonic()
            finally:
                self.waited += time.monotonic() - w0
        res = engine.step()
        self.actions.sample(engine, res)
        return res

    async def rest(self, seconds: float) -> None:
        """The game's clock rate, slowed by the pace policy when the model lags."""
        self.slowed += seconds - (self.tick_delay or 0.0)
        if self.first_minute is None and self.tick_delay:
            self._first_slowest = max(self._first_slowest, seconds / self.tick_delay)
        await asyncio.sleep(seconds)

    def ticked(self, res: TickResult) -> None:
        for line in res.log:
            if line.kind == "error":
                self.errors += 1
                self.last_error = line.text
                echo(f"  ! {one_line(line.text)}", file=sys.stderr)
            elif line.kind in NOTABLE:
                echo(f"  {res.clock}  {one_line(line.text)}", file=self.log)
        engine = self.engine
        if self.first_minute is None and self.tick_delay and time.monotonic() - self.t0 >= 60:
            self._first_minute()
        if engine.clock.now >= self.next_report or time.monotonic() - self.last_print >= 30:
            if engine.clock.now >= self.next_report:
                self.next_report += timedelta(hours=1)
            self.last_print = time.monotonic()
            lead = engine.ledger.share_now(engine.clock.day, hours=1, now=engine.clock.now)
            label = self.governor.label()
            echo(f"  {engine.clock.text()}  model calls {_total_calls(self.llm)}  thinking {len(engine.jobs)}  "
                 f"model-led {'n/a' if lead is None else f'{lead:.0%}'}{_idle_text(self.llm, engine)}"
                 f"{'  ' + label if label else ''}  "
                 f"real {time.monotonic() - self.t0:.0f}s", file=self.log, flush=True)


async def run_headless(llm: LLM, town_or_save: str | TownInput, *, until: str, save: str | None,
                       small: bool = False, as_json: bool = False, out: TextIO | None = None,
                       record: str | None = None, pace: str = "lockstep", pace_policy: str = "lead") -> int:
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
    start_time = engine.clock.now
    baseline = _accounting(llm)  # a continued save's earlier usage is not this run's
    log = sys.stderr if as_json else out
    governor = Governor(pace_policy)
    run = HeadlessRun(llm, engine, stop, log, tick_delay, governor)
    echo(f"running {engine.town.name} with {len(engine.residents)} residents "
         f"from {engine.clock.text()} to {until}, pace {pace}"
         + (f", pace policy {pace_policy}" if tick_delay else ""), file=log, flush=True)
    interrupted = False
    try:
        if tick_delay is not None:
            await run.prepare()
        await run_paced(engine, run, governor)
    except asyncio.CancelledError:
        interrupted = True
        echo(f"interrupted at {engine.clock.text()}", file=sys.stderr)
    finally:
        saved = await _close_run(engine, run.actions, inp, save=save, record=record, small=small)
    report = make_report(llm, engine, start_time, time.monotonic() - run.t0, run.waited, run.errors,
                         saved, baseline=baseline)
    report["pace"] = pace
    report["pace_policy"] = pace_policy if tick_delay else None
    report["seconds_slowed_for_the_model"] = round(run.slowed, 1)
    report["spare_capacity"] = spare_summary(engine) if tick_delay else None
    report["prepared"] = run.prepared.to_dict() if run.prepared is not None else None
    report["first_minute"] = run.first_minute
    failed = run_failed(report["accounting"], baseline)
    report["failed"] = failed
    echo(dumps(report, indent=2) if as_json else format_report(report), file=out)
    if failed:  # the last line on stderr: a script that checks the exit code is not told it worked
        _err(f"the run failed: {failed}"
             + (f"; last error: {one_line(run.last_error, 200)}" if run.last_error else "")
             + (f"; the town was saved to {saved} all the same" if saved else ""))
    return 130 if interrupted else 1 if (save and not saved) or failed else 0


async def _close_run(engine: Engine, actions: ActionLog, inp: TownInput, *, save: str | None,
                     record: str | None, small: bool) -> str | None:
    """The end of a run, interrupted or not: the manifest a replay needs (besides the model's
    answers, game.engine.manifest), the save and its action log; the engine closed.  Returns the
    save's path, or None when there was none or it could not be written."""
    if record:
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
    if save:
        try:
            actions.write(actions_log_path(save))
        except OSError as e:
            _err(f"could not write the run's action log beside {save}: {e}")
    await engine.aclose()
    return save


def _idle_text(llm: LLM, engine: Engine) -> str:
    """In real time, the server's idle share of the last minute (game/engine/capacity.py uses it)."""
    if engine.lockstep:
        return ""
    try:
        spare = llm.status().spare
    except Exception:  # noqa: BLE001 - a figure for the log only
        return ""
    return "" if spare is None else f"  server idle {spare:.0%}"


def _waking(engine: Engine) -> dict[str, float]:
    """The town's waking minutes so far by where each action came from (the ledger's)."""
    return {str(k): float(v) for k, v in engine.ledger.summary()["waking_min_by_source"].items()}


def spare_summary(engine: Engine) -> dict[str, int]:
    """Reactions and talks past the daily caps on the server's spare time (game/engine/capacity.py)."""
    counts = mind_counts(engine.minds.values())
    return {"allowances_given": engine.spare_given,
            "reactions_past_floor": counts.get("react_spare", 0),
            "talks_past_floor": counts.get("talk_spare", 0),
            "crowd_sights": engine.perceiver.quiet_in_crowd,  # seen, not reacted to: the server crowded
            "sights_after_talk": engine.perceiver.quiet_after_talk}  # ... just talked with (no new talk yet)


def _total_calls(llm: LLM) -> int:
    acc = getattr(llm, "accounting", None)
    if acc is not None:
        return int(acc.total.calls)
    return int(getattr(llm, "calls", 0))


def _accounting(llm: LLM) -> dict | None:
    acc = getattr(llm, "accounting", None)
    return acc.to_dict() if acc is not None and hasattr(acc, "to_dict") else None


def make_report(llm: LLM, engine: Engine, start: datetime, real_s: float, waited_s: float, errors: int,
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
    pr, fm = r.get("prepared"), r.get("first_minute")
    if pr:
        lines.append(f"before the clock started: {len(pr['planned'])} of {len(pr['asked'])} residents planned "
                     f"their day in {pr['seconds']} s")
    if fm:
        led = fm["model_led_share"]
        lines.append(f"the clock's first {fm['real_s']} s (to {fm['clock']}): model-led "
                     f"{'n/a' if led is None else f'{led:.0%}'}, slowed {fm['slowed_s']} s (at most x{fm['slowest']})")
    sp = r.get("spare_capacity")
    if sp:
        lines.append(f"spare capacity: {sp['reactions_past_floor']} reactions and {sp['talks_past_floor']} talks "
                     f"past the daily caps while the server was idle ({sp['allowances_given']} allowances given); "
                     f"{sp.get('crowd_sights', 0)} people seen and not reacted to while it was crowded, "
                     f"{sp.get('sights_after_talk', 0)} for having just talked with them")
    if r.get("model_led"):
        lines += format_lead(r["model_led"], r.get("rules_and_fallbacks"))
    if r.get("save"):
        lines.append(f"saved to {r['save']}")
    return "\n".join(lines)
