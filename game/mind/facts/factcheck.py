"""The model's words checked against the facts (fact.py) and the town's names.

* ``vet_line``: a line of a conversation that speaks of a fact is said by one who holds it (a
  resident does not claim another's plan, nor tell news it never heard: the line goes to the
  one in the talk who knows it), its place, day and hours are the fact's, and "I'm hosting" by
  someone who is not the host names the host; the listeners who did not hold the fact hear it.
* ``answer_problems``: what in an interview answer the speaker's memory does not back (a place the
  town does not have, a person nobody met, an event no fact or memory carries, words that step out
  of the town), for the interview to ask again or drop; ``fix_fact_words`` corrects a fact's place
  and hours in any text.

Pure rules, no model call.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from game.mind.facts.claims import drop_unbacked_claims, drop_wrong_time, fix_day
from game.mind.facts.clauses import in_its_clause, in_its_part
from game.mind.facts.fact import EVENT_RE, Fact, FactBook, TownNames
from game.mind.facts.hidden import told_by_the_kept
from game.mind.facts.leaning import hide_secrets, kept_apart
from game.mind.facts.linechecks import drop_misattributed, fix_whose, own_hosting, unnarrate
from game.mind.facts.timechecks import drop_nonsense, drop_wrong_today, fix_greeting
from game.mind.facts.tolistener import to_listener
from game.mind.facts.unbacked import (
    PLACE_PHRASE,
    SENTENCES,
    clauses,
    drop_unbacked_sentences,
    place_aliases,
    sentences,
)
from game.mind.facts.when import AT_RE, RANGE_RE, read_when, word_list
from game.mind.interview.asme import as_me
from game.mind.view import hhmm

_CLAIM = re.compile(r"\b(?:I(?:'m|’m| am| will be)|I've been|I have been)\s+"
                    r"(?P<v>hosting|throwing|organi[sz]ing|holding|planning|having|putting on|running for)\b")
_MY_EVENT = re.compile(r"\bmy\s+(?=(?:[\w'’-]+\s+){0,3}?(?:party|gathering|get-together|meeting|picnic|celebration|"
                       r"campaign|candidacy)\b)", re.I)
# ----------------------------------------------------------------------------- which fact


def fact_in(text: str, facts: Iterable[Fact], prefer: Sequence[str] = ()) -> Fact | None:
    """The fact ``text`` speaks of: the one whose telling words it shares most ("valentine"
    counts more than "party"); a word only facts of its kind share ("party") names one only when
    it is the one fact with it.  Ties go to a fact held by ``prefer``'s first ones."""
    words = set(word_list(text))
    best: tuple[int, int, Fact] | None = None
    facts = list(facts)
    for _i, f in enumerate(facts):
        distinct = f.distinct() & words
        generic = (f.keywords() - f.distinct()) & words
        if not distinct and not generic:
            continue
        if not distinct:
            rivals = [g for g in facts if g.key != f.key and (g.keywords() - g.distinct()) & generic]
            if rivals:
                continue
        score = 2 * len(distinct) + len(generic)
        rank = -(prefer.index(f.host) if f.host in prefer else len(prefer))
        if best is None or (score, rank) > best[:2]:
            best = (score, rank, f)
    return best[2] if best else None


# ----------------------------------------------------------------------------- correcting words


# ("He's hosting it tomorrow night", of Marcus's quiz on 4151289's day: "it" its object)
_IT = re.compile(r"\bit(?:'s|’s| is| starts| begins| will| opens)\b"
                 r"|\b(?:hosting|holding|running|having|throwing|organi[sz]ing|host|hold|run|throw)\s+it\b", re.I)


