"""What a resident is busy with is its own to say (issue 39): a whole talk is written in one call
with each speaker's points side by side (game/mind/talk/points.py), and a small model mixed them.
On 19282ee's day Ines told Rosa "she has a growing crush on Felix Adeyemi, the new baker" (Rosa's
point, which nothing of Ines's holds), and Rosa told Ines "I know you have a crush on Felix" (her
own point, given to the one she spoke to).  A sentence that says another's point without the
speaker's own life backing it, or gives the speaker's point to the listener as theirs, is not said.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from game.mind.facts.hours import stems
from game.mind.facts.unbacked import by_first
from game.mind.facts.when import WEEKDAYS

# the stems of words any line may share with any point, beyond those ``stems`` leaves out ("I've been
# working hard to make sure", Felix's, shares "been" and "make" with Kenji's "Eli has been asking
# questions that make him nervous")
_COMMON = frozenset("been make they them your just more very real like know thin want sure good grea time here well "
                    "coul shou need help look than over only even much many back come year days week last next hope "
                    "feel glad nice happ exci love tell said says talk meet keep take give made doin gett".split())


@lru_cache(maxsize=4096)
def _words(text: str, names: frozenset[str]) -> frozenset[str]:
    """The stems a text is about, less names and common words (the same points are read for every line:
    cached)."""
    return frozenset(stems(text, names)) - _COMMON


@lru_cache(maxsize=16)
def _names(people: tuple[str, ...], places: tuple[str, ...]) -> frozenset[str]:
    """The words of the town's names and places, which are no one's point."""
    return frozenset(w.lower() for p in [*people, *places] for w in re.findall(r"[A-Za-z]+", p))

SHARED = 3  # words a sentence shares with another's point, none the speaker's, to be that point (one less said
# to the one whose point it is: Kenji's "I see you're selling your bread to Bluebell Cafe", to Felix)
GIVEN = 2  # words (and third people) a "you have/are" sentence shares with the speaker's own point, no word the
# listener's: Rosa's "I know you have a crush on Felix" shares "crush" and Felix
TAKEN = 2  # words an "I am/was/will" sentence shares with the listener's point, none the speaker's: Aiko's "I was
# thinking about selling some bread" to Felix, the baker who means to sell his bread (19282ee)
_I_DO = re.compile(r"\b(?:I (?:want|need) to\b|I(?:'m|’m| am| was| will|'ll|’ll| have been|'ve been)|[Mm]y|"
                   r"[Ww]e(?:'re|’re| are| will|'ll|’ll)|[Oo]ur)\b")  # ("We're opening Rise & Shine", Kenji's to Felix;
# "I want to make sure she sees me as a friend rather than a rival", Kenji's to Felix on 2c4c6ac's day)
# a question that says what it asks to have confirmed ("We're opening Rise & Shine on Saturday, right?")
_TAG = re.compile(r",\s*(?:right|isn't it|aren't we|don't we|won't we|correct|yes)\s*\?\s*$", re.I)
# (or a doing of the past: "I know you started serving breakfast", Marcus's own, to Nora on 8f03815's day)
# (or a task the speaker offers help with: "I'm here to help you find out who writes the Owl column", Eli's own
# search, to Aiko, on 75fad48's day)
_YOU_ARE = re.compile(r"\byou(?:'re|’re| are| have|'ve|’ve| has been| have been|(?: just| also)? [a-z]{3,}ed)\b"
                      r"|\bhelp(?:ing)? you (?:to )?(?!with\b)[a-z]{3,}", re.I)


# a search for who or what ("Eli Moreau is trying to find out who writes the anonymous 'Millbrook Owl' column"):
# said as the speaker's own to the one searching, by one whose text says no search, it is the listener's, however
# much of the rest the speaker holds (Aiko, who knows her husband writes it, to Eli on 4d3a658's day: "I need to
# find out who writes the anonymous 'Millbrook Owl' column")
_QUEST = re.compile(r"\b(?:find(?:ing)? out|figur(?:e|ing) out|discover(?:ing)?|learn(?:ing)?|uncover(?:ing)?) "
                    r"(?:who|what|where|why|how)\b", re.I)


def _quest_taken(sent: str, point: str, life: str) -> bool:
    """Whether ``sent`` takes the search of ``point`` as its own, the speaker's ``life`` saying no search."""
    return bool(_QUEST.search(sent) and _QUEST.search(point)) and _QUEST.search(life) is None


