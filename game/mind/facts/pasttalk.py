"""What a talk line says happened before, held to what the speaker holds: an event of the past
("did you have a surprise party last week?", Ines on 8f03815's day, of a party still to come) and a
talk it had ("I talked to Felix about it", Kenji, who had not).  A line's sentence that says either
with nothing behind it is not said (game/engine/talks/facts.py).

Pure rules, no model call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from game.mind.facts.fact import EVENT_RE
from game.mind.facts.hours import stems
from game.mind.facts.unbacked import by_first

PAST = re.compile(r"\b(?:yesterday|last\s+(?:night|week|weekend|month|year|time|saturday|sunday|friday)"
                  r"|the\s+other\s+day|(?:a\s+few|a\s+couple\s+of|two|three|several|some)\s+(?:days|weeks|months)\s+ago"
                  r"|a\s+(?:day|week|month)\s+ago)\b", re.I)


_PASTISH = re.compile(r"\b(?:ago|last|yesterday|used\s+to|once|earlier|before|every|weekly|each)\b"
                      r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days\b"
                      r"|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+(?:nights|mornings|evenings|afternoons)\b",
                      re.I)  # (a past, or what recurs: "a pub quiz on Monday nights" had one last week)


def past_held(own: Sequence[str], earlier: Sequence[str]) -> list[str]:
    """What backs an event said as past: the sentences of the speaker's own text (persona, seed
    memories) that tell of a past ("started serving breakfast last week") or of what recurs, and its memories of
    earlier days (``earlier``)."""
    return [s for s in own if _PASTISH.search(s)] + list(earlier)


def past_event_unheld(sent: str, held: Sequence[str]) -> str:
    """Why ``sent`` tells of an event (a party, a fair) as past when nothing in ``held`` (the
    speaker's own text's sentences that tell of a past, its memories of earlier days) has one of
    that kind, else "".  An event to come, said as past, has nothing behind it."""
    if not PAST.search(sent):
        return ""
    nouns = {m.group(0).lower().rstrip("s") for m in EVENT_RE.finditer(sent)}
    if not nouns:
        return ""
    low = " ".join(held).lower()
    return "" if any(n in low for n in nouns) else "an event of the past it holds nothing of"


_NAME = r"(?P<who>[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)"
_TALKED = re.compile(
    r"\bI(?:'ve|\s+have|\s+had)?\s+(?:just\s+|already\s+|also\s+|briefly\s+)?(?:talked|spoke|spoken|chatted)\s+"
    rf"(?:to|with)\s+{_NAME}"
    rf"|\bI(?:\s+was|['’]m|\s+am)\s+(?:just\s+)?(?:talking|chatting|speaking)\s+(?:to|with)\s+"
    rf"{_NAME.replace('who', 'was')}"
    rf"|\b{_NAME.replace('who', 'and')}\s+and\s+I\s+(?:just\s+)?(?:talked|spoke|chatted|were\s+talking)\b"
    # ("Felix Adeyemi told me it's going to be busy", Samuel's, who never talked with him: 0e6b5f2's day)
    rf"|\b{_NAME.replace('who', 'tm')}\s+(?:has\s+|had\s+)?(?:just\s+|already\s+|also\s+)?"
    r"(?:told|informed|called|rang)\s+me\b"
    # ("I just got a call from Marcus Bell", Ines on 75fad48's day: no call was made)
    rf"|\bI(?:'ve|\s+have)?\s+(?:just\s+|already\s+)?(?:got|had|received|gotten)\s+(?:a\s+)?(?:phone\s+)?(?:call|message|"
    rf"note|letter)\s+from\s+{_NAME.replace('who', 'cf')}")
_TALK_VERB = r"(?:talk|talked|talking|spoke|told|asked|said|chat|chatted|mentioned|discussed|called)"


def _talks_of(sent: str, first: str) -> bool:
    """Whether ``sent`` has a talk with ``first``: the name within a few words of a talk verb not
    denied ("Samuel asked Rosa to help", "told Grace"; not "has not told her father")."""
    name = re.escape(first)
    pat = rf"\b{_TALK_VERB}\b(?:\s+\w+){{0,3}}?\s+{name}\b|\b{name}\b(?:\s+\w+){{0,3}}?\s+{_TALK_VERB}\b"
    for m in re.finditer(pat, sent, re.I):
        if not re.search(r"\b(?:not|never)\b|n't\b", sent[max(0, m.start() - 12):m.end()], re.I):
            return True
    return False


def named_teller(sent: str, before: str, people: Sequence[str]) -> str:
    """``sent`` with a "He told me" / "She told me" at its start said with the one person the sentence
    ``before`` names ("I noticed that Felix Adeyemi has been preparing bread. He told me ..."), else ``sent``."""
    m = re.match(r"(?:He|She)(?=\s+(?:has\s+|had\s+)?(?:just\s+|already\s+|also\s+)?(?:told|informed)\s+me\b)", sent)
    who = one_named(before, people) if m else None
    return who.split()[0] + sent[m.end():] if m and who else sent


def one_named(text: str, people: Sequence[str]) -> str | None:
    """The one of ``people`` that ``text`` names by first name, if it names exactly one (its capitalised
    words first: one regex for the text, not one a resident)."""
    index = by_first(tuple(people))
    named = [p for c in set(re.findall(r"\b[A-Z][a-z]+\b", text)) for p in index.get(c, ())]
    return named[0] if len(named) == 1 else None


def talks_claimed(sent: str, people: Sequence[str]) -> list[str]:
    """The town's people ``sent`` says the speaker talked with ("I talked to Felix", "Rosa and I
    spoke"), by full name; a name that is no one's is not here (unbacked.people_named's)."""
    out = []
    for m in _TALKED.finditer(sent):
        said = m.group("who") or m.group("was") or m.group("and") or m.group("tm") or m.group("cf")
        who = next((p for p in people if said in (p, p.split()[0])), None)
        if who is not None and who not in out:
            out.append(who)
    return out


