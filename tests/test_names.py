"""Every name the code uses is defined: a missing import (``echo`` in ``town setup``) once broke
the README's first command on a fresh machine while the suite, run where setup had already been
done, stayed green.  pyflakes reads every module under game/ and bench/ without running it."""

from __future__ import annotations

import ast
from pathlib import Path

import pyflakes.messages as m
from pyflakes.checker import Checker

ROOT = Path(__file__).resolve().parents[1]
FATAL = (m.UndefinedName, m.UndefinedLocal, m.UndefinedExport, m.ImportStarUsed)


def _problems(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found = Checker(tree, filename=str(path))
    return [f"{path.relative_to(ROOT)}:{msg.lineno}: {msg.message % msg.message_args}"
            for msg in found.messages if isinstance(msg, FATAL)]


def test_no_undefined_names() -> None:
    files = sorted(p for d in ("game", "bench", "scripts") for p in (ROOT / d).rglob("*.py"))
    assert len(files) > 50
    problems = [p for f in files for p in _problems(f)]
    assert not problems, "\n".join(problems)


def test_the_check_catches_a_missing_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def say(msg):\n    echo(msg)\n")
    found = Checker(ast.parse(bad.read_text()), filename=str(bad))
    assert any(isinstance(x, m.UndefinedName) for x in found.messages)
