"""The modal dialogues (the start screen is in start.py)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import ClassVar, TypeVar

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input, Label, RichLog, Static

from game.engine.events import Utterance
from game.ui.host import SaveInfo
from game.ui.messages import Said, TalkClosed, Typed
from game.ui.text import clean, plain

R = TypeVar("R")  # what a dialog gives back (esc: None)


class _Dialog(ModalScreen[R | None]):
    BINDINGS = [Binding("escape", "cancel", "Close")]
    AUTO_FOCUS: ClassVar[str | None] = "Input"

    def action_cancel(self) -> None:
        self.dismiss(None)


class QuitScreen(_Dialog[str]):
    """Quitting, the save failed: the town is still here, so say why and let the player choose
    (retry, save elsewhere, quit without saving, or stay) instead of losing it silently."""

    BINDINGS = [Binding("r", "choose('retry')", "Retry"), Binding("e", "choose('elsewhere')", "Save elsewhere"),
                Binding("d", "choose('discard')", "Quit without saving"),
                Binding("escape", "choose('stay')", "Back to the town")]
    AUTO_FOCUS = None

    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="quit-dialog"):
            yield Label(Text("The town could not be saved", style="bold"))
            yield Label(plain(self.error or "the save failed"), classes="error")
            yield Label(Text("r: try again   e: save elsewhere   d: quit without saving   esc: back to the town",
                             style="dim"))

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


class VisitorScreen(_Dialog[tuple[str, str]]):
    """Enter the town as a visitor: a name and one line about you.

    Tab, shift+tab and enter are the form's own (priority) keys: they act when the key arrives,
    in turn with the letters around them.  Keys that come in one burst (typed fast over a slow
    link, or sent by ``tmux send-keys "Tess" Tab "a painter"``) are handed to the field focused
    when each arrives, long before the field takes them in; a tab or an enter left to the field
    moved the focus only after the letters behind it had gone to the name too ("Tessa painter")."""

    BINDINGS = [
        Binding("tab", "field(1)", "Next field", show=False, priority=True),
        Binding("shift+tab", "field(-1)", "Previous field", show=False, priority=True),
        Binding("enter", "enter", "Walk in", show=False, priority=True),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Text("Walk into town", style="bold"))
            yield Input(placeholder="your name", id="visitor-name", max_length=40)
            yield Input(placeholder="one line about you (who you are, why you came)", id="visitor-about",
                        max_length=200)
            yield Label("", id="visitor-error", classes="error")
            yield Label(Text("enter: walk in   esc: cancel", style="dim"))

    def action_field(self, step: int) -> None:
        if step > 0:
            self.focus_next(Input)
        else:
            self.focus_previous(Input)

    def action_enter(self) -> None:
        """Enter in the name field goes on to the line about you (unless it is written already);
        otherwise the form is sent, once both fields have taken in the keys sent before this one."""
        name_field = self.query_one("#visitor-name", Input)
        about_field = self.query_one("#visitor-about", Input)
        # each field's keys wait in its own queue: a callback queued behind them runs after them
        if self.focused is name_field and not about_field.value.strip():
            self.set_focus(about_field)  # at once (a widget's focus() waits its turn)
            name_field.call_later(self._named)
            return
        about_field.call_later(name_field.call_later, self._send)

    def _typed_name(self) -> str:
        return clean(self.query_one("#visitor-name", Input).value, single_line=True).strip()

    def _no_name(self) -> None:
        self.query_one("#visitor-error", Label).update("Please give a name.")
        self.query_one("#visitor-name", Input).focus()

    def _named(self) -> None:
        if not self._typed_name():
            self._no_name()

    def _send(self) -> None:
        if not self.is_current:  # sent already (enter twice)
            return
        name = self._typed_name()
        about = clean(self.query_one("#visitor-about", Input).value, single_line=True).strip()
        if not name:
            self._no_name()
            return
        self.dismiss((name, about or "a visitor"))


class AskScreen(_Dialog[str]):
    """One line of free text (whisper, object state, save name)."""

    def __init__(self, title: str, placeholder: str, hint: str = "", value: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.placeholder = placeholder
        self.hint = hint
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(plain(self.title_text, "bold", single_line=True))
            if self.hint:
                yield Label(plain(self.hint, "dim"))
            yield Input(value=self.value, placeholder=self.placeholder, id="ask-input", max_length=300)
            yield Label(Text("enter: send   esc: cancel", style="dim"))

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        text = clean(event.value, single_line=True).strip()
        if text:
            self.dismiss(text)


class TalkScreen(_Dialog[None]):
    """A conversation with one resident; their reply appears as it is written."""

    BINDINGS = [Binding("escape", "cancel", "End conversation")]

    def __init__(self, speaker: str, resident: str) -> None:
        super().__init__()
        self.speaker = speaker
        self.resident = resident
        self.partial: dict[str, str] = {}  # conversation/speaker -> text so far
        self.lines: list[tuple[str, str]] = []
        self.started = False  # a line was said
        self.ended = False  # the town ended it (the resident left, the reply failed)
        # what is typed goes to the town now and then, so the resident gets its reply ready
        self._typed_at = 0.0  # when the input last changed
        self._sent = ""  # the text last sent
        self._sent_at = 0.0

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog talk"):
            t = Text(end="")
            t.append("Talking with ", style="bold")
            t.append(plain(self.resident, "bold", single_line=True))
            t.append("  (as ", style="dim")
            t.append(plain(self.speaker, "dim", single_line=True))
            t.append(")", style="dim")
            yield Label(t)
            yield RichLog(markup=False, wrap=True, min_width=20, id="talk-log")
            yield Static("", id="talk-partial")
            yield Input(placeholder=f"say something to {clean(self.resident, single_line=True)}…",
                        id="talk-input", max_length=300)
            yield Label(Text("enter: say   esc: end the conversation", style="dim"))

    TYPING_PAUSE = 0.3  # seconds without a key: what is typed is sent
    TYPING_EVERY = 1.0  # and at least this often while typing goes on

    def on_mount(self) -> None:
        self.set_interval(0.25, self._send_typed)

    @on(Input.Changed, "#talk-input")
    def _typing(self, event: Input.Changed) -> None:
        self._typed_at = time.monotonic()

    def _send_typed(self) -> None:
        """Tell the town what the player has typed so far, after a short pause or now and then
        while they type on (never on every key: each is a request to the model)."""
        try:
            text = clean(self.query_one("#talk-input", Input).value, single_line=True).strip()
        except NoMatches:
            return
        now = time.monotonic()
        if not text or text == self._sent or self.ended:
            return
        if now - self._typed_at >= self.TYPING_PAUSE or now - self._sent_at >= self.TYPING_EVERY:
            self._sent, self._sent_at = text, now
            self.post_message(Typed(self.resident, text))

    def _line(self, who: str, text: str) -> Text:
        t = Text(end="")
        t.append(plain(who, "bold cyan" if who == self.resident else "bold", single_line=True))
        t.append(": ")
        t.append(plain(text))
        return t

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        text = clean(event.value, single_line=True).strip()
        if not text:
            return
        event.input.value = ""
        self._sent = ""
        self.started = True
        self.ended = False
        self.add_line(self.speaker, text)
        self.post_message(Said(self.resident, text))
        self.query_one("#talk-partial", Static).update(
            Text(f"{clean(self.resident, single_line=True)} is thinking…", style="italic dim"))

    def add_line(self, who: str, text: str) -> None:
        self.lines.append((who, text))
        self.query_one("#talk-log", RichLog).write(self._line(who, text))

    def on_utterance(self, u: Utterance) -> bool:
        """Show ``u`` if it belongs to this conversation; True when it did."""
        if u.speaker == self.speaker:
            return u.speaker != self.resident and self.resident in (u.listener or "")
        if u.speaker != self.resident:
            return False
        try:
            partial = self.query_one("#talk-partial", Static)
        except NoMatches:  # the talk is being closed (or the app is): nothing left to show it on
            return False
        if u.final:
            self.partial.pop(u.conversation_id, None)
            partial.update("")
            self.add_line(u.speaker, u.text)
        else:
            self.partial[u.conversation_id] = u.text
            partial.update(self._line(u.speaker, u.text + "▌"))
        return True

    def ended_by_town(self, asleep: bool = False) -> None:
        """The engine ended the conversation (shown once; saying more starts a new one); ``asleep``:
        the resident is asleep, and the line says so."""
        if self.ended:
            return
        self.ended = True
        self.partial.clear()
        self.query_one("#talk-partial", Static).update("")
        who = clean(self.resident, single_line=True)
        self.query_one("#talk-log", RichLog).write(
            Text(f"({who} is asleep: the conversation has ended)" if asleep
                 else f"(the conversation with {who} has ended)", style="dim italic"))

    def action_cancel(self) -> None:
        if self.started and not self.ended:
            self.post_message(TalkClosed(self.resident))
        self.dismiss(None)


class LoadScreen(_Dialog[Path]):
    """Saves in the saves folder with town, day, time and residents."""

    AUTO_FOCUS = "DataTable"

    def __init__(self, saves: list[SaveInfo]) -> None:
        super().__init__()
        self.saves = saves

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog load"):
            yield Label(Text("Load a town", style="bold"))
            if not self.saves:
                yield Label(Text("No saves yet (ctrl+s saves this town).", style="dim"))
            table: DataTable[str | Text] = DataTable(cursor_type="row", id="load-table")
            yield table
            yield Label(Text("enter: load   esc: cancel", style="dim"))

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("file", "town", "time", "residents")
        for i, s in enumerate(self.saves):
            if s.error:
                table.add_row(plain(s.path.name), plain("unreadable", "red"), plain(s.error, "red"),
                              "", key=str(i))
                continue
            who = ", ".join(s.residents[:4]) + (f" +{len(s.residents) - 4}" if len(s.residents) > 4 else "")
            table.add_row(plain(s.path.name), plain(s.town), plain(s.clock),
                          plain(f"{len(s.residents)}: {who}"), key=str(i))
        table.focus()

    @on(DataTable.RowSelected)
    def _chosen(self, event: DataTable.RowSelected) -> None:
        s = self.saves[int(event.row_key.value or 0)]
        if s.error:
            self.notify(s.error, severity="error")
            return
        self.dismiss(s.path)


HELP = [
    ("Walking in", [
        ("v", "enter the town as a visitor (name + one line about you)"),
        ("arrows / w a s d", "walk (the visitor, or the resident you embody)"),
        ("t", "talk to the resident next to you"),
    ]),
    ("Minds", [
        ("x", "whisper to the selected resident (their inner voice)"),
        ("b", "embody the selected resident / hand it back"),
        ("o", "change an object's state in words"),
    ]),
    ("Looking", [
        ("tab / shift+tab", "select the next / previous resident"),
        ("click", "select the resident under the mouse"),
        ("f", "camera: follow the selected resident / you"),
        ("p", "show / hide the side panel (folded in a narrow terminal)"),
        ("ctrl+p", "command palette: go to, whisper to, embody anyone; save, load"),
    ]),
    ("Time and files", [
        ("space", "pause / resume"), ("1 2 3 4", "pause, normal, fast, as fast as decisions allow"),
        ("ctrl+s / ctrl+l", "save / load"), ("q", "quit (saves first)"),
    ]),
]


class HelpScreen(_Dialog[None]):
    AUTO_FOCUS = "Button"

    def compose(self) -> ComposeResult:
        keys = Table.grid(padding=(0, 2))  # a long line wraps under its own column, not the keys
        keys.add_column(style="bold", no_wrap=True)
        keys.add_column()
        for title, rows in HELP:
            keys.add_row(Text(title, style="bold underline"), "")
            for key, what in rows:
                keys.add_row("  " + key, what)
            keys.add_row("", "")
        keys.add_row(Text("esc closes this.", style="dim"), "")
        with Vertical(classes="dialog help"):
            with VerticalScroll():
                yield Static(keys)
            yield Button("Close", id="help-close")

    @on(Button.Pressed, "#help-close")
    def _close(self) -> None:
        self.dismiss(None)
