"""The CI switch itself: with TOWN_REQUIRE_REAL_MODEL=1 a real-model test whose server or model is
missing fails; without it the same test skips.  Runs pytest on a real real-model test with an empty
model cache (TOWN_HOME pointed at an empty folder), in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TARGET = "tests/llm/test_real_model.py"


def _run(tmp_path: Path, require: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TOWN_REQUIRE_REAL_MODEL"}
    env["TOWN_HOME"] = str(tmp_path / "empty-cache")  # nothing installed: the tests must skip
    env["PYTHONPATH"] = str(ROOT)
    if require is not None:
        env["TOWN_REQUIRE_REAL_MODEL"] = require
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfs",
                           TARGET], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("require, code, words", [
    (None, 0, "skipped"),
    ("0", 0, "skipped"),
    ("1", 1, "TOWN_REQUIRE_REAL_MODEL is set"),
])
def test_the_switch_turns_a_missing_model_into_a_failure(tmp_path, require, code, words):
    r = _run(tmp_path, require)
    out = r.stdout + r.stderr
    assert r.returncode == code, out[-3000:]
    assert words in out, out[-3000:]
    if code:
        assert "town setup --for-tests" in out and " passed" not in out
