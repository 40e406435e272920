"""What a line says of the speaker's time with the listener, of someone's arrival in town, or of
why the speaker is here, held to what the town and the speaker hold (issue 39).  Read on 9d99520's
day (2026-12-01), each small talk's filler that was not true:

- Kenji, to Aiko, his wife, at lunch: "It's been a while since we've talked" (they share a home);
- Grace, to Nora: "I've been here since you moved in" (nothing says Nora moved to town);
- Felix, the baker, to Kenji at the pharmacy: "I'm here to help you with your inventory" (nothing
  of his day or life holds an inventory; it is Kenji's work).

A time apart is not said to one who lives or works with the speaker, or of whom it holds a memory
of the last day; an arrival needs the one who arrived to have a life that says so ("moved", "new");
a reason to be here needs its words in the speaker's day, points or life.  A question asks, and is
let be.

Pure rules over words: no model call.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from game.mind.facts.owned import stem
from game.mind.facts.unbacked import sentences

_APART = re.compile(
    r"\b(?:it(?:'s|’s| has| is)|it's|been) (?:been )?(?:a while|ages|forever|so long|too long|a long time|"
    r"quite a while|some time)\b(?! (?:ago|before|now)\b)"
    # "a bit" only as a time: "it's been a bit since", not "It's a bit tricky" (Felix on 487f002's day)
    r"|\bbeen a bit(?=\s*(?:[.,!?]|since\b|$))"
    r"|\blong time no see\b"
    r"|\b(?:have(?:n't|n’t| not)|haven't|hasn't|not) (?:seen|talked|spoken|caught up|chatted)"
    r"(?: to| with)? (?:you|each other|in)\b[^.!?]*\b(?:while|ages|long|forever|weeks|months|years)\b"
    r"|\bgood to see you again after\b"
    r"|\b(?:last|first) time (?:we|I) (?:talked|spoke|saw|met)\b[^.!?]*\b(?:weeks|months|years|ages)\b", re.I)
# an arrival in town: "since you moved in", "when she came to town", "you're new here"
_ARRIVED = re.compile(
    r"\b(?:since|when|after|before|ever since) (?P<who>you|he|she|they|I|[A-Z][a-z]+) (?:first |just )?"
    r"(?:moved|came to (?:town|millbrook|live)|arrived|got here|settled)\b"
    r"|\b(?P<you>you)(?:'re|’re| are) (?:still )?new (?:here|in town|to town|around here)\b", re.I)
_NEW = re.compile(r"\b(?:moved|move|new|arrived|came to|newcomer|recently|settl\w*|weeks? ago|months? ago)\b", re.I)
# why the speaker is here: "I'm here to help you with your inventory", "I came by to drop off the bread"
_HERE_TO = re.compile(
    r"\bI(?:'m|’m| am) (?:just |only |also )?here to (?P<a>[^.!?,;]{3,80})"
    r"|\bI(?: came| have come|'ve come|’ve come| stopped by| dropped by| popped in| popped by| came by| came over)"
    r"(?: here)? (?:just |only )?to (?P<b>[^.!?,;]{3,80})", re.I)
# the words of a reason that say no errand of their own: "I'm here to see you", "to talk with you about it"
_PLAIN = frozenset("""help helping talk chat speak visit visiting check ask tell give find make take bring drop pick
meet catch have some with about your you you're this that them there here just maybe really today morning
afternoon evening tonight things thing little while stuff quick word hello everyone everybody people see say
what they thank thanks know hear sure again back time""".split())


def apart_unheld(sent: str, listeners: Sequence[str], speaker: str, homes: Mapping[str, str],
                 workplaces: Mapping[str, str], recent: Sequence[str]) -> str:
    """Why ``sent`` says the speaker has not seen or talked with the listener for a while when it
    shares a home or a workplace with one of them, or holds a memory of one in ``recent`` (its latest
    memories, a day's), else ""."""
    if sent.rstrip().endswith("?") or not _APART.search(sent):
        return ""
    for p in listeners:
        if homes.get(speaker) and homes.get(p) == homes.get(speaker):
            return f"a time apart from {p.split()[0]}, who lives with {speaker.split()[0]}"
        if workplaces.get(speaker) and workplaces.get(p) == workplaces.get(speaker):
            return f"a time apart from {p.split()[0]}, who works with {speaker.split()[0]}"
        if any(p in t for t in recent):
            return f"a time apart from {p.split()[0]}, seen lately"
    return ""


def arrival_unheld(sent: str, speaker: str, listeners: Sequence[str], people: Sequence[str],
                   lives: Mapping[str, str]) -> str:
    """Why ``sent`` tells of someone's arrival in town ("since you moved in") that the life of the one
    it is of does not say ("moved", "new", "arrived"), else ""."""
    m = _ARRIVED.search(sent)
    if m is None or sent.rstrip().endswith("?"):
        return ""
    who = (m.group("who") or m.group("you") or "").strip()
    if who.lower() == "you":
        of = list(listeners) if len(listeners) == 1 else []
    elif who.lower() == "i":
        of = [speaker]
    else:
        of = [p for p in people if p.split()[0].lower() == who.lower()]
    if len(of) != 1:  # ("since he moved": whom it is of is not read here)
        return ""
    own = re.sub(r"(?:^|(?<=[.!?] ))[A-Z][a-z]+ [A-Z][a-z]+: [^.!?]*[.!?]", "", lives.get(of[0], ""))
    # of the one it is of, not of another it names ("Nora has a new lodger, Felix Adeyemi": Felix is new)
    own = " ".join(s for s in re.split(r"(?<=[.!?])\s+", own) if not any(p in s for p in people if p != of[0]))
    return "" if _NEW.search(own) else f"an arrival {of[0].split()[0]}'s life does not tell of"


def reason_unheld(sent: str, held: Sequence[str]) -> str:
    """Why ``sent`` gives a reason for the speaker to be here ("I'm here to help you with your
    inventory") whose words nothing of ``held`` (its day's doings, its points, its life) has, else
    "": a reason of plain words ("I'm here to see you") is let be."""
    m = _HERE_TO.search(sent)
    if m is None or sent.rstrip().endswith("?"):
        return ""
    what = m.group("a") or m.group("b") or ""
    said = _stems(what, plain=_PLAIN)
    return "" if not said or said & _stems(*held) else f"a reason to be here nothing it holds has: {what.strip()}"


_VISITING = re.compile(r"\bI(?:'m|’m| am)(?: just| also| only)? (?:visiting|paying a visit to|dropping by|"
                       r"stopping by) (?:the |my |our )?(?P<p>[A-Za-z' ]{3,40}?)(?: too| today| now| again)?[.!?,;]",
                       re.I)


def own_place_visited(sent: str, own: Sequence[str]) -> str:
    """Why ``sent`` has the speaker visit a place of its own (``own``: its workplace and home), else
    "": Ines, who runs Bluebell Cafe, to Grace there: "I'm visiting the cafe too" (9d99520's day)."""
    m = _VISITING.search(sent)
    if m is None:
        return ""
    said = {w for w in re.findall(r"[a-z]+", m.group("p").lower()) if len(w) >= 3}
    for place in own:
        words = {w for w in re.findall(r"[a-z]+", place.lower()) if len(w) >= 3}
        if said and said <= words:
            return f"a visit to its own {place}"
    return ""


# help the speaker says it gives: "Yeah, I've been helping out with the pharmacy", Marcus's (he runs the pub) to
# the pharmacist on 1703955's day
_HELPING = re.compile(r"\bI(?:'ve| have)? been helping(?: out)? (?:with|at|in) (?P<a>[^.!?,;]{3,60})"
                      r"|\bI(?:'m|’m| am)(?: also| still)? helping(?: out)? (?:with|at|in) (?P<b>[^.!?,;]{3,60})", re.I)
# an errand the speaker says it runs now for a third ("I'm paying the bill for Hank Brody", Kenji, the
# pharmacist, to Felix on 2c4c6ac's day: nothing of his has Hank)
_ERRAND = re.compile(r"\bI(?:'m|’m| am)(?: just| also| currently| now| still)? (?P<v>[a-z]+ing)\b[^.!?;]{0,50}? for "
                     r"(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?)\b(?!['’])")
# help given to a third ("I'm also helping Felix Adeyemi prepare his new bakery stall", Rosa on 356ade6's day:
# her own words name Felix only for her crush on him), and what in the speaker's own sentence with that person
# says it helps ("volunteers for Hank Brody's campaign", "lending Bluebell Cafe for Samuel Okafor's party")
_HELPS_WHO = re.compile(r"\bI(?:'m|’m| am)(?: also| still| just| now)? helping (?:out )?"
                        r"(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?)\b(?!['’])")
_HELP_WORDS = re.compile(r"\b(?:help\w*|volunteer\w*|lend\w*|assist\w*|works? (?:for|with)|prepar\w*|"
                         r"on (?:his|her) side|for [A-Z][a-z]+(?: [A-Z][a-z]+)?['’]s)\b")


def _help_held(who: str, own: Sequence[str]) -> bool:
    first = re.escape(who.split()[0])
    return any(re.search(rf"\b{first}\b", s) and _HELP_WORDS.search(s) for t in own for s in sentences(t) or [t])


def _third(m: re.Match[str] | None, others: Sequence[str]) -> str:
    """The one of ``others`` that ``m``'s "who" names (by whole or first name), else ""."""
    return next((p for p in others if m.group("who") in (p, p.split()[0])), "") if m else ""


def helping_unheld(sent: str, own: Sequence[str], others: Sequence[str] = ()) -> str:
    """Why ``sent`` says the speaker helps with something no word of its own (``own``: its day's
    doings, its points, its life, its parts in the town's gatherings) has, or runs an errand now for
    one of ``others`` (the town's people not in the talk) whom none of its words name, else "": what
    it heard in the talk does not make it the speaker's work."""
    if sent.rstrip().endswith("?"):
        return ""
    e = _ERRAND.search(sent)
    who = _third(e, others)
    if e and who and not re.search(rf"\b{re.escape(who.split()[0])}\b", " ".join(own)):
        return f"an errand for {who} nothing of its own has: {e.group(0)}"
    helped = _third(_HELPS_WHO.search(sent), others)
    if helped and not _help_held(helped, own):
        return f"help for {helped} nothing of its own has"
    m = _HELPING.search(sent)
    if m is None:
        return ""
    what = m.group("a") or m.group("b") or ""
    said = _stems(what, plain=_PLAIN)
    return f"help it gives nothing of its own has: {what.strip()}" if said and not said & _stems(*own) else ""


def _stems(*texts: str, plain: frozenset[str] = frozenset()) -> set[str]:
    """The first five letters of the stems of the words of four letters or more in ``texts``, less ``plain``."""
    return {stem(w)[:5] for t in texts for w in re.findall(r"[a-z]+", t.lower()) if len(w) >= 4 and w not in plain}


def says_history(sent: str) -> bool:
    """Whether ``sent`` has any form these rules read (a cheap test before their inputs are gathered)."""
    return any(p.search(sent) for p in (_APART, _ARRIVED, _HERE_TO, _VISITING, _HELPING, _ERRAND, _HELPS_WHO))
