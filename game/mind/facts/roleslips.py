"""A talk line held to each speaker's part in the town's declared gatherings, when the gathering is the
talk's topic (named in the sentence or in the lines just before it), as 0e6b5f2's day had them:

- its host unsure whether to go ("Nora, I'm not sure if I want to go or not", Grace, of her own
  debate), or one who helps prepare it;
- its host asked to come ("I was going to invite Grace to come with me", Samuel, of Grace's debate);
- one with no part in it taking its host's part ("I'm going to be there to welcome everyone", Nora,
  of a party she had just heard of).

Also a gap said in the speaker's life that nothing it holds has ("It's been a while since I've done
that", Rosa, of mixing drinks: her daily work).

Pure rules over the town's declared events (``TownNames.parts``, ``tasks``): no model call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from game.mind.facts.fact import TownNames

_UNSURE = re.compile(r"\b(?:not sure|unsure|don't know|do not know|haven't decided|have not decided|undecided|"
                     r"might not|may not|probably won't|probably not going)\b(?:\s+(?:if|whether|I|want|wanna|to|"
                     r"will|should|can|really|even|going|I'll|I'm))*\s+(?:go|come|attend|be there|make it)\b"
                     r"(?P<to>\s+to\s+(?:the|a|my|your)\s+[\w ]{1,30})?", re.I)
_ASK_TO_COME = re.compile(r"\b(?:invit(?:e|ed|ing)|ask(?:ed|ing)?|bring(?:ing)?|tak(?:e|ing))\s+(?P<who>[A-Z][a-z]+)\s+"
                          r"(?:to\s+(?:come|join|go|attend)|along|with\s+(?:me|us))\b")
_ASK_YOU = re.compile(r"\b(?:would|do|will|did) you (?:like|want|wanna|plan|be able) to (?:come|join|go|attend)\b"
                      r"|\byou should (?:come|join|go)\b|\bjoin (?:me|us) (?:at|for)\b", re.I)
_WELCOME = re.compile(r"\bI(?:'m|\s+am|'ll|\s+will)\b[^.!?]{0,30}?\b(?:welcom(?:e|ing)|greet(?:ing)?|receiv(?:e|ing))"
                      r"\s+(?:everyone|everybody|all the guests|the guests|guests|people|them all)\b", re.I)
_OTHER_OUTING = re.compile(r"\b(?:dinner|lunch|breakfast|coffee|walk|tea|drink|drinks)\b", re.I)
_GAP = re.compile(r"\b(?:(?:it's|it has|it's|it is)\s+been|been)\s+(?:quite\s+|such\s+)?(?:a\s+(?:long\s+)?while|"
                  r"ages|a long time|so long|forever|years|months)\s+since\s+I\b"
                  r"|\b(?:haven't|have not)\s+\w+\b[^.!?]{0,30}\bin\s+(?:a\s+(?:long\s+)?while|ages|"
                  r"years|months|a long time)\b|\bfirst time in (?:a\s+(?:long\s+)?while|ages|years|months)\b", re.I)
_GAP_HELD = re.compile(r"\b(?:since|used to|years ago|no longer|gave up|stopped|again|return(?:s|ed|ing)?|"
                       r"retired|back (?:in|to))\b", re.I)


def head_noun(what: str) -> str:
    """A declared gathering's noun: the last word before its "for" ("a surprise party for Grace's
    60th birthday": "party"; "the public debate": "debate")."""
    words = re.split(r"\s+(?:for|at|on|in|with)\s+", what.lower())[0].split()
    return words[-1] if words else ""


def spoken_of(texts: Sequence[str], town: TownNames) -> list[str]:
    """The town's declared gatherings (``town.parts``' keys) one of ``texts`` names by its noun."""
    low = " ".join(texts).lower()
    return [k for k in town.parts if (n := head_noun(k)) and re.search(rf"\b{re.escape(n)}s?\b", low)]


def _tasked(town: TownNames) -> set[str]:
    return {who for who, _ in town.tasks}


