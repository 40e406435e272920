"""What the main screen shows of the town: the actors on the map, the clock bar, the selected
resident's panel, the town log, the model line and the talk on screen; and the one place a failure
is shown (``Panels.report_error``: a notification, the town log and the model line)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from textual.notifications import SeverityLevel

from game.engine.api import EngineView
from game.engine.commands import CommandError
from game.engine.events import LogLine, TickResult
from game.engine.running.pace import Governor
from game.errors import GameError
from game.llm.api import ModelStatus
from game.ui.main_screen import Widgets
from game.ui.mapview import PLAYER, Actor, Pos
from game.ui.screens import TalkScreen
from game.ui.session import Session
from game.ui.text import clean


class Look(Protocol):
    """How a resident is drawn (the town's resident specs, ``game.world.residents``)."""

    name: str
    glyph: str
    colour: str


class Notify(Protocol):
    """The app's ``notify`` (plain text, never markup)."""

    def __call__(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
                 timeout: float | None = None) -> None: ...


class Panels:
    """Owns what the screen shows of the town: the residents' looks, the selected resident, the
    talk on screen, the last clock and error, and the tick count."""

    def __init__(self, session: Session, widgets: Widgets, governor: Governor, notify: Notify) -> None:
        self.session = session
        self.widgets = widgets
        self.governor = governor
        self.notify = notify
        self.looks: dict[str, Look | None] = {}  # every actor but the player; None: a resident with no spec
        self.selected_name: str | None = None
        self.talk: TalkScreen | None = None
        self.last_clock = ""
        self.last_waiting = 0
        self.last_error: str | None = None
        self.ticks = 0
        self.panel_dirty = True
        self.first_move_at: float | None = None  # when a resident first moved (a test of start-up)
        self.news = ServerNews(notify, self.log_line)

    # ------------------------------------------------------------------ a town comes on screen

    def take_town(self, engine: EngineView) -> None:
        """A new town (started, loaded or forked): its residents' looks; nobody selected."""
        here = engine.positions()
        self.looks = {r.name: r for r in engine.town.residents if r.name in here}
        for name in here:  # a resident with no spec still gets a glyph
            if name != PLAYER and name not in self.looks:
                self.looks[name] = None
        self.selected_name = None
        self.last_clock = clock_text(engine)

    def draw_town(self, engine: EngineView) -> None:
        """The main screen is mounted: everyone where they are, doing what they do now."""
        mv = self.widgets.map_view
        if mv is None:
            return
        mv.set_actors([self.actor(name, pos) for name, pos in engine.positions().items()])
        mv.controlled = mv.follow = self.session.controlled  # a save may hold a visitor or an embodied resident
        for b in engine.snapshot().bubbles:
            mv.set_bubble(b.who, b.emoji)
        self.update_clock()
        self.panel_dirty = True
        self.poll()

    def actor(self, name: str, pos: Pos) -> Actor:
        if name == PLAYER:
            return Actor(PLAYER, "@", "bright_white", (pos[0], pos[1]))
        look = self.looks.get(name)
        glyph = clean((look.glyph if look is not None else "") or name[:1], single_line=True)[:1] or "?"
        return Actor(name, glyph, (look.colour if look is not None else "") or "white", (pos[0], pos[1]))

    def place_visitor(self) -> None:
        mv, engine = self.widgets.map_view, self.session.engine
        if mv is None or engine is None:
            return
        pos = engine.positions().get(PLAYER)
        if pos is not None:
            mv.add_actor(self.actor(PLAYER, pos))
        if self.session.embodied is None:
            mv.controlled = PLAYER
            mv.follow = PLAYER
        self.update_clock()

    # ------------------------------------------------------------------ each tick

    def ticked(self, r: TickResult) -> None:
        self.ticks += 1
        self.last_clock = r.clock
        self.last_waiting = r.waiting_on_model
        mv, log = self.widgets.map_view, self.widgets.town_log
        if mv is None or log is None:
            return
        sel = self.selected_name
        for m in r.moves:
            if m.who not in mv.actors:
                mv.add_actor(self.actor(m.who, m.dst))
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
            if self.talk is not None:
                self.talk.on_utterance(u)
            if u.final:
                log.add(r.clock, LogLine("conversation", f"(to {u.listener}) {u.text}", u.speaker))
        # object changes reach the log through the engine's own LogLine, which names the object in
        # words ("the stove in the kitchen of the Okafor house"); the map needs nothing from them
        for line in r.log:
            log.add(r.clock, line)
            if line.kind == "error" and self.news.state != "away":  # a failed decision: the resident
                self.show_error(line.text, "model", log_it=False)  # carries on with its routine
            # (while the model is away every decision fails: the clock bar says so, once)
            if line.who == sel:
                self.panel_dirty = True
        if self.session.visitor and PLAYER not in mv.actors:
            self.place_visitor()
        self.update_clock()

    def update_clock(self) -> None:
        bar = self.widgets.clock_bar
        if bar is None:
            return
        session = self.session
        bar.clock = self.last_clock
        bar.speed = session.speed
        bar.controlled = session.embodied or session.visitor
        bar.waiting = self.last_waiting
        bar.lead = session.engine.lead()[0] if session.engine is not None else None
        bar.slowed = self.governor.label() if session.speed in ("normal", "fast") else ""
        bar.replay = session.replaying
        bar.model = "" if session.replaying else self.news.words
        mv = self.widgets.map_view
        bar.follow = mv.follow if mv is not None and mv.follow not in (None, session.controlled) else None
        bar.update_bar()

    def poll(self) -> None:
        """Twice a second: the model status line, news of the model server (on the start screen
        too) and (if anything changed) the side panel."""
        session = self.session
        status = None
        if session.llm is not None:
            status = session.llm.status()  # (figures it keeps: reading them cannot fail)
        if status is not None and self.news.seen(status):
            self.update_clock()
        model = self.widgets.model_line
        if model is not None:
            idle = ("no model: watching a recording (n forks a live town)" if session.replaying
                    else "model: starting…")
            model.show(status, None if status is not None and status.last_error else self.last_error,
                       idle_text=idle)
        if self.panel_dirty:
            self.refresh_panel()
        talk = self.talk
        if talk is not None and talk.started and not talk.ended and session.engine is not None:
            try:
                card = session.engine.inspect(talk.resident)
            except CommandError:  # (no such resident any more: nothing to end)
                card = None
            if card is not None and card.conversation is None:
                talk.ended_by_town(asleep=card.asleep)

    def refresh_panel(self) -> None:
        panel = self.widgets.resident_panel
        if panel is None:
            return
        self.panel_dirty = False
        name, engine = self.selected_name, self.session.engine
        if name is None or engine is None:
            panel.show(None)
            return
        try:
            card = engine.inspect(name)
        except Exception as e:  # the panel never stops the game: shown (test_play.py)
            self.report_error(e, "inspect")
            return
        look = self.looks.get(name)
        panel.show(card, look.glyph if look is not None else "", look.colour if look is not None else "")

    # ------------------------------------------------------------------ selection and camera

    def resident_names(self) -> list[str]:
        return sorted(self.looks)

    def select(self, name: str | None, *, follow: bool = True) -> None:
        self.selected_name = name
        mv = self.widgets.map_view
        if mv is not None:
            mv.selected = name
            if follow and name is not None and self.session.controlled is None:
                mv.follow = name
        self.panel_dirty = True
        self.refresh_panel()
        self.update_clock()

    def select_step(self, step: int) -> None:
        names = self.resident_names()
        if not names:
            return
        cur = self.selected_name
        i = names.index(cur) + step if cur in names else (0 if step > 0 else -1)
        self.select(names[i % len(names)])

    def go_to(self, name: str) -> None:
        self.select(name, follow=False)
        mv = self.widgets.map_view
        if mv is not None:
            mv.follow = name
            self.update_clock()

    # ------------------------------------------------------------------ failures

    def report_error(self, error: BaseException | None, where: str) -> None:
        """The one place where failures are shown: a notification and the status line."""
        if isinstance(error, GameError):  # the game's own failures say what happened in words
            text = str(error)
        else:
            text = f"{type(error).__name__}: {error}" if error is not None else "unknown error"
        self.show_error(text, where)

    def show_error(self, text: str, where: str, *, log_it: bool = True) -> None:
        text = clean(text, single_line=True)
        self.last_error = text
        if where == "model" and self.session.engine is None:
            label = "Could not start"
        else:
            label = {"engine": "The town stopped", "model": "The model failed"}.get(where, "Error")
        self.notify(text, title=label + (" (paused: space resumes)" if where == "engine" else ""),
                    severity="error", timeout=8)
        if log_it:
            self.log_line(LogLine("error", text))
        self.poll()

    def log_line(self, line: LogLine) -> None:
        log = self.widgets.town_log
        if log is not None:
            log.add(self.last_clock, line)


class ServerNews:
    """What the player is told of the model server (game/llm/supervisor.py, read from the status
    twice a second): lost and being brought back, back, or away (the town goes on by routine); one
    notification for each change, and the clock bar's words while it is not up."""

    def __init__(self, notify: Notify, log: Callable[[LogLine], None]) -> None:
        self.notify = notify
        self.log = log
        self.state = "up"
        self.restarts = 0

    @property
    def words(self) -> str:
        return {"restarting": "model restarting…", "away": "model away"}.get(self.state, "")

    def seen(self, status: ModelStatus) -> bool:
        """Take the status in; returns whether the server's state changed (and was told)."""
        state, restarts = status.server, status.restarts
        if (state, restarts) == (self.state, self.restarts):
            return False
        note = clean(status.server_note or "", single_line=True)
        if state == "restarting" and self.state != "restarting":
            self.notify(note or "the model server was lost", title="Model server lost: bringing it back",
                        severity="warning", timeout=10)
        elif state == "away" and self.state != "away":
            text = f"{note or 'the model server could not be brought back'}. The town goes on by routine."
            self.notify(text, title="The model is away", severity="error", timeout=30)
            self.log(LogLine("error", f"the model is away: {text}"))
        elif state == "up":
            self.notify("the residents think with the model again", title="The model server is back",
                        timeout=6)
            self.log(LogLine("system", "the model server is back"))
        self.state, self.restarts = state, restarts
        return True


def clock_text(engine: EngineView) -> str:
    """The engine's clock as one plain line (``Day 1, 07:30:00``)."""
    return clean(engine.clock.text(), single_line=True)

