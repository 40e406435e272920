"""Times of day in an interview answer, held to what the resident holds (issue 39): a usual weekday
to the frame, tomorrow to tomorrow's frame and the gatherings, the rest to today's plan ("work from
7:00 to 10:15" of a usual day whose work is 07:00-15:00; "play the piano from 18:00 to 21:00
tomorrow", the party's hours).  Pure rules: no model, no state."""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace
from datetime import date

from game.mind.facts.fact import Fact
from game.mind.facts.unbacked import sentences
from game.mind.view import PlanBlock, hhmm

_TOMORROW_Q = re.compile(r"\btomorrow\b", re.I)
USUAL_Q = re.compile(r"\b(?:typical|usual|normal|ordinary)\s+(?:week)?day\b|\bbroad strokes\b", re.I)
_CLOCK = re.compile(r"\b(?:(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?|(\d{1,2}):(\d{2})\b|"
                    r"(noon|midday|midnight))", re.I)


def clock_times(text: str) -> list[int]:
    """The times of day ``text`` says, in minutes after midnight ("7:00 AM", "13:30 PM", "6pm", "18:00", "noon")."""
    out = []
    for m in _CLOCK.finditer(text):
        if m.group(6):
            out.append(0 if m.group(6).lower() == "midnight" else 12 * 60)
        elif m.group(1):
            h, mi = int(m.group(1)), int(m.group(2) or 0)
            if 1 <= h <= 12 and mi < 60:
                out.append((h % 12 + (12 if m.group(3).lower() == "p" else 0)) * 60 + mi)
            elif 12 < h < 24 and mi < 60 and m.group(2):  # "13:30 PM" (not "13pm")
                out.append(h * 60 + mi)
        elif int(m.group(4)) < 24 and int(m.group(5)) < 60:
            out.append(int(m.group(4)) * 60 + int(m.group(5)))
    return out


def time_asked(question: str) -> int | None:
    """Minutes after midnight of a time of day the question names ("6pm", "18:30", "noon"), or None."""
    times = clock_times(question)
    return times[0] if times else None


def usual_day_line(frame: Sequence[PlanBlock]) -> str:
    """A usual weekday by the resident's frame, in its own voice: waking, meals, work, bed."""
    if not frame:
        return ""
    parts = [f"I get up at {hhmm(frame[0].start)}"]
    work = [b for b in frame if b.kind == "work"]
    first_work = min((b.start for b in work), default=24 * 60)
    for b in frame:
        if b.kind == "meal":
            meal = re.sub(r"^having\s+", "", b.activity)
            parts.append(f"{meal} at {hhmm(b.start)}")
        if work and b.start == first_work:
            acts = "; ".join(dict.fromkeys(w.activity for w in work))
            parts.append(f"{acts} from {hhmm(first_work)} to {hhmm(max(w.end for w in work))}")
    parts.append(f"bed at {hhmm(frame[-1].end % (24 * 60))}")
    return f"On a usual weekday: {', '.join(parts)}."


def merged(blocks: Sequence[PlanBlock]) -> tuple[PlanBlock, ...]:
    """The plan as one reads it: a block cut in two is one ("work from 07:00 to 13:30", not "to 10:15")."""
    out: list[PlanBlock] = []
    for b in blocks:
        if out and out[-1].activity == b.activity and out[-1].end == b.start:
            out[-1] = replace(out[-1], end=b.end)
        else:
            out.append(b)
    return tuple(out)


