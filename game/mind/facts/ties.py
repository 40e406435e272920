"""Ties between residents a line claims besides kin (issue 39): a friend of the speaker ("my good friend
Nora"), friends of another ("Ines Moreau and Grace Okafor are both friends of my father, Hank Brody": Rosa
on 160f87f's day, of her father's rival for mayor and a neighbour he never speaks of), and the one the
speaker takes lessons from ("taking piano lessons from my father": Rosa, whose teacher was Samuel).  Each
is held to the relationships of either side in the residents file; a visitor is not judged.

Pure rules: no model, no state.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from game.mind.facts.relwords import NAME, REL, Claim, backs, full_name, own_only

# a friend the speaker claims ("my good friend Nora", "Grace Okafor, one of my friends", "Grace ... a wonderful
# friend to me": Rosa of the mayor she admires, on 4d3a658's save), backed by a word of friendship or liking in
# either side's relationship ("an old friend she trusts", "a barista he likes a lot", "friendly")
_FRIEND_ADJ = r"(?:(?:good|old|dear|dearest|close|best|great|wonderful|true|lovely|oldest|longtime|long-time|loyal)\s+)"
_MY_FRIEND_NAME = re.compile(rf"\b[Mm]y {_FRIEND_ADJ}{{0,2}}friend,? {NAME}")
_FRIEND_OF_ME = re.compile(rf"\b(?:(?:is|was|has been|'s)\s+)?(?:my {_FRIEND_ADJ}{{0,2}}friend\b(?!,? [A-Z])|one of my "
                           rf"{_FRIEND_ADJ}{{0,2}}friends\b|(?:a|an) {_FRIEND_ADJ}{{0,2}}friend (?:to me|of mine)\b)")
_FRIENDSHIP = re.compile(r"\b(?:friends?|friendly|friendship|companion|trusts|likes|dear|known each other)\b")


def _my_friends(text: str, speaker: str, people: Sequence[str],
                   relations: Mapping[str, Mapping[str, str]]) -> list[Claim]:
    """The friends ``text`` gives its speaker among the town's residents (those with relationships in the
    records; a visitor is not judged) and whether either side's relationship backs the friendship."""
    found: list[str] = []
    for m in _MY_FRIEND_NAME.finditer(text):
        found.append(m.group("name"))
    for m in _FRIEND_OF_ME.finditer(text):  # the last name said before it in its clause
        before = re.split(r"[;:!?]|\bbut\b", text[max(0, m.start() - 80):m.start()])[-1]
        names = re.findall(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)?", before)
        if names:
            found.append(names[-1])
    out = []
    for name in found:
        other = full_name(name, people)
        if other is None or other == speaker or other not in relations or speaker not in relations:
            continue
        out.append(Claim("relation", other, f"friend of {speaker}",
                         bool(_FRIENDSHIP.search(_between(speaker, other, relations)))))
    return out


def tie_claims(text: str, speaker: str, people: Sequence[str],
               relations: Mapping[str, Mapping[str, str]]) -> list[Claim]:
    """The friendships and teachers ``text`` claims among the town's residents, each with whether the
    residents file backs it."""
    return [*_my_friends(text, speaker, people, relations), *_friends_of_another(text, speaker, people, relations),
            *_teachers(text, speaker, people, relations)]


def _between(a: str, b: str, relations: Mapping[str, Mapping[str, str]]) -> str:
    """What either of two residents' relationships says of the other, lower case."""
    return f"{relations.get(a, {}).get(b, '')} {relations.get(b, {}).get(a, '')}".lower()


def _kin_of_speaker(rel: str, speaker: str, relations: Mapping[str, Mapping[str, str]]) -> str | None:
    """The one resident the speaker's "my <rel>" is ("my father": the one whose tie to the speaker says
    father or daughter), else None (none, or more than one)."""
    found = [p for p in relations.get(speaker, {}) if p in relations and backs(
        rel, own_only(relations[speaker][p]), own_only(relations[p].get(speaker, "")))]
    return found[0] if len(found) == 1 else None


def _holder(m: re.Match, speaker: str, people: Sequence[str],
            relations: Mapping[str, Mapping[str, str]]) -> str | None:
    """Whose friend or teacher a match names: by name ("Hank Brody", "my father, Hank Brody") or by the
    speaker's kin alone ("my father")."""
    if m.group("name") or m.group("name2"):
        return full_name(m.group("name") or m.group("name2"), people)
    return _kin_of_speaker(m.group("rel").lower(), speaker, relations) if m.group("rel") else None


_NAMES = r"(?P<subj>[A-Z][a-z]+(?: [A-Z][a-z]+)?(?:(?:,? and |, )[A-Z][a-z]+(?: [A-Z][a-z]+)?)*)"
_OF_WHOM = rf"(?:my (?P<rel>{REL})\b(?:,? {NAME})?|(?P<name2>[A-Z][a-z]+(?: [A-Z][a-z]+)?))"
_FRIENDS_OF = re.compile(rf"\b{_NAMES} (?:are|is|were|was|have been|has been) (?:(?:both|all|also|each) )*"
                         rf"(?:(?:a|an) )?{_FRIEND_ADJ}{{0,2}}friends? of {_OF_WHOM}")


def _friends_of_another(text: str, speaker: str, people: Sequence[str],
                        relations: Mapping[str, Mapping[str, str]]) -> list[Claim]:
    """Residents said to be friends of a third resident, each held to that pair's relationships."""
    out = []
    for m in _FRIENDS_OF.finditer(text):
        holder = _holder(m, speaker, people, relations)
        if holder is None or holder not in relations:
            continue
        for said in re.split(r",? and |, ", m.group("subj")):
            who = full_name(said, people) or full_name(said.split()[-1], people)
            if who is None or who == holder or who not in relations:
                continue
            out.append(Claim("relation", who, f"friend of {holder}",
                             bool(_FRIENDSHIP.search(_between(who, holder, relations)))))
    return out


# the speaker's own lessons and whom from ("I am taking piano lessons from my father", "I had lessons with
# Samuel"), backed by a word of teaching in that pair's relationships ("her old piano teacher")
_ANOTHER = r"(?:he|she|they|we|you|his|her|their|your)\b"  # (another's lessons: "I think she is taking")
_LESSONS = re.compile(rf"\bI(?: (?![A-Z]|{_ANOTHER})[\w',]+){{0,6}}? (?:taking|took|take|had|have|get|got|getting|"
                      rf"having)(?: [\w-]+){{0,2}}? lessons (?:from|with) {_OF_WHOM}")
_TEACHING = re.compile(r"\b(?:teacher|taught|teaches|pupil|student|lessons|tutor)\b")


def _teachers(text: str, speaker: str, people: Sequence[str],
              relations: Mapping[str, Mapping[str, str]]) -> list[Claim]:
    """The one the speaker says it takes (or took) lessons from, held to that pair's relationships."""
    out = []
    for m in _LESSONS.finditer(text):
        teacher = _holder(m, speaker, people, relations)
        if teacher is None or teacher == speaker or teacher not in relations or speaker not in relations:
            continue
        out.append(Claim("relation", teacher, f"teacher of {speaker}",
                         bool(_TEACHING.search(_between(teacher, speaker, relations)))))
    return out
