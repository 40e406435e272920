"""``town report SAVE [--json]``: what happened in a saved town, measured.

- who knows what: every whisper in the save is a seeded piece of information, traced through the
  memory streams (keywords: the whisper's most distinctive words); more can be named with
  ``--track "name=keyword, keyword"`` (when the command has that flag) or ``$TOWN_TRACK``
  (``"party=valentine, party; election=mayor, vote"``);
- relationships: who knows whom, the density at the start and at the end of the run, and per hour;
- attendance: who was where, from the position log ``SAVE.positions.jsonl`` beside the save when one
  was written (saves themselves hold only the positions at the moment of saving);
- the model's use: the call budget (chat calls per resident per whole game day, worst resident
  beside the average, tokens evaluated beside tokens sent; ``game.llm.accounting.budget``, the
  same figure ``town run`` prints) and the whole run's totals by purpose;
- the day plans: each resident's timeline with where each block happens (game/measure/dayplans.py).
Printed as rich tables (every name and text from the town is shown as plain text, never markup),
or as one JSON object with ``--json``.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections import Counter
from collections.abc import Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, cast

from game.engine.decisions.ledger import DecisionLedger, format_lead, lead_since, mind_counts
from game.measure.dayplans import plans_report, print_plans
from game.measure.placefit import report_for as place_fit_report
from game.measure.records import SaveData, read_save
from game.measure.relations import PositionLog, density_over_time, graph
from game.measure.spread import Info, said_in, track
from game.text import clean, dumps, echo, one_line

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console
    from rich.text import Text

_STOP = set("""a about above after again all also am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just me more most my
myself no nor not now of off on once only or other our ours out over own same she should so some such
than that the their theirs them then there these they this those through to too under until up very was
we were what when where which while who whom why will with would you your yours yourself today tonight
tomorrow want think going get got make really should shall them told said like well one""".split())


def whisper_infos(data: SaveData, limit: int = 6, named: Sequence[Info] = ()) -> list[Info]:
    """One piece of information per distinct whisper: its three most distinctive words (the ones
    fewest records of the whole save contain), two of which a record must carry.  A whisper that a
    ``named`` piece of information already matches is left to it."""
    texts = [r.text.lower() for r in data.memories]
    infos, seen = [], set()
    for r in sorted((r for r in data.memories if r.kind == "whisper"), key=lambda r: r.created):
        if any(i.matches(r.text) for i in named):
            continue
        words = [w for w in re.findall(r"[a-z][a-z']+", r.text.lower()) if len(w) > 3 and w not in _STOP]
        words = list(dict.fromkeys(w.rstrip("'s") if w.endswith("'s") else w for w in words))
        if not words:
            continue
        df = {w: sum(1 for t in texts if w in t) for w in words}
        kws = sorted(words, key=lambda w: (df[w], words.index(w)))[:3]
        key = tuple(sorted(kws))
        if key in seen:
            continue
        seen.add(key)
        short = " ".join(r.text.split()[:8]) + ("\u2026" if len(r.text.split()) > 8 else "")
        infos.append(Info(name=f"whisper to {r.resident}: {short}", keywords=tuple(kws),
                          min_match=min(2, len(kws))))
        if len(infos) >= limit:
            break
    return infos


def parse_track(spec: str | Sequence[str] | None) -> list[Info]:
    """``"party=valentine, party; election=mayor, vote"`` (or a list of ``name=keywords``)."""
    if not spec:
        return []
    items = spec if isinstance(spec, (list, tuple)) else str(spec).split(";")
    out = []
    for item in items:
        item = item.strip()
        if not item:
            continue
        name, _, kws = item.partition("=")
        out.append(Info.parse(name.strip(), kws.strip() or None))
    return out


def usage(data: SaveData) -> dict:
    """The model's use in the saved town: the call budget as ``game.llm.accounting.budget`` defines
    it (the same figure ``town run`` prints: chat calls per resident per whole game day, the worst
    resident beside the average, tokens evaluated beside tokens sent), and the whole run's totals by
    purpose (counts, not scaled to anything)."""
    from game.llm.accounting import NOT_CHAT, budget, usage_from
    from game.llm.api import Usage

    acc = data.accounting
    if not acc:
        return {"available": False,
                "why": "the save holds no accounting (a replayed run, or a model layer that keeps none)"}
    start, now = data.start, data.now
    if start is None or now is None:
        return {"available": False, "why": "the save's clock cannot be read"}
    out: dict = dict(budget(acc, list(data.residents), start=start, end=now, first_date=start.date()))
    by_purpose: dict[str, Usage] = {}
    for row in acc.get("by_resident_purpose", []):
        by_purpose.setdefault(row["purpose"], Usage()).add(usage_from(row))
    chat = Usage()
    for p, u in by_purpose.items():
        if p not in NOT_CHAT:
            chat.add(u)

    def plain(u: Usage) -> dict:
        return {"calls": u.calls, "prompt_tokens_sent": u.prompt_tokens, "completion_tokens": u.completion_tokens,
                "tokens_evaluated": u.evaluated_tokens, "cached_tokens": u.cached_tokens,
                "failures": u.failures, "latency_s": round(u.latency_s, 2),
                "mean_latency_s": round(u.latency_s / u.calls, 3) if u.calls else 0.0}

    out["available"] = True
    out["run_totals"] = {"by_purpose": {p: plain(u) for p, u in sorted(by_purpose.items())},
                         "chat": plain(chat), "chat_excludes": sorted(NOT_CHAT)}
    return out


def _positions_log(save: str) -> Path:
    return Path(str(save) + ".positions.jsonl")


def attendance_report(data: SaveData, at: str | None = None, window: tuple[datetime, datetime] | None = None,
                      log_path: str | Path | None = None) -> dict:
    path = Path(log_path) if log_path else _positions_log(data.path)
    if not path.exists():
        return {"available": False, "log": None,
                "why": f"no position log ('{path.name}' beside the save): saves hold only where everyone "
                       f"is at the moment of saving; run with game.measure.run (or `town experiment`) "
                       f"to keep one",
                "now": {n: list(p) for n, p in sorted(data.positions.items())}}
    try:
        log = PositionLog.read(path)
    except ValueError as e:
        return {"available": False, "log": str(path), "why": str(e)}
    try:
        from game.engine.build import TownError, load_world

        town = load_world(data.meta["town_path"])
    except (TownError, KeyError) as e:  # the town folder moved (or none named): the log stays, the places not
        return {"available": False, "log": str(path), "why": f"the town cannot be loaded for place names: {e}"}
    lo, hi = window or (datetime.min, datetime.max)
    places: dict[str, dict[str, dict]] = {}
    minutes = log.every * float((data.meta.get("clock") or {}).get("seconds_per_step", 10)) / 60.0
    for t, pos in log.samples:
        if not (lo <= t <= hi):
            continue
        for name, p in pos.items():
            place = town.tree.arena_at(p) or "(outside)"
            if at and not place.lower().startswith(at.lower()):
                continue
            d = places.setdefault(place, {}).setdefault(name, {"first": t, "last": t, "samples": 0})
            d["last"] = t
            d["samples"] += 1
    out = {}
    for place, who in sorted(places.items()):
        out[place] = {n: {"first": d["first"].isoformat(), "last": d["last"].isoformat(),
                          "minutes": round(d["samples"] * minutes, 1)} for n, d in sorted(who.items())}
    return {"available": True, "log": str(path), "samples": len(log.samples), "at": at, "places": out}


def build_report(save: str, *, track_spec: str | Sequence[str] | None = None, at: str | None = None,
                 step: timedelta = timedelta(hours=1)) -> dict:
    data = read_save(save)
    start, now = data.start, data.now
    if start is None or now is None:
        from game.engine.saves import SaveError

        raise SaveError(f"save '{save}' is damaged (its clock cannot be read)")
    game_days = max((now - start).total_seconds() / 86400.0, 1e-9)
    residents = data.residents
    rel = data.relationships or None
    g_start = graph(data.memories, residents, until=start, relationships=rel, start=start)
    g_end = graph(data.memories, residents, relationships=rel, start=start)
    curve = density_over_time(data.memories, residents, start, now, step, relationships=rel)
    named = parse_track(track_spec) + parse_track(os.environ.get("TOWN_TRACK"))
    infos = named + whisper_infos(data, named=named)
    spreads = []
    for info in infos:
        d = track(data.memories, info, residents).to_dict(start, now, step)
        d["said"] = said_in(data.conversations, info)
        spreads.append(d)
    convs = [c for c in data.conversations if not c.get("active")]
    return {
        "save": str(save), "town": data.meta.get("town_name", ""), "clock": data.clock_text,
        "start": start.isoformat(), "now": now.isoformat(), "game_days": round(game_days, 4),
        "residents": residents, "memories": len(data.memories),
        "memories_by_kind": dict(sorted(Counter(r.kind for r in data.memories).items())),
        "conversations": {"finished_kept": len(convs), "active": len(data.conversations) - len(convs),
                          "lines": sum(len(c.get("lines", [])) for c in data.conversations)},
        "relationships": {"start": {k: v for k, v in g_start.to_dict().items() if k != "ties"},
                          "end": {k: v for k, v in g_end.to_dict().items() if k != "ties"},
                          "curve": [[t.isoformat(), round(d, 4)] for t, d in curve],
                          "ties": g_end.to_dict()["ties"]},
        "spread": spreads,
        "attendance": attendance_report(data, at=at),
        "usage": usage(data),
        "model_led": DecisionLedger.from_dict(data.meta.get("ledger")).summary(
            since=lead_since(start, 1)),
        "rules_and_fallbacks": mind_counts(data.mind_stats.values()),
        "place_fit": place_fit_report(save, data.meta.get("town_path")),
        "plans": plans_report(data),
    }


# ------------------------------------------------------------------------------ printing


def bar_rows(curve: Sequence[tuple[str, float]], total: float, width: int = 30) -> list[tuple[str, str, str]]:
    """(time label, bar, value) for a terminal plot; the bar is plain text."""
    out = []
    for t, v in curve:
        n = 0 if total <= 0 else int(round(width * v / total))
        label = t[5:16].replace("T", " ") if len(t) >= 16 else t
        out.append((label, "\u2588" * n + "\u00b7" * (width - n), f"{v:g}"))
    return out


def _plain(s: object) -> Text:
    """Names and texts from the town are plain text: never markup, never terminal escapes."""
    from rich.text import Text

    return Text(clean(s))


def render(report: dict, console: Console) -> None:
    from rich.text import Text
    T = _plain
    console.print(Text(clean(f"{report['town']} — {report['clock']} ({report['save']})"), style="bold"))
    console.print(T(f"{len(report['residents'])} residents, {report['game_days']} game days, "
                    f"{report['memories']} memories "
                    + ", ".join(f"{k} {v}" for k, v in report["memories_by_kind"].items())
                    + f"; conversations kept {report['conversations']['finished_kept']}, "
                    f"lines {report['conversations']['lines']}"))
    rel = report["relationships"]
    render_relationships(rel, console)
    for sp in report["spread"]:
        render_spread(sp, console)
    if not report["spread"]:
        console.print(T("Who knows what: no whisper in this save and nothing named to track "
                        "($TOWN_TRACK=\"name=keyword, keyword\")."))
    render_curve("relationship density over time", rel["curve"], 1.0, "cyan", console)
    render_attendance(report["attendance"], console)
    render_place_fit(report.get("place_fit") or {}, console)
    print_plans(report.get("plans") or {"totals": {"plans": 0}}, console)
    render_usage(report["usage"], console)
    for line in format_lead(report["model_led"], report.get("rules_and_fallbacks")):
        console.print(T(line))


def render_relationships(rel: dict, console: Console) -> None:
    """Edges and densities at the start and the end, and the ties made by talking."""
    from rich.table import Table

    T = _plain
    t = Table(title="Relationships (who knows whom)")
    for c in ("", "edges", "density", "directed density"):
        t.add_column(c, justify="right" if c else "left")
    for k in ("start", "end"):
        t.add_row(k, str(rel[k]["edges"]), f"{rel[k]['density']:.3f}", f"{rel[k]['directed_density']:.3f}")
    console.print(t)
    ties = [x for x in rel["ties"] if x["knows"] and (x["talks"] or x["lines_heard"])]
    if ties:
        t = Table(title="Ties made by talking (from memory)")
        for c in ("who", "knows", "talks", "lines heard", "seen", "last"):
            t.add_column(c)
        for x in sorted(ties, key=lambda x: (-x["talks"], x["from"], x["to"]))[:25]:
            t.add_row(T(x["from"]), T(x["to"]), str(x["talks"]), str(x["lines_heard"]), str(x["seen"]),
                      T((x["last"] or "")[5:16].replace("T", " ")))
        console.print(t)


def render_spread(sp: dict, console: Console) -> None:
    """Who learned one piece of information, how and from whom, and the spread over time."""
    from rich.table import Table

    T = _plain
    t = Table(title=T(f"Who knows: {sp['name']}  (keywords: {', '.join(sp['keywords'])}; "
                      f"{sp['needed']} needed)"))
    for c in ("resident", "learned", "how", "from", "record"):
        t.add_column(c, overflow="fold")
    for x in sp["learned"]:
        t.add_row(T(x["resident"]), T(x["at"][5:16].replace("T", " ")), T(x["how"]), T(x["source"] or ""),
                  T(x["text"][:90]))
    console.print(t)
    console.print(T(f"{sp['knew']} of {sp['residents']} knew it ({sp['share']:.0%}); never heard: "
                    f"{', '.join(sp['never']) or 'nobody'}"))
    for d in sp.get("said", [])[:10]:
        when = (d["started"] or "")[5:16].replace("T", " ")
        console.print(T(f"  said: {d['speaker']} to {', '.join(d['to']) or 'nobody'} (talk of {when}): "
                        f"{d['text'][:100]}"))
    render_curve("spread over time (residents who knew it)", sp["curve"], sp["residents"], "green", console)


def render_curve(title: str, curve: Sequence[tuple[str, float]], total: float, style: str,
                 console: Console) -> None:
    """A curve as a terminal plot of plain-text bars."""
    from rich.table import Table
    from rich.text import Text

    plot = Table(title=title, show_header=False, box=None)
    for label, bar, v in bar_rows(curve, total):
        plot.add_row(_plain(label), Text(bar, style=style), _plain(v))
    console.print(plot)


def render_attendance(att: dict, console: Console) -> None:
    """Minutes at each place from the position log, or why there are none."""
    from rich.table import Table

    T = _plain
    if att.get("available"):
        t = Table(title=T(f"Attendance ({att['samples']} samples from {Path(att['log']).name}): "
                          f"minutes at each place"))
        for c in ("place", "who (minutes, first seen)"):
            t.add_column(c, overflow="fold")
        for place, who in att["places"].items():
            cell = ", ".join(f"{n} {d['minutes']:g} ({d['first'][11:16]})"
                             for n, d in sorted(who.items(), key=lambda kv: -kv[1]["minutes"]))
            t.add_row(T(place), T(cell))
        console.print(t)
    else:
        console.print(T(f"Attendance: {att['why']}"))


def render_usage(u: dict, console: Console) -> None:
    """The call budget and the whole run's model use by purpose, or why there is none."""
    from rich.table import Table

    T = _plain
    if u.get("available"):
        from game.llm.accounting import Budget, format_budget

        for line in format_budget(cast(Budget, u)):
            console.print(T(line))
        t = Table(title="Model use over the whole run (totals, not per day)")
        for c in ("purpose", "calls", "sent", "evaluated", "completion", "s/call", "failures"):
            t.add_column(c, justify="left" if c == "purpose" else "right")
        rows = dict(u["run_totals"]["by_purpose"])
        rows["TOTAL (chat)"] = u["run_totals"]["chat"]
        for p, x in rows.items():
            t.add_row(T(p), str(x["calls"]), str(x["prompt_tokens_sent"]), str(x["tokens_evaluated"]),
                      str(x["completion_tokens"]), str(x["mean_latency_s"]), str(x["failures"]))
        console.print(t)
    else:
        console.print(T(f"Model use: {u['why']}"))