def times_unbacked(answer: str, question: str, *, today: Sequence[PlanBlock], usual: Sequence[PlanBlock],
                   tomorrow: Sequence[PlanBlock], facts: Sequence[Fact], basis: str,
                   at: tuple[date, int] | None = None) -> list[str]:
    """The sentences of ``answer`` that say a time of day nothing it holds has: a usual weekday is
    held to the frame, tomorrow to tomorrow's frame and the gatherings, the rest to today's plan, the
    frame, the gatherings and any time its memories or the prompt say ("work from 7:00 to 10:15" of a
    usual day whose work is 07:00-15:00; "play the piano from 18:00 to 21:00 tomorrow").  ``at``: the plan
    day and minute it is asked at (``MindCore.day_and_minute``), where known."""
    day, minute = at if at is not None else (None, None)
    def ends(blocks: Sequence[PlanBlock]) -> set[int]:
        return {t for b in merged(blocks) for t in (b.start, b.end, b.end % (24 * 60))}
    gatherings = {t for f in facts if f.start is not None for t in (f.start, f.end or f.start)}
    if USUAL_Q.search(question):
        ok = ends(usual)
    elif _TOMORROW_Q.search(question):
        ok = ends(tomorrow) | gatherings
    else:
        ok = ends(today) | ends(usual) | gatherings | set(clock_times(basis))
    ok |= set(clock_times(question))
    entries = [(b.start, b.activity) for b in [*today, *usual, *tomorrow]] + [
        (f.start, f"{f.what} {f.host}") for f in facts if f.start is not None]
    plain = entries  # of today, a sentence that names no day: another day's gathering holds no hours
    if day is not None and not USUAL_Q.search(question) and not _TOMORROW_Q.search(question):
        # ("make decorations for the party from 18:00 to 21:00", the party being tomorrow)
        plain = [(b.start, b.activity) for b in [*today, *usual]] + [
            (f.start, f"{f.what} {f.host}" if f.day in (None, day) else "") for f in facts if f.start is not None]
    return [s for s in sentences(answer) if any(all(abs(t - k) > 10 for k in ok) for t in clock_times(s))
            or _misplaced(s, entries if _DAY_NAMED.search(s) else plain) or _same_time(s, entries)
            or _at_its_end(s, merged([*today, *usual, *tomorrow])) or _pasted(s, facts, today)
            or minute is not None and (_not_begun(s, today, minute) or _bed_elsewhen(s, today))]


_PLACE_WORDS = frozenset({"bluebell", "cafe", "town", "hall", "house", "park", "college", "market", "store"})
_ENDING = re.compile(r"\b(?:finish|end|until|till|leav|done|off\b|clos|stop|wrap|get home|back\b|home by)\w*", re.I)


def _at_its_end(sent: str, blocks: Sequence[PlanBlock]) -> bool:
    """A thing said to be "at" the hour its block ends, and no block of it starting then: Samuel's
    "I am planning to have breakfast at 8:00, ... have lunch at 14:00" (82f1ab1's day), each block's
    end said as its hour."""
    skip = _PLACE_WORDS | {"home", "planning", "plan"}
    for m in _CLOCK.finditer(sent):
        before = sent[:m.start()].rstrip()
        t = clock_times(m.group(0))
        if not t or not re.search(r"\bat$", before):
            continue
        clause = re.split(r",|\band\b|;", before[:-2])[-1]
        if _ENDING.search(clause):  # ("I finish work at 15:00": an end said as one)
            continue
        said = stems(clause, skip)
        of = [b for b in blocks if said & stems(b.activity, skip)]
        if of and any(abs(b.end - t[0]) <= 5 for b in of) and all(abs(b.start - t[0]) > 10 for b in of):
            return True
    return False


_SAME = re.compile(r"\b(?:at the same time|simultaneously|at that (?:same )?time)\b", re.I)


def _same_time(sent: str, entries: Sequence[tuple[int, str]]) -> bool:
    """Two things said to be at one time when one of them the sentence speaks of holds other hours:
    Samuel's "play the piano at Bluebell Cafe from 14:00 to 16:00, as I have arranged a surprise party
    for Grace's 60th birthday at the same time" (the party is 18:00-21:00; 82f1ab1's day)."""
    times = clock_times(sent)
    if not times or not _SAME.search(sent):
        return False
    skip = _PLACE_WORDS | {"home", "same", "time"}
    said = stems(sent, skip)
    held = [start for start, what in entries if what and len(said & stems(what, skip)) >= 2]
    return len(held) >= 2 and any(all(abs(t - start) > 10 for t in times) for start in held)


