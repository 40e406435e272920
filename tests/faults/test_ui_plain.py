"""Model and player text on the screen: the town log and the model status line print hostile text
as plain characters (markup shown literally, no escape sequence reaches the terminal).  Drives the
real widgets inside a bare Textual app (the game's own screens are covered in tests/ui)."""

from __future__ import annotations

import re

from textual.app import App, ComposeResult

from game.engine.events import LogLine
from game.llm.api import ModelStatus
from game.ui.widgets import ModelLine, TownLog

from .hostile import ESCAPES, INJECTION, MARKUP

TERMINAL_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
TEXTS = [f"{m} {e} {i}" for m, e, i in zip(MARKUP * 3, ESCAPES * 2, INJECTION * 2)]


class Bare(App):
    def compose(self) -> ComposeResult:
        yield TownLog(id="log")
        yield ModelLine(id="model")


def _strip_text(strip) -> str:
    return "".join(seg.text for seg in strip)


async def test_log_and_model_line_show_plain_text():
    app = Bare()
    async with app.run_test(size=(200, 40)) as pilot:
        log = app.query_one(TownLog)
        for n, text in enumerate(TEXTS):
            log.add("Day 1, 07:00:00", LogLine("conversation", text, who=f"Zed {ESCAPES[n % len(ESCAPES)]}"))
        model = app.query_one(ModelLine)
        model.show(ModelStatus(url="x", model="[blink]m\x1b[5m", reachable=False,
                               last_error="[bold red]down[/] \x1b]52;c;eA==\x07 \ud800"))
        await pilot.pause()
        shown = [_strip_text(s) for s in log.lines]
        everything = "\n".join(shown)
        assert not TERMINAL_UNSAFE.search(everything), repr(TERMINAL_UNSAFE.search(everything))
        for m in ("[bold red]ALERT[/bold red]", "[link=file:///etc/passwd]click[/link]", "[@click=app.quit]quit[/]"):
            assert m in everything.replace("\n", "") or m in "".join(log.history), f"{m} not shown literally"
        rendered = model.render()
        plain_model = getattr(rendered, "plain", str(rendered))
        assert not TERMINAL_UNSAFE.search(plain_model)
        assert "[bold red]down[/]" in plain_model or "[bold red]" in plain_model
    assert app.return_code in (None, 0)


async def test_model_line_shows_the_servers_idle_share_only_when_measured():
    app = Bare()
    async with app.run_test(size=(200, 40)) as pilot:
        model = app.query_one(ModelLine)
        model.show(ModelStatus(url="x", model="m", spare=0.634, idle_s=12.0))
        await pilot.pause()
        assert "idle 63%" in str(getattr(model.render(), "plain", model.render()))
        model.show(ModelStatus(url="x", model="m"))  # a replay, a fake: nobody measured it
        await pilot.pause()
        assert "idle" not in str(getattr(model.render(), "plain", model.render()))
