"""The engine: the tick loop, decision scheduling, player commands, saves, the headless run.

No Textual here (the UI drives the engine from a worker).  ``state.py`` holds the engine's state as
plain data, ``api.py`` its seams as Protocols, ``build.py`` makes an engine from a town or a save,
``saves/writing.py`` reads and writes a saved town.  ``engine.py`` is the tick and wires the engine's
parts, one object a module: ``towncore.py`` (what they share), ``things.py``, ``walking.py``,
``decisions/jobs.py``, ``talks/facts.py``, ``talks/conversations.py`` (conversations), ``talks/seeking.py``, ``noticing/hazards.py``,
``noticing/perceiving.py``, ``decisions/lookahead.py``, ``decisions/capacity.py``, ``decisions/lanes.py`` (decisions), ``saves/saver.py``,
``commands.py`` (player commands), ``decisions/leadtime.py``; ``inspecting.py`` what the screen reads at a
glance; ``saves/reading.py`` and ``saves/streams.py`` the halves of saves below ``saves/writing.py``;
``tuning.py`` their constants; ``events.py`` what crosses to the UI; ``running/headless.py`` ``town run``
(``running/report.py`` its report);
``running/manifest.py`` what a recorded run needs to replay.  See docs/ENGINE.md and docs/SAVES.md.
"""

from game.engine.build import TownError, load_engine, new_engine, open_engine
from game.engine.engine import PLAYER, CommandError, Engine
from game.engine.saves import SaveError

__all__ = ["PLAYER", "CommandError", "Engine", "SaveError", "TownError", "load_engine", "new_engine",
           "open_engine"]
