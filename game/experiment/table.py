"""The paper's table, this run beside Park et al. (2023)'s numbers, printed as a rich table (as
``town report`` prints its tables: cells measured in terminal cells, so a name with wide characters
stays aligned; every text from the town or the model is plain text, never markup).

The paper (Generative Agents, section 7 "End-to-end evaluation"): 25 agents, two game days, one
seeded idea each for Isabella's Valentine's Day party and Sam's candidacy for mayor.  Those who knew
of the party went from 1 of 25 (4%) to 12 (48%), of the candidacy from 4% to 32%; the network
density from 0.167 to 0.74; 5 of the 12 invited came to the party; 1.3% of the answers were
hallucinated.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from game.text import clean

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console

# the width given to a console that is not a terminal (a log, a pipe, a string): the table is only
# as wide as its cells, and this only keeps a long row from being wrapped at 80 columns
WIDE = 1000

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


def render_table(result: dict, console: Console) -> None:
    """Print the table and the answers on a rich ``Console``."""
    from rich.table import Table
    from rich.text import Text

    # names, places, answers and error texts come from the town and the model: plain text, never
    # markup (a resident called "[bold]Ada" prints as those letters), never terminal escapes
    def line(text: str) -> None:
        console.print(Text(clean(text)), soft_wrap=True)  # a long line is the terminal's to wrap

    line(f"{result['scenario']}: {result['town']}, {len(result['residents'])} residents, "
         f"{result['start'][:16].replace('T', ' ')} to {result['end'][:16].replace('T', ' ')} "
         f"({result['game_days']:g} game days, {result['ticks']} ticks, {result['pace']})")
    console.print()
    table = Table()
    for head in ("measure", "this run", "Park et al. 2023"):
        table.add_column(Text(head))
    for row in rows(result):
        table.add_row(*(Text(clean(c)) for c in row))
    console.print(table)
    if result["errors"]:
        console.print()
        line(f"errors during the run: {len(result['errors'])} (first: {result['errors'][0]})")
    console.print()
    line("answers (verdict, backed by a memory?):")
    for a in result["answers"]:
        if a["verdict"] == "unscored":
            continue
        if a["verdict"] == "no answer":
            line(f"  {a['resident']}: no answer (the model failed) - {a['question'][:60]}")
            continue
        backing = (f"learned: {a['how']}" + (f" by {a['source']}" if a["source"] else "")
                   + f" at {a['learned_at'][11:16]}") if a["backed"] else "no memory"
        line(f"  {a['resident']}: {a['verdict']} [{backing}] - {a['answer'][:100]}")


def print_table(result: dict) -> None:
    """``town experiment``'s table on stdout: the terminal's width on a terminal, unwrapped rows in
    a log or a pipe."""
    from rich.console import Console

    console = Console()
    if not console.is_terminal:
        console.width = WIDE
    render_table(result, console)


def format_table(result: dict, width: int = WIDE) -> str:
    """The table as the text ``print_table`` writes to a log (no colour, no escapes)."""
    from rich.console import Console

    buf = io.StringIO()
    render_table(result, Console(file=buf, width=width, color_system=None, force_terminal=False,
                                 force_jupyter=False, legacy_windows=False, emoji=False))
    return buf.getvalue().rstrip("\n")