def fix_fact_words(text: str, fact: Fact, now: datetime, town: TownNames, speaker: str = "", *,
                   by_place: bool = False, to: Sequence[str] = ()) -> tuple[str, list[str]]:
    """``text`` with the fact's place, day and hours where a sentence about it names others, and the
    host named where ``speaker`` (not the host) claims it as their own.  ``by_place``: a sentence
    naming the fact's place is about it too (an answer already about the fact: "It is hosted by Ines
    at Bluebell Cafe tomorrow").  Returns the text and what was mended."""
    fixes: list[str] = []
    keys = fact.keywords()
    place = set(word_list(fact.place)) - {"the", "and"} if by_place and fact.place else set()
    host = fact.host.split()[0].lower() if fact.host else ""
    parts, about = SENTENCES.split(text), False
    for i, sent in enumerate(parts):
        words = set(word_list(sent))
        # by its place only with a sign of the gathering ("hosted", "party", its host): "I open
        # Bluebell Cafe at 6:30" is the cafe's day, not the party's hours; "it" just after one of it is it
        # ("the quiz. Do you know when it starts? I think it's starting at 8:00 tomorrow morning", Marcus)
        by_its_place = bool(place & words) and (EVENT_RE.search(sent) is not None or "host" in sent.lower()
                                                or host in words)
        about = bool(keys & words) or by_its_place or about and bool(_IT.search(sent))
        if not about:
            continue
        parts[i] = _fix_sentence(sent, fact, now, town, speaker, fixes, to)
    return " ".join(parts) if fixes else text, fixes


def _fix_sentence(text: str, fact: Fact, now: datetime, town: TownNames, speaker: str, fixes: list[str],
                  to: Sequence[str] = ()) -> str:
    if fact.kind == "gathering":
        if fact.place:
            for p in sorted(town.places, key=len, reverse=True):
                if p.lower() == fact.place.lower():
                    continue
                for alias in place_aliases(p):
                    if alias.lower() in fact.place.lower() or not re.search(rf"\b{re.escape(alias)}\b", text, re.I):
                        continue
                    said = text

                    def there(m: re.Match[str], said: str = said) -> str:
                        return fact.place if in_its_clause(said, m.start(), fact) else m.group(0)
                    text = re.sub(rf"(?:\bthe\s+)?\b{re.escape(alias)}\b", there, text, flags=re.I)
                    if text != said:
                        fixes.append(f"place {alias} -> {fact.place}")
                        break
            for m in reversed(list(PLACE_PHRASE.finditer(text))):
                phrase = m.group("p")
                noun = phrase.split()[-1].lower()
                if noun in fact.place.lower() or fact.place.lower() in phrase.lower() or not in_its_clause(
                        text, m.start("p"), fact) or re.match(r"\s+(?:quiz|night|crawl)\b", text[m.end("p"):]):
                    continue  # ("the pub quiz at The Copper Kettle": a pub's quiz, not a place, on 0e6b5f2's day)
                text = text[:m.start("p")] + fact.place + text[m.end("p"):]
                fixes.append(f"place {phrase} -> {fact.place}")
        if fact.start is not None:
            text = _fix_hours(text, fact, fixes)
        if fact.day is not None:
            text = fix_day(text, fact, now, fixes)
    if fact.kind == "gathering" and fact.host:
        text = fix_whose(_fix_inviter(text, fact, speaker, fixes), fact, town.people, fixes)
    if speaker and speaker != fact.host:
        first = fact.host.split()[0]
        if own_hosting(text) and not _CLAIM.search(text):
            # "I'm really excited to host the get-together" by one who only heard of it: the
            # sentence says whose it is instead
            fixes.append(f"claim -> {fact.host}")
            said = fact.sentence(now)
            if fact.host in to:  # said to the host: "you're hosting", not "Samuel is hosting" to Samuel
                return said.replace(f"{fact.host} is hosting", "You're hosting", 1) + "."
            return said.replace(fact.host, first, 1) + "."

        def claim(m: re.Match) -> str:
            v = m.group("v")
            after = " ".join(m.string[m.end():].split()[:4])
            if not (EVENT_RE.search(after) or fact.keywords() & set(word_list(after)) or re.match(r"it\b", after)):
                return m.group(0)  # "I'm organizing a student group to attend the debate": not the debate
            if re.match(r"(?:on|to)\s+(?:attend|go|come|join|be|see|watch|help|take part|stop by|drop by|visit|"
                        r"check out|head|catch|enjoy|hear)", after):  # "planning on attending the quiz", Priya's
                return m.group(0)
            if v == "running for":  # a candidacy's words, not a gathering's; and not one the town declares
                mine = any(r.startswith("candidate for") for r in town.roles.get(speaker, ()))
                return m.group(0) if fact.kind != "candidacy" or mine else f"{first} is running for"
            return f"{first} is {v}"
        new = _my_event(_CLAIM.sub(claim, text), fact, town, speaker)
        if new != text:
            fixes.append(f"claim -> {fact.host}")
            text = new
    return text


