"""The check of a filled-in day against its frame and the town (issue 38), before a single step is
lived: at most one of each meal, no line repeated to fill time, work at the resident's own place in
its hours (unless the line says why not), no waking up or going to sleep in the middle of the day,
only places the town has, plain words of the day.  What fails is asked again once with the
problems named (dayfill.py); what still fails is mended by rule (dayoptions.fallbacks) and counted.

Pure functions of the frame and the answer: no model, no state.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from game.mind.facts.hours import stems
from game.mind.planning.dayframe import INSTEAD, Slot
from game.mind.view import hhmm

MEALS = ("breakfast", "brunch", "lunch", "dinner", "supper")
MEAL_HOURS = {"breakfast": (4 * 60, 12 * 60), "brunch": (9 * 60, 14 * 60), "lunch": (10 * 60 + 30, 16 * 60),
              "dinner": (15 * 60, 26 * 60), "supper": (16 * 60, 26 * 60)}  # when a line may speak of each
_MEAL_WORD = re.compile(r"\b(breakfast|brunch|lunch|dinner|supper)\b", re.I)
# a meal made, served or planned for others is not one eaten
_NOT_EATEN = re.compile(r"\b(serv\w*|cook\w*|prepar\w*|mak\w*|plan\w*|bak\w*|shop\w*|buy\w*|order\w*|"
                        r"set\w* up|deliver\w*|clear\w*|clean\w*)\b[^,;.]{0,25}$", re.I)
WAKE = re.compile(r"\b(wake|wakes|waking|woke|get(?:s|ting)? up|out of bed|alarm)\b", re.I)
SLEEP = re.compile(r"\b(sleep|sleeps|sleeping|asleep|go(?:es|ing)? to bed|ready for bed|bedtime|turn(?:s|ing)? in)\b",
                    re.I)
_IDLE = re.compile(r"^\W*(?:(?:take|taking|takes|have|having) a (?:break|rest|nap)|relax\w*|rest\w*|do(?:ing)? nothing|"
                   r"nothing|skip\w*|free time)\W*$", re.I)
_NAP = re.compile(r"\bnap", re.I)
_GARBLED = re.compile(r"[\u0400-\u04ff\u0600-\u06ff\u0900-\u097f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_THE = re.compile(r"^\s*(?:at|in|to)?\s*(?:the\s+)?", re.I)
CLOCK = re.compile(r"\d\s*(?:am|pm)\b|\b\d{1,2}:\d{2}\b", re.I)
_WORD = re.compile(r"[a-z0-9]+")
_T = r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm)?|\bnoon|\bmidnight"
_HOURS = re.compile(rf"\s*\b(?:(?:from|at|until|till|by|around|between|before|after)\s+)?(?:{_T})"
                    rf"(?:\s*(?:to|-|\u2013|and|until|till)\s*(?:{_T}))?(?=\W|$)", re.I)
# a line that stops on a word that needs another ("open the store at"), or speaks the prompt's words
_DANGLING = re.compile(r"\b(?:at|from|to|in|on|until|till|by|the|a|an|and|with|of|for)\W*$"
                       r"|\b(?:at|from|to|until|till|by|around)\s+[a-z]{1,2}\W*$|^\W*(?:yes|no|sure|ok|okay)\b", re.I)
# a place the line's work is for or goes to, not where it happens: "bake bread to sell to Bluebell
# Cafe", "write a letter for Town Hall"
_FOR_PLACE = re.compile(r"\b(?:for|(?:sell\w*|deliver\w*|bring\w*|send\w*|giv\w*|offer\w*|"
                        r"show\w*|pitch\w*|talk\w*|speak\w*|writ\w*|call\w*|email\w*)\b[^,;.]{0,30}\bto)\b", re.I)
_HOME = re.compile(r"\b(?:at|from|stay\w*|back) home\b", re.I)
_MARKER = re.compile(r"\.[a-z]+[A-Z]\w*|\b[a-z]+[A-Z][a-z]+|\b(?:[Ll]abel|[Ss]pecified|[Nn]ot mentioned|[Nn]ot given|"
                     r"[Nn]ot stated|the text|the prompt|n/a)\b")  # "at .startTime", "oftakingClasses"


def meals_eaten(text: str) -> list[str]:
    """The meals a line says the resident eats ("lunch with Samuel": lunch; "serve breakfast": none)."""
    out = []
    for m in _MEAL_WORD.finditer(text or ""):
        if not _NOT_EATEN.search(text[:m.start()]):
            w = m.group(1).lower()
            out.append("dinner" if w == "supper" else "lunch" if w == "brunch" else w)
    return out


def line_key(text: str) -> str:
    return " ".join(_WORD.findall((text or "").lower()))


_COMMON = {"today", "tomorrow", "start", "must", "next", "have", "decided", "with", "that", "this", "will", "from",
           "about", "some", "time", "going", "want", "need", "make", "into", "instead", "because", "their"}


def acts_on(line: str, news: str) -> bool:
    """Whether a line of the day speaks of the new thought ("instead, start my campaign", of "I
    have decided to run for mayor ... my campaign")."""
    return bool(news) and bool(stems(line, _COMMON, 5) & stems(news, _COMMON, 5))


@dataclass(frozen=True)
class Problem:
    line: int  # 0-based index into the frame
    what: str  # said to the model and kept beside the plan: "the 17:00 line has lunch, but lunch is the 12:30 line"
    kind: str = ""  # for the counts: empty, meal, wake, sleep, work, free, example, lacks, repeat


def check_day(slots: Sequence[Slot], lines: Sequence[str], *, named: Callable[[str], str | None] | None = None,
              lacks: Callable[[str], list[str]] | None = None, echo: Sequence[str] = (),
              fixed: set[int] | None = None, places: set[str] | None = None,
              leisure: Sequence[str] = (), own: Sequence[str] = (), news: str = "") -> list[Problem]:
    """What is wrong with ``lines`` (the model's words, one for each slot) as a day.  ``named``: the
    area of the town a line names, if any (to see work elsewhere); ``lacks``: the kinds of place a
    line names that the town has none of ("bank", "train station"); ``echo``: the prompt's example
    lines, which a line may not copy; ``fixed``: the lines that are the frame's own words (a line
    that repeats one is the other's problem); ``places``: the town's place names (as ``_key`` reads
    them), which alone are no line; ``leisure``: the free-time choices, which are no work line.
    ``news``: a replan's new thought; a line skipped "instead" to act on it has its reason.
    Each problem names its line by its hour ("the 17:00
    line")."""
    out: list[Problem] = []
    meal_line = {s.label: i for i, s in enumerate(slots) if s.kind == "meal"}
    home = next((s.place for s in slots if s.kind in ("wake", "bed") and s.place), "")
    copied = {line_key(e) for e in echo}
    allowed = {line_key(o) for o in (*own, *(s.label for s in slots))}  # words a line may say, whoever says them
    seen: dict[str, int] = {}

    def at(i: int) -> str:
        return f"the {hhmm(slots[i].start)} line"

    for i, (s, text) in enumerate(zip(slots, lines)):
        text = text or ""
        k = line_key(text)
        if not k:
            out.append(Problem(i, f"{at(i)} is empty", "empty"))
            continue
        moved = s.kind in ("work", "free", "meal") and (
            (bool(INSTEAD.match(text)) and len(k.split()) >= 4)
            or (re.match(r"^\W*instead\b", text, re.I) is not None and acts_on(text, news)))
        for meal in meals_eaten(text):
            if s.kind == "meal" and meal == s.label:
                continue
            if meal in meal_line:  # (moved or not: the day's meal has its own line)
                out.append(Problem(i, f"{at(i)} has {meal}, but {meal} is {at(meal_line[meal])}", "meal"))
                break
        if s.kind != "wake" and WAKE.search(text):
            out.append(Problem(i, f"{at(i)} wakes up, but the day starts at {at(0)}", "wake"))
        if s.kind != "bed" and SLEEP.search(text) and not (_NAP.search(text) and s.kind == "free"):
            out.append(Problem(i, f"{at(i)} goes to sleep, but bed is {at(len(slots) - 1)}", "sleep"))
        work = _work_wording(s, text, moved, named, home, leisure)  # (in the order the problems are told)
        out += [Problem(i, f"{at(i)} {what}", kind) for what, kind in work if kind == "work"]
        out += [Problem(i, f"{at(i)} {what}", kind) for what, kind in _wording(s, text, copied, places, allowed)]
        out += [Problem(i, f"{at(i)} {what}", "work") for what, kind in work if kind == "task"]
        if lacks is not None:
            for kind in lacks(text):
                out.append(Problem(i, f"{at(i)} names a {kind}, which the town does not have", "lacks"))
        # a shift's parts may say the same, unless moved: one errand does not fill a shift ("instead,
        # call Grace Okafor because ..." for both parts of Aiko's library day, after a whisper)
        if k in seen and not (s.kind == "work" and slots[seen[k]].kind == "work" and slots[seen[k]].label == s.label
                              and not moved):
            if fixed and i in fixed:  # the earlier line, the model's, repeats the frame's own
                out.append(Problem(seen[k], f"{at(seen[k])} repeats {at(i)}", "repeat"))
            else:
                out.append(Problem(i, f"{at(i)} repeats {at(seen[k])}", "repeat"))
        seen.setdefault(k, i)
    return out


def _work_wording(s: Slot, text: str, moved: bool, named: Callable[[str], str | None] | None, home: str,
                  leisure: Sequence[str]) -> list[tuple[str, str]]:
    """What is wrong with a work (or meal) line, as (what, kind): skipped with no reason, at another
    place ("work"); after its comma no task of the day, a free time choice ("task": counted as work,
    told after the wording's problems)."""
    out = []
    if s.kind in ("work", "meal") and not moved and re.match(r"^\W*instead\b", text, re.I):
        out.append((f"skips {s.label} without saying why (say 'because ...')", "work"))
    if s.kind != "work":
        return out
    today = after_label(s, text)  # a work line's own words said are no problem of the model's
    if s.place and not moved:
        there = named(_FOR_PLACE.split(today, 1)[0]) if named is not None else None
        if there is None and _HOME.search(today) and not same_area(home, s.place):  # (one who works at home)
            there = "home"
        if there and not same_area(there, s.place):
            out.append((f"is at {there.split(':')[0]} during {s.label} at {s.place.split(':')[0]} (begin it with "
                        f"'instead,' and say why, or stay at work)", "work"))
    if today and today is not text and not moved and _NOT_A_TASK.match(today):
        out.append(("has after its comma no task of the day (write only its own words, or a task after them)", "task"))
    if today and any(f" {line_key(c)} " in f" {line_key(today)} " for c in leisure):
        out.append((f"is {s.label} but is a free time choice", "task"))
    return out


def after_label(s: Slot, text: str) -> str:
    """What a work line says of today past its shift's own words ("run the pub, pulling pints for
    the quiz" -> "pulling pints for the quiz"); the line itself (the same object) otherwise."""
    if s.kind == "work" and line_key(text) == line_key(s.label):
        return ""
    if s.kind == "work" and text.lower().startswith(s.label.lower() + ","):
        return text[len(s.label):].lstrip(" ,;:-") or text
    return text


# what follows a work line's comma that is no work of the day: a place, a reason, a time, a pronoun
# ("at Oakhill College library", "as it is his main occupation", "which he loves")
_NOT_A_TASK = re.compile(r"^\W*(?:at|in|on|as|because|since|while|so|and|but|or|which|where|when|who|it|its|"
                         r"he|she|they|his|her|their|this|that|there|then|today|now|all|every|each|during|"
                         r"until|till|from|by|the same|as usual|usual|again)\b", re.I)


def _wording(s: Slot, text: str, copied: set[str], places: set[str] | None,
             allowed: set[str] | frozenset[str] = frozenset()) -> list[tuple[str, str]]:
    """What is wrong with a line's words themselves, as (what, kind): garbled, a place alone, another
    meal at a meal, an hour given, no work at work, "free time" said back, the example copied."""
    out = []
    if _GARBLED.search(text) or "(at " in text:
        out.append(("is not plain words of the day", "garbled"))
    if places is not None and line_key(_THE.sub("", text)) in places:
        out.append(("names only a place", "place"))
    if s.kind == "meal" and any(m != s.label for m in _MEAL_WORD.findall(text.lower())):
        out.append((f"is {s.label} but speaks of another meal", "meal"))
    for m in _MEAL_WORD.findall(text.lower()):
        a, b = MEAL_HOURS.get(m.lower(), (0, 30 * 60))
        if not a <= s.start < b:  # "serve breakfast" at 17:00: the words of another shift
            out.append((f"speaks of {m.lower()} at {hhmm(s.start)}", "hour"))
            break
    if CLOCK.search(text):
        out.append(("gives an hour: the frame has the hours", "hour"))
    if _DANGLING.search(text) or _MARKER.search(text):
        out.append(("is cut off or not plain words of the day", "garbled"))
    if s.kind == "work" and _IDLE.match(text):
        out.append((f"is {s.label} but does no work", "work"))
    if "free time" in text.lower():
        out.append(("says only 'free time'" if s.kind == "free" else "says 'free time'", "free"))
    if line_key(text) in copied or _shares_run(line_key(text), copied, allowed=allowed):
        out.append(("copies the example", "example"))
    return out


def _shares_run(key: str, texts: set[str], n: int = 5, allowed: set[str] | frozenset[str] = frozenset()) -> bool:
    """Whether ``key`` has ``n`` words in a row of one of ``texts`` (the prompt's words said back:
    "of being at home during study at the college library" from a problem named to it; the
    resident's story copied) that none of ``allowed`` has (its wants and the frame's labels, which
    a line may say whatever else says them too)."""
    words = key.split()
    runs = {" ".join(words[i:i + n]) for i in range(len(words) - n + 1)}
    runs = {r for r in runs if not any(f" {r} " in f" {a} " for a in allowed)}
    return bool(runs) and any(f" {r} " in f" {t} " for t in texts if len(t.split()) >= n for r in runs)


def without_hours(text: str) -> str:
    """A daily requirement less its hours ("work at the pharmacy counter from 8am to 5pm" -> "work
    at the pharmacy counter"): shown in the plan prompt, whose frame has the hours, so that the
    model does not copy them into a line."""
    return re.sub(r"\s+", " ", _HOURS.sub("", text)).strip(" ,")


def same_area(a: str, b: str) -> bool:
    return a.split(":")[0] == b.split(":")[0]


@dataclass(frozen=True)
class Checked:
    """A day read against its frame: the lines kept, the problems of each reading, what was mended."""

    lines: tuple[str, ...]
    first: tuple[Problem, ...]  # the first answer's problems
    again: tuple[Problem, ...] | None  # the second answer's, when asked again
    mended: tuple[int, ...]  # lines whose words are the frame's (no answer's line passed)

    def notes(self) -> tuple[str, ...]:
        out = [f"first answer: {p.what}" for p in self.first]
        if self.again is not None:
            out += [f"asked again: {p.what}" for p in self.again]
        out += [f"line {i + 1} mended by rule ({self.lines[i]!r})" for i in self.mended]
        return tuple(out)


def merge(slots: Sequence[Slot], first: Sequence[str], first_problems: Sequence[Problem],
          again: Sequence[str] | None, again_problems: Sequence[Problem] | None,
          fallback: Sequence[str] | None = None) -> Checked:
    """Each line from the first answer if it passed, else the second's if it passed, else
    ``fallback``'s (default: the frame's own words): the line is mended, and counted."""
    bad1 = {p.line for p in first_problems}
    bad2 = {p.line for p in again_problems or ()} if again is not None else set(range(len(slots)))
    lines, mended = [], []
    for i, s in enumerate(slots):
        if i not in bad1 and i < len(first):
            lines.append(first[i])
        elif again is not None and i not in bad2 and i < len(again):
            lines.append(again[i])
        else:
            lines.append(fallback[i] if fallback is not None else s.default())
            mended.append(i)
    asked = tuple(again_problems or ()) if again is not None else None
    return Checked(tuple(lines), tuple(first_problems), asked, tuple(mended))


