"""The game is a real package (issue 29): a wheel carries the default town, the prompt templates and
the tables; installed, it plays the default town from any directory; ``town --version``; a town
argument names a built-in town, and the old top-level ``maps/default`` still finds it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as dist_version
from pathlib import Path

import pytest

import game
from game.cli import main, version
from game.world import MapError, builtin_town, default_town_path, load_town, resolve_town_path

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "game"


def _build_backend_here() -> bool:
    """Whether this environment has the build backend pyproject.toml asks for (setuptools>=77, a
    dev dependency), so the wheel builds without fetching it (--no-build-isolation)."""
    try:
        return int(dist_version("setuptools").split(".")[0]) >= 77
    except (PackageNotFoundError, ValueError):
        return False


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """``pip wheel . --no-deps`` of a copy of the checkout (setuptools writes build/ and
    *.egg-info into the tree it builds; the checkout stays clean)."""
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(GAME, src / "game", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    out = tmp_path_factory.mktemp("dist")
    cmd = [sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-q", "-w", str(out)]
    if _build_backend_here():
        cmd.append("--no-build-isolation")
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    (whl,) = out.glob("town-*.whl")
    return whl


def test_the_wheel_carries_the_default_town_the_prompts_and_every_file_of_the_game(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for f in ("town.tmx", "town.tsx", "town.png", "residents.json"):
        assert f"game/maps/default/{f}" in names
    prompts = sorted(p.name for p in (GAME / "mind" / "prompts").glob("*.txt"))
    assert prompts and all(f"game/mind/prompts/{p}" in names for p in prompts)
    for f in ("game/mind/interview/interview.txt", "game/world/kinds.toml", "game/measure/place_fit.json",
              "game/ui/town.tcss"):
        assert f in names
    # every file of the package, code and data, and nothing from outside it
    ours = {p.relative_to(ROOT).as_posix() for p in GAME.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    assert sorted(ours - names) == []
    assert not [n for n in names if not n.startswith(("game/", "town-"))]
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(meta).decode()
    assert f"\nVersion: {game.__version__}\n" in text and "License-Expression: MIT" in text
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)


def test_the_installed_wheel_plays_the_default_town_from_another_directory(wheel, tmp_path):
    """The wheel unpacked as pip installs it, run from a directory with no maps/ and no game/: the
    package's own files are found through importlib.resources, never the checkout's."""
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    code = (
        "import json, game\n"
        "from game.world import default_town_path, load_town\n"
        "from game.mind import prompting\n"
        "from game.measure.placefit import load_table\n"
        "t = load_town()\n"
        "print(json.dumps({'game': game.__file__, 'town': str(default_town_path()), 'name': t.name,\n"
        "                  'residents': len(t.residents), 'named': load_town('default').name,\n"
        "                  'prompts': len(prompting.names()), 'fits': len(load_table()['fits'])}))\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert Path(got["game"]).is_relative_to(site) and Path(got["town"]) == site / "game" / "maps" / "default"
    assert got["name"] == got["named"] == "Millbrook" and got["residents"] >= 5
    assert got["prompts"] > 5 and got["fits"] >= 100

    r = subprocess.run([sys.executable, "-m", "game", "map"], cwd=elsewhere, env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "Millbrook: " in r.stdout and " residents" in r.stdout and r.stdout.count("\n") > 40

    r = subprocess.run([sys.executable, "-m", "game", "--version"], cwd=elsewhere, env=env,
                       capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout) == (0, f"town {game.__version__}\n")


def test_town_version_prints_the_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert out == f"town {version()}\n" and out.split()[1][0].isdigit()


def test_the_version_falls_back_to_the_package_in_a_checkout_never_installed(monkeypatch):
    import importlib.metadata

    def missing(name: str) -> str:
        raise PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert version() == game.__version__


def test_the_default_town_is_read_from_the_package():
    assert default_town_path() == Path(game.__file__).parent / "maps" / "default"
    assert (default_town_path() / "town.tmx").is_file()


def test_a_built_in_town_is_named_from_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert builtin_town("default") == default_town_path()
    assert load_town("default").name == "Millbrook"
    # the top-level maps/default of older checkouts, and an absolute town path kept in a save or a
    # recording made by another installation
    assert resolve_town_path("maps/default") == default_town_path()
    assert resolve_town_path("/nowhere/old-install/game/maps/default") == default_town_path()
    # a folder that is there is used as it is, and an unknown name is reported with the built-ins
    (tmp_path / "default").mkdir()
    assert resolve_town_path("default") == Path("default")
    assert resolve_town_path("nowhere") == Path("nowhere")
    with pytest.raises(MapError, match="built-in town: default"):
        load_town("nowhere")
    assert builtin_town("../default") is None and builtin_town("") is None


def test_the_shipped_scenarios_name_the_built_in_town():
    from game.experiment.scenario import load_scenario

    for f in ("small-cast-day.toml", "stove-fire.toml"):
        assert load_scenario(ROOT / "scenarios" / f).town_path() == default_town_path().resolve()


def test_a_save_of_the_default_town_made_by_another_installation_loads(tmp_path):
    """A save keeps its town's absolute path; one made in an older clone (top-level maps/default)
    or another install of the package names a folder that is gone here, and still loads."""
    import sqlite3

    from game.engine.build import load_engine, new_engine

    save = tmp_path / "t.save"
    new_engine("default", None, small=True).save(save)
    db = sqlite3.connect(save)
    with db:
        (kept,) = db.execute("SELECT value FROM meta WHERE key = 'town_path'").fetchone()
        db.execute("UPDATE meta SET value = ? WHERE key = 'town_path'", (json.dumps("/old/clone/maps/default"),))
    db.close()
    assert json.loads(kept) == str(default_town_path().resolve())
    engine = load_engine(save, None)
    assert engine.town.name == "Millbrook" and Path(engine.core.town_path) == default_town_path()
