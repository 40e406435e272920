"""``town completion bash|zsh|fish``: each script is written from the parser and names every
command at every level; the bash one is run in bash and completes what it should."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from game.cli import build_parser, main
from game.completion import commands, script

LEVELS = list(commands(build_parser()))
EVERY_COMMAND = sorted({c.path[-1] for c in LEVELS if len(c.path) > 1})


def test_the_parser_is_walked_to_every_level():
    keys = {c.key for c in LEVELS}
    assert {"town", "town play", "town run", "town llm", "town llm check", "town config", "town config set",
            "town completion", "town map"} <= keys
    assert {"setup", "llm", "play", "run", "import-ville", "interview", "report", "audit", "experiment",
            "bench", "map", "config", "completion"} <= set(EVERY_COMMAND)


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_script_names_every_subcommand_and_flag(shell, capsys):
    assert main(["completion", shell]) == 0
    text = capsys.readouterr().out
    assert text == script(shell)
    for name in EVERY_COMMAND:
        assert f"'{name}" in text or f" {name}" in text, name
    for level in LEVELS:
        for option in level.options:
            flag = option.names[-1]
            assert (flag if shell != "fish" else f"-l {flag[2:]}") in text, (level.key, flag)
    assert "lockstep normal fast" in text or "'lockstep' 'normal' 'fast'" in text  # a flag's choices


@pytest.mark.parametrize("shell, check", [("bash", ["bash", "-n"]), ("zsh", ["zsh", "-n"]),
                                          ("fish", ["fish", "--no-execute"])])
def test_each_script_is_read_by_its_shell(shell, check, tmp_path):
    if shutil.which(check[0]) is None:
        pytest.skip(f"{check[0]} is not installed here")
    path = tmp_path / f"town.{shell}"
    path.write_text(script(shell), encoding="utf-8")
    r = subprocess.run([*check, str(path)], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr


def complete(tmp_path, line: str) -> list[str]:
    """What bash offers for ``line`` (the last word being completed) with the script loaded."""
    path = tmp_path / "town.bash"
    path.write_text(script("bash"), encoding="utf-8")
    words = line.split(" ")
    quoted = " ".join("'" + w + "'" for w in words)
    code = (f"source {path}; COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; _town; "
            'printf "%s\\n" "${COMPREPLY[@]}"')
    r = subprocess.run(["bash", "-c", code], capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return [w for w in r.stdout.splitlines() if w and w != "town.bash"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed here")
@pytest.mark.parametrize("line, offered", [
    ("town ", ["setup", "llm", "play", "run", "config", "completion", "--version"]),
    ("town pl", ["play"]),
    ("town llm ", ["check"]),
    ("town llm check --j", ["--json"]),
    ("town run default --pace ", ["lockstep", "normal", "fast"]),
    ("town play --sp", ["--speed"]),
    ("town play --speed f", ["fast"]),
    ("town config set ", ["llm_url", "model", "saves", "theme", "speed"]),
    ("town completion ", ["bash", "zsh", "fish"]),
])
def test_bash_completes_commands_flags_and_choices(tmp_path, line, offered):
    got = complete(tmp_path, line)
    assert set(offered) <= set(got), got
    if line.endswith((" pl", "--j", "--sp", " f")):
        assert got == offered


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed here")
def test_bash_offers_files_where_a_path_goes_and_none_for_a_time(tmp_path):
    (tmp_path / "day.save").write_text("", encoding="utf-8")
    assert "day.save" in complete(tmp_path, "town play ")
    assert "day.save" in complete(tmp_path, "town run default --save ")
    assert complete(tmp_path, "town run default --until ") == []


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed here")
@pytest.mark.parametrize("line, offered", [
    ("town pl", ["play"]),
    ("town llm ", ["check"]),
    ("town run default --pace ", ["lockstep", "normal", "fast"]),
    ("town config set ", ["llm_url", "model", "saves", "theme", "speed"]),
])
def test_fish_completes_commands_and_choices(tmp_path, line, offered):
    path = tmp_path / "town.fish"
    path.write_text(script("fish"), encoding="utf-8")
    r = subprocess.run(["fish", "--no-config", "-c", f"source {path}; complete -C '{line}'"],
                       capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    got = [w.split("\t")[0] for w in r.stdout.splitlines()]
    assert set(offered) <= set(got), got


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed here")
@pytest.mark.parametrize("line, offered", [
    ("town ", ["play:play a town", "llm:language model tools", "--version:print the version of town and exit"]),
    ("town llm ", ["check:reach the model, make one structured call and one embedding"]),
    ("town run default --pace ", ["lockstep", "normal", "fast"]),
    ("town run default --save ", ["(files)"]),
    ("town config set ", ["llm_url", "speed"]),
])
def test_zsh_offers_commands_flags_and_choices(tmp_path, line, offered):
    """The script's function run with zsh's completion builtins stood in for by ones that print
    what they are given (``compadd``, ``_describe``, ``_files``)."""
    path = tmp_path / "_town"
    path.write_text(script("zsh"), encoding="utf-8")
    words = line.split(" ")
    quoted = " ".join("'" + w + "'" for w in words)
    code = ("compdef() { :; }; compadd() { shift; print -l -- \"$@\"; }; _files() { print '(files)'; }; "
            "_message() { :; }; _describe() { print -l -- \"${(@P)4}\"; }; "
            f"source {path}; words=({quoted}); CURRENT={len(words)}; _town")
    r = subprocess.run(["zsh", "-f", "-c", code], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    got = r.stdout.splitlines()
    assert set(offered) <= set(got), got
