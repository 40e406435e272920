"""Scoring the interview answers as the paper did: does the resident know, and did it invent it?

An answer to a question about a piece of news (an info) is:
- ``knows``: it states the expected facts (the question's ``expect`` keywords, else the info's) and
  does not deny them;
- ``does not know``: it says it does not know, or does not state them;
- ``invented``: it states them, but no memory of the resident carries the news, so it cannot have
  learned it (the paper's "hallucinated" answers; the paper counted 1.3% of all answers).

Each verdict carries the memory that backs it (the first record carrying the news, and how it was
learned: a seed, told by whom, ...), or none.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Sequence

from game.measure.spread import Info, Learned

KNOWS, DOES_NOT_KNOW, INVENTED, UNSCORED = "knows", "does not know", "invented", "unscored"

_DENIAL = re.compile(
    r"\b(?:i\s+(?:do\s+not|don'?t|did\s+not|didn'?t|have\s+not|haven'?t|never|am\s+not|'m\s+not)\s+"
    r"(?:know|heard|hear|aware|sure|seen|been\s+told|recall|remember)"
    r"|(?:no|not\s+any)\s+idea|not\s+that\s+i\s+know|i\s+have\s+no\s+(?:idea|knowledge|memory)"
    r"|nobody\s+(?:has\s+)?(?:told|mentioned)|no\s*one\s+(?:has\s+)?(?:told|mentioned)"
    r"|i\s+know\s+nothing|haven'?t\s+heard|have\s+not\s+heard)", re.I)


def denies(answer: str) -> bool:
    """The answer says it does not know ("I don't know", "I haven't heard", "no idea")."""
    return bool(_DENIAL.search(answer.replace("\u2019", "'")))


@dataclass
class Verdict:
    resident: str
    question: str
    answer: str
    about: str | None
    verdict: str
    backed: bool
    how: str | None = None  # how the backing memory was learned (whisper, told, saw, ...)
    source: str | None = None  # who told it
    memory: str | None = None  # the backing record's text
    learned_at: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)


def expected_info(info: Info, expect: Sequence[str] | None, needed: int = 0) -> Info:
    """The facts an answer must state: the question's own keywords, else the info's."""
    if not expect:
        return info if not needed else Info(info.name, info.keywords, needed)
    base = Info.parse(info.name, list(expect))
    return Info(base.name, base.keywords, needed)


def score_answer(resident: str, question: str, answer: str, about: str | None, facts: Info | None,
                 backing: Learned | None) -> Verdict:
    """One answer's verdict (see the module docstring)."""
    v = Verdict(resident=resident, question=question, answer=answer, about=about, verdict=UNSCORED,
                backed=backing is not None)
    if backing is not None:
        v.how, v.source, v.memory, v.learned_at = backing.how, backing.source, backing.text, backing.at.isoformat()
    if facts is None:
        return v
    states = facts.matches(answer) and not denies(answer)
    if not states:
        v.verdict = DOES_NOT_KNOW
    else:
        v.verdict = KNOWS if backing is not None else INVENTED
    return v