def talk_unheld(sent: str, here: Sequence[str], people: Sequence[str], talked_with: Callable[[str], bool],
                own: Sequence[str]) -> str:
    """Why ``sent`` says the speaker talked with someone it never talked with, else "": not one in
    this talk (``here``), nor one its records of its talks hold (``talked_with``), nor one its own
    text (``own``: its persona's and seed memories' sentences) has it speak with."""
    for who in talks_claimed(sent, people):
        if who in here or talked_with(who):
            continue
        if any(_talks_of(s, who.split()[0]) for s in own):
            continue
        return f"a talk with {who} it never had"
    return ""



# another's talk with the listener ("I heard Grace told you that she's hosting the public debate", Nora
# to Rosa on 0e6b5f2's day: Grace had, at a talk Nora was not in and heard nothing of)
_TOLD_YOU = re.compile(rf"\b{_NAME}\s+(?:has\s+|had\s+)?(?:just\s+|already\s+|also\s+)?(?:told|informed)\s+you\b")


def told_you_unseen(sent: str, listeners: Sequence[str], people: Sequence[str], held: Sequence[str]) -> str:
    """Why ``sent`` says a third told the one listener something when nothing the speaker holds
    (``held``: its memories, its records of talks among them) has the two of them together, else ""."""
    if len(listeners) != 1:
        return ""
    to = listeners[0].split()[0]
    for m in _TOLD_YOU.finditer(sent):
        who = next((p for p in people if m.group("who") in (p, p.split()[0])), None)
        if who is None or who in listeners:
            continue
        first = who.split()[0]
        if not any(re.search(rf"\b{first}\b", h) and re.search(rf"\b{to}\b", h) for h in held):
            return f"a talk of {first} with {to} it knows nothing of"
    return ""


# what the speaker says it heard of the listener ("Hi Ines! I hear you're planning something important",
# Nora on 4151289's day, who had heard nothing of Ines)
_HEARD_OF_YOU = re.compile(r"\bI(?:'ve|\s+have)?\s+(?:hear|heard)\s+(?:that\s+)?you(?:'re|\s+are|'ve|\s+have|"
                           r"\s+were|\s+will|'ll)\s+(?P<x>[^.!?]+)", re.I)


def heard_of_you_unheld(sent: str, listener: str, held: Sequence[str],
                        stems: Callable[[str, frozenset[str]], set[str]]) -> str:
    """Why ``sent`` says the speaker heard something of the one listener that nothing it holds of
    them (``held``: its memories and the talk's lines, those that name them) has, else ""."""
    m = _HEARD_OF_YOU.search(sent)
    what = stems(m.group("x"), _SKIP) if m is not None else set()
    of = [h for h in held if re.search(rf"\b{re.escape(listener.split()[0])}\b", h)]
    if not what or len(what & stems(" ".join(of), _SKIP)) >= min(2, len(what)):
        return ""
    return f"what it heard of {listener.split()[0]}, which nothing it holds has"