def _asks(sent: str) -> bool:
    """Whether ``sent`` only asks (a question, not one that says its answer with a tag)."""
    return sent.rstrip().endswith("?") and not _TAG.search(sent)


def said_as_own(sent: str) -> bool:
    """Whether ``sent`` says something as the speaker's own doing ("I'm also planning to sell my
    bread"), not of the one it speaks to ("I'm glad you're opening the stall")."""
    return _I_DO.search(sent) is not None and re.search(r"\byour?\b", sent, re.I) is None


def point_not_theirs(sent: str, speaker: str, listeners: Sequence[str], points: Mapping[str, Sequence[str]],
                     lives: Mapping[str, str], people: Sequence[str], *, public: str = "",
                     homes: Mapping[str, str] | None = None, places: Sequence[str] = ()) -> str:
    """Why ``sent`` (said by ``speaker``) says another's point or gives its own to the listener,
    else "".  ``points``: each resident's points (its persona's "currently", sentence by
    sentence); ``lives``: each resident's own text (persona and relationships), what backs it;
    ``public``: what everyone knows (the declared roles: "Hank Brody is running for mayor");
    ``homes``: who lives where (one's housemates' doings are known at home); ``places``: the town's
    places, whose names are no one's point ("lunch at Bluebell Cafe", said by Ines to her son)."""
    names = _names(tuple(people), tuple(places))  # no point's own words
    said = _words(sent, names)
    own = _words(lives.get(speaker, ""), names)
    mine = own | _words(public, names)
    home = (homes or {}).get(speaker)
    need = SHARED - 1 if _YOU_ARE.search(sent) or re.search(r"\byour\b", sent, re.I) else SHARED  # said of the listener
    for other in listeners if not _asks(sent) else ():  # a question claims nothing
        if home and (homes or {}).get(other) == home:
            continue
        for point in points.get(other, ()):
            shared = said & _words(point, names)
            # (what everyone knows backs a role's words, not the rest: Felix's "both mayoral candidates are
            # mocking him", Eli's point of the Owl column, on 9d99520's day)
            if len(shared) >= need and (len(shared & mine) < 2 or len(shared - mine) >= 2 and len(shared & own) < 2):
                return f"{other.split()[0]}'s own to bring up"
    if _I_DO.search(sent) and not _asks(sent):  # the listener's point taken as the speaker's
        for other in listeners:
            for point in points.get(other, ()):
                shared = said & _words(point, names)
                if len(shared) >= TAKEN and (not shared & mine or _quest_taken(sent, point, lives.get(speaker, ""))) \
                        and not (home and (homes or {}).get(other) == home):
                    return f"{other.split()[0]}'s own, not {speaker.split()[0]}'s"
    if len(listeners) == 1 and _YOU_ARE.search(sent) and not _asks(sent):
        # what the listener knows of the speaker is not its own ("Felix Adeyemi: the new baker next door",
        # Kenji's, did not make "if you're going to start your bakery", Felix's to Kenji, Kenji's)
        life = re.sub(rf"(?:^|(?<=[.!?] )){re.escape(speaker)}: [^.!?]*[.!?]", "", lives.get(listeners[0], ""))
        theirs = _words(life, names)
        caps = dict.fromkeys(re.findall(r"\b[A-Z][a-z]+\b", sent))  # (one regex for the line, not one a resident)
        index = by_first(tuple(people))
        others = [p.split()[0] for c in caps for p in index.get(c, ()) if p != speaker and p not in listeners]
        for point in points.get(speaker, ()):
            shared = said & _words(point, names)
            named = [f for f in others if re.search(rf"\b{f}\b", sent) and re.search(rf"\b{f}\b", point)]
            if len(shared) + len(named) >= GIVEN and shared and (not shared & theirs or len(shared - theirs) >= GIVEN):
                return f"{speaker.split()[0]}'s own, not {listeners[0].split()[0]}'s"
    return ""