def _my_event(text: str, fact: Fact, town: TownNames, speaker: str) -> str:
    """``text`` with "my party" by one not its host as the host's; "my campaign" stays where the speaker runs
    or the fact is no candidacy (Hank's, a candidate, in a sentence of Grace's debate)."""
    first = fact.host.split()[0]

    def mine(m: re.Match) -> str:
        noun = re.match(r"(?:[\w'’-]+\s+){0,3}?(campaign|candidacy)\b", m.string[m.end():], re.I)
        ran = fact.kind != "candidacy" or any(r.startswith("candidate for") for r in town.roles.get(speaker, ()))
        return m.group(0) if noun and ran else f"{first}'s "
    return _MY_EVENT.sub(mine, text)


_INVITED = re.compile(r"\b(?:invitation|invite|invited|call|message|note)\s+(?:from|by)\s+"
                      r"(?P<who>[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)|(?P<who2>[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\s+"
                      r"(?:invited|has invited|asked)\s+(?:me|you|us)\b")


def _fix_inviter(text: str, fact: Fact, speaker: str, fixes: list[str]) -> str:
    """Who invites to a gathering is its host: "the surprise party invitation from Grace Okafor"
    (the one it is for) -> "... from Samuel"."""
    first = fact.host.split()[0]

    def sub(m: re.Match) -> str:
        g = "who" if m.group("who") else "who2"
        who = m.group(g)
        if who.split()[0] in (first, "I", "He", "She", "They", "We") or who == speaker:
            return m.group(0)
        fixes.append(f"inviter {who} -> {fact.host}")
        a, b = m.start(g) - m.start(), m.end(g) - m.start()
        return m.group(0)[:a] + first + m.group(0)[b:]
    return _INVITED.sub(sub, text)


def _fix_hours(text: str, fact: Fact, fixes: list[str]) -> str:
    assert fact.start is not None  # (the caller asks only for a fact with hours)
    want = (f"from {hhmm(fact.start)} to {hhmm(fact.end)}" if fact.end is not None else f"at {hhmm(fact.start)}")
    for rx in (RANGE_RE, AT_RE):
        m = rx.search(text)
        if not m or not in_its_part(text, m.start(), fact):  # (an hour after a "but" is another thing's)
            continue
        span = m.group(0).strip()
        if span.endswith("."):
            span = span[:-1]
        if not re.search(r"\d|noon|midday|midnight", span, re.I):
            continue
        if not re.search(r"[ap]\.?\s?m\b|:\d\d|noon|midday|midnight|\b(?:from|at|between)\b", span, re.I):
            continue
        _, s, e = read_when(span, datetime(2000, 1, 1, 0, 0))
        if s is None or (s == fact.start and (rx is AT_RE or e == fact.end)):
            return text
        start = m.start() + m.group(0).index(span)
        said = want
        # its start said as one ("The party starts at 7 pm" was made "The party from 18:00 to 21:00", "begins at 7"
        # "begins from 18:00 to 21:00"): its start
        if re.match(r"start(?:s|ing) at\b", span, re.I) or re.search(
                r"\b(?:begins?|beginning|starts?|starting|kicks off)\s+$", text[:start], re.I):
            said = f"{span.split(' at')[0]} at {hhmm(fact.start)}" if " at" in span else f"at {hhmm(fact.start)}"
            if s == fact.start:
                return text
        fixes.append(f"hours {span} -> {said}")
        return text[:start] + said + text[start + len(span):]
    return text


_WHO = r"(?P<who>[A-Z][a-z]+(?:\s[A-Z][a-z]+)?|[Hh]e|[Ss]he|[Tt]hey|[Ii])"
_TOLD_ME = re.compile(_WHO + r"\s+(?:told|invited|asked)\s+(?:me|you)\b")  # "told you": said to the asker
_WHOSE = re.compile(r"\b(?:(?:hosted|organi[sz]ed|thrown|held|planned|run)\s+by\s+" + _WHO
                    + r"|" + _WHO.replace("who", "own") + r"['’]s\s+(?:own\s+)?idea"
                    + r"|" + _WHO.replace("who", "now") + r"\s+(?:am|is|was|will\s+be)\s+"
                    r"(?:hosting|organi[sz]ing|throwing|holding|running)\s+(?:it\b|(?:the|a|an|this|that)\s+"
                    r"(?:[\w'-]+\s+){0,2}(?:get-together|get together|gathering|party|event|meeting|celebration)\b))")
