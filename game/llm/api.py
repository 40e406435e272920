"""The contract between the model layer and everything above it.

The minds and the engine talk to a language model only through the ``LLM`` protocol below.
The product implements it with ``game.llm.client.ModelClient`` (a real OpenAI-compatible
server behind a priority scheduler); tests may implement it with a fake that is clearly named
as such and lives under ``tests/``.  The product never falls back to a fake.

Every structured answer is a pydantic model: the JSON schema sent to the server is generated
from it, and the answer is validated into it (repaired or asked again a bounded number of times).
"""

from __future__ import annotations

import enum
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel

from game.errors import GameError

T = TypeVar("T", bound=BaseModel)


class Priority(enum.IntEnum):
    """Lower runs first.  What the player waits for jumps the queue."""

    PLAYER = 0  # a resident answering the player, an interview
    REACT = 1  # reacting to something salient, dialogue between residents
    PLAN = 2  # day plans, decompositions
    REFLECT = 3  # reflection, identity summaries
    SCORE = 4  # importance scores, other bookkeeping


@dataclass(frozen=True)
class Message:
    role: str  # "system" | "user" | "assistant"
    content: str


@dataclass(frozen=True)
class CallTag:
    """Who asked and why: used for accounting and for recording."""

    purpose: str  # e.g. "plan_day", "decompose", "importance", "react", "dialogue", "reflect"
    resident: str | None = None
    priority: Priority = Priority.PLAN


@dataclass
class Usage:
    """Calls and tokens.  ``prompt_tokens`` are the tokens *sent* (the whole prompt);
    ``cached_tokens`` the part of them the server took from its prompt cache instead of evaluating;
    ``evaluated_tokens`` what the server really computed: prompt tokens not served from cache plus
    completion tokens (equal to prompt + completion where a server says nothing of its cache)."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    failures: int = 0
    retries: int = 0
    cached_tokens: int = 0
    evaluated_tokens: int = 0

    def add(self, other: Usage) -> None:
        self.calls += other.calls
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.cached_tokens += other.cached_tokens
        self.evaluated_tokens += other.evaluated_tokens
        self.latency_s += other.latency_s
        self.failures += other.failures
        self.retries += other.retries

    def minus(self, other: Usage) -> Usage:
        """What was used since ``other`` (an earlier reading of the same counters)."""
        return Usage(calls=self.calls - other.calls, prompt_tokens=self.prompt_tokens - other.prompt_tokens,
                     completion_tokens=self.completion_tokens - other.completion_tokens,
                     latency_s=self.latency_s - other.latency_s, failures=self.failures - other.failures,
                     retries=self.retries - other.retries, cached_tokens=self.cached_tokens - other.cached_tokens,
                     evaluated_tokens=self.evaluated_tokens - other.evaluated_tokens)


@dataclass
class ModelStatus:
    """What the UI's model status line shows."""

    url: str = ""
    model: str = ""
    in_flight: int = 0
    queued: int = 0
    tokens_per_s: float = 0.0
    last_error: str | None = None
    reachable: bool = True
    by_purpose: dict[str, Usage] = field(default_factory=dict)
    # the share of the last minute the server had nothing in flight or queued, and how long it has
    # been idle now (seconds; 0 while busy): None where nobody measures it (a replay, a fake)
    spare: float | None = None
    idle_s: float | None = None
    # requests the client sends at once now (its throttle: the server's slots, or as many as its answer
    # times show it takes; fewer after refusals); None: not known
    slots: int | None = None
    # the server as the game sees it (game/llm/supervisor.py): "up", "restarting" (gone, being
    # brought back: the calls that found it gone wait) or "away" (it could not come back: calls fail,
    # the town lives by routine); what was last said of it (why it is away); times it was brought
    # back, and calls asked again after it came back
    server: str = "up"
    server_note: str | None = None
    restarts: int = 0
    reasked: int = 0
    # requests dropped as stuck in a server slot while the server answered others, and asked again
    stalled: int = 0
    # how fast the server ran: llama-server's timings summed (game/llm/gauge.py); None: it sent none
    gauge: dict[str, float | int] | None = None


class LLMError(GameError):
    """Base of every model-layer failure.  Its message is fit to show a player."""


class ModelUnavailable(LLMError):
    """The server cannot be reached (dead, not started, network)."""


class ModelTimeout(LLMError):
    """The server did not answer in time."""


class BadAnswer(LLMError):
    """The model answered, but not in the requested shape, even after repair and retries."""

    def __init__(self, message: str, raw: str = "") -> None:
        super().__init__(message)
        self.raw = raw


@runtime_checkable
class LLM(Protocol):
    async def complete(
        self,
        messages: list[Message],
        schema: type[T],
        tag: CallTag,
        *,
        max_tokens: int = 512,
        temperature: float = 0.7,
    ) -> T:
        """One chat completion constrained to ``schema``'s JSON schema, validated into it.

        Raises ``BadAnswer`` after bounded repair/retry, ``ModelUnavailable`` or
        ``ModelTimeout`` on transport failure (after bounded retries with backoff)."""
        ...

    def stream(
        self,
        messages: list[Message],
        tag: CallTag,
        *,
        max_tokens: int = 256,
        temperature: float = 0.7,
        stop: tuple[str, ...] = (),
    ) -> AsyncIterator[str]:
        """Free text, yielded piece by piece as the model writes it (dialogue shown live); the
        model stops at any of ``stop`` (not included)."""
        ...

    async def embed(self, texts: list[str]) -> list[list[float]]:
        """One unit-length vector per text (cached by text)."""
        ...

    def status(self) -> ModelStatus: ...


class Embedder(Protocol):
    """What turns texts into vectors behind ``LLM.embed``: the local encoder (minilm.py), a remote
    ``/v1/embeddings`` or the cache in front of either (embed.py)."""

    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int | None: ...

    async def embed(self, texts: list[str]) -> list[list[float]]: ...

    async def aclose(self) -> None: ...


@runtime_checkable
class Prefills(Protocol):
    """An optional capability of an ``LLM``: evaluate a prompt's beginning ahead of time so that a
    later request starting with it answers sooner (``ModelClient.prefill``).  Returns whether the
    server was asked (False where it keeps no prompt cache, or in a replay)."""

    async def prefill(self, messages: list[Message], tag: CallTag) -> bool: ...


@runtime_checkable
class Closes(Protocol):
    """An optional capability of an ``LLM``: let go of what it holds (``ModelClient``: its server
    connections; ``ReplayLLM``); a recording closes the model it wraps."""

    async def aclose(self) -> None: ...
