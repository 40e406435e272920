"""Only game.ui imports Textual: every other module of the game imports without it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def modules_outside_ui() -> list[str]:
    out = []
    for path in sorted((ROOT / "game").rglob("*.py")):
        rel = path.relative_to(ROOT).with_suffix("")
        parts = rel.parts
        if parts[:2] == ("game", "ui"):
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if parts[-1] == "__main__":
            continue
        out.append(".".join(parts))
    return out


def test_there_are_modules_to_check():
    mods = modules_outside_ui()
    assert "game.cli" in mods and "game.engine.events" in mods


def test_only_game_ui_imports_textual():
    mods = modules_outside_ui()
    code = (
        "import importlib, sys\n"
        "bad = []\n"
        f"for m in {mods!r}:\n"
        "    importlib.import_module(m)\n"
        "    if 'textual' in sys.modules:\n"
        "        bad.append(m); break\n"
        "print('BAD:' + ','.join(bad))\n"
    )
    # one subprocess for all (the machine is small): the first module that pulls textual in is named
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip().endswith("BAD:"), r.stdout


def test_game_ui_does_import_textual():
    r = subprocess.run([sys.executable, "-c", "import sys, game.ui.app; print('textual' in sys.modules)"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.stdout.strip() == "True", r.stderr[-2000:]
