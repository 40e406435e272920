"""Misattributions in a line, read by rule against who says it (issue 39): a speaker who answers
itself ("I'm so sorry to hear that, Grace", said by Grace), who speaks of its own office as
another's ("I'll be meeting with the mayor there", said by the mayor), who heard of its own
gathering ("I heard about the party", said by its host), or who works at another's workplace
("I have to serve breakfast at The Copper Kettle", said by one who does not work there); and a line
or a reflection that gives someone a workplace the town does not ("Samuel Okafor is managing Bluebell Cafe").

Each rule reads one sentence and returns why it misattributes, or "" when it does not.  A
sentence that misattributes is not said (``drop_misattributed``); ``town audit`` counts them.

Pure rules: no model, no state.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from game.mind.facts.fact import Fact, TownNames
from game.mind.facts.hidden import hidden_role_problem
from game.mind.facts.leaning import kept_apart, names_by_pronoun
from game.mind.facts.parts import part_not_theirs, tells_kept_of_it
from game.mind.facts.placekinds import KIND_OF, place_kind_unheld, wrong_kind_of_place
from game.mind.facts.slips import VOCATIVE
from game.mind.facts.unbacked import SELF_INTRO, amount_unbacked, own_name_as_other, sentences


def speaks_to_self(sent: str, speaker: str, listeners: Sequence[str]) -> str:
    """Why ``sent`` is said to its own speaker ("That's lovely, Grace." by Grace), else ""; not
    when a listener shares the speaker's first name."""
    first = speaker.split()[0] if speaker else ""
    if not first or any(p.split()[0] == first for p in listeners if p != speaker):
        return ""
    if re.search(VOCATIVE.format(n=re.escape(first)), sent, re.I):
        return f"said to its own speaker, {first}"
    return ""


def names_self(sent: str, speaker: str) -> str:
    """Why ``sent`` speaks of its own speaker by full name as of someone else ("I'm planning to meet
    with Priya Raman", by Priya), else ""; "I'm Priya Raman" and "my name is" stand."""
    if not speaker or " " not in speaker:
        return ""
    for m in re.finditer(re.escape(speaker), sent):
        if not SELF_INTRO.search(sent[:m.start()]):
            return f"{speaker.split()[0]} speaks of {speaker} as another"
    own = own_name_as_other(sent, speaker)  # by first name ("what Grace will do", said by Grace)
    return f"{speaker.split()[0]} speaks of {speaker.split()[0]} as another" if own else ""


_TO_ROLE = (r"\b(?:with|to|meet|meeting|see|seeing|ask|asking|tell|telling|visit|visiting|help|helping|for)"
            r"\s+the\s+{r}\b(?!')")


def own_role_as_other(sent: str, speaker: str, roles: Mapping[str, Sequence[str]]) -> str:
    """Why ``sent`` speaks of an office its own speaker holds as someone else's ("meeting with the
    mayor", said by the mayor), else ""."""
    for role in roles.get(speaker, ()):
        if role.startswith("candidate for"):
            continue
        if re.search(_TO_ROLE.format(r=re.escape(role)), sent, re.I):
            return f"{speaker} is the {role}"
    return ""


_HEARD = re.compile(r"\b(?:heard|hear|hearing|told me|found out|just learned|invited me|inviting me|sounds like|"
                    r"help you (?:with|prepare|plan)|helping you (?:with|prepare|plan)|your (?:party|gathering|"
                    r"celebration|event|debate|quiz|fair|get-together))\b", re.I)


def host_as_guest(sent: str, speaker: str, facts: Iterable[Fact]) -> str:
    """Why ``sent`` has the host of a gathering speak of it as one who heard of it or helps another
    with it ("I heard about the party", "excited to help you with the debate", said by its host),
    else ""."""
    for f in facts:
        if f.kind == "gathering" and f.host == speaker and _HEARD.search(sent) and f.speaks_of(sent):
            return f"{speaker.split()[0]} hosts {f.bare_what}"
    return ""


