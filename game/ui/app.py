"""``town play``: the Textual app, put together from its parts (see ``TownApp``).

The engine runs in one async worker on the app's loop (game/ui/worker.py); each tick becomes one
``Ticked`` message; every failure is shown in one place (``Panels.report_error``, game/ui/panels.py).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.theme import BUILTIN_THEMES, Theme
from textual.worker import Worker

from game.engine.running.pace import Governor, policy_from_env
from game.outpaths import writable_dir
from game.text import one_line
from game.ui.actions import PlayerActions
from game.ui.commands import PaletteEntry, TownCommands, town_palette
from game.ui.files import Files
from game.ui.host import GameHost, RealHost
from game.ui.main_screen import MainScreen, Widgets
from game.ui.messages import EngineFailed, MainReady, Said, Select, SelectStep, TalkClosed, Ticked, Typed, Walk
from game.ui.panels import Panels
from game.ui.replay_controls import ReplayControls
from game.ui.screens import HelpScreen
from game.ui.session import Session
from game.ui.text import clean
from game.ui.toastguard import guard_toasts
from game.ui.worker import TICK_DELAY, EngineWorker

if TYPE_CHECKING:
    from game.engine.build import TownInput

__all__ = ["MainScreen", "TownApp", "cli_play"]

SPEED_KEYS = Binding.Group("Speed", compact=True)  # 1-4, shown together in the footer: "1234 Speed"


class TownApp(App[int]):
    """The game on screen, wired from its parts, each of which owns its state and is handed what it
    needs: the town in play (``session``: session.py), what the screen shows of it and the one place
    failures are shown (``panels``: panels.py), the player's actions (``player``: actions.py),
    watching a recorded run (``replay``: replay_controls.py), the model session and the engine loop
    (``worker``: worker.py), saving and loading (``files``: files.py).  Textual finds the keys'
    actions and the messages' handlers here; each hands the work to its part.  Screens and widgets
    post messages (messages.py)."""

    CSS_PATH = "town.tcss"
    TITLE = "Town"
    # every screen carries one class of each pair, for town.tcss: the side panel folds in a narrow
    # terminal, dialogs pad less in a short one (80x24 is where many terminals open)
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-tall")]
    COMMANDS = App.COMMANDS | {TownCommands}
    BINDINGS = [  # the footer (game/ui/keybar.py) shows the keys in this order, in two rows where one is too narrow
        Binding("question_mark,h", "help", "Help"),
        Binding("q", "quit_town", "Quit"),
        Binding("v", "visitor", "Visit"),
        Binding("t", "talk", "Talk"),
        Binding("x", "whisper", "Whisper"),
        Binding("b", "embody", "Embody"),
        Binding("o", "object", "Object"),
        Binding("f", "follow", "Camera"),
        Binding("space", "toggle_pause", "Pause"),
        Binding("1", "speed('pause')", "Pause", group=SPEED_KEYS),
        Binding("2", "speed('normal')", "Normal", group=SPEED_KEYS),
        Binding("3", "speed('fast')", "Fast", group=SPEED_KEYS),
        Binding("4", "speed('max')", "As fast as decisions allow", group=SPEED_KEYS),
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+l", "load", "Load"),
        Binding("left_square_bracket", "jump(-10)", "-10 min", show=False),
        Binding("right_square_bracket", "jump(10)", "+10 min", show=False),
        Binding("left_curly_bracket", "jump(-60)", "-1 h", show=False),
        Binding("right_curly_bracket", "jump(60)", "+1 h", show=False),
        Binding("g", "go_to_time", "Go to"),
        Binding("n", "fork", "Fork"),
    ]

    def __init__(self, host: GameHost, saves_dir: Path, *, autosave_s: float = 300.0,
                 tick_delay: dict[str, float] | None = None, speed: str = "normal",
                 pace_policy: str = "lead", theme: str | None = None, keep_theme: Path | None = None) -> None:
        """``theme``: a Textual theme's name to start with; ``keep_theme``: the config file the
        player's choice of theme is written to when they change it (None: it is not kept)."""
        super().__init__()
        guard_toasts()  # a toast due as it is made froze Textual's timer (toastguard.py)
        if theme:
            self.theme = theme
        self.keep_theme = keep_theme
        saves = Path(saves_dir)
        governor = Governor(pace_policy)  # slows the clock when the model falls behind (game/engine/running/pace.py)
        self.session = Session(host.start_save, speed)
        self.widgets = Widgets(self)
        self.panels = Panels(self.session, self.widgets, governor, self.notify)
        self.player = PlayerActions(self, self.session, self.panels, self.widgets)
        self.replay = ReplayControls(self, self.session, self.widgets, self.player, saves)
        self.worker = EngineWorker(self, self.session, self.panels, self.player, self.replay, host, governor,
                                   dict(TICK_DELAY, **(tick_delay or {})))
        self.files = Files(self, self.session, self.panels, self.worker, host, saves, autosave_s)

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Every notification, the app's and its screens', is plain text: a whisper, a name, an
        object sentence, a server's error or a path is shown as written, never parsed as markup
        (``[@click=app.quit]`` is just letters) and never with terminal escapes. ``markup`` is
        accepted for Textual's signature and ignored."""
        super().notify(clean(message, max_len=2000), title=one_line(title, 200), severity=severity,
                       timeout=timeout, markup=False)

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, self.theme_changed)
        self.worker.start()
        self.set_interval(0.5, self.panels.poll)
        if self.files.autosave_s > 0:
            self.set_interval(self.files.autosave_s, self.files.autosave)

    def theme_changed(self, theme: Theme) -> None:
        """The player chose a theme (ctrl+p, 'Change theme'): kept in the config file for next time."""
        if self.keep_theme is None:
            return
        from game.settings import SettingsError, keep

        try:
            keep("theme", theme.name, self.keep_theme)
        except (OSError, SettingsError) as e:
            self.notify(f"The theme could not be kept in {self.keep_theme}: {e}", severity="warning")

    GAME_ACTIONS = frozenset({"visitor", "talk", "whisper", "embody", "object", "follow", "toggle_pause",
                              "speed", "save", "load"})
    LIVE_ACTIONS = frozenset({"visitor", "talk", "whisper", "embody", "object", "save", "load"})
    REPLAY_ACTIONS = frozenset({"jump", "go_to_time", "fork"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The game's keys are hidden (and do nothing) until a town is running; a recorded run being
        watched has its own keys (jump, go to, fork) instead of the ones that change a town."""
        if action in self.GAME_ACTIONS and self.session.engine is None:
            return False
        if action in self.REPLAY_ACTIONS and not self.session.replaying:
            return False
        if action in self.LIVE_ACTIONS and self.session.replaying:
            return False
        return True

    def palette(self) -> list[PaletteEntry]:
        """The command palette's entries (commands.py)."""
        if self.session.engine is None:
            return []
        return town_palette(self.panels, self.player, self.files, self.action_help)

    # ------------------------------------------------------------------ messages: each to its part

    def on_main_ready(self, message: MainReady) -> None:
        self.worker.on_main_ready()

    def on_ticked(self, message: Ticked) -> None:
        self.panels.ticked(message.result)

    def on_engine_failed(self, message: EngineFailed) -> None:
        self.panels.report_error(message.error, message.where)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        self.worker.on_worker_state_changed(event)

    def on_walk(self, message: Walk) -> None:
        self.player.move_player(message.dx, message.dy)

    def on_select_step(self, message: SelectStep) -> None:
        self.panels.select_step(message.step)

    def on_select(self, message: Select) -> None:
        self.panels.select(message.name)

    def on_typed(self, message: Typed) -> None:
        self.player.typing(message.resident, message.text)

    def on_said(self, message: Said) -> None:
        self.player.say_to(message.resident, message.text)

    def on_talk_closed(self, message: TalkClosed) -> None:
        self.player.end_conversation(message.resident)

    # ------------------------------------------------------------------ keys: each to its part

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_visitor(self) -> None:
        self.player.visitor()

    def action_talk(self) -> None:
        self.player.talk()

    def action_whisper(self) -> None:
        self.player.whisper()

    def action_embody(self) -> None:
        self.player.toggle_embody()

    def action_object(self) -> None:
        self.player.change_object()

    def action_follow(self) -> None:
        self.player.follow()

    def action_toggle_pause(self) -> None:
        self.player.toggle_pause()

    def action_speed(self, speed: str) -> None:
        self.player.set_speed(speed)

    def action_save(self) -> None:
        self.files.save()

    def action_load(self) -> None:
        self.files.load()

    async def action_quit_town(self) -> None:
        await self.files.quit_town()

    async def action_quit(self) -> None:
        """ctrl+q (Textual's quit) saves first too."""
        await self.files.quit_town()

    def action_jump(self, minutes: int) -> None:
        self.replay.jump(minutes)

    def action_go_to_time(self) -> None:
        self.replay.go_to_time()

    def action_fork(self) -> None:
        self.replay.fork()


def _err(msg: str) -> None:
    """An error of ``town play`` before the screen starts: one plain line on stderr."""
    from game.text import echo, one_line

    echo(f"town play: {one_line(msg)}", file=sys.stderr)


def cli_play(args: argparse.Namespace) -> int:
    """`town play [TOWN_OR_SAVE] [--small] [--saves DIR] [--theme NAME] [--speed SPEED]` plus the
    model flags; the settings not given as flags come from the environment or the config file
    (game/settings.py)."""
    try:
        checked = _check_play_input(args)
        from game.llm.config import LLMConfig
        from game.settings import config_path, current

        LLMConfig.from_args(args)  # bad flags (or a bad config file) are reported here, before the screen starts
        chosen = current(args)
        saves = Path(chosen["saves"].value or "saves")
        theme = chosen["theme"].value
        if theme not in BUILTIN_THEMES:
            raise ValueError(f"theme '{theme}' ({chosen['theme'].source}) is not one of: {', '.join(BUILTIN_THEMES)}")
        policy = policy_from_env(getattr(args, "pace_policy", None))
        writable_dir(str(saves), "--saves")  # a folder the saves can go in, before the screen starts
    except ValueError as e:
        _err(str(e))
        return 2
    app = TownApp(RealHost(args, checked), saves, pace_policy=policy, theme=theme,
                  speed=chosen["speed"].value or "normal", keep_theme=config_path())
    app.run()
    return int(app.return_code or 0)


def _check_play_input(args: argparse.Namespace) -> TownInput | None:
    """The town or save and the recording to watch, read and checked before the screen starts: a
    ``ValueError`` with one line for each that cannot be played; the town read, for the first engine."""
    from game.engine.build import check_start
    from game.errors import GameError
    from game.world import resolve_town_path

    try:
        check_start(getattr(args, "start", None))
    except GameError as e:
        raise ValueError(str(e)) from None
    town = getattr(args, "town", None)
    if town and not resolve_town_path(town).exists():  # a path, or a built-in town's name
        raise ValueError(f"{town}: no such town folder, map or save file")
    watch = getattr(args, "watch", None)
    checked = None
    if town and not watch:  # a bad town or save is said here, before the screen and the model start
        from game.engine.build import read_input
        from game.errors import GameError

        try:  # read once: the first engine is built from it
            checked = read_input(town, small=bool(getattr(args, "small", False)))
            if getattr(args, "start", None) is not None and checked.is_save:
                raise ValueError(f"{town}: --start is for a new town; a save goes on from where it was saved")
        except GameError as e:
            raise ValueError(str(e)) from None
    if watch:  # a recorded run that cannot be watched is said here, before the screen starts
        from game.engine.running.manifest import ManifestError, RunManifest

        try:
            RunManifest.load(watch).check_start()
        except ManifestError as e:
            raise ValueError(str(e)) from None
    return checked
