"""Measuring a finished scenario run: the town's model use per resident-day, everyone's
interview answers, and the figures the table shows (diffusion of each piece of news, network
density, attendance, hallucinated answers, how much of the town the model led), as plain data.

Apart from runner.py (which builds, seeds and runs the town) so that what is measured can be read
on its own; it reads the engine, the position log and the run's bookkeeping, and changes nothing.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import TYPE_CHECKING

from game.engine.decisions.ledger import lead_since
from game.experiment.progress import ProgressBar
from game.experiment.runstate import CheckedScenario, RunState
from game.experiment.scenario import place_tiles, resolve_time
from game.experiment.score import INVENTED, KNOWS, NO_ANSWER, UNSCORED, Verdict, expected_info, score_answer
from game.llm.accounting import accounting_of

if TYPE_CHECKING:  # pragma: no cover
    from game.engine.engine import Engine
    from game.experiment.scenario import Scenario
    from game.llm.api import LLM
    from game.measure.relations import PositionLog
    from game.measure.spread import Info, Spread

# (resident, question, answer or None when the model failed, what backs the answer)
Answer = tuple[str, str, str | None, dict | None]

NOT_CHAT = frozenset({"embed", "interview"})  # not counted as the town's own chat calls
INTERVIEW_LANES = 4


def model_use(llm: LLM, resident_days: float) -> dict:
    """The town's own chat calls and tokens per resident-day (embeddings and interviews apart)."""
    acc = accounting_of(llm)
    if acc is None:
        return {"available": False, "why": "the model layer keeps no accounting (a replay)"}
    from game.llm.api import Usage

    total, by = Usage(), {}
    for purpose, u in sorted(acc.by_purpose().items()):
        by[purpose] = {"calls": u.calls, "tokens": u.prompt_tokens + u.completion_tokens,
                       "prompt_tokens": u.prompt_tokens, "completion_tokens": u.completion_tokens,
                       "evaluated_tokens": u.evaluated_tokens, "latency_s": round(u.latency_s, 2)}
        if purpose not in NOT_CHAT:
            total.add(u)
    rd = max(resident_days, 1e-9)
    return {"available": True, "resident_days": round(resident_days, 4),
            "chat_calls": total.calls, "tokens": total.prompt_tokens + total.completion_tokens,
            "calls_per_resident_day": round(total.calls / rd, 1),
            "tokens_per_resident_day": round((total.prompt_tokens + total.completion_tokens) / rd),
            # what the server had to evaluate: prompt tokens not served from its cache + completion
            "evaluated_tokens": total.evaluated_tokens,
            "evaluated_per_resident_day": round(total.evaluated_tokens / rd),
            "failures": total.failures, "by_purpose": by}


async def interview_all(engine: Engine, llm: LLM, p: CheckedScenario, bar: ProgressBar | None) -> list[Answer]:
    """(resident, question, answer or None when the model failed, what backs the answer) for every
    resident and question, a few residents at a time."""
    from game.llm.api import LLMError
    from game.measure.interview import interview_backed

    questions = [q.ask for q in p.scenario.question]
    names = sorted(engine.core.residents)
    lanes = asyncio.Semaphore(INTERVIEW_LANES)
    done = [0]
    total = len(names) * len(questions)

    async def one(name: str) -> list[Answer]:
        out: list[Answer] = []
        async with lanes:
            for q in questions:
                checked: dict | None = None
                try:
                    ans, back = await interview_backed(engine, q, llm, name=name)
                    checked = back.to_dict()
                except LLMError as e:  # counted apart: a failed call is neither knowing nor not
                    ans = None
                    if bar:
                        bar.say(f"  ! {name} gave no answer to {q!r}: {e}")
                out.append((name, q, ans, checked))
                done[0] += 1
                if bar and bar.out is not None:
                    bar.say(f"  interviewed {done[0]} of {total}: {name}")
        return out

    results = await asyncio.gather(*(one(n) for n in names))
    return [x for r in results for x in r]


