"""A talk's line read for its claims by the model (issue 39): the structured claim read the issue
offers beside the rules, here to be measured before the town relies on it.

One call a line: what the speaker holds (its public self, its people, the town's roles, the
gatherings it knows of, what it remembers of the listener) and the line; the answer lists the
line's statements about people, relations, roles, events, places and times, each with whether
what the speaker holds supports it.  ``game.measure.judgebench`` asks it of a save's talks and
compares it with what a reader found.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, Field

from game.llm.api import LLM, CallTag, Priority
from game.llm.prompts import PromptFolder
from game.resources import package_dir
from game.text import one_line

_PROMPTS = PromptFolder(package_dir(__package__))  # judge.txt, beside this module
PURPOSE = "claim read"


def _short(value: object) -> str:
    return one_line(value, 160)


class Statement(BaseModel):
    statement: Annotated[str, BeforeValidator(_short), Field(min_length=1, max_length=160)]
    supported: bool


class LineClaims(BaseModel):
    """The statements of one line and whether the speaker's records support each."""

    statements: list[Statement] = Field(default_factory=list, max_length=4)


def notes_of(public: str, people: dict[str, str], roles: Sequence[str], gatherings: Sequence[str],
             memories: Sequence[str]) -> str:
    """What a speaker holds, as the prompt shows it."""
    out = [f"- {public}"] if public else []
    out += [f"- {who}: {how}" for who, how in people.items()]
    out += [f"- {r}" for r in roles] + [f"- {g}" for g in gatherings] + [f"- {m}" for m in memories]
    return "\n".join(out) or "- (nothing)"


async def read_claims(llm: LLM, line: str, speaker: str, listener: str, notes: str) -> LineClaims:
    """The model's read of ``line``'s statements against ``notes`` (raises ``LLMError`` as any call)."""
    msgs = _PROMPTS.render("judge", speaker=speaker, listener=listener, notes=notes, line=one_line(line, 400))
    return await llm.complete(msgs, LineClaims, CallTag(PURPOSE, speaker, Priority.SCORE), max_tokens=200,
                              temperature=0.0)
