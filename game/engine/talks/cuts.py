"""What a talk's checks tell apart: a fact said in the town's words (which may recur), and a line
that lost a sentence to a claim check (what the model wrote after it answers what was not said: not
said either, and the talk goes on once from what was said, ``Talk.goes_on``)."""

from __future__ import annotations

import re

from game.engine.state import Talk
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


GOES_ON_BELOW = 3  # a talk cut short with fewer lines said than this goes on (one call more, once a talk)


def withhold_rest(talk: Talk, why: str) -> None:
    """The lines of ``talk``'s script still to say are not said (kept, with ``why``, for `town
    audit`); a talk cut short so goes on from what was said, once (``goes_on``)."""
    talk.conv.withheld += [(who, line, why) for who, line in talk.script]
    talk.script = []
    if not talk.goes_on:
        talk.goes_on = "cut"


def withhold_reply(talk: Talk, speaker: str) -> None:
    """A scripted line not said: nor the reply written to it (6186d53's day: "Yes, we're friends and
    sparring partners", Grace to Priya), if the next line is another's."""
    if talk.script and talk.script[0][0] != speaker:
        other, reply = talk.script.pop(0)
        talk.conv.withheld.append((other, reply, "the reply to a line not said"))
        if not talk.script and not talk.goes_on:
            talk.goes_on = "cut"


def goes_on(talk: Talk) -> bool:
    """Whether a talk whose script is said is to go on: its rest was not said, it is short, and it
    has not gone on before (then it is "asked": its starter writes the rest, ``Talker.converse``)."""
    if talk.goes_on != "cut" or not 0 < len(talk.conv.lines) < min(GOES_ON_BELOW, talk.max_lines):
        return False
    talk.goes_on = "asked"
    return True
