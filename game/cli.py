"""The ``town`` command.  Each subcommand lives in the layer it belongs to and is imported lazily,
so ``town llm check`` never loads Textual and ``town --help`` is instant."""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from typing import NoReturn, TypeAlias

from game.errors import GameError

# the object ``add_subparsers`` returns, to which each command adds its parser
Subparsers: TypeAlias = "argparse._SubParsersAction[Parser]"


def _add_pace_policy(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pace-policy", choices=("lead", "clock"), default=None,
                   help="when the model falls behind: lead (default) slows the clock to a pace the model "
                        "can lead, shown on the status line; clock keeps the clock's rate and residents "
                        "live by their routine until answers come (env TOWN_PACE_POLICY)")


def add_llm_flags(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("language model")
    g.add_argument("--llm-url", default=None,
                   help="OpenAI-compatible base URL (e.g. http://localhost:11434/v1 for Ollama). "
                        "Default: $TOWN_LLM_URL, else the config file's llm_url (town config), else "
                        "the embedded llama-server. "
                        "The API key, if any, comes from $TOWN_LLM_API_KEY and goes to this host only.")
    g.add_argument("--model", default=None,
                   help="model name (default: $TOWN_MODEL, else the config file's model, else the "
                        "embedded default model)")
    g.add_argument("--embed-url", default=None,
                   help="OpenAI-compatible base URL for embeddings (default: $TOWN_EMBED_URL, else the "
                        "built-in all-MiniLM-L6-v2 encoder, also with --llm-url, so a town keeps one "
                        "vector space; TOWN_EMBED_VIA_LLM=1 sends them to the chat server instead); "
                        "its API key, if any, comes from $TOWN_EMBED_API_KEY")
    g.add_argument("--record", default=None, metavar="FILE",
                   help="record every model request and answer to FILE (JSON lines)")
    g.add_argument("--replay", default=None, metavar="FILE",
                   help="answer every model request from a recording; no model is used")


def version() -> str:
    """The installed distribution's version (importlib.metadata); in a checkout that was never
    installed, the package's own ``game.__version__`` (pyproject.toml reads its version from it)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("town")
    except PackageNotFoundError:
        from game import __version__

        return __version__


class _VersionAction(argparse.Action):
    """``--version``: the version is looked up only when asked for, so ``town --help`` stays instant."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        print(f"town {version()}")
        parser.exit()


class Parser(argparse.ArgumentParser):
    """argparse with a usage error in one line: ``town run: error: the following arguments are
    required: --until (see town run --help)`` on stderr and exit 2.  argparse's own printed the
    whole usage first, four to six lines above the one that says what is wrong."""

    def error(self, message: str) -> NoReturn:
        from game.text import one_line

        self.exit(2, f"{self.prog}: error: {one_line(message, 300)} (see {self.prog} --help)\n")

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        """An argument no parser knows is said by the command it was given to (``town play:
        error: unrecognized arguments: --nope``), not by ``town``, which would point to the wrong help."""
        ns, extras = self.parse_known_args(args, namespace)
        if extras:
            self.chosen(ns).error(f"unrecognized arguments: {' '.join(extras)}")
        return ns

    def chosen(self, ns: argparse.Namespace) -> argparse.ArgumentParser:
        """The innermost (sub)command's parser that ``ns`` was parsed by."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                sub = action.choices.get(getattr(ns, action.dest, None) or "")
                if sub is not None:
                    return sub.chosen(ns) if isinstance(sub, Parser) else sub
        return self


# name -> (module, function); each function takes the parsed args and returns an exit code
_HANDLERS = {
    "setup": ("game.llm.install", "cli_setup"),
    "llm.check": ("game.llm.check", "cli_check"),
    "play": ("game.ui.app", "cli_play"),
    "run": ("game.engine.running.headless", "cli_run"),
    "import-ville": ("game.world.ville", "cli_import_ville"),
    "interview": ("game.measure.interview", "cli_interview"),
    "report": ("game.measure.report", "cli_report"),
    "audit": ("game.measure.audit", "cli_audit"),
    "bench": ("game.ui.bench", "cli_bench"),
    "experiment": ("game.experiment.command", "cli_experiment"),
    "map": ("game.world.dump", "cli_dump_map"),
    "config": ("game.settings", "cli_config"),
    "completion": ("game.completion", "cli_completion"),
    "new": ("game.world.check", "cli_new"),
    "check": ("game.world.check", "cli_check"),
}


def build_parser() -> argparse.ArgumentParser:
    ap = Parser(prog="town", description="A generative-agents town in your terminal.")
    ap.add_argument("--version", action=_VersionAction, help="print the version of town and exit")
    sub = ap.add_subparsers(dest="command", required=True)
    _add_setup(sub)
    _add_llm(sub)
    _add_play(sub)
    _add_run(sub)
    _add_import_ville(sub)
    _add_interview(sub)
    _add_report(sub)
    _add_audit(sub)
    _add_experiment(sub)
    _add_bench(sub)
    _add_map(sub)
    _add_new_and_check(sub)
    _add_config(sub)
    _add_completion(sub)
    return ap


def _add_setup(sub: Subparsers) -> None:
    p = sub.add_parser("setup", help="install the embedded model server and weights (idempotent)")
    p.add_argument("--for-tests", action="store_true",
                   help="install what the test suite needs (small test model, embeddings, server)")
    p.add_argument("--no-default-model", action="store_true",
                   help="skip the default 1.1 GB chat model")
    p.set_defaults(handler="setup")


def _add_llm(sub: Subparsers) -> None:
    p = sub.add_parser("llm", help="language model tools")
    lsub = p.add_subparsers(dest="llm_command", required=True, metavar="{check}")
    c = lsub.add_parser("check", help="reach the model, make one structured call and one embedding")
    c.add_argument("--json", action="store_true")
    add_llm_flags(c)
    c.set_defaults(handler="llm.check")


def _add_play(sub: Subparsers) -> None:
    from game.settings import SPEEDS

    p = sub.add_parser("play", help="play a town (default: the default town)")
    p.add_argument("town", nargs="?", default=None,
                   help="a town directory/TMX, a built-in town's name (default) or a save file")
    p.add_argument("--small", action="store_true", help="play with the small cast")
    p.add_argument("--start", default=None, metavar="WHEN",
                   help="a new town's first moment: 'dawn' (the default: just before the first resident wakes, "
                        "so the clock runs at once while they plan their day as they sleep), HH:MM of its "
                        "first day, or 'town' for the town's own start")
    p.add_argument("--watch", default=None, metavar="RECORDING",
                   help="watch a run recorded with --record (scrub, jump to a time, fork a live town "
                        "from any moment); needs no model until you fork")
    p.add_argument("--saves", default=None, metavar="DIR",
                   help="folder for saves (default: $TOWN_SAVES, else the config file's saves, else ./saves "
                        "if it is there, else the user data folder; town config says which)")
    p.add_argument("--theme", default=None,
                   help="a Textual theme's name (default: $TOWN_THEME, else the config file's, kept there "
                        "when you change it in play, else textual-dark)")
    p.add_argument("--speed", default=None, choices=SPEEDS,
                   help="the clock's speed at the start (default: $TOWN_SPEED, else the config file's, "
                        "else normal)")
    _add_pace_policy(p)
    add_llm_flags(p)
    p.set_defaults(handler="play")


def _add_run(sub: Subparsers) -> None:
    p = sub.add_parser("run", help="run a town headless")
    p.add_argument("town", help="a town directory/TMX, a built-in town's name (default) or a save file")
    p.add_argument("--until", required=True, help='game time to stop at, e.g. "day 2 08:00"')
    p.add_argument("--save", default=None, metavar="FILE", help="write the town to this save file at the end")
    p.add_argument("--small", action="store_true", help="run the small cast")
    p.add_argument("--start", default=None, metavar="WHEN",
                   help="a new town's first moment: HH:MM of its first day, or 'dawn' (just before the "
                        "first resident wakes); default: the town's own start")
    p.add_argument("--json", action="store_true", help="print the accounting as JSON")
    p.add_argument("--pace", choices=("lockstep", "normal", "fast"), default="lockstep",
                   help="lockstep: every decision is waited for (default); normal/fast: the game's own "
                        "clock rates, as in play, with the pace policy")
    _add_pace_policy(p)
    add_llm_flags(p)
    p.set_defaults(handler="run")


def _add_import_ville(sub: Subparsers) -> None:
    p = sub.add_parser("import-ville", help="import the original Generative Agents Smallville")
    p.add_argument("src", help="a checkout of the original repository (or ../shared/the_ville)")
    p.add_argument("out", help="folder to write the town into")
    p.add_argument("--base", default="base_the_ville_n25",
                   help="which base simulation's residents (default: base_the_ville_n25)")
    p.set_defaults(handler="import-ville")


def _add_interview(sub: Subparsers) -> None:
    p = sub.add_parser("interview", help="ask a resident of a saved town questions")
    p.add_argument("save")
    p.add_argument("name")
    p.add_argument("questions", nargs="*")
    p.add_argument("--paper", action="store_true",
                   help="ask the paper's 25 questions (five kinds: self-knowledge, memory, plans, reactions, "
                        "reflections) after any given")
    p.add_argument("--remember", action="store_true", help="let the resident remember the interview")
    add_llm_flags(p)
    p.set_defaults(handler="interview")


def _add_audit(sub: Subparsers) -> None:
    p = sub.add_parser("audit", help="every line said and answer stored in a save, with its claims checked",
                       description="Every conversation line and stored answer of a saved town, with the people, "
                                   "places, gatherings and secrets each claims and a verdict for each (backed, "
                                   "unbacked, corrected, not said), and the totals per resident-day. "
                                   "Example: town audit saves/default.save --json")
    p.add_argument("save")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler="audit")


def _add_report(sub: Subparsers) -> None:
    p = sub.add_parser("report", help="report on a saved town")
    p.add_argument("save")
    p.add_argument("--json", action="store_true")
    p.add_argument("--track", action="append", default=None, metavar='"NAME=keyword, keyword"',
                   help="follow a named piece of information through the memories (repeatable; "
                        "every whisper in the save is followed anyway)")
    p.add_argument("--at", default=None, metavar="PLACE",
                   help="attendance only for places whose name starts with PLACE")
    p.set_defaults(handler="report")


def _add_experiment(sub: Subparsers) -> None:
    p = sub.add_parser("experiment", help="run a scenario file, interview everyone, print the paper's table")
    p.add_argument("scenario", help="a scenario file (TOML; see docs/MEASURE.md and scenarios/)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="folder for the save, the recording and result.json (default: runs/<scenario>-<date>-<time>)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_llm_flags(p)
    p.set_defaults(handler="experiment")


def _add_bench(sub: Subparsers) -> None:
    p = sub.add_parser("bench", help="run the benchmarks and print the figures")
    p.add_argument("--json", action="store_true")
    p.add_argument("--quick", action="store_true", help="smaller sizes, for a fast look")
    p.add_argument("--only", default=None, help="comma-separated benchmark names")
    p.set_defaults(handler="bench")


def _add_map(sub: Subparsers) -> None:
    p = sub.add_parser("map", help="print a town's map as text")
    p.add_argument("town", nargs="?", default=None,
                   help="a town directory/TMX or a built-in town's name (default: the default town)")
    p.set_defaults(handler="map")


def _add_new_and_check(sub: Subparsers) -> None:
    p = sub.add_parser("new", help="make a town folder to edit, a copy of a built-in town",
                       description="Make a town folder to edit (town.tmx for Tiled, residents.json, the tileset), "
                                   "a copy of a built-in town or of another town folder; never over anything "
                                   "there. Then: town check, town play (docs/WORLD.md, 'Making a town').")
    p.add_argument("name", help="a plain name makes maps/NAME; a path makes that folder")
    p.add_argument("--from", dest="source", default=None, metavar="TOWN",
                   help="the town to copy: a built-in town's name or a town folder (default: default)")
    p.set_defaults(handler="new")
    c = sub.add_parser("check", help="list every problem of a town folder, with its file and field",
                       description="Every problem of a town: the map (TMX, tileset, tiles, layers, sectors, arenas), "
                                   "residents.json (every field and name), and every place each resident's day "
                                   "needs (home, workplace, schedule, places known, spawn; events' places). "
                                   "Exit 0 when it is clean, 2 when it is not.")
    c.add_argument("town", help="a town folder, a .tmx or a built-in town's name")
    c.set_defaults(handler="check")


def _add_config(sub: Subparsers) -> None:
    from game.settings import SETTINGS

    p = sub.add_parser("config", help="where the config file is, and each setting with where it came from",
                       description="The settings (llm_url, model, saves, theme, speed), each from its flag, "
                                   "else its TOWN_* environment variable, else the config file, else the "
                                   "default. With no command: the file's place and every setting.")
    csub = p.add_subparsers(dest="config_command", metavar="{set,unset}")
    s = csub.add_parser("set", help="write a setting into the config file")
    s.add_argument("key", choices=tuple(SETTINGS))
    s.add_argument("value")
    u = csub.add_parser("unset", help="take a setting out of the config file")
    u.add_argument("key", choices=tuple(SETTINGS))
    p.set_defaults(handler="config")


def _add_completion(sub: Subparsers) -> None:
    p = sub.add_parser("completion", help="print a completion script for bash, zsh or fish",
                       description="A completion script for the shell, written from town's own commands and "
                                   "flags. bash: town completion bash > "
                                   "~/.local/share/bash-completion/completions/town; "
                                   "zsh: town completion zsh > ~/.zfunc/_town (a folder on $fpath); "
                                   "fish: town completion fish > ~/.config/fish/completions/town.fish")
    p.add_argument("shell", choices=("bash", "zsh", "fish"))
    p.set_defaults(handler="completion")


def main(argv: list[str] | None = None) -> int:
    """Exit codes (README.md, "Exit codes"): 0 done, 1 a model or runtime failure, 2 bad input
    (argparse's own usage errors too), 130 interrupted (Ctrl-C).  Errors go to stderr."""
    args = build_parser().parse_args(argv)
    # Each command says what failed in its own words, one clean line; the game's library logging
    # (a mind's failed decision...) must not reach the terminal besides, raw, through Python's
    # last-resort handler (a server's error page, line by line).  A caller may still configure it.
    game_log = logging.getLogger("game")
    if not game_log.handlers:
        game_log.addHandler(logging.NullHandler())
    module_name, func_name = _HANDLERS[args.handler]
    try:
        module = importlib.import_module(module_name)
        func = getattr(module, func_name)
    except (ImportError, AttributeError) as e:
        print(f"town: '{args.handler}' is not available in this build ({e})", file=sys.stderr)
        return 2
    try:
        return int(func(args) or 0)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except GameError as e:  # a failure the game explains that no command caught: one line, not a traceback
        from game.text import one_line

        print(f"town {args.command}: {one_line(e, 400)}", file=sys.stderr)
        return 1
