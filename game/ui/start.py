"""The start screen: the model server starting, the town loading, and then the residents planning
their day before the clock starts (``game.engine.decisions.prepare``), each plan shown as it comes.  Enter
starts the town before every plan came: the rest go on in their lanes, as any decision in play."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer, Label, ProgressBar, Static

from game.ui.text import clean, plain

PLANS_SHOWN = 6  # the last plans that came, one line each (the box fits 80x24 with them)
LINE = 58  # a plan's line is cut to the box's width (64 less its border and padding)


class StartScreen(Screen[None]):
    """Shown while the model server starts, the town loads and the first day plans come."""

    BINDINGS = [Binding("enter", "start_now", "Start now", show=False)]

    def compose(self) -> ComposeResult:
        with Vertical(id="start-box"):
            yield Static(Text("Town", style="bold"), id="start-title")
            yield Static(Text("A generative-agents town in your terminal", style="italic"))
            yield Label("starting…", id="start-stage")
            yield ProgressBar(total=None, show_eta=False, id="start-progress")
            yield Static("", id="start-plans")
            yield Static("", id="start-error")
        yield Footer()

    stage: str = "starting…"
    fraction: float | None = None
    error: str | None = None

    def __init__(self) -> None:
        super().__init__()
        self.plans: list[tuple[str, str]] = []  # (who, the first blocks of its day), as they came
        self.start_now: Callable[[], None] | None = None  # set while the plans come: Enter calls it

    def on_mount(self) -> None:
        # after the first refresh: the bar's own mount would undo an earlier update
        self.call_after_refresh(self.set_progress, self.stage, self.fraction)
        self.call_after_refresh(self._show_plans)
        if self.error:
            self.set_error(self.error)

    def set_progress(self, stage: str, fraction: float | None) -> None:
        self.stage, self.fraction = stage, fraction
        try:
            label = self.query_one("#start-stage", Label)
            bar = self.query_one("#start-progress", ProgressBar)
        except NoMatches:  # not composed yet, or already replaced by the town
            return
        label.update(plain(stage, single_line=True))
        if fraction is None:
            bar.update(total=None)
        else:
            bar.update(total=100, progress=max(0.0, min(1.0, fraction)) * 100)

    def add_plan(self, who: str, plan: str) -> None:
        """One resident's plan came (``plan`` empty: none from the model, its routine meanwhile)."""
        self.plans.append((who, plan))
        self._show_plans()

    def waiting_for_plans(self, start_now: Callable[[], None] | None) -> None:
        """While the plans come, Enter starts the town at once (None: no more)."""
        self.start_now = start_now
        self._show_plans()

    def _show_plans(self) -> None:
        try:
            target = self.query_one("#start-plans", Static)
        except NoMatches:
            return
        text = self.plans_text()
        target.display = bool(text.plain)  # nothing planned yet: no room taken
        target.update(text)

    def plans_text(self) -> Text:
        """The last plans that came, one plain line each (a name or a plan is never markup)."""
        t = Text(end="", no_wrap=True, overflow="ellipsis")
        for who, plan in self.plans[-PLANS_SHOWN:]:
            name = clean(who, single_line=True)
            words = clean(plan, single_line=True) if plan else "no plan from the model yet: its routine meanwhile"
            room = max(8, LINE - len(name) - 2)
            if len(words) > room:
                words = words[:room - 1].rstrip() + "…"
            t.append_text(plain(f"{name}: ", "bold"))
            t.append_text(plain(words, "" if plan else "dim"))
            t.append("\n")
        if self.start_now is not None:
            t.append("Enter: start now (the rest plan while the town runs)", style="dim")
        return t

    def action_start_now(self) -> None:
        if self.start_now is not None:
            self.start_now()
            self.start_now = None
            self._show_plans()

    def set_error(self, message: str) -> None:
        self.error = message
        try:
            target = self.query_one("#start-error", Static)
        except NoMatches:
            return
        t = Text(end="")
        t.append("Could not start: ", style="bold red")
        t.append(plain(message))
        t.append("\n\nPress q to quit.", style="dim")
        target.update(t)
