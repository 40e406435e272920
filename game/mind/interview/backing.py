"""An interview answer checked against what backs it (issue 27): the facts the resident holds, the
memories and thoughts the prompt showed, its persona and plan, the town's places and the people it
knows.  The paper's agents invented in 1.3% of answers; a 1.5B model far more ("the spring fair is on
Wednesday at 7pm", "a community meeting at the community center"), so what it says is checked by rule
and asked again once with what was wrong made plain; what is still unbacked is dropped, sentence by
sentence; an answer with nothing left says the resident does not know, as a rule's answer
(``Backing.source`` "rule").  The backing is kept with the answer (``Backing``) for a reader or a test.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Protocol

from game.mind.facts.claims import relation_claims, role_claims
from game.mind.facts.fact import EVENT_RE, WEEK_Q, Fact, TownNames
from game.mind.facts.factcheck import fact_in, fix_fact_words, fix_who
from game.mind.facts.hours import clock_times
from game.mind.facts.kin import kin_unbacked
from game.mind.facts.leaning import leans
from game.mind.facts.pastnow import part_of_mended
from game.mind.facts.unbacked import events_unbacked, own_name_as_other, people_named, places_unknown, sentences
from game.mind.facts.when import word_list
from game.mind.interview.asme import mend_voice
from game.mind.interview.heardof import heard_of
from game.mind.interview.hosts import hosts_wrong
from game.mind.interview.ownclaims import WHERE_DENIED, meals_unbacked, of_self_as_another
from game.mind.interview.placeclaims import wrong_place
from game.mind.interview.sentclaims import claims_unbacked, current_not_former
from game.mind.interview.stepping import steps_out
from game.mind.persona import Persona

_DENY = re.compile(r"\b(?:do(?:n't|n’t| not)|did(?:n't| not)|have(?:n't| not)|am not|'m not|never|no idea|not sure|"
                   r"not aware|not familiar|no one|nobody|nothing|know of no|there (?:is|are) no|none)\b", re.I)

# a sentence that says there is none of a kind ("No gathering is planned in town", "I know of no party")
_NONE_SUCH = re.compile(r"\b(?:no|not any|not a single)\s+(?:\w+\s+){0,2}?(?:is|are|was|were|has been|planned|"
                        r"scheduled)\b|\bknow of no\b|\bthere (?:is|are) no\b"
                        r"|\b(?:don't|do not|didn't|did not) know (?:of |about )?(?:any|an?)\b", re.I)


@dataclass
class Problem:
    kind: str  # "out of town", "stranger", "person", "place", "event", "denial", "claim"
    what: str
    tell: str  # the note for the model when it is asked again


@dataclass
class Backing:
    """What an answer rests on and what the check found."""

    facts: list[str] = field(default_factory=list)  # the facts the prompt showed, in the town's words
    memories: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # found in the model's first answer
    fixes: list[str] = field(default_factory=list)  # words mended against a fact
    dropped: list[str] = field(default_factory=list)  # sentences nothing backs
    asked: int = 1  # model calls for this answer
    source: str = "model"  # "model", "rule" (nothing the model said was backed), "record" (told from its records)

    def to_dict(self) -> dict:
        return asdict(self)


def denies(text: str) -> bool:
    return bool(_DENY.search(text))


class Shown(Protocol):
    """What an interview's prompt showed (``interview.InterviewContext``)."""

    sections: dict[str, str]
    memories: list[str]
    reflections: list[str]
    plan: list[str]


def backing_text(p: Persona, ctx: Shown, question: str) -> str:
    """Everything an answer may draw on, as one text: the prompt's sections, the persona whole."""
    parts = [*ctx.sections.values(), p.background, p.currently, *p.seed_memories,
             *ctx.memories, *ctx.reflections, *ctx.plan]
    return "\n".join(str(x) for x in parts if x)


def asked_of(question: str, held: Sequence[Fact], now: datetime, asker: str = "", me: str = "",
             town: TownNames | None = None) -> list[Fact]:
    """The gatherings held that ``question`` asks of: the one it names, else all to come if asked of a kind
    ("a party?"), or those it has a hand in if asked what it is busy with; none kept from the asker."""
    live = [f for f in held if f.kind == "gathering" and not f.over(now) and asker not in f.secret_from]
    named = fact_in(question, live)
    if named is not None:
        return [named]
    if town is not None and WEEK_Q.search(question):  # Grace's week without her debate (the panel, b5e348b)
        return [f for f in live if f.host == me or me in town.parts.get(f.what.lower(), ())]
    return live if EVENT_RE.search(question) else []


