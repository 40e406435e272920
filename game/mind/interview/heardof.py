"""A gathering the resident has heard of only in its own words, denied when asked (issue 39): on
9d99520's day Nora, whose life says "She has heard there is a party being planned and is determined
to find out what it is", answered the gathering question "No gathering has been planned in town".
She holds no record of the party (no one told her), but she holds that there is one: a denial of it
is a failed answer, as one of a record is.

Pure rules over words: no model call.
"""

from __future__ import annotations

import re

from game.mind.facts.fact import EVENT_RE
from game.mind.facts.unbacked import sentences

_NONE = re.compile(r"\b(?:no|not any)\s+(?:\w+\s+){0,2}?(?:is|are|was|were|has been|have been|planned|scheduled|"
                   r"happening)\b|\bknow of no\b|\bthere (?:is|are) no\b"
                   r"|\b(?:don't|do not) know (?:of |about )?(?:any|an?)\b|\b(?:haven't|have not|never) heard\b", re.I)
_HEARD = re.compile(r"\b(?:heard|hears|hearing|rumou?r|word is|told)\b", re.I)
_ASKED = re.compile(r"\b(?:gathering|event|party|parties|celebration|get-together)s?\b", re.I)


def heard_of(question: str, answer: str, backing: str) -> str:
    """The sentence of ``backing`` (the resident's own texts) that says it heard of a gathering, when
    ``answer`` to a question about gatherings says there is none; else ""."""
    if not _ASKED.search(question) or not _NONE.search(answer):
        return ""
    for sent in sentences(backing) or [backing]:
        if _HEARD.search(sent) and EVENT_RE.search(sent):
            return sent.strip()
    return ""


def heard_line(text: str) -> str:
    """The sentence of ``text`` (a persona's own words) that says it heard of a gathering, in the first
    person ("She has heard there is a party being planned and is determined to find out what it is" ->
    "I have heard there is a party being planned and I am determined ..."); "" where none does."""
    for sent in sentences(text) or [text]:
        if _HEARD.search(sent) and EVENT_RE.search(sent):
            said = re.sub(r"^(?:[A-Z][a-z]+(?: [A-Z][a-z]+)?)\s+has\b", "I have", sent.strip())
            said = re.sub(r"\band (?:is|she is|he is)\b", "and I am", said)
            return said if said.startswith("I ") else ""
    return ""
