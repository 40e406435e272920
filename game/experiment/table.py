"""The paper's table, this run beside Park et al. (2023)'s numbers, as plain text.

The paper (Generative Agents, section 7 "End-to-end evaluation"): 25 agents, two game days, one
seeded idea each for Isabella's Valentine's Day party and Sam's candidacy for mayor.  Those who knew
of the party went from 1 of 25 (4%) to 12 (48%), of the candidacy from 4% to 32%; the network
density from 0.167 to 0.74; 5 of the 12 invited came to the party; 1.3% of the answers were
hallucinated.
"""

from __future__ import annotations

PAPER = {
    "party": "4% -> 48%",
    "candidacy": "4% -> 32%",
    "density": "0.167 -> 0.74",
    "attendance": "5 of 12 invited",
    "hallucination": "1.3%",
}


def _pct(x: float | None) -> str:
    """4% for 1 of 25, 1.3% for 1 of 75, as the paper writes them."""
    if x is None:
        return "-"
    text = f"{x * 100:.1f}" if x < 0.1 else f"{x * 100:.0f}"
    return (text[:-2] if text.endswith(".0") else text) + "%"


def rows(result: dict) -> list[tuple[str, str, str]]:
    """(measure, this run, the paper) for every line of the table."""
    out: list[tuple[str, str, str]] = []
    for d in result["diffusion"]:
        n = d["residents"]
        paper = PAPER.get(d["paper"] or "", "")
        if d["by_interview"] is not None:
            out.append((f"knew of {d['info']} (interviews)",
                        f"{_pct(d['start_share'])} -> {_pct(d['by_interview_share'])} "
                        f"({d['start']} -> {d['by_interview']} of {n})", paper))
            paper = ""
        out.append((f"knew of {d['info']} (memories)",
                    f"{_pct(d['start_share'])} -> {_pct(d['by_memory_share'])} "
                    f"({d['start']} -> {d['by_memory']} of {n})", paper))
    den = result["density"]
    out.append(("network density", f"{den['start']:.3f} -> {den['end']:.3f}", PAPER["density"]))
    att = result.get("attendance")
    if att:
        extra = f" (+{len(att['uninvited_came'])} not invited)" if att["uninvited_came"] else ""
        seen = "" if att["observed"] else " (the run did not reach the event)"
        out.append((f"attendance at {att['place']}",
                    f"{len(att['invited_came'])} of {len(att['invited'])} invited{extra}{seen}",
                    PAPER["attendance"]))
    h = result["hallucination"]
    failed = f"; {h['no_answer']} not answered" if h.get("no_answer") else ""
    out.append(("invented answers", f"{_pct(h['share'])} ({h['invented']} of {h['scored']} scored{failed})"
                if h["scored"] else "- (no scored questions)", PAPER["hallucination"]))
    u = result["model_use"]
    if u.get("available"):
        note = " (recorded run)" if u.get("from_recording") else ""
        out.append(("chat calls per resident-day", f"{u['calls_per_resident_day']:g}{note}", ""))
        out.append(("tokens per resident-day", f"{u['tokens_per_resident_day']:,}{note}", ""))
        if u.get("evaluated_per_resident_day") is not None:
            out.append(("  of them evaluated by the server", f"{u['evaluated_per_resident_day']:,}{note}", ""))
    else:
        out.append(("model use", u.get("why", "not available"), ""))
    led = result["model_led"]
    out.append(("model-led share", f"{_pct(led['share'])} of waking resident-minutes"
                if led.get("share") is not None else "-", ""))
    if led.get("decision_lag_p50_min") is not None:
        out.append(("decision lag p50 / p90", f"{led['decision_lag_p50_min']:g} / "
                    f"{led['decision_lag_p90_min']:g} game min", ""))
    return out


def format_table(result: dict) -> str:
    head = ("measure", "this run", "Park et al. 2023")
    body = rows(result)
    w = [max(len(r[i]) for r in [head, *body]) for i in range(3)]
    line = lambda r: "  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip()  # noqa: E731
    lines = [f"{result['scenario']}: {result['town']}, {len(result['residents'])} residents, "
             f"{result['start'][:16].replace('T', ' ')} to {result['end'][:16].replace('T', ' ')} "
             f"({result['game_days']:g} game days, {result['ticks']} ticks, {result['pace']})",
             "", line(head), line(tuple("-" * x for x in w)), *[line(r) for r in body]]
    if result["errors"]:
        lines += ["", f"errors during the run: {len(result['errors'])} (first: {result['errors'][0]})"]
    lines += ["", "answers (verdict, backed by a memory?):"]
    for a in result["answers"]:
        if a["verdict"] == "unscored":
            continue
        if a["verdict"] == "no answer":
            lines.append(f"  {a['resident']}: no answer (the model failed) - {a['question'][:60]}")
            continue
        backing = (f"learned: {a['how']}" + (f" by {a['source']}" if a["source"] else "")
                   + f" at {a['learned_at'][11:16]}") if a["backed"] else "no memory"
        lines.append(f"  {a['resident']}: {a['verdict']} [{backing}] - {a['answer'][:100]}")
    return "\n".join(lines)