def in_voice(f: Fact, me: str, now: datetime) -> str:
    """A fact as the one who holds it says it: "I'm hosting ...", "Samuel Okafor told me that ..."."""
    if f.host == me:
        return f"I'm hosting {f.sentence(now)[len(f.host) + len(' is hosting '):]}."
    if f.source and f.source == f.host:  # "Samuel Okafor is hosting ... (he told me himself)", not "X told me that X"
        return f"{f.sentence(now)}; {f.source.split()[0]} told me so."
    return f"{f.source} told me that {f.sentence(now)}." if f.source else f"{f.sentence(now)}."


def carry(answer: str, facts: Sequence[Fact], me: str, now: datetime, *, where_when: bool = False
          ) -> tuple[str, list[str]]:
    """An answer to a question about what the resident knows carries it: each asked fact the answer does
    not name (or denies), or, asked where and when (``where_when``), names without its place or hour
    ("Samuel Okafor is hosting the party."), is said from the record, in its voice; a denial goes."""
    missing = [f for f in facts if denies(answer) or fact_in(answer, [f]) is None or not _whose_said(answer, f, me)
               or where_when and not _where_when_said(answer, f)]
    if not missing:
        # a denial beside what it knows ("No gathering is planned in town. Grace Okafor is hosting ...")
        parts = sentences(answer)
        # (a generic word, "gathering", does not make the denial one of the fact: only its own words do)
        kept_ = [s for s in parts if not (_NONE_SUCH.search(s) and EVENT_RE.search(s)
                                          and not any(f.distinct() & set(word_list(s)) for f in facts))]
        return (" ".join(kept_), ["denial dropped"]) if parts and kept_ and len(kept_) < len(parts) else (answer, [])
    said = " ".join(in_voice(f, me, now) for f in missing)
    # what it said of them without whose they are ("One is a surprise party ...") is said whole instead
    kept = "" if denies(answer) else " ".join(s for s in sentences(answer) if not any(f.speaks_of(s) for f in missing)
                                              and not (_NONE_SUCH.search(s) and EVENT_RE.search(s)) and not leans(s))
    return (f"{kept} {said}".strip() if kept else said), [f"told from the record: {f.what}" for f in missing]


def _where_when_said(answer: str, f: Fact) -> bool:
    """Whether ``answer`` says ``f``'s place (when it has one) and its hour."""
    place = not f.place or f.place.lower() in answer.lower()
    return place and (f.start is None or f.start in clock_times(answer))


def _whose_said(answer: str, f: Fact, me: str) -> bool:
    """Whether ``answer`` says whose ``f`` is: its host by name, or "I"/"my" when it is the speaker's."""
    if f.host == me and re.search(r"\b(?:I|I'm|my|mine)\b", answer):
        return True
    return bool(re.search(rf"\b(?:{re.escape(f.host)}|{re.escape(f.host.split()[0])})\b", answer))


def person_asked(question: str, relationships: dict[str, str]) -> str | None:
    """The one person the question names whom the resident knows by its relationships, if any."""
    named = [n for n in relationships if n in question or re.search(rf"\b{re.escape(n.split()[0])}\b", question)]
    return named[0] if len(named) == 1 else None


def _role_asked(question: str) -> str | None:
    """The role "who is running for mayor?" ("candidate for mayor") or "who is the mayor?" asks of."""
    m = _ROLE_Q.search(question)
    if m is None:
        return None
    return f"candidate for {m.group('o').lower()}" if m.group("o") else (m.group("r") or "").lower()


def role_holders(question: str, roles: dict[str, tuple[str, ...]] | Mapping[str, Sequence[str]]) -> list[str]:
    """Who holds the role the question asks of, as the town declares it; [] when it asks of none."""
    role = _role_asked(question)
    return [who for who, rs in roles.items() if role in (r.lower() for r in rs)] if role else []


_ROLE_Q = re.compile(r"\b(?:running|standing|a candidate) for (?:the )?(?P<o>[a-z]+)|\bwho(?:'s| is) (?:the|our) "
                     r"(?:town'?s? )?(?P<r>[a-z]+)\b", re.I)


