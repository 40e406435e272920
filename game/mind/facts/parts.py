"""Who has a hand in a gathering: the town's declared events say who hosts each and who helps (its
``known_by``), and a line or an answer that gives that part to someone else is not said (issue 39,
read on a whole day: "I know you're helping prepare Grace's surprise party", said by Rosa to Marcus,
who knows nothing of it; "I enjoy helping my father, Hank, prepare Grace's surprise party", of a
party Hank has no part in).  Asking someone to help is not judged: only a part said as held."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from game.mind.facts.fact import Fact, TownNames
from game.mind.facts.unbacked import sentences

_HELP = (r"(?:help(?:s|ed|ing)?|prepar(?:e|es|ed|ing)|organi[sz](?:e|es|ed|ing)|plann(?:ed|ing)|"
         r"decorat(?:e|es|ed|ing)|arrang(?:e|es|ed|ing)|setting up|host(?:s|ed|ing)?|throw(?:s|ing)?)")
# a part said as the listener's ("you're helping ...", "thanks for helping with ..."), not asked of it
_YOU_HELP = re.compile(rf"\byou(?:'re|’re| are| were|'ve been|’ve been| have been)\s+(?:also\s+|still\s+|busy\s+)?"
                       rf"{_HELP}\b|\bthanks?(?: you)? for (?:all )?(?:your help|helping)\b", re.I)
# whom the speaker helps ("helping my father, Hank, prepare ...", "I help Samuel with the party")
_HELPING = re.compile(r"\bhelp(?:s|ed|ing)?\s+(?P<who>[^.!?;]{1,40}?)\s+(?:to\s+)?(?:prepare|plan|organi[sz]e|"
                      r"decorate|arrange|set up|get ready|with)\b", re.I)
# a third person's part ("Hank is helping with ...", "Marcus has been planning ...")
_THEY_HELP = re.compile(rf"\b(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?) (?:is|was|has been|'s) (?:also\s+)?{_HELP}\b")


def _named(text: str, people: Sequence[str]) -> str | None:
    """The first person of the town ``text`` names (a full name or a first name)."""
    for p in people:
        if re.search(rf"\b(?:{re.escape(p)}|{re.escape(p.split()[0])})\b", text):
            return p
    return None


_NOT = re.compile(r"\b(?:not|won't|n't|never|no longer)\b", re.I)


def part_not_theirs(sent: str, speaker: str, listeners: Sequence[str], town: TownNames, facts: Iterable[Fact]) -> str:
    """Why ``sent`` gives a part in one of ``facts``' gatherings (one the town declared) to someone
    who has none, or denies its speaker's own part ("I will not be helping Samuel prepare Grace's
    surprise party", said by Rosa, who makes its decorations), else ""."""
    for f in facts:
        hands = town.parts.get(f.what.lower())
        if f.kind != "gathering" or hands is None or not f.speaks_of(sent):
            continue
        own = re.search(rf"\bI\b[^.!?]*?{_NOT.pattern}[^.!?]*?\b{_HELP}\b", sent, re.I)
        if speaker in hands and own is not None:
            return f"{speaker.split()[0]} has a hand in {f.bare_what}"
        if len(listeners) == 1 and listeners[0] not in hands and _YOU_HELP.search(sent):
            return f"{listeners[0].split()[0]} has no part in {f.bare_what}"
        for m in _HELPING.finditer(sent):
            who = _named(m.group("who"), town.people)
            if who is None and re.search(r"\byou\b", m.group("who"), re.I) and len(listeners) == 1:
                who = listeners[0]
            if who is not None and who not in hands and who != speaker:
                return f"{who.split()[0]} has no part in {f.bare_what}"
        for m in _THEY_HELP.finditer(sent):
            who = _named(m.group("who"), town.people)
            if who is not None and who not in hands:
                return f"{who.split()[0]} has no part in {f.bare_what}"
    return ""


def parts_unbacked(text: str, speaker: str, town: TownNames, facts: Iterable[Fact]) -> list[tuple[str, str]]:
    """The sentences of an answer (said to no one of the town) that give a part in a gathering to
    someone who has none, each with its reason."""
    facts = list(facts)
    return [(s, why) for s in sentences(text) if (why := part_not_theirs(s, speaker, (), town, facts))]