def role_slip(sent: str, speaker: str, listeners: Sequence[str], before: Sequence[str], town: TownNames) -> str:
    """Why ``sent`` (with ``before``, the talk's lines just before it) gives its speaker, or another,
    a part in a declared gathering the town does not give them, else ""."""
    keys = spoken_of([sent, *before], town)
    for k in keys:
        host, *known = town.parts[k]
        noun = head_noun(k)
        if speaker == host or (speaker in known and speaker in _tasked(town)):
            m = _UNSURE.search(sent)
            mine = m is not None and (re.search(r"\bI(?:'m|\s+am|'ll)?\s+$", sent[:m.start()])
                                      or re.search(r"\b(?:if|whether)\s+I\b", m.group(0)))
            if m is not None and mine and not (m.group("to") and noun not in m.group("to").lower()):  # (the park)
                return f"{speaker.split()[0]} {'hosts' if speaker == host else 'helps with'} the {noun}: sure to go"
        if host != speaker and not _OTHER_OUTING.search(sent):
            this = (rf"(?=(?:\s+(?:with (?:me|us)|along|too|there|to it|to the (?:\w+\s+)?{re.escape(noun)}))?"
                    r"\s*(?:[?.!,]|$))")
            asked = [m.group("who") for m in _ASK_TO_COME.finditer(sent) if re.match(this, sent[m.end():])]
            you = [m for m in _ASK_YOU.finditer(sent) if re.match(this, sent[m.end():])]
            if host.split()[0] in asked or (list(listeners) == [host] and you):
                return f"{host.split()[0]} hosts the {noun}: not asked to come"
        # "I can't participate in your pub quiz", Marcus, its host, to Nora and Hank on a9a17c8's day
        if host not in listeners and re.search(rf"\byour\s+(?:[\w-]+\s+){{0,2}}?{re.escape(noun)}s?\b", sent, re.I):
            return f"{host.split()[0]} hosts the {noun}: not the listener's"
        takes = re.compile(rf"\bI(?:'m|\s+am)\s+(?:the one\s+)?(?:in charge of|running|hosting|throwing|organi[sz]ing)"
                           rf"\s+(?:it|the\s+(?:\w+\s+)?{re.escape(noun)})\b", re.I)
        if speaker != host and speaker not in known and (_WELCOME.search(sent) or takes.search(sent)):
            return f"{host.split()[0]} hosts the {noun}: {speaker.split()[0]} has no part in it"
    return ""


def says_a_gap(sent: str) -> bool:
    """Whether ``sent`` says a while has passed since the speaker did something (``gap_unheld``'s form)."""
    return _GAP.search(sent) is not None


def gap_unheld(sent: str, held: Sequence[str]) -> str:
    """Why ``sent`` says a while has passed since the speaker last did or was somewhere when nothing it
    holds (``held``: its own text's sentences of a past) tells of a gap, else ""."""
    if not says_a_gap(sent):
        return ""
    return "" if any(_GAP_HELD.search(h) for h in held) else "a gap in its life it holds nothing of"


# one named with a role at a place ("a growing crush on Felix Adeyemi, who is a new baker at Bluebell Cafe", Rosa
# on 4151289's save: Felix's stall is at Greenway Market); a customer, a guest or a member is no one's work
# (or said of them: "Felix Adeyemi is a new baker at Bluebell Cafe", Samuel's, a talk of 9d99520's save asked again)
_APPOSED = re.compile(r"(?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+)?)(?:,\s+(?:who is\s+|who's\s+)?|\s+(?:is|was)\s+)"
                      r"(?:a|an|the|our)\s+"
                      r"(?:[\w-]+\s+){0,2}?(?P<role>\w+(?:er|ist|ista|or|ian|ant|ess)|chef|clerk|cook|nurse)\s+"
                      r"(?:at|of|in)\s+(?P<rest>[^.!?;]*)")  # ("Eli is the barista at Bluebell Cafe", Rosa, d7d6132)
