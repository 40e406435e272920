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
the plan, the steps, the step in hand), the senses (senses.py), the reflector (reflection.py), the
locator (planning/grounding.py), the planner (planning/planner.py), the mender
(reacting/hazards.py), the reactor (reacting/reactor.py) and the talker (talk/dialogue.py).  Mind
wires them, answers for them to the rest of the game (the methods below are the parts' own; the
attributes are the core's and the agenda's, as properties), answers interviews
(interview/answering.py) and makes and reads saves.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Mapping
from datetime import date, datetime

from game.llm.api import LLM
from game.mind.config import MEMORY_KINDS, Embedder, MindConfig
from game.mind.core import MindCore
from game.mind.facts.fact import Fact, FactBook, TownNames
from game.mind.interview import answering as interview
from game.mind.memory.embeddings import Embedding, EmbeddingCache
from game.mind.memory.stream import MemoryImage, MemoryStream
from game.mind.mindstate import MindState
from game.mind.persona import Declared, Persona
from game.mind.planning.agenda import Agenda
from game.mind.planning.grounding import Locator
from game.mind.planning.planner import Planner
from game.mind.planning.shaping import emoji_for, fit_steps, shape_plan
from game.mind.reacting.hazards import Mender
from game.mind.reacting.reactor import Reactor
from game.mind.reflection import Reflector
from game.mind.senses import Senses, rule_importance
from game.mind.talk.dialogue import Talker
from game.mind.view import Action, Conversation, DayPlan
from game.text import one_line

# (names other modules and tests import from here)
__all__ = ["MEMORY_KINDS", "Embedder", "Mind", "MindConfig", "emoji_for", "fit_steps", "rule_importance",
           "shape_plan"]


