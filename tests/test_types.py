"""The type checker passes: mypy, as ``[tool.mypy]`` in pyproject.toml configures it (the mind and
the engine, every function typed, and the leaf modules they import; the Protocols they read the
world and the model through are checked against their use).  Any error fails the test, with mypy's report."""

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


def test_the_check_covers_the_mind() -> None:
    import tomllib

    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert "game/mind" in conf["files"] and conf["follow_imports"] == "silent"


def test_the_check_covers_the_engine() -> None:
    import tomllib

    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert "game/engine" in conf["files"]
