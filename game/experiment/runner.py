"""Running a scenario: build the town, seed it, run it headless, interview everyone, measure.

``prepare`` checks the scenario against its town before any model is opened (an imported
Smallville is imported into the output folder first).  ``run_experiment`` then does the rest with
a model layer the caller opened (a live client, a recording one or a replay), so a rerun from the
recording makes the same town, the same answers and the same table.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TextIO

from game.engine.actionlog import ActionLog, actions_log_path
from game.engine.ledger import lead_since
from game.experiment.scenario import (Scenario, ScenarioError, cast_names, check_against, place_tiles,
                                      resolve_time)
from game.experiment.score import INVENTED, KNOWS, NO_ANSWER, UNSCORED, Verdict, expected_info, score_answer

NOT_CHAT = frozenset({"embed", "interview"})  # not counted as the town's own chat calls
INTERVIEW_LANES = 4


@dataclass
class Prepared:
    scenario: Scenario
    town_path: Path  # a town folder/.tmx, or a save
    is_save: bool
    town: Any  # the loaded world (for names and places)
    cast: list[str]
    day1: datetime
    start: datetime | None  # a new town's first moment (None: the town's own, or the save's)


def prepare(scenario: Scenario, out_dir: Path) -> Prepared:
    """Resolve and load the town, check the scenario against it.  Raises ``ScenarioError``."""
    from game.engine.save import SaveError, is_save
    from game.engine.build import TownError, load_world

    where = scenario.path or "<scenario>"
    src = scenario.town_path()
    if scenario.town.ville:
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
        src = dest
    if not src.exists():
        key = "town.save" if scenario.town.save else "town.map"
        raise ScenarioError(f"{where}: {key}: '{src}' does not exist")
    saved = bool(scenario.town.save)
    if saved:
        if not is_save(src):
            raise ScenarioError(f"{where}: town.save: '{src}' is not a save")
        try:
            from game.measure.records import read_save

            data = read_save(src)
            town = load_world(data.meta["town_path"])
        except (SaveError, TownError, KeyError) as e:
            raise ScenarioError(f"{where}: town.save: {e}") from None
        cast = list(data.residents)
        day1 = data.start or town.start
        start = None
        first = data.now or day1
    else:
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
        first = start or town.start
    check_against(scenario, town, cast)
    until = resolve_time(scenario.run.until, day1)
    if until <= first:
        raise ScenarioError(f"{where}: run.until: {scenario.run.until} is not after the start "
                            f"({first:%Y-%m-%d %H:%M})")
    for n, s in enumerate(scenario.seed):
        if s.at and resolve_time(s.at, day1) < first:
            raise ScenarioError(f"{where}: seed[{n}].at: {s.at} is before the start ({first:%Y-%m-%d %H:%M})")
    return Prepared(scenario, src, saved, town, cast, day1, start)


def open_engine(p: Prepared, llm: Any) -> Any:
    """The engine of the scenario's town, in lockstep, with only the scenario's cast."""
    from game.engine.build import load_engine, new_engine

    if p.is_save:
        return load_engine(p.town_path, llm, lockstep=True)
    small = p.scenario.town.cast == "small"
    engine = new_engine(p.town_path, llm, small=small, seed=p.scenario.town.seed, lockstep=True, start=p.start)
    if isinstance(p.scenario.town.cast, list):
        _keep_only(engine, set(p.cast))
    return engine


def _keep_only(engine: Any, keep: set[str]) -> None:
    """A named cast: the engine builds the whole town (or its small cast), the others leave before
    the first tick.  No decision has been asked for yet, so nothing else refers to them."""
    for name in [n for n in engine.residents if n not in keep]:
        for table in (engine.residents, engine.minds, engine.spatial, getattr(engine, "specs", {})):
            table.pop(name, None)
    engine.small = False


# ------------------------------------------------------------------------------ progress


class ProgressBar:
    """A progress bar with an ETA on stderr, plain text: redrawn in place on a terminal, one line
    every 5% otherwise (a log file stays readable)."""

    def __init__(self, start: datetime, end: datetime, out: TextIO | None, width: int = 30) -> None:
        self.start, self.end, self.out, self.width = start, end, out, width
        self.t0 = time.monotonic()
        self.tty = bool(out is not None and hasattr(out, "isatty") and out.isatty())
        self._last_pct = -5
        self._last_draw = 0.0

    def update(self, now: datetime, clock_text: str, note: str = "") -> None:
        if self.out is None:
            return
        total = max((self.end - self.start).total_seconds(), 1e-9)
        frac = min(1.0, max(0.0, (now - self.start).total_seconds() / total))
        pct = int(frac * 100)
        t = time.monotonic()
        if self.tty and t - self._last_draw < 0.2 and frac < 1.0:
            return
        if not self.tty and pct < self._last_pct + 5 and frac < 1.0:
            return
        self._last_pct, self._last_draw = pct, t
        spent = t - self.t0
        eta = f"ETA {_dur(spent * (1 - frac) / frac)}" if frac > 0.001 else "ETA ?"
        n = int(round(self.width * frac))
        line = (f"[{'#' * n}{'.' * (self.width - n)}] {pct:3d}%  {clock_text}  "
                f"{_dur(spent)} spent, {eta}" + (f"  {note}" if note else ""))
        if self.tty:
            print("\r" + line + "\x1b[K", end="", file=self.out, flush=True)
        else:
            print(line, file=self.out, flush=True)

    def say(self, text: str) -> None:
        if self.out is None:
            return
        if self.tty:
            print("\r\x1b[K" + text, file=self.out, flush=True)
            self._last_draw = 0.0
        else:
            print(text, file=self.out, flush=True)

    def done(self) -> None:
        if self.out is not None and self.tty:
            print(file=self.out, flush=True)


def _dur(s: float) -> str:
    s = int(max(0, s))
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


# ------------------------------------------------------------------------------ the run


@dataclass
class RunState:
    ticks: int = 0
    real_s: float = 0.0
    waited_s: float = 0.0
    errors: list[str] = field(default_factory=list)
    seeded: list[dict] = field(default_factory=list)
    led: dict[str, int] = field(default_factory=dict)  # action source -> resident samples


def _apply_seed(engine: Any, seed: Any, now: datetime, talks: list[tuple[datetime, str]]) -> str:
    """Put one seed into the town now; returns what was done (raises CommandError if it cannot)."""
    from game.engine.engine import TALK_RANGE, CommandError, chebyshev
    from game.engine.events import EnterAsVisitor, MovePlayer, SayToResident, SetObjectState, Whisper
    from game.measure.interview import match_resident

    if seed.kind == "object":
        address = engine.submit(SetObjectState(seed.text))
        return f"object {address}: {seed.text}"
    name = match_resident(seed.resident, list(engine.residents))
    if seed.kind == "thought":
        engine.submit(Whisper(name, seed.text))
        return f"inner voice to {name}: {seed.text}"
    if seed.kind == "memory":
        engine.minds[name].memory.add("observation", seed.text, now, importance=seed.importance)
        return f"memory of {name}: {seed.text}"
    # a player line: the visitor walks up to the resident (one step per move, as the keys do) and speaks
    if engine.player is None:
        engine.submit(EnterAsVisitor(seed.visitor, "a visitor to the town"))
    target = engine.residents[name].pos
    path = engine.paths.path(engine.player.pos, target)
    for step in path:
        if chebyshev(engine.player.pos, target) <= TALK_RANGE:
            break
        dx, dy = step[0] - engine.player.pos[0], step[1] - engine.player.pos[1]
        if (dx, dy) != (0, 0):
            engine.submit(MovePlayer(dx, dy))
    if chebyshev(engine.player.pos, target) > TALK_RANGE:
        raise CommandError(f"the visitor could not walk up to {name}")
    engine.submit(SayToResident(name, seed.text))
    talks.append((now + timedelta(minutes=seed.talk_minutes), name))
    return f"{engine.player.name} to {name}: {seed.text}"


def _end_talks(engine: Any, now: datetime, talks: list[tuple[datetime, str]]) -> None:
    from game.engine.engine import CommandError
    from game.engine.events import EndConversation

    for item in [t for t in talks if t[0] <= now]:
        talks.remove(item)
        try:
            engine.submit(EndConversation(item[1]))
        except CommandError:
            pass  # the talk ended by itself


async def run_town(p: Prepared, engine: Any, out_dir: Path, bar: ProgressBar | None) -> tuple[RunState, Any]:
    """Seed and run the town to ``run.until``; saves it (with its position log) as it goes."""
    from game.measure.relations import PositionLog

    sc = p.scenario
    until = resolve_time(sc.run.until, p.day1)
    engine.lockstep = sc.run.pace != "play"
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
        actions.sample(engine)
        before = len(log.samples)
        log.sample(engine, force=force)
        if len(log.samples) > before:
            for r in engine.residents.values():
                src = getattr(getattr(r, "action", None), "source", None)
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


async def _steps(engine: Any, p: Prepared, st: RunState, log: Any, seeds: list, talks: list,
                 until: datetime, save_path: Path, bar: ProgressBar | None, sample: Any) -> None:
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
            bar.update(engine.clock.now, engine.clock.text(), f"thinking {len(engine.jobs)}")
        if play:
            await asyncio.sleep(max(0.0, interval - (time.monotonic() - tick0)))


# ------------------------------------------------------------------------------ measuring


def model_use(llm: Any, resident_days: float) -> dict:
    """The town's own chat calls and tokens per resident-day (embeddings and interviews apart)."""
    acc = getattr(llm, "accounting", None)
    if acc is None or not hasattr(acc, "by_purpose"):
        return {"available": False, "why": "the model layer keeps no accounting (a replay)"}
    from game.llm.api import Usage

    total, by = Usage(), {}
    for purpose, u in sorted(acc.by_purpose().items()):
        by[purpose] = {"calls": u.calls, "tokens": u.prompt_tokens + u.completion_tokens,
                       "latency_s": round(u.latency_s, 2)}
        if purpose not in NOT_CHAT:
            total.add(u)
    rd = max(resident_days, 1e-9)
    return {"available": True, "resident_days": round(resident_days, 4),
            "chat_calls": total.calls, "tokens": total.prompt_tokens + total.completion_tokens,
            "calls_per_resident_day": round(total.calls / rd, 1),
            "tokens_per_resident_day": round((total.prompt_tokens + total.completion_tokens) / rd),
            "failures": total.failures, "by_purpose": by}


