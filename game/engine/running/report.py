"""What ``town run`` says at its end (game/engine/running/headless.py): the run's figures as JSON-ready
data (``make_report``) and as lines of text (``format_report``)."""

from __future__ import annotations

from datetime import datetime

from game.engine.decisions.ledger import format_lead, lead_since, mind_counts
from game.engine.engine import Engine
from game.llm.accounting import accounting_of
from game.llm.api import LLM
from game.llm.gauge import format_gauge


def spare_summary(engine: Engine) -> dict[str, int]:
    """Reactions and talks past the daily caps on the server's spare time (game/engine/decisions/capacity.py)."""
    counts = mind_counts(m.stats for m in engine.core.minds.values())
    return {"allowances_given": engine.capacity.given,
            "reactions_past_floor": counts.get("react_spare", 0),
            "talks_past_floor": counts.get("talk_spare", 0),
            "crowd_sights": engine.perceiver.quiet_in_crowd,  # seen, not reacted to: the server crowded
            "sights_after_talk": engine.perceiver.quiet_after_talk}  # ... just talked with (no new talk yet)


def accounting_dict(llm: LLM) -> dict | None:
    """The model's accounting as data (None where it keeps none)."""
    acc = accounting_of(llm)
    return acc.to_dict() if acc is not None else None


def make_report(llm: LLM, engine: Engine, start: datetime, real_s: float, waited_s: float, errors: int,
                save: str | None, baseline: dict | None = None) -> dict:
    """The run's figures; the call budget as ``game.llm.accounting.budget`` defines it (chat calls
    per resident per whole game day, worst resident beside the average, tokens evaluated beside
    tokens sent), the same definition ``town report`` uses."""
    from game.llm.accounting import budget

    acc = accounting_dict(llm)
    game_days = (engine.clock.now - start).total_seconds() / 86400.0
    start_day = (start.date() - engine.clock.start.date()).days + 1
    b = budget(acc, list(engine.core.residents), start=start, end=engine.clock.now,
               first_date=engine.clock.start.date(), baseline=baseline)
    return {
        "town": engine.town.name, "residents": sorted(engine.core.residents),
        "clock": engine.clock.text(), "from": start.isoformat(), "game_days": round(game_days, 4),
        "real_seconds": round(real_s, 1),
        "seconds_waiting_on_model": round(waited_s, 1), "errors": errors,
        "budget": b, "save": save, "accounting": acc,
        "model_led": engine.core.ledger.summary(since=lead_since(start, start_day)),
        "rules_and_fallbacks": mind_counts(m.stats for m in engine.core.minds.values()),
        "model_server": _server_figures(llm),
    }


def _server_figures(llm: LLM) -> dict[str, object]:
    """The model server as the run left it: up or away, times brought back, calls asked again, and how fast
    it ran (``speed``: game/llm/gauge.py; None where it sent no timings)."""
    st = llm.status()
    return {"state": st.server, "restarts": st.restarts, "reasked": st.reasked, "stalled": st.stalled,
            "speed": st.gauge}


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
    server = r.get("model_server") or {}
    if server.get("restarts") or server.get("state") == "away":
        lines.append(f"the model server was brought back {server.get('restarts', 0)} times "
                     f"({server.get('reasked', 0)} calls asked again); now {server.get('state')}")
    if server.get("stalled"):
        lines.append(f"{server['stalled']} requests stood still in a server slot while it answered others, "
                     "and were asked again")
    if format_gauge(server.get("speed")):
        lines.append(format_gauge(server.get("speed")))
    if r.get("save"):
        lines.append(f"saved to {r['save']}")
    return "\n".join(lines)
