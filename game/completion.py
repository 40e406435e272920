"""``town completion bash|zsh|fish``: a completion script for the shell, written from the command
line's own parser (``game.cli.build_parser``), so that a new command or flag is completed the day
it is added.  Each script completes the commands at each level (``town llm check``, ``town config
set``), each command's flags, a flag's choices (``--pace lockstep``), and file names where a command
or a flag takes a path.

Install: ``town completion bash > ~/.local/share/bash-completion/completions/town``;
``town completion zsh > ~/.zfunc/_town`` (a folder on ``$fpath``, before ``compinit``);
``town completion fish > ~/.config/fish/completions/town.fish``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

SHELLS = ("bash", "zsh", "fish")


PATH_METAVARS = ("FILE", "DIR", "RECORDING", "TOWN")  # a flag whose value is a path says so in its help's metavar


@dataclass
class Option:
    names: list[str]
    about: str
    choices: list[str] | None  # the values it takes; None: any (a file, a name, a time)
    takes_value: bool
    path: bool = False  # its value is a file or folder (file names are offered)


@dataclass
class Command:
    """One level of the command line: ``("town", "llm")`` and what may follow it there."""

    path: tuple[str, ...]
    about: str
    options: list[Option] = field(default_factory=list)
    subcommands: dict[str, str] = field(default_factory=dict)  # name -> its help
    positional_choices: list[str] = field(default_factory=list)  # (town config set KEY)
    takes_files: bool = False  # a positional that is a path, a name or words: files offered

    @property
    def key(self) -> str:
        return " ".join(self.path)


def _short(text: str | None) -> str:
    """A help text's first clause, on one line, for a menu."""
    words = " ".join((text or "").replace("%%", "%").split())
    for stop in (" (", "; ", ". ", ": "):
        words = words.split(stop, 1)[0]
    return words[:70]


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ("town",), about: str = "") -> Iterator[Command]:
    """Every level of ``parser``'s command line, the top first."""
    cmd = Command(path, about)
    subparsers: list[tuple[str, argparse.ArgumentParser, str]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                cmd.subcommands[name] = _short(helps.get(name))
                subparsers.append((name, sub, helps.get(name, "")))
        elif action.option_strings:
            if action.help == argparse.SUPPRESS:
                continue
            choices = [str(c) for c in action.choices] if action.choices else None
            cmd.options.append(Option(list(action.option_strings), _short(action.help), choices, action.nargs != 0,
                                      str(action.metavar) in PATH_METAVARS))
        elif action.choices:
            cmd.positional_choices += [str(c) for c in action.choices]
        else:
            cmd.takes_files = True
    yield cmd
    for name, sub, help_text in subparsers:
        yield from commands(sub, (*path, name), _short(help_text))


def _quote(text: str) -> str:
    """``text`` in single quotes for any of the three shells."""
    return "'" + text.replace("'", "'\\''") + "'"


def _words(cmd: Command) -> list[str]:
    return [*cmd.subcommands, *cmd.positional_choices, *(n for o in cmd.options for n in o.names)]


def bash(cmds: list[Command]) -> str:
    levels = "|".join(f'"{c.key}"' for c in cmds if len(c.path) > 1)
    lines = ["# bash completion for town (town completion bash); written from town's own parser",
             "_town() {",
             '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" at="town" i',
             "    for ((i = 1; i < COMP_CWORD; i++)); do",
             f'        case "$at ${{COMP_WORDS[i]}}" in {levels}) at="$at ${{COMP_WORDS[i]}}" ;; esac',
             "    done",
             '    case "$at|$prev" in']
    for c in cmds:
        for o in c.options:
            if o.takes_value:
                what = f"-W {_quote(' '.join(o.choices))}" if o.choices else ("-f" if o.path else "-W ''")
                names = "|".join(f'"{c.key}|{n}"' for n in o.names)
                lines.append(f'        {names}) COMPREPLY=($(compgen {what} -- "$cur")); return ;;')
    lines += ["    esac", "    local words files=0", '    case "$at" in']
    for c in cmds:
        lines.append(f'        "{c.key}") words={_quote(" ".join(_words(c)))}; files={int(c.takes_files)} ;;')
    lines += ["    esac",
              '    COMPREPLY=($(compgen -W "$words" -- "$cur"))',
              '    if [[ $files == 1 && $cur != -* ]]; then COMPREPLY+=($(compgen -f -- "$cur")); fi',
              "}",
              "complete -o filenames -F _town town", ""]
    return "\n".join(lines)


def _zsh_items(pairs: dict[str, str]) -> str:
    """``name:about`` items for ``_describe`` (a colon in a name escaped)."""
    colon = "\\:"
    return " ".join(_quote(name.replace(":", colon) + ":" + about) for name, about in pairs.items())


def zsh(cmds: list[Command]) -> str:
    levels = "|".join(f'"{c.key}"' for c in cmds if len(c.path) > 1)
    lines = ["#compdef town", "# zsh completion for town (town completion zsh); written from town's own parser",
             "_town() {",
             '    local at="town" prev="${words[CURRENT-1]}" i',
             "    local -a items",
             "    for ((i = 2; i < CURRENT; i++)); do",
             f'        case "$at ${{words[i]}}" in ({levels}) at="$at ${{words[i]}}" ;; esac',
             "    done",
             '    case "$at|$prev" in']
    for c in cmds:
        for o in c.options:
            if o.takes_value:
                what = (f"compadd -- {' '.join(_quote(x) for x in o.choices)}" if o.choices
                        else "_files" if o.path else "_message 'a value'")
                names = "|".join(f'"{c.key}|{n}"' for n in o.names)
                lines.append(f"        ({names}) {what}; return ;;")
    lines += ["    esac", '    case "$at" in']
    for c in cmds:
        subs = _zsh_items(c.subcommands) + " " + " ".join(_quote(x) for x in c.positional_choices)
        opts = _zsh_items({n: o.about for o in c.options for n in o.names})
        lines.append(f'        ("{c.key}")')
        lines.append(f"            items=({subs.strip()}); _describe -t commands command items")
        lines.append(f"            items=({opts}); _describe -t options option items")
        if c.takes_files:
            lines.append("            _files")
        lines.append("            ;;")
    lines += ["    esac", "}",  # autoloaded from $fpath: complete now; sourced: register the function
              'if [[ $zsh_eval_context[-1] == loadautofunc ]]; then _town "$@"; else compdef _town town; fi', ""]
    return "\n".join(lines)


def _fish_when(cmd: Command, every: list[Command]) -> str:
    """The condition under which ``cmd``'s level is the one being completed."""
    if len(cmd.path) == 1:
        return "__fish_use_subcommand"
    tests = [f"__fish_seen_subcommand_from {w}" for w in cmd.path[1:]]
    below = [c.path[-1] for c in every if c.path[:-1] == cmd.path]
    if below:
        tests.append(f"not __fish_seen_subcommand_from {' '.join(below)}")
    return "; and ".join(tests)


def fish(cmds: list[Command]) -> str:
    lines = ["# fish completion for town (town completion fish); written from town's own parser",
             "complete -c town -f"]
    for c in cmds:
        when = _quote(_fish_when(c, cmds))
        for name, about in c.subcommands.items():
            lines.append(f"complete -c town -n {when} -a {_quote(name)} -d {_quote(about)}")
        for value in c.positional_choices:
            lines.append(f"complete -c town -n {when} -a {_quote(value)}")
        if c.takes_files:
            lines.append(f"complete -c town -n {when} -F")
        for o in c.options:
            spec = " ".join(f"-l {n[2:]}" if n.startswith("--") else f"-s {n[1:]}" for n in o.names)
            value = (f" -xa {_quote(' '.join(o.choices))}" if o.choices else " -rF" if o.path else " -x") \
                if o.takes_value else ""
            lines.append(f"complete -c town -n {when} {spec}{value} -d {_quote(o.about)}")
    return "\n".join(lines) + "\n"


WRITERS: dict[str, Callable[[list[Command]], str]] = {"bash": bash, "zsh": zsh, "fish": fish}


def script(shell: str) -> str:
    from game.cli import build_parser

    return WRITERS[shell](list(commands(build_parser())))


def cli_completion(args: argparse.Namespace) -> int:
    sys.stdout.write(script(args.shell))
    return 0