_I_TOLD = re.compile(r"\bI\s+told\s+(?P<who>[A-Z][a-z]+(?:\s[A-Z][a-z]+)?)\b")


def fix_who(text: str, fact: Fact, me: str) -> tuple[str, list[str]]:
    """In an answer about ``fact`` by ``me``: who told me is the fact's source, whose it is (hosted
    by, whose idea) is its host; the host itself was told by no one."""
    fixes: list[str] = []
    host = "me" if fact.host == me else fact.host
    host_s = "my" if fact.host == me else f"{fact.host}'s"

    if fact.host == me:  # the host heard it from no one: a sentence saying so says whose it is
        parts = sentences(text)
        for i, s in enumerate(parts):
            m = _TOLD_ME.search(s)
            if m and m.group("who") not in ("I", "i"):
                fixes.append(f"told me: {m.group('who')} -> my own")
                parts[i] = f"It is my own {fact.bare_what}: I am hosting it, so nobody had to tell me."
        text = " ".join(parts) if fixes else text

    def told(m: re.Match) -> str:
        who = m.group("who")
        if fact.host == me:
            return m.group(0)
        said = m.group(0)[:-3] + "me" if m.group(0).endswith("you") else m.group(0)  # to the asker: to me
        if fact.source and who not in ("He", "he", "She", "she", "They", "they") and \
                who.split()[0] != fact.source.split()[0]:
            fixes.append(f"told me: {who} -> {fact.source}")
            return said.replace(who, fact.source, 1)
        return said

    def whose(m: re.Match) -> str:
        who = m.group("who") or m.group("own") or m.group("now")
        if who in ("He", "he", "She", "she", "They", "they", "It", "it") or who.split()[0] == fact.host.split()[0]:
            return m.group(0)
        if who in ("I", "i") and (m.group("now") is None or fact.host == me):
            return m.group(0)
        fixes.append(f"whose: {who} -> {fact.host}")
        if m.group("who"):
            return m.group(0).replace(who, host, 1)
        if m.group("now"):  # "Grace Okafor is hosting it" said of Ines's: the host is who hosts it
            return _hosting(m.group(0), who, fact.host, me)
        return m.group(0).replace(who + "'s", host_s, 1).replace(who + "’s", host_s, 1)

    def turned(m: re.Match) -> str:  # "I told Ines" by one whom Ines told: she told me
        who = m.group("who")
        if fact.host == me or not fact.source or who.split()[0] != fact.source.split()[0]:
            return m.group(0)
        fixes.append(f"told: I told {who} -> {fact.source} told me")
        return f"{fact.source} told me"
    text = _TOLD_ME.sub(told, text)
    text = _WHOSE.sub(whose, text)
    text = _I_TOLD.sub(turned, text)
    return text, fixes


def _hosting(said: str, who: str, host: str, me: str) -> str:
    """ "<who> is hosting" with the host in ``who``'s place ("I am" when it is the speaker's)."""
    rest = said[len(who):].lstrip()  # "is hosting", "was organising", "will be throwing"
    if host == me:
        verb, _, tail = rest.partition(" ")
        return "I " + {"is": "am", "was": "was"}.get(verb, verb) + (" " + tail if tail else "")
    if rest.startswith("am "):
        rest = "is " + rest[3:]
    return host + " " + rest


# ----------------------------------------------------------------------------- lines of a talk


@dataclass
class Vetted:
    speaker: str
    text: str
    fact: Fact | None = None
    told: list[str] = field(default_factory=list)  # listeners who hear the fact for the first time
    fixes: list[str] = field(default_factory=list)


