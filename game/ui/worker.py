"""The engine worker: the model session, the town it runs, and one ``Ticked`` message per tick.

The engine runs in one async worker on the app's loop: the paced loop (``game.engine.running.pace.run_paced``,
the one ``town run`` uses too) calls ``engine.step()`` at the chosen speed and awaits between ticks,
so the model calls (asyncio tasks started by the engine) progress while the screen stays
responsive.  Every failure of a worker or a model call is shown in one place
(``Panels.report_error``): a notification, the town log and the model status line.  The town keeps
running."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

from textual.app import App
from textual.worker import Worker, WorkerState

from game.engine.api import EngineView, LiveEngine, Preparable, Replayable
from game.engine.events import PrepStep, TickResult
from game.engine.running.pace import AS_FAST, Governor, run_paced
from game.engine.running.pace import TICK_DELAY as PACE_DELAY
from game.llm.api import LLM, LLMError
from game.ui.actions import PlayerActions
from game.ui.host import GameHost
from game.ui.main_screen import MainScreen
from game.ui.messages import EngineFailed, Ticked
from game.ui.panels import Panels, clock_text
from game.ui.replay_controls import ReplayControls
from game.ui.session import Session
from game.ui.start import StartScreen
from game.ui.text import clean

# seconds between ticks at each speed (the game's own rates, game/engine/running/pace.py); "max" runs as
# fast as decisions allow
TICK_DELAY = dict(PACE_DELAY, max=AS_FAST)
PAUSED_POLL = 0.1  # while paused, how often to collect replies and command results


class EngineWorker:
    """Owns the model session (``model_session``: the model, then the town started, loaded or
    forked, ``install_engine``) and the loop that runs the town (``run_engine``)."""

    def __init__(self, app: App[int], session: Session, panels: Panels, player: PlayerActions,
                 replay: ReplayControls, host: GameHost, governor: Governor, tick_delay: dict[str, float]) -> None:
        self.app = app
        self.session = session
        self.panels = panels
        self.player = player
        self.replay = replay
        self.host = host
        self.governor = governor
        self.tick_delay = tick_delay
        self.start_screen = StartScreen()
        self.thread = threading.get_ident()  # the app's thread: progress from another is handed over
        self.engine_worker: Worker[None] | None = None

    def start(self) -> None:
        """The app is mounted: the start screen, and the model session behind it."""
        self.thread = threading.get_ident()
        self.app.push_screen(self.start_screen)
        self.app.run_worker(self.model_session(), group="model", exit_on_error=False)

    def progress(self, *args: object, **kwargs: object) -> None:
        """The model layer's progress callback: any mix of a text and a fraction in [0, 1]."""
        stage = " ".join(clean(a, single_line=True) for a in args if isinstance(a, str)) or \
            str(kwargs.get("stage") or kwargs.get("message") or "")
        fracs = [float(a) for a in args if isinstance(a, (int, float)) and not isinstance(a, bool)]
        given = kwargs.get("fraction", fracs[0] if fracs else None)
        frac = float(given) if isinstance(given, (int, float)) else None
        if frac is not None and frac > 1:
            frac = frac / 100.0
        if threading.get_ident() != self.thread:
            self.app.call_from_thread(self.show_progress, stage, frac)
        else:
            self.show_progress(stage, frac)

    def show_progress(self, stage: str, fraction: float | None) -> None:
        if self.start_screen.is_attached:
            self.start_screen.set_progress(stage or "starting…", fraction)
        elif stage:  # forking a watched run: the map is on screen already
            self.app.notify(stage, timeout=3)

    async def model_session(self) -> None:
        """Holds the model (and the embedded server) open for the app's whole life.  Watching a
        recorded run needs no model: it is started only when the player forks a live town."""
        session = self.session
        if self.host.watch:
            self.progress("replaying the recorded run…", None)
            watched = self.host.watch_engine()
            self.install_engine(watched)
            if watched.warning:
                self.app.notify(clean(watched.warning), title="Another version", severity="warning", timeout=12)
            await self.replay.fork_wanted.wait()
        self.progress("starting the language model…", None)
        async with self.host.open_llm(self.progress) as llm:
            session.llm = llm
            watched_run = session.replay
            if self.replay.fork_path is not None and watched_run is not None:
                await self.fork(watched_run, llm, self.replay.fork_path)
            else:
                if session.save_path is not None:
                    self.progress(f"loading {session.save_path.name}…", None)
                    engine = await self.host.load_engine(session.save_path, llm)
                else:
                    self.progress("building the town…", None)
                    engine = await self.host.new_engine(llm)
                await self.prepare(engine)
                self.install_engine(engine)
            await session.closing.wait()

    async def prepare(self, engine: EngineView) -> None:
        """Before the clock starts, the residents up or soon up plan their day (game/engine/decisions/prepare.py),
        each plan shown on the start screen as it comes, so that the town's first minute is the
        model's, not a slowed routine.  Enter starts the town before all came (the rest go on in
        their lanes).  A failure is shown and the town starts all the same."""
        if not isinstance(engine, Preparable) or engine.lockstep:
            return
        start, enough = self.start_screen, asyncio.Event()

        def shown(step: PrepStep) -> None:
            if step.total:
                self.show_progress(f"the residents plan their day: {step.done} of {step.total}",
                                   step.done / step.total)
            if step.name:
                start.add_plan(step.name, step.plan)

        start.waiting_for_plans(enough.set)
        try:
            await engine.prepare(progress=shown, enough=enough)
        except Exception as e:  # the town starts anyway, its lanes ask again (test_start_plans.py)
            self.panels.report_error(e, "prepare")
        finally:
            start.waiting_for_plans(None)

    async def fork(self, watched: Replayable, llm: LLM, path: Path) -> None:
        """The live town forked from the watched run at the moment on screen, saved as ``path``."""
        self.progress(f"forking a live town at {clock_text(watched)}…", None)
        engine = await watched.fork(llm, path)
        self.session.save_path = path
        old = self.swap_engine(engine)
        self.app.notify(f"A live town from {clock_text(engine)}, saved as {path.name}", title="Forked")
        await self.close_engine(old, "fork")

    def swap_engine(self, engine: EngineView) -> EngineView | None:
        """``engine`` in place of the town running (whose loop stops at its next turn); returns
        the old one, for ``close_engine``."""
        old, self.session.engine = self.session.engine, engine
        self.session.wake.set()
        self.install_engine(engine)
        return old

    async def close_engine(self, old: EngineView | None, where: str) -> None:
        """A town replaced: closed, its decisions in flight dropped (a failure is shown)."""
        if old is None:
            return
        try:
            await asyncio.wait_for(old.aclose(), 5)
        except TimeoutError as e:  # (aclose gathers its tasks' own errors) its decisions are dropped either way
            self.panels.report_error(e, where)

    def install_engine(self, engine: EngineView) -> None:
        """``engine`` on screen: a new main screen for it, which starts it once mounted (``on_main_ready``)."""
        self.session.engine = engine
        self.app.refresh_bindings()
        self.panels.take_town(engine)
        screen = MainScreen(engine)
        if isinstance(self.app.screen, (StartScreen, MainScreen)):
            self.app.switch_screen(screen)
        else:
            self.app.push_screen(screen)

    def on_main_ready(self) -> None:
        engine = self.session.engine
        if engine is None or self.panels.widgets.map_view is None:
            return
        self.panels.draw_town(engine)
        self.start_engine()

    def start_engine(self) -> None:
        self.engine_worker = self.app.run_worker(self.run_engine(), group="engine", exclusive=True,
                                                 exit_on_error=False)

    async def run_engine(self) -> None:
        engine = self.session.engine
        if engine is not None:
            await run_paced(engine, ScreenTicks(engine, self.app, self.session, self.tick_delay), self.governor)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state != WorkerState.ERROR:
            return
        error = event.worker.error
        where = event.worker.group
        self.panels.report_error(error, where)
        if where == "engine" and self.session.engine is not None:
            self.player.set_speed("pause")
            self.start_engine()  # waits, paused, until the player resumes
        elif where == "model" and self.session.engine is None:  # the town never started
            self.session.exit_code = 1
            self.start_screen.set_progress("stopped", 0.0)
            self.start_screen.set_error(str(error))


