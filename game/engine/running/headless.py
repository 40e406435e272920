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

from game.engine.build import TownInput, build_engine, opening, read_input
from game.engine.decisions.ledger import share
from game.engine.engine import Engine
from game.engine.events import FirstPlans, PrepStep, TickResult
from game.engine.running.actionlog import ActionLog, actions_log_path
from game.engine.running.pace import TICK_DELAY, Governor, policy_from_env, run_paced
from game.engine.running.report import accounting_dict, format_report, make_report, spare_summary
from game.engine.saves import SaveError
from game.errors import GameError
from game.llm.accounting import accounting_of, run_failed
from game.llm.api import LLM, LLMError
from game.llm.config import LLMConfig
from game.outpaths import writable_file
from game.text import dumps, echo, one_line

NOTABLE = ("conversation", "reflection", "react", "whisper", "object")  # log lines worth printing

# ``--pace``: real seconds between ticks.  "normal" and "fast" are the game's own clock rates
# (``game.engine.running.pace.TICK_DELAY``, which the screen uses too): the engine runs in real time,
# decisions arrive when they arrive, and the pace policy decides what gives when the model falls
# behind (the clock slows, or residents live on their routine meanwhile), as in play, so play
# conditions can be measured without a terminal.  "lockstep" (None) waits for every due decision:
# the same town whatever the model's speed.
PACES: dict[str, float | None] = {"lockstep": None, **TICK_DELAY}


def _err(msg: str) -> None:
    echo(f"town run: {msg}", file=sys.stderr)


def read_run_input(town_or_save: str | TownInput, until: str, *,
                   small: bool = False, start: str | None = None) -> tuple[TownInput, datetime]:
    """The town or save and the moment to stop at, read and checked with no model: ``--until``'s
    words first (no file is read for a time that is not one), then the town or save, then that
    the time is after the town's.  Raises ``GameError`` (town, save) or ``ValueError`` (time)."""
    from game.world.clock import parse_until

    parse_until(until)  # a time that is not one is said before any file is read
    inp = town_or_save if isinstance(town_or_save, TownInput) else read_input(town_or_save, small=small)
    inp = opening(inp, start)  # --start: a new town's first moment ("dawn", "HH:MM")
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
        inp, _ = read_run_input(args.town, args.until, small=bool(getattr(args, "small", False)),
                                start=args.start)
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
        async with open_llm(config, progress=lambda m: echo(m, file=sys.stderr), server_news=_err) as llm:
            return await run_headless(llm, town if town is not None else args.town, until=args.until,
                                      save=args.save, small=bool(getattr(args, "small", False)),
                                      as_json=bool(getattr(args, "json", False)), record=config.record,
                                      pace=getattr(args, "pace", None) or "lockstep", pace_policy=policy)
    except LLMError as e:
        _err(str(e))
        return 1


class HeadlessRun:
    """One ``town run``, the runner of the paced loop (``game.engine.running.pace.run_paced``): in lockstep
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
        self.slowed_by: dict[str, dict[str, float]] = {}  # game hour -> who held the clock and how -> seconds
        self.errors = 0
        self.last_error = ""
        self.next_report = engine.clock.now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1)
        self.actions = ActionLog()  # for the place-fit measure of `town report` (SAVE.actions.jsonl)
        self.actions.sample(engine.core)
        self.prepared: FirstPlans | None = None
        self.first_minute: dict[str, object] | None = None  # the clock's first 60 real seconds (real time)
        self._at_start = _waking(engine)
        self._first_slowest = 1.0
        self.away: str | None = None  # why the model is away (it could not come back): the run stops
        self._looked = 0.0

    async def prepare(self) -> None:
        """In real time, the first day plans before the clock starts (game/engine/decisions/prepare.py), each
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
        return self.engine.clock.now < self.stop and not self.model_away()

    def model_away(self) -> str | None:
        """Why the model is away (its server could not be brought back, game/llm/supervisor.py),
        looked at every 0.1 s at most; None while it is there or being brought back."""
        now = time.monotonic()
        if self.away is None and now - self._looked >= 0.1:
            self._looked = now
            st = self.llm.status()
            if st.server == "away":
                self.away = st.server_note or "its server could not be brought back"
        return self.away

    def rate(self) -> float | None:
        return self.tick_delay

    async def tick(self) -> TickResult:
        engine = self.engine
        while engine.blocked:
            w0 = time.monotonic()
            try:
                await asyncio.wait_for(engine.wait_ready(), timeout=30)
            except TimeoutError:  # still thinking: say so (the decisions keep running)
                echo(f"  {engine.clock.text()}  waiting on the model: {len(engine.board.jobs)} decisions "
                     f"in flight, {_total_calls(self.llm)} calls so far, real {time.monotonic() - self.t0:.0f}s",
                     file=self.log, flush=True)
                self.last_print = time.monotonic()
            finally:
                self.waited += time.monotonic() - w0
        res = engine.step()
        self.actions.sample(engine.core, res)
        return res

    async def rest(self, delay: float, left: float) -> None:
        """The game's clock rate, slowed by the pace policy when the model lags."""
        self.slowed += delay - (self.tick_delay or 0.0)
        if self.tick_delay and delay > self.tick_delay:
            hour = self.slowed_by.setdefault(f"{self.engine.clock.now:%H}:00", {})
            who = self.engine.holding() or "nobody"
            hour[who] = hour.get(who, 0.0) + delay - self.tick_delay
        if self.first_minute is None and self.tick_delay:
            self._first_slowest = max(self._first_slowest, delay / self.tick_delay)
        await asyncio.sleep(left)

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
            lead = engine.core.ledger.share_now(engine.clock.day, hours=1, now=engine.clock.now)
            label = self.governor.label()
            echo(f"  {engine.clock.text()}  model calls {_total_calls(self.llm)}  thinking {len(engine.board.jobs)}  "
                 f"model-led {'n/a' if lead is None else f'{lead:.0%}'}{_idle_text(self.llm, engine)}"
                 f"{'  ' + label if label else ''}  "
                 f"real {time.monotonic() - self.t0:.0f}s", file=self.log, flush=True)


