"""Replay controls: watching a recorded run (``game.replay``) has its own keys: jump back and
forth, go to a time, fork a live town from the moment on screen."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.app import App

from game.engine.events import LogLine
from game.engine.saves import save_name
from game.ui.actions import PlayerActions
from game.ui.main_screen import Widgets
from game.ui.messages import Ticked
from game.ui.panels import clock_text
from game.ui.screens import AskScreen
from game.ui.session import Session
from game.ui.text import clean


class ReplayControls:
    """Owns the fork asked for (``fork_wanted``, ``fork_path``); the model session makes it
    (game/ui/worker.py)."""

    def __init__(self, app: App[int], session: Session, widgets: Widgets, player: PlayerActions,
                 saves_dir: Path) -> None:
        self.app = app
        self.session = session
        self.widgets = widgets
        self.player = player
        self.saves_dir = saves_dir
        self.fork_wanted = asyncio.Event()  # watching a recording: the player asked for a live town
        self.fork_path: Path | None = None

    def jump(self, minutes: int) -> None:
        run = self.session.replay
        if run is not None:
            self.seek(run.at + int(minutes) * run.steps_per_minute())

    def go_to_time(self) -> None:
        def done(text: str | None) -> None:
            run = self.session.replay
            if not text or run is None:
                return
            try:
                step = run.step_at(text)
            except ValueError as e:
                self.app.notify(clean(str(e), single_line=True), title="Not a time", severity="warning")
                return
            self.seek(step)

        self.app.push_screen(AskScreen("Go to", "a time: 14:30, or day 1 09:00", "in the recorded run"), done)

    def seek(self, step: int) -> None:
        """Jump the watched run to ``step`` (backwards too): the whole picture at once."""
        self.app.run_worker(self._seek(step), group="seek", exclusive=True, exit_on_error=False)

    async def _seek(self, step: int) -> None:
        run = self.session.replay
        if run is None:
            return
        before = run.at
        frame = await run.seek(step)
        if run is not self.session.engine:
            return
        log = self.widgets.town_log
        if log is not None and frame.step != before:
            log.add(frame.clock, LogLine("system", f"jumped to {frame.clock}"))
        self.app.post_message(Ticked(frame))

    def fork(self) -> None:
        """A live town from the moment on screen: saved under saves/, then run by the model."""
        run = self.session.replay
        if run is None or self.fork_wanted.is_set():
            return
        self.player.set_speed("pause")
        stamp = "".join(c if c.isalnum() else "-" for c in clock_text(run)).strip("-").lower()
        self.saves_dir.mkdir(parents=True, exist_ok=True)
        self.fork_path = self.saves_dir / save_name(f"fork-{stamp or 'run'}")
        self.app.notify("Forking: starting the model…", timeout=4)
        self.fork_wanted.set()