_DAY_NAMED = re.compile(r"\b(?:tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", re.I)


_RANGE = re.compile(r"\bfrom\s+(?P<a>[\d:]+\s*(?:[ap]\.?\s?m\b\.?)?)\s+(?:to|until|till)\b", re.I)
_PLAIN = {"plan", "plans", "will", "have", "from", "with", "that", "this", "today", "tomorrow", "also", "then",
          "going", "until", "there", "their", "about", "would", "what", "when", "where", "which", "some"}


def stems(text: str, skip: AbstractSet[str], n: int = 4) -> set[str]:
    """What ``text`` is about, as the first ``n`` letters of each word of four or more, less the
    words any sentence has and ``skip``."""
    return {w[:n] for w in re.findall(r"[a-z]+", text.lower()) if len(w) >= 4 and w not in _PLAIN and w not in skip}


def _misplaced(sent: str, entries: Sequence[tuple[int, str]]) -> bool:
    """A range of hours said for what holds other hours: "play the piano from 18:00 to 21:00", the
    hours of the party (what comes before "from", back to the last comma, shares no word with what
    those hours are held for)."""
    for m in _RANGE.finditer(sent):
        start = clock_times(m.group("a"))
        if not start:
            continue
        held = [what for t, what in entries if abs(t - start[0]) <= 10]
        said = re.split(r"[,;:]", sent[:m.start()])[-1]
        if held and stems(said, _PLACE_WORDS) and not any(stems(said, _PLACE_WORDS) & stems(h, _PLACE_WORDS)
                                                          for h in held):
            return True
    return False



_PLAN_LINE = re.compile(r"\b(?P<a>\d{1,2}:\d{2})\s*(?:-|\u2013|to)\s*\d{1,2}:\d{2}\s+(?P<after>[a-z][a-z' ]*)")
_EVENT = re.compile(r"\b(?:fair|party|quiz|debate|meeting|festival|concert|gathering|event|celebration|sale|show|"
                    r"opening|reading|recital|dinner party|picnic|ceremony)\b", re.I)


def _pasted(sent: str, facts: Sequence[Fact], blocks: Sequence[PlanBlock]) -> bool:
    """A line of the speaker's own plan, hours and words, said as the hours of a gathering: Kenji's "The book
    fair is scheduled for Monday March 2, 2026, from 06:30-07:00 getting up and ready for the day" (his first
    block; a0d10dc's day).  The gathering is one it holds or one a word names ("fair"), and shares no word
    with the line."""
    for m in _PLAN_LINE.finditer(sent):
        t = clock_times(m.group("a"))[0]
        after = stems(m.group("after"), _PLACE_WORDS)
        own = [b for b in blocks if abs(b.start - t) <= 10 and after & stems(b.activity, _PLACE_WORDS)]
        said = stems(sent[:m.start()], _PLACE_WORDS)
        event = _EVENT.search(sent[:m.start()]) or any(said & stems(f.what, _PLACE_WORDS) for f in facts)
        if own and event and not any(said & stems(b.activity, _PLACE_WORDS) for b in own):
            return True
    return False


_BEEN = re.compile(r"\bI(?:'ve|\u2019ve| have) been (?P<what>[a-z]+ing\b[^.;!?]*?)\s+(?:for (?:the )?(?:last|past) "
                   r"(?:few |couple of |\w+ )?hours?|all (?:morning|day)|since (?:early )?(?:this )?morning)", re.I)


_WAS = re.compile(r"\bI was (?:busy |just |already |still )?(?P<what>(?!(?:thinking|planning|hoping|wondering|looking|"
                  r"getting|preparing|going|expecting|waiting|about)\b)[a-z]+ing\b[^.;!?,]*)", re.I)
_PAST_AT = re.compile(r"\bI (?:also |then )?(?:woke|got|went|had|ate|started|began|left|arrived|came|finished|"
                      r"returned|headed|walked|slept|closed|opened|cooked)\b[^.;!?]*?\bat "
                      rf"(?P<t>{_CLOCK.pattern})", re.I)  # (a time as ``clock_times`` reads it)