def measure(p: CheckedScenario, engine: Engine, st: RunState, log: PositionLog, answers: list[Answer],
            usage: dict, start: datetime) -> dict:
    """Everything the table shows, as plain data (also the ``--json`` output)."""
    from game.measure.records import rows_of_engine
    from game.measure.relations import graph
    from game.measure.spread import Info, track

    sc = p.scenario
    residents = sorted(engine.core.residents)
    end = engine.clock.now
    rows = rows_of_engine(engine)
    infos = {i.name: Info(i.name, Info.parse(i.name, i.keywords).keywords, i.needed) for i in sc.info}
    spreads = {k: track(rows, info, residents) for k, info in infos.items()}
    verdicts = _verdicts(sc, answers, infos, spreads)
    rel = {name: dict(engine.core.minds[name].persona.relationships) for name in residents}
    g0 = graph(rows, residents, until=start, relationships=rel, start=start)
    g1 = graph(rows, residents, relationships=rel, start=start)
    scored = [v for v in verdicts if v.verdict not in (UNSCORED, NO_ANSWER)]
    invented = [v for v in scored if v.verdict == INVENTED]
    total_samples = sum(st.led.values())
    return {
        "scenario": sc.name, "scenario_file": sc.path, "town": engine.town.name,
        "residents": residents, "start": start.isoformat(), "end": end.isoformat(),
        "game_days": round((end - start).total_seconds() / 86400, 4), "pace": sc.run.pace,
        "ticks": st.ticks, "real_s": round(st.real_s, 1), "waited_s": round(st.waited_s, 1),
        "errors": st.errors, "seeded": st.seeded,
        "diffusion": _diffusion(sc, st, infos, spreads, verdicts, len(residents), start),
        "density": {"start": round(g0.density(), 4), "end": round(g1.density(), 4),
                    "edges_start": len(g0.edges()), "edges_end": len(g1.edges())},
        "attendance": _attendance(p, engine, log, spreads, residents),
        "answers": [v.to_dict() for v in verdicts],
        "hallucination": {"invented": len(invented), "scored": len(scored), "answers": len(verdicts),
                          "no_answer": sum(v.verdict == NO_ANSWER for v in verdicts),
                          "share": _share(len(invented), len(scored))},
        "model_use": usage,
        # the engine's own ledger (game/engine/decisions/ledger.py): waking minutes by where the action came
        # from, talks included, and the decision lag; the samples' counts stay as a cross-check
        "model_led": dict(engine.core.ledger.summary(since=lead_since(start, 1)),
                          samples=total_samples, by_source=dict(sorted(st.led.items())),
                          share=engine.core.ledger.summary(since=lead_since(start, 1))["model_led_share"]),
    }


def _verdicts(sc: Scenario, answers: list[Answer], infos: dict[str, Info],
              spreads: dict[str, Spread]) -> list[Verdict]:
    """Each answer scored against what the resident's memory holds of the news it is about."""
    verdicts: list[Verdict] = []
    for name, q_text, ans, checked in answers:
        q = next(q for q in sc.question if q.ask == q_text)
        facts = backing = None
        if q.about:
            facts = expected_info(infos[q.about], q.expect, q.needed)
            backing = next((x for x in spreads[q.about].learned if x.resident == name), None)
        verdict = score_answer(name, q_text, ans, q.about, facts, backing)
        verdict.checked = checked  # what the interview's own check found and kept (mind/interview/backing.py)
        verdicts.append(verdict)
    return verdicts


def _diffusion(sc: Scenario, st: RunState, infos: dict[str, Info], spreads: dict[str, Spread],
               verdicts: list[Verdict], n: int, start: datetime) -> list[dict]:
    """For each piece of news: who carried it at the start, by memory at the end, and by interview."""
    seeded_at = [(datetime.fromisoformat(x["at"]), sc.seed[x["seed"]].text) for x in st.seeded]
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
    return diffusion


def _attendance(p: CheckedScenario, engine: Engine, log: PositionLog, spreads: dict[str, Spread],
                residents: list[str]) -> dict | None:
    """Who was invited (knew of it before it began) and who came to the scenario's gathering."""
    from game.measure.relations import attendance

    if p.scenario.attendance is None:
        return None
    a = p.scenario.attendance
    address, tiles = place_tiles(engine.town, a.place, "attendance.place")
    lo, hi = resolve_time(a.start, p.day1), resolve_time(a.end, p.day1)
    there = attendance(log.samples, tiles, lo, hi)
    if a.invited:
        invited = sorted(x.resident for x in spreads[a.invited].learned if x.at <= lo)
    else:
        invited = list(residents)
    came = sorted(r for r in there if r in set(residents))
    return {"place": address, "from": lo.isoformat(), "to": hi.isoformat(), "invited_by": a.invited,
            "invited": invited, "came": came, "invited_came": sorted(set(invited) & set(came)),
            "uninvited_came": sorted(set(came) - set(invited)), "seen": there,
            "observed": bool(log.samples and log.samples[0][0] <= hi and log.samples[-1][0] >= lo)}


def _share(k: int, n: int) -> float | None:
    return round(k / n, 4) if n else None
