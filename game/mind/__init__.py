"""The residents' minds: memory stream, retrieval, reflection, planning, reacting, dialogue.

No Textual, no world, no engine here: the mind gets plain data (``WorldView``, percept texts) and
returns plain data (``Action``, ``DayPlan``, ``Reaction``, ``Line``).  It talks to a model only
through ``game.llm.api.LLM``.  ``mind.py`` composes a ``Mind`` of parts that share a ``MindCore``
(``core.py``; ``config.py`` its settings): ``senses.py`` (what it takes in), ``reflection.py``,
and the sub-packages ``memory/`` (the stream and its retrieval), ``planning/`` (the day plan, its
steps, where an action happens), ``reacting/`` (a salient sight, a hazard), ``talk/`` (dialogue),
``facts/`` (what it knows as data, and the rules that hold words to it) and ``interview/`` (the one
interview).  Beside them: ``view.py`` (the data that crosses to the engine), ``persona.py``,
``schemas.py`` (the typed answers), ``prompting.py`` with ``prompts/*.txt``, ``components.py`` (a
prompt's context) and ``mindstate.py`` (a mind as a save holds it).  See docs/MIND.md.
"""

from game.mind.memory.stream import MemoryStream, Record, Weights
from game.mind.mind import Mind, MindConfig
from game.mind.persona import Persona
from game.mind.view import Action, Conversation, DayPlan, Line, PlanBlock, Reaction, WorldView

__all__ = ["Action", "Conversation", "DayPlan", "Line", "MemoryStream", "Mind", "MindConfig", "Persona",
           "PlanBlock", "Reaction", "Record", "Weights", "WorldView"]
