"""What a talk's checks tell apart: a fact said in the town's words (which may recur), and a line
that lost a sentence to a claim check (what the model wrote after it answers what was not said)."""

from __future__ import annotations

import re

from game.mind.facts.fact import Fact
from game.mind.facts.unbacked import sentences
from game.mind.view import hhmm


def in_town_words(sent: str, fact: Fact) -> bool:
    """Whether a sentence tells ``fact`` with its place or its hour, as the town words it (news
    passed on may be said alike in many talks); a sentence that only speaks of it ("I'm helping
    Samuel prepare the party, it'll be fun") is the model's, and is not said twice."""
    if not fact.speaks_of(sent):
        return False
    low = sent.lower()
    return bool(fact.place and fact.place.lower() in low) or (fact.start is not None and hhmm(fact.start) in sent)


# fixes that change words or drop a sentence said before, not a claim: a reply to such a line still holds
_WORDING = re.compile(r"^(?:\d+ sentence\(s\) copied|a sentence said twice|greeting |today is |place |day |hours |"
                      r"corrected: |\w+ -> )")


def cut_for_a_claim(written: str, said: str, fixes: list[str]) -> bool:
    """Whether a scripted line lost a sentence to a claim check (misattributed, unbacked, kept
    secret, not so): what the model wrote after it answers what was not said."""
    lost = len(sentences(said) or [said]) < len(sentences(written) or [written])
    return lost and any(not _WORDING.match(f) for f in fixes if not f.startswith("was: "))
