import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from game.engine import build  # noqa: E402


@pytest.fixture
def measureville(monkeypatch, tmp_path):
    """``Engine.new``/``load`` load the hand-built Measureville for any path that names it."""
    from measure_fakes import make_town

    real = build.load_world

    def load(path):
        if str(path).endswith("measureville"):
            return make_town()
        return real(path)
    monkeypatch.setattr(build, "load_world", load)
    town_dir = tmp_path / "measureville"
    town_dir.mkdir()
    return town_dir
