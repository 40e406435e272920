"""The theme: town play starts with the one set (flag, environment, config file), and one the player
chooses in play (ctrl+p, 'Change theme') is kept in the config file for next time."""

from __future__ import annotations

import tomllib

from fake_engine import FakeEngine, FakeHost
from test_snapshots import main_ready

from game.ui.app import TownApp


async def test_a_theme_chosen_in_play_is_kept_in_the_config_file(tmp_path):
    config = tmp_path / "config" / "config.toml"
    config.parent.mkdir()
    config.write_text('model = "mine"\n', encoding="utf-8")
    app = TownApp(FakeHost(engine=FakeEngine()), tmp_path / "saves", speed="pause", autosave_s=0,
                  theme="nord", keep_theme=config)
    async with app.run_test(size=(80, 24)) as pilot:
        await main_ready(pilot)
        assert app.theme == "nord"
        app.theme = "gruvbox"  # what 'Change theme' in the palette does
        await pilot.pause(0.2)
    assert tomllib.loads(config.read_text(encoding="utf-8")) == {"model": "mine", "theme": "gruvbox"}


async def test_without_a_config_file_nothing_is_written(tmp_path):
    app = TownApp(FakeHost(engine=FakeEngine()), tmp_path / "saves", speed="pause", autosave_s=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await main_ready(pilot)
        assert app.theme == "textual-dark"
        app.theme = "gruvbox"
        await pilot.pause(0.2)
    assert list(tmp_path.iterdir()) == []