def honoree_as_host(sent: str, facts: Iterable[Fact]) -> str:
    """Why ``sent`` has the one a gathering is for plan it, or know of the surprise ("any surprise
    party that Grace has planned", "plan the party with her", "make sure she knows it's coming"),
    else "": the honoree of a surprise is the one who must not know."""
    for f in facts:
        if f.kind != "gathering" or not f.honoree or f.honoree == f.host or not f.speaks_of(sent):
            continue
        h = re.escape(f.honoree.split()[0])
        if re.search(rf"\b{h}(?:'s)?\s+(?:has\s+|had\s+|is\s+|will\s+be\s+)?(?:plann|organi[sz]|host)", sent, re.I) or \
                re.search(rf"\b(?:plan|planning|organi[sz]e|organi[sz]ing)\b[^.!?]{{0,40}}\bwith\s+(?:{h}|her|him)\b",
                          sent, re.I):
            return f"{f.honoree.split()[0]} does not plan {f.bare_what}"
        if f.secret_from and re.search(rf"\b(?:{h}|she|he)\s+knows\b", sent, re.I) and \
                not re.search(r"\b(?:not|n't|never)\b", sent, re.I):
            return f"{f.honoree.split()[0]} must not know of {f.bare_what}"
    return ""


# working at a place: "serve breakfast at", "running", "I work at", "opening" (the place after it)
_WORK_VERB = (r"(?:serv(?:e|es|ing)|run(?:s|ning)?(?! (?:late|out|errands|to|into|over|around|after|for|away|home|"
              r"back|by)\b)|manag(?:e|es|ing)|work(?:s|ing)? (?:at|in)|own(?:s|ing)?|"
              r"open(?:s|ing)? up|staff(?:s|ing)?|tend(?:s|ing)? the bar at|bak(?:e|es|ing) (?:\w+ )?(?:at|for))")
_I_WORK = re.compile(rf"\b(?:I|I'm|I am|I'll|I will|I have to|I need to|we|we're)\b[^.!?]{{0,60}}?\b"
                     rf"(?P<v>{_WORK_VERB})\b[^.!?]{{0,40}}?\b(?:at |in )?(?P<rest>.*)", re.I)
_YOU_WORK = re.compile(rf"\b(?:you|you're|you’re|you are|you'll|you will)\b[^.!?]{{0,40}}?\b"
                       rf"(?:{_WORK_VERB}|open(?:s|ing)?)\b[^.!?]{{0,40}}?\b(?:at |in )?(?P<rest>.*)", re.I)
_THEY_WORK = re.compile(rf"(?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+)?) (?:is|was|has been|'s) {_WORK_VERB}\b"
                        r"(?P<rest>[^.!?]*)")


_MY_WORK = re.compile(r"\b(?:my (?:work|job|shift)s? (?:at|in)|I(?:'m| am| was|'ve been)?\s+(?:just\s+)?"
                      r"(?:checking|doing|stocking|restocking|counting)\s+(?:the\s+)?(?:inventory|stock|shelves|till)"
                      r"\s+(?:of|at|in)) "
                      r"(?P<rest>[^.!?]+)", re.I)  # ("checking the inventory of the grocery", the librarian's)


def _by_kind(text: str, places: Iterable[str]) -> str | None:
    """The one place named by its kind ("the cafe": Bluebell Cafe), when only one has that kind."""
    m = re.match(r"\s*the\s+(\w+(?: \w+)?)", text, re.I)
    if not m:
        return None
    kind = next((k for w, k in KIND_OF.items() if re.match(rf"{re.escape(w)}\b", m.group(1), re.I)), None)
    found = [p for p in places if kind and any(re.search(rf"\b{re.escape(w)}\b", p, re.I)
                                               for w, k in KIND_OF.items() if k == kind)]
    return found[0] if len(found) == 1 else None


_CLOSED = re.compile(r"(?P<what>\bthe\s+\w+(?:\s+\w+)?|[A-Z][\w']*(?:\s+(?:and\s+)?[A-Z][\w']*)*)\s+(?:is|'s)\s+"
                     r"(?:already\s+|now\s+|still\s+)?(?:closed|shut)\b(?!\s+(?:on|tomorrow|at|from|until|after|"
                     r"before|on\s+\w+days?))", re.I)


def closed_when_open(sent: str, town: TownNames) -> str:
    """Why ``sent`` says a place is closed that is open now (one of its objects staffed: "The cafe
    is closed for the day", by its barista at 07:16), else ""."""
    if town.open_now is None:
        return ""
    for m in _CLOSED.finditer(sent):
        place = _place_in(m.group("what"), town.places) or _by_kind(m.group("what"), town.places)
        if place and town.open_now(place):
            return f"{place} is open now"
    return ""


_SOMEONE = re.compile(r"\b(?:you|you're|you’re|he|he's|she|she's|they|they're)\b", re.I)


def _place_in(text: str, places: Sequence[str]) -> str | None:
    low = text.lower()
    for p in sorted(places, key=len, reverse=True):
        if p and p.lower() in low:
            return p
    return None


