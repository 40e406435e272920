"""Claims of relation and role in a line, read by rule and checked against what the town declares
(issue 39): "my daughter Rosa", "Hank, my father", "your husband Samuel"; "Hank is running for
mayor", "Grace is the mayor", "I'm the baker".

A small model swapped roles (the pharmacist's "new bread"; a student's "campaign") and relations
in most talks.  The residents file holds each resident's relationships in its own words ("her
husband of 34 years") and the town's roles (``roles``: mayor, candidate for mayor) beside each
one's workplace; a claim they do not back is unbacked, and the line's sentence that makes it is
not said (factcheck.vet_line) and counted by ``town audit``.

Pure rules: no model, no state.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from game.mind.facts.clauses import another_event
from game.mind.facts.fact import Fact, TownNames
from game.mind.facts.oneastwo import one_as_two
from game.mind.facts.relwords import KIN, NAME, REL, Claim, backs, full_name, own_only
from game.mind.facts.ties import tie_claims
from game.mind.facts.unbacked import sentences
from game.mind.facts.when import word_list

_MINE = [re.compile(rf"\b(?P<whose>[Mm]y|[Yy]our) (?P<rel>{REL}),? {NAME}"),
         re.compile(rf"{NAME},? (?:is |who is )?(?P<whose>my|your) (?:(?:dear|devoted|loving|beloved|lovely|"
                    rf"wonderful|dearest) )?(?P<rel>{REL})\b")]
# ("I am married to Hank Brody and love him", Rosa of her father on b61bcdc's save)
_MARRIED = re.compile(rf"\b(?:I am|I'm|I've been|I have been|I was)\s+(?:happily\s+)?married\s+to\s+{NAME}")
# of a third ("Grace Okafor and her husband Hank Brody", "Grace's husband Hank", "Hank, Grace's husband")
_HOLDER = r"(?P<whose>[A-Z][a-z]+(?: [A-Z][a-z]+)?)"
_THEIRS = [re.compile(rf"\b{_HOLDER} and (?:her|his) (?P<rel>{REL}),? {NAME}"),
           re.compile(rf"\b{_HOLDER}['’]s (?P<rel>{REL}),? {NAME}"),
           re.compile(rf"\b{NAME}, {_HOLDER}['’]s (?P<rel>{REL})\b")]
# what may stand between "running for" and the office: "a third term as", "re-election as", "the post of"
_FOR_OFFICE = r"(?:a\s+(?:\w+\s+)?term\s+as\s+|re-?election\s+as\s+|the\s+(?:post|office)\s+of\s+|the\s+|post\s+of\s+)?"
_RUNS = re.compile(rf"{NAME} (?:is|'s) (?:[^.,;!?]{{1,60}}? and (?:is )?)?(?:running|standing|a candidate) for "
                   rf"{_FOR_OFFICE}(?P<role>[a-z]+)")
_IS_THE = re.compile(rf"{NAME},? (?:who is |is |'s )(?:also )?(?:the|our) (?:town'?s? )?"
                     r"(?P<role>mayor|baker|pharmacist|librarian|barista|landlord|shopkeeper|teacher|professor|"
                     r"publican|gardener)\b")


_I_RUN = re.compile(r"\bI(?:'m| am)\s+(?:(?!not\b)\w+\s+){0,3}?(?:running|standing|to run) for " + _FOR_OFFICE
                    + r"(?P<role>[a-z]+)")
# a word between "I am" and a role that still says what the speaker is ("I am Hank Brody, a proud
# mayor"), not what it does to another ("I am voting for the mayor", "helping the mayor")
_SELF_WORD = (r"(?!(?:for|against|the|our|your|to|with|of|from|at|by|helping|voting|supporting|meeting|seeing|"
              r"talking|like|than|not)\b)[\w']+,?")
_YOU_RUN = re.compile(r"\byou(?:'re| are| were)? (?:running|standing) for " + _FOR_OFFICE + r"(?P<role>[a-z]+)", re.I)
# offices an election is held for: a candidacy for one the town holds no election for is invented
# ("I thought you were running for the police"); "running for the bus" is no candidacy
_OFFICE_WORDS = frozenset(("mayor", "council", "councillor", "councilman", "councilwoman", "sheriff", "police",
                           "chief", "governor", "president", "senate", "senator", "judge", "treasurer", "office",
                           "parliament", "congress", "board", "alderman", "election"))
# one said to run the town, as a mayor does: Grace of Hank, her rival, "a strong and competent leader with a
# track record of being effective in running the town's small rituals" (82f1ab1's day); not what one would
# do ("wants to run the town", "could lead the town")
_RUNS_TOWN = re.compile(rf"{NAME}\b[^.!?;]{{0,80}}?(?<!\bto )(?<!could )(?<!would )(?<!will )\b(?:running|ran|runs|"
                        r"leading|led|leads|governing|governed|governs) (?:the|this|our) town\b(?!\s+hall)")
_AGAINST_ME = re.compile(r"\brunning (?:for (?:the )?(?:post of )?(?P<role>[a-z]+) )?against me\b")
_I_WIN = re.compile(r"\bI (?:want|hope|plan|intend|mean) to win the (?:election|race)\b")


def relation_claims(text: str, speaker: str, listeners: Sequence[str], people: Sequence[str],
                    relations: Mapping[str, Mapping[str, str]]) -> list[Claim]:
    """The relations ``text`` claims ("my wife Grace": Grace is the speaker's wife) and whether the
    relationships of either side back them (a word of the relation in its text)."""
    out, spans = [], []
    for rx in (*_MINE, *_THEIRS):
        for m in rx.finditer(text):
            spans.append(m.span())
            other = full_name(m.group("name"), people)
            whose = m.group("whose")
            holder = (speaker if whose.lower() == "my" else (listeners[0] if len(listeners) == 1 else None)
                      if whose.lower() == "your" else full_name(whose, people))
            if other is None or holder is None or other == holder:
                continue
            rel = m.group("rel").lower()
            there, back = (own_only(t) for t in (  # ("Hank's daughter": no
                relations.get(holder, {}).get(other, ""), relations.get(other, {}).get(holder, "")))  # speaker's)
            out.append(Claim("relation", other, f"{rel} of {holder}", backs(rel, there, back)))
    out += tie_claims(text, speaker, people, relations)
    for m in _MARRIED.finditer(text):
        other = full_name(m.group("name"), people)
        if other is None or other == speaker:
            continue
        said = " ".join([relations.get(speaker, {}).get(other, ""), relations.get(other, {}).get(speaker, "")]).lower()
        said = own_only(said)
        out.append(Claim("relation", other, f"husband of {speaker}", any(w in said for w in KIN["husband"])))
    for m in _KIN_OF.finditer(text):  # a relative no name is given ("backlash from Grace's father")
        holder = full_name(m.group("whose"), people)
        if holder is None or holder == speaker or any(a <= m.start() < b for a, b in spans):
            continue
        rel = m.group("rel").lower()
        said = " ".join([*relations.get(holder, {}).values(),
                         *(r.get(holder, "") for r in relations.values())]).lower()
        said = own_only(said)
        out.append(Claim("relation", holder, f"has a {rel}", any(w in said for w in KIN[rel])))
    return out


# a relative of a third, named by the relation alone (Rosa on ca91aae's save: "the potential backlash from
# Grace's father": Grace has none in the town's records)
_KIN_OF = re.compile(rf"\b{_HOLDER}['’]s (?P<rel>father|mother|dad|mum|mom|husband|wife|son|daughter|brother|"
                     r"sister|grandfather|grandmother|uncle|aunt|nephew|niece|cousin)\b(?!,? [A-Z])")


def role_claims(text: str, people: Sequence[str], roles: Mapping[str, Sequence[str]], speaker: str = "",
                listener: str = "") -> list[Claim]:
    """The roles ``text`` gives someone ("Hank is running for mayor", "Grace is the mayor"; of the
    ``speaker``: "I'm running for mayor", "a proud mayor" after "I am", "I want to win the
    election"; of the one ``listener``: "you are running for mayor") and whether the town's declared
    roles back them; a role the town declares of no one is not judged (a trade is often said of a
    workplace), but a candidacy for an office nobody runs for is unbacked."""
    out = []
    declared = {r.lower() for rs in roles.values() for r in rs}
    found: list[tuple[str | None, str]] = []
    for rx, kind in ((_RUNS, "candidate for {}"), (_IS_THE, "{}")):
        found += [(full_name(m.group("name"), people), kind.format(m.group("role").lower())) for m in rx.finditer(text)]
    if "mayor" in declared:  # the mayor's work said of one ("a track record of running the town's rituals")
        found += [(full_name(m.group("name"), people), "mayor") for m in _RUNS_TOWN.finditer(text)]
    if listener:
        found += [(listener, f"candidate for {m.group('role').lower()}") for m in _YOU_RUN.finditer(text)]
    if speaker:
        offices = sorted(r for r in declared if not r.startswith("candidate for "))
        for m in _I_RUN.finditer(text):
            found.append((speaker, f"candidate for {m.group('role').lower()}"))
        for m in _AGAINST_ME.finditer(text):  # "I don't know if she is running for mayor against me"
            role = m.group("role") or next((r[14:] for r in sorted(declared) if r.startswith("candidate for ")), "")
            found.append((speaker, f"candidate for {role.lower()}"))
        if _I_WIN.search(text):
            found += [(speaker, r) for r in sorted(declared) if r.startswith("candidate for ")][:1]
        for office in offices:
            o = re.escape(office)
            if re.search(rf"\bI(?:'m| am)(?:\s+{_SELF_WORD}){{0,8}}\s+{o}\b", text) or re.search(
                    rf"\bI(?:'m| am) (?:the|a|an|your|our) (?:town'?s? )?{o}\b", text):
                found.append((speaker, office))
    for who, role in found:
        if who is not None and role not in declared and role.startswith("candidate for ") \
                and role[len("candidate for "):] in _OFFICE_WORDS:
            out.append(Claim("role", who, role, False))  # an election the town does not hold
        if who is None or role not in declared:
            continue
        out.append(Claim("role", who, role, role in {r.lower() for r in roles.get(who, ())}))
    return out


def drop_unbacked_claims(text: str, town: TownNames, speaker: str, listeners: list[str], fixes: list[str]) -> str:
    """The line without its sentences that claim a relation or a role the town does not declare
    ("my son Felix", "Rosa is running for mayor"): claims.py; or one it holds a relation with as two ("my
    lodger and Felix": oneastwo.py)."""
    people = [*town.people, *listeners]
    kept = []
    for sent in sentences(text) or [text]:
        bad = [c for c in relation_claims(sent, speaker, listeners, people, town.relations)
               + role_claims(sent, people, town.roles, speaker, listeners[0] if len(listeners) == 1 else "")
               if not c.backed]
        two = one_as_two(sent, speaker, people, town.relations)
        if bad:
            fixes.append("unbacked " + "; ".join(f"{c.kind}: {c.who} {c.what}" for c in bad))
        elif two:
            fixes.append(two)
        else:
            kept.append(sent)
    return " ".join(kept)


# a gathering spoken of as over, or as now, when it has not begun ("It was a great debate", "The
# debate at Town Hall is starting soon", on the Monday of a Wednesday debate)
_PAST = re.compile(r"\b(?:(?:it|that|the\s+[\w'-]+(?:\s+[\w'-]+)?)\s+(?:was|went)\b|went\s+to|been\s+to|"
                   r"(?:enjoyed|loved|missed)\s+(?:it|the)\b|was\s+(?:a\s+|so\s+)?(?:great|fun|wonderful|lovely|"
                   r"nice|amazing|good|brilliant)\b)", re.I)
# (and "I hope you're enjoying the party!", Rosa of Tuesday's party on the Monday, 75fad48's day)
_NOW = re.compile(r"\b(?:right now|soon|tonight|this (?:morning|afternoon|evening)|has started|already started|"
                  r"(?:enjoying|having (?:a |so much )?(?:great |good |lovely )?(?:time|fun) at)"
                  r"\s+(?:the|your|our|it))\b", re.I)


# the eve of a gathering said on another day ("It's the night before the debate", Grace on the Monday
# of a Wednesday debate, c59f68b's day)
_EVE = re.compile(r"\b(?:night|day|evening)\s+before\s+(?:the|our|my|your|his|her)\b", re.I)


def drop_wrong_time(text: str, facts: list[Fact], now: datetime, fixes: list[str]) -> str:
    """The line without its sentences that speak of a gathering that has not begun as over, or of
    one on another day as now; a line left with nothing is not said."""
    parts = sentences(text) or [text]
    kept = []
    for sent in parts:
        bad = next((f for f in facts if f.kind == "gathering" and f.day is not None and f.start is not None
                    and _about(sent, f) and _too_soon(sent, f, now)), None)
        if bad is None:
            kept.append(sent)
        else:
            fixes.append(f"unbacked time: {bad.bare_what} is {bad.when_text(now)}")
    return " ".join(kept) if len(kept) < len(parts) else text


def _about(sent: str, fact: Fact) -> bool:
    """Whether a sentence speaks of the fact: as ``Fact.speaks_of``, or by a word of its own ("debate")."""
    return fact.speaks_of(sent) or bool(fact.distinct() & set(word_list(sent)))


def _too_soon(sent: str, fact: Fact, now: datetime) -> bool:
    if fact.day is None:
        return False
    begins = datetime.combine(fact.day, datetime.min.time()) + timedelta(minutes=fact.start or 0)
    if begins <= now:
        return False
    return bool(_PAST.search(sent)) or (fact.day != now.date() and bool(_NOW.search(sent))) or (
        fact.day != now.date() + timedelta(days=1) and bool(_EVE.search(sent)))


# a part of the day said of a day ("Wednesday morning", "tomorrow night"): "told me this morning" is
# when one heard it, not when the gathering is
_PART = re.compile(r"\b(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow)\s+"
                   r"(morning|afternoon|evening|night)\b", re.I)


def _part_of(minute: int) -> str:
    return "morning" if minute < 12 * 60 else "afternoon" if minute < 17 * 60 else "evening"


def fix_part_of_day(text: str, fact: Fact, fixes: list[str]) -> str:
    """The part of the day a sentence about the fact names, as its hours say ("the debate on
    Wednesday morning", of one at 19:00 -> "Wednesday evening"); "night" stands for the evening."""
    assert fact.start is not None
    right = _part_of(fact.start)

    def sub(m: re.Match) -> str:
        w = m.group(1).lower()
        if w == right or (w == "night" and right == "evening"):
            return m.group(0)
        fixes.append(f"{w} -> {right}")
        return m.group(0)[:m.start(1) - m.start()] + right
    return _PART.sub(sub, text)


_DAYWORDS = re.compile(r"\b(?:(?:on|this|next)\s+)?(today|tonight|tomorrow|monday|tuesday|wednesday|thursday|"
                       r"friday|saturday|sunday)\b", re.I)  # ("this Monday" made right is "tomorrow")


# on one's way to a place now, said of a gathering of another day with no day word ("I'm going to Bluebell Cafe for a
# surprise party", Nora at 19:51 on Monday of Tuesday's party, 4d3a658's day): the gathering's day is said
_GOING_NOW = re.compile(r"\bI(?:'m|’m| am) (?:going|heading|off|on my way|walking) (?:over )?to (?:the )?[A-Z]")


# going to it at once, said of a gathering of another day ("I'll get ready and go to the party right away", Samuel
# asked what he does on hearing shouting, the day before Grace's party, on 160f87f's day): its day said instead
_AT_ONCE = re.compile(r"\b(?:go|going|head|heading|rush|rushing|hurry|come|coming|get)\s+(?:over\s+|straight\s+)?to\s+"
                      r"(?:the|your|our|his|her|[A-Z][a-z]+['’]s)\s+(?:[\w'-]+\s+){0,3}?(?P<noun>[\w'-]+)\s+"
                      r"(?P<now>right away|straight away|at once|immediately|right now)\b", re.I)


_OTHER_TIME = re.compile(r"\b(?:different|another|other|better)\s+(?:time|day|date)\b|\binstead\b|\brather than\b"
                         r"|\bmove (?:it|the \w+) to\b", re.I)


def fix_day(text: str, fact: Fact, now: datetime, fixes: list[str]) -> str:
    """``text`` with the day words of a sentence about ``fact`` made its day ("on Wednesday" of tomorrow's)."""
    assert fact.day is not None
    delta = (fact.day - now.date()).days
    right = {0: "today", 1: "tomorrow"}.get(delta, f"{fact.day:%A}")

    def sub(m: re.Match) -> str:
        w = m.group(1).lower()
        ok = (w in ("today", "tonight") and delta == 0) or (w == "tomorrow" and delta == 1) or \
            (w == f"{fact.day:%A}".lower())
        # today's name said as today ("It's Monday, and I'm helping Samuel prepare Grace's surprise party":
        # made "It's tomorrow" on a9a17c8's day)
        if ok or w == f"{now:%A}".lower() and re.search(r"\b(?:it's|it’s|it is|today is|happy)\s+$",
                                                      m.string[:m.start()], re.I):
            return m.group(0)
        if another_event(m.string, m.start(), fact):  # (another event's day)
            return m.group(0)
        fixes.append(f"day {m.group(1)} -> {right}")
        word = right if delta in (0, 1) else f"on {right}"
        return word.capitalize() if m.start() == 0 else word
    if _OTHER_TIME.search(text):  # a time it would rather have (Grace: "hold the debate at a different time,
        return text  # such as on a weekend", made "on a on Wednesday" on 0e6b5f2's save)
    if delta and not _DAYWORDS.search(text) and _GOING_NOW.search(text):
        fixes.append(f"day now -> {right}")  # (one going there now, another day's)
        return re.sub(r"\s*([.!?]*)\s*$", lambda m: f" {right if delta == 1 else 'on ' + right}{m.group(1) or '.'}",
                      text, count=1)
    if delta:
        for m in reversed(list(_AT_ONCE.finditer(text))):
            if m.group("noun").lower() in fact.keywords():
                fixes.append(f"day {m.group('now')} -> {right}")
                text = text[:m.start("now")] + (right if delta == 1 else f"on {right}") + text[m.end("now"):]
    text = _DAYWORDS.sub(sub, text)  # and a date said with it ("Wednesday, March 4" made "tomorrow, March 4")
    text = re.sub(rf"\b((?i:{right})),?\s+[A-Z][a-z]+\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?!:)", r"\1", text)
    text = fix_part_of_day(text, fact, fixes) if fact.start is not None else text
    text = re.sub(r"\b([Tt])oday night\b", r"\1onight", text)  # ("hosting it today night")
    return re.sub(r"\b([Tt])oday (morning|afternoon|evening)\b", r"\1his \2", text)  # ("8:00 today evening")
