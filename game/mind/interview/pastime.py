"""What a resident does in its free time, said from its records when the model's words lost it.

Read on a whole day's interviews (d2ec812): asked what they like to do in their free time, Rosa
(who paints in the evening) and Samuel (who practises the song he wrote for Grace) both answered
that they did not know.  Their records hold it: the daily requirements that are neither work nor a
meal nor a secret, and what the background says they do in their spare time.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from game.mind.persona import Persona
from game.mind.planning.daycheck import SLEEP, WAKE
from game.mind.planning.dayoptions import content_words, wants_of

FREE_Q = re.compile(r"\b(?:free|spare) time\b|\bhobb(?:y|ies)\b|\bfor fun\b|\bdays? off\b|\bpastimes?\b", re.I)
# a want that is kept from someone, or that is a gathering's work: not told as a pastime
_HIDDEN = re.compile(r"\b(?:party|surprise|secret\w*|gathering|without \w+ (?:finding out|knowing)|vote|"
                     r"breakfast|lunch|dinner|supper|meals?)\b", re.I)  # (and a meal: not a pastime)
# "Rosa Brody ... paints in her spare time": what the background says the resident does then
_SPARE = re.compile(r"\b(?P<verb>[a-z]+?)(?:es|s) (?P<rest>(?:(?!and\b)[a-z']+ ){0,4}?)"
                    r"in (?:his|her|their) (?:spare|free) time\b")
_ES_VERBS = ("ch", "sh", "ss", "x", "o")  # ("teaches", "fishes", "does": the stem keeps its e)
# a want that reads as leisure ("walk in Willow Park after work", "paint in the evening"): told first
_LEISURE = re.compile(r"\b(?:evening|after work|weekend|at home|park|walk\w*|read\w*|paint\w*|music|piano|"
                      r"garden\w*|cook\w*|bak\w*|sing\w*|writ\w*|visit\w*)\b", re.I)
_MINE = {"he": "I", "she": "I", "him": "me", "his": "my", "her": "my", "himself": "myself", "herself": "myself"}


def _first_person(want: str) -> str:
    """A daily requirement ("practise the song he wrote for Grace") as the resident says it."""
    return re.sub(r"\b(?:he|she|him|his|her|himself|herself)\b", lambda m: _MINE[m.group(0)], want)


def pastimes(persona: Persona, kept: Sequence[str] = ()) -> list[str]:
    """What ``persona`` does in its free time, in its own voice, as its records hold it: the
    background's "paints in her spare time", then its own daily wants that are not work, a meal,
    sleep, a gathering's work or a secret (``kept``: what it keeps from others, "author of the
    anonymous 'Millbrook Owl' column"), those that read as leisure first; one like another once."""
    out: list[str] = []
    for m in _SPARE.finditer(f"{persona.background} {persona.currently}"):
        verb = m.group("verb")
        stem = verb + "e" if m.group(0)[len(verb):].startswith("es") and not verb.endswith(_ES_VERBS) else verb
        out.append(f"{stem} {m.group('rest')}".strip())
    secret = [content_words(k) for k in kept]
    wants = [w for w in wants_of(persona) if not (_HIDDEN.search(w) or SLEEP.search(w) or WAKE.search(w)
                                                   or any(len(content_words(w) & k) >= 2 for k in secret))]
    for want in sorted(wants, key=lambda w: not _LEISURE.search(w)):
        words = content_words(want)
        if not any(words <= content_words(o) or content_words(o) <= words for o in out):
            out.append(_first_person(want))
    return out


def free_time_line(persona: Persona, kept: Sequence[str] = ()) -> str:
    """The answer to "What do you like to do in your free time?" from the records, "" when they hold
    nothing of it."""
    said = pastimes(persona, kept)[:2]
    if not said:
        return ""
    return f"In my free time I like to {' and to '.join(said)}."
