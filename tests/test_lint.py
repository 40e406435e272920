"""The repository is lint-clean: ``ruff check`` (configured in pyproject.toml) reports nothing.

Its pyflakes rules (F) also make sure every name the code uses is defined: a missing import
(``echo`` in ``town setup``) once broke the README's first command on a fresh machine while the
suite, run where setup had already been done, stayed green.  ruff reads every module without
running it."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(importlib.util.find_spec("ruff") is None,
                                reason="ruff is not installed (it is in the dev extra: pip install -e '.[dev]')")


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    # --no-cache: the suite leaves nothing in the tree
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_ruff_reports_nothing() -> None:
    r = _ruff()
    assert r.returncode == 0, f"ruff check found problems (exit {r.returncode}):\n{r.stdout}{r.stderr}"


def test_the_check_catches_a_missing_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def say(msg):\n    echo(msg)\n")
    r = _ruff("--config", str(ROOT / "pyproject.toml"), str(bad))
    assert r.returncode == 1 and "F821" in r.stdout, r.stdout + r.stderr
