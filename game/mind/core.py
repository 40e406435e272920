"""What every part of a mind shares: who the resident is, its settings, its memory and facts, the
counts of what it did, the plan day's clock, and the one way to ask the model.

``MindCore`` is handed to each part of ``Mind`` (mind.py) in its constructor; a part keeps its own
working state and reaches the rest of the resident only through the core and the parts it is
given.  The identity summary is kept here rather than by the part that writes it (reflection.py,
once a day) because it heads every prompt (``prompt_person``).
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import date, datetime
from typing import Protocol, TypeVar

from pydantic import BaseModel

from game.llm.api import LLM, CallTag, LLMError, Priority
from game.mind import prompting
from game.mind.config import MindConfig
from game.mind.facts.fact import FactBook
from game.mind.memory.embeddings import EmbeddingCache
from game.mind.memory.image import MemoryImage
from game.mind.memory.records import partners_in
from game.mind.memory.stream import MemoryStream, Record, estimate_tokens
from game.mind.mindstate import MindState
from game.mind.persona import Persona
from game.mind.planning import routine
from game.mind.view import Action, PlanBlock, WorldView

log = logging.getLogger(__name__)

A = TypeVar("A", bound=BaseModel)

IDENTITY_TITLE = "You are"  # the head of every prompt (components.Identity shows it the same way)


class Identified(Protocol):
    """Who a resident is: the persona and the day's identity summary (a ``MindCore``, a ``Mind``)."""

    @property
    def persona(self) -> Persona: ...

    @property
    def identity(self) -> str: ...


def identity_text(who: Identified) -> str:
    """The persona's brief, and the identity summary when it adds to it."""
    text = who.persona.brief()
    if who.identity and not mostly_within(who.identity, text):
        text += "\n" + who.identity
    return text


def prompt_person(who: Identified) -> str:
    """The head of every prompt of a resident (``prompting.render(person=...)``): who the resident
    is, the same words in each of its calls until the identity summary changes (once a day), so the
    server's prompt cache holds them once; hence not a component among the changing sections."""
    return f"{IDENTITY_TITLE}:\n{identity_text(who)}"


_WORD = re.compile(r"[a-z]+")


def mostly_within(summary: str, brief: str, share: float = 0.75) -> bool:
    """Whether ``summary`` mostly repeats ``brief`` (a small model often restates the seed): then it
    adds nothing to a prompt but tokens.  Words of three letters or more are compared."""
    said = {w for w in _WORD.findall(summary.lower()) if len(w) > 2}
    known = {w for w in _WORD.findall(brief.lower()) if len(w) > 2}
    return bool(said) and len(said & known) / len(said) >= share


