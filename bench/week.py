#!/usr/bin/env python3
"""A week in town (issue 41): a town played for days on the stand-in server, saved each night,
with one row of figures a day and whether any of them grows faster than the memories held.

    .venv/bin/python bench/week.py --ville ../shared/the_ville --json week.json   # the paper's 25, 7 days
    .venv/bin/python bench/week.py --residents 25 --days 7     # the default town's 12 repeated to 25
    .venv/bin/python bench/week.py --quick                     # 2 "days" of 2 game hours each: a smoke check

The town plays in real time as ``town play`` does (the game's pace policy, the first day plans
before the clock) against the stand-in model server (game/measure/standin.py, its own process;
game/measure/swarm.py builds the town and starts it).  ``--speedup`` divides the tick's 0.5 real
seconds and every stand-in latency by the same factor, so the town lives as at the normal rate,
only faster (a game day is 72 real minutes at 1, 7.2 at 10).

Each night (03:00, the first at least 8 game hours after the start: a town that starts at
midnight, as the imported Smallville does, lives 27 hours before it; with ``--day-hours`` every
that many game hours instead) the clock stops while the town is saved to its own save file as
the game saves (whole the first night, only what changed after that: docs/SAVES.md) and measured:

- engine step: ``Engine.step()``'s real (wall) time per tick over the day, mean and p95;
- RSS: the process's resident set just after the save (the stand-in runs in another process);
- save: the nightly save's seconds and kind; a whole save of the same town to a scratch file
  (what a fork writes; the best of two), whose seconds are comparable from night to night; the
  save file's size;
- load: ``load_engine`` of the nightly save in a fresh process (``--reload``), imports apart;
- retrieval: ``MemoryStream.retrieve`` as a mind recalls (its k and token budget, without
  touching the records' last access), for a few residents spread over the cast, median ms;
- memories held, all residents together;
- reload: the fresh process's town is compared with the running one, section by section, in the
  save's own terms (``save.prepare``: the meta, each table's rows as JSON, and each memory stream's
  columns).  Left out, the only things a loaded town holds differently by design: the meta's
  ``saved_at``, each stream's random id and version counter, and the accounting's
  ``tokens_per_s`` (the speed of the client's last answers, never restored).  Every section must
  be equal.

The growth lines compare each figure's last-day/first-day ratio with the memories' over the same
days and say which grow faster.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from array import array
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from game.engine import saves  # noqa: E402
from game.engine.engine import Engine  # noqa: E402
from game.engine.running.pace import Governor  # noqa: E402
from game.llm.client import ModelClient  # noqa: E402
from game.measure.benchkit import machine  # noqa: E402
from game.measure.standin import embedding  # noqa: E402
from game.measure.swarm import StandInProcess, make_town  # noqa: E402
from game.measure.swarmconfig import NORMAL_TICK_S, SwarmConfig, rss_mb  # noqa: E402
from game.mind.memory.image import MemoryImage  # noqa: E402
from game.mind.mind import Mind  # noqa: E402

QUICK_DAY_HOURS = 2.0
NO_SERVER = "http://127.0.0.1:9/v1"  # the reloading process asks no model: a client it never uses


@dataclass
class WeekConfig:
    residents: int = 25
    days: int = 7
    speedup: float = 10.0
    slots: int | None = None  # the stand-in's; None: one for three residents, at least 4
    night: str = "03:00"  # each day ends at this hour of the next day
    day_hours: float | None = None  # instead: a "day" of this many game hours from the start
    start: str | None = None  # HH:MM on the town's first day; None: the town's own start
    ville: str | None = None  # the_ville folder: its 25 residents as the base town
    town: str | None = None  # or another town folder (default: the default town's 12, repeated)
    sample: int = 5  # residents whose retrieval is timed each night
    queries: int = 20  # retrievals timed for each of them

    def swarm(self) -> SwarmConfig:
        slots = self.slots or max(4, math.ceil(self.residents / 3))
        return SwarmConfig(residents=self.residents, slots=slots, speedup=self.speedup, ville=self.ville,
                           town=self.town)


def nights(start: datetime, cfg: WeekConfig) -> list[datetime]:
    """When each day ends and the town is saved: every ``cfg.day_hours`` game hours from
    ``start``, or at ``cfg.night`` each night, the first one at least 8 game hours after the
    start (a town that starts at midnight lives its first day before its first night)."""
    if cfg.day_hours:
        return [start + timedelta(hours=cfg.day_hours * (d + 1)) for d in range(cfg.days)]
    h, m = (int(x) for x in cfg.night.split(":"))
    first = start.replace(hour=h, minute=m, second=0, microsecond=0)
    while first < start + timedelta(hours=8):
        first += timedelta(days=1)
    return [first + timedelta(days=d) for d in range(cfg.days)]


# ------------------------------------------------------------------------------ the town's canonical form


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def image_digest(img: MemoryImage) -> str:
    """One memory stream's records as the save stores them (the records without an embedding as
    zeros); its random id and version counter are left out (a loaded stream has its own)."""
    n = img.n
    h = hashlib.sha256()
    h.update(json.dumps([n, img.dim, img.decay, img.text[:n], [list(e) for e in img.evidence[:n]]]).encode())
    for column in (img.kind[:n], img.created[:n], img.has_emb, img.access, img.importance, img.scored,
                   img.embeddings(0, n)):
        h.update(np.ascontiguousarray(column).tobytes())
    return h.hexdigest()[:16]


def canonical(engine: Engine) -> dict[str, str]:
    """The town as its save holds it, one digest a section: the meta (without ``saved_at``), each
    table's rows, each resident's memories.  Equal digests: equal sections."""
    prepared = saves.prepare(engine.saver.state())
    meta = {k: v for k, v in prepared.meta.items() if k != "saved_at"}
    out = {"meta": _sha(json.dumps(meta, sort_keys=True, default=str).encode())}
    for table, rows in sorted(prepared.rows.items()):
        if table == "accounting":  # (the speed of the last few answers is the client's, not the town's)
            rows = [(i, json.dumps({k: v for k, v in json.loads(text).items() if k != "tokens_per_s"}))
                    for i, text in rows]
        out[f"table {table}"] = _sha(json.dumps(rows, default=str).encode())
    for name, img in sorted(prepared.memories.items()):
        out[f"memories of {name}"] = image_digest(img)
    return out


def differing(live: dict[str, str], loaded: dict[str, str]) -> list[str]:
    """The sections that differ (or that only one of the two has)."""
    return sorted(k for k in live.keys() | loaded.keys() if live.get(k) != loaded.get(k))


# ------------------------------------------------------------------------------ the reload, in a fresh process


async def _reload(path: str) -> dict:
    from game.engine.build import load_engine

    client = ModelClient(NO_SERVER)
    t0 = time.perf_counter()
    engine = load_engine(path, client)
    load_s = time.perf_counter() - t0
    try:
        return {"load_s": round(load_s, 3), "canonical": canonical(engine),
                "memories": sum(len(m.memory) for m in engine.core.minds.values() if isinstance(m, Mind))}
    finally:
        await engine.aclose()
        await client.aclose()


def reload_elsewhere(path: Path) -> dict:
    """``--reload PATH`` in a fresh process: its load time and its town's canonical form."""
    done = subprocess.run([sys.executable, __file__, "--reload", str(path)], capture_output=True, text=True,
                          cwd=str(ROOT), timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"reloading {path} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


# ------------------------------------------------------------------------------ a night's measures


def memories_held(engine: Engine) -> int:
    return sum(len(m.memory) for m in engine.core.minds.values() if isinstance(m, Mind))


def sampled_minds(engine: Engine, n: int) -> list[Mind]:
    """``n`` residents spread evenly over the cast in name order (the same ones every night)."""
    minds = [m for _, m in sorted(engine.core.minds.items()) if isinstance(m, Mind)]
    if not minds or n <= 0:
        return []
    step = max(1, len(minds) // n)
    return minds[::step][:n]


def retrieval_ms(engine: Engine, sample: int, queries: int) -> float | None:
    """Median milliseconds of a retrieval as a mind recalls (its k, its token budget), queried
    with the embeddings of records spread over its stream (the stand-in's hashed vectors), never
    touching the records' last access (the town is not changed)."""
    times: list[float] = []
    now = engine.clock.now
    for mind in sampled_minds(engine, sample):
        memory = mind.memory
        n, dim = len(memory), memory.dim
        if n == 0:
            continue
        for i in range(queries):
            text = memory.get(i * (n - 1) // max(1, queries - 1)).text
            query = np.asarray(embedding(text, dim), dtype=np.float32) if dim else None
            t0 = time.perf_counter()
            memory.retrieve(query, now, k=mind.core.config.retrieve_k, token_budget=mind.core.config.memory_tokens,
                            refresh=False)
            times.append((time.perf_counter() - t0) * 1000)
    return round(statistics.median(times), 3) if times else None


def _pct(values: array, q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


@dataclass
class DayRow:
    day: int
    until: str
    ticks: int
    real_s: float
    ticks_slowed: int
    engine_errors: int
    chat_calls: int
    step_ms_mean: float
    step_ms_p95: float
    rss_mb: float | None
    save_kind: str
    save_s: float
    changes_save_s: float | None  # the nightly save when only what changed was written
    whole_save_s: float
    save_mb: float
    load_s: float
    retrieval_ms: float | None
    memories: int
    reload_same: bool
    reload_differs: list[str] = field(default_factory=list)
    measure_s: float = 0.0  # real seconds the clock stood still for the night's measures


# ------------------------------------------------------------------------------ the week


class Week:
    """One town played day by day: ``day`` ticks to a night in real time, ``night`` measures."""

    def __init__(self, cfg: WeekConfig, engine: Engine, client: ModelClient, folder: Path) -> None:
        self.cfg, self.engine, self.client = cfg, engine, client
        self.save_path = folder / "town.save"
        self.scratch = folder / "whole.save"
        self.gov = Governor("lead")
        self.tick_s = NORMAL_TICK_S / cfg.speedup
        self.step_s = array("d")  # this day's step times (cleared each night: the run's own memory stays flat)
        self.slowed = 0
        self.errors = 0
        self.calls_before = 0

    async def day(self, stop: datetime) -> float:
        """Tick to ``stop`` at the game's rate (slowed when the model lags); the real seconds."""
        engine, gov = self.engine, self.gov
        self.step_s = array("d")
        self.slowed = self.errors = 0
        t0 = time.monotonic()
        while engine.clock.now < stop:
            w = time.perf_counter()
            res = engine.step()
            self.step_s.append(time.perf_counter() - w)
            self.errors += sum(1 for line in res.log if line.kind == "error")
            await asyncio.sleep(gov.delay(self.tick_s, engine.lead_time.backlog_min(), engine.routine_wait_min()))
            self.slowed += int(gov.factor > 1.0)
        return time.monotonic() - t0

    def _save(self) -> tuple[str, float]:
        t0 = time.perf_counter()
        job = self.engine.save_job(self.save_path)
        job.run()
        job.finish()
        return ("changes" if job.incremental else "whole"), time.perf_counter() - t0

    def _whole_save(self, tries: int = 2) -> float:
        """The best of ``tries`` whole saves of the town to a scratch file (removed after)."""
        best = math.inf
        for _ in range(tries):
            self.scratch.unlink(missing_ok=True)
            t0 = time.perf_counter()
            saves.write_state(self.engine.saver.state(), self.scratch)
            best = min(best, time.perf_counter() - t0)
        self.scratch.unlink(missing_ok=True)
        return best

    def night(self, day_no: int, real_s: float) -> DayRow:
        """The clock stands still (no await here) while the town is saved and measured."""
        t0 = time.monotonic()
        engine = self.engine
        kind, save_s = self._save()
        rss = rss_mb()
        live = canonical(engine)  # the town at the save's instant
        whole_s = self._whole_save()
        retrieval = retrieval_ms(engine, self.cfg.sample, self.cfg.queries)
        loaded = reload_elsewhere(self.save_path)
        diff = differing(live, loaded["canonical"])
        calls = int(self.client.accounting.total.calls)
        steps = self.step_s
        row = DayRow(
            day=day_no, until=engine.clock.text(), ticks=len(steps), real_s=round(real_s, 1),
            ticks_slowed=self.slowed, engine_errors=self.errors, chat_calls=calls - self.calls_before,
            step_ms_mean=round(1000 * statistics.fmean(steps), 3) if steps else 0.0,
            step_ms_p95=round(1000 * _pct(steps, 0.95), 3), rss_mb=rss, save_kind=kind, save_s=round(save_s, 3),
            changes_save_s=round(save_s, 3) if kind == "changes" else None, whole_save_s=round(whole_s, 3),
            save_mb=round(self.save_path.stat().st_size / 2**20, 2), load_s=loaded["load_s"],
            retrieval_ms=retrieval, memories=memories_held(engine), reload_same=not diff, reload_differs=diff)
        self.calls_before = calls
        row.measure_s = round(time.monotonic() - t0, 1)
        return row


async def play_week(cfg: WeekConfig, town: Path, url: str, folder: Path,
                    progress: Callable[[str], None] | None = None) -> dict:
    """Build the town, plan its first day before the clock, then play its days; the figures."""
    from game.engine.build import new_engine
    from game.llm.embed import RemoteEmbedder

    client = ModelClient(url, embedder=RemoteEmbedder(url), timeout_s=600.0, max_in_flight=256)
    await client.connect()
    start = None
    if cfg.start:
        first = json.loads((town / "residents.json").read_text())["start"]
        h, m = (int(x) for x in cfg.start.split(":"))
        start = datetime.fromisoformat(first).replace(hour=h, minute=m)
    engine = new_engine(town, client, start=start)
    engine.core.lockstep = False
    week = Week(cfg, engine, client, folder)
    rows: list[DayRow] = []
    began = engine.clock.text()
    try:
        prepare_s = (await engine.prepare()).seconds
        for d, stop in enumerate(nights(engine.clock.now, cfg), start=1):
            rows.append(week.night(d, await week.day(stop)))
            if progress is not None:
                progress(day_line(rows[-1]))
    finally:
        await engine.aclose()
        await client.aclose()
    return {"residents": len(engine.core.residents), "town": engine.town.name, "from": began,
            "prepare_s": round(prepare_s, 1), "days": [asdict(r) for r in rows]}


def run_week(cfg: WeekConfig, progress: Callable[[str], None] | None = None,
             workdir: Path | None = None) -> dict:
    """The whole bench: the town, the stand-in server, the week, the growth; every figure.
    ``workdir``: where the town and its save are kept (default: a temporary folder, removed)."""
    if workdir is None:
        with tempfile.TemporaryDirectory(prefix="town-week-") as tmp:
            return run_week(cfg, progress, Path(tmp))
    workdir.mkdir(parents=True, exist_ok=True)
    scfg = cfg.swarm()
    town = make_town(scfg, workdir)
    server = StandInProcess(scfg)
    try:
        out = asyncio.run(play_week(cfg, town, server.url, workdir, progress))
    finally:
        server.stop()
    out.update(config=asdict(cfg), slots=scfg.slots, machine=machine())
    out["growth"] = growth(out["days"])
    return out


# ------------------------------------------------------------------------------ growth and the table

# (key, label): the figures whose growth is compared with the memories'
FIGURES = [("step_ms_mean", "engine step mean"), ("step_ms_p95", "engine step p95"), ("rss_mb", "RSS"),
           ("changes_save_s", "nightly save (changes)"), ("whole_save_s", "whole save"), ("load_s", "load"),
           ("save_mb", "save size"), ("retrieval_ms", "retrieval")]


def growth(days: list[dict]) -> list[dict]:
    """Each figure's last/first ratio over the days it has, against the memories' over the same days."""
    out = []
    for key, label in FIGURES:
        have = [d for d in days if d.get(key) is not None]
        if len(have) < 2 or not have[0][key] or not have[0]["memories"]:
            out.append({"figure": key, "label": label, "ratio": None, "memories_ratio": None, "faster": None})
            continue
        first, last = have[0], have[-1]
        # (compared as shown: two ratios the same to three places are the same growth; the suite on 615aae6
        # once read 1.0904 against 1.0901 as "faster")
        ratio, mem = round(last[key] / first[key], 3), round(last["memories"] / first["memories"], 3)
        out.append({"figure": key, "label": label, "from_day": first["day"], "to_day": last["day"],
                    "ratio": ratio, "memories_ratio": mem, "faster": ratio > mem})
    return out


COLUMNS = ["day", "until", "step ms mean", "step ms p95", "RSS MB", "save s", "whole save s", "load s",
           "save MB", "retrieval ms", "memories", "reload"]


def table_row(d: dict) -> list[str]:
    return [str(d["day"]), d["until"], f"{d['step_ms_mean']:.3f}", f"{d['step_ms_p95']:.3f}",
            "n/a" if d["rss_mb"] is None else f"{d['rss_mb']:.1f}", f"{d['save_s']:.3f} ({d['save_kind']})",
            f"{d['whole_save_s']:.3f}", f"{d['load_s']:.3f}", f"{d['save_mb']:.2f}",
            "n/a" if d["retrieval_ms"] is None else f"{d['retrieval_ms']:.3f}", f"{d['memories']:,}",
            "same" if d["reload_same"] else "DIFFERS: " + ", ".join(d["reload_differs"][:4])]


def table(days: list[dict]) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(table_row(d)) + " |" for d in days]
    return "\n".join(lines)


def growth_lines(rows: list[dict]) -> str:
    out = []
    for g in rows:
        if g["ratio"] is None:
            out.append(f"- {g['label']}: n/a (fewer than two days with it)")
            continue
        verdict = "FASTER than memories" if g["faster"] else "not faster than memories"
        out.append(f"- {g['label']}: x{g['ratio']} (day {g['from_day']} to {g['to_day']}; memories "
                   f"x{g['memories_ratio']}): {verdict}")
    faster = [g["label"] for g in rows if g["faster"]]
    out.append("Grows faster than memories: " + (", ".join(faster) if faster else "none"))
    return "\n".join(out)


def day_line(r: DayRow) -> str:
    return (f"day {r.day} to {r.until}: {r.ticks} ticks in {r.real_s} s ({r.ticks_slowed} slowed), "
            f"{r.chat_calls} chat calls, {r.memories} memories, save {r.save_s} s ({r.save_kind}), "
            f"reload {'same' if r.reload_same else 'DIFFERS'}; measured in {r.measure_s} s")


def report(out: dict) -> str:
    c = out["config"]
    head = (f"A week in town: {out['residents']} residents of {out['town']} from {out['from']}, "
            f"{len(out['days'])} days, stand-in server with {out['slots']} slots, speedup x{c['speedup']}; "
            f"first day plans {out['prepare_s']} s; load {out['machine']['load_1min']} at the start")
    return "\n\n".join([head, table(out["days"]), "Growth, last day over first:\n" + growth_lines(out["growth"])])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--days", type=int, help=f"days to play (default {WeekConfig.days}; with --quick 2)")
    p.add_argument("--residents", type=int, default=WeekConfig.residents)
    p.add_argument("--ville", help="the_ville folder (../shared/the_ville): the paper's 25 as the base town")
    p.add_argument("--town", help="another town folder as the base (default: the default town's 12, repeated)")
    p.add_argument("--speedup", type=float, default=WeekConfig.speedup,
                   help="the tick's 0.5 s and every stand-in latency divided by this")
    p.add_argument("--slots", type=int, help="the stand-in's slots (default: one for three residents, at least 4)")
    p.add_argument("--from", dest="start", help="HH:MM on the first day (default: the town's own start)")
    p.add_argument("--night", default=WeekConfig.night, help="the hour each day ends and the town is saved")
    p.add_argument("--day-hours", type=float, help="a 'day' of this many game hours instead of nightly")
    p.add_argument("--quick", action="store_true", help=f"2 days of {QUICK_DAY_HOURS:g} game hours: a smoke check")
    p.add_argument("--json", help="write every figure to this file")
    p.add_argument("--workdir", help="keep the town and its save (town.save) in this new folder")
    p.add_argument("--reload", help=argparse.SUPPRESS)  # (the fresh process that loads a night's save)
    a = p.parse_args(argv)
    if a.reload:
        print(json.dumps(asyncio.run(_reload(a.reload))))
        return 0
    cfg = WeekConfig(residents=a.residents, days=a.days or (2 if a.quick else WeekConfig.days), speedup=a.speedup,
                     slots=a.slots, night=a.night, day_hours=a.day_hours or (QUICK_DAY_HOURS if a.quick else None),
                     start=a.start, ville=a.ville, town=a.town)
    out = run_week(cfg, progress=lambda line: print(line, file=sys.stderr, flush=True),
                   workdir=Path(a.workdir) if a.workdir else None)
    print(report(out))
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=2, default=str))
    return 0 if all(d["reload_same"] for d in out["days"]) else 1


if __name__ == "__main__":
    sys.exit(main())