def role_answer(question: str, roles: dict[str, tuple[str, ...]] | Mapping[str, Sequence[str]],
                me: str = "") -> str | None:
    """The town's declared answer to "who is running for mayor?" or "who is the mayor?", said by ``me``
    ("Hank Brody and I are running for mayor."); None when the question asks of no role it declares."""
    holders = role_holders(question, roles)
    role = _role_asked(question)
    if not holders or role is None:
        return None
    said = [h for h in holders if h != me] + (["I"] if me in holders else [])
    verb = "am" if said == ["I"] else "is" if len(said) == 1 else "are"
    what = f"running for {role[len('candidate for '):]}" if role.startswith("candidate for ") else f"the {role}"
    return f"{' and '.join(said)} {verb} {what}."


def in_own_words(name: str, relation: str) -> str:
    """A relationship as the resident says it: "her father; she loves him" -> "Hank Brody is my father."."""
    first = relation.split(";")[0].strip().rstrip(".")
    first = re.sub(r"^(?:her|his|their)\b", "my", first, flags=re.I)
    if not re.match(r"^(?:my|the|a|an)\b", first, re.I):
        first = "someone I know: " + first
    return f"{name} is {first}."


def problems_in(answer: str, *, me: str, known: Sequence[str], strangers: Sequence[str], town: TownNames,
                backing: str, question: str, held: Sequence[Fact] = (), now: datetime | None = None) -> list[Problem]:
    """What in ``answer`` nothing backs; ``held``: the gatherings asked about that it holds (``asked_of``)."""
    first = me.split()[0]
    out: list[Problem] = []
    for f in held:
        if denies(answer) or fact_in(answer, [f]) is None:
            out.append(Problem("denial", "", f"{first} knows this: {f.sentence(now)}. Say what you know of it: "
                                             "what it is, whose it is, where and when."))
    out += wrong_host(answer, held, town, now) + [Problem("claim", *p) for p in wrong_place(answer, held, town, now)]
    if steps_out(answer, me, question) or re.match(
            rf"^{re.escape(first)}\s+(?:is|has|was|does|doesn't|thinks|knows|would|will)\b", answer):
        out.append(Problem("out of town", "", f"Answer as {first}, in the first person (I, me, my), as someone "
                                              "who lives in the town; never mention information, text or questions."))
    for s in strangers:
        if not denies(answer):
            out.append(Problem("stranger", s, f"{first} has never met anyone called {s} and knows nothing "
                                              f"about them: say so, in a few words."))
    allowed = [*known, *strangers]
    for name in people_named(answer, allowed, town, me):
        out.append(Problem("person", name, f"{first} knows no one called {name}: do not name them."))
    out += _places_lacked(answer, town)
    lacks = town.lacks
    if lacks is not None:
        for sent in sentences(answer):
            for kind in lacks(sent)[:1]:
                tell = f"The town has no {kind}: name only the town's own places and people."
                out.append(Problem("place", sent, tell))
    out += _denied(answer, first, question, town, backing)
    people = [*town.people, *known]
    for sent in sentences(answer):
        for c in relation_claims(sent, me, [], people, town.relations) + role_claims(sent, people, town.roles, me):
            if not c.backed:
                out.append(Problem("claim", sent, f"{c.not_so}: say only what is so."))
                break
        out += [Problem("claim", sent, f"{why}: say only what is so.")
                for why in claims_unbacked(sent, me, town, backing, question) if why]
        for meal in meals_unbacked(sent, me, town, backing)[:1]:
            out.append(Problem("claim", sent, f"{first} has no {meal} in its day: say only what is so."))
        for kin in kin_unbacked(sent, backing)[:1]:
            word = "children" if not kin.lower().startswith(("my", "our")) else kin.split()[-1]
            out.append(Problem("claim", sent, f"{first} has no {word}: say only what is so."))
    out += _roles_denied(answer, me, question, town)
    low = backing.lower()
    for noun in events_unbacked(answer, low):
        if noun.lower() in question.lower() and (denies(answer) or any(f.speaks_of(answer) for f in held)):
            continue  # ("a gathering" of the question, said of the party it holds: Rosa on d7d6132's save)
        out.append(Problem("event", noun, f"{first} has heard of no {noun.lower()}: do not make one up; say only "
                                          "what you know."))
    asked = [m.group(0) for m in EVENT_RE.finditer(question)] if not held else []
    for noun in asked:
        base = noun.lower().rstrip("s")
        if base not in low and not denies(answer) and not any(p.what == noun for p in out):
            out.append(Problem("event", noun, f"{first} has heard of no {base}: say that you have not heard of one."))
    return out