def vet_line(speaker: str, text: str, participants: Sequence[str], books: Mapping[str, FactBook],
             now: datetime, town: TownNames, *, may_move: bool = True) -> Vetted:
    """A line as it may be said (see the module's doc).  ``books`` holds the facts of the residents
    in the talk (the visitor has none); ``may_move`` False for a line whose speaker is fixed (the
    player's, or a line asked of one resident)."""
    held: dict[str, Fact] = {}
    for p in participants:
        book = books.get(p)
        if book is not None:
            for f in book.upcoming(now):
                held.setdefault(f.key, f)
    fixes: list[str] = []
    # a surprise is not told to the one it is for, nor spoken of by them: what tells of it is not said
    secrets = {f.key: f for book in books.values() for f in book if f.kept_from(participants)}
    if secrets:
        text, n = hide_secrets(text, list(secrets.values()), clauses)
        if n:
            kept = sorted({k for f in secrets.values() for k in f.kept_from(participants)})
            fixes.append(f"kept secret from {', '.join(kept)}: {n} sentence(s) not said")
        if not text.strip():
            return Vetted(speaker, "", fixes=fixes)
    if speaker in books:  # a resident's line: a place the town lacks, a person nobody has, is not said
        listeners = [p for p in participants if p != speaker]
        text = drop_unbacked_sentences(as_me(unnarrate(text, speaker, fixes), speaker), town,  # (asme.py)
                                        [*town.people, *participants], speaker, fixes)
        text = drop_unbacked_claims(text, town, speaker, listeners, fixes)
        text = to_listener(drop_misattributed(text, speaker, listeners, town, books[speaker], fixes), listeners, fixes)
        text = drop_nonsense(drop_wrong_today(fix_greeting(text, now, fixes), now, fixes), now, fixes)
        if not text.strip():
            return Vetted(speaker, "", fixes=fixes)
    if not held:
        return Vetted(speaker, text, fixes=fixes)
    text = told_by_the_kept(text, held.values(), [*town.people, *participants], fixes)
    text = drop_wrong_time(text, list(held.values()), now, fixes)
    if not text.strip():
        return Vetted(speaker, "", fixes=fixes)
    order = [speaker, *[p for p in participants if p != speaker]]
    fact = fact_in(text, held.values(), prefer=order)
    if fact is None:
        return Vetted(speaker, text, fixes=fixes)
    holders = [p for p in participants if p in books and books[p].holds(fact.key)]
    out = Vetted(speaker, text, fact, fixes=fixes)
    if speaker not in holders and may_move and holders:
        to = fact.host if fact.host in holders else holders[0]
        if not _movable(text, fact, to):
            return _not_known(out, speaker, fact)
        out.speaker = to
        out.fixes.append(f"speaker {speaker} -> {out.speaker}")
    out.text, fixed = fix_fact_words(out.text, fact, now, town, out.speaker,
                                     to=[p for p in participants if p != out.speaker])
    out.fixes += fixed
    _fix_others(out, fact, [f for f in held.values() if f is not fact], books.get(out.speaker), now, town)
    if out.speaker in holders or not may_move:
        out.told = [p for p in participants if p != out.speaker and p in books and not books[p].holds(fact.key)
                    and p not in fact.secret_from]
    return out


def _movable(text: str, fact: Fact, to: str) -> bool:
    """Whether a line of ``fact`` said by one who has not heard of it may go to ``to``, who holds it: it keeps its
    words, so not one that says "you" (it would then say it of its first speaker: "I know you're helping prepare
    Grace's surprise party", Marcus's, moved to Rosa), nor one said to them ("Thanks, Grace"), nor one with a
    sentence of the speaker's own ("I'm loading coffee machines", Rosa's, given to Grace with the debate)."""
    beside = [s for s in sentences(text) if len(s.split()) > 3 and not fact.speaks_of(s)
              and not fact.distinct() & set(word_list(s))]
    return not (re.search(r"\byou", text, re.I) or re.search(rf"\b{re.escape(to.split()[0])}\b", text) or beside)


def _fix_others(out: Vetted, fact: Fact, others: list[Fact], mine: FactBook | None, now: datetime,
                town: TownNames) -> None:
    """The other gatherings its speaker holds, mended in the sentences not of ``fact`` ("I have notes for
    your debate today", in Priya's line about the quiz on 0e6b5f2's day)."""
    for other in [f for f in others if mine is not None and mine.holds(f.key)]:
        done = [(s, []) if fact.keywords() & set(word_list(s)) else fix_fact_words(s, other, now, town, out.speaker)
                for s in SENTENCES.split(out.text)]
        out.text, out.fixes = " ".join(t for t, _ in done), out.fixes + [x for _, fs in done for x in fs]


def _not_known(out: Vetted, speaker: str, fact: Fact) -> Vetted:
    """A line of a gathering its speaker has not heard of, said to one who has: its sentences about it go."""
    kept = kept_apart(sentences(out.text) or [out.text],
                      lambda s: fact.speaks_of(s) or bool(fact.distinct() & set(word_list(s))))
    out.fixes.append(f"not known to {speaker}: {fact.bare_what}")
    out.text, out.fact = " ".join(kept), None
    return out
