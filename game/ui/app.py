"""``town play``: the Textual app.

The engine runs in one async worker on the app's loop: it calls ``engine.step()`` at the chosen
speed and awaits between ticks, so the model calls (asyncio tasks started by the engine) progress
while the screen stays responsive.  Each tick becomes one ``Ticked`` message.  Every failure of a
worker or a model call is reported in one place (``_report_error``): a notification and the
model status line; the town keeps running.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer
from textual.worker import Worker, WorkerState

from game.engine.events import (
    Embody, EndConversation, EnterAsVisitor, LogLine, MovePlayer, OpenTalk, Release, SayToResident, Typing,
    SetObjectState, TickResult, Whisper,
)
from game.engine import CommandError
from game.engine.engine import TALK_RANGE
from game.errors import GameError
from game.llm.api import LLMError
from game.ui.commands import TownCommands
from game.ui.host import GameHost, RealHost, list_saves, maybe_await
from game.ui.mapview import PLAYER, Actor, MapView
from game.ui.screens import AskScreen, HelpScreen, LoadScreen, StartScreen, TalkScreen, VisitorScreen
from game.ui.text import clean
from game.text import one_line
from game.ui.messages import EngineFailed, MainReady, Said, Select, SelectStep, TalkClosed, Ticked, Typed, Walk
from game.ui.widgets import SPEEDS, ClockBar, ModelLine, ResidentPanel, TownLog

# seconds between ticks at each speed; "max" runs as fast as decisions allow
SAVE_SUFFIX = ".save"
TICK_DELAY = {"normal": 0.5, "fast": 0.1, "max": 0.0}
MAX_WAIT = 5.0  # at "max", the longest the clock waits for the next answer before ticking anyway
MAX_MIN_DELAY = 0.01  # at "max", at most 100 ticks a second, so keys and frames stay smooth
PAUSED_POLL = 0.1  # while paused, how often to collect replies and command results


class MainScreen(Screen[None]):
    """The map, the side panel (selected resident + town log), the clock and the model line."""

    BINDINGS = [
        Binding("up,w", "move(0,-1)", "Walk", show=False, priority=True),
        Binding("down,s", "move(0,1)", "Walk", show=False, priority=True),
        Binding("left,a", "move(-1,0)", "Walk", show=False, priority=True),
        Binding("right,d", "move(1,0)", "Walk", show=False, priority=True),
        Binding("tab", "select(1)", "Next", priority=True),
        Binding("shift+tab", "select(-1)", "Prev", show=False, priority=True),
    ]

    def __init__(self, engine: Any) -> None:
        super().__init__()
        self.engine = engine

    def compose(self) -> ComposeResult:
        yield ClockBar(getattr(self.engine.town, "name", "town"), id="clock")
        with Horizontal(id="body"):
            yield MapView(self.engine.town, id="map")
            with Vertical(id="side"):
                with VerticalScroll(id="panel-scroll") as scroll:
                    scroll.border_title = "resident"
                    yield ResidentPanel(id="panel")
                yield TownLog(id="log")
        yield ModelLine(id="model")
        yield Footer()

    def on_mount(self) -> None:
        self.post_message(MainReady())

    def action_move(self, dx: int, dy: int) -> None:
        self.post_message(Walk(dx, dy))

    def action_select(self, step: int) -> None:
        self.post_message(SelectStep(step))

    @on(MapView.ActorClicked)
    def _clicked(self, event: MapView.ActorClicked) -> None:
        if event.name != PLAYER:
            self.post_message(Select(event.name))


class TownApp(App[int]):
    CSS_PATH = "town.tcss"
    TITLE = "Town"
    COMMANDS = App.COMMANDS | {TownCommands}
    BINDINGS = [
        Binding("v", "visitor", "Visit"),
        Binding("t", "talk", "Talk"),
        Binding("x", "whisper", "Whisper"),
        Binding("b", "embody", "Embody"),
        Binding("o", "object", "Object"),
        Binding("f", "follow", "Camera"),
        Binding("space", "toggle_pause", "Pause"),
        Binding("1", "speed('pause')", "Pause", show=False),
        Binding("2", "speed('normal')", "Normal", show=False),
        Binding("3", "speed('fast')", "Fast", show=False),
        Binding("4", "speed('max')", "Max", show=False),
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+l", "load", "Load"),
        Binding("left_square_bracket", "jump(-10)", "-10 min", show=False),
        Binding("right_square_bracket", "jump(10)", "+10 min", show=False),
        Binding("left_curly_bracket", "jump(-60)", "-1 h", show=False),
        Binding("right_curly_bracket", "jump(60)", "+1 h", show=False),
        Binding("g", "go_to_time", "Go to"),
        Binding("n", "fork", "Fork"),
        Binding("question_mark,h", "help", "Help"),
        Binding("q", "quit_town", "Quit"),
    ]

    def notify(self, message: str, *, title: str = "", severity: Any = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Every notification, the app's and its screens', is plain text: a whisper, a name, an
        object sentence, a server's error or a path is shown as written, never parsed as markup
        (``[@click=app.quit]`` is just letters) and never with terminal escapes. ``markup`` is
        accepted for Textual's signature and ignored."""
        super().notify(clean(message, max_len=2000), title=one_line(title, 200), severity=severity,
                       timeout=timeout, markup=False)

    def __init__(self, host: GameHost, saves_dir: Path, *, autosave_s: float = 300.0,
                 tick_delay: dict[str, float] | None = None, speed: str = "normal") -> None:
        super().__init__()
        self.host = host
        self.saves_dir = Path(saves_dir)
        self.autosave_s = autosave_s
        self.tick_delay = dict(TICK_DELAY, **(tick_delay or {}))
        self.speed = speed
        self.llm: Any = None
        self.engine: Any = None
        self.save_path: Path | None = host.start_save
        self.resume_speed = "normal"  # what space resumes at: the speed it paused
        self.talk: TalkScreen | None = None
        self.last_clock = ""
        self.last_waiting = 0
        self.last_error: str | None = None
        self.ticks = 0
        self.panel_dirty = True
        self.first_move_at: float | None = None
        self.started_at = time.monotonic()
        self.residents: dict[str, Any] = {}
        self._town_closing = asyncio.Event()
        self._town_wake = asyncio.Event()
        self._town_thread = threading.get_ident()
        self._town_engine_worker: Worker[None] | None = None
        self.exit_code = 0
        self._fork_wanted = asyncio.Event()  # watching a recording: the player asked for a live town
        self._fork_path: Path | None = None

    # --- start-up --------------------------------------------------------------------------------

    def on_mount(self) -> None:
        self._town_thread = threading.get_ident()
        self.start_screen = StartScreen()
        self.push_screen(self.start_screen)
        self.model_session()
        self.set_interval(0.5, self._poll)
        if self.autosave_s > 0:
            self.set_interval(self.autosave_s, self._autosave)

    GAME_ACTIONS = frozenset({"visitor", "talk", "whisper", "embody", "object", "follow", "toggle_pause",
                              "speed", "save", "load"})
    LIVE_ACTIONS = frozenset({"visitor", "talk", "whisper", "embody", "object", "save", "load"})
    REPLAY_ACTIONS = frozenset({"jump", "go_to_time", "fork"})

    @property
    def replaying(self) -> bool:
        return bool(getattr(self.engine, "is_replay", False))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The game's keys are hidden (and do nothing) until a town is running; a recorded run being
        watched has its own keys (jump, go to, fork) instead of the ones that change a town."""
        if action in self.GAME_ACTIONS and self.engine is None:
            return False
        if action in self.REPLAY_ACTIONS and not self.replaying:
            return False
        if action in self.LIVE_ACTIONS and self.replaying:
            return False
        return True

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
        watch = getattr(self.host, "watch_engine", None)
        if watch is not None and getattr(self.host, "watch", None):
            self.progress("replaying the recorded run…", None)
            watched = await maybe_await(watch())
            self.install_engine(watched)
            if getattr(watched, "warning", None):
                self.notify(clean(watched.warning), title="Another version", severity="warning", timeout=12)
            await self._fork_wanted.wait()
        self.progress("starting the language model…", None)
        async with self.host.open_llm(self.progress) as llm:
            self.llm = llm
            if self._fork_path is not None and self.replaying:
                watched = self.engine
                self.progress(f"forking a live town at {_clock_text(watched)}…", None)
                engine = await watched.fork(llm, self._fork_path)
                self.save_path = self._fork_path
                old, self.engine = self.engine, engine
                self._town_wake.set()
                self.install_engine(engine)
                self.notify(f"A live town from {_clock_text(engine)}, saved as {self._fork_path.name}",
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

    def install_engine(self, engine: Any) -> None:
        self.engine = engine
        self.refresh_bindings()
        here = engine.positions()
        self.residents = {r.name: r for r in getattr(engine.town, "residents", []) if r.name in here}
        for name in here:  # a resident with no spec still gets a glyph
            if name != PLAYER and name not in self.residents:
                self.residents[name] = None
        self.selected_name = None
        self.last_clock = _clock_text(engine)
        screen = MainScreen(engine)
        if isinstance(self.screen, (StartScreen, MainScreen)):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    @on(MainReady)
    def main_ready(self) -> None:
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

    # --- the engine worker -----------------------------------------------------------------------

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
                except asyncio.TimeoutError:
                    pass
                continue
            try:
                if getattr(engine, "is_replay", False):
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
                    except asyncio.TimeoutError:
                        pass
                else:
                    await asyncio.sleep(MAX_MIN_DELAY)
            else:
                await self._rest(engine, self.tick_delay[speed])

    async def _rest(self, engine: Any, seconds: float) -> None:
        """Wait for the next tick; the words of a reply to the player are shown as they come, not
        at the next tick (the engine's ``heard`` event: collected with ``poll``)."""
        heard = getattr(engine, "heard", None)
        if heard is None:
            await asyncio.sleep(seconds)
            return
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            try:
                await asyncio.wait_for(heard.wait(), left)
            except asyncio.TimeoutError:
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

    # --- ticks -------------------------------------------------------------------------------------

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

    # --- widgets of the main screen ------------------------------------------------------------

    def _q(self, selector: str, kind: type) -> Any:
        for screen in self.screen_stack:
            if isinstance(screen, MainScreen):
                try:
                    return screen.query_one(selector, kind)
                except Exception:
                    return None
        return None

    @property
    def map_view(self) -> MapView | None:
        return self._q("#map", MapView)

    @property
    def town_log(self) -> TownLog | None:
        return self._q("#log", TownLog)

    @property
    def clock_bar(self) -> ClockBar | None:
        return self._q("#clock", ClockBar)

    @property
    def model_line(self) -> ModelLine | None:
        return self._q("#model", ModelLine)

    @property
    def resident_panel(self) -> ResidentPanel | None:
        return self._q("#panel", ResidentPanel)

    # --- who is who ------------------------------------------------------------------------------

    selected_name: str | None = None

    @property
    def embodied(self) -> str | None:
        """The resident the player speaks and walks for: the engine's, never a copy (a loaded save
        may hold one)."""
        return self.engine.embodied if self.engine is not None else None

    @property
    def visitor(self) -> str | None:
        """The visitor's name once the player walked in (the engine's)."""
        player = self.engine.player if self.engine is not None else None
        return player.name if player is not None else None

    @property
    def controlled(self) -> str | None:
        """The actor the arrow keys move: the embodied resident, else the visitor."""
        if self.embodied:
            return self.embodied
        return PLAYER if self.visitor else None

    @property
    def speaker_name(self) -> str:
        return self.embodied or self.visitor or "you"

    def resident_names(self) -> list[str]:
        return sorted(self.residents)

    def select(self, name: str | None, *, follow: bool = True) -> None:
        self.selected_name = name
        mv = self.map_view
        if mv is not None:
            mv.selected = name
            if follow and name is not None and self.controlled is None:
                mv.follow = name
        self.panel_dirty = True
        self.refresh_panel()
        self._update_clock()

    def select_step(self, step: int) -> None:
        names = self.resident_names()
        if not names:
            return
        cur = self.selected_name
        i = names.index(cur) + step if cur in names else (0 if step > 0 else -1)
        self.select(names[i % len(names)])

    def go_to(self, name: str) -> None:
        self.select(name, follow=False)
        mv = self.map_view
        if mv is not None:
            mv.follow = name
            self._update_clock()

    def _pos(self, name: str | None) -> tuple[int, int] | None:
        mv = self.map_view
        if mv is None or name not in mv.actors:
            return None
        return mv.actors[name].pos  # type: ignore[index]

    def neighbours(self) -> list[str]:
        """Residents within talking range of the controlled actor, nearest first."""
        me = self.controlled
        p = self._pos(me)
        mv = self.map_view
        if p is None or mv is None:
            return []
        near = []
        for name, a in mv.actors.items():
            if name in (me, PLAYER):
                continue
            d = max(abs(a.pos[0] - p[0]), abs(a.pos[1] - p[1]))
            if d <= TALK_RANGE:
                near.append((d, name))
        return [n for _, n in sorted(near)]

    # --- ways to play ------------------------------------------------------------------------------

    def submit(self, command: Any) -> bool:
        if self.engine is None:
            self.notify("The town is still starting.", severity="warning")
            return False
        try:
            self.engine.submit(command)
        except CommandError as e:  # the player asked for something that cannot be done now
            self.notify(clean(str(e), single_line=True), severity="warning", timeout=5)
            return False
        except Exception as e:  # anything else is a failure, shown in the one place
            self._report_error(e, "command")
            return False
        self._town_wake.set()  # a paused screen collects the result at once
        return True

    @on(Walk)
    def _walk(self, message: Walk) -> None:
        self.move_player(message.dx, message.dy)

    @on(SelectStep)
    def _select_step(self, message: SelectStep) -> None:
        self.select_step(message.step)

    @on(Select)
    def _select(self, message: Select) -> None:
        self.select(message.name)

    @on(Typed)
    def _typed(self, message: Typed) -> None:
        self.typing(message.resident, message.text)

    @on(Said)
    def _said(self, message: Said) -> None:
        self.say_to(message.resident, message.text)

    @on(TalkClosed)
    def _talk_closed(self, message: TalkClosed) -> None:
        self.end_conversation(message.resident)

    def move_player(self, dx: int, dy: int) -> None:
        who = self.controlled
        if who is None:
            self.notify("You are watching. Press v to walk into town, or b to embody a resident.",
                        timeout=3)
            return
        mv = self.map_view
        pos = self._pos(who)
        if mv is None or pos is None:
            return
        dst = (pos[0] + dx, pos[1] + dy)
        if not mv.walkable(dst):
            self.bell()
            return
        if self.submit(MovePlayer(dx, dy)):
            # the engine moves the player at once: draw it now, not at the next tick
            mv.move(who, self.engine.positions().get(who, dst))
            mv.follow = who

    def action_visitor(self) -> None:
        if self.engine is None:
            return
        if self.visitor:
            self.notify(f"You are already in town as {self.visitor}.")
            return

        def done(result: tuple[str, str] | None) -> None:
            if result is None:
                return
            name, about = result
            if self.submit(EnterAsVisitor(name, about)):
                self._place_visitor()
                self.notify(f"{name} walks into town. Arrows/WASD walk, t talks.")

        self.push_screen(VisitorScreen(), done)

    def _place_visitor(self) -> None:
        mv = self.map_view
        if mv is None:
            return
        pos = self.engine.positions().get(PLAYER)
        if pos is not None:
            mv.add_actor(self._actor(PLAYER, pos))
        if self.embodied is None:
            mv.controlled = PLAYER
            mv.follow = PLAYER
        self._update_clock()

    def action_talk(self) -> None:
        if self.controlled is None:
            self.notify("Walk in first (v), or embody a resident (b), then stand next to someone.")
            return
        near = self.neighbours()
        if not near:
            self.notify("No one is next to you. Walk up to a resident (x whispers from anywhere).")
            return
        who = self.selected_name if self.selected_name in near else near[0]
        self.open_talk(who)

    def open_talk(self, resident: str) -> None:
        # the conversation begins now: the resident stops to listen and gets its reply ready
        if not self.submit(OpenTalk(resident)):
            return
        self.talk = TalkScreen(self.speaker_name, resident)
        self.talk.started = True
        self._town_wake.set()

        def closed(_: Any) -> None:
            self.talk = None

        self.push_screen(self.talk, closed)

    def typing(self, resident: str, text: str) -> None:
        """What the player has typed so far (a hint to the town; nothing to tell the player)."""
        if self.engine is None:
            return
        try:
            self.engine.submit(Typing(resident, text))
        except CommandError:
            pass
        except Exception as e:  # noqa: BLE001 - a failure, shown in the one place
            self._report_error(e, "command")

    def say_to(self, resident: str, text: str) -> None:
        self.submit(SayToResident(resident, text))

    def end_conversation(self, resident: str) -> None:
        self.submit(EndConversation(resident))

    def action_whisper(self) -> None:
        name = self.selected_name
        if name is None:
            self.notify("Select a resident first (Tab, click, or ctrl+p → Whisper to …).")
            return
        self.ask_whisper(name)

    def ask_whisper(self, name: str) -> None:
        def done(text: str | None) -> None:
            if text and self.submit(Whisper(name, text)):
                self.notify(f"{name} hears a thought: “{text}”")

        self.push_screen(AskScreen(f"Whisper to {name}",
                                   "e.g. you will run for mayor",
                                   f"{name} takes these words as their own thought."), done)

    def action_embody(self) -> None:
        if self.embodied:
            self.release()
            return
        if self.selected_name is None:
            self.notify("Select a resident to embody first (Tab or click).")
            return
        self.embody(self.selected_name)

    def embody(self, name: str) -> None:
        if self.embodied == name:
            return
        if self.embodied:
            self.release()
        if self.submit(Embody(name)):
            mv = self.map_view
            if mv is not None:
                mv.controlled = name
                mv.follow = name
                mv.refresh()
            self.select(name, follow=False)
            self.notify(f"You are {name} now. Arrows walk, t talks, b hands {name} back.")

    def release(self) -> None:
        if not self.embodied:
            self.notify("You are not embodying anyone.")
            return
        name = self.embodied
        if self.submit(Release()):
            mv = self.map_view
            if mv is not None:
                mv.controlled = self.controlled
                mv.follow = self.controlled
                mv.refresh()
                for n in (name,):
                    if n in mv.actors:
                        mv._invalidate(mv.actors[n].pos[1])
            self._update_clock()
            self.notify(f"{name} is their own again.")

    def action_object(self) -> None:
        def done(text: str | None) -> None:
            if text and self.submit(SetObjectState(text)):
                self.notify(f"The world changes: {text}")

        self.push_screen(AskScreen("Change the world", "the stove in the Lin kitchen is on fire",
                                   "Say what is now true of an object; people nearby will notice."), done)

    def action_follow(self) -> None:
        mv = self.map_view
        if mv is None:
            return
        if mv.follow == self.selected_name or self.selected_name is None:
            mv.follow = self.controlled
        else:
            mv.follow = self.selected_name
        self._update_clock()

    # --- time ---------------------------------------------------------------------------------------

    def set_speed(self, speed: str) -> None:
        if speed not in SPEEDS:
            return
        self.speed = speed
        self._town_wake.set()
        self._update_clock()

    def action_speed(self, speed: str) -> None:
        self.set_speed(speed)

    def action_toggle_pause(self) -> None:
        if self.speed == "pause":
            self.set_speed(self.resume_speed)
        else:
            self.resume_speed = self.speed
            self.set_speed("pause")

    # --- files --------------------------------------------------------------------------------------

    def default_save_path(self) -> Path:
        if self.save_path is not None:
            return self.save_path
        name = clean(getattr(self.engine.town, "name", "town"), single_line=True) or "town"
        safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in name).strip("-") or "town"
        return self.saves_dir / f"{safe}{SAVE_SUFFIX}"

    def save_to(self, path: Path, *, quiet: bool = False) -> bool:
        if self.engine is None or self.replaying:  # a recording is not a town to save: fork it
            return False
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.engine.save(path)
        except Exception as e:
            self._report_error(e, "save")
            return False
        self.save_path = path
        if not quiet:
            self.notify(f"Saved to {path}")
        return True

    def action_save(self) -> None:
        if self.engine is not None:
            self.save_to(self.default_save_path())

    def ask_save_as(self) -> None:
        def done(name: str | None) -> None:
            if name:
                safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in name).strip("-.") or "town"
                if not safe.endswith(SAVE_SUFFIX):
                    safe += SAVE_SUFFIX
                self.save_to(self.saves_dir / safe)

        self.push_screen(AskScreen("Save as", "a name for this save", f"in {self.saves_dir}"), done)

    def _autosave(self) -> None:
        if self.engine is not None:
            self.save_to(self.default_save_path(), quiet=True)

    def action_load(self) -> None:
        if self.llm is None:
            return

        def done(path: Path | None) -> None:
            if path is not None:
                self.load_save(path)

        self.push_screen(LoadScreen(list_saves(self.host, self.saves_dir)), done)

    @work(group="load", exclusive=True, exit_on_error=False)
    async def load_save(self, path: Path) -> None:
        """Load ``path``; the current town keeps running until the save has loaded (a bad save
        is reported and changes nothing)."""
        self.notify(f"Loading {path.name}…", timeout=2)
        engine = await self.host.load_engine(path, self.llm)
        old, self.engine = self.engine, engine  # the old engine loop stops at its next turn
        self._town_wake.set()
        self.save_path = path
        self.install_engine(engine)
        aclose = getattr(old, "aclose", None)
        if aclose is not None:
            try:
                await asyncio.wait_for(aclose(), 5)
            except Exception as e:  # the old town's decisions are dropped either way
                self._report_error(e, "load")

    # --- watching a recorded run ------------------------------------------------------------------

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
        if not getattr(engine, "is_replay", False):
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
        stamp = "".join(c if c.isalnum() else "-" for c in _clock_text(self.engine)).strip("-").lower()
        self.saves_dir.mkdir(parents=True, exist_ok=True)
        self._fork_path = self.saves_dir / f"fork-{stamp or 'run'}{SAVE_SUFFIX}"
        self.notify("Forking: starting the model…", timeout=4)
        self._fork_wanted.set()

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    async def action_quit(self) -> None:
        """ctrl+q (Textual's quit) saves first too."""
        await self.action_quit_town()

    async def action_quit_town(self) -> None:
        """Quit, saving first (the save is where `town play SAVE` continues)."""
        if self.engine is not None:
            self.save_to(self.default_save_path(), quiet=True)
            engine, self.engine = self.engine, None
            aclose = getattr(engine, "aclose", None)
            if aclose is not None:
                try:
                    await asyncio.wait_for(aclose(), 5)
                except Exception:
                    pass
        self._town_closing.set()
        self.exit(return_code=self.exit_code)


def _clock_text(engine: Any) -> str:
    clock = getattr(engine, "clock", None)
    if clock is None:
        return ""
    text = getattr(clock, "text", None)
    return clean(text() if callable(text) else text or "", single_line=True)


def cli_play(args: Any) -> int:
    """`town play [TOWN_OR_SAVE] [--small] [--saves DIR]` plus the model flags."""
    saves = Path(getattr(args, "saves", None) or "saves")
    town = getattr(args, "town", None)
    if town and not Path(town).exists():
        print(f"town play: {town}: no such town folder, map or save file")
        return 2
    watch = getattr(args, "watch", None)
    if watch:  # a recorded run that cannot be watched is said here, before the screen starts
        from game.engine.manifest import ManifestError, RunManifest

        try:
            RunManifest.load(watch).check_start()
        except ManifestError as e:
            print(f"town play: {e}")
            return 2
    try:
        from game.llm.config import LLMConfig

        LLMConfig.from_args(args)  # bad flags are reported here, before the screen starts
    except ValueError as e:
        print(f"town play: {e}")
        return 2
    app = TownApp(RealHost(args), saves)
    app.run()
    return int(app.return_code or 0)
