"""The engine: the tick loop, decision scheduling, player commands, saves, the headless run.

No Textual here (the UI drives the engine from a worker).  See docs/ENGINE.md and docs/SAVES.md.
"""

from game.engine.engine import PLAYER, CommandError, Engine
from game.engine.save import SaveError
from game.engine.wiring import TownError

__all__ = ["PLAYER", "CommandError", "Engine", "SaveError", "TownError"]
