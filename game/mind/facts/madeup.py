"""An event or a plan for another day that a talk's line makes up (issue 39), read on e01221a's day
(2026-11-30, afternoon):

- Priya, to the mayor: "I know there's a garden party scheduled for next week" (there is none; the
  town has a surprise party, and "party" alone was backed by it).
- Rosa, to Ines: "I'm going to cook breakfast for everyone at Bluebell Cafe tomorrow" (her days are
  the counter; Ines then asked Samuel "Can we get started on breakfast tomorrow?" in a later talk).

An event is named by its noun and the word before it ("garden party", "pub quiz", "public debate"):
one is backed when a sentence of what the speaker holds (its life, what it heard, its points, the
talk so far) has both words, or, with no such word, the noun.  A plan for tomorrow is backed by
the speaker's fixed days and what it holds of tomorrow, in words that are not the town's places.
A question asks, and is let be.

Pure rules over words: no model call.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Protocol

from game.mind.facts.fact import EVENT_NOUNS, Fact
from game.mind.facts.owned import own_text, stem
from game.mind.facts.pastnow import part_of_unheld, past_as_now
from game.mind.facts.unbacked import sentences
from game.mind.persona import Persona


class Holder(Protocol):
    """A resident as these rules read it: its persona and the facts it holds (``Mind``)."""

    @property
    def persona(self) -> Persona: ...

    @property
    def facts(self) -> Iterable[Fact]: ...


_NOUNS = "|".join(sorted((re.escape(n) for n in EVENT_NOUNS if n not in ("reading", "show", "match", "dance")),
                         key=len, reverse=True))
# an event as a thing (after an article or a possessive), with the word before its noun
_EVENT = re.compile(rf"\b(?:a|an|the|some|any|this|that|our|my|your|his|her|their)\s+(?:([a-z]+)\s+)??"
                    rf"(?:([a-z]+)\s+)?(?P<n>{_NOUNS})s?\b", re.I)
_PUT_FORWARD = re.compile(r"\b(?:maybe|perhaps|could|would|should|might|how about|what about|let's|let us|if|"
                          r"wish|someday|one day|sometime)\b", re.I)
# words before an event's noun that do not say which event it is
_PLAIN = frozenset("""big small little great fun nice lovely new next last upcoming first whole real special annual
weekly monthly local town community own same other""".split())


def made_up_event(sent: str, held: Sequence[str]) -> str:
    """Why ``sent`` tells of an event nothing ``held`` (the speaker's texts) has, else "": one it
    asks about or puts forward ("Maybe a small concert at the cafe would help") is let be."""
    if sent.rstrip().endswith("?") or _PUT_FORWARD.search(sent):
        return ""
    # (where a doing is, in brackets, names no event: "inviting people to Grace's surprise party (the
    # garden of the Okafor house)" has no garden party)
    found = list(_EVENT.finditer(sent))
    low = [re.sub(r"\([^)]*\)", "", s.lower()) for t in held for s in (sentences(t) or [t])] if found else []
    for m in found:  # (what it holds is split into sentences only for a sentence that names an event)
        noun = m.group("n").lower()
        mod = (m.group(2) or m.group(1) or "").lower()
        if mod in _PLAIN or len(mod) < 3:
            mod = ""
        if not any(noun in s and (not mod or re.search(rf"\b{re.escape(stem(mod))}", s)) for s in low):
            return f"an event nothing it holds has: {(mod + ' ' + noun).strip()}"
    return ""


# (or "I was planning to join you tomorrow morning", Samuel to Grace on 356ade6's day; or "I'll ...": "I'll check
# with him tomorrow to see if he can help with the supplies", Felix's, in a talk of 9d99520's save asked again)
_TOMORROW = re.compile(r"\bI(?:(?:'m|’m| am| was)?\s+(?:planning|going|hoping|meaning)\s+to|'ll|’ll| will)\s+"
                       r"(?P<what>[^.!?]{3,80}?)\s+tomorrow\b", re.I)
_SKIP = frozenset({"this", "that", "some", "with", "have", "going", "planning", "about", "there", "then",
                   "everyone", "everybody", "tomorrow", "morning", "afternoon", "evening", "night", "around",
                   "maybe", "again", "really"})


def tomorrow_unheld(sent: str, held: Sequence[str], places: Sequence[str]) -> str:
    """Why ``sent`` says the speaker will do tomorrow what nothing of ``held`` (its fixed days' parts,
    what it holds of tomorrow) has, else "": words of the town's places say where, not what."""
    m = _TOMORROW.search(sent)
    if m is None:
        return ""
    place_words = {w[:4] for p in places for w in re.findall(r"[a-z]+", p.lower())}
    said = {w[:4] for w in re.findall(r"[a-z]+", m.group("what").lower()) if len(w) >= 4 and w not in _SKIP}
    said -= place_words
    have = {w[:4] for t in held for w in re.findall(r"[a-z]+", t.lower()) if len(w) >= 4}
    return f"not in its days: {m.group('what')} tomorrow" if said and not said & have else ""


_DAYS = r"tomorrow|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|next week"
_DAY = rf"(?i:{_DAYS})"
_MEET = (r"(?i:talk|meet|chat|speak|see|visit|catch up|sit down"
         r"|have (?:dinner|lunch|breakfast|coffee|tea|a drink|drinks))")
# a talk or a meeting with a named person on another day: "Ines is going to talk with me tomorrow about
# the party" (Rosa on 2bbddfe's day, then Samuel, word for word: nothing either held), "I'm meeting
# Hank on Friday", "Eli and I will catch up tomorrow"
_MEETING = re.compile(
    rf"\b(?P<a>[A-Z][a-z]+)(?: [A-Z][a-z]+)?(?i:'s| is| will)(?i: going to| gonna)?\s+"
    rf"{_MEET}\w*\b[^.!?]*?\b(?:me|us)\b[^.!?]*?\b{_DAY}\b"
    rf"|\b(?P<b>[A-Z][a-z]+)(?: [A-Z][a-z]+)? and I (?i:are|will|'ll)[^.!?]*?\b{_MEET}\w*\b[^.!?]*?\b{_DAY}\b"
    rf"|\bI(?:'m|’m| am|'ll| will)(?i: going to| gonna| planning to| hoping to)?\s+{_MEET}\w*\s+(?i:with\s+|to\s+)?"
    rf"(?P<c>[A-Z][a-z]+)\b[^.!?]*?\b{_DAY}\b")


def meeting_unheld(sent: str, held: Sequence[str], people: Sequence[str]) -> str:
    """Why ``sent`` says the speaker will talk with or meet a named resident another day when no
    sentence of ``held`` (what it holds, heard and the talk so far) names that one with a day or
    a meeting, else "": one asked or put forward is let be."""
    if sent.rstrip().endswith("?") or _PUT_FORWARD.search(sent):
        return ""
    m = _MEETING.search(sent)
    who = (m.group("a") or m.group("b") or m.group("c")) if m else ""
    if not who or who.lower() not in {p.split()[0].lower() for p in people}:
        return ""
    near = re.compile(rf"\b{who}\b[^.!?]*\b(?:{_DAYS}|meet\w*)\b|\b(?:{_DAYS}|meet\w*)\b[^.!?]*\b{who}\b", re.I)
    if any(near.search(t) for t in held):
        return ""
    return f"a meeting with {who} nothing it holds has"


# a meal the speaker says it shares with named people: "I'm having lunch with Priya and Rosa" (Samuel, on
# 75fad48's day; his day has lunch, with no one)
_MEAL = r"(?:lunch|dinner|breakfast|supper|meal|coffee|tea|drinks?|eat\w*)"
_MEAL_WITH = re.compile(rf"\b(?:I(?:'m|’m| am|'ll|’ll| will| was)?|[Ww]e(?:'re|’re| are)?)\s+(?:\w+\s+){{0,3}}?"
                        rf"(?:a )?{_MEAL}\s+with\s+(?P<who>[A-Z][a-z]+(?:(?:,|,? and) [A-Z][a-z]+)*)")
_HOUSEHOLD = r"wife|husband|daughter|son|father|mother|lodger|landlady|landlord|housemate|flatmate|partner"


def meal_unheld(sent: str, held: Sequence[str], people: Sequence[str]) -> str:
    """Why ``sent`` has the speaker share a meal with a named resident whom nothing it holds (its day,
    its points, its facts, what it heard and the talk so far) names beside a meal, else ""."""
    if sent.rstrip().endswith("?") or _PUT_FORWARD.search(sent):
        return ""
    m = _MEAL_WITH.search(sent)
    firsts = {p.split()[0] for p in people}
    for who in re.findall(r"[A-Z][a-z]+", m.group("who")) if m else ():
        near = re.compile(rf"\b{who}\b[^.!?]*\b{_MEAL}\b|\b{_MEAL}\b[^.!?]*\b{who}\b", re.I)
        home = re.compile(rf"\b{who}\b[^.!?]*\b(?:{_HOUSEHOLD})\b", re.I)  # (meals at home are with them)
        if who in firsts and not any(near.search(t) or home.search(t) for t in held):
            return f"a meal with {who} nothing it holds has"
    return ""


def made_up(sent: str, life: str, points: Sequence[str], mind: Holder, places: Sequence[str],
            people: Sequence[str] = ()) -> str:
    """Why ``sent`` makes up an event, a plan for tomorrow, a meeting another day or a meal with others,
    says its past as now or makes a doing part of a gathering (pastnow.py), else "": ``life``,
    what the speaker holds and heard and the talk so far; ``points``, its own to bring up; ``mind``,
    its persona and its facts; ``people``, the town's."""
    held = [own_text(mind.persona), *(f"{f.what} at {f.place} ({f.host})" for f in mind.facts)]
    return (made_up_event(sent, [life, *points, *held]) or tomorrow_unheld(sent, [*points, *held], places)
            or meeting_unheld(sent, [life, *points, *held, *(f"{f.host} {f.when_text()}" for f in mind.facts)],
                              people) or meal_unheld(sent, [life, *points, *held], people)
            or past_as_now(sent, [held[0], life]) or _part_of(sent, mind, [life, *points, *held], [*people, *places])
            or written_about_unheld(sent, [life, *points, *held], [*places, *people]))


# a book (an article, a film) about a place or a person of the town ("I was actually reading a book about the
# history of Bluebell Cafe", Aiko on 356ade6's day): the town's records hold none unless the speaker's own words do
_ABOUT = re.compile(r"\b(?P<w>book|novel|article|documentary|film|biography)s? (?:about|on) "
                    r"(?:the (?:history|story) of )?(?P<what>[^.!?,;]{3,60})", re.I)


def written_about_unheld(sent: str, held: Sequence[str], names: Sequence[str]) -> str:
    """Why ``sent`` tells of a book or a film about one of ``names`` (the town's places and people) that no
    sentence of ``held`` (the speaker's own texts) names beside such a work, else ""."""
    m = _ABOUT.search(sent)
    if m is None:
        return ""
    what = next((n for n in names if re.match(rf"(?:the )?{re.escape(n)}\b", m.group("what"), re.I)), "")
    w = m.group("w").lower()
    own = [s.lower() for t in held for s in sentences(t) or [t]]
    return f"a {w} about {what}" if what and not any(w in s and what.lower() in s for s in own) else ""


def _part_of(sent: str, mind: Holder, texts: Sequence[str], names: Sequence[str]) -> str:
    cut = part_of_unheld(sent, list(mind.facts), texts, names)
    return f"'{cut.strip(' ,')}' of a doing nothing makes part of it" if cut else ""