def point_given_to_another(sent: str, speaker: str, listeners: Sequence[str], points: Mapping[str, Sequence[str]],
                           lives: Mapping[str, str], people: Sequence[str], *, public: str = "",
                           places: Sequence[str] = (), gatherings: Sequence[str] = ()) -> str:
    """Why ``sent`` gives one resident's point to a third it names as theirs, else "": Ines's "I'm
    also talking with Marcus Bell about his new bakery stall" (Felix's stall, and her own worry) on
    136a191's day.  Nothing of the third's own life, nor what everyone knows, may hold those words;
    a declared gathering's words (``gatherings``) are no one's point here ("Grace's surprise party")."""
    names = _names(tuple(people), tuple(places))
    said = _words(sent, names)
    capitals = dict.fromkeys(re.findall(r"\b[A-Z][a-z]+\b", sent))  # (one regex for the line, not one a resident)
    index = by_first(tuple(people))
    for third in (p for c in capitals for p in index.get(c, ())):
        first = third.split()[0]
        if third in (speaker, *listeners):
            continue
        if not re.search(rf"\b(?:his|her|their)\b|\b{re.escape(first)}(?: {re.escape(third.split()[-1])})?['’]s\b",
                         sent):
            continue
        theirs = _words(f"{lives.get(third, '')} {public} {' '.join(gatherings)}", names)
        for owner, own in points.items():
            if owner == third or owner.split()[0] in capitals or (
                    owner == speaker and _I_DO.search(sent)):  # (its own point, done for a third: "I'm
                continue  # writing his debate notes", Priya's of Hank, on 6186d53's day)
            shared = {w for p in own for w in said & _words(p, names)} - theirs
            if len(shared) >= TAKEN:
                return f"{owner.split()[0]}'s, not {first}'s"
    return ""


_DONE = re.compile(r"\b(?P<v>[a-z]{3,})ed\b[^.!?]*?\b(?:on|this) (?P<d>monday|tuesday|wednesday|thursday|friday|"
                   r"saturday|sunday)\b", re.I)


def done_before_its_day(sent: str, points: Sequence[str]) -> str:
    """Why ``sent`` tells as done what a resident's point has still to come on that day ("I opened
    Rise & Shine at Greenway Market on Saturday. It's doing well so far.", Felix's on the Monday
    before; his point: "is opening a bakery stall ... on Saturday"), else ""."""
    for m in _DONE.finditer(sent):
        verb, day = m.group("v").lower(), m.group("d")
        ahead = re.compile(rf"\b(?:is|are|will|'s|’s)\s+(?:be\s+)?{re.escape(verb)}\w*\b[^.!?]*?\b(?:on|this) {day}\b",
                           re.I)
        said = _words(sent, frozenset()) - {verb[:4], day[:4].lower()}
        if any(ahead.search(p) and said & _words(p, frozenset()) for p in points):  # and of the same thing
            return f"{day.capitalize()} is still to come"
    return ""


_DAY_SAID = re.compile(r"\b(today|tonight|tomorrow|" + "|".join(WEEKDAYS) + r")\b", re.I)
_ON_DAY = re.compile(r"\bon (" + "|".join(WEEKDAYS) + r")\b", re.I)
_DAY_STEMS = frozenset(d[:4] for d in (*WEEKDAYS, "today", "tonight", "tomorrow"))


def own_point_day(sent: str, own: Sequence[str], weekday: int, people: Sequence[str] = (), work: str = "") -> str:
    """Why ``sent`` puts a thing of one of the speaker's own points (``own``) on another day than the
    point's weekday, else "": Felix, whose stall opens on Saturday, on the Monday: "I'm preparing bread
    for the market tomorrow" (0e6b5f2's day; but he works at Greenway Market: the words of the speaker's
    workplace, ``work``, are its daily work's).  ``weekday``: today's (0 is Monday)."""
    said = {0 if w in ("today", "tonight") else 1 if w == "tomorrow" else (WEEKDAYS.index(w) - weekday) % 7
            for w in (m.group(1).lower() for m in _DAY_SAID.finditer(sent))}
    if not said:
        return ""
    names = _names(tuple(people), ())
    for point in own:
        m = _ON_DAY.search(point)
        if m is None:
            continue
        day = (WEEKDAYS.index(m.group(1).lower()) - weekday) % 7
        shared = _words(sent, names) & _words(point, names) - _DAY_STEMS
        shared -= _words(work, frozenset())
        if shared and day not in said:
            return f"{', '.join(sorted(shared))}: {m.group(1)}, not as said"
    return ""
