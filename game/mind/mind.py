"""One resident's mind: memory, retrieval, reflection, planning, reacting and dialogue.

The architecture of Park et al. 2023 on a call budget (see docs/MIND.md):

* every decision is a coroutine that returns plain data; the model is asked only where no rule
  serves (sleeping, walking, routine sights, the first morning are rules);
* each call asks for a lot: a whole day plan, a whole 1-2 hour block of 5-15 minute actions with
  places and emoji, many importance scores at once, a reflection in two calls;
* a decision that fails (server down, bad answer) degrades to the lifestyle routine or to
  "continue", records the error in ``last_error``/``stats`` and never raises ``LLMError``.

``Mind`` is composed of one part per responsibility, each in its own module: perception.py
(observing, importance), reflection.py (identity, reflections), planning.py (day plan, replan,
decompose), grounding.py (places), reacting.py, hazards.py (acting on a hazard), dialogue.py (say,
stream, listen); routine.py (the day by rule) and interview.py (answering a question) are functions of the persona or of the
mind; embeddings.py is a collaborator that owns the embedding cache.  What stays here is what
every part shares: the saved state, the plan day's clock, the one way to ask the model
(``_complete``) and to record a failure (``_fail``), retrieval, and saves.
"""

from __future__ import annotations

import logging
from collections import Counter, OrderedDict
from datetime import date, datetime
from typing import Any, Sequence

from pydantic import BaseModel

from game.llm.api import LLM, CallTag, LLMError, Priority
from game.mind import interview, prompting, routine
from game.mind.components import prompt_person
from game.mind.config import MEMORY_KINDS, Embedder, MindConfig
from game.mind.dialogue import Talking
from game.mind.embeddings import EmbeddingCache
from game.mind.facts import FactBook, TownNames
from game.mind.grounding import Grounding
from game.mind.hazards import Mending
from game.mind.memory import MemoryImage, MemoryStream, Record
from game.mind.perception import Perceiving, rule_importance
from game.mind.persona import Persona
from game.mind.planning import Planning
from game.mind.reacting import Reacting
from game.mind.reflection import Reflecting
from game.mind.shaping import emoji_for, fit_steps, shape_plan
from game.mind.view import Action, DayPlan, PlanBlock, WorldView
from game.text import one_line

# (names other modules and tests import from here)
__all__ = ["MEMORY_KINDS", "Embedder", "Mind", "MindConfig", "emoji_for", "fit_steps", "rule_importance",
           "shape_plan"]

log = logging.getLogger(__name__)


