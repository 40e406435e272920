from __future__ import annotations

from pathlib import Path

import pytest

from game.world import default_town_path, load_town

REPO = Path(__file__).resolve().parents[2]
DEFAULT = default_town_path()  # game/maps/default, read from the package
VILLE_SRC = (REPO / ".." / "shared" / "the_ville").resolve()


@pytest.fixture(scope="session")
def town():
    return load_town(DEFAULT)


@pytest.fixture(scope="session")
def ville_src() -> Path:
    if not (VILLE_SRC / "environment").is_dir():
        pytest.skip(f"the original Smallville data is not at {VILLE_SRC}")
    return VILLE_SRC


@pytest.fixture(scope="session")
def ville(ville_src, tmp_path_factory):
    from game.world.ville import import_ville

    out = tmp_path_factory.mktemp("ville")
    counts = import_ville(ville_src, out)
    return load_town(out), counts, out
