"""The player's settings: the model's URL and name, the saves folder, the theme and the speed, kept
in a small TOML file in the user's config folder so that they need not be typed every time.

Each setting is looked for in this order, the first found wins: its command-line flag, its
``TOWN_*`` environment variable, the config file, the default.  ``town config`` says where the file
is and, for each setting, its value and where it came from; ``town config set KEY VALUE`` and
``town config unset KEY`` change the file.  The file is read with ``tomllib`` and written by hand,
one ``key = "value"`` line a setting (other lines, comments included, are kept as they are).

The file: ``$TOWN_CONFIG`` if set, else ``config.toml`` in platformdirs' user config folder
(``~/.config/town`` on Linux, under ``$XDG_CONFIG_HOME`` if set; ``~/Library/Application
Support/town`` on macOS; ``%LOCALAPPDATA%\\town`` on Windows).

The saves folder by default: ``./saves`` where the game is started when that folder is there (where
every save was kept before this file existed, so none goes missing), else ``saves`` in the user's data
folder (``~/.local/share/town/saves`` on Linux), so that an installed ``town`` keeps its saves in one
place whatever the current folder."""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import platformdirs

SPEEDS = ("pause", "normal", "fast", "max")
DEFAULT_THEME = "textual-dark"  # Textual's own default


class SettingsError(ValueError):
    """A config file or a setting's value that cannot be used: one line naming the file and key."""


def _url(value: str) -> str | None:
    if not (value.startswith("http://") or value.startswith("https://")):
        return "must start with http:// or https://"
    return None


def _speed(value: str) -> str | None:
    return None if value in SPEEDS else f"must be one of {', '.join(SPEEDS)}"


def _any(value: str) -> str | None:
    return None


@dataclass(frozen=True)
class Setting:
    """One setting: its environment variable, its flag (the commands that have it) and its check."""

    env: str
    flag: str
    about: str
    check: Callable[[str], str | None] = _any


SETTINGS: dict[str, Setting] = {
    "llm_url": Setting("TOWN_LLM_URL", "--llm-url", "the model server's OpenAI-compatible URL "
                       "(not set: the embedded llama-server)", _url),
    "model": Setting("TOWN_MODEL", "--model", "the model's name (not set: the embedded default model)"),
    "saves": Setting("TOWN_SAVES", "--saves", "the folder town play saves in and loads from"),
    "theme": Setting("TOWN_THEME", "--theme", "town play's colours: a Textual theme's name (ctrl+p, "
                     "'Change theme', keeps the one chosen here)"),
    "speed": Setting("TOWN_SPEED", "--speed", f"the clock's speed when town play starts ({', '.join(SPEEDS)})",
                     _speed),
}


@dataclass(frozen=True)
class Resolved:
    """A setting's value and where it came from (``flag --saves``, ``environment TOWN_SAVES``,
    ``config file``, ``default``); ``value`` None: not set anywhere, and no default."""

    value: str | None
    source: str


def config_path(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    override = env.get("TOWN_CONFIG")
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_config_dir("town", appauthor=False)) / "config.toml"


def default_saves() -> tuple[str, str]:
    """The saves folder when none is set, and why (the module's words)."""
    if Path("saves").is_dir():
        return "saves", "default: ./saves is there"
    return str(Path(platformdirs.user_data_dir("town", appauthor=False)) / "saves"), "default: the user data folder"


def _default(name: str) -> Resolved:
    if name == "saves":
        value, why = default_saves()
        return Resolved(value, why)
    if name == "theme":
        return Resolved(DEFAULT_THEME, "default")
    if name == "speed":
        return Resolved("normal", "default")
    return Resolved(None, "default")


def check_value(name: str, value: str, where: str) -> str:
    """``value`` for setting ``name``, or a ``SettingsError`` that names ``where`` it was found
    (nothing: given on the command line as itself)."""
    at = f"{where}: " if where else ""
    setting = SETTINGS.get(name)
    if setting is None:
        raise SettingsError(f"{at}no setting '{name}' (there are: {', '.join(SETTINGS)})")
    value = value.strip()
    if name == "llm_url":
        value = value.rstrip("/")
    if not value or any(ord(c) < 32 for c in value):
        raise SettingsError(f"{at}{name} must be one line of text, not empty")
    problem = setting.check(value)
    if problem:
        raise SettingsError(f"{at}{name} '{value}' {problem}")
    return value


