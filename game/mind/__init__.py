"""The residents' minds: memory stream, retrieval, reflection, planning, reacting, dialogue.

No Textual, no world, no engine here: the mind gets plain data (``WorldView``, percept texts) and
returns plain data (``Action``, ``DayPlan``, ``Reaction``, ``Line``).  It talks to a model only
through ``game.llm.api.LLM``.
"""

from game.mind.memory.stream import MemoryStream, Record, Weights
from game.mind.mind import Mind, MindConfig
from game.mind.persona import Persona
from game.mind.view import Action, Conversation, DayPlan, Line, PlanBlock, Reaction, WorldView

__all__ = ["Action", "Conversation", "DayPlan", "Line", "MemoryStream", "Mind", "MindConfig", "Persona",
           "PlanBlock", "Reaction", "Record", "Weights", "WorldView"]
