"""What an interview answer is held to from the resident's records, beyond the facts it holds
(backing.py): whom it talked with today, what its plan has after work, what tomorrow's frame and
the gatherings it knows of say of tomorrow, and the answer's words tidied as a reader reads them.

Read on a whole day's interviews (issue 39): asked whom she talked with, Grace named three people
she knows and never talked with that day (she talked with Rosa); asked what he will do after work,
Samuel invented four dinners; asked of tomorrow, Rosa repeated a visit to her own house.  The
model is given what the records say for such a question (``hint_for``), and an answer that names
a talk the records do not hold is a problem (``talk_claims``), asked again with whom it did talk
with, then dropped, then said from the records (``talks_answer``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import TypedDict

from game.mind.facts.fact import Fact, TownNames
from game.mind.facts.hours import clock_times, stems
from game.mind.facts.hypothetical import first_step
from game.mind.facts.unbacked import sentences
from game.mind.interview.backing import (
    UNKNOWING,
    Backing,
    carry,
    denies,
    in_own_words,
    in_voice,
    person_asked,
    role_answer,
    role_holders,
)
from game.mind.interview.heardof import heard_of
from game.mind.interview.ownclaims import after_work_line, of_self_as_another, office_line, on_the_hour, way_answer
from game.mind.memory.records import MemoryRow, mentioned, spoke_with
from game.mind.view import PlanBlock, hhmm

_TALK_Q = re.compile(r"\b(?:who|whom)\b.{0,30}\b(?:talk|talked|speak|spoke|chat|chatted|met)\b", re.I)
_AFTER_WORK_Q = re.compile(r"\bafter work\b", re.I)
_TOMORROW_Q = re.compile(r"\btomorrow\b", re.I)
# an open question ("What has been on your mind lately?"), not one that imagines ("Someone close
# to you is sick"): only its answer may fall back to what the resident knows is coming
_OPEN_Q = re.compile(r"\b(?:on your mind|matters? most|thinking about|looking forward|busy with)\b", re.I)
_NOT_SURE = ("I'm not sure, I don't know.", "I haven't heard of anything like that.")  # backing.rule_answer's
_NO_PLANS = re.compile(r"\b(?:no|(?:do not|don't|do n't) have any|nothing) (?:plans?|planned)\b", re.I)
# whom a sentence says it talked with: the names right after the verb ("talked with A, B and C")
_TALKED_WITH = re.compile(r"\b(?:talk(?:ed)?|spoke|chatted|met|caught up|catch up|"
                          r"(?:a|had a) (?:conversation|chat|talk))\s+"
                          r"(?:(?:briefly|also)\s+)?(?:with|to)?\s*"
                          r"(?P<who>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?(?:\s*(?:,|,?\s+and)\s+[A-Z][\w'-]*"
                          r"(?:\s+[A-Z][\w'-]*)?)*)")


def asks_of_talks(question: str) -> bool:
    """"Who did you talk with today, and what about?" """
    return bool(_TALK_Q.search(question))


def talks_on(rows: Sequence[MemoryRow], day: date) -> list[str]:
    """Whom the resident talked with on ``day``, in the order of the talks (its own records of them)."""
    out: dict[str, None] = {}
    for r in rows:
        if r.created.date() == day:
            for p in spoke_with(r):
                out[p] = None
    return list(out)


def _names(people: Sequence[str]) -> str:
    return people[0] if len(people) == 1 else f"{', '.join(people[:-1])} and {people[-1]}"


def talks_line(first: str, partners: Sequence[str]) -> str:
    if not partners:
        return f"Today {first} has talked with nobody yet."
    return f"Today {first} talked with {_names(partners)}, and with no one else."


def talk_claims(answer: str, partners: Sequence[str], people: Sequence[str], me: str) -> list[str]:
    """The sentences of ``answer`` that say the resident talked with (or met) someone of the town
    that its records of today's talks do not hold."""
    others = [p for p in people if p != me and p not in partners]
    out = []
    for s in sentences(answer):
        if any(mentioned(m.group("who"), others) for m in _TALKED_WITH.finditer(s)):
            out.append(s)
    return out


