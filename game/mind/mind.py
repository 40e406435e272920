"""One resident's mind: memory, retrieval, reflection, planning, reacting and dialogue.

The architecture of Park et al. 2023 on a call budget (see docs/MIND.md):

* every decision is a coroutine that returns plain data; the model is asked only where no rule
  serves (sleeping, walking, routine sights, the first morning are rules);
* each call asks for a lot: a whole day plan, a whole 1-2 hour block of 5-15 minute actions with
  places and emoji, many importance scores at once, a reflection in two calls;
* a decision that fails (server down, bad answer) degrades to the lifestyle routine or to
  "continue", records the error in ``last_error``/``stats`` and never raises ``LLMError``.

``Mind`` is composed of parts, each an object in its own module that owns its working state and
takes what it needs in its constructor: the core every part shares (core.py: persona, settings,
memory, facts, counts, the clock, the one way to ask the model), the agenda (planning/agenda.py:
the plan, the steps, the step in hand), the hearsay and the senses (senses.py), the reflector
(reflection.py), the locator (planning/grounding.py), the planner (planning/planner.py), the mender
(reacting/hazards.py), the reactor (reacting/reactor.py) and the talker (talk/dialogue.py).  Mind
wires them, answers what the engine asks (``MindPort``, each by the part that does it), answers
interviews (interview/answering.py) and makes and reads saves; anything else is asked of a part.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Mapping, Sequence
from datetime import datetime

from game.llm.api import LLM, Priority
from game.mind.config import MEMORY_KINDS, Embedder, MindConfig
from game.mind.core import MindCore
from game.mind.facts.fact import Fact, FactBook, TownNames
from game.mind.interview import answering as interview
from game.mind.memory.embeddings import Embedding, EmbeddingCache
from game.mind.memory.stream import MemoryStream
from game.mind.mindstate import MindState
from game.mind.persona import Declared, Persona
from game.mind.planning import routine
from game.mind.planning.agenda import Agenda
from game.mind.planning.grounding import Locator
from game.mind.planning.planner import Planner
from game.mind.planning.shaping import emoji_for, fit_steps, shape_plan
from game.mind.reacting.hazards import Mender
from game.mind.reacting.reactor import Reactor
from game.mind.reflection import Reflector
from game.mind.senses import Hearsay, Senses, rule_importance
from game.mind.talk.dialogue import Talker
from game.mind.view import Action, Allowance, Conversation, DayPlan, Hazard, Line, Reaction, Script, WorldView
from game.text import one_line

# (names other modules and tests import from here)
__all__ = ["MEMORY_KINDS", "Embedder", "Mind", "MindConfig", "emoji_for", "fit_steps", "rule_importance",
           "shape_plan"]


class Mind:
    """A resident's mind: the parts (below) wired, and what the rest of the game asks of it
    (``game.engine.api.MindPort``), each answered by the part that does it.  Anything else is asked
    of a part directly: ``mind.core`` (who it is, its memory, facts and counts, the model),
    ``mind.agenda`` (the plan and the steps), ``mind.planner``, ``mind.senses``...  No class
    forwards more than 5 attributes to another (tests/test_structure.py)."""

    def __init__(self, spec: Persona | Declared | Mapping[str, object], llm: LLM, embedder: Embedding | None = None, *,
                 config: MindConfig | None = None, now: datetime | None = None) -> None:
        self.core = core = MindCore(Persona.from_spec(spec), llm, config or MindConfig(), EmbeddingCache(llm, embedder))
        self.agenda = agenda = Agenda()
        self.hearsay = Hearsay(core)
        self.senses = Senses(core, agenda, self.hearsay)
        self.reflector = Reflector(core)
        self.locator = Locator(core)
        self.planner = Planner(core, agenda, self.reflector, self.locator)
        self.reactor = Reactor(core, agenda, self.locator, Mender(core, agenda))
        self.talker = Talker(core, agenda)
        if now is not None:
            core.seed(now)

    # ------------------------------------------------------------------ what the engine reads (MindPort)
    @property
    def persona(self) -> Persona:
        return self.core.persona

    @property
    def memory(self) -> MemoryStream:
        return self.core.memory

    @property
    def facts(self) -> FactBook:
        return self.core.facts

    @property
    def stats(self) -> Counter[str]:
        return self.core.stats

    @property
    def last_error(self) -> str | None:
        return self.core.last_error

    @property
    def plan(self) -> DayPlan | None:
        return self.agenda.plan

    # ------------------------------------------------------------------ what the engine asks (MindPort)
    def know_town(self, names: TownNames) -> None:
        """The town's places and people, to read facts against (the engine tells every mind)."""
        self.core.facts.town = names

    def asleep_at(self, now: datetime) -> bool:
        """Whether its day's sleep covers ``now`` (planning/routine.py, by the persona's hours)."""
        return routine.asleep_at(self.core.persona, now)

    def routine_action(self, now: datetime, view: WorldView | None = None) -> Action:
        """What it does by rule, no model, while a decision is pending (planning/routine.py)."""
        return routine.routine_action(self.core.persona, now, view)

    def read_fact(self, text: str, now: datetime, *, host: str | None = None, source: str = "") -> Fact | None:
        return self.hearsay.read_fact(text, now, host=host, source=source)

    def hear_fact(self, fact: Fact, source: str, now: datetime) -> bool:
        return self.hearsay.hear_fact(fact, source, now)

    async def observe(self, now: datetime, percepts: list[str], *, score: bool = True) -> list[int]:
        return await self.senses.observe(now, percepts, score=score)

    def scoring_due(self, now: datetime) -> bool:
        return self.senses.scoring_due(now)

    async def score_pending(self, now: datetime, force: bool = False) -> int:
        return await self.senses.score_pending(now, force)

    def whisper(self, now: datetime, text: str) -> int:
        return self.senses.whisper(now, text)

    def remember_conversation(self, now: datetime, conversation: Conversation) -> list[int]:
        """A finished conversation: its held context goes (talk/dialogue.py), what was said is
        remembered (senses.py)."""
        self.talker.forget(conversation.id)
        return self.senses.remember_conversation(now, conversation)

    def reflection_due(self, now: datetime | None = None) -> bool:
        return self.reflector.reflection_due(now)

    async def reflect_if_due(self, now: datetime) -> list[str]:
        return await self.reflector.reflect_if_due(now)

    async def next_action(self, now: datetime, view: WorldView | None = None) -> Action:
        return await self.planner.next_action(now, view)

    def steps_run_out(self, now: datetime) -> datetime | None:
        return self.planner.steps_run_out(now)

    async def decide_ahead(self, now: datetime, view: WorldView | None = None,
                           run_out: datetime | None = None) -> int:
        return await self.planner.decide_ahead(now, view, run_out)

    async def react(self, now: datetime, percept_text: str, view: WorldView | None = None, *,
                    urgent: bool = False, allowance: Allowance | None = None,
                    hazard: Hazard | None = None) -> Reaction:
        return await self.reactor.react(now, percept_text, view, urgent=urgent, allowance=allowance, hazard=hazard)

    def news_for(self, other: str, now: datetime) -> bool:
        return self.reactor.news_for(other, now)

    async def say(self, now: datetime, conversation: Conversation, listener_names: Sequence[str],
                  priority: Priority | None = None) -> Line:
        return await self.talker.say(now, conversation, listener_names, priority)

    def say_stream(self, now: datetime, conversation: Conversation, listener_names: Sequence[str],
                   priority: Priority | None = None, again: str = "") -> AsyncIterator[str | Line]:
        return self.talker.say_stream(now, conversation, listener_names, priority, again)

    async def listen(self, now: datetime, conversation: Conversation, listener_names: Sequence[str],
                     typed: tuple[str, str] | None = None) -> bool:
        return await self.talker.listen(now, conversation, listener_names, typed)

    async def talk_side(self, now: datetime, about: Sequence[str]) -> str:
        return await self.talker.talk_side(now, about)

    async def converse(self, now: datetime, conversation: Conversation, sides: dict[str, str]) -> Script:
        return await self.talker.converse(now, conversation, sides)

    # ------------------------------------------------------------------ what the town's files and the player ask
    def know(self, fact: Fact) -> bool:
        """Hold ``fact`` from the start (what the town declares this resident knows); True if new."""
        return self.core.facts.learn(fact)

    async def answer(self, now: datetime, question: str, asker: str = "An interviewer",
                     remember: bool = False) -> str:
        """Answer a question in the resident's voice (interviews; the player asking): the one
        interview of the game (interview/answering.py; ``town interview`` asks through it too)."""
        return await interview.answer(self, one_line(question, 400), now, asker=asker, remember=remember)

    # ------------------------------------------------------------------ saves
    def to_state(self, memory: bool = True) -> MindState:
        """Plain data for a save.  ``state["memory"]`` holds one row per record (embedding as float32
        bytes); everything else is JSON-serialisable.  ``memory=False`` leaves the rows out (a save
        takes the stream's ``image()`` instead: rows of 10k records cost a save seconds)."""
        core, agenda = self.core, self.agenda
        state: MindState = {
            "persona": core.persona.to_dict(),
            "identity": core.identity,
            "identity_date": core.identity_date.isoformat() if core.identity_date else None,
            "yesterday": agenda.yesterday,
            "plan": agenda.plan.to_dict() if agenda.plan else None,
            "plan_date": agenda.plan_date.isoformat() if agenda.plan_date else None,
            "queue": [a.to_dict() for a in agenda.queue],
            "current": agenda.current.to_dict() if agenda.current else None,
            "replan_reason": agenda.replan_reason,
            "last_reflection": self.reflector.last_reflection.isoformat() if self.reflector.last_reflection else None,
            "first_date": core.first_date.isoformat() if core.first_date else None,
            "stats": dict(core.stats),
            "calls": [[d, p, n] for (d, p), n in core.calls.items()],
            "held": dict(self.talker.held),
            "facts": core.facts.to_list(),
        }
        if memory:
            state["memory"] = core.memory.to_rows()
        return state

    @classmethod
    def from_state(cls, state: MindState, llm: LLM, embedder: Embedding | None = None, *,
                   config: MindConfig | None = None) -> Mind:
        m = cls(Persona.from_dict(state["persona"]), llm, embedder, config=config)
        m.core.restore(state)
        m.agenda.restore(state)
        lr = state.get("last_reflection")
        m.reflector.last_reflection = datetime.fromisoformat(lr) if lr else None
        held = state.get("held") or {}
        m.talker.held = OrderedDict((str(k), str(v)) for k, v in held.items()) if isinstance(held, dict) \
            else OrderedDict()
        return m

