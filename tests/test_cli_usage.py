"""A usage error is one plain line on stderr, named by the command it was given to and pointing at
that command's help, with exit 2 (argparse's own printed the whole usage above it, 4-6 lines)."""

from __future__ import annotations

import pytest

from game.cli import main

CASES = {
    "no command": ([], "town", "the following arguments are required: command"),
    "unknown command": (["bogus"], "town", "invalid choice: 'bogus'"),
    "run without --until": (["run", "default"], "town run", "the following arguments are required: --until"),
    "run, a bad --pace": (["run", "default", "--until", "day 1 09:00", "--pace", "slow"], "town run",
                          "argument --pace: invalid choice: 'slow'"),
    "play, an unknown flag": (["play", "--nope"], "town play", "unrecognized arguments: --nope"),
    "llm without check": (["llm"], "town llm", "the following arguments are required: {check}"),
    "llm check, an extra word": (["llm", "check", "now"], "town llm check", "unrecognized arguments: now"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_usage_error_is_one_line_with_exit_2(case, capsys):
    argv, prog, words = CASES[case]
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.endswith("\n")
    assert err.startswith(f"{prog}: error: ") and words in err
    assert err.rstrip("\n").endswith(f"(see {prog} --help)")
    assert "usage:" not in err
