"""Running a scenario: build the town, seed it, run it headless, interview everyone, measure.

``prepare`` checks the scenario against its town before any model is opened (an imported
Smallville is imported into the output folder first).  ``run_experiment`` then does the rest with
a model layer the caller opened (a live client, a recording one or a replay), so a rerun from the
recording makes the same town, the same answers and the same table.

What is measured after the run is in measuring.py; the progress bar in progress.py.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, cast

from game.engine.running.actionlog import ActionLog, actions_log_path
from game.experiment.measuring import interview_all, measure, model_use
from game.experiment.progress import ProgressBar
from game.experiment.runstate import CheckedScenario, RunState
from game.experiment.scenario import Scenario, ScenarioError, cast_names, check_against, resolve_time
from game.text import echo

if TYPE_CHECKING:  # pragma: no cover
    from game.engine.engine import Engine
    from game.engine.state import Player
    from game.experiment.scenario import Seed
    from game.llm.api import LLM
    from game.measure.relations import PositionLog
    from game.mind.memory.records import Remembering

__all__ = ["CheckedScenario", "RunState", "open_engine", "prepare", "run_experiment", "run_town", "usage_path"]


def prepare(scenario: Scenario, out_dir: Path) -> CheckedScenario:
    """Resolve and load the town, check the scenario against it.  Raises ``ScenarioError``."""
    where = scenario.path or "<scenario>"
    src = scenario.town_path()
    if scenario.town.ville:
        src = _import_ville(scenario, src, out_dir, where)
    if not src.exists():
        key = "town.save" if scenario.town.save else "town.map"
        raise ScenarioError(f"{where}: {key}: '{src}' does not exist")
    p, first = _from_save(scenario, src, where) if scenario.town.save else _from_map(scenario, src, where)
    check_against(scenario, p.town, p.cast)
    until = resolve_time(scenario.run.until, p.day1)
    if until <= first:
        raise ScenarioError(f"{where}: run.until: {scenario.run.until} is not after the start "
                            f"({first:%Y-%m-%d %H:%M})")
    for n, s in enumerate(scenario.seed):
        if s.at and resolve_time(s.at, p.day1) < first:
            raise ScenarioError(f"{where}: seed[{n}].at: {s.at} is before the start ({first:%Y-%m-%d %H:%M})")
    return p


def _import_ville(scenario: Scenario, src: Path, out_dir: Path, where: str) -> Path:
    """The original Smallville at ``src`` imported into ``OUT/town``; returns that folder."""
    from game.world import MapError
    from game.world.ville import import_ville

    if not src.is_dir():
        raise ScenarioError(f"{where}: town.ville: '{src}' is not a folder (a checkout of the original "
                            f"Generative Agents repository, or ../shared/the_ville)")
    dest = (out_dir / "town").resolve()
    try:
        import_ville(src, dest, scenario.town.ville_base)
    except MapError as e:
        raise ScenarioError(f"{where}: town.ville: {e}") from None
    except OSError as e:
        raise ScenarioError(f"{where}: town.ville: cannot import into '{dest}': {e.strerror or e}") from None
    return dest


def _from_save(scenario: Scenario, src: Path, where: str) -> tuple[CheckedScenario, datetime]:
    """A save, read whole and checked against its town before any model; and its first moment."""
    from game.engine.build import TownError
    from game.engine.build import read_save as read_checked
    from game.engine.saves import SaveError, is_save
    from game.measure.records import read_save

    if not is_save(src):
        raise ScenarioError(f"{where}: town.save: '{src}' is not a save")
    try:
        checked = read_checked(src)  # the whole save, checked against its town, before any model
        data = read_save(src)
        town = checked.town
    except (SaveError, TownError, KeyError) as e:
        raise ScenarioError(f"{where}: town.save: {e}") from None
    day1 = data.start or town.start
    return CheckedScenario(scenario, src, True, town, list(data.residents), day1, None, checked), data.now or day1


def _from_map(scenario: Scenario, src: Path, where: str) -> tuple[CheckedScenario, datetime]:
    """A new town from its map, with the scenario's cast and start; and its first moment."""
    from game.engine.build import TownError, load_world

    try:
        town = load_world(src)
    except TownError as e:
        raise ScenarioError(f"{where}: town.map: {e}") from None
    cast = cast_names(scenario, town)
    day1 = town.start
    start = None
    if scenario.town.start:
        hh, mm = (int(x) for x in scenario.town.start.split(":"))
        start = datetime(day1.year, day1.month, day1.day, hh, mm)
    return CheckedScenario(scenario, src, False, town, cast, day1, start), start or town.start