def render_place_fit(pf: dict, console: Console) -> None:
    """The place-fit measure: the share of actions in a place that fits, impossible object states."""
    from rich.text import Text

    if not pf.get("available"):
        console.print(Text(f"Place fit: {pf.get('why', 'not measured')}"))
        return
    share = "n/a" if pf["share"] is None else f"{pf['share']:.0%}"
    console.print(Text(f"Place fit: {share} of {pf['judged']} judged actions in a place that fits "
                       f"({pf['unjudged']} not in the table); impossible object states: "
                       f"{pf['impossible_states']} of {pf['object_changes']} changes and "
                       f"{pf.get('action_states', 0)} states set by actions"))
    for src, x in pf["by_source"].items():
        console.print(Text(f"  {src or '?'}: {x['fit']} of {x['judged']}"))
    for m in pf["misfits"][:6]:
        console.print(Text(f"  misfit: {m}"))
    for m in pf["impossible_examples"][:6]:
        console.print(Text(f"  impossible: {m}"))


def cli_report(args: argparse.Namespace) -> int:
    from game.engine.saves import SaveError

    try:
        report = build_report(args.save, track_spec=getattr(args, "track", None), at=getattr(args, "at", None))
    except SaveError as e:
        echo(f"town report: {one_line(e)}", file=sys.stderr)
        return 2
    except ValueError as e:
        echo(f"town report: {one_line(e)}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        try:
            echo(dumps(report, indent=2))
        except BrokenPipeError:  # `town report --json | head`
            sys.stderr.close()
        return 0
    from rich.console import Console

    render(report, Console())
    return 0
