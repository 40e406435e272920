"""A gathering's place in an answer (issue 39): one the resident holds, spoken of as "the event" or
"it", is at its own place ("The event is held at the Greenway Market and Pharmacy.", Samuel of his
party at Bluebell Cafe, asked of any gathering in town on eaef4b9's save)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from game.mind.facts.fact import Fact, TownNames
from game.mind.facts.unbacked import sentences

_IT_AT = re.compile(r"\b(?:the (?:event|gathering|party|celebration)|it)\s+(?:is|will be|was)\s+(?:being\s+)?"
                    r"(?:held|happening|taking place|hosted)?\s*(?:at|in)\b", re.I)


def wrong_place(answer: str, held: Sequence[Fact], town: TownNames, now: datetime | None) -> list[tuple[str, str]]:
    """The sentences that put a gathering the resident holds (``held``), spoken of by a word for it,
    at a place of the town none of them is at, each with what to say instead."""
    out = []
    for sent in sentences(answer):
        if not held or not _IT_AT.search(sent):
            continue
        low = sent.lower()
        at = [p.lower() for p in town.places if p.lower() in low]
        if at and not any(f.place and any(p in f.place.lower() or f.place.lower() in p for p in at) for f in held):
            f = held[0]
            out.append((sent, f"It is at {f.place or 'a place not yet said'}: {f.sentence(now)}."))
    return out
