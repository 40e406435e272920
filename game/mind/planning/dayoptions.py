"""What a free hour of a resident's day may hold (issue 38): the choices the model picks from for
each free-time line of its day plan, built from what the town knows of the resident, and the
shape the server's grammar gives a work line.

A 1.5B model asked to write a free hour in its own words repeated its last line, ate a fourth
meal, went to bed at seven, or copied a line of its relationships ("Kenji always seems to know
more than he says"): two plans in twelve passed the check on the first answer.  Picking among
things the resident means to do (its daily requirements), people it knows, places it knows and
plain spare time, each one that fits the hour and passes the check alone, leaves it only the
choice: which, and in what order.  The choice is the model's (a line it chose counts as model-led);
the words are the residents file's or these templates'.

Pure functions of the persona, the slot and the town's names: no model, no state.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from game.mind.persona import Persona
from game.mind.planning.daycheck import CLOCK, MEAL_HOURS, SLEEP, WAKE, Problem, line_key, meals_eaten
from game.mind.planning.dayframe import Slot, shifts_of
from game.mind.schemas import clean_text

# a work line in the model's words: two to twelve words of plain letters, no hours (the frame has
# them).  Words and what is between them are told apart by their letters alone: a pattern whose
# spaces could be read two ways ("[A-Za-z ,]{6,63} [A-Za-z]{3,15}") held a server's slot for
# minutes on one line (llama.cpp followed every reading at once).  A line cut off where the hour
# would be ("open the store at o") is the check's to find.
WORK_PATTERN = r"^[A-Za-z]+(?:[ ,'&-]+[A-Za-z]+){1,11}$"
# what it does there today: two to ten words.  (Held to begin with an -ing word, the 1.5B model
# ran on in letters to the end of its tokens on ten first answers in twelve; what the ending may
# not be, "at Oakhill College library", "as it is his main occupation", is the check's to find.)
_TODAY = r"[A-Za-z]+(?:[ ,'&-]+[A-Za-z]+){1,9}"
# "instead, ..." and its reason: up to sixteen words (ten cut reasons off: "instead, take the day off
# to help Samuel decorate Bluebell Cafe for" ...)
_INSTEAD = r"[A-Za-z]+(?:[ ,'&-]+[A-Za-z]+){1,15}"


def work_pattern(label: str) -> str:
    """The shape of a work line: the shift's own words, then, if the model has one, a comma and what
    the resident works on today in the model's words ("run the pub, the questions for the Monday
    quiz"); or "instead, ..." with a reason (the check reads the reason).  Anchored to the shift, a
    work line cannot turn into another line's choice, the prompt's words or "free time", as it did on
    one first answer in three when the line was the model's words alone.  A shift's own words are
    the paper's line too ("work at the pharmacy from 8 to 5"): the 5-15 minute steps of each hour
    are the model's (decompose.txt)."""
    words = " ".join(re.findall(r"[A-Za-z0-9']+(?:[&-][A-Za-z0-9']+)*", label))
    if not words:
        return WORK_PATTERN
    return rf"^(?:{words}(?:, {_TODAY})?|instead, {_INSTEAD})$"
_HOUSE = re.compile(r"\b(house|home|dorm\w*|apartment\w*|room|bedroom|flat)\b", re.I)
_WALK = re.compile(r"\b(park|garden|green|square|woods?|beach|river|lake)\b", re.I)
_READ = re.compile(r"\b(library|bookshop|bookstore)\b", re.I)
MAX_PEOPLE = 4
VISIT = "catch up with"  # a free hour with someone the resident knows
OUTINGS = (VISIT, "some time at ", "a walk ", "reading at ")  # the choices that go out (not "at home")
OUT_HOURS = (7 * 60, 22 * 60)
MAX_PLACES = 4
_PART_OF_DAY = (("morning", 0, 12 * 60), ("afternoon", 12 * 60, 17 * 60), ("evening", 17 * 60, 30 * 60),
                ("night", 19 * 60, 30 * 60))