async def run_headless(llm: LLM, town_or_save: str | TownInput, *, until: str, save: str | None,
                       small: bool = False, as_json: bool = False, out: TextIO | None = None,
                       record: str | None = None, pace: str = "lockstep", pace_policy: str = "lead") -> int:
    """Run to ``until`` at ``pace`` (``PACES``) with ``pace_policy`` (game/engine/running/pace.py) and
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
    engine.core.lockstep = tick_delay is None
    start_time = engine.clock.now
    baseline = accounting_dict(llm)  # a continued save's earlier usage is not this run's
    log = sys.stderr if as_json else out
    governor = Governor(pace_policy)
    run = HeadlessRun(llm, engine, stop, log, tick_delay, governor)
    echo(f"running {engine.town.name} with {len(engine.core.residents)} residents "
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
    report["slowed_by"] = {h: {w: round(x, 1) for w, x in sorted(by.items(), key=lambda kv: -kv[1])}
                           for h, by in sorted(run.slowed_by.items())}
    report["spare_capacity"] = spare_summary(engine) if tick_delay else None
    report["prepared"] = run.prepared.to_dict() if run.prepared is not None else None
    report["first_minute"] = run.first_minute
    report["model_away"] = run.away
    failed = run_failed(report["accounting"], baseline)
    report["failed"] = failed
    echo(dumps(report, indent=2) if as_json else format_report(report), file=out)
    said = f"; the town was saved to {saved} all the same" if saved else ""
    if run.away:  # stopped at once: a run without a model would only be routines
        _err(f"stopped at {engine.clock.text()}: the model is away ({one_line(run.away, 200)}){said}")
    elif failed:  # the last line on stderr: a script that checks the exit code is not told it worked
        _err(f"the run failed: {failed}"
             + (f"; last error: {one_line(run.last_error, 200)}" if run.last_error else "") + said)
    return 130 if interrupted else 1 if (save and not saved) or failed or run.away else 0


async def _close_run(engine: Engine, actions: ActionLog, inp: TownInput, *, save: str | None,
                     record: str | None, small: bool) -> str | None:
    """The end of a run, interrupted or not: the manifest a replay needs (besides the model's
    answers, game.engine.running.manifest), the save and its action log; the engine closed.  Returns the
    save's path, or None when there was none or it could not be written."""
    if record:
        try:
            from game.engine.running.manifest import write_engine_manifest

            write_engine_manifest(record, engine.core, engine.commands.log, start=inp.path, small=small)
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
    """In real time, the server's idle share of the last minute (game/engine/decisions/capacity.py uses it)."""
    if engine.lockstep:
        return ""
    spare = llm.status().spare
    return "" if spare is None else f"  server idle {spare:.0%}"


def _waking(engine: Engine) -> dict[str, float]:
    """The town's waking minutes so far by where each action came from (the ledger's)."""
    return {str(k): float(v) for k, v in engine.core.ledger.summary()["waking_min_by_source"].items()}


def _total_calls(llm: LLM) -> int:
    acc = accounting_of(llm)
    return acc.total.calls if acc is not None else 0
