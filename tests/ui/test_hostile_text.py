"""Hostile text through the real app with notifications shown (``run_test(notifications=True)``;
Textual hides them by default, which is how a whisper of ``I will [/b] run`` could crash the game
unseen). Every input a player has, and a server's error, is fed markup, unbalanced tags, ``@click``
actions, ANSI/OSC escapes, bidi controls and a 10k-character line: the app must stay up, and every
toast, the town log, the palette and the panel must show the words as plain letters."""

from __future__ import annotations

import re

import pytest
from test_real_engine import FakeModelHost, ready, until
from textual.widgets._toast import Toast

from game.engine.events import Whisper
from game.llm.api import LLMError
from game.ui.app import MainScreen, TownApp
from game.ui.screens import AskScreen, VisitorScreen

pytestmark = pytest.mark.slow

UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
HOSTILE = [
    "I will [/b] run",  # the reported crash
    "[@click=app.quit]quit[/]",
    "[bold red]ALERT[/bold red] [/]",
    "[link=file:///etc/passwd]click[/link] [blink]x",
    "\\[escaped] [on red][reverse]boom",
    "red \x1b[31mred\x1b[0m clear\x1b[2J\x1b[H",
    "clipboard \x1b]52;c;ZWNobyBwd25lZA==\x07 title \x1b]0;owned\x07",
    "bidi \u202eevil\u202c \u2066iso\u2069 zero\u200bwidth",
    "8-bit \x9b31m csi and bell \x07",
    "w" * 10_000,
]


def _toasts_text(app) -> list[str]:
    return [str(t.render()) for t in app.screen.query(Toast)] + [
        str(t.render()) for s in app.screen_stack for t in s.query(Toast)]


def _assert_plain(texts: list[str]) -> None:
    for t in texts:
        assert not UNSAFE.search(t), repr(t[:200])


async def _ask(app, pilot, key: str, words: str) -> None:
    await pilot.press(key)
    await until(pilot, lambda: isinstance(app.screen, AskScreen) and bool(app.screen.query("Input")))
    app.screen.query_one("Input").value = words
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, MainScreen))
    await pilot.pause(0.05)


async def test_hostile_text_through_every_input_of_the_real_app(tmp_path):
    app = TownApp(FakeModelHost(), tmp_path / "saves", speed="pause", autosave_s=0)
    async with app.run_test(size=(160, 48), notifications=True) as pilot:
        await ready(app, pilot)
        engine = app.session.engine
        submitted = []
        real_submit = engine.submit
        engine.submit = lambda cmd: (submitted.append(cmd), real_submit(cmd))[1]  # type: ignore[method-assign]
        name = sorted(engine.core.residents)[0]
        app.panels.select(name, follow=False)
        # the reported crash first: a whisper with an unbalanced closing tag
        await _ask(app, pilot, "x", "I will [/b] run")
        assert app.is_running
        assert Whisper(name, "I will [/b] run") in submitted
        shown = "\n".join(_toasts_text(app))
        assert "I will [/b] run" in shown
        # every hostile string as a whisper and as an object sentence
        toasts: list[str] = []
        for words in HOSTILE:
            await _ask(app, pilot, "x", words)
            toasts += _toasts_text(app)
            await _ask(app, pilot, "o", f"the stove is {words}")
            toasts += _toasts_text(app)
            assert app.is_running, words[:40]
        _assert_plain(toasts)
        joined = "\n".join(toasts)
        for literal in ("[@click=app.quit]quit[/]", "[bold red]ALERT[/bold red]", "[link=file:///etc/passwd]"):
            assert literal in joined, literal
        # a server's error with markup and escapes, through the one error handler
        app.panels.report_error(LLMError("502 [bold]Bad[/] gateway \x1b]0;pwn\x07 [@click=app.quit]x[/]"), "model")
        await pilot.pause(0.05)
        assert app.is_running and "[@click=app.quit]x[/]" in "\n".join(_toasts_text(app))
        # save as a hostile name: the file name is made safe, the toast plain
        await pilot.press("ctrl+p")
        await pilot.pause(0.1)
        await pilot.press("escape")
        app.files.ask_save_as()
        await until(pilot, lambda: isinstance(app.screen, AskScreen) and bool(app.screen.query("Input")))
        app.screen.query_one("Input").value = "[@click=app.quit]\x1b[2J../../evil"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, MainScreen))
        saved = list((tmp_path / "saves").glob("*.save"))
        assert saved and all(p.parent == tmp_path / "saves" for p in saved)
        # the visitor's name and line about them
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, VisitorScreen) and len(app.screen.query("Input")) == 2)
        inputs = list(app.screen.query("Input"))
        inputs[0].value = "[b]Mal[/b] \x1b[31mory [@click=app.quit]"
        inputs[1].value = "[/] a visitor \u202eevil"
        await pilot.press("enter")
        await pilot.pause(0.2)
        if isinstance(app.screen, VisitorScreen):  # the form may need enter on the second field
            await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, MainScreen))
        await pilot.pause(0.2)
        assert app.is_running
        _assert_plain(_toasts_text(app))
        _assert_plain(["".join(seg.text for seg in strip) for strip in app.widgets.town_log.lines])
        # the command palette lists residents by name as plain text (search and discovery)
        app.panels.resident_names = lambda: ["[/b]Eve [@click=app.quit]", "\x1b[2JZed"]  # type: ignore[method-assign]
        await pilot.press("ctrl+p")
        await pilot.pause(0.2)
        await pilot.press(*"Whisper")
        await pilot.pause(0.5)
        assert app.is_running
        await pilot.press("escape")
        await pilot.pause(0.1)
    assert app.return_code in (None, 0)