def meal_words(persona: Persona, meal: str) -> str:
    """A daily requirement that is this meal ("have dinner with Samuel"), else ""."""
    for w in (d.strip() for d in re.split(r";", persona.daily or "")):
        if meals_eaten(w) == [meal] and not CLOCK.search(w):
            return clean_text(w, 80)
    return ""


def _place_choice(place: str) -> str:
    if _WALK.search(place):
        return f"a walk in {place}"
    if _READ.search(place):
        return f"reading at {place}"
    return f"some time at {place}"


def free_choices(persona: Persona, places: Sequence[str] = (),
                 lacks: Callable[[str], list[str]] | None = None) -> list[str]:
    """Everything a free line of this resident's day may be, in order: its own daily requirements,
    time with the people it knows, the places it knows (not houses, not its home or work), then
    plain spare time; none of them a meal, waking, sleep, an hour or a place the town lacks."""
    mine = {persona.home.split(":")[0], persona.workplace.split(":")[0]}
    people = [f"{VISIT} {name}" for name in list(persona.relationships)[:MAX_PEOPLE]]
    spots = [_place_choice(p) for p in places if p and p not in mine and not _HOUSE.search(p)][:MAX_PLACES]
    out: list[str] = []
    seen: set[str] = set()
    for text in wants_of(persona) + people + spots + list(SPARE_TIME):
        text = clean_text(text, 80)
        k = line_key(text)
        if not k or k in seen or meals_eaten(text) or SLEEP.search(text) or WAKE.search(text):
            continue
        if lacks is not None and lacks(text):
            continue
        seen.add(k)
        out.append(text)
    return out


OpenAt = Callable[[str, int, int], bool]  # whether a place is open (a person free) from a minute to another
VISIT_MAX = 120  # a call on someone longer than this is not a free hour anyone lives (Eli's 16:30-19:30)
# nor time at a place or a walk (2c4c6ac's day: Marcus 2 h 15 at Brody's Supply Store, Samuel 3 h at Town Hall)
OUTING_MAX = 120
_TIMED_OUTINGS = ("some time at ", "a walk ")


_WITH = re.compile(r"\bwith (?P<who>[A-Z][a-z]+ [A-Z][a-z]+)\b")


def fits(text: str, slot: Slot, open_at: OpenAt | None = None, free_at: OpenAt | None = None) -> bool:
    """Whether a choice fits a free line: its part of the day and meals (``fits_hour``), a call on
    someone not longer than ``VISIT_MAX`` nor while they work (``free_at``), and time at a place
    only while someone works there (``open_at``)."""
    if not fits_hour(text, slot.start):
        return False
    if text.startswith(_TIMED_OUTINGS) and slot.end - slot.start > OUTING_MAX:
        return False
    if text.startswith(VISIT) and (slot.end - slot.start > VISIT_MAX or free_at is not None and not free_at(
            text[len(VISIT):].strip(), slot.start, slot.end)):
        return False
    with_whom = _WITH.search(text)  # a want done with someone: "go over the debate questions with Priya Raman"
    if with_whom and free_at is not None and not free_at(with_whom.group("who"), slot.start, slot.end):
        return False  # (Hank's at 06:30 on 3668980, Priya up at 07:30)
    at = re.match(r"^(?:some time|reading) at (?P<p>.+)$", text)
    return at is None or at.group("p") == "home" or open_at is None or open_at(at.group("p"), slot.start, slot.end)


def fitting(choices: Sequence[str], slot: Slot, open_at: OpenAt | None = None,
            free_at: OpenAt | None = None) -> list[str]:
    """The choices that fit the slot (``fits``)."""
    return [c for c in choices if fits(c, slot, open_at, free_at)]