_TOLD_ME = re.compile(r"\b(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?|[Hh]e|[Ss]he),? (?:who )?(?:also )?"
                      # ("I remember Marcus Bell telling me about the surprise party", Rosa's, who never talked
                      # with him: 9d99520's interview)
                      r"(?:(?:told|informed|asked) me|(?:was |were )?telling me|said:?)(?: that| about| to)? "
                      r"(?P<what>[^.!?]+)")


def hearsay_unbacked(answer: str, basis: str, people: Sequence[str]) -> list[str]:
    """The sentences of ``answer`` that say someone told it something that nothing it holds about
    them says ("Samuel told me that he was visiting Rosa's house and calling Ines", with no line of
    hers about Samuel that shares two words of it).  What is held: the lines of ``basis`` (the
    prompt, its memories) that name them."""
    lines = basis.splitlines()
    out = []
    last: str | None = None
    for sent in sentences(answer):
        for m in _TOLD_ME.finditer(sent):
            said = m.group("who")
            who = last if said.lower() in ("he", "she") else next(
                (p for p in people if said in (p, p.split()[0])), None)
            if who is None:
                continue
            about = " ".join(re.sub(r"; I said:.*", "", x) for x in lines if who.split()[0] in x)  # not my words
            what = stems(m.group("what"), set())
            if what and len(what & stems(about, set())) < min(2, len(what)):
                out.append(sent)
                break
        named = [p for p in people if re.search(rf"\b{re.escape(p.split()[0])}\b", sent)]
        last = named[-1] if named else last
    return out


_ABOUT = re.compile(r"\b(?:talked|spoke|chatted|talk|conversation|chat)\s+(?:to|with)\s+"
                    r"(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?)\s+about\s+(?P<what>[^.!?;]+)")


def talk_topics_unbacked(answer: str, rows: Sequence[MemoryRow], day: date, people: Sequence[str]) -> list[str]:
    """The sentences of ``answer`` that say what a talk of ``day`` was about that the records of the
    talks with that person do not ("I talked to Nora about the surprise party", of a talk about
    breakfast eggs): no word of it in them."""
    out = []

    def held(who: str) -> set[str]:
        return stems(" ".join(r.text for r in rows if r.kind == "conversation" and r.created.date() == day
                              and who.split()[0] in r.text), set())
    partners = talks_on(rows, day)
    names = {w.lower() for p in people for w in p.split()}
    for sent in sentences(answer):
        for m in _ABOUT.finditer(sent):
            who = next((p for p in people if m.group("who") in (p, p.split()[0])), None)
            if who is None:
                continue
            what = stems(m.group("what"), set())
            if what and not what & held(who):
                out.append(sent)
                break
        else:  # "Nora was there to check in and see if there's anything happening", said by Grace
            did = _PARTNER_DID.match(sent)
            who = next((p for p in partners if did.group("who") in (p, p.split()[0])), None) if did else None
            what = {w for w in stems(did.group("what"), set()) if w not in names} if did else set()
            if who is not None and len(what) >= 2 and not what & held(who):
                out.append(sent)
    return out


# a sentence whose subject is one it talked with ("Nora Lindqvist was there to check in ..."), not
# hearsay ("X told me that ...", hearsay_unbacked) nor a talk's topic (_ABOUT)
_PARTNER_DID = re.compile(r"^\W*(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?) (?!told me\b)(?:was|is|said|asked|wanted|came|"
                          r"mentioned|talked|shared|wondered|seemed|had|needed)\b(?P<what>[^.!?]+)")


_TOLD_LINE = re.compile(r"^\W*(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?) told me: (?P<said>.+)$")
_SEEN_DOING = re.compile(r"^\W*(?P<who>[A-Z][a-z]+ [A-Z][a-z]+) is (?P<act>[a-z]+ing\b.+)$")
_I_DO = re.compile(r"^\W*(?:I'm|I am|I've been)\s+(?P<act>.+)", re.I)