def open_engine(p: CheckedScenario, llm: LLM) -> Engine:
    """The engine of the scenario's town, in lockstep, with only the scenario's cast."""
    from game.engine.build import build_engine, load_engine, new_engine

    if p.is_save:
        if p.input is not None:
            inp, p.input = p.input, None  # its memories are handed to the engine: read again next time
            return build_engine(inp, llm, lockstep=True)
        return load_engine(p.town_path, llm, lockstep=True)
    small = p.scenario.town.cast == "small"
    engine = new_engine(p.town_path, llm, small=small, seed=p.scenario.town.seed, lockstep=True, start=p.start)
    if isinstance(p.scenario.town.cast, list):
        _keep_only(engine, set(p.cast))
    if p.scenario.run.ahead_min:
        engine.lookahead.ahead = timedelta(minutes=p.scenario.run.ahead_min)
    return engine


def _keep_only(engine: Engine, keep: set[str]) -> None:
    """A named cast: the engine builds the whole town (or its small cast), the others leave before
    the first tick.  No decision has been asked for yet, so nothing else refers to them."""
    for name in [n for n in engine.core.residents if n not in keep]:
        for table in (engine.core.residents, engine.core.minds, engine.core.spatial):
            table.pop(name, None)
    engine.core.small = False


# ------------------------------------------------------------------------------ the run


def _apply_seed(engine: Engine, seed: Seed, now: datetime, talks: list[tuple[datetime, str]]) -> str:
    """Put one seed into the town now; returns what was done (raises CommandError if it cannot)."""
    from game.engine.engine import TALK_RANGE, CommandError, chebyshev
    from game.engine.events import EnterAsVisitor, MovePlayer, SayToResident, SetObjectState, Whisper
    from game.measure.interview import match_resident

    if seed.kind == "object":
        address = engine.submit(SetObjectState(seed.text))
        return f"object {address}: {seed.text}"
    assert seed.resident is not None  # (the scenario's check: every seed but an object's names one)
    name = match_resident(seed.resident, list(engine.core.residents))
    if seed.kind == "thought":
        engine.submit(Whisper(name, seed.text))
        return f"inner voice to {name}: {seed.text}"
    if seed.kind == "memory":
        mind = cast("Remembering", engine.core.minds[name])  # a game.mind.Mind
        mind.memory.add("observation", seed.text, now, importance=seed.importance)
        return f"memory of {name}: {seed.text}"
    # a player line: the visitor walks up to the resident (one step per move, as the keys do) and speaks
    if engine.player is None:
        engine.submit(EnterAsVisitor(seed.visitor, "a visitor to the town"))

    def visitor() -> Player:
        player = engine.player
        assert player is not None  # (entered above)
        return player

    target = engine.core.residents[name].pos
    path = engine.paths.path(visitor().pos, target)
    for step in path:
        if chebyshev(visitor().pos, target) <= TALK_RANGE:
            break
        dx, dy = step[0] - visitor().pos[0], step[1] - visitor().pos[1]
        if (dx, dy) != (0, 0):
            engine.submit(MovePlayer(dx, dy))
    if chebyshev(visitor().pos, target) > TALK_RANGE:
        raise CommandError(f"the visitor could not walk up to {name}")
    engine.submit(SayToResident(name, seed.text))
    talks.append((now + timedelta(minutes=seed.talk_minutes), name))
    return f"{visitor().name} to {name}: {seed.text}"


def _end_talks(engine: Engine, now: datetime, talks: list[tuple[datetime, str]]) -> None:
    from game.engine.engine import CommandError
    from game.engine.events import EndConversation

    for item in [t for t in talks if t[0] <= now]:
        talks.remove(item)
        try:
            engine.submit(EndConversation(item[1]))
        except CommandError:
            pass  # the talk ended by itself


async def run_town(p: CheckedScenario, engine: Engine, out_dir: Path,
                   bar: ProgressBar | None) -> tuple[RunState, PositionLog]:
    """Seed and run the town to ``run.until``; saves it (with its position log) as it goes."""
    from game.measure.relations import PositionLog

    sc = p.scenario
    until = resolve_time(sc.run.until, p.day1)
    engine.core.lockstep = sc.run.pace != "play"
    start = engine.clock.now
    seeds = sorted(((resolve_time(s.at, p.day1) if s.at else start, n, s) for n, s in enumerate(sc.seed)),
                   key=lambda x: (x[0], x[1]))
    log = PositionLog(every=sc.run.sample_every)
    st = RunState()
    talks: list[tuple[datetime, str]] = []
    save_path = out_dir / "town.save"
    t0 = time.monotonic()

    actions = ActionLog()  # every action begun, for the place-fit measure of `town report`

    def sample(force: bool = False) -> None:
        actions.sample(engine.core)
        before = len(log.samples)
        log.sample(engine, force=force)
        if len(log.samples) > before:
            for r in engine.core.residents.values():
                src = r.action.source if r.action is not None else None
                if src:
                    st.led[src] = st.led.get(src, 0) + 1

    sample(force=True)
    try:
        await _steps(engine, p, st, log, seeds, talks, until, save_path, bar, sample)
    finally:  # also when interrupted: the town and where everyone was are kept
        sample(force=True)
        st.real_s = time.monotonic() - t0
        engine.save(save_path)
        log.write(str(save_path) + ".positions.jsonl")
        actions.write(actions_log_path(save_path))
        if bar:
            bar.done()
    return st, log