class ScreenTicks:
    """The screen's runner of the paced loop (``game.engine.running.pace.Ticking``) for one engine: it
    runs while that engine is the session's, at the session's speed; each tick is posted as one
    ``Ticked``; while paused, replies and command results still arrive."""

    def __init__(self, engine: EngineView, app: App[int], session: Session, tick_delay: dict[str, float]) -> None:
        self.engine = engine
        self.app = app
        self.session = session
        self.tick_delay = tick_delay
        self.replay = engine if isinstance(engine, Replayable) and engine.is_replay else None
        self.live = engine if isinstance(engine, LiveEngine) else None

    def running(self) -> bool:
        return self.engine is self.session.engine

    def rate(self) -> float | None:
        speed = self.session.speed
        if speed == "pause":  # no tick: ``tick`` waits for a key or a reply instead
            return None
        return AS_FAST if speed == "max" else self.tick_delay[speed]

    async def tick(self) -> TickResult | None:
        if self.session.speed == "pause":  # the clock stands still; replies and command results still arrive
            self.app.post_message(Ticked(self.engine.poll()))
            wake = self.session.wake
            wake.clear()
            try:
                await asyncio.wait_for(wake.wait(), PAUSED_POLL)
            except TimeoutError:
                pass
            return None
        try:
            if self.replay is not None:
                return await self.replay.step_async()
            if self.live is not None:
                return self.live.step()
            await asyncio.sleep(PAUSED_POLL)  # (a town that cannot step: nothing to run)
        except LLMError as e:  # a model failure: shown, and the town goes on
            self.app.post_message(EngineFailed(e, "model"))
            await asyncio.sleep(self.tick_delay["normal"])
        return None

    def ticked(self, result: TickResult) -> None:
        self.app.post_message(Ticked(result))

    async def rest(self, delay: float, left: float) -> None:
        """Wait for the next tick; the words of a reply to the player are shown as they come, not
        at the next tick (the engine's ``heard`` event: collected with ``poll``)."""
        heard = self.engine.heard
        end = time.monotonic() + left
        while (left := end - time.monotonic()) > 0:
            try:
                await asyncio.wait_for(heard.wait(), left)
            except TimeoutError:
                return
            heard.clear()
            self.app.post_message(Ticked(self.engine.poll()))