async def interview_all(engine: Any, llm: Any, p: Prepared, bar: ProgressBar | None) -> list[tuple[str, str, str | None]]:
    """(resident, question, answer or None when the model failed) for every resident and question, a
    few residents at a time."""
    from game.llm.api import LLMError
    from game.measure.interview import interview

    questions = [q.ask for q in p.scenario.question]
    names = sorted(engine.residents)
    lanes = asyncio.Semaphore(INTERVIEW_LANES)
    done = [0]
    total = len(names) * len(questions)

    async def one(name: str) -> list[tuple[str, str, str | None]]:
        out = []
        async with lanes:
            for q in questions:
                try:
                    ans: str | None = await interview(engine, q, llm, name=name)
                except LLMError as e:  # counted apart: a failed call is neither knowing nor not
                    ans = None
                    if bar:
                        bar.say(f"  ! {name} gave no answer to {q!r}: {e}")
                out.append((name, q, ans))
                done[0] += 1
                if bar and bar.out is not None:
                    bar.say(f"  interviewed {done[0]} of {total}: {name}")
        return out

    results = await asyncio.gather(*(one(n) for n in names))
    return [x for r in results for x in r]


def measure(p: Prepared, engine: Any, st: RunState, log: Any, answers: list[tuple[str, str, str | None]],
            usage: dict, start: datetime) -> dict:
    """Everything the table shows, as plain data (also the ``--json`` output)."""
    from game.measure.records import rows_of_engine
    from game.measure.relations import attendance, graph
    from game.measure.spread import Info, track

    sc = p.scenario
    residents = sorted(engine.residents)
    n = len(residents)
    end = engine.clock.now
    rows = rows_of_engine(engine)
    infos = {i.name: Info(i.name, Info.parse(i.name, i.keywords).keywords, i.needed) for i in sc.info}
    spreads = {k: track(rows, info, residents) for k, info in infos.items()}
    seeded_at = [(datetime.fromisoformat(x["at"]), sc.seed[x["seed"]].text) for x in st.seeded]

    verdicts: list[Verdict] = []
    for name, q_text, ans in answers:
        q = next(q for q in sc.question if q.ask == q_text)
        facts = backing = None
        if q.about:
            facts = expected_info(infos[q.about], q.expect, q.needed)
            backing = next((x for x in spreads[q.about].learned if x.resident == name), None)
        verdicts.append(score_answer(name, q_text, ans, q.about, facts, backing))

    diffusion = []
    for spec in sc.info:
        sp = spreads[spec.name]
        # "at the start": who carried it once its own seeds were in (the paper: 1 of 25, 4%)
        when = max([t for t, text in seeded_at if infos[spec.name].matches(text)], default=start)
        at_start = [x.resident for x in sp.learned if x.at <= when]
        asked = [v for v in verdicts if v.about == spec.name]
        said = sorted({v.resident for v in asked if v.verdict == KNOWS})
        diffusion.append({
            "info": spec.name, "keywords": list(infos[spec.name].keywords), "paper": spec.paper,
            "residents": n, "start": len(at_start), "start_share": _share(len(at_start), n),
            "by_memory": len(sp.learned), "by_memory_share": _share(len(sp.learned), n),
            "by_interview": len(said) if asked else None,
            "by_interview_share": _share(len(said), n) if asked else None,
            "knew": [x.to_dict() for x in sp.learned], "said_they_knew": said,
        })

    rel = {name: dict(getattr(engine.minds[name].persona, "relationships", {}) or {}) for name in residents}
    g0 = graph(rows, residents, until=start, relationships=rel, start=start)
    g1 = graph(rows, residents, relationships=rel, start=start)

    att = None
    if sc.attendance is not None:
        a = sc.attendance
        address, tiles = place_tiles(engine.town, a.place, "attendance.place")
        lo, hi = resolve_time(a.start, p.day1), resolve_time(a.end, p.day1)
        there = attendance(log.samples, tiles, lo, hi)
        if a.invited:
            invited = sorted(x.resident for x in spreads[a.invited].learned if x.at <= lo)
        else:
            invited = list(residents)
        came = sorted(r for r in there if r in set(residents))
        att = {"place": address, "from": lo.isoformat(), "to": hi.isoformat(), "invited_by": a.invited,
               "invited": invited, "came": came, "invited_came": sorted(set(invited) & set(came)),
               "uninvited_came": sorted(set(came) - set(invited)), "seen": there,
               "observed": bool(log.samples and log.samples[0][0] <= hi and log.samples[-1][0] >= lo)}

    scored = [v for v in verdicts if v.verdict not in (UNSCORED, NO_ANSWER)]
    invented = [v for v in scored if v.verdict == INVENTED]
    total_samples = sum(st.led.values())
    return {
        "scenario": sc.name, "scenario_file": sc.path, "town": getattr(engine.town, "name", ""),
        "residents": residents, "start": start.isoformat(), "end": end.isoformat(),
        "game_days": round((end - start).total_seconds() / 86400, 4), "pace": sc.run.pace,
        "ticks": st.ticks, "real_s": round(st.real_s, 1), "waited_s": round(st.waited_s, 1),
        "errors": st.errors, "seeded": st.seeded,
        "diffusion": diffusion,
        "density": {"start": round(g0.density(), 4), "end": round(g1.density(), 4),
                    "edges_start": len(g0.edges()), "edges_end": len(g1.edges())},
        "attendance": att,
        "answers": [v.to_dict() for v in verdicts],
        "hallucination": {"invented": len(invented), "scored": len(scored), "answers": len(verdicts),
                          "no_answer": sum(v.verdict == NO_ANSWER for v in verdicts),
                          "share": _share(len(invented), len(scored))},
        "model_use": usage,
        # the engine's own ledger (game/engine/ledger.py): waking minutes by where the action came
        # from, talks included, and the decision lag; the samples' counts stay as a cross-check
        "model_led": dict(engine.ledger.summary(since=lead_since(start, 1)),
                          samples=total_samples, by_source=dict(sorted(st.led.items())),
                          share=engine.ledger.summary(since=lead_since(start, 1))["model_led_share"]),
    }