async def _steps(engine: Engine, p: CheckedScenario, st: RunState, log: PositionLog,
                 seeds: list[tuple[datetime, int, Seed]], talks: list[tuple[datetime, str]], until: datetime,
                 save_path: Path, bar: ProgressBar | None, sample: Callable[[], None]) -> None:
    from game.engine.engine import CommandError

    sc = p.scenario
    play = sc.run.pace == "play"
    save_every = timedelta(minutes=sc.run.save_every)
    next_save = engine.clock.now + save_every
    interval = 1.0 / sc.run.ticks_per_second
    while engine.clock.now < until:
        now = engine.clock.now
        while seeds and seeds[0][0] <= now:
            _, n, s = seeds.pop(0)
            try:
                what = _apply_seed(engine, s, now, talks)
                st.seeded.append({"seed": n, "at": now.isoformat(), "what": what})
                if bar:
                    bar.say(f"  {engine.clock.text()}  seeded {what}")
            except CommandError as e:
                st.errors.append(f"seed[{n}] at {engine.clock.text()}: {e}")
                if bar:
                    bar.say(f"  ! seed[{n}]: {e}")
        _end_talks(engine, now, talks)
        tick0 = time.monotonic()
        if not play and engine.blocked:
            w = time.monotonic()
            await engine.wait_ready()
            st.waited_s += time.monotonic() - w
        res = engine.step()
        st.ticks += 1
        for line in res.log:
            if line.kind == "error":
                st.errors.append(f"{res.clock}: {line.text}")
        sample()
        if engine.clock.now >= next_save:
            next_save += save_every
            engine.save(save_path)
            log.write(str(save_path) + ".positions.jsonl")
        if bar:
            bar.update(engine.clock.now, engine.clock.text(), f"thinking {len(engine.board.jobs)}")
        if play:
            await asyncio.sleep(max(0.0, interval - (time.monotonic() - tick0)))


# ------------------------------------------------------------------------------ the whole experiment


def usage_path(recording: str | Path) -> Path:
    """Beside a recording: the model use of the run that made it (a replay has no model to count)."""
    return Path(str(recording) + ".usage.json")


async def run_experiment(p: CheckedScenario, llm: LLM, out_dir: Path, *, progress: TextIO | None = sys.stderr,
                         record: str | None = None, replay: str | None = None) -> dict:
    """Run, save, interview and measure; writes ``OUT/result.json`` and returns the result."""
    from game.llm.accounting import accounting_of, run_failed

    out_dir.mkdir(parents=True, exist_ok=True)
    engine = open_engine(p, llm)
    start = engine.clock.now
    acc = accounting_of(llm) if not replay else None  # a replay asks no model
    baseline = acc.to_dict() if acc is not None else None  # a save's earlier use
    until = resolve_time(p.scenario.run.until, p.day1)
    bar = ProgressBar(start, until, progress)
    if progress is not None:
        echo(f"{p.scenario.name}: {engine.town.name}, {len(engine.core.residents)} "
             f"residents, {engine.clock.text()} to {p.scenario.run.until} ({p.scenario.run.pace}); "
             f"output in {out_dir}", file=progress, flush=True)
    try:
        st, log = await run_town(p, engine, out_dir, bar)
        resident_days = len(engine.core.residents) * max((engine.clock.now - start).total_seconds(), 0) / 86400
        usage = model_use(llm, resident_days)
        if replay:
            try:
                usage = json.loads(usage_path(replay).read_text(encoding="utf-8"))
                usage["from_recording"] = True
            except (OSError, ValueError):
                usage = {"available": False, "why": "a replay: the recorded run's model use was not kept "
                                                    f"beside the recording ({usage_path(replay).name})"}
        elif record:
            usage_path(record).write_text(json.dumps(usage, indent=1), encoding="utf-8")
            _write_manifest(p, engine, record)
        answers = await interview_all(engine, llm, p, bar)
    finally:
        await engine.aclose()
    result = measure(p, engine, st, log, answers, usage, start)
    result["out"] = str(out_dir)
    result["save"] = str(out_dir / "town.save")
    result["recording"] = record or replay
    # more than FAILED_CALLS_SHARE of the run's chat calls (interviews included) failed: a failed run
    result["failed"] = run_failed(acc.to_dict(), baseline) if acc is not None and baseline is not None else None
    (out_dir / "result.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    return result


def _write_manifest(p: CheckedScenario, engine: Engine, record: str) -> None:
    """The run's manifest for ``town play --watch`` (only when the run is made of commands alone:
    a seeded memory or a named cast is not something a replayed engine can redo)."""
    from game.engine.running.manifest import write_engine_manifest

    if isinstance(p.scenario.town.cast, list) or any(s.kind == "memory" for s in p.scenario.seed):
        return
    write_engine_manifest(record, engine.core, engine.commands.log, start=str(p.town_path),
                          small=p.scenario.town.cast == "small", start_time=p.start)