class MindCore:
    """The state every part reads and the services every part uses (see the module docstring)."""

    def __init__(self, persona: Persona, llm: LLM, config: MindConfig, embeddings: EmbeddingCache) -> None:
        self.persona = persona
        self.llm = llm
        self.config = config
        self.embeddings = embeddings
        self.memory = MemoryStream(weights=config.weights)
        self.facts = FactBook()  # what the resident knows that others could act on (facts/fact.py)
        self.identity: str = ""  # the day's identity summary (reflection.py writes it)
        self.identity_date: date | None = None
        self.first_date: date | None = None
        self.last_error: str | None = None
        self.stats: Counter[str] = Counter()
        self.calls: Counter[tuple[str, str]] = Counter()  # (date iso, purpose) -> model calls

    @property
    def name(self) -> str:
        return self.persona.name

    # ------------------------------------------------------------------ its state, written here only
    def restore(self, state: MindState) -> None:
        """What a save holds of the core (``Mind.from_state``); the persona came with the mind."""
        mem = state.get("memory", [])
        if isinstance(mem, MemoryImage):  # a loaded save's: built in one go
            owned = bool(mem.extra.pop("owned", False))  # taken once: a second stream copies
            self.memory = MemoryStream.from_image(mem, owned=owned, weights=self.config.weights)
        else:
            self.memory = MemoryStream.from_rows(mem, weights=self.config.weights)
        self.identity = state.get("identity", "")
        self.identity_date = _date(state.get("identity_date"))
        self.first_date = _date(state.get("first_date"))
        self.stats = Counter(state.get("stats", {}))
        self.calls = Counter({(str(d), str(p)): int(n) for d, p, n in state.get("calls", [])})
        self.facts = FactBook.from_list(state.get("facts"))

    def use_config(self, config: MindConfig) -> None:
        """Other settings from now on (a measurement comparing two)."""
        self.config = config

    def identity_asked(self, day: date | None) -> None:
        """The plan day the identity summary was last asked for (None: ask again; reflection.py)."""
        self.identity_date = day

    def new_identity(self, summary: str) -> None:
        """The day's identity summary (reflection.py makes it)."""
        self.identity = summary

    # ------------------------------------------------------------------ the clock
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
        return routine.asleep_at(self.persona, now)

    def day_number(self, now: datetime) -> int:
        d, _ = self.day_and_minute(now)
        if self.first_date is None:
            self.first_date = d
        return (d - self.first_date).days + 1

    def routine_blocks(self, start: int | None = None, day: date | None = None) -> tuple[PlanBlock, ...]:
        """A plain day from the lifestyle (planning/routine.py): ``day``'s frame (default: a usual workday)."""
        return routine.routine_blocks(self.persona, start, self.config.max_block_min, day)

    def routine_action(self, now: datetime, view: WorldView | None = None) -> Action:
        """What the resident does by rule, no model (planning/routine.py)."""
        return routine.routine_action(self.persona, now, view)

    # ------------------------------------------------------------------ the model
    async def complete(self, template: str, schema: type[A], purpose: str, priority: Priority,
                       now: datetime, /, max_tokens: int, temperature: float = 0.7, **values: object) -> A:
        """Ask the model: ``template`` (prompts/) rendered with ``values`` under who the resident is,
        the answer read into ``schema``; counted by day and purpose.  Raises ``LLMError``."""
        person = str(values.pop("person", None) or prompt_person(self))  # (a talk's: its public self, dialogue.py)
        messages = prompting.render(template, person=person, **values)
        self.count_call(now, purpose)
        return await self.llm.complete(messages, schema, CallTag(purpose, self.name, priority),
                                       max_tokens=max_tokens, temperature=temperature)

    def count(self, what: str, n: int = 1) -> None:
        """Add ``n`` to the count of ``what`` in ``stats`` (every part counts through here)."""
        self.stats[what] += n

    def count_call(self, now: datetime, purpose: str) -> None:
        d, _ = self.day_and_minute(now)
        self.calls[(d.isoformat(), purpose)] += 1

    def fail(self, what: str, e: Exception) -> None:
        """A decision that failed: kept as ``last_error``, counted as ``error_<what>``, logged."""
        self.last_error = f"{self.name}: {what}: {e}"
        self.count(f"error_{what}")
        log.warning("%s", self.last_error)

    def talks_on(self, day: date, until: datetime | None = None) -> int:
        """Conversations with other residents the resident has had on ``day`` (from its memory;
        those remembered by ``until``, if given)."""
        return len(self._talks(day, until))

    def talked_with_on(self, day: date, until: datetime | None = None) -> list[str]:
        """Whom the resident has talked with on ``day`` (its own records of its talks), first
        talked with first, each once."""
        out: list[str] = []
        for rec in reversed(self._talks(day, until)):
            out += [n for n in partners_in(rec.text) if n not in out]
        return out

    def has_talked_with(self, name: str) -> bool:
        """Whether the resident remembers a talk with ``name`` (its own records of its talks)."""
        return any(name in partners_in(rec.text) for rec in self.memory.recent(512, kinds=["conversation"]))

    def _talks(self, day: date, until: datetime | None) -> list[Record]:
        """The records of the resident's own part in each talk of ``day``, latest first."""
        out: list[Record] = []
        for rec in reversed(self.memory.recent(64, kinds=["conversation"], until=until)):
            if rec.created.date() < day:
                break
            if rec.created.date() == day and rec.text.startswith("I talked with"):
                out.append(rec)
        return out

    def calls_on(self, day: date) -> dict[str, int]:
        return {p: n for (d, p), n in self.calls.items() if d == day.isoformat()}

    # ------------------------------------------------------------------ retrieval
    async def embed(self, texts: list[str]) -> list[list[float]]:
        """Embeddings for ``texts``; cached by text; one call for all that are missing."""
        return await self.embeddings.embed(texts)

    async def ensure_embedded(self) -> None:
        ids = self.memory.unembedded()
        for i in range(0, len(ids), 64):
            chunk = ids[i:i + 64]
            vecs = await self.embed([self.memory.text(r) for r in chunk])
            for r, v in zip(chunk, vecs):
                self.memory.set_embedding(r, v)

    async def recall(self, query: str, now: datetime, *, k: int | None = None,
                     token_budget: int | None = None, kinds: Sequence[str] | None = None,
                     keep: Callable[[str], bool] | None = None) -> list[Record]:
        """Retrieve memories for ``query`` (relevance falls back to recency and importance alone
        when embeddings are unavailable); with ``keep``, only those whose text it keeps (a talk's:
        talk/drawn.py), and only those are recalled (their last access refreshed)."""
        qv = None
        try:
            await self.ensure_embedded()
            if query:
                qv = (await self.embed([query]))[0]
        except LLMError as e:
            self.fail("embed", e)
        k, budget = k or self.config.retrieve_k, token_budget or self.config.memory_tokens
        if keep is None:
            return self.memory.retrieve(qv, now, k=k, token_budget=budget, kinds=kinds)
        kept: list[Record] = []
        used = 0
        for r in self.memory.retrieve(qv, now, k=3 * k, kinds=kinds, refresh=False):  # (some are not kept)
            cost = estimate_tokens(r.text)
            if len(kept) < k and used + cost <= budget and keep(r.text):
                kept.append(r)
                used += cost
        self.memory.touch([r.id for r in kept], now)
        return kept


def _date(s: str | None) -> date | None:
    return date.fromisoformat(s) if s else None