# ("I don't have any information about her personality", Samuel of his wife, the mayor, on 654b82e's save)
UNKNOWING = re.compile(r"\b(?:do(?:n't|n’t| not) know|not sure|no idea|never (?:met|heard)|not familiar|"
                       r"(?:do(?:n't|n’t| not)|have(?:n't| not)) (?:have )?(?:any )?(?:specific )?"
                       r"(?:information|details)|"
                       r"(?:no|any) (?:specific |particular |real )?(?:thoughts|opinions?) (?:about|on|of))\b", re.I)


# "She is a fine mayor", said of one's wife: the office's holder named by a pronoun that fits
_SHE, _HE = r"(?:she|her)\b", r"(?:he|him|his)\b"
_PRONOUN = {w: _SHE for w in ("wife", "mother", "daughter", "sister", "aunt", "grandmother", "girlfriend")} | \
    {w: _HE for w in ("husband", "father", "son", "brother", "uncle", "grandfather", "boyfriend")}


def _places_lacked(answer: str, town: TownNames) -> list[Problem]:
    """The places ``answer`` names that the town lacks, each told what it has instead."""
    out = []
    for place in places_unknown(answer, town):
        named = re.sub(r"^the ", "", place, flags=re.I)
        room, _, where = named.partition(" of ")
        if where in town.places:  # (a room its place has none of: unbacked.rooms_unknown)
            rooms = ", ".join(town.rooms.get(where.lower(), ()))
            out.append(Problem("place", place, f"{where} has no {room}; its rooms are: {rooms}."))
        else:
            out.append(Problem("place", place, f"The town has no {named}; its places are: {', '.join(town.places)}."))
    return out


def _roles_denied(answer: str, me: str, question: str, town: TownNames) -> list[Problem]:
    """A question about an office ("What do you think of the town's mayor?") answered with not
    knowing, or without naming who holds it, by one who knows who does (its relationships, or
    itself): a denial.  Samuel, the mayor's husband, said "I don't know the mayor of the town, as I
    don't live there", and later "I hope he will do a good job"."""
    out = []
    for who, roles in town.roles.items():
        for role in roles:
            if role.startswith("candidate for ") or not re.search(
                    rf"\bthe (?:town'?s? )?{re.escape(role)}\b", question, re.I):
                continue
            rel = town.relations.get(me, {}).get(who, "")
            if who != me and not rel:
                continue
            word = re.sub(r"^(?:his|her|their|my)\s+", "", rel.split(";")[0].split(",")[0].strip())
            named = re.search(rf"\b{re.escape(who.split()[0])}\b", answer) or (
                who == me and re.search(r"\b(?:I|I'm|me)\b", answer)) or (
                word and re.search(rf"\bmy {re.escape(word)}\b", answer, re.I)) or (who != me and re.match(
                    _PRONOUN.get(word, r"(?:she|he)\b"), answer.strip(), re.I))
            if UNKNOWING.search(answer) or not named:
                yours = re.sub(r"^(?:his|her|their)\b", "your", rel.split(";")[0].strip(), flags=re.I)
                whose = "you" if who == me else f"{who}, {yours}"
                out.append(Problem("denial", "", f"The {role} is {whose}: say what you know and think of them."))
            elif who == me and of_self_as_another(answer, me):  # "I think Grace Okafor is a dedicated leader"
                out.append(Problem("denial", "", f"The {role} is you: speak of yourself as I."))
    return out


def wrong_host(answer: str, held: Sequence[Fact], town: TownNames, now: datetime | None) -> list[Problem]:
    """A sentence about a gathering it holds that gives it another host (hosts.py), as a claim to ask again."""
    return [Problem("claim", sent, tell) for sent, tell in hosts_wrong(answer, held, town, now)]