# what the listener is said to have said ("What did you say about the surprise party ...?", Rosa to Nora on
# 82f1ab1's day, who had said nothing of it; "you told me about the fair")
_YOU_SAID = re.compile(r"\b(?:what did you (?:say|tell me|mention)|you (?:said|mentioned|told me))"
                       r"(?:\s+(?:that|about|of))?\s+(?P<x>[^.!?]+)", re.I)
_SKIP = frozenset({"the", "that", "this", "about", "with", "your", "what", "there", "then", "them", "they", "just",
                   "really", "would", "could", "going"})


def from_listeners(lines: Sequence[tuple[str, str]], speaker: str, participants: Sequence[str],
                   heard: Sequence[str]) -> list[str]:
    """What the others in a talk said in it (``lines``), and what the speaker remembers them telling."""
    others = [p for p in participants if p != speaker]
    return [t for who, t in lines if who != speaker] + [
        h for h in heard if any(h.startswith(f"{o} told me") for o in others)]


def said_unheard(sent: str, heard: Sequence[str], stems: Callable[[str, frozenset[str]], set[str]]) -> str:
    """Why ``sent`` says the listener said something that nothing it said here, or that the speaker
    remembers it telling (``heard``: those lines and memories), holds, else ""; ``stems``: the words
    of a text as compared (hours.stems)."""
    m = _YOU_SAID.search(sent)
    if m is None:
        return ""
    what = stems(m.group("x"), _SKIP)
    if not what:
        return ""
    held = stems(" ".join(heard), _SKIP)
    return "" if len(what & held) >= min(2, len(what)) else "the listener said nothing of it"


# a past shared with the listener, or the listener's own, told as remembered ("Do you remember when you were
# in high school and started writing for the college paper?", Priya to Eli on ca91aae's day)
# ("I remember you writing about it in the paper", Grace to Eli on b61bcdc's day)
_SHARED_PAST = re.compile(r"\b(?:remember(?:s|ed)? (?:when|the time|(?:you|we) (?=\w+ing\b))|back when|"
                          r"when (?:you|we) (?:were|was) "
                          r"(?:in |at |a |an )?(?P<w>high school|school|kids?|children|a child|little|young(?:er)?|"
                          r"teenagers?|a teenager|students?|a student))\b", re.I)


def shared_past_unheld(sent: str, held: Sequence[str]) -> str:
    """Why ``sent`` tells a shared or the listener's past that nothing in ``held`` (the speaker's
    own life, what it heard) has, else "": its time of life ("high school"), else the first words
    after "remember when", are looked for in what it holds."""
    m = _SHARED_PAST.search(sent)
    if m is None:
        return ""
    low = " ".join(held).lower()
    if m.group("w"):
        words = [m.group("w").lower().split()[-1].rstrip("s")]
    else:
        words = [w for w in re.findall(r"[a-z']{4,}", sent[m.end():].lower())[:4]
                 if w not in ("when", "that", "were", "with", "your", "have", "about", "there", "this")][:2]
    if not words or any(re.search(rf"\b{re.escape(w)}", low) for w in words):
        return ""
    return f"a past nothing it holds tells of: {' '.join(words)}"


_YESTERDAY = re.compile(r"\b(?:yesterday|last night)\b", re.I)
_YESTERDAY_WORDS = frozenset({"yesterday", "last", "night", "also", "really", "just", "there", "been", "were",
                              "morning", "afternoon", "evening", "after", "before", "whole", "long", "busy"})


def yesterday_unheld(sent: str, life: str, that_day: Callable[[], Sequence[str]]) -> str:
    """Why ``sent`` tells of the speaker's yesterday or last night when neither its own text (``life``) nor
    a memory of that day (``that_day``, read only then) holds it (Felix, in town two weeks: "I was working in
    the grocery store yesterday too"), else ""."""
    if not _YESTERDAY.search(sent):
        return ""
    said = stems(sent, _YESTERDAY_WORDS)
    return "" if not said or said & stems(" ".join([life, *that_day()]), _YESTERDAY_WORDS) else (
        "a yesterday it holds nothing of")
