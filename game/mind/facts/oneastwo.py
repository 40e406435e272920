"""One person said as two (issue 39): a relation the speaker holds with someone, and that someone's
name, joined by "and" as if they were two people.  Nora on a4c5919's day: "my new lodger and Felix
Adeyemi" (Felix is her lodger).  Pure rules: no model, no state."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

_NAME = r"(?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+)?)"
_WORD = r"(?:[Mm]y|[Oo]ur)\s+(?:new\s+|dear\s+|old\s+|young\s+|lovely\s+|kind\s+)?(?P<word>[a-z]+)"
_PAIRS = (re.compile(rf"\b{_WORD},?\s+and\s+{_NAME}"), re.compile(rf"\b{_NAME},?\s+and\s+{_WORD}\b"))


def one_as_two(sent: str, speaker: str, people: Sequence[str], relations: Mapping[str, Mapping[str, str]]) -> str:
    """Why ``sent`` says one the speaker holds a relation with as two people ("my new lodger and Felix
    Adeyemi": the speaker's relationship with Felix says "lodger"), else ""."""
    mine = relations.get(speaker, {})
    for rx in _PAIRS:
        for m in rx.finditer(sent):
            said = m.group("name")
            who = next((p for p in people if p == said or p.split()[0] == said), None)
            word = m.group("word").lower()
            if who is None or who == speaker or len(word) < 4:
                continue
            if re.search(rf"\b{re.escape(word)}\b", mine.get(who, "").lower()):
                return f"one said as two: {who} is the speaker's {word}"
    return ""
