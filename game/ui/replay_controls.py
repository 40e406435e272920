"""Replay controls: watching a recorded run (``game.replay``) has its own keys: jump back and
forth, go to a time, fork a live town from the moment on screen."""

from __future__ import annotations

from textual import work

from game.engine.events import LogLine
from game.engine.save import save_name
from game.ui.messages import Ticked
from game.ui.screens import AskScreen
from game.ui.text import clean
from game.ui.worker import clock_text


class ReplayControls:
    """Owns the fork asked for (``_fork_wanted``, ``_fork_path``); the model session makes it."""

    @property
    def replaying(self) -> bool:
        return self.engine is not None and self.engine.is_replay

    def action_jump(self, minutes: int) -> None:
        engine = self.engine
        if not self.replaying:
            return
        self.seek(engine.at + int(minutes) * engine.steps_per_minute())

    def action_go_to_time(self) -> None:
        def done(text: str | None) -> None:
            if not text or not self.replaying:
                return
            try:
                step = self.engine.step_at(text)
            except ValueError as e:
                self.notify(clean(str(e), single_line=True), title="Not a time", severity="warning")
                return
            self.seek(step)

        self.push_screen(AskScreen("Go to", "a time: 14:30, or day 1 09:00", "in the recorded run"), done)

    @work(group="seek", exclusive=True, exit_on_error=False)
    async def seek(self, step: int) -> None:
        """Jump the watched run to ``step`` (backwards too): the whole picture at once."""
        engine = self.engine
        if engine is None or not engine.is_replay:
            return
        before = engine.at
        frame = await engine.seek(step)
        if engine is not self.engine:
            return
        log = self.town_log
        if log is not None and frame.step != before:
            log.add(frame.clock, LogLine("system", f"jumped to {frame.clock}"))
        self.post_message(Ticked(frame))

    def action_fork(self) -> None:
        """A live town from the moment on screen: saved under saves/, then run by the model."""
        if not self.replaying or self._fork_wanted.is_set():
            return
        self.set_speed("pause")
        stamp = "".join(c if c.isalnum() else "-" for c in clock_text(self.engine)).strip("-").lower()
        self.saves_dir.mkdir(parents=True, exist_ok=True)
        self._fork_path = self.saves_dir / save_name(f"fork-{stamp or 'run'}")
        self.notify("Forking: starting the model…", timeout=4)
        self._fork_wanted.set()
