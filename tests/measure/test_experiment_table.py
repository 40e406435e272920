"""The experiment's table (issue 29): a rich table, aligned in terminal cells (wide characters), with
every name and answer from the town or the model printed as the letters it is (never markup)."""

from __future__ import annotations

import io

from rich.cells import cell_len
from rich.console import Console

from game.experiment.table import format_table, print_table, render_table, rows

BOX = "┏┃┡│└━─┗┣┠╇┻┳┯┷"


def result(**over) -> dict:
    r = {
        "scenario": "Measureville: [bold]a party[/bold]", "town": "Measureville",
        "residents": ["Ada Ito", "Ben Ito", "王小明"], "start": "2023-02-13T07:00:00",
        "end": "2023-02-13T09:00:00", "game_days": 0.08, "ticks": 720, "pace": "lockstep",
        "diffusion": [
            {"info": "派对 🎉", "residents": 3, "paper": "party", "start": 1, "start_share": 1 / 3,
             "by_interview": 2, "by_interview_share": 2 / 3, "by_memory": 3, "by_memory_share": 1.0},
            {"info": "[red]candidacy[/red]", "residents": 3, "paper": "candidacy", "start": 1,
             "start_share": 1 / 3, "by_interview": None, "by_interview_share": None, "by_memory": 1,
             "by_memory_share": 1 / 3},
        ],
        "density": {"start": 0.167, "end": 0.5},
        "attendance": {"place": "[link=https://x]咖啡馆[/link]", "invited": ["Ada Ito", "Ben Ito"],
                       "invited_came": ["Ada Ito"], "uninvited_came": ["王小明"], "observed": True},
        "hallucination": {"share": 0.5, "invented": 1, "scored": 2, "no_answer": 0},
        "model_use": {"available": False, "why": "[bold red]no usage[/] \x1b[31mred\x1b[0m"},
        "model_led": {"share": 0.75, "decision_lag_p50_min": 2, "decision_lag_p90_min": 9},
        "errors": ["model said [/b] \x1b]0;title\x07 no"],
        "answers": [
            {"resident": "[b]王小明[/b]", "verdict": "knows", "backed": True, "how": "told",
             "source": "[i]Ada Ito[/i]", "learned_at": "2023-02-13T07:05:00",
             "answer": "Yes, [link=https://evil]the party[/link] at 咖啡馆 \x1b[2J", "question": "Q?"},
            {"resident": "Ben Ito", "verdict": "no answer", "backed": False, "how": "", "source": "",
             "learned_at": "", "answer": "", "question": "Is there [blink]a party[/blink]?"},
        ],
    }
    r.update(over)
    return r


def table_lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln and ln[0] in BOX]


def test_wide_characters_stay_aligned():
    text = format_table(result())
    lines = table_lines(text)
    assert len(lines) == 4 + len(rows(result()))  # top, header, rule, the rows, bottom
    assert len({cell_len(ln) for ln in lines}) == 1, "\n".join(lines)
    # the column borders fall in the same cells on every row
    def borders(ln: str) -> list[int]:
        return [cell_len(ln[:i]) for i, ch in enumerate(ln) if ch in "┃│╇┳┻┯┷╋┿"]
    assert len({tuple(borders(ln)) for ln in lines[1:-1] if ln[0] in "┃│"}) == 1
    assert "knew of 派对 🎉 (interviews)" in text


def test_markup_from_the_model_and_the_town_prints_literally():
    text = format_table(result())
    for literal in ("Measureville: [bold]a party[/bold]", "[red]candidacy[/red]", "[link=https://x]咖啡馆[/link]",
                    "[bold red]no usage[/] red", "model said [/b]  no", "[b]王小明[/b]: knows",
                    "learned: told by [i]Ada Ito[/i] at 07:05", "[link=https://evil]the party[/link]",
                    "Ben Ito: no answer (the model failed) - Is there [blink]a party[/blink]?"):
        assert literal in text, literal
    assert "\x1b" not in text and "\x07" not in text


def test_a_narrow_terminal_wraps_cells_but_keeps_the_columns():
    buf = io.StringIO()
    render_table(result(), Console(file=buf, width=60, color_system=None, force_terminal=True))
    lines = table_lines(buf.getvalue())
    assert len(lines) > 4 + len(rows(result()))  # some rows took two lines
    assert {cell_len(ln) for ln in lines} == {60}


def test_printed_to_a_log_the_rows_are_not_wrapped_and_hold_no_escapes(capsys):
    print_table(result())
    out = capsys.readouterr().out
    assert out.rstrip("\n") == format_table(result())
    assert "\x1b" not in out and all(cell_len(ln) < 200 for ln in out.splitlines())