def deal(slots: Sequence[Slot], lines: Sequence[int], choices: Sequence[str], least: int = 2,
         open_at: OpenAt | None = None, free_at: OpenAt | None = None) -> dict[int, list[str]]:
    """The choices dealt among the free ``lines`` like cards, each to the line with the fewest so
    far among those whose hour it fits (the resident's own wants first, so that each free hour has
    one of them): no two free lines can pick the same thing, and each still has a choice.  A line
    left with fewer than ``least`` gets the other fitting choices too (then a repeat is possible,
    and the check finds it)."""
    hands: dict[int, list[str]] = {i: [] for i in lines}
    for c in choices:
        fit = [i for i in lines if fits(c, slots[i], open_at, free_at)]
        if fit:
            hands[min(fit, key=lambda i: (len(hands[i]), i))].append(c)
    for i in lines:
        if len(hands[i]) < least:
            more = [c for c in fitting(choices, slots[i], open_at, free_at) if c not in hands[i]]
            hands[i] += more[:least - len(hands[i])]
    return hands


def wants_of(persona: Persona) -> list[str]:
    """The resident's daily requirements that are neither its work (the shifts have their own lines)
    nor fixed to an hour of their own ("open the cafe at 8am")."""
    wants = [d.strip() for d in re.split(r";", persona.daily or "") if d.strip()]
    shifts = [content_words(sh.what) for sh in shifts_of(persona)]
    return [w for w in wants if not CLOCK.search(w)
            and not any(sh and len(content_words(w) & sh) * 2 >= len(sh) for sh in shifts)]


_SMALL = frozenset("a an the at in on of to for and or with by from his her their its he she they".split())


def content_words(text: str) -> set[str]:
    """A text's words less the small ones ("practise the song ... on the piano at home" and "play
    the piano at Bluebell Cafe" share "piano" alone, not four words)."""
    return set(line_key(text).split()) - _SMALL


SPARE_TIME = ("relaxing at home", "reading at home", "a walk around town", "tidying up at home",
              "writing letters at home", "resting at home")


def fallbacks(slots: Sequence[Slot], persona: Persona, lines: Sequence[str], keep: Sequence[str] | None,
              check: Callable[[list[str]], list[Problem]]) -> list[str]:
    """What a line that no answer passed says instead (mended by rule): the old plan's words where
    they pass (``keep``, for the rest of a day), else for free time one of the resident's own daily
    requirements not yet in the day (then plain spare time), else the frame's own words.  ``lines``:
    the day's lines that passed ("" where none did)."""
    out = list(lines)
    wants = wants_of(persona)
    spare = list(SPARE_TIME)
    for i, s in enumerate(slots):
        if out[i]:
            continue
        if keep and keep[i]:
            trial = list(out)
            trial[i] = keep[i]
            if not [p for p in check([t or f"unplanned {j}" for j, t in enumerate(trial)]) if p.line == i]:
                out[i] = keep[i]
                continue
        if s.kind == "free":
            used = {line_key(x) for x in out}
            pick = next((w for w in wants + spare if line_key(w) not in used and not meals_eaten(w)
                         and not SLEEP.search(w) and not WAKE.search(w) and fits_hour(w, s.start)), "")
            out[i] = clean_text(pick, 80) or s.default()
        else:
            out[i] = s.default()
    return out


def fits_hour(text: str, minute: int) -> bool:
    """Whether a part of the day the text names ("in the evening") holds ``minute``, and so does
    the time of each meal it speaks of ("cook dinner" not at 11:00)."""
    low = text.lower()
    if low.startswith(OUTINGS) and not low.endswith(" at home") and not OUT_HOURS[0] <= minute < OUT_HOURS[1]:
        return False  # no calling on people, nor time at a place in town, before 7 or after 10 at night
    named = [(a, b) for word, a, b in _PART_OF_DAY if word in low]
    meals = [MEAL_HOURS[m] for m in MEAL_HOURS if re.search(rf"\b{m}\b", low)]
    return (not named or any(a <= minute < b for a, b in named)) and all(a <= minute < b for a, b in meals)
