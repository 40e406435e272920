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
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from game.measure.spread import Info, Learned

KNOWS, DOES_NOT_KNOW, INVENTED, UNSCORED = "knows", "does not know", "invented", "unscored"
NO_ANSWER = "no answer"  # the model failed: counted apart, neither knowing nor not

_CONTRACTIONS = ((r"\bi'm\b", "i am"), (r"\bcan't\b", "can not"), (r"\bwon't\b", "will not"),
                 (r"n't\b", " not"), (r"\bi've\b", "i have"))
_DENIAL = re.compile(
    r"\b(?:i\s+(?:do|did|have|had|am|was|could|can)\s+not\s+(?:\w+\s+)?"
    r"(?:know|heard|hear|aware|sure|seen|told|recall|remember|familiar)"
    r"|i\s+(?:have\s+)?never\s+(?:heard|knew|been\s+told)"
    r"|(?:no|not\s+any)\s+idea|not\s+that\s+i\s+(?:know|am\s+aware)"
    r"|i\s+have\s+no\s+(?:idea|knowledge|memory|information)"
    r"|(?:nobody|no\s*one)\s+(?:has\s+)?(?:told|mentioned)|i\s+know\s+nothing"
    r"|(?:have|has)\s+not\s+(?:heard|been\s+told))", re.I)
_SENTENCE = re.compile(r"(?<=[.;!?])\s+|,?\s+but\s+")


def _plain(text: str) -> str:
    text = text.lower().replace("\u2019", "'")
    for pattern, repl in _CONTRACTIONS:
        text = re.sub(pattern, repl, text)
    return text


def denies(answer: str) -> bool:
    """The answer says it does not know ("I don't know", "I haven't heard", "no idea", "I'm not
    aware"); contractions are spelled out first, so "I'm not sure" and "I am not sure" are one."""
    return bool(_DENIAL.search(_plain(answer)))


def states(answer: str, facts: Info, me: str = "") -> bool:
    """The answer states the facts in a sentence that does not deny knowing and is not a question:
    "Sam is running for mayor; I don't know if he will win" states it, "I haven't heard of Sam
    running for mayor" and "No idea. Is Sam running for mayor?" do not."""
    kept = [s for s in _SENTENCE.split(answer) if s.strip() and not denies(s) and not s.rstrip().endswith("?")]
    if me:  # the resident says itself as "I": "I will be the new treasurer", said by Cy, states "Cy will be"
        kept = [re.sub(r"\b(?:I|me|my)\b", me.split()[0], s) for s in kept]
    return facts.matches(" ".join(kept))


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
    checked: dict | None = None  # the answer's backing as the interview kept it (facts, problems, source)

    def to_dict(self) -> dict:
        return asdict(self)


def expected_info(info: Info, expect: Sequence[str] | None, needed: int = 0) -> Info:
    """The facts an answer must state: the question's own keywords, else the info's."""
    if not expect:
        return info if not needed else Info(info.name, info.keywords, needed)
    base = Info.parse(info.name, list(expect))
    return Info(base.name, base.keywords, needed)


def score_answer(resident: str, question: str, answer: str | None, about: str | None, facts: Info | None,
                 backing: Learned | None) -> Verdict:
    """One answer's verdict (see the module docstring); ``answer`` None: the model gave none."""
    v = Verdict(resident=resident, question=question, answer=answer or "", about=about,
                verdict=UNSCORED if answer is not None else NO_ANSWER, backed=backing is not None)
    if backing is not None:
        v.how, v.source, v.memory, v.learned_at = backing.how, backing.source, backing.text, backing.at.isoformat()
    if facts is None or answer is None:
        return v
    if not states(answer, facts, resident):
        v.verdict = DOES_NOT_KNOW
    else:
        v.verdict = KNOWS if backing is not None else INVENTED
    return v
