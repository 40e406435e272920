"""The config file (game/settings.py): where it is, what it holds, and the order a setting is taken
in (a flag, else the environment, else the file, else the default); ``town config`` says each with
where it came from.  Every test has its own config and data folders (XDG_CONFIG_HOME, XDG_DATA_HOME,
which platformdirs honours) and runs in its own current folder."""

from __future__ import annotations

import tomllib

import pytest

from game import settings
from game.cli import build_parser, main
from game.llm.config import LLMConfig


@pytest.fixture
def home(tmp_path, monkeypatch):
    """Empty config and data folders, no TOWN_* settings, the current folder empty."""
    monkeypatch.delenv("TOWN_CONFIG", raising=False)
    for setting in settings.SETTINGS.values():
        monkeypatch.delenv(setting.env, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    return tmp_path


def test_the_file_is_in_the_user_config_folder_and_town_config_says_every_default(home, capsys):
    assert settings.config_path() == home / "config" / "town" / "config.toml"
    assert main(["config"]) == 0
    out = capsys.readouterr().out
    assert f"config file: {home / 'config' / 'town' / 'config.toml'} (not there yet" in out
    assert f"saves    {home / 'data' / 'town' / 'saves'}  (default: the user data folder)" in out
    assert "theme    textual-dark  (default)" in out and "speed    normal  (default)" in out
    assert "llm_url  (not set)  (default)" in out


def test_set_writes_plain_lines_that_toml_reads_and_keeps_the_rest(home, capsys):
    path = settings.config_path()
    path.parent.mkdir(parents=True)
    path.write_text('# my settings\nmodel = "old"\n', encoding="utf-8")
    assert main(["config", "set", "model", 'qwen "7b"']) == 0
    assert main(["config", "set", "llm_url", "http://gpu:8000/v1/"]) == 0
    assert main(["config", "set", "saves", r"C:\games\town saves"]) == 0
    text = path.read_text(encoding="utf-8")
    assert text.startswith('# my settings\nmodel = "qwen \\"7b\\""\n')  # in its place, not twice
    assert tomllib.loads(text) == {"model": 'qwen "7b"', "llm_url": "http://gpu:8000/v1",
                                   "saves": r"C:\games\town saves"}
    assert main(["config", "unset", "model"]) == 0
    assert "model" not in tomllib.loads(path.read_text(encoding="utf-8"))
    assert "# my settings" in path.read_text(encoding="utf-8")
    out = capsys.readouterr().out
    assert f"model = qwen \"7b\" (in {path})" in out and f"model taken out of {path}" in out


def test_a_flag_wins_over_the_environment_which_wins_over_the_file(home, monkeypatch, capsys):
    settings.keep("model", "from-file")
    settings.keep("llm_url", "http://file:1/v1")
    settings.keep("speed", "fast")
    settings.keep("saves", str(home / "file-saves"))
    args = build_parser().parse_args(["play"])
    cfg = LLMConfig.from_args(args)
    assert (cfg.model, cfg.llm_url) == ("from-file", "http://file:1/v1")
    monkeypatch.setenv("TOWN_MODEL", "from-env")
    monkeypatch.setenv("TOWN_SPEED", "max")
    cfg = LLMConfig.from_args(args)
    assert (cfg.model, cfg.llm_url) == ("from-env", "http://file:1/v1")
    args = build_parser().parse_args(["play", "--model", "from-flag", "--saves", "flag-saves", "--speed", "pause"])
    assert LLMConfig.from_args(args).model == "from-flag"
    now = settings.current(args)
    assert now["saves"] == settings.Resolved("flag-saves", "flag --saves")
    assert now["speed"] == settings.Resolved("pause", "flag --speed")
    assert now["model"] == settings.Resolved("from-flag", "flag --model")
    now = settings.current()  # town config: no flags
    assert now["speed"] == settings.Resolved("max", "environment TOWN_SPEED")
    assert now["saves"] == settings.Resolved(str(home / "file-saves"), "config file")
    assert main(["config"]) == 0
    out = capsys.readouterr().out
    assert "model    from-env  (environment TOWN_MODEL)" in out and "llm_url  http://file:1/v1  (config file)" in out


def test_saves_kept_in_the_current_folder_stay_reachable(home):
    assert settings.current()["saves"].value == str(home / "data" / "town" / "saves")
    (home / "here" / "saves").mkdir()  # where every save went before the config file
    assert settings.current()["saves"] == settings.Resolved("saves", "default: ./saves is there")


@pytest.mark.parametrize("text, words", [
    ("speed = 3\n", "speed must be a string in quotes"),
    ('speed = "warp"\n', "speed 'warp' must be one of pause, normal, fast, max"),
    ('colour = "red"\n', "no setting 'colour'"),
    ('llm_url = "localhost:8080"\n', "llm_url 'localhost:8080' must start with http://"),
    ("model = \n", "not TOML"),
])
def test_a_bad_config_file_is_one_line_naming_the_file_and_key(home, capsys, text, words):
    path = settings.config_path()
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    for argv in (["config"], ["llm", "check"], ["play", "--speed", "fast"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"config file {path}: " in err and words in err, (argv, err)


def test_a_bad_value_to_set_is_refused_and_nothing_written(home, capsys):
    assert main(["config", "set", "speed", "warp"]) == 2
    assert capsys.readouterr().err == "town config: speed 'warp' must be one of pause, normal, fast, max\n"
    assert not settings.config_path().exists()
    with pytest.raises(SystemExit) as e:
        main(["config", "set", "colour", "red"])
    assert e.value.code == 2


def test_an_unknown_theme_is_said_before_the_screen_with_where_it_came_from(home, capsys, monkeypatch):
    settings.keep("theme", "no-such-theme")
    assert main(["play"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("town play: theme 'no-such-theme' (config file) is not one of: textual-dark")
    monkeypatch.setenv("TOWN_THEME", "also-not")
    assert main(["play"]) == 2
    assert "theme 'also-not' (environment TOWN_THEME)" in capsys.readouterr().err