def works_elsewhere(sent: str, speaker: str, town: TownNames, listeners: Sequence[str] = ()) -> str:
    """Why ``sent`` has its speaker, or someone it names, work at a place of the town that is
    another's workplace and not theirs ("I'm serving breakfast at The Copper Kettle", said by one
    who works elsewhere; "Samuel is managing Bluebell Cafe"; "you're opening a bakery stall at
    Greenway Market", to one who works elsewhere), else "".  A place that is no one's
    workplace is not judged (a trip, a favour)."""
    works = town.workplaces
    if not works:
        return ""
    theirs = set(works.values())
    m = _I_WORK.search(sent)
    if m and _SOMEONE.search(sent[m.start():m.start("v")]):
        m = None  # "I heard you're serving at the cafe": another works
    if m and speaker:  # (the place after the doing, else before it: "I was just at The Copper Kettle serving")
        pre = sent[m.start():m.start("v")]  # (one clause: "at the pub, and now I'm serving" is two)
        p = _place_in(m.group("rest"), [p for p in town.places if p in theirs]) or ("" if re.search(
            r",|\b(?:and|but|then|now|so)\b", pre) else _place_in(pre, [p for p in town.places if p in theirs]))
        if p and works.get(speaker) != p:
            return f"{speaker.split()[0]} does not work at {p}"
    m = _MY_WORK.search(sent)
    if m and speaker:  # "my work at the cafe", said by the mayor
        p = _place_in(m.group("rest"), [p for p in town.places if p in theirs]) or _by_kind(m.group("rest"), theirs)
        if p and works.get(speaker) != p:
            return f"{speaker.split()[0]} does not work at {p}"
    m = _YOU_WORK.search(sent) if len(listeners) == 1 else None
    if m:  # "I heard you're opening a bakery stall at Greenway Market", to one who works elsewhere
        p = _place_in(m.group("rest"), [p for p in town.places if p in theirs])
        if p and works.get(listeners[0]) != p:
            return f"{listeners[0].split()[0]} does not work at {p}"
    for m in _THEY_WORK.finditer(sent):
        who = next((n for n in town.people if m.group("name") in (n, n.split()[0])), None)
        p = _place_in(m.group("rest")[:60], [p for p in town.places if p in theirs])
        if who and p and works.get(who) != p:
            return f"{who.split()[0]} does not work at {p}"
    return ""


_OWN_HOSTING = re.compile(r"\b(?:I|I'm|I’m|we|we're)\b[^.!?]{0,40}?\b(?:to\s+)?(?:host|hosting|throw|throwing|"
                          r"organi[sz]e|organi[sz]ing|hold|holding|put on|putting on)\b", re.I)

_OTHER_SUBJECT = re.compile(r"\b(?:you|you're|you’re|he|he's|she|she's|they|they're)\b|\b[A-Z][a-z]+\b(?<!\bI)")


# "I have a surprise party for Grace's 60th birthday at Bluebell Cafe tomorrow", said by Ines of Samuel's (a talk
# asked again on 9d99520's save)
_HAVE_EVENT = re.compile(r"\b(?:I|we)(?:'m|’m| am|'re|’re| are)? (?:have|having) (?:a|an|the|my|our|this) "
                         r"(?:(?!(?:about|for|to|of|on|at|with|in|from)\b)[\w'-]+ ){0,3}?"
                         r"(?:party|gathering|celebration|get-together|quiz|picnic|concert)\b", re.I)


def own_hosting(text: str) -> bool:
    """Whether ``text`` has its speaker host ("I'm really excited to host the get-together", "I have
    a surprise party tomorrow"), not another ("I hear you're hosting the debate", "I think Grace is
    hosting it")."""
    if _HAVE_EVENT.search(text):
        return True
    m = _OWN_HOSTING.search(text)
    if m is None:
        return False
    gap = text[m.start():m.end()].split(None, 1)[1] if " " in m.group(0) else ""
    return not _OTHER_SUBJECT.search(gap)



_MEETING = re.compile(r"\b(?:(?:great|nice|good|lovely|a pleasure|excited|glad|happy) (?:meeting|to (?:finally )?meet) "
                      r"you|pleased to meet you|"
                      r"(?:it's|it is) been great meeting you)\b", re.I)


def meets_the_known(sent: str, speaker: str, listeners: Sequence[str], town: TownNames) -> str:
    """Why ``sent`` greets as a new acquaintance someone its speaker knows ("It's been great meeting
    you", said by Samuel to his wife; "It's great to meet you", said by Nora to Kenji, neighbours in a
    small town: ``TownNames.acquainted``), else ""."""
    if _MEETING.search(sent):
        for p in listeners:
            if town.acquainted(speaker, p):
                return f"{speaker.split()[0]} has long known {p.split()[0]}"
    return ""