class Mind:
    def __init__(self, spec: Persona | Declared | Mapping[str, object], llm: LLM, embedder: Embedding | None = None, *,
                 config: MindConfig | None = None, now: datetime | None = None) -> None:
        self.core = core = MindCore(Persona.from_spec(spec), llm, config or MindConfig(), EmbeddingCache(llm, embedder))
        self.agenda = agenda = Agenda()
        self.senses = Senses(core, agenda)
        self.reflector = Reflector(core)
        self.locator = Locator(core)
        self.planner = Planner(core, agenda, self.reflector, self.locator)
        self.reactor = Reactor(core, agenda, self.locator, Mender(core, agenda))
        self.talker = Talker(core, agenda)
        # what the rest of the game asks of a mind, answered by the part that does it
        self.seed = core.seed  # the clock and the routine: core.py
        self.day_and_minute = core.day_and_minute
        self.asleep_at = core.asleep_at
        self.day_number = core.day_number
        self.routine_blocks = core.routine_blocks
        self.routine_action = core.routine_action
        self.talks_on = core.talks_on
        self.calls_on = core.calls_on
        self.embed = core.embed
        self.ensure_embedded = core.ensure_embedded
        self.recall = core.recall
        self.observe = self.senses.observe  # taking things in: senses.py
        self.score_pending = self.senses.score_pending
        self.scoring_due = self.senses.scoring_due
        self.whisper = self.senses.whisper
        self.read_fact = self.senses.read_fact
        self.hear_fact = self.senses.hear_fact
        self.ensure_identity = self.reflector.ensure_identity  # reflection.py
        self.reflection_due = self.reflector.reflection_due
        self.reflect_if_due = self.reflector.reflect_if_due
        self.places_for = self.locator.places_for  # planning/grounding.py
        self.plan_day = self.planner.plan_day  # planning/planner.py
        self.replan = self.planner.replan
        self.next_action = self.planner.next_action
        self.steps_run_out = self.planner.steps_run_out
        self.decide_ahead = self.planner.decide_ahead
        self.react = self.reactor.react  # reacting/reactor.py
        self.news_for = self.reactor.news_for
        self.say = self.talker.say  # talk/dialogue.py
        self.say_stream = self.talker.say_stream
        self.talk_side = self.talker.talk_side
        self.converse = self.talker.converse
        self.listen = self.talker.listen
        if now is not None:
            self.seed(now)

    def know_town(self, names: TownNames) -> None:
        """The town's places and people, to read facts against (the engine tells every mind)."""
        self.core.facts.town = names

    def know(self, fact: Fact) -> bool:
        """Hold ``fact`` from the start (what the town declares this resident knows); True if new."""
        return self.core.facts.learn(fact)

    def remember_conversation(self, now: datetime, conversation: Conversation) -> list[int]:
        """A finished conversation: its held context goes (talk/dialogue.py), what was said is
        remembered (senses.py)."""
        self.talker.forget(conversation.id)
        return self.senses.remember_conversation(now, conversation)

    async def answer(self, now: datetime, question: str, asker: str = "An interviewer",
                     remember: bool = False) -> str:
        """Answer a question in the resident's voice (interviews; the player asking): the one
        interview of the game (interview/answering.py; ``town interview`` asks through it too)."""
        return await interview.answer(self, one_line(question, 400), now, asker=asker, remember=remember)

    # ------------------------------------------------------------------ the core's state
    @property
    def name(self) -> str:
        return self.core.name

    @property
    def persona(self) -> Persona:
        return self.core.persona

    @property
    def llm(self) -> LLM:
        return self.core.llm

    @property
    def config(self) -> MindConfig:
        return self.core.config

    @property
    def memory(self) -> MemoryStream:
        return self.core.memory

    @memory.setter
    def memory(self, value: MemoryStream) -> None:
        self.core.memory = value

    @property
    def facts(self) -> FactBook:
        return self.core.facts

    @facts.setter
    def facts(self, value: FactBook) -> None:
        self.core.facts = value

    @property
    def stats(self) -> Counter[str]:
        return self.core.stats

    @stats.setter
    def stats(self, value: Counter[str]) -> None:
        self.core.stats = value

    @property
    def calls(self) -> Counter[tuple[str, str]]:
        return self.core.calls

    @calls.setter
    def calls(self, value: Counter[tuple[str, str]]) -> None:
        self.core.calls = value

    @property
    def last_error(self) -> str | None:
        return self.core.last_error

    @last_error.setter
    def last_error(self, value: str | None) -> None:
        self.core.last_error = value

    @property
    def identity(self) -> str:
        return self.core.identity

    @identity.setter
    def identity(self, value: str) -> None:
        self.core.identity = value

    @property
    def identity_date(self) -> date | None:
        return self.core.identity_date

    @identity_date.setter
    def identity_date(self, value: date | None) -> None:
        self.core.identity_date = value

    @property
    def first_date(self) -> date | None:
        return self.core.first_date

    @first_date.setter
    def first_date(self, value: date | None) -> None:
        self.core.first_date = value

    @property
    def last_reflection(self) -> datetime | None:
        return self.reflector.last_reflection

    @last_reflection.setter
    def last_reflection(self, value: datetime | None) -> None:
        self.reflector.last_reflection = value

    # ------------------------------------------------------------------ the agenda's state
    @property
    def plan(self) -> DayPlan | None:
        return self.agenda.plan

    @plan.setter
    def plan(self, value: DayPlan | None) -> None:
        self.agenda.plan = value

    @property
    def plan_date(self) -> date | None:
        return self.agenda.plan_date

    @plan_date.setter
    def plan_date(self, value: date | None) -> None:
        self.agenda.plan_date = value

    @property
    def queue(self) -> list[Action]:
        return self.agenda.queue

    @queue.setter
    def queue(self, value: list[Action]) -> None:
        self.agenda.queue = value

    @property
    def current(self) -> Action | None:
        return self.agenda.current

    @current.setter
    def current(self, value: Action | None) -> None:
        self.agenda.current = value

    @property
    def replan_reason(self) -> str | None:
        return self.agenda.replan_reason

    @replan_reason.setter
    def replan_reason(self, value: str | None) -> None:
        self.agenda.replan_reason = value

    @property
    def yesterday(self) -> str:
        return self.agenda.yesterday

    @property
    def last_raw_plan(self) -> list[tuple[int, int, str]]:
        return self.agenda.last_raw_plan

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
            "last_reflection": self.last_reflection.isoformat() if self.last_reflection else None,
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
        core, agenda = m.core, m.agenda
        mem = state.get("memory", [])
        if isinstance(mem, MemoryImage):  # a loaded save's: built in one go
            owned = bool(mem.extra.pop("owned", False))  # taken once: a second stream copies
            core.memory = MemoryStream.from_image(mem, owned=owned, weights=core.config.weights)
        else:
            core.memory = MemoryStream.from_rows(mem, weights=core.config.weights)
        core.identity = state.get("identity", "")
        core.identity_date = _date(state.get("identity_date"))
        agenda.yesterday = state.get("yesterday", "")
        plan, current = state.get("plan"), state.get("current")
        agenda.plan = DayPlan.from_dict(plan) if plan else None
        agenda.plan_date = _date(state.get("plan_date"))
        agenda.queue = [Action.from_dict(a) for a in state.get("queue", [])]
        agenda.current = Action.from_dict(current) if current else None
        agenda.replan_reason = state.get("replan_reason")
        lr = state.get("last_reflection")
        m.reflector.last_reflection = datetime.fromisoformat(lr) if lr else None
        core.first_date = _date(state.get("first_date"))
        core.stats = Counter(state.get("stats", {}))
        core.calls = Counter({(str(d), str(p)): int(n) for d, p, n in state.get("calls", [])})
        core.facts = FactBook.from_list(state.get("facts"))
        held = state.get("held") or {}
        m.talker.held = OrderedDict((str(k), str(v)) for k, v in held.items()) if isinstance(held, dict) \
            else OrderedDict()
        return m


def _date(s: str | None) -> date | None:
    return date.fromisoformat(s) if s else None
