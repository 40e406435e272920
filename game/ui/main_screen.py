"""The main screen: the map, the side panel (selected resident + town log), the clock and the
model line; and ``Widgets``, how the app finds them (``None`` before the town is on screen).

The screen says what the player asked for with messages (``game.ui.messages``); the app does it."""

from __future__ import annotations

from typing import TypeVar

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches, WrongType
from textual.screen import Screen
from textual.widget import Widget

from game.engine.api import EngineView
from game.ui.keybar import KeyBar
from game.ui.mapview import PLAYER, MapView
from game.ui.messages import MainReady, Select, SelectStep, Walk
from game.ui.widgets import ClockBar, ModelLine, ResidentPanel, TownLog


class MainScreen(Screen[None]):
    """The map, the side panel (selected resident + town log), the clock and the model line.

    In a narrow terminal (the app's ``-narrow`` class, town.tcss) the side panel folds away and the
    map has the width; p shows it there, or hides it in a wide one.  Each width keeps its own choice."""

    BINDINGS = [
        Binding("up,w", "move(0,-1)", "Walk", show=False, priority=True),
        Binding("down,s", "move(0,1)", "Walk", show=False, priority=True),
        Binding("left,a", "move(-1,0)", "Walk", show=False, priority=True),
        Binding("right,d", "move(1,0)", "Walk", show=False, priority=True),
        Binding("tab", "select(1)", "Next", priority=True),
        Binding("shift+tab", "select(-1)", "Prev", show=False, priority=True),
        Binding("p", "side_panel", "Panel"),
    ]

    def __init__(self, engine: EngineView) -> None:
        super().__init__()
        self.engine = engine

    def compose(self) -> ComposeResult:
        yield ClockBar(self.engine.town.name, id="clock")
        with Horizontal(id="body"):
            yield MapView(self.engine.town, id="map")
            with Vertical(id="side"):
                with VerticalScroll(id="panel-scroll") as scroll:
                    scroll.border_title = "resident"
                    yield ResidentPanel(id="panel")
                yield TownLog(id="log")
        yield ModelLine(id="model")
        yield KeyBar()  # every key, in two rows where one is too narrow (80 columns)

    def on_mount(self) -> None:
        self.post_message(MainReady())

    def action_side_panel(self) -> None:
        """Show or hide the side panel (in a narrow terminal it starts hidden)."""
        if self.has_class("-narrow"):
            self.toggle_class("-side-shown")
        else:
            self.toggle_class("-side-hidden")

    def action_move(self, dx: int, dy: int) -> None:
        self.post_message(Walk(dx, dy))

    def action_select(self, step: int) -> None:
        self.post_message(SelectStep(step))

    @on(MapView.ActorClicked)
    def _clicked(self, event: MapView.ActorClicked) -> None:
        if event.name != PLAYER:
            self.post_message(Select(event.name))


W = TypeVar("W", bound=Widget)


class Widgets:
    """The main screen's widgets, as the app's parts reach them (``None`` before the town is on
    screen, or while the main screen is being replaced)."""

    def __init__(self, app: App[int]) -> None:
        self.app = app

    def _q(self, selector: str, kind: type[W]) -> W | None:
        for screen in self.app.screen_stack:
            if isinstance(screen, MainScreen):
                try:
                    return screen.query_one(selector, kind)
                except (NoMatches, WrongType):
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
