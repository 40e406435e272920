import pytest
from engine_fakes import make_town

from game.engine import build


@pytest.fixture(autouse=True)
def fake_town_loader(monkeypatch, tmp_path):
    """``Engine.new``/``load`` load the hand-built Testville for any path that names it."""
    real = build.load_world

    def load(path):
        if str(path).endswith("testville"):
            return make_town()
        return real(path)
    monkeypatch.setattr(build, "load_world", load)
    town_dir = tmp_path / "testville"
    town_dir.mkdir()
    return town_dir