def _denied(answer: str, first: str, question: str, town: TownNames, backing: str) -> list[Problem]:
    """"I don't know where the Town Hall is", asked the way to it by a resident of the town; "No gathering
    is planned", by one whose own words say it heard of one (heardof.py)."""
    heard = heard_of(question, answer, backing)
    out = [Problem("denial", "", f"{first} has heard this: {heard} Say what you know of it.")] if heard else []
    near = [p for p in town.places if p in town.near and re.search(rf"\b{re.escape(p)}\b", question, re.I)]
    return out + [Problem("denial", "", f"{first} knows where {p} is: {town.near[p]}. Say so.")
                  for p in (near if WHERE_DENIED.search(answer) else [])]


def today_not_another_day(answer: str, question: str, now: datetime | None, held: Sequence[Fact]) -> str:
    """In an answer about today ("Who did you talk with today?"), a weekday that is not today's in a
    sentence that speaks of nothing it holds is today ("I talked with Grace on Wednesday", said on
    Monday); "the debate on Wednesday" stands."""
    if now is None or "today" not in question.lower():
        return answer
    today = f"{now:%A}".lower()
    out = []
    for sent in sentences(answer) or [answer]:
        if not any(f.speaks_of(sent) or f.distinct() & set(sent.lower().split()) for f in held):
            sent = re.sub(r"\bon (Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b",
                          lambda m: m.group(0) if m.group(1).lower() == today else "today", sent)
        out.append(sent)
    return " ".join(out)


def drop_unbacked(answer: str, problems: Sequence[Problem], me: str) -> tuple[str, list[str]]:
    """The answer without the sentences that carry a problem, and without a sentence that leans on
    the one just dropped ("Rosa told me about it. She suggested it because ..." loses both)."""
    kept: list[str] = []
    dropped: list[str] = []
    last_dropped = False
    for s in sentences(answer):
        bad = any((p.what and p.what.lower() in s.lower()) for p in problems
                  if p.kind in ("person", "place", "event", "claim"))
        bad = bad or steps_out(s, me) or own_name_as_other(s, me)  # of itself as another, or of the prompt
        bad = bad or (last_dropped and leans(s))
        (dropped if bad else kept).append(s)
        last_dropped = bad
    return " ".join(kept).strip(), dropped


def checked_answer(text: str, found: list[Problem], first: tuple[str, list[Problem]], name: str,
                   check: Callable[[str], list[Problem]]) -> tuple[str, list[str]]:
    """The answer less its sentences that carry a problem; where it has none left, the other answer's
    (``first``, not taken) that pass the checks (3 of 75 on 2026-11-29 said nothing; Rosa on 6b9a052's stove)."""
    kept, dropped = drop_unbacked(text, found, name)
    if not kept and first[0]:
        again, more = drop_unbacked(*first, name)
        if again and not check(again):
            return again, dropped + more
    return kept, dropped


def rule_answer(problems: Sequence[Problem]) -> str:
    stranger = next((p.what for p in problems if p.kind == "stranger"), None)
    if stranger:
        return f"I don't know anyone called {stranger}."
    if any(p.kind == "event" for p in problems):
        return "I haven't heard of anything like that."
    return "I'm not sure, I don't know."


def mend_facts(answer: str, facts: Sequence[Fact], now: datetime, town: TownNames, me: str,
               question: str = "", basis: str = "") -> tuple[str, list[str]]:
    """The answer's words about a fact it or the question names, with the fact's place and hours,
    who told it (the fact's source) and whose it is (its host); without a doing made part of a
    gathering that nothing in ``basis`` makes part of it (pastnow.part_of_mended)."""
    answer, cut = part_of_mended(answer, facts, [basis], [*town.people, *town.places])
    answer, voiced = mend_voice(answer, me, town)  # "She will not have ...", of herself: "I will not"
    answer, former = current_not_former(answer, me, town)  # "a former mayor", by the mayor
    cut += voiced + former
    fact = fact_in(answer, facts, prefer=[me]) or fact_in(question, facts, prefer=[me])
    if fact is None:
        return answer, cut
    text, fixes = fix_fact_words(answer, fact, now, town, me, by_place=True)
    text, more = fix_who(text, fact, me)
    if any(f.startswith("whose: ") for f in more):  # the one replaced goes with its words ("The event is hosted
        host = "me" if fact.host == me else re.escape(fact.host)  # by Ines Moreau, who is known as the cafe owner")
        text = re.sub(rf"\b(by {host}),\s+(?:who\s+(?:is|was)\s+|the\s+|a\s+|an\s+)[^,.;!?]*,?", r"\1", text)
    return text, cut + fixes + more