_NO_WORK = frozenset({"customer", "member", "visitor", "lover", "supporter", "admirer", "neighbor", "neighbour",
                      "volunteer", "regular", "guest", "player", "reader", "fan"})


def named_at_work_elsewhere(sent: str, town: TownNames) -> str:
    """Why ``sent`` names a resident with a role at a place that is another's workplace and not
    theirs, else ""; a place that is no one's workplace is not judged."""
    works = town.workplaces
    theirs = {p for p in works.values() if p}
    for m in _APPOSED.finditer(sent):
        who = next((p for p in town.people if m.group("name") in (p, p.split()[0])), None)
        if who is None or m.group("role").lower() in _NO_WORK:
            continue
        place = next((p for p in sorted(theirs, key=len, reverse=True) if p.lower() in m.group("rest").lower()), None)
        if place and works.get(who) != place:
            return f"{who.split()[0]} does not work at {place}"
    return ""



# the speaker and the listener to do something together that nothing it holds has them do ("I see we're going
# to be working together soon", Felix to Ines and Samuel on 4151289's day: he sells bread at the market)
_TOGETHER = re.compile(r"\bwe(?:'re|’re| are|'ll|’ll| will)\s+(?:going to\s+|gonna\s+|soon\s+)?(?:be\s+)?"
                       r"(?P<v>[a-z]+?)(?:ing|e|s)?\s+together\b", re.I)


def together_unheld(sent: str, speaker: str, listeners: Sequence[str], held: Sequence[str],
                    town: TownNames) -> str:
    """Why ``sent`` has the speaker and the talk's others do something together that none of ``held``
    (what the speaker holds: its persona, points and what it heard) has it do with one of them, else "";
    those who work at one place work together."""
    m = _TOGETHER.search(sent)
    if m is None or sent.rstrip().endswith("?"):
        return ""
    stem = m.group("v").lower()[:4]
    if stem == "work" and any(town.workplaces.get(o) and town.workplaces.get(o) == town.workplaces.get(speaker)
                              for o in listeners):
        return ""
    firsts = [o.split()[0] for o in listeners]
    for text in held:
        for part in re.split(r"(?<=[.!?;])\s+", text):
            if re.search(rf"\b{stem}", part, re.I) and any(re.search(rf"\b{f}\b", part) for f in firsts):
                return ""
    return f"nothing has {speaker.split()[0]} {m.group('v').lower()} with them"


# one's trade said of another ("Ines Moreau is a local baker", Felix, the baker, on a9a17c8's day; "You're doing
# such a great job baking cookies", Rosa to Ines; "How's everything going with your barista work?", Rosa to Ines
# on b61bcdc's day): the trades are those the residents' own texts give them
_TRADE = r"(?P<h>[a-z]+(?:er|ist|ista|ian|or|ant|ess))"
# a trade's verb, in the forms that do it ("bakery" is a place, not baking)
_VERB_OF = {"baker": r"bak(?:e|es|ed|ing)", "teacher": r"(?:teach(?:es|ing)?|taught)", "painter": r"paint(?:s|ed|ing)?",
            "nurse": r"nurs(?:e|es|ed|ing)", "gardener": r"garden(?:s|ed|ing)"}
# one's words of another in its own text ("Felix Adeyemi: the new baker ..."): not its own trade
_OF_ANOTHER = re.compile(r"(?:^|(?<=[.!?] ))[A-Z][a-z]+(?: [A-Z][a-z]+)?: [^.!?]*[.!?]")


def trades(lives: dict[str, str]) -> dict[str, set[str]]:
    """Each resident's trades as its own text says them ("Felix Adeyemi is a baker": {"baker"})."""
    out: dict[str, set[str]] = {}
    for who, life in lives.items():
        rx = rf"\b(?:{re.escape(who)}|{re.escape(who.split()[0])}) is (?:a|an|the)\s+(?:[\w-]+\s+){{0,2}}?{_TRADE}\b"
        out[who] = {m.group("h") for m in re.finditer(rx, life)}
    return out


