"""The engine: the tick loop, decision scheduling, player commands, saves, the headless run.

No Textual here (the UI drives the engine from a worker).  ``state.py`` holds the engine's state as
plain data, ``api.py`` its seams as Protocols, ``events.py`` what crosses to the UI, ``build.py``
makes an engine from a town or a save.  ``engine.py`` is the tick and wires the engine's parts, one
object a module: ``towncore.py`` (what they share; ``tuning.py`` their constants), ``things.py``,
``walking.py``, ``commands.py`` (player commands), ``inspecting.py`` (what the screen reads at a
glance), and the parts in the sub-packages: ``decisions/`` (the jobs in flight, their lanes, the
look ahead, spare capacity, the first plans, the ledger of who leads), ``talks/`` (conversations,
the facts in them, going after someone), ``noticing/`` (perceiving, hazards) and ``saves/``
(the save file, and the ``Saver`` that keeps the town as one ``TownState``).  ``running/`` runs a
town past the tick: the paced loop, ``town run`` and its report, the action log and the manifest of
a recorded run.  See docs/ENGINE.md and docs/SAVES.md.
"""

from game.engine.build import TownError, load_engine, new_engine, open_engine
from game.engine.engine import PLAYER, CommandError, Engine
from game.engine.saves import SaveError

__all__ = ["PLAYER", "CommandError", "Engine", "SaveError", "TownError", "load_engine", "new_engine",
           "open_engine"]
