"""The llama-server build's progress (issue 29): redrawn in place on a terminal, a few plain lines in
a log.  A fake cmake output stream stands in for the build: nothing is built here."""

from __future__ import annotations

import io

import pytest

from game.llm import buildserver
from game.llm.buildserver import BuildProgress, run_build_step
from game.llm.fetch import SetupError


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def cmake_output(last: int = 100) -> list[str]:
    """What `cmake --build` prints: a line per object, its percent going up with repeats, and a
    parallel build's late, older percent now and then."""
    lines = ["-- Configuring done\n", "-- Generating done\n"]
    for pct in range(0, last + 1):
        lines.append(f"[{pct:3d}%] Building C object ggml/src/CMakeFiles/ggml.dir/f{pct}.c.o\n")
        lines.append(f"[{pct:3d}%] Building CXX object common/CMakeFiles/common.dir/g{pct}.cpp.o\n")
        if pct % 7 == 3:
            lines.append(f"[{max(0, pct - 2):3d}%] Linking CXX static library libggml.a\n")
    if last == 100:
        lines.append("[100%] Built target llama-server\n")
    return lines


class FakePopen:
    """`subprocess.Popen` of a build that prints ``lines`` and exits with ``code``."""

    lines: list[str] = []
    code = 0

    def __init__(self, cmd, **kw) -> None:
        assert kw.get("stdout") is buildserver.subprocess.PIPE and kw.get("text")
        self.stdout = io.StringIO("".join(self.lines))

    def wait(self) -> int:
        return self.code


def test_a_terminal_gets_one_line_redrawn_in_place():
    said: list[str] = []
    tty = Terminal()
    progress = BuildProgress(said.append, tty)
    for line in cmake_output():
        progress.feed(line)
    progress.done()
    text = tty.getvalue()
    assert said == []  # nothing line by line
    assert text.count("\n") == 1 and text.endswith("\n")  # one line, ended once
    frames = text.rstrip("\n").split("\r")[1:]
    assert frames[0] == "    building llama-server   0%\x1b[K"
    assert frames[-1] == "    building llama-server 100%\x1b[K"
    shown = [int(f.split()[-1].rstrip("%\x1b[K")) for f in frames]
    assert shown == sorted(set(shown)) == list(range(101))  # each percent once, never backwards


def test_a_log_gets_a_plain_line_every_ten_percent():
    said: list[str] = []
    log = io.StringIO()  # not a terminal: a CI log, a pipe
    progress = BuildProgress(said.append, log)
    for line in cmake_output():
        progress.feed(line)
    progress.done()
    assert log.getvalue() == ""  # no escape sequences and no carriage returns in a log
    assert said == [f"    building llama-server {p:>3}%" for p in range(0, 101, 10)]
    assert all("\r" not in s and "\x1b" not in s for s in said)


def test_no_stream_at_all_still_says_the_steps():
    said: list[str] = []
    progress = BuildProgress(said.append, None)
    for line in cmake_output(45):
        progress.feed(line)
    progress.done()
    assert said == [f"    building llama-server {p:>3}%" for p in (0, 10, 20, 30, 40)]


@pytest.mark.parametrize("line", ["[\x1b[31m9%] x\n", "[ -5%] x\n", "[250%] x\n", "[ 4.5%] x\n",
                                  "-- [ 50%] not at the start\n", "[ 50%\n", "", "\n"])
def test_lines_that_are_not_a_percent_are_not_shown(line):
    said: list[str] = []
    tty = Terminal()
    progress = BuildProgress(said.append, tty)
    progress.feed(line)
    progress.done()
    assert said == [] and tty.getvalue() == ""


def test_a_build_step_draws_on_a_terminal_and_keeps_the_whole_output_in_its_log(tmp_path, monkeypatch):
    monkeypatch.setattr(FakePopen, "lines", cmake_output())
    monkeypatch.setattr(buildserver.subprocess, "Popen", FakePopen)
    log = tmp_path / "build.log"
    said: list[str] = []
    tty = Terminal()
    run_build_step(["cmake", "--build", "."], tmp_path, said.append, log, out=tty)
    assert said == [] and tty.getvalue().endswith("100%\x1b[K\n")
    assert log.read_text() == "$ cmake --build .\n" + "".join(cmake_output())


def test_a_build_step_in_a_log_says_a_few_plain_lines(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(FakePopen, "lines", cmake_output())
    monkeypatch.setattr(buildserver.subprocess, "Popen", FakePopen)
    said: list[str] = []
    run_build_step(["cmake", "--build", "."], tmp_path, said.append, tmp_path / "build.log")
    assert len(said) == 11 and said[-1] == "    building llama-server 100%"
    assert capsys.readouterr().err == ""  # stderr (captured: not a terminal) got nothing


def test_a_failed_build_ends_the_redrawn_line_before_the_error(tmp_path, monkeypatch):
    monkeypatch.setattr(FakePopen, "lines", [*cmake_output(37), "error: the compiler died\n"])
    monkeypatch.setattr(FakePopen, "code", 2)
    monkeypatch.setattr(buildserver.subprocess, "Popen", FakePopen)
    tty = Terminal()
    with pytest.raises(SetupError, match=r"failed \(exit 2\)[\s\S]*the compiler died"):
        run_build_step(["cmake", "--build", "."], tmp_path, lambda s: None, tmp_path / "build.log", out=tty)
    assert tty.getvalue().endswith(" 37%\x1b[K\n")  # the error starts on a line of its own
