"""Sentences taken out of a line or a prompt, and those that lean on them: a secret kept from one the
text is for (``hide_secrets``), and a sentence that says "it" or "she" of one just dropped
(``kept_apart``: "It's happening tomorrow at 6:00 PM" after the party it speaks of)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from game.mind.facts.fact import Fact

LEANS = re.compile(r"(?:It|It's|It’s|This|That|These|Those|She|He|They|There)\b")
# a sentence that ends on one or asks what it is ("Do you know anything about it?", "What's it
# about?": Nora's, after "I hear you have a surprise party coming up" was kept from her, on b5e348b)
# or asks whether it is so ("Hey, Aiko! Is that true?", Eli's, once "I heard you mentioned that Samuel
# is hosting a surprise party" was cut on 2c4c6ac's day)
_LEANS_ON = re.compile(r"\b(?:it|this|that|them|her|him)(?:\s+(?:too|as well|either|yet|already))?\s*[?.!]*$"
                       r"|\bwhat(?:'s|’s| is) (?:it|this|that)\b"
                       r"|^\W*(?:is|was|isn't|wasn't)\s+(?:it|this|that)\s+(?:really\s+)?(?:true|right|so|correct)\b",
                       re.I)


def leans(sent: str) -> bool:
    """Whether ``sent`` speaks of something only by a word for it: at its start ("It's tomorrow"),
    at its end ("Do you know anything about it?") or asking what it is."""
    s = sent.strip()
    return LEANS.match(s) is not None or _LEANS_ON.search(s) is not None


_SOMEONE = re.compile(r"\b(?:he|she|him|his|her|they|them)\b|^\W*(?:you|your)\b", re.I)


def names_by_pronoun(sent: str) -> bool:
    """Whether ``sent`` speaks of someone by a pronoun ("I'm curious if he'll bake it"; at its start, of
    the listener: "You're doing such a good job with the cake", after "I know you're hosting the party"
    to one who is not), or leans."""
    return leans(sent) or _SOMEONE.search(sent) is not None


# a place said only as "there" ("I'll be there at 7pm", Grace's, once "I'm going to the cafe this morning" two
# sentences before was cut on 160f87f's day), and a place said by a sentence kept before it
_THERE = re.compile(r"\b(?:be|go|get|head|come|meet you|see you|join you)\s+(?:over\s+|right\s+)?there\b", re.I)
_PLACE_SAID = re.compile(r"\b(?:at|to|in|into)\s+(?:the\s+|my\s+|your\s+|our\s+)?(?:[A-Z][a-z]+|cafe|pub|park|store|"
                         r"shop|market|library|college|hall|house|home|office|kitchen|bakery|pharmacy)\b")


def kept_apart(parts: Sequence[str], bad: Callable[[str], bool], lean: Callable[[str], bool] = leans) -> list[str]:
    """The sentences of ``parts`` that are not ``bad``, less one that leans on a sentence just dropped
    ("It's happening tomorrow at 6:00 PM" after the party it speaks of; "She hates a fuss" after
    the surprise kept from her), and one that says "there" after any dropped, with no place said
    in what is kept before it; ``lean`` tells one that leans."""
    kept: list[str] = []
    last = gone = False
    for p in parts:
        before = last
        last = bad(p) or (last and lean(p)) or (gone and _there_unplaced(p, kept))
        gone = gone or last
        if not last:
            kept.append(p)
        elif not before and kept and bare_yes(kept[-1]):
            kept.pop()  # a bare "Yes, Eli!" goes with the claim it affirms (Aiko, asked "Did Samuel Okafor tell
            # you about this?", on the evening's day of 2026-12-02: "Samuel Okafor told me about it" not said)
    return kept


def _there_unplaced(sent: str, kept: Sequence[str]) -> bool:
    """Whether ``sent`` says "be there" with no place said before it, in it or in ``kept``."""
    m = _THERE.search(sent)
    return m is not None and not any(_PLACE_SAID.search(k) for k in [*kept, sent[:m.start()]])


def bare_yes(sent: str) -> bool:
    """Whether ``sent`` only says yes ("Yes, Eli!", "Sure."): it says no more than the sentence after it."""
    return _YES.match(sent) is not None


_YES = re.compile(r"^\W*(?:yes|yeah|yep|sure|of course|that's right|exactly|indeed|absolutely|definitely|right)\b"
                  r"(?:[,\s]+[A-Z][a-z]+)?\W*$", re.I)


def hide_secrets(text: str, facts: Sequence[Fact], split: Callable[[str], list[str]]) -> tuple[str, int]:
    """``text`` without the sentences that tell of one of ``facts`` (those kept from someone the
    text is for), and how many went; ``split`` cuts a line into sentences."""
    if not facts or not text:
        return text, 0
    out, dropped = [], 0
    for line in text.split("\n"):
        parts = split(line) or [line]
        kept = kept_apart(parts, lambda p: any(f.speaks_of(p) for f in facts))
        dropped += len(parts) - len(kept)
        if kept:
            out.append(" ".join(kept) if len(parts) > 1 else kept[0])
    return "\n".join(out), dropped
