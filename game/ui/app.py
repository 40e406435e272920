"""``town play``: the Textual app, put together from its parts (see ``TownApp``).

The engine runs in one async worker on the app's loop (game/ui/worker.py); each tick becomes one
``Ticked`` message; every failure is shown in one place (``EngineWorker._report_error``).
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from pathlib import Path
from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.worker import Worker

from game.engine.api import EngineView
from game.engine.pace import Governor, policy_from_env
from game.text import one_line
from game.ui.actions import PlayerActions
from game.ui.commands import TownCommands
from game.ui.files import Files
from game.ui.host import GameHost, RealHost
from game.ui.main_screen import MainScreen, Widgets
from game.ui.replay_controls import ReplayControls
from game.ui.screens import StartScreen, TalkScreen
from game.ui.text import clean
from game.ui.worker import TICK_DELAY, EngineWorker

__all__ = ["MainScreen", "TownApp", "cli_play"]


class TownApp(EngineWorker, PlayerActions, Files, ReplayControls, Widgets, App[int]):
    """The game on screen.  Its parts, one responsibility a module: the engine worker and the one
    place failures are shown (worker.py), the player's actions (actions.py), saving and loading
    (files.py), watching a recorded run (replay_controls.py), the main screen and its widgets
    (main_screen.py).  Screens and widgets post messages (messages.py); the app handles them."""

    CSS_PATH = "town.tcss"
    TITLE = "Town"
    # every screen carries one class of each pair, for town.tcss: the side panel folds in a narrow
    # terminal, dialogs pad less in a short one (80x24 is where many terminals open)
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    COMMANDS = App.COMMANDS | {TownCommands}
    BINDINGS = [  # help and quit first: the footer shows the keys in this order, a narrow one the first only
        Binding("question_mark,h", "help", "Help"),
        Binding("q", "quit_town", "Quit"),
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
                 tick_delay: dict[str, float] | None = None, speed: str = "normal",
                 pace_policy: str = "lead") -> None:
        super().__init__()
        self.governor = Governor(pace_policy)  # slows the clock when the model falls behind (game/engine/pace.py)
        self.host = host
        self.saves_dir = Path(saves_dir)
        self.autosave_s = autosave_s
        self.tick_delay = dict(TICK_DELAY, **(tick_delay or {}))
        self.speed = speed
        self.llm: Any = None
        self.engine: EngineView | None = None
        self.save_path: Path | None = host.start_save
        self.resume_speed = "normal"  # what space resumes at: the speed it paused
        self.save_error = ""  # why the last save failed (the quit dialog shows it)
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
        self._save_lock = asyncio.Lock()  # one save at a time (game/ui/files.py)
        self.last_save: tuple[float, bool] | None = None  # the last save's seconds on disk, whether of changes

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


def _err(msg: str) -> None:
    """An error of ``town play`` before the screen starts: one plain line on stderr."""
    from game.text import echo, one_line

    echo(f"town play: {one_line(msg)}", file=sys.stderr)


def cli_play(args: Any) -> int:
    """`town play [TOWN_OR_SAVE] [--small] [--saves DIR]` plus the model flags."""
    saves = Path(getattr(args, "saves", None) or "saves")
    from game.world import resolve_town_path

    town = getattr(args, "town", None)
    if town and not resolve_town_path(town).exists():  # a path, or a built-in town's name
        _err(f"{town}: no such town folder, map or save file")
        return 2
    watch = getattr(args, "watch", None)
    checked = None
    if town and not watch:  # a bad town or save is said here, before the screen and the model start
        from game.engine.build import read_input
        from game.errors import GameError

        try:  # read once: the first engine is built from it
            checked = read_input(town, small=bool(getattr(args, "small", False)))
        except GameError as e:
            _err(str(e))
            return 2
    if watch:  # a recorded run that cannot be watched is said here, before the screen starts
        from game.engine.manifest import ManifestError, RunManifest

        try:
            RunManifest.load(watch).check_start()
        except ManifestError as e:
            _err(str(e))
            return 2
    try:
        from game.llm.config import LLMConfig

        LLMConfig.from_args(args)  # bad flags are reported here, before the screen starts
    except ValueError as e:
        _err(str(e))
        return 2
    try:
        policy = policy_from_env(getattr(args, "pace_policy", None))
    except ValueError as e:
        _err(str(e))
        return 2
    app = TownApp(RealHost(args, checked), saves, pace_policy=policy)
    app.run()
    return int(app.return_code or 0)
