"""How the app gets a model and an engine: the one place that knows the layers below.

``TownApp`` asks a ``GameHost`` for an LLM (an async context manager, started with a progress
callback) and for engines (new or loaded).  ``RealHost`` uses ``game.llm`` and ``game.engine``;
the tests use a fake host with a fake engine (under tests/ui/).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from game.engine.api import EngineView, LiveEngine, Replayable
from game.engine.saves import SUFFIX, SaveError, is_save, save_files
from game.llm.api import LLM

if TYPE_CHECKING:  # pragma: no cover
    from game.engine.build import TownInput

Progress = Callable[..., None]


@dataclass
class SaveInfo:
    path: Path
    town: str
    clock: str
    residents: list[str]
    error: str | None = None  # set when the file could not be read as a save


class GameHost(Protocol):
    def open_llm(self, progress: Progress) -> AbstractAsyncContextManager[LLM]: ...

    async def new_engine(self, llm: LLM) -> EngineView: ...

    async def load_engine(self, path: Path, llm: LLM) -> EngineView: ...

    def describe_save(self, path: Path) -> SaveInfo:
        """What the load screen lists of a save; raises ``SaveError`` for a file it cannot read."""
        ...

    @property
    def watch(self) -> str | None:
        """A recorded run to watch instead of a town (``town play --watch``), or None."""
        ...

    def watch_engine(self) -> Replayable:
        """The recorded run, ready to watch (asked only when ``watch`` is set)."""
        ...

    @property
    def start_save(self) -> Path | None: ...


def list_saves(host: GameHost, folder: Path) -> list[SaveInfo]:
    """Every save in ``folder`` (newest first), each described or marked unreadable."""
    out = []
    for p in save_files(folder):
        try:
            out.append(host.describe_save(p))
        except SaveError as e:  # one bad file must not hide the others
            out.append(SaveInfo(p, "?", "?", [], error=f"{p.name}: {e}"))
    return out


class RealHost:
    """The product: the model from ``game.llm`` and engines from ``game.engine``."""

    def __init__(self, args: argparse.Namespace, checked: TownInput | None = None) -> None:
        self.args = args
        self._checked = checked  # the town or save named on the command line, already read and checked
        self.watch: str | None = getattr(args, "watch", None)  # a recorded run to watch
        town = getattr(args, "town", None)
        self.small = bool(getattr(args, "small", False))
        # a new town's first moment (--start; game.engine.build.opening): by default before dawn
        self.start: str = getattr(args, "start", None) or "dawn"
        self.town_path: Path | None = None
        self._start_save: Path | None = None
        if town:
            p = Path(town)
            if is_save(p) or (p.suffix == SUFFIX and p.is_file()):
                # a damaged .save is still a save: loading it says what is wrong with it
                self._start_save = p
            else:
                self.town_path = p

    @property
    def start_save(self) -> Path | None:
        return self._start_save

    def open_llm(self, progress: Progress) -> AbstractAsyncContextManager[LLM]:
        from game.llm.config import LLMConfig
        from game.llm.session import open_llm

        config = LLMConfig.from_args(self.args)
        # what befalls the model server later is told from its status (``Panels.poll``), not here
        return open_llm(config, progress=progress, server_news=lambda _said: None)

    def watch_engine(self) -> Replayable:
        """The recorded run to watch (no model needed): a ``game.replay.watch.WatchEngine``."""
        from game.replay.watch import WatchEngine

        if self.watch is None:
            raise ValueError("no recorded run to watch (town play --watch RUN)")
        return WatchEngine.of_recording(self.watch)

    async def new_engine(self, llm: LLM) -> LiveEngine:
        from game.engine.build import build_engine, opening, read_town
        from game.world import default_town_path

        if (inp := self._take_checked(self.town_path)) is None:
            inp = read_town(self.town_path if self.town_path is not None else default_town_path(), small=self.small)
        return build_engine(opening(inp, self.start), llm)

    async def load_engine(self, path: Path, llm: LLM) -> LiveEngine:
        from game.engine import load_engine

        if (inp := self._take_checked(path)) is not None:
            from game.engine.build import build_engine

            return build_engine(inp, llm)
        return load_engine(path, llm)

    def _take_checked(self, path: Path | None) -> TownInput | None:
        """The input read at the start, once (a save's memories are handed over, not copied): the
        first engine is built from it, not read a second time; later ones read their file again."""
        inp, self._checked = self._checked, None
        return inp if inp is not None and path is not None and path in (self.town_path, self._start_save) else None

    def describe_save(self, path: Path) -> SaveInfo:
        from game.engine.saves import describe_save

        d = describe_save(path)
        return SaveInfo(path, str(d.get("town", "?")), str(d.get("clock", "?")),
                        [str(r) for r in d.get("residents", [])])

