"""The cache folder (issue 29): chosen by platformdirs, ``TOWN_HOME`` first, and an existing
``~/.cache/town`` never moved.  A fake home folder and a fake platformdirs stand in for the systems."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import SimpleNamespace

import platformdirs
import pytest

from game.llm import config
from game.llm.config import LLMConfig, town_home


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    """A fake home folder with no cache folder in it, and no TOWN_HOME or XDG_CACHE_HOME."""
    h = tmp_path / "home"
    h.mkdir()
    monkeypatch.setenv("HOME", str(h))
    monkeypatch.delenv("TOWN_HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    return h


@pytest.fixture
def elsewhere(home, monkeypatch) -> SimpleNamespace:
    """platformdirs as on macOS: the user cache folder is not ~/.cache (``.path``; ``.calls`` the
    questions it was asked)."""
    place = home / "Library" / "Caches" / "town"
    calls: list[tuple] = []

    def user_cache_dir(appname=None, appauthor=None, *a, **kw) -> str:
        calls.append((appname, appauthor))
        return str(place)
    monkeypatch.setattr(config.platformdirs, "user_cache_dir", user_cache_dir)
    return SimpleNamespace(path=place, calls=calls)


def test_town_home_wins_over_everything(home, elsewhere, monkeypatch):
    (home / ".cache" / "town").mkdir(parents=True)
    monkeypatch.setenv("TOWN_HOME", "~/models/town")
    assert town_home() == home / "models" / "town"
    assert town_home({"TOWN_HOME": "/srv/town", "XDG_CACHE_HOME": "/x"}) == Path("/srv/town")
    assert LLMConfig.from_args(argparse.Namespace(), {"TOWN_HOME": "/srv/town"}).home == Path("/srv/town")


def test_a_new_installation_elsewhere_gets_the_systems_cache_folder(home, elsewhere):
    assert town_home() == elsewhere.path and elsewhere.calls == [("town", False)]
    assert town_home({}) == elsewhere.path
    assert LLMConfig.from_args(argparse.Namespace(), {}).home == elsewhere.path


def test_an_existing_dot_cache_town_is_still_used_elsewhere(home, elsewhere):
    old = home / ".cache" / "town"
    (old / "bin").mkdir(parents=True)
    (old / "bin" / "llama-server").write_text("built last year")
    assert town_home() == old and elsewhere.calls == []  # nothing moves, platformdirs is not asked
    assert LLMConfig.from_args(argparse.Namespace(), {}).home == old


def test_an_existing_folder_under_xdg_cache_home_is_still_used(home, elsewhere, tmp_path, monkeypatch):
    xdg = tmp_path / "xdg"
    (xdg / "town").mkdir(parents=True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(xdg))
    assert town_home() == xdg / "town"
    assert town_home({"XDG_CACHE_HOME": str(xdg)}) == xdg / "town"


def test_a_file_named_like_the_old_folder_is_not_a_cache_folder(home, elsewhere):
    (home / ".cache").mkdir()
    (home / ".cache" / "town").write_text("not a folder")
    assert town_home() == elsewhere.path


@pytest.mark.skipif(sys.platform != "linux", reason="platformdirs' own answer on Linux")
@pytest.mark.parametrize("exists", [False, True])
def test_on_linux_the_folder_is_the_same_as_before(home, tmp_path, monkeypatch, exists):
    if exists:
        (home / ".cache" / "town").mkdir(parents=True)
    assert town_home() == home / ".cache" / "town" == Path(platformdirs.user_cache_dir("town", appauthor=False))
    xdg = tmp_path / "xdg"
    monkeypatch.setenv("XDG_CACHE_HOME", str(xdg))
    assert town_home() == xdg / "town" == Path(platformdirs.user_cache_dir("town", appauthor=False))
