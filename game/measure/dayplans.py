"""``python -m game.measure.dayplans TOWN [--small] [--out FILE.json] [--llm-url URL] [--record FILE]``:
every resident's first day plan, made as the game makes it (the frame filled in by the model,
checked, asked again, mended: game/mind/planning/daycheck.py, dayoptions.py), and each read as a player reads it
(``judge_day``).  The figures of issue 38: how many plans passed the check on the model's first
answer, how many pass after the checks, which lines were mended and why, and the calls and
evaluated tokens each plan cost.

Each plan is asked at the resident's waking on the town's first day, with the view of the world it
has then (its known places, the town's places for the check), two at a time (the embedded server
has slots for two).  Nothing else of the town runs: this measures the plans alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from game.engine.build import build_engine, read_input
from game.errors import GameError
from game.llm.accounting import Accounting, accounting_of
from game.llm.api import LLM, LLMError
from game.measure.records import SaveData
from game.mind.mind import Mind
from game.mind.planning.dayframe import frame_for, frame_text
from game.mind.planning.dayjudge import judge_day
from game.text import echo, one_line

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console


async def plan_everyone(llm: LLM, town: str, *, small: bool = False, parallel: int = 2) -> dict:
    inp = read_input(town, small=small)
    engine = build_engine(inp, llm, lockstep=True)
    day = engine.clock.now.date()
    sem = asyncio.Semaphore(parallel)
    rows: dict[str, dict] = {}

    async def one(name: str) -> None:
        mind = engine.core.minds[name]
        assert isinstance(mind, Mind)  # (the game's own minds)
        p = mind.persona
        now = datetime.combine(day, datetime.min.time()) + timedelta(minutes=p.wake)
        view = engine.perceiver.world_view(name)
        async with sem:
            before = dict(mind.stats)
            plan = await mind.planner.plan_day(now, view)
        lacks = view.ground.lacks if view.ground is not None else None
        fails = judge_day(p, day, plan.blocks, lacks)
        stats = {k: v - before.get(k, 0) for k, v in mind.stats.items()
                 if k.startswith("plan_") and v != before.get(k, 0)}
        rows[name] = {"frame": frame_text(frame_for(p, day)), "source": plan.source,
                      "plan": plan.timeline(), "checks": list(plan.checks),
                      "first_pass": stats.get("plan_first_pass", 0) == 1, "stats": stats,
                      "passes_after": not fails, "fails_after": fails,
                      "calls": mind.core.calls_on(day)}
        acc = accounting_of(llm)
        if acc is not None:
            rows[name]["usage"] = _usage(acc, name)

    await asyncio.gather(*(one(n) for n in engine.core.minds))
    n = len(rows)
    first = sum(1 for r in rows.values() if r["first_pass"])
    after = sum(1 for r in rows.values() if r["passes_after"])
    model = sum(1 for r in rows.values() if r["source"] == "model")
    calls = sum(sum(r["calls"].values()) for r in rows.values())
    evaluated = sum(r.get("usage", {}).get("evaluated", 0) for r in rows.values())
    return {"town": str(town), "day": day.isoformat(), "weekday": day.strftime("%A"), "residents": n,
            "model_plans": model, "first_pass": first, "passes_after": after,
            "lines_mended": sum(r["stats"].get("plan_lines_mended", 0) for r in rows.values()),
            "asked_again": sum(r["stats"].get("plan_asked_again", 0) for r in rows.values()),
            "calls": calls, "calls_per_resident": round(calls / max(1, n), 2),
            "evaluated_tokens_per_resident": round(evaluated / max(1, n)),
            "plans": dict(sorted(rows.items()))}


def _usage(acc: Accounting, name: str) -> dict[str, float]:
    """Calls, tokens and model seconds of one resident so far."""
    u = acc.by_resident().get(name)
    if u is None:
        return {}
    return {"calls": u.calls, "prompt": u.prompt_tokens, "completion": u.completion_tokens,
            "evaluated": u.evaluated_tokens, "latency_s": round(u.latency_s, 1)}


def render(rep: dict) -> str:
    out = [f"{rep['town']}: {rep['residents']} day plans for {rep['weekday']} {rep['day']}",
           f"  passed the check on the model's first answer: {rep['first_pass']} of {rep['residents']}",
           f"  pass as lived (judged again): {rep['passes_after']} of {rep['residents']} "
           f"({rep['model_plans']} the model's, asked again {rep['asked_again']}, lines mended {rep['lines_mended']})",
           f"  model calls {rep['calls']} ({rep['calls_per_resident']} a resident, "
           f"{rep['evaluated_tokens_per_resident']} evaluated tokens a resident)"]
    for name, r in rep["plans"].items():
        out.append("")
        out.append(f"{name}: {'first pass' if r['first_pass'] else 'checked'}"
                   + ("" if r["passes_after"] else f"; FAILS: {'; '.join(r['fails_after'])}"))
        out += [f"  {line}" for line in r["plan"]]
        out += [f"  ! {c}" for c in r["checks"]]
    return "\n".join(one_line(x, 400) for x in out)


def main(argv: list[str] | None = None) -> int:
    from game.cli import add_llm_flags  # the same model flags as every command
    from game.llm.config import LLMConfig
    from game.llm.session import open_llm

    ap = argparse.ArgumentParser(prog="python -m game.measure.dayplans", description=__doc__.split("\n\n")[0])
    ap.add_argument("town")
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--out", default=None, help="write the whole report as JSON here")
    add_llm_flags(ap)
    args = ap.parse_args(argv)
    try:
        config = LLMConfig.from_args(args)
        read_input(args.town, small=args.small)
    except (ValueError, GameError) as e:
        echo(f"dayplans: {one_line(e)}", file=sys.stderr)
        return 2

    async def go() -> dict:
        async with open_llm(config, progress=lambda m: echo(m, file=sys.stderr)) as llm:
            return await plan_everyone(llm, args.town, small=args.small)

    try:
        rep = asyncio.run(go())
    except LLMError as e:
        echo(f"dayplans: {one_line(e)}", file=sys.stderr)
        return 1
    if args.out:
        Path(args.out).write_text(json.dumps(rep, indent=2, ensure_ascii=False), encoding="utf-8")
    echo(render(rep))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())


def plans_report(data: SaveData) -> dict:
    """The day plans of a save as ``town report`` shows them: each resident's timeline (where each
    block happens, the one in progress marked), what the plan's check found, and whether the day
    passes as a player reads it (``judge_day``; places the town lacks judged when its town loads)."""
    from game.mind.persona import Persona
    from game.mind.view import DayPlan

    lacks = _town_lacks(data.meta.get("town_path"))
    now = data.now
    out: dict[str, dict] = {}
    for name in sorted(data.plans):
        try:
            plan = DayPlan.from_dict(data.plans[name])
            persona = Persona.from_dict(data.personas[name])
        except (KeyError, TypeError, ValueError):
            continue
        start = data.start
        day = (start.date() + timedelta(days=plan.day - 1)) if start is not None else None
        minute = None
        if now is not None and day is not None:
            minute = int((now - datetime.combine(day, datetime.min.time())).total_seconds() // 60)
        out[name] = {"day": plan.day, "source": plan.source, "timeline": plan.timeline(minute),
                     "checks": list(plan.checks),
                     "fails": judge_day(persona, day, plan.blocks, lacks) if day is not None else []}
    totals = {"plans": len(out), "pass": sum(1 for r in out.values() if not r["fails"])}
    for k in ("plan_checked", "plan_first_pass", "plan_asked_again", "plan_again_pass", "plan_lines_mended"):
        totals[k] = sum(s.get(k, 0) for s in data.mind_stats.values())
    return {"totals": totals, "residents": out}


def _town_lacks(town_path: object) -> Callable[[str], list[str]] | None:
    """The town's ``lacks`` (kinds of place it has none of), or None when its folder cannot be read."""
    try:
        from game.engine.build import TownError, load_world
        from game.world.lacking import lacking, tree_words

        town = load_world(str(town_path))
    except TownError:  # the town folder moved: the rest is still judged
        return None
    words = tree_words(town.tree)
    return lambda text: lacking(text, words)


def print_plans(rep: dict, console: Console) -> None:
    """``town report``'s section on the day plans, as plain text (the town's words are never markup)."""
    from rich.text import Text

    for line in render_plans(rep):
        console.print(Text(one_line(line, 400)))


def render_plans(rep: dict) -> list[str]:
    t = rep["totals"]
    if not t["plans"]:
        return []
    out = [f"Day plans: {t['pass']} of {t['plans']} pass as a player reads them; the check passed the "
           f"model's first answer {t['plan_first_pass']} of {t['plan_checked']} times, asked again "
           f"{t['plan_asked_again']} ({t['plan_again_pass']} then passed), lines mended by rule "
           f"{t['plan_lines_mended']}"]
    for name, r in rep["residents"].items():
        fails = f": FAILS {'; '.join(r['fails'])}" if r["fails"] else ""
        out.append(f"{name} (day {r['day']}, {r['source']}){fails}")
        out += [f"  {line}" for line in r["timeline"]]
        out += [f"  ! {c}" for c in r["checks"]]
    return out
