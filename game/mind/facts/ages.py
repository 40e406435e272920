"""Ages said of people in a line or an answer (issue 39): "since Grace's 40th birthday", said by
Ines of Grace, 59, whose 60th is the town's surprise party.  A birthday's number is the town's:
corrected from the records (the person's age, or the number a declared gathering gives it), not
dropped, so the line keeps what it was about."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

_ORDINAL = re.compile(r"\b(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?['’]s|[Yy]our|[Mm]y)\s+(?P<n>\d{1,3}(?:st|nd|rd|th))"
                      r"(?=\s+birthday\b)")
_TURNING = re.compile(r"\b(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?|[Yy]ou(?:'re| are)|I(?:'m| am))\s+"
                      r"(?:is |will be |'s )?turning\s+(?P<n>\d{1,3})\b")
# "my husband Samuel, who is 34 years old" (Grace on b765e22's save: his 34 years of marriage as his age)
_AGED = re.compile(r"\b(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?|[Yy]ou|I)(?:,? who(?: is|'s)| is|'s| are|'re| am|'m)\s+"
                   r"(?P<n>\d{1,3})(?= years? old\b)")


def ordinal(n: int) -> str:
    """61 -> "61st", 62 -> "62nd", 12 -> "12th"."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _person(said: str, speaker: str, listeners: Sequence[str], people: Sequence[str]) -> str | None:
    word = re.sub(r"['’]s$", "", said).strip()
    low = word.lower()
    if low in ("my", "i'm", "i am"):
        return speaker
    if low in ("your", "you're", "you are"):
        return listeners[0] if len(listeners) == 1 else None
    return next((p for p in people if word in (p, p.split()[0])), None)


def _birthday_number(who: str, age: int, gatherings: Sequence[str]) -> int:
    """The birthday ``who`` has next: the number a declared gathering gives it ("a surprise party
    for Grace's 60th birthday"), else its age and one."""
    first = re.escape(who.split()[0])
    for g in gatherings:
        m = re.search(rf"\b{first}['’]s (\d{{1,3}})(?:st|nd|rd|th) birthday\b", g, re.I)
        if m:
            return int(m.group(1))
    return age + 1


def ages_mended(text: str, speaker: str, listeners: Sequence[str], people: Sequence[str],
                ages: Mapping[str, int], gatherings: Sequence[str] = ()) -> tuple[str, list[str]]:
    """``text`` with each birthday's number ("Grace's 40th birthday") and each age one is turning
    set to the records' where they say otherwise; and what was set, for the line's verdicts."""
    fixes: list[str] = []

    def mend(m: re.Match[str], *, birthday: bool, now: bool = False) -> str:
        said = m.group("who")
        who = _person({"I": "I am", "you": "you are", "You": "you are"}.get(said, said), speaker, listeners, people)
        age = ages.get(who or "")
        n = int(re.sub(r"\D", "", m.group("n")))
        if who is None or not age or n == age or (n == age + 1 and not now):
            return m.group(0)
        right = age if now else _birthday_number(who, age, gatherings) if birthday else age + 1
        fixes.append(f"corrected: {who} is {age} (said {n})")
        start, end = m.start("n") - m.start(), m.end("n") - m.start()
        return m.group(0)[:start] + (ordinal(right) if birthday else str(right)) + m.group(0)[end:]

    text = _ORDINAL.sub(lambda m: mend(m, birthday=True), text)
    text = _TURNING.sub(lambda m: mend(m, birthday=False), text)
    text = _AGED.sub(lambda m: mend(m, birthday=False, now=True), text)
    return text, fixes