_YOUR = re.compile(r"\byour (?:(?:surprise|own|big|upcoming|little|birthday|public)\s+)*(?P<noun>[a-z-]+)\b"
                   # "I'm glad you're going to have a surprise party", Samuel, its host, to Ines (2026-12-02)
                   r"|\byou(?:'re|’re| are) (?:going to |gonna )?(?:have|having|host|hosting|throw|throwing) (?:a|an) "
                   r"(?:[\w'-]+ ){0,3}?(?P<had>party|gathering|celebration|get-together|quiz|picnic|concert)\b", re.I)


def yours_not_theirs(sent: str, speaker: str, listeners: Sequence[str], town: TownNames, facts: Iterable[Fact]) -> str:
    """Why ``sent`` gives the one spoken to a gathering or a campaign that is not theirs ("What about
    your surprise party?" or "you're going to have a surprise party" to one who does not host it;
    "discuss your campaign" said by the candidate to one who is none), else "".  Said to several,
    "your" is not judged."""
    if len(listeners) != 1:
        return ""
    to = listeners[0]
    for m in _YOUR.finditer(sent):
        noun = (m.group("noun") or m.group("had")).lower()
        if noun == "campaign" and not any(r.startswith("candidate for") for r in town.roles.get(to, ())):
            return f"{to.split()[0]} runs no campaign"
        for f in facts:
            if f.kind == "gathering" and noun.rstrip("s") in f.keywords() and f.host != to:
                return f"{f.bare_what} is not {to.split()[0]}'s"
    return ""


_ASSISTANT = re.compile(r"\b(?:I'm sorry,? but I (?:can't|cannot|am unable to) (?:help|assist|provide|comply|answer)"
                        r"|I (?:can't|cannot) (?:help|assist) (?:you )?with (?:that|this)|as an AI|(?:some kind of|a) "
                        r"miscommunication|how (?:can|may) I (?:help|assist) you"
                        # (Samuel, asked what he does when someone wants to talk while he is busy, 356ade6's save)
                        r"|I(?:'m| am) (?:not able|unable) to (?:help|assist|comply) with (?:that|this|your))\b", re.I)


# the prompt's clock read out ("Marcus, it's Monday 11:59.", Ines's on 2c4c6ac's day)
_CLOCK = re.compile(r"\bit(?:'s|’s| is) (?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday),? \d{1,2}:\d\d\b")


def assistant_voice(sent: str) -> str:
    """Why ``sent`` is a chat assistant's words, not a resident's ("I'm sorry, but I can't help you
    with that. It seems like there might be some kind of miscommunication"), or reads out the prompt's
    clock, else ""."""
    return "an assistant's words" if _ASSISTANT.search(sent) else "the prompt's clock read out" if _CLOCK.search(
        sent) else ""


def misattributes(sent: str, speaker: str, listeners: Sequence[str], town: TownNames, facts: Iterable[Fact]) -> str:
    """The first reason ``sent`` misattributes, by the rules above, else ""."""
    facts, one = list(facts), listeners[0] if len(listeners) == 1 else ""  # (one: the one spoken to, alone)
    return (speaks_to_self(sent, speaker, listeners) or names_self(sent, speaker) or assistant_voice(sent)
            or meets_the_known(sent, speaker, listeners, town)
            or yours_not_theirs(sent, speaker, listeners, town, facts)
            or own_role_as_other(sent, speaker, town.roles) or host_as_guest(sent, speaker, facts)
            or honoree_as_host(sent, facts) or wrong_kind_of_place(sent, town.places) or amount_unbacked(sent)
            or place_kind_unheld(sent, town, one) or works_elsewhere(sent, speaker, town, listeners)
            or closed_when_open(sent, town) or hidden_role_problem(sent, speaker, listeners, town)
            or part_not_theirs(sent, speaker, listeners, town, facts))


def drop_misattributed(text: str, speaker: str, listeners: Sequence[str], town: TownNames, facts: Iterable[Fact],
                       fixes: list[str]) -> str:
    """``text`` without its sentences that misattribute (reasons in ``fixes``), and one just after that
    speaks of someone by a pronoun (Felix's "if he'll be able to bake", of himself, on 3668980)."""
    facts, parts = list(facts), sentences(text) or [text]

    def bad(sent: str) -> bool:
        why = misattributes(sent, speaker, listeners, town, facts) or tells_kept_of_it(sent, text, facts)
        fixes.extend([f"misattributed: {why}"] if why else [])
        return bool(why)
    kept = kept_apart(parts, bad, names_by_pronoun)
    return " ".join(kept) if len(kept) < len(parts) else text