def borrowed_self(answer: str, basis: str, me: str = "") -> list[str]:
    """The sentences of ``answer`` in which the resident does what another told it they do ("I enjoy
    reading the town budget", said by Samuel after Grace told him "I'm reading the town budget"),
    when nothing of its own says so; a line of ``me`` itself ("Samuel Okafor is hosting a surprise
    party", his own fact) is its own."""
    lines = basis.splitlines()
    own = [set(re.findall(r"[a-z]+", x.lower())) for x in lines if not _TOLD_LINE.match(x) and not _SEEN_DOING.match(x)]
    theirs = []
    for x in lines:
        m = _TOLD_LINE.match(x)
        seen = _SEEN_DOING.match(x)  # "Grace Okafor is reading the town budget": seen, hers
        hit = m or seen
        if me and hit is not None and hit.group("who") in (me, me.split()[0]):
            continue
        doing = re.sub(r"\s*\(.*?\)", "", seen.group("act")) if seen else ""
        said = [c for x in sentences(m.group("said")) for c in _I_CLAUSE.split(x)] if m else []
        for sent in said if m else [f"I'm {doing}"] if seen else ():
            act = _I_DO.match(sent)
            words = {w for w in re.findall(r"[a-z]+", act.group("act").lower()) if len(w) >= 4} if act else set()
            if len(words) >= 2 and not any(words <= o for o in own):
                theirs.append(words)
    # all of a clause's words, or at least three quarters of them (three or more): "I'm running for a
    # third term as mayor against my father, Hank Brody", of Grace's "... against Hank Brody"
    return [s for s in sentences(answer) if re.match(r"^\W*I\b", s)
            and any(len(t & set(re.findall(r"[a-z]+", s.lower()))) >= max(2, min(len(t), -(-3 * len(t) // 4)))
                    for t in theirs)]


# a told sentence's clauses that each say what its speaker does ("I'm running for mayor and I'm
# preparing for the debate")
_I_CLAUSE = re.compile(r",?\s+(?:and|but|so)\s+(?=I(?:'m| am| have| will|'ve)?\b)|;\s*(?=I\b)")


def talks_answer(partners: Sequence[str]) -> str:
    """Whom it talked with, said from the records."""
    return f"Today I talked with {_names(partners)}." if partners else "I haven't talked with anyone today."


def housemates_answer(me: str, town: TownNames, relationships: Mapping[str, str]) -> str:
    """Who lives in the resident's home, by the town's data, with what each is to it."""
    home = town.homes.get(me)
    if not home:
        return ""
    mates = [n for n, h in town.homes.items() if h == home and n != me]
    if not mates:
        return "I live alone."
    said = []
    for n in mates:
        rel = (relationships.get(n) or relationships.get(n.split()[0]) or "").split(";")[0].split(",")[0].strip()
        rel = re.sub(r"^(?:her|his|their)\b", "my", rel, flags=re.I)
        said.append(f"{n}, {rel}" if rel.lower().startswith("my ") else n)
    return f"I live with {_names(said)}."


def tomorrow_line(first: str, frame: Sequence[PlanBlock], facts: Sequence[Fact], now: datetime, *,
                  mine: bool = False) -> str:
    """What is known of tomorrow: its work hours by the resident's frame, and the gatherings it
    holds for that day (the rest of tomorrow is not planned yet).  ``mine``: said by the resident, whose
    whole name ``first`` then is, its own gathering as "I'm hosting" (not "Samuel Okafor is hosting")."""
    tomorrow = now.date() + timedelta(days=1)
    parts = []
    work = [b for b in frame if b.kind == "work"]
    if work:
        acts = list(dict.fromkeys(b.activity for b in work))
        parts.append(f"{'; '.join(acts)} from {hhmm(min(b.start for b in work))} to {hhmm(max(b.end for b in work))}")
    else:
        parts.append("no work")
    for f in facts:
        if f.kind == "gathering" and f.day == tomorrow:
            said = f.sentence(now)
            own = mine and f.host == first
            parts.append(f"I'm hosting {said[len(f.host) + len(' is hosting '):]}" if own else said)
    if mine:
        return f"Tomorrow ({tomorrow:%A}) I have: {'; '.join(parts)}. The rest of tomorrow is not planned yet."
    return (f"Tomorrow ({tomorrow:%A}) {first} has: {'; '.join(parts)}. The rest of tomorrow is not "
            f"planned yet.")


def home_claims(answer: str, me: str, town: TownNames) -> list[str]:
    """Asked who it lives with: the sentences that name someone of the town who lives elsewhere."""
    home = town.homes.get(me)
    if not home:
        return []
    others = [p for p in town.people if p != me and town.homes.get(p) != home]
    return [s for s in sentences(answer) if mentioned(s, others)]


def record_lines(question: str, first: str, now: datetime, rows: Sequence[MemoryRow], blocks: Sequence[PlanBlock],
                 minute: int, tomorrow: Callable[[], Sequence[PlanBlock]], facts: Sequence[Fact],
                 town: TownNames) -> tuple[list[str], list[str]]:
    """(whom it talked with today, the lines its records give for ``question``): today's talks, the
    plan after work, tomorrow's frame and gatherings, where a place the question names is."""
    talked = talks_on(rows, now.date())
    lines = []
    if asks_of_talks(question):
        lines.append(talks_line(first, talked))
    if _AFTER_WORK_Q.search(question):
        lines.append(after_work_line(first, blocks, minute))
    if _TOMORROW_Q.search(question):
        lines.append(tomorrow_line(first, tomorrow(), facts, now))
    lines += [f"{p} is {town.near[p]}." for p in town.places
              if p in town.near and re.search(rf"\b{re.escape(p)}\b", question, re.I)]
    lines.append(first_step(question))  # (something burning: what comes first)
    return talked, [x for x in lines if x]


_WHO_IS_Q = re.compile(r"\bwho(?:'s| is| are)\b(?! (?:the|our|a|an|running|standing)\b)", re.I)


def _office(text: str, back: Backing, question: str, me: str, town: TownNames, lost: bool) -> str:
    """Asked of an office: who holds it, from the records, when the words deny or lose it, or when
    its holder speaks of itself by name; the rest of the model's words kept."""
    office = office_line(question, me, town)
    # its own office spoken of as another's ("I think the town's mayor is a strong individual ... her
    # commitment", by the mayor)
    third = re.compile(rf"\b(?:she|her|he|his|him|{re.escape(office[5:].rstrip('.'))})\b", re.I
                       ) if office.startswith("I am ") else re.compile(r"$^")
    if not office or not (lost or UNKNOWING.search(text) or of_self_as_another(text, me) or third.search(text)):
        return text
    kept = [x for x in sentences(text) if not UNKNOWING.search(x) and me not in x and not third.search(x)
            ] if back.source == "model" else []
    back.source = "record"
    back.fixes.append("told from the record: the office")
    return " ".join([office, *kept])


class RecordLines(TypedDict):
    """What the records say to the kind of question asked, "" (None) where they say nothing."""

    after_work: str
    at: tuple[str, str] | None
    tomorrow: str
    usual: str
    job: str
    free_time: str
    heard: str


_FREE_WORDS = {"free", "spare", "time", "like", "enjoy", "love", "spend", "spending", "really", "usually"}


def _work_and_usual_day(text: str, back: Backing, lost: bool, job: str, usual: str, free_time: str = "") -> str:
    """Asked its work or its usual day, an answer that says none of it is told from the record
    (Samuel on 136a191: "I am known for my supportive and attentive father to my wife Grace"; Rosa:
    "Today, she is going to Hank's house."); asked its free time, one that shares no pastime with it
    (Grace on 82f1ab1's day: "reading books, going for walks", which none of her records hold)."""
    for record, what, least in ((job, "the work", 2), (usual, "the usual day", 3), (free_time, "the free time", 1)):
        skip = _FREE_WORDS if record is free_time else set()
        if record and (lost or len(stems(record, skip) & stems(text, skip)) < least):
            text, back.source = record, "record"
            back.fixes.append(f"told from the record: {what}")
    return text


def _heard(text: str, back: Backing, question: str, heard: str) -> str:
    """A gathering heard of in its own words, denied: said from those words (heardof.py)."""
    if heard and heard_of(question, text, heard):
        text, back.source = heard, "record"
        back.fixes.append("told from its own words: a gathering heard of")
    return text


def from_records(text: str, back: Backing, question: str, *, me: str, relationships: Mapping[str, str],
                 town: TownNames, now: datetime, talked: Sequence[str], asked: Sequence[Fact],
                 after_work: str = "", tomorrow: str = "", holds: Sequence[Fact] = (), usual: str = "",
                 at: tuple[str, str] | None = None, job: str = "", free_time: str = "", heard: str = "") -> str:
    """What the model's words denied or lost, said from the records: one it knows, who holds a role (all of
    them), whom it talked with today, the way, the gatherings asked of it (``back`` is told which)."""
    talks = asks_of_talks(question)
    who = person_asked(question, dict(relationships))
    if who is not None and (_WHO_IS_Q.search(question) or back.source == "rule" or UNKNOWING.search(text)):
        # asked who one it knows is (the model's words mixed others' in), or its words denied or lost them
        text, back.source = in_own_words(who, relationships[who]), "record"
        back.fixes.append(f"told from the record: {who}")
    declared = role_answer(question, town.roles, me)
    if declared is not None and (back.source == "rule" or UNKNOWING.search(text) or not all(
            (h == me and re.search(r"\b(?:I|I'm|me)\b", text)) or mentioned(text, [h])
            for h in role_holders(question, town.roles))):  # the town's roles are known, all of them
        text, back.source = declared, "record"
        back.fixes.append("told from the record: the town's roles")
    if talks and (back.source == "rule" or UNKNOWING.search(text) or not mentioned(text, talked)) and talked:
        text, back.source = talks_answer(talked), "record"  # whom it talked with, from its records
        back.fixes.append("told from the record: today's talks")
    lost = back.source == "rule" or UNKNOWING.search(text) is not None
    if lost and re.search(r"\blive with\b", question, re.I) and housemates_answer(me, town, relationships):
        text, back.source = housemates_answer(me, town, relationships), "record"
        back.fixes.append("told from the record: the home")
    day_after = now.date() + timedelta(days=1)  # tomorrow's gatherings it holds: an answer that leaves one out
    # (said as not to be: "I will not plan to invite anyone to Grace's surprise party", its host on a9a17c8's save)
    left_out = [f for f in holds if f.kind == "gathering" and f.day == day_after and not any(
        f.speaks_of(x) and not re.search(r"\b(?:not|n't|never)\b", x) for x in sentences(text))]
    if tomorrow and (lost or _NO_PLANS.search(text) or left_out or text.strip() in tomorrow) and _TOMORROW_Q.search(
            question):  # (only a piece of the record said back: "The rest of tomorrow is not planned yet.")
        text, back.source = tomorrow, "record"
        back.fixes.append("told from the record: tomorrow")
    text = _work_and_usual_day(text, back, lost, job, usual, free_time)
    if after_work and _AFTER_WORK_Q.search(question) and (lost or _TOMORROW_Q.search(text) or not set(
            clock_times(text)) <= set(clock_times(after_work))):  # (its hours are the plan's, of today)
        text, back.source = after_work, "record"
        back.fixes.append("told from the record: the plan after work")
    if at is not None:  # asked what it does at an hour
        text, planned = on_the_hour(text, at, lost, back.fixes, me, town.places)
        back.source = "record" if planned else back.source
    text = _office(text, back, question, me, town, lost)
    way = way_answer(text, question, town)
    if way is not None:  # the way to a place of the town: from the map
        text, back.source = way, "record"
        back.fixes.append("told from the map: the way")
    if back.source == "rule" and not asked and holds and text in _NOT_SURE and _OPEN_Q.search(question):
        f = holds[0]  # an open question ("What has been on your mind?") all dropped: what it knows is coming
        text, back.source = f"I've been thinking about this: {in_voice(f, me, now)}", "record"
        back.fixes.append(f"told from the record: {f.what}")
    text = text if asked else _heard(text, back, question, heard)
    if asked:  # those who know say so: what the model's words lost (or denied) is said from the records
        carried, told = carry(text if back.source == "model" else "", asked, me, now,
                              where_when=bool(re.search(r"\b(?:where|when)\b", question, re.I)))
        if told:
            back.fixes += told
            if back.source == "rule" or denies(text):
                back.source = "record"
            text = carried
    return text
