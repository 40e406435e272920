"""scripts/screenshot.py, the README's picture (docs/screenshot.svg): the real app on the recorded
model makes an SVG that holds the town's map, its clock bar and a resident drawn with its glyph."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from game.world import default_town_path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "screenshot.py"
RECORDING = ROOT / "tests" / "fixtures" / "ui" / "journey.jsonl"

pytestmark = [
    pytest.mark.skipif(not default_town_path().exists(), reason="no default town"),
    pytest.mark.skipif(not RECORDING.exists(), reason="no recorded journey (tests/fixtures/ui/journey.jsonl)"),
]


def load_script():
    spec = importlib.util.spec_from_file_location("town_screenshot", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


async def test_the_screenshot_shows_the_town_and_its_residents(tmp_path):
    shot_script = load_script()
    out = tmp_path / "pics" / "town.svg"
    shot = await shot_script.take(out, size=(100, 28), ticks=60, recording=RECORDING)
    assert shot.path == out and out.exists()
    svg = out.read_text(encoding="utf-8").replace("&#160;", " ")  # (Rich writes a space so)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert shot.ticks == 60 and not shot.cut_short
    assert shot.clock == "Day 1, 06:10:00" and "Day 1, 06:10:00" in svg  # the clock bar
    assert "Millbrook" in svg  # the town's name, in the clock bar
    assert "♣" in svg  # the map: the default town's trees around the houses
    # the selected resident is in view, drawn with her glyph on the map (one cell of its own)
    assert shot.selected == shot_script.SELECT and shot.selected in shot.glyphs
    glyph = shot.glyphs[shot.selected]
    assert f">{glyph}</text>" in svg
    assert shot.selected in svg  # her panel
    assert shot.bubbles and any(e in svg for e in shot.bubbles.values())  # an emoji bubble


def test_a_missing_recording_is_a_clear_failure(tmp_path, capsys):
    shot_script = load_script()
    code = shot_script.main(["--out", str(tmp_path / "x.svg"), "--recording", str(tmp_path / "none.jsonl")])
    assert code == 1 and not (tmp_path / "x.svg").exists()
    assert "no recording of the model" in capsys.readouterr().err
