"""The engine worker: the model session, the town it runs, one ``Ticked`` message per tick, and
the one place failures are shown (``_report_error``).

The engine runs in one async worker on the app's loop: it calls ``engine.step()`` at the chosen
speed and awaits between ticks, so the model calls (asyncio tasks started by the engine) progress
while the screen stays responsive.  Every failure of a worker or a model call is reported in one
place: a ``GameError`` by its message, anything else with its type; a notification, the town log
and the model status line.  The town keeps running."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from textual import work
from textual.worker import Worker, WorkerState

from game.engine.api import EngineView
from game.engine.events import LogLine, TickResult
from game.engine.pace import TICK_DELAY as PACE_DELAY
from game.errors import GameError
from game.llm.api import LLMError
from game.ui.main_screen import MainScreen
from game.ui.mapview import PLAYER, Actor
from game.ui.messages import EngineFailed, Ticked
from game.ui.screens import StartScreen
from game.ui.text import clean

# seconds between ticks at each speed (the game's own rates, game/engine/pace.py); "max" runs as
# fast as decisions allow
TICK_DELAY = dict(PACE_DELAY, max=0.0)
MAX_WAIT = 5.0  # at "max", the longest the clock waits for the next answer before ticking anyway
MAX_MIN_DELAY = 0.01  # at "max", at most 100 ticks a second, so keys and frames stay smooth
PAUSED_POLL = 0.1  # while paused, how often to collect replies and command results


class EngineWorker:
    """Owns ``engine``, ``llm`` and what the last tick said (clock, decisions waiting, last error)."""

    def progress(self, *args: Any, **kwargs: Any) -> None:
        """The model layer's progress callback: any mix of a text and a fraction in [0, 1]."""
        stage = " ".join(clean(a, single_line=True) for a in args if isinstance(a, str)) or \
            str(kwargs.get("stage") or kwargs.get("message") or "")
        fracs = [float(a) for a in args if isinstance(a, (int, float)) and not isinstance(a, bool)]
        frac = kwargs.get("fraction", fracs[0] if fracs else None)
        if frac is not None and frac > 1:
            frac = frac / 100.0
        if threading.get_ident() != self._town_thread:
            self.call_from_thread(self._show_progress, stage, frac)
        else:
            self._show_progress(stage, frac)

    def _show_progress(self, stage: str, fraction: float | None) -> None:
        if self.start_screen.is_attached:
            self.start_screen.set_progress(stage or "starting…", fraction)
        elif stage:  # forking a watched run: the map is on screen already
            self.notify(stage, timeout=3)

    @work(group="model", exit_on_error=False)
    async def model_session(self) -> None:
        """Holds the model (and the embedded server) open for the app's whole life.  Watching a
        recorded run needs no model: it is started only when the player forks a live town."""
        if self.host.watch:
            self.progress("replaying the recorded run…", None)
            watched = self.host.watch_engine()
            self.install_engine(watched)
            if watched.warning:
                self.notify(clean(watched.warning), title="Another version", severity="warning", timeout=12)
            await self._fork_wanted.wait()
        self.progress("starting the language model…", None)
        async with self.host.open_llm(self.progress) as llm:
            self.llm = llm
            if self._fork_path is not None and self.replaying:
                watched = self.engine
                self.progress(f"forking a live town at {clock_text(watched)}…", None)
                engine = await watched.fork(llm, self._fork_path)
                self.save_path = self._fork_path
                old, self.engine = self.engine, engine
                self._town_wake.set()
                self.install_engine(engine)
                self.notify(f"A live town from {clock_text(engine)}, saved as {self._fork_path.name}",
                            title="Forked")
                try:
                    await asyncio.wait_for(old.aclose(), 5)
                except Exception as e:  # the replay is dropped either way
                    self._report_error(e, "fork")
                await self._town_closing.wait()
                return
            if self.save_path is not None:
                self.progress(f"loading {self.save_path.name}…", None)
                engine = await self.host.load_engine(self.save_path, llm)
            else:
                self.progress("building the town…", None)
                engine = await self.host.new_engine(llm)
            self.install_engine(engine)
            await self._town_closing.wait()

    def install_engine(self, engine: EngineView) -> None:
        self.engine = engine
        self.refresh_bindings()
        here = engine.positions()
        self.residents = {r.name: r for r in getattr(engine.town, "residents", []) if r.name in here}
        for name in here:  # a resident with no spec still gets a glyph
            if name != PLAYER and name not in self.residents:
                self.residents[name] = None
        self.selected_name = None
        self.last_clock = clock_text(engine)
        screen = MainScreen(engine)
        if isinstance(self.screen, (StartScreen, MainScreen)):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def on_main_ready(self) -> None:
        mv = self.map_view
        if mv is None:
            return
        actors = []
        for name, pos in self.engine.positions().items():
            actors.append(self._actor(name, pos))
        mv.set_actors(actors)
        mv.controlled = mv.follow = self.controlled  # a save may hold a visitor or an embodied resident
        for b in self.engine.snapshot().bubbles:  # what everyone is doing now
            mv.set_bubble(b.who, b.emoji)
        self._update_clock()
        self.panel_dirty = True
        self._poll()
        self.start_engine()

    def _actor(self, name: str, pos: tuple[int, int]) -> Actor:
        if name == PLAYER:
            return Actor(PLAYER, "@", "bright_white", tuple(pos))
        spec = self.residents.get(name)
        glyph = clean(getattr(spec, "glyph", "") or name[:1], single_line=True)[:1] or "?"
        return Actor(name, glyph, getattr(spec, "colour", "") or "white", tuple(pos))

    def start_engine(self) -> None:
        self._town_engine_worker = self.run_engine()

    @work(group="engine", exclusive=True, exit_on_error=False)
    async def run_engine(self) -> None:
        engine = self.engine
        while engine is self.engine:
            speed = self.speed
            if speed == "pause":
                # the clock stands still; replies and command results still arrive
                self.post_message(Ticked(engine.poll()))
                self._town_wake.clear()
                try:
                    await asyncio.wait_for(self._town_wake.wait(), PAUSED_POLL)
                except TimeoutError:
                    pass
                continue
            try:
                if engine.is_replay:
                    result = await engine.step_async()
                else:
                    result = engine.step()
            except LLMError as e:  # a model failure: shown, and the town goes on
                self.post_message(EngineFailed(e, "model"))
                await asyncio.sleep(self.tick_delay["normal"])
                continue
            self.post_message(Ticked(result))
            if speed == "max":
                if result.waiting_on_model:  # as fast as decisions allow: wait for the next answer
                    try:
                        await asyncio.wait_for(engine.wait_any(), MAX_WAIT)
                    except TimeoutError:
                        pass
                else:
                    await asyncio.sleep(MAX_MIN_DELAY)
            else:  # the pace policy slows the clock while the model lags (game/engine/pace.py)
                _, backlog = engine.lead()
                delay = self.governor.delay(self.tick_delay[speed], backlog, engine.routine_wait_min())
                await self._rest(engine, delay)

    async def _rest(self, engine: EngineView, seconds: float) -> None:
        """Wait for the next tick; the words of a reply to the player are shown as they come, not
        at the next tick (the engine's ``heard`` event: collected with ``poll``)."""
        heard = engine.heard
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                await asyncio.wait_for(heard.wait(), left)
            except TimeoutError:
                return
            heard.clear()
            self.post_message(Ticked(engine.poll()))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state != WorkerState.ERROR:
            return
        error = event.worker.error
        where = event.worker.group
        self._report_error(error, where)
        if where == "engine" and self.engine is not None:
            self.set_speed("pause")
            self.start_engine()  # waits, paused, until the player resumes
        elif where == "model" and self.engine is None:  # the town never started
            self.exit_code = 1
            self.start_screen.set_progress("stopped", 0.0)
            self.start_screen.set_error(str(error))

    def on_engine_failed(self, message: EngineFailed) -> None:
        self._report_error(message.error, message.where)

    def _report_error(self, error: BaseException | None, where: str) -> None:
        """The one place where failures are shown: a notification and the status line."""
        if isinstance(error, GameError):  # the game's own failures say what happened in words
            text = str(error)
        else:
            text = f"{type(error).__name__}: {error}" if error is not None else "unknown error"
        self.show_error(text, where)

    def show_error(self, text: str, where: str, *, log_it: bool = True) -> None:
        text = clean(text, single_line=True)
        self.last_error = text
        if where == "model" and self.engine is None:
            label = "Could not start"
        else:
            label = {"engine": "The town stopped", "model": "The model failed"}.get(where, "Error")
        self.notify(text, title=label + (" (paused: space resumes)" if where == "engine" else ""),
                    severity="error", timeout=8)
        log = self.town_log
        if log is not None and log_it:
            log.add(self.last_clock, LogLine("error", text))
        self._poll()

    def on_ticked(self, message: Ticked) -> None:
        r: TickResult = message.result
        self.ticks += 1
        self.last_clock = r.clock
        self.last_waiting = r.waiting_on_model
        mv, log = self.map_view, self.town_log
        if mv is None or log is None:
            return
        sel = self.selected_name
        for m in r.moves:
            if m.who not in mv.actors:
                mv.add_actor(self._actor(m.who, m.dst))
            else:
                mv.move(m.who, m.dst)
            if m.who != PLAYER and self.first_move_at is None:
                self.first_move_at = time.monotonic()
            if m.who == sel:
                self.panel_dirty = True
        for b in r.bubbles:
            mv.set_bubble(b.who, b.emoji)
            if b.who == sel:
                self.panel_dirty = True
        for u in r.utterances:
            shown = self.talk is not None and self.talk.on_utterance(u)
            if u.final:
                log.add(r.clock, LogLine("conversation", f"(to {u.listener}) {u.text}", u.speaker))
            del shown
        # object changes reach the log through the engine's own LogLine, which names the object in
        # words ("the stove in the kitchen of the Okafor house"); the map needs nothing from them
        for line in r.log:
            log.add(r.clock, line)
            if line.kind == "error":  # a failed decision: the resident carries on with its routine
                self.show_error(line.text, "model", log_it=False)
            if line.who == sel:
                self.panel_dirty = True
        if self.visitor and PLAYER not in mv.actors:
            self._place_visitor()
        self._update_clock()

    def _update_clock(self) -> None:
        bar = self.clock_bar
        if bar is None:
            return
        bar.clock = self.last_clock
        bar.speed = self.speed
        bar.controlled = self.embodied or self.visitor
        bar.waiting = self.last_waiting
        engine = self.engine
        bar.lead = engine.lead()[0] if engine is not None else None
        bar.slowed = self.governor.label() if self.speed in ("normal", "fast") else ""
        bar.replay = self.replaying
        mv = self.map_view
        bar.follow = mv.follow if mv is not None and mv.follow not in (None, self.controlled) else None
        bar.update_bar()

    def _poll(self) -> None:
        """Twice a second: the model status line and (if anything changed) the side panel."""
        model = self.model_line
        if model is not None:
            status = None
            if self.llm is not None:
                try:
                    status = self.llm.status()
                except Exception as e:  # the status call itself failing is worth showing
                    self.last_error = clean(str(e), single_line=True)
            idle = ("no model: watching a recording (n forks a live town)" if self.replaying
                    else "model: starting…")
            model.show(status, None if status is not None and status.last_error else self.last_error,
                       idle_text=idle)
        if self.panel_dirty:
            self.refresh_panel()
        talk = self.talk
        if talk is not None and talk.started and not talk.ended and self.engine is not None:
            try:
                card = self.engine.inspect(talk.resident)
            except Exception:
                card = None
            if card is not None and card.conversation is None:
                talk.ended_by_town()

    def refresh_panel(self) -> None:
        panel = self.resident_panel
        if panel is None:
            return
        self.panel_dirty = False
        name = self.selected_name
        if name is None or self.engine is None:
            panel.show(None)
            return
        try:
            card = self.engine.inspect(name)
        except Exception as e:
            self._report_error(e, "inspect")
            return
        spec = self.residents.get(name)
        panel.show(card, getattr(spec, "glyph", ""), getattr(spec, "colour", ""))


def clock_text(engine: EngineView) -> str:
    """The engine's clock as one plain line (``Day 1, 07:30:00``)."""
    return clean(engine.clock.text(), single_line=True)
