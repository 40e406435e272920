"""The type checker passes: mypy, as ``[tool.mypy]`` in pyproject.toml configures it, over the whole
of game/ with every function typed (the Protocols each layer reads the next through are checked
against their use).  Any error fails the test, with mypy's report."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_mypy_finds_no_error() -> None:
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", "--hide-error-context"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    report = (done.stdout + done.stderr).strip()
    assert done.returncode == 0, f"mypy found errors:\n{report}"


def test_the_check_covers_the_whole_game() -> None:
    import tomllib

    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert conf["files"] == ["game"] and conf["follow_imports"] == "silent"
    strict = [o for o in conf["overrides"] if o.get("disallow_untyped_defs")]
    assert strict and strict[0]["module"] == ["game.*"]  # every function typed