_NARRATES = r"^(?:{n})\s+(?:[a-z]+s|is|has|was)\b"
_QUOTED = re.compile(r"\b[a-z]+s\b[^'\"‘“]{0,20}[,:]\s*['\"‘“](?P<q>.{2,}?)['\"’”]?\s*$")  # (nods, ...)
_I = re.compile(r"\b(?:I|I'm|I've|I'll|I'd|me|my|we|we're|us|our)\b")


def unnarrate(text: str, speaker: str, fixes: list[str]) -> str:
    """A line written as a story's narration ("Rosa looks over her menu and finds a special cake.
    She thinks it looks delicious.") is not said: what the narration quotes the speaker saying is
    ("Nora nods and says, 'Sure, Rosa, let's order it.'" -> "Sure, Rosa, let's order it."); a
    "She ..." or "He ..." sentence after a narrated one goes with it."""
    first = speaker.split()[0] if speaker else ""
    if not first:
        return text
    starts = re.compile(_NARRATES.format(n=re.escape(first)))
    parts = sentences(text) or [text]
    kept: list[str] = []
    told = False
    after = False
    for s in parts:
        narrated = bool(starts.match(s) and not _I.search(s.split(",")[0])) or (
            after and re.match(r"(?:She|He|They)\s+[a-z]+s\b", s) is not None)
        if not narrated:
            kept.append(s)
            after = False
            continue
        told, after = True, True
        m = _QUOTED.search(s)
        if m:
            kept.append(m.group("q").strip())
    if not told:
        return text
    fixes.append("narration not said")
    return " ".join(kept)


def not_anothers_self(text: str, others: Sequence[str]) -> str:
    """A line less its sentences that say of the speaker what another in the talk said of itself
    ("I'm studying history at Oakhill College", said by the librarian after the student said it)."""
    theirs = [set(_WORDS.findall(s.lower())) for o in others for s in sentences(o) if _SELF.match(s)]
    kept = [s for s in sentences(text) or [text] if not (
        _SELF.match(s) and len(mine := set(_WORDS.findall(s.lower())) - _SMALL) >= 3
        and any(mine <= t for t in theirs))]
    return " ".join(kept)


_SELF = re.compile(r"^(?:\W*)(?:I'm|I am|I've been|I work|I study)\b", re.I)
_WORDS = re.compile(r"[a-z']+")
_SMALL = {"i'm", "i", "am", "also", "too", "the", "a", "at", "in", "of", "and", "my"}


def strip_speaker(text: str, names: Sequence[str]) -> str:
    """A line without a leading "Name:" (small models often write the speaker's name first)."""
    t = text.strip()
    for n in names:
        if n and t.lower().startswith(n.lower() + ":"):
            t = t[len(n) + 1:].strip()
    return t.strip('"').strip()


# (not a debate: it is its candidates' too)
_WHOSE_EVENT = re.compile(r"\b(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?)(?:'s|’s)\s+(?P<what>(?:(?:surprise|birthday|big|"
                          r"little|\d+(?:st|nd|rd|th))\s+)*(?:party|celebration|get-together|gathering|quiz|fair))\b")


def fix_whose(text: str, fact: Fact, people: Sequence[str], fixes: list[str]) -> str:
    """A gathering said to be the gathering of one who neither hosts it nor is it for, made the one it is for
    (else its host's): Rosa, asked of her morning in the stove run of 3d7f279, "cinnamon buns for Felix
    Adeyemi's surprise party tomorrow" (Samuel's party for Grace).  Only by a word that tells this gathering from
    another ("surprise"): "Tom's party" may be another party."""
    mine = {fact.host, fact.honoree} - {""}

    def sub(m: re.Match[str]) -> str:
        who, what = m.group("who"), m.group("what")
        named = [p for p in people if p == who or p.split()[0] == who]
        if not named or any(p in mine for p in named) or not fact.distinct() & set(what.lower().split()):
            return m.group(0)
        right = fact.honoree or fact.host
        fixes.append(f"whose {who} -> {right}")
        return f"{right if ' ' in who else right.split()[0]}'s {what}"
    return _WHOSE_EVENT.sub(sub, text) if fact.kind == "gathering" and mine else text