_DID = re.compile(r"\b(?P<who>I|and) (?:also |then |just |already |finally )?(?:had|ate|took|finished|cooked|did|"
                  r"(?:went|returned|headed|got|came) (?:back )?(?:home )?(?:to|for))\s+(?:my |a |an |the |some )?"
                  r"(?P<what>(?!(?:to|been|planned|decided|wanted|hoped|agreed|promised|arranged|meant)\b)[a-z]+"
                  r"(?: [a-z]+){0,3}?)(?=\s+(?:at|in|on|with|and|before|after|then|to|for|because|so|while|"
                  r"together|behind|near|inside|by|from|until|till|as|where|which)\b|[.;!?,]|$)", re.I)
_ROOMS = frozenset({"kitchen", "bedroom", "bathroom", "living", "room", "home", "garden", "office"})
_OTHER_DAY = re.compile(r"\b(?:yesterday|last (?:night|week|month|year|spring|summer|autumn|winter)|"
                        r"on (?:mon|tues|wednes|thurs|fri|satur|sun)day|as a (?:child|girl|boy)|years? ago|used to|"
                        r"when I was)\b", re.I)


def begun_said(sent: str, today: Sequence[PlanBlock], minute: int) -> str:
    """Why a talk's line says a block of its speaker's day as done before it begins, else "": Felix at 07:44,
    "I've been working at the grocery store" (his shift is 09:00-14:00; a dawn of 0e42de2)."""
    return "a part of the day said as done before it begins" if _not_begun(sent, merged(today), minute) else ""


def _not_begun(sent: str, today: Sequence[PlanBlock], minute: int) -> bool:
    """A block of the day said as done before it begins, at ``minute`` of the day: Hank at 06:20, "I have been
    working behind the counter of the supply store for the last few hours" (it opens at 08:00; the stove run
    of 5326750); Rosa, "I was busy working behind the counter at Bluebell Cafe" and "I was painting in the
    evening" (from 07:00, and at 19:00); Samuel, "I woke up at 7:00 AM" (the stove run of 635d79d); Ines,
    "I also had lunch at the cafe" and "I returned home to bed at 9:00 PM" (the stove run of f1cc8e8).  Not
    what another day holds ("yesterday", "as a child"), nor what was in mind ("I was planning to ...")."""
    if _OTHER_DAY.search(sent):
        return False
    mine = re.match(r"\W*I\b", sent) is not None  # ("... and then went to work": of a sentence of "I")
    for m in [*_BEEN.finditer(sent), *_WAS.finditer(sent),
              *(d for d in _DID.finditer(sent) if d.group("who") == "I" or mine)]:
        said = stems(m.group("what"), _PLACE_WORDS | _ROOMS)
        of = [b for b in today if said & stems(b.activity, _PLACE_WORDS)]
        if of and all(b.start > minute + 10 for b in of):
            return True
    return any(t > minute + 10 for m in _PAST_AT.finditer(sent) for t in clock_times(m.group("t")))


_BED_AT = re.compile(r"\b(?:go(?:ing)? to (?:bed|sleep)|bed ?time is|turn in)\b[^.;!?]*?\bat (?P<t>"
                     + _CLOCK.pattern + ")", re.I)


def _bed_elsewhen(sent: str, today: Sequence[PlanBlock]) -> bool:
    """Tonight's bed time said at another hour than the day's bed line (Rosa at 22:00 on 487f002's save, "I will
    go to bed at 21:23 tonight": a block of relaxing begins then, her bed line at 22:30)."""
    beds = [t for b in today if b.kind == "bed" for t in (b.start, b.end)]
    m = _BED_AT.search(sent)
    return bool(m and beds and not _OTHER_DAY.search(sent)
                and any(all(abs(t - k) > 10 for k in beds) for t in clock_times(m.group("t"))))

