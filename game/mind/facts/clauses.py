"""Which event a place, a day or an hour said in a sentence belongs to (issue 39): the clause or the part of
the sentence it is said in, and the event nouns there ("the party tomorrow and the pub quiz at The Copper Kettle
today": the pub is the quiz's).  Pure rules: no model, no state."""

from __future__ import annotations

import re

from game.mind.facts.fact import EVENT_RE, Fact
from game.mind.facts.when import word_list

_CLAUSE_END = re.compile(r"[,;:]|\s(?:and|but|or|while|before|after)\s")


def _clause(text: str, at: int) -> str:
    cuts = [0, *[m.end() for m in _CLAUSE_END.finditer(text)], len(text) + 1]
    start = max(c for c in cuts if c <= at)
    end = min((m.start() for m in _CLAUSE_END.finditer(text) if m.start() > at), default=len(text))
    return text[start:end]


def another_event(text: str, at: int, fact: Fact) -> bool:
    """Whether the clause of ``text`` at ``at`` names an event that is not ``fact`` and nothing of it
    ("the Bluebell Cafe surprise party tomorrow and the pub quiz at The Copper Kettle today", Eli's on
    9d99520's day, of the quiz: the cafe became the pub and tomorrow today); where it names both, whether the
    nearer before ``at`` is the other ("a pub quiz with Grace Okafor's public debate at Town Hall", Marcus's of
    his quiz on 76fc3aa's day: Town Hall is the debate's, and was made the pub)."""
    clause, keys = _clause(text, at), fact.keywords()
    other = set(_nouns(clause)) - {"gathering", "event", "get-together"} - keys
    if other and keys & set(word_list(clause)):  # (both: the one said nearer before it)
        near = _nouns(text[:at])
        return bool(near) and near[-1] in other
    return bool(other)


def _nouns(text: str) -> list[str]:
    """The event nouns of ``text`` in order, one form each ("parties" -> "party"); a debate is one here."""
    return [re.sub(r"ies$", "y", m.group(0).lower()).removesuffix("s") for m in _EVENTS.finditer(text)]


_EVENTS = re.compile(rf"{EVENT_RE.pattern}|\bdebates?\b", re.I)


def in_its_clause(text: str, at: int, fact: Fact) -> bool:
    """Whether the place said at ``at`` is in the clause that speaks of the fact ("the debate at
    the cafe"), not in another ("my work at the supply store, preparing for the debate"; another
    event's)."""
    clause = _clause(text, at)
    return not another_event(text, at, fact) and (
        bool(fact.keywords() & set(word_list(clause))) or EVENT_RE.search(clause) is not None or (
            bool(fact.host) and fact.host.split()[0] in clause))


_PART_END = re.compile(r";|\s(?:but|while|because|though)\s")


def in_its_part(text: str, at: int, fact: Fact) -> bool:
    """Whether the hour said at ``at`` is in the part of the sentence that speaks of the fact, not
    after a "but" that turns to something else ("I was planning to host the quiz today, but I
    started serving breakfast at 2", Marcus's on 8f03815's day: its hour is the breakfast's)."""
    start = max([0, *[m.end() for m in _PART_END.finditer(text, 0, at)]])
    if _IT_WHEN.match(text[start:]) and not another_event(text, at, fact):
        return True  # ("It's tomorrow at 7 pm", Ines just after the party's name on d7d6132's day: its hour)
    return in_its_clause(text[start:], 0, fact) or bool(fact.keywords() & set(word_list(text[start:at])))


# a part that says when "it" is, by its day or its start ("It's tomorrow at 7 pm", "It starts at 8"); "It's 12:17 PM"
# is the time now
_IT_WHEN = re.compile(r"^\W*it(?:'s|’s| is| will be)\s+(?:on\s+)?(?:today|tonight|tomorrow|this (?:evening|afternoon)|"
                      r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b"
                      r"|^\W*it\s+(?:starts|begins|will start|will begin|kicks off)\b", re.I)
