"""A talk line held to the moment it is said at (issue 39): a greeting of the wrong part of the
day made right, no other weekday said to be today, no meal now out of its hours; and what cannot
be so as said at all (the one spoken to doing something with itself, a sentence said twice).
factcheck.vet_line applies them to every resident's line."""

from __future__ import annotations

import re
from datetime import datetime

from game.mind.facts.unbacked import sentences
from game.mind.facts.when import WEEKDAYS

# a meal spoken of as now or just done ("I just finished breakfast", "I'm starting my day with
# breakfast", "having lunch right now", "I'm here to serve you lunch" at 19:45 on 356ade6's day): the
# hours each may be now, in minutes of the day
_MEAL_NOW = re.compile(r"\b(?:just (?:had|finished|ate|eaten)|(?:starting|start) my day with|(?:getting )?started with|"
                       r"(?:I'm|I am|we're) "
                       r"(?:having|eating|finishing|making|cooking|here to serve(?: you)?|serving(?: you)?)"
                       r"|(?:had|finished) my"
                       # "I'm here at Bluebell Cafe for breakfast" (Rosa at 14:16 on 487f002's day)
                       r"|(?:I'm|I am|we're) here(?: at (?:the )?[A-Z][\w'’&]*(?: [A-Z][\w'’&]*){0,3})? for)\s+"
                       r"(?:my |a |some |a quick |an early "
                       r"|a late )?(?P<meal>breakfast|lunch|dinner|supper)\b", re.I)
_MEAL_HOURS = {"breakfast": (4 * 60, 11 * 60), "lunch": (11 * 60, 15 * 60 + 30), "dinner": (16 * 60 + 30, 23 * 60 + 59),
               "supper": (16 * 60 + 30, 23 * 60 + 59)}


_LATER = re.compile(r"\b(?:tomorrow|tonight|later|next|soon|at (?:noon|\d)|this (?:evening|afternoon)|on (?:monday|"
                    r"tuesday|wednesday|thursday|friday|saturday|sunday)|yesterday|usually|every)\b", re.I)


def meal_out_of_hours(sent: str, now: datetime) -> str:
    """Why ``sent`` has a meal now that is not of this hour ("I just finished breakfast" at 14:44), else ""."""
    m = _MEAL_NOW.search(sent)
    if m is None or _LATER.search(sent):
        return ""
    lo, hi = _MEAL_HOURS[m.group("meal").lower()]
    minute = now.hour * 60 + now.minute
    return "" if lo <= minute <= hi else f"{m.group('meal').lower()} at {now:%H:%M}"


# a part of the day still to come that has gone ("I'll make sure to be there on time this morning", Grace at 19:17
# on 82f1ab1's day)
_YET = re.compile(r"\b(?:I'll|I will|we'll|we will|you'll|you will|(?:I'm|I am|we're|you're) going to|let's)\b"
                  r"[^.!?]*?\bthis (?P<part>morning|afternoon)\b", re.I)


def part_of_day_gone(sent: str, now: datetime) -> str:
    """Why ``sent`` puts something still to come in a part of today that is over, else ""."""
    m = _YET.search(sent)
    if m is None:
        return ""
    over = now.hour >= 12 if m.group("part").lower() == "morning" else now.hour >= 17
    return f"this {m.group('part').lower()} is over at {now:%H:%M}" if over else ""


# today's weekday said as one to come ("We have to get everything ready by Monday", Rosa on a Monday, 487f002's day;
# the party was Tuesday's): "next Monday" is a week on, and "on Monday" may be today
_BY_DAY = re.compile(r"\b(?:by|until|till|before|this coming)\s+(?P<d>" + "|".join(WEEKDAYS) + r")\b", re.I)


def today_to_come(sent: str, now: datetime) -> str:
    """Why ``sent`` says today's weekday as a day still to come, else ""."""
    today = WEEKDAYS[now.weekday()]
    m = next((m for m in _BY_DAY.finditer(sent) if m.group("d").lower() == today), None)
    return f"{today.capitalize()} is today" if m else ""


_SELF_WITH_SELF = re.compile(r"\byou(?:'re| are| were)?\s+(?:\w+ing)\s+(?:\w+\s+){0,2}?with you\b", re.I)


def drop_nonsense(text: str, now: datetime, fixes: list[str]) -> str:
    """``text`` without the sentences that cannot be so as said: a meal now out of its hours, a part
    of today that is over or today's weekday as one to come, the one spoken to doing something with
    itself ("you're talking with you", once "with Felix" said to Felix), a sentence said twice in one
    line."""
    kept: list[str] = []
    for sent in sentences(text) or [text]:
        why = meal_out_of_hours(sent, now) or part_of_day_gone(sent, now) or today_to_come(sent, now) or (
            "the listener with itself" if _SELF_WITH_SELF.search(sent) else "")
        if why:
            fixes.append(f"not so: {why}")
        elif sent.strip().lower() in (k.strip().lower() for k in kept):
            fixes.append("a sentence said twice")
        else:
            kept.append(sent)
    return " ".join(kept) if kept != (sentences(text) or [text]) else text


# "Good morning", and a bare "Morning, Marcus." opening a line (Rosa's at 13:13 on b5e348b)
_GREETING = re.compile(r"\b(good\s+)(morning|afternoon|evening)\b|^(\W*)(morning|afternoon|evening)(?=\s*[,!.])"
                       # "How are you this morning?" (Rosa to Eli at 21:00 on 487f002's day)
                       r"|\b(how are you(?: doing| feeling)? this\s+)(morning|afternoon|evening)\b", re.I)


def fix_greeting(text: str, now: datetime, fixes: list[str]) -> str:
    """A greeting of the wrong part of the day made right ("Good morning, Priya!" at 15:00 ->
    "Good afternoon"): before noon morning, to 17:00 afternoon, then evening."""
    right = "morning" if now.hour < 12 else "afternoon" if now.hour < 17 else "evening"

    def sub(m: re.Match) -> str:
        lead, said = next((m.group(i), m.group(i + 1)) for i in (1, 3, 5) if m.group(i + 1))
        if said.lower() == right:
            return m.group(0)
        fixes.append(f"greeting {said.lower()} -> {right}")
        return lead + (right.capitalize() if said[0].isupper() else right)
    return _GREETING.sub(sub, text)


_TODAY_IS = re.compile(r"\b(?:it's|it is|today is|today's)\s+(?:a\s+)?(?P<d>" + "|".join(WEEKDAYS) + r")\b", re.I)


def drop_wrong_today(text: str, now: datetime, fixes: list[str]) -> str:
    """The line without its sentences that say today is another day of the week ("It's Saturday,
    you know?", said on a Monday); a line left with nothing is not said."""
    today = WEEKDAYS[now.weekday()]
    parts = sentences(text) or [text]
    kept = [s for s in parts if not any(m.group("d").lower() != today for m in _TODAY_IS.finditer(s))]
    if len(kept) < len(parts):
        fixes.append(f"today is {today.capitalize()}")
    return " ".join(kept)
