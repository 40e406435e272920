"""What a talk between residents is written from (issue 39): each side's public self, what it
knows is planned, what it knows of the others, its own points, and only those memories that are
about the others: not the lines of other talks, not the state of things seen.

A small model writing a whole talk copies what its prompt holds into someone's mouth.  On the
whole days of 2026-11-30 its inventions came from the prompt, not from nowhere: "the flower bed is
idle" (a thing seen, remembered), a line of an earlier talk said again and again ("I'll make
sure everything is ready for you"), Hank's own trouble with the store (his
"privately") given to Marcus, "the market move" (the prompt's example).  A talk is narrowed to
what it is about: the people in it.

Pure rules over texts: no model call.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from game.mind.facts.owned import stem

# a remembered line of a talk: "Kenji Tanaka told me: ..." or "I talked with Nora Lindqvist; I said: ..."
_TOLD = re.compile(r"^(?P<who>[^:;]{2,80}?) told me:")
_TALKED = re.compile(r"^I talked with (?P<who>[^;]{2,200}); I said:")


def _names(people: Sequence[str]) -> list[str]:
    return [n for p in people for n in {p, p.split()[0]}]


def names_any(text: str, people: Sequence[str]) -> bool:
    """Whether ``text`` names one of ``people`` (the full name or the first, as a word)."""
    return any(re.search(rf"\b{re.escape(n)}\b", text) for n in _names(people))


def about_them(text: str, listeners: Sequence[str]) -> bool:
    """Whether a memory may go into the prompt of a talk with ``listeners``: it names one of them,
    and it is not a remembered line of a talk, not even of one with them (news moves as data:
    ``KnownFacts``).  Asked again with the lines of earlier talks with the listener, a small model
    said them again, and what they had made up with them: Felix's "I'm nervous that Ines Moreau sees
    me as a rival", to Ines; Nora's "the flower bed is idle" (talkbench on 7765899's day)."""
    if _TOLD.match(text) or _TALKED.match(text):
        return False
    return names_any(text, listeners)


def for_listener(point: str, listeners: Sequence[str]) -> str:
    """A point as said to ``listeners``: the one spoken to is "you" ("Felix is nervous that Ines
    Moreau sees him as a rival", with Ines: "... that you see him as a rival"); for one listener
    only (with two, "you" is either)."""
    if len(listeners) != 1:
        return point
    full, first = listeners[0], listeners[0].split()[0]
    for n in (full, first):
        point = re.sub(rf"\b{re.escape(n)}'s\b", "your", point)
        point = re.sub(rf"\b{re.escape(n)} (sees|is|has|was|wants|thinks|knows)\b",
                       lambda m: "you " + _plain(m[1]), point)
        point = re.sub(rf"\b{re.escape(n)}\b", "you", point)
    return point


def _plain(verb: str) -> str:
    return {"is": "are", "has": "have", "was": "were"}.get(verb, verb[:-1] if verb.endswith("s") else verb)


# the converse prompt's example (prompts/converse.txt): its words are the example's, not the town's
EXAMPLE_WORDS = frozenset({"market", "moves", "friday", "bake", "thursday"})
_EXAMPLE_STEMS = frozenset(stem(w) for w in EXAMPLE_WORDS)


def from_example(sent: str, backed: Iterable[str]) -> list[str]:
    """The words of the prompt's example that ``sent`` says and nothing it was given backs ("I'm
    sorry to hear about the market move": the example's "The market moves to Friday")."""
    known = set(backed)
    words = {w for w in re.findall(r"[a-z]+", sent.lower())}
    return sorted(w for w in words if stem(w) in _EXAMPLE_STEMS and stem(w) not in known)
