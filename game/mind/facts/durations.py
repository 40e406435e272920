"""Years said in a line or an answer (issue 39): Samuel "married for over 50 years" (the records:
34), Grace's husband "a writer for twenty years" (nothing says so).  A number of years is the
records': set from the sentence of the sources that says years of the same thing (shares a word
of what the sentence is about), else the number is not said (its phrase dropped, the sentence
kept: "We have been married").  A number the sources say of years of nothing like it stands."""

from __future__ import annotations

import re
from collections.abc import Sequence

from game.mind.facts.ages import ages_mended
from game.mind.facts.fact import TownNames
from game.mind.facts.hours import stems
from game.mind.facts.unbacked import sentences

_UNITS = ("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
          "sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_VALUE = {**{w: i + 1 for i, w in enumerate(_UNITS)}, **{w: 20 + 10 * i for i, w in enumerate(_TENS)}}
_NUM = rf"(?:\d{{1,3}}|(?:{'|'.join(_TENS)})(?:[- ](?:{'|'.join(_UNITS[:9])}))?|{'|'.join(_UNITS)})"
_QUALIFIER = r"(?:over|about|nearly|almost|around|roughly|some|more than|close to|the (?:past|last))"
# "for over 50 years", "of 34 years", "in twenty years", "five years ago"; not "59 years old" (ages.py)
_SAID = re.compile(rf"(?P<lead>\s*\b(?:for|of|in)\s+(?:{_QUALIFIER}\s+)*)?(?<![\w-])(?P<n>{_NUM})\s+years?\b"
                   rf"(?!\s+old\b)(?P<ago>\s+ago\b)?", re.I)
_SKIP = frozenset({"year", "years", "over", "about", "nearly", "almost", "around", "more", "than", "past", "last",
                   "been", "have", "since", "still", "ever", "know", "known", "now",
                   # kin say whose, not what: "her husband of 34 years" backs nothing of his work
                   "husband", "wife", "daughter", "father", "mother", "brother", "sister", "parents",
                   "family", "uncle", "aunt", "partner", "children"})


def value(said: str) -> int:
    """ "34" -> 34, "thirty-four" -> 34, "twelve" -> 12."""
    said = said.lower()
    if said.isdigit():
        return int(said)
    return sum(_VALUE.get(w, 0) for w in re.split(r"[- ]", said))


def _held(sources: Sequence[str], skip: frozenset[str]) -> list[tuple[int, set[str]]]:
    """Each number of years the sources say, with what its sentence is about."""
    return [(value(m.group("n")), stems(s, skip)) for text in sources for s in sentences(text)
            for m in _SAID.finditer(s)]


# years of a bond (a marriage, a friendship) said of anything else: Grace of her husband "a part of the
# town for 34 years" (her "husband of 34 years"), on c59f68b's day
_BOND = re.compile(r"\b(?:husband|wife|married|marriage|wed|partner|together|friends?|friendship|known each other)\b",
                   re.I)


def _bond_only(n: int, sources: Sequence[str]) -> bool:
    """Whether every sentence of the sources that says ``n`` years speaks of a bond."""
    said = [s for text in sources for s in sentences(text) for m in _SAID.finditer(s) if value(m.group("n")) == n]
    return bool(said) and all(_BOND.search(s) for s in said)


def years_mended(text: str, sources: Sequence[str], people: Sequence[str] = ()) -> tuple[str, list[str]]:
    """``text`` with each number of years set to the one its sources say of the same thing (not by
    the names of ``people`` or kin alone), or not said where they say none; and what was set."""
    if not _SAID.search(text):
        return text, []
    skip = _SKIP | {w.lower() for p in people for w in p.split()}
    held = _held(sources, skip)
    numbers = {n for n, _ in held}
    fixes: list[str] = []
    out = []
    for sent in sentences(text) or [text]:
        about = stems(_SAID.sub("", sent), skip)

        def mend(m: re.Match[str], about: set[str] = about, sent: str = sent) -> str:
            n = value(m.group("n"))
            same = sorted(((len(about & words), k) for k, words in held if about & words), reverse=True)
            if any(k == n for _, k in same) or (n in numbers and not same and (
                    _BOND.search(sent) or not _bond_only(n, sources))):
                return m.group(0)
            if same:
                fixes.append(f"corrected: {same[0][1]} years (said {n})")
                lead = re.sub(rf"\s+{_QUALIFIER}\b", "", m.group("lead") or "", flags=re.I)
                return f"{lead}{same[0][1]} years{m.group('ago') or ''}"
            fixes.append(f"not said: {n} years (nothing holds it)")
            return ""
        out.append(_SAID.sub(mend, sent))
    mended = " ".join(re.sub(r"\s+([,.!?;])", r"\1", s).strip() for s in out)
    return (mended, fixes) if fixes else (text, [])


# a span said without a number: "I've been saving it for years" (Samuel, of the party he plans for Tuesday, on
# 75fad48's day), "waiting for months"
_VAGUE = re.compile(r"\s*\bfor (?:(?:so |very )?(?:many|several|a few|some) )?(?P<u>years|months|decades|ages)\b", re.I)
_SPAN = re.compile(r"\b(?:years?|months?|decades?|ages)\b", re.I)


def spans_mended(text: str, sources: Sequence[str], people: Sequence[str] = ()) -> tuple[str, list[str]]:
    """``text`` less each span of years or months said without a number ("for years") that no
    sentence of its sources says a span of, of the same thing; a bond's span stands ("friends for
    years"): the sentence is kept, the span not said."""
    if not _VAGUE.search(text):
        return text, []
    skip = _SKIP | {w.lower() for p in people for w in p.split()} | {"month", "months", "decade", "decades", "ages"}
    held = [stems(s, skip) for src in sources for s in sentences(src) if _SPAN.search(s)]
    fixes: list[str] = []
    out = []
    for sent in sentences(text) or [text]:
        about = stems(_VAGUE.sub("", sent), skip)
        if not _BOND.search(sent) and not any(about & words for words in held):
            fixes += [f"not said: for {m.group('u').lower()} (nothing holds it)" for m in _VAGUE.finditer(sent)]
            sent = _VAGUE.sub("", sent)
        out.append(sent)
    mended = " ".join(re.sub(r"\s+([,.!?;])", r"\1", s).strip() for s in out)
    return (mended, fixes) if fixes else (text, [])


def numbers_mended(text: str, speaker: str, listeners: Sequence[str], town: TownNames,
                   sources: Sequence[str]) -> tuple[str, list[str]]:
    """``text`` with its birthdays' numbers and ages (ages.py) and its numbers of years set to the
    records'; and what was set."""
    text, ages = ages_mended(text, speaker, listeners, town.people, town.ages, tuple(town.parts))
    text, years = years_mended(text, sources, town.people)
    text, spans = spans_mended(text, sources, town.people)
    return text, ages + years + spans