def trade_given(sent: str, listeners: Sequence[str], lives: dict[str, str], people: Sequence[str]) -> str:
    """Why ``sent`` gives one of the town (named, or the one listener as "you") a trade that another's own
    text (``lives``) holds and its own does not, else ""."""
    said: list[tuple[str, str, bool]] = []  # (whom, the trade, as a verb)
    for who in (p for p in people if p.split()[0] in sent):
        names = rf"(?:{re.escape(who)}|{re.escape(who.split()[0])})"
        said += [(who, m.group("h"), False) for m in re.finditer(
            rf"\b{names}(?:,| is| was)\s+(?:a|an|the|our)\s+(?:[\w-]+\s+){{0,2}}?{_TRADE}\b", sent)]
    if len(listeners) == 1:
        said += [(listeners[0], m.group("h"), False) for m in re.finditer(
            rf"\byou(?:'re|’re| are)\s+(?:a|an|the|our)\s+(?:[\w-]+\s+){{0,2}}?{_TRADE}\b", sent, re.I)]
        said += [(listeners[0], m.group("h"), False) for m in re.finditer(  # ("your barista work", Rosa to Ines)
            rf"\byour\s+(?:[\w-]+\s+)?{_TRADE}\s+(?:work|job|shift|skills|duties|career|training)\b", sent, re.I)]
        for trade, forms in _VERB_OF.items():
            if re.search(rf"\byou(?:'re|’re| are)?\b[^.!?]{{0,40}}?\b{forms}\b", sent, re.I):
                said.append((listeners[0], trade, True))
    owners = {h: who for who, hs in trades(lives).items() for h in hs} if said else {}
    for who, trade, as_verb in said:
        owner = owners.get(trade) or _field_owner(trade, who, lives)
        own, word = _OF_ANOTHER.sub("", lives.get(who, "")), _VERB_OF.get(trade, trade) if as_verb else trade
        if owner and owner != who and not re.search(rf"\b{word}\b", own, re.I):
            return f"{owner.split()[0]} is the {trade}, not {who.split()[0]}"
    return ""


def _field_owner(trade: str, who: str, lives: dict[str, str]) -> str | None:
    """The one whose own text holds the field of a trade nobody's text names ("historian": Eli "studies history"),
    when ``who``'s does not ("I know you're a historian at Oakhill College", Eli to his mother, who keeps the cafe,
    on 4d3a658's day); only for "-ian" and "-ist" of a stem of five letters or more."""
    m = re.fullmatch(r"(?P<stem>[a-z]{5,}?)(?:ian|ist)", trade)
    if m is None:
        return None
    field = re.compile(rf"\b{m.group('stem')}", re.I)
    if field.search(_OF_ANOTHER.sub("", lives.get(who, ""))):
        return None
    return next((p for p, life in lives.items() if p != who and field.search(_OF_ANOTHER.sub("", life))), None)


def trade_as_third(sent: str, speaker: str, listeners: Sequence[str], lives: dict[str, str]) -> str:
    """Why ``sent`` speaks of one in the talk by its trade as of someone else ("I heard about the new
    baker next door at the market", Kenji to Felix, the baker, who answered "I heard about him too":
    7765899's day), else "": "the baker" with no "I'm" or "you're" before it.  With two or more
    listeners "the baker" may be said of one to another, and is let be."""
    if len(listeners) != 1:
        return ""
    mine = trades({p: lives.get(p, "") for p in (speaker, listeners[0])})
    for who, hs in mine.items():
        for h in hs:
            m = re.search(rf"(?<!\bI'm )(?<!\bI am )(?<!\byou're )(?<!\byou are )"
                          rf"\b(?:the|this|that) (?:new |local |young )?{h}\b", sent, re.I)
            if m is not None:
                return f"{who.split()[0]} is the {h}, here in the talk"
    return ""