def read_file(path: Path) -> dict[str, str]:
    """The settings in the file at ``path`` (none when it is not there), each checked."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise SettingsError(f"config file {path}: cannot be read ({e.strerror or e})") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise SettingsError(f"config file {path}: not TOML ({e})") from None
    out = {}
    for name, value in data.items():
        if not isinstance(value, str):
            raise SettingsError(f"config file {path}: {name} must be a string in quotes, like {name} = \"...\"")
        out[name] = check_value(name, value, f"config file {path}")
    return out


def resolve(name: str, flag: str | None = None, env: Mapping[str, str] | None = None,
            file: Mapping[str, str] | None = None) -> Resolved:
    """Setting ``name`` from, in order: ``flag`` (a flag's value), the environment, ``file``, the default."""
    setting = SETTINGS[name]
    env = os.environ if env is None else env
    if flag:
        return Resolved(check_value(name, flag, setting.flag), f"flag {setting.flag}")
    if env.get(setting.env, "").strip():
        return Resolved(check_value(name, env[setting.env], f"${setting.env}"), f"environment {setting.env}")
    if file and name in file:
        return Resolved(file[name], "config file")
    return _default(name)


def current(args: argparse.Namespace | None = None, env: Mapping[str, str] | None = None) -> dict[str, Resolved]:
    """Every setting as a command sees it: its flags in ``args`` (``llm_url``, ``saves``...), the
    environment, the config file."""
    file = read_file(config_path(env))
    return {name: resolve(name, getattr(args, name, None), env, file) for name in SETTINGS}


def layered_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment with the config file's settings under their variables' names where the
    environment has none (what the model layer reads: ``game.llm.config.LLMConfig.from_args``)."""
    env = os.environ if env is None else env
    out = {SETTINGS[name].env: value for name, value in read_file(config_path(env)).items()}
    out.update({k: v for k, v in env.items() if not (k in out and not v.strip())})
    return out


def _toml_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _write(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(lines), encoding="utf-8")
    os.replace(tmp, path)


def _lines_without(path: Path, name: str) -> tuple[list[str], int | None]:
    """The file's lines with setting ``name``'s taken out, and where it was (None: it was not)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    except FileNotFoundError:
        return [], None
    at = None
    kept: list[str] = []
    for line in lines:
        key = line.split("=", 1)[0].strip().strip('"')
        if "=" in line and key == name and not line.lstrip().startswith("#"):
            at = len(kept) if at is None else at
            continue
        kept.append(line)
    return kept, at


def keep(name: str, value: str, path: Path | None = None) -> Path:
    """Write setting ``name`` into the config file (made if it is not there); the other lines stay."""
    path = config_path() if path is None else path
    value = check_value(name, value, "")
    read_file(path)  # a file that cannot be read as TOML is not written over
    lines, at = _lines_without(path, name)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    line = f"{name} = {_toml_string(value)}\n"
    lines.insert(len(lines) if at is None else at, line)
    _write(path, lines)
    return path


def forget(name: str, path: Path | None = None) -> bool:
    """Take setting ``name`` out of the config file; False when it was not there."""
    path = config_path() if path is None else path
    if name not in SETTINGS:
        raise SettingsError(f"no setting '{name}' (there are: {', '.join(SETTINGS)})")
    lines, at = _lines_without(path, name)
    if at is None:
        return False
    _write(path, lines)
    return True


def cli_config(args: argparse.Namespace) -> int:
    """``town config`` (where the file is and every setting, with where it came from), ``town
    config set KEY VALUE``, ``town config unset KEY``."""
    from game.text import echo

    action = getattr(args, "config_command", None)
    try:
        if action == "set":
            path = keep(args.key, args.value)
            echo(f"{args.key} = {check_value(args.key, args.value, '')} (in {path})")
        elif action == "unset":
            done = forget(args.key)
            echo(f"{args.key} taken out of {config_path()}" if done else f"{args.key} was not set in {config_path()}")
        else:
            show(current())
    except (SettingsError, OSError) as e:
        echo(f"town config: {e}", file=sys.stderr)
        return 2
    return 0


def show(settings: Mapping[str, Resolved]) -> None:
    from game.text import echo

    path = config_path()
    echo(f"config file: {path}{'' if path.is_file() else ' (not there yet: town config set KEY VALUE makes it)'}")
    width = max(len(name) for name in settings)
    for name, r in settings.items():
        value = r.value if r.value is not None else "(not set)"
        echo(f"  {name:<{width}}  {value}  ({r.source})")
    echo(f"each from: a flag ({', '.join(s.flag for s in SETTINGS.values())}), else the environment "
         f"({', '.join(s.env for s in SETTINGS.values())}), else the file, else the default")