class Mind(Perceiving, Reflecting, Planning, Grounding, Reacting, Mending, Talking):
    def __init__(self, spec: object, llm: LLM, embedder: Embedder | Any | None = None, *,
                 config: MindConfig | None = None, now: datetime | None = None) -> None:
        self.persona = Persona.from_spec(spec)
        self.llm = llm
        self.config = config or MindConfig()
        self._embeddings = EmbeddingCache(llm, embedder)
        self.memory = MemoryStream(weights=self.config.weights)
        self.identity: str = ""
        self.identity_date: date | None = None
        self.yesterday: str = ""
        self.plan: DayPlan | None = None
        self.plan_date: date | None = None
        self.last_raw_plan: list[tuple[int, int, str]] = []  # the model's own blocks, before shaping
        self.queue: list[Action] = []  # decomposed actions still to come in the current block
        self.current: Action | None = None
        self.replan_reason: str | None = None
        self.last_reflection: datetime | None = None
        self.first_date: date | None = None
        self.last_error: str | None = None
        self.stats: Counter[str] = Counter()
        self.calls: Counter[tuple[str, str]] = Counter()  # (date iso, purpose) -> model calls
        self.facts = FactBook()  # what the resident knows that others could act on (facts.py)
        self._init_perceiving()
        self._init_planning()
        self._init_reacting()
        self._init_talking()
        if now is not None:
            self.seed(now)

    @property
    def name(self) -> str:
        return self.persona.name

    def know_town(self, names: TownNames) -> None:
        """The town's places and people, to read facts against (the engine tells every mind)."""
        self.facts.town = names

    def read_fact(self, text: str, now: datetime, *, host: str | None = None, source: str = ""):
        """A gathering or candidacy in ``text`` (the resident's own thought, or what ``source``
        said), kept as a fact; None when the words hold none (facts.py, no model call)."""
        p = self.persona
        fact = self.facts.read(text, self.name, now, host=host, source=source,
                               home=(p.home or "").split(":")[0], work=(p.workplace or "").split(":")[0])
        if fact is not None:
            self.stats["facts_read"] += 1
        return fact

    def hear_fact(self, fact: Any, source: str, now: datetime) -> bool:
        """``source`` told the resident ``fact`` (a talk said it; the engine checked the words): kept
        as what that person said, and remembered in the town's words, not the model's."""
        heard = self.facts.hear(fact, source, now)
        if heard is None:
            return False
        self.stats["facts_heard"] += 1
        self.memory.add("conversation", f"{source} told me: {heard.sentence(now)}.", now,
                        importance=max(7.0, self.config.told_floor))
        return True

    # ------------------------------------------------------------------ basics
    def seed(self, now: datetime) -> None:
        """Store the spec's seed memories (importance by rule: 5), once, at the start of the town."""
        if self.first_date is None:
            self.first_date = now.date()
        if len(self.memory) == 0:
            for text in self.persona.seed_memories:
                self.memory.add("observation", text, now, importance=5)
            for who, what in self.persona.relationships.items():
                self.memory.add("observation", f"{who}: {what}", now, importance=5)

    def day_and_minute(self, now: datetime) -> tuple[date, int]:
        """The plan day ``now`` belongs to and minutes since that day's midnight (a bed time after
        midnight keeps the small hours in the previous day, as minutes past 24:00)."""
        return routine.day_and_minute(self.persona, now)

    def asleep_at(self, now: datetime) -> bool:
        _, m = self.day_and_minute(now)
        return m < self.persona.wake or m >= self.persona.sleep

    def day_number(self, now: datetime) -> int:
        d, _ = self.day_and_minute(now)
        if self.first_date is None:
            self.first_date = d
        return (d - self.first_date).days + 1

    def routine_blocks(self, start: int | None = None) -> tuple[PlanBlock, ...]:
        """A plain day from the lifestyle (routine.py)."""
        return routine.routine_blocks(self.persona, start, self.config.max_block_min)

    def routine_action(self, now: datetime, view: WorldView | None = None) -> Action:
        """What the resident does by rule, no model (routine.py)."""
        return routine.routine_action(self.persona, now, view)

    async def _complete(self, template: str, schema: type[BaseModel], purpose: str, priority: Priority,
                        now: datetime, /, max_tokens: int, temperature: float = 0.7, **values: object):
        messages = prompting.render(template, person=prompt_person(self), **values)
        d, _ = self.day_and_minute(now)
        self.calls[(d.isoformat(), purpose)] += 1
        return await self.llm.complete(messages, schema, CallTag(purpose, self.name, priority),
                                       max_tokens=max_tokens, temperature=temperature)

    def _fail(self, what: str, e: Exception) -> None:
        self.last_error = f"{self.name}: {what}: {e}"
        self.stats[f"error_{what}"] += 1
        log.warning("%s", self.last_error)

    def talks_on(self, day: date, until: datetime | None = None) -> int:
        """Conversations with other residents the resident has had on ``day`` (from its memory;
        those remembered by ``until``, if given)."""
        n = 0
        for rec in reversed(self.memory.recent(64, kinds=["conversation"], until=until)):
            if rec.created.date() < day:
                break
            if rec.created.date() == day and rec.text.startswith("I talked with"):
                n += 1
        return n

    def calls_on(self, day: date) -> dict[str, int]:
        return {p: n for (d, p), n in self.calls.items() if d == day.isoformat()}

    # ------------------------------------------------------------- embeddings
    async def embed(self, texts: list[str]) -> list[list[float]]:
        """Embeddings for ``texts``; cached by text; one call for all that are missing."""
        return await self._embeddings.embed(texts)

    async def ensure_embedded(self) -> None:
        ids = self.memory.unembedded()
        for i in range(0, len(ids), 64):
            chunk = ids[i:i + 64]
            vecs = await self.embed([self.memory.text(r) for r in chunk])
            for r, v in zip(chunk, vecs):
                self.memory.set_embedding(r, v)

    async def recall(self, query: str, now: datetime, *, k: int | None = None,
                     token_budget: int | None = None, kinds: Sequence[str] | None = None) -> list[Record]:
        """Retrieve memories for ``query`` (relevance falls back to recency and importance alone
        when embeddings are unavailable)."""
        qv = None
        try:
            await self.ensure_embedded()
            if query:
                qv = (await self.embed([query]))[0]
        except LLMError as e:
            self._fail("embed", e)
        return self.memory.retrieve(qv, now, k=k or self.config.retrieve_k,
                                    token_budget=token_budget or self.config.memory_tokens, kinds=kinds)

    # --------------------------------------------------------------------- interviews
    async def answer(self, now: datetime, question: str, asker: str = "An interviewer",
                     remember: bool = False) -> str:
        """Answer a question in the resident's voice (interviews; the player asking): the one
        interview of the game (interview.py; ``town interview`` asks through it too)."""
        return await interview.answer(self, one_line(question, 400), now, asker=asker, remember=remember)

    # --------------------------------------------------------------------- saves
    def to_state(self, memory: bool = True) -> dict:
        """Plain data for a save.  ``state["memory"]`` holds one row per record (embedding as float32
        bytes); everything else is JSON-serialisable.  ``memory=False`` leaves the rows out (a save
        takes the stream's ``image()`` instead: rows of 10k records cost a save seconds)."""
        return {
            "persona": self.persona.to_dict(),
            "identity": self.identity,
            "identity_date": self.identity_date.isoformat() if self.identity_date else None,
            "yesterday": self.yesterday,
            "plan": self.plan.to_dict() if self.plan else None,
            "plan_date": self.plan_date.isoformat() if self.plan_date else None,
            "queue": [a.to_dict() for a in self.queue],
            "current": self.current.to_dict() if self.current else None,
            "replan_reason": self.replan_reason,
            "last_reflection": self.last_reflection.isoformat() if self.last_reflection else None,
            "first_date": self.first_date.isoformat() if self.first_date else None,
            "stats": dict(self.stats),
            "calls": [[d, p, n] for (d, p), n in self.calls.items()],
            "held": dict(self._held),
            "facts": self.facts.to_list(),
            **({"memory": self.memory.to_rows()} if memory else {}),
        }

    @classmethod
    def from_state(cls, state: dict, llm: LLM, embedder: Embedder | Any | None = None, *,
                   config: MindConfig | None = None) -> "Mind":
        m = cls(Persona.from_dict(state["persona"]), llm, embedder, config=config)
        mem = state.get("memory", [])
        if isinstance(mem, MemoryImage):  # a loaded save's: built in one go
            owned = bool(mem.extra.pop("owned", False))  # taken once: a second stream copies
            m.memory = MemoryStream.from_image(mem, owned=owned, weights=m.config.weights)
        else:
            m.memory = MemoryStream.from_rows(mem, weights=m.config.weights)
        m.identity = state.get("identity", "")
        m.identity_date = _date(state.get("identity_date"))
        m.yesterday = state.get("yesterday", "")
        m.plan = DayPlan.from_dict(state["plan"]) if state.get("plan") else None
        m.plan_date = _date(state.get("plan_date"))
        m.queue = [Action.from_dict(a) for a in state.get("queue", [])]
        m.current = Action.from_dict(state["current"]) if state.get("current") else None
        m.replan_reason = state.get("replan_reason")
        lr = state.get("last_reflection")
        m.last_reflection = datetime.fromisoformat(lr) if lr else None
        m.first_date = _date(state.get("first_date"))
        m.stats = Counter(state.get("stats", {}))
        m.calls = Counter({(d, p): n for d, p, n in state.get("calls", [])})
        m.facts = FactBook.from_list(state.get("facts"))
        held = state.get("held") or {}
        m._held = OrderedDict((str(k), str(v)) for k, v in held.items()) if isinstance(held, dict) else OrderedDict()
        return m


def _date(s: str | None) -> date | None:
    return date.fromisoformat(s) if s else None