def _share(k: int, n: int) -> float | None:
    return round(k / n, 4) if n else None


# ------------------------------------------------------------------------------ the whole experiment


def usage_path(recording: str | Path) -> Path:
    """Beside a recording: the model use of the run that made it (a replay has no model to count)."""
    return Path(str(recording) + ".usage.json")


async def run_experiment(p: Prepared, llm: Any, out_dir: Path, *, progress: TextIO | None = sys.stderr,
                         record: str | None = None, replay: str | None = None) -> dict:
    """Run, save, interview and measure; writes ``OUT/result.json`` and returns the result."""
    out_dir.mkdir(parents=True, exist_ok=True)
    engine = open_engine(p, llm)
    start = engine.clock.now
    until = resolve_time(p.scenario.run.until, p.day1)
    bar = ProgressBar(start, until, progress)
    if progress is not None:
        print(f"{p.scenario.name}: {getattr(engine.town, 'name', 'the town')}, {len(engine.residents)} "
              f"residents, {engine.clock.text()} to {p.scenario.run.until} ({p.scenario.run.pace}); "
              f"output in {out_dir}", file=progress, flush=True)
    try:
        st, log = await run_town(p, engine, out_dir, bar)
        resident_days = len(engine.residents) * max((engine.clock.now - start).total_seconds(), 0) / 86400
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
    (out_dir / "result.json").write_text(json.dumps(result, indent=1), encoding="utf-8")
    return result


def _write_manifest(p: Prepared, engine: Any, record: str) -> None:
    """The run's manifest for ``town play --watch`` (only when the run is made of commands alone:
    a seeded memory or a named cast is not something a replayed engine can redo)."""
    from game.engine.manifest import write_engine_manifest

    if isinstance(p.scenario.town.cast, list) or any(s.kind == "memory" for s in p.scenario.seed):
        return
    write_engine_manifest(record, engine, start=str(p.town_path), small=p.scenario.town.cast == "small",
                          start_time=p.start)
