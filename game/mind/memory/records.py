"""Memory records as plain rows, and what their text says: who told the resident something, whom it
talked with, who is mentioned.

The mind stores what others said as ``"<speaker> told me: ..."`` (conversations) or ``"<speaker>
said to me: ..."`` (the player), its own part of a talk as ``"I talked with A, B; I said: ..."``
(senses.py writes them) and its seed relationships as ``"<name>: <text>"``.  These readers sit
beside the mind that writes those shapes; the interview (interview/answering.py) and the measurements
(``game.measure.records``, which adds rows read from a save) use them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from game.mind.memory.stream import MemoryStream


@dataclass(frozen=True)
class MemoryRow:
    resident: str
    id: int
    kind: str
    text: str
    created: datetime
    importance: float = 3.0
    evidence: tuple[int, ...] = ()


class Remembering(Protocol):
    """A live mind, as far as its memory goes (``game.mind.Mind``)."""

    @property
    def memory(self) -> MemoryStream: ...


def rows_of_mind(name: str, mind: Remembering) -> list[MemoryRow]:
    """The memory of a live ``Mind`` as rows (no copy of the embeddings)."""
    mem = mind.memory
    return [MemoryRow(name, r.id, r.kind, r.text, r.created, r.importance, tuple(r.evidence))
            for r in (mem.get(i) for i in range(len(mem)))]


# ------------------------------------------------------------------------- reading the text

_TOLD = re.compile(r"^(?P<who>[^:]{1,60}?) (?:told me|said to me|asked me)\s*:", re.I)
_TALKED = re.compile(r"^I talked with (?P<who>.+?); I said:", re.I)


def source_of(row: MemoryRow) -> str | None:
    """Who this record came from: the speaker of a line heard in a conversation, else None."""
    if row.kind not in ("conversation", "player"):
        return None
    m = _TOLD.match(row.text)
    return m.group("who").strip() if m else None


_HEARD_LINE = re.compile(r"^(?P<who>[A-Z][\w'-]*(?: [A-Z][\w'-]*)?) told me: ")


def talked_with(row: MemoryRow) -> list[str]:
    """The partners of a conversation the resident took part in (its own summary record)."""
    return partners_in(row.text) if row.kind == "conversation" else []


def spoke_with(row: MemoryRow) -> list[str]:
    """Whom the resident talked with by this record: ``talked_with``, or one whose line it heard said
    to it ("Grace Okafor told me: ...", all there is of a talk of one line; asked whom he talked with,
    Samuel said nobody)."""
    heard = _HEARD_LINE.match(row.text) if row.kind == "conversation" else None
    return [heard.group("who")] if heard and heard.group("who") != "Nobody" else talked_with(row)


def partners_in(text: str) -> list[str]:
    """The partners named in the text of a resident's own record of a talk ("I talked with A, B;
    I said: ..."); none for any other text."""
    m = _TALKED.match(text)
    if not m:
        return []
    return [n.strip() for n in m.group("who").split(",") if n.strip() and n.strip() != "someone"]


def name_pattern(name: str) -> re.Pattern:
    """A word-bounded, case-insensitive pattern for a full name or its first name."""
    first = name.split()[0] if name.split() else name
    alts = [re.escape(name)] + ([re.escape(first)] if first != name and len(first) > 2 else [])
    return re.compile(r"(?<![\w])(?:" + "|".join(alts) + r")(?![\w])", re.I)


def mentioned(text: str, names: Sequence[str]) -> list[str]:
    """Which of ``names`` (full or first name) appear in ``text``."""
    return [n for n in names if name_pattern(n).search(text)]
