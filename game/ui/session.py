"""The town in play: the one running engine, the model it runs on, the file it is from, the speed
its clock runs at, and who the player is in it.  Every part of the app (game/ui/app.py) reads the
town here; the engine worker (worker.py) and the files (files.py) are the ones that replace it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from game.engine.api import EngineView, Replayable
from game.llm.api import LLM
from game.ui.mapview import PLAYER


class Session:
    """Owns ``engine`` (None until the town has started), ``llm``, ``save_path`` (where ctrl+s
    writes: the file the town was loaded from or last saved to), ``speed`` and the two events the
    engine loop waits on: ``wake`` (a key changed something: a paused loop looks at once) and
    ``closing`` (the app is quitting: the model session ends)."""

    def __init__(self, save_path: Path | None, speed: str) -> None:
        self.engine: EngineView | None = None
        self.llm: LLM | None = None
        self.save_path = save_path
        self.speed = speed
        self.exit_code = 0  # 1 when the town never started
        self.wake = asyncio.Event()
        self.closing = asyncio.Event()

    @property
    def replaying(self) -> bool:
        """A recorded run is being watched (it has its own keys; it is forked, not saved)."""
        return self.engine is not None and self.engine.is_replay

    @property
    def replay(self) -> Replayable | None:
        """The recorded run being watched, or None."""
        engine = self.engine
        return engine if isinstance(engine, Replayable) and engine.is_replay else None

    @property
    def embodied(self) -> str | None:
        """The resident the player speaks and walks for: the engine's, never a copy (a loaded save
        may hold one)."""
        return self.engine.embodied if self.engine is not None else None

    @property
    def visitor(self) -> str | None:
        """The visitor's name once the player walked in (the engine's)."""
        player = self.engine.player if self.engine is not None else None
        return player.name if player is not None else None

    @property
    def controlled(self) -> str | None:
        """The actor the arrow keys move: the embodied resident, else the visitor."""
        if self.embodied:
            return self.embodied
        return PLAYER if self.visitor else None

    @property
    def speaker_name(self) -> str:
        return self.embodied or self.visitor or "you"
