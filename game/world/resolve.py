"""The world picks where an activity happens: the model names what (and, where it matters, the
area: home, work, a place by name); the town picks the object.

GA spent three model calls per action on sector, arena and object, and a 1.5B model offered a
40-line list put breakfast in a bedroom.  Here the order is: the area the model or the plan block
names, else where the resident is, its home and its workplace, else any place it knows; inside
that, the object (or room) whose affordances fit the activity best.  The mind asks the model to
choose only among a short list of areas, and may break a tie with embeddings (``options``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .affordances import Affordances, words_of
from .lacking import lacking, tree_words
from .objects import IDLE, ObjectStates
from .states import mends, settle
from .tree import join, split

# a trip and where it goes: "drive to Bluebell Cafe", "walking back home", "head over to the park"
_TRIP = re.compile(r"\b(?:driv\w*|walk\w*|go(?:es|ing)?|head\w*|visit(?:s|ing)?|return\w*|com(?:e|es|ing)|commut\w*|"
                   r"rid(?:e|es|ing)|bik\w*|cycl\w*|stroll\w*|travel\w*|hurr\w*|run(?:s|ning)?)\s+"
                   r"(?:back\s+|over\s+|down\s+|up\s+)?(?:to(?:wards)?\s+)?(?P<rest>(?:the\s+)?[A-Za-z].*)$", re.I)
_HOME = {"home", "house", "my home", "my house", "at home", "my place", "my room", "my flat", "my apartment"}
_WORK = {"work", "workplace", "my work", "my workplace", "at work", "job", "the office", "my office", "office",
         "my job", "my shop", "my store"}
_HERE = {"", "here", "right here", "nearby", "where i am", "current location", "same", "same place", "none",
         "null", "n/a", "-", "anywhere", "outside", "street", "the street"}


def _norm(text: str) -> str:
    text = (text or "").lower().replace("\u2019", "'")
    text = re.sub(r"'s\b", "", text)
    return " ".join(w for w in re.findall(r"[a-z0-9]+", text) if w not in ("the", "a", "an"))


@dataclass(frozen=True)
class Placed:
    address: str
    fits: bool  # the place affords the activity (by the town's table)
    how: str  # "named", "area", "block", "near", "known", "nowhere"


WIDER_MARGIN = 0.25  # how much better a thing elsewhere in the building must fit than the room's best


class Grounder:
    """One resident's view of where things can be done (the places it knows), built by the engine
    for each decision and handed to the mind inside its ``WorldView``."""

    def __init__(self, aff: Affordances, known: Iterable[str], *, home: str = "", workplace: str = "",
                 here: str = "", objects: ObjectStates | None = None,
                 hours: dict[str, list[tuple[int, int]]] | None = None,
                 shifts: dict[str, list[tuple[int, int]]] | None = None) -> None:
        self.aff = aff
        self.tree = aff.tree
        self.known = [a for a in known if a in self.tree and a]
        self._known_set = set(self.known)
        self.home = home or ""
        self.workplace = workplace or ""
        self.here = here if here in self.tree else ""
        self.objects = objects
        self.hours = hours or {}  # today's staffed hours of each place that has any (the engine's)
        self.shifts = shifts or {}  # and each resident's hours at work or asleep today

    # ------------------------------------------------------------------ areas
    def lacks(self, text: str) -> list[str]:
        """The kinds of place ``text`` names that the whole town has none of ("bank", "train"):
        game/world/lacking.py."""
        return lacking(text, tree_words(self.tree))

    def open_between(self, place: str, start: int, end: int) -> bool:
        """Whether one who comes to ``place`` (a sector) at minute ``start`` finds it open for the
        first hour of its stay (or the whole, if shorter): someone works there then.  A place nobody
        works at (a park, a house) is always open."""
        spans = self.hours.get(place)
        return not spans or any(a <= start and start + min(60, end - start) <= b for a, b in spans)

    def free_between(self, person: str, start: int, end: int) -> bool:
        """Whether ``person`` (a resident) is neither at work nor asleep as ``start`` comes, nor for
        most of ``start``-``end``: a free hour is not spent calling on someone at work (Marcus's
        11:30-14:00 with Hank, at his store) or in bed (Hank's 06:30 with Priya, up at 07:30)."""
        spans = self.shifts.get(person, ())
        busy = sum(max(0, min(end, b) - max(start, a)) for a, b in spans)
        return busy * 2 < end - start and not any(a <= start < b for a, b in spans)

    def area_named(self, text: str) -> str | None:
        """The sector of the whole town that ``text`` names by its full name (the longest such), else
        the one a trip in it goes to among the places it knows, or None: "go to work at Oakhill
        College" -> "Oakhill College"; "drive to the market" -> "Greenway Market and Pharmacy"."""
        t = f" {_norm(text)} "
        best = None
        for sec in self.tree.sectors():
            name = _norm(sec)
            if name and f" {name} " in t and (best is None or len(name) > len(_norm(best))):
                best = sec
        if best is None:  # a trip to a place it knows by a loose name: "drive to the market"
            dest = self.destination(text)
            best = split(dest)[0] if dest else None
        return best

    def sectors(self) -> list[str]:
        """The sectors it knows something of, in the order first known."""
        return list(dict.fromkeys(split(a)[0] for a in self.known))

    def places_text(self, limit: int = 12) -> str:
        """The short list of areas for a prompt: "Okafor house (home), Town Hall (work), ..."."""
        home_s = split(self.home)[0] if self.home else None
        work_s = split(self.workplace)[0] if self.workplace else None
        out = []
        for s in self.sectors():
            tag = " (home)" if s == home_s else " (work)" if s == work_s else ""
            out.append(s + tag)
        out.sort(key=lambda t: (not t.endswith("(home)"), not t.endswith("(work)")))
        return ", ".join(out[:limit])

    def _roots(self) -> list[str]:
        """Where to look first, in order: where it is, home, workplace (sectors it knows)."""
        out: list[str] = []
        sectors = set(self.sectors())
        for a in (self.here, self.home, self.workplace):
            s = split(a)[0] if a else ""
            if s and s in sectors and s not in out:
                out.append(s)
        return out

    def area_of(self, hint: str) -> str | None:
        """The known area (sector, arena or object) that ``hint`` names, or None."""
        raw = (hint or "").strip()
        if raw in self._known_set or raw in self.sectors():
            return raw
        n = _norm(raw.replace(":", " "))
        if n in _HERE:
            return None
        if n in _HOME or n.endswith(" home") or n == "at home":
            return self.home if self.home in self._known_set else (split(self.home)[0] if self.home else None)
        if n in _WORK:
            return self.workplace or None
        return self.named_in(raw.replace(":", " "), whole=True) or self.named_in(raw.replace(":", " "))

    def named_in(self, text: str, whole: bool = False) -> str | None:
        """A known sector or arena named in ``text`` ("at the pharmacy", "Bluebell Cafe"); with
        ``whole``, ``text`` may be a loose name for it (word overlap).  Ties: here, home, work."""
        t = f" {_norm(text)} "
        if not t.strip():
            return None
        roots = self._roots()
        best, best_key = None, None
        for a in dict.fromkeys(self.sectors() + [k for k in self.known if k.count(":") == 1]):
            parts = split(a)
            name = _norm(parts[-1])
            if not name:
                continue
            if f" {name} " in t:
                score: float = len(name) + 1000
            elif whole:
                have, want = set(words_of(parts[-1])), set(words_of(text))
                if not have or not (have & want):
                    continue
                score = 100 * len(have & want) / len(have | want)
            else:
                continue
            near = parts[0] in roots
            key = (score, near, -roots.index(parts[0]) if near else 0, len(parts))
            if best_key is None or key > best_key:
                best, best_key = a, key
        return best

    # ------------------------------------------------------------------ objects
    def _score(self, activity: str, address: str, lead: str) -> float:
        s = self.aff.fit(activity, address)
        if s <= 0:
            return 0.0
        if lead and any(lead in p for p in self.aff.phrases(address)):
            s += 0.3  # the activity's first word (usually its verb) is what the place is for
        parts = split(address)
        if len(parts) >= 3:
            s += 0.2 * self.aff.fit(activity, join(*parts[:2])) + 0.05  # an object beats its room
        for own in (self.workplace, self.home):  # its own desk, its own bed
            if own and ":" in own and (address == own or address.startswith(own + ":")):
                s += 0.1
        return s

    def _within(self, scope: str) -> list[str]:
        return [a for a in self.known if a == scope or a.startswith(scope + ":")]

    def _best(self, activity: str, among: Sequence[str]) -> tuple[str | None, float]:
        ws = words_of(activity)
        lead = ws[0] if ws else ""
        best, best_s = None, 0.0
        for a in among:
            if ":" not in a:
                continue
            s = self._score(activity, a, lead)
            if s > best_s:
                best, best_s = a, s
        return best, best_s

    def place(self, activity: str, hint: str = "", block: str = "") -> Placed:
        """The address where ``activity`` happens (see the module's docstring for the order).
        A private thing (a bed, a shower) is the resident's own: the same kind at home, in its own
        room first ("waking up" in the neighbours' guest room is waking up at home)."""
        placed = self._place(activity, hint, block)
        info = self.aff.info(placed.address) if placed.address.count(":") >= 2 else None
        if info is None or not info.private or not self.home:
            return placed
        own = self._own(info.kind, activity)
        return Placed(own, True, placed.how) if own and own != placed.address else placed

    def _own(self, kind: str, activity: str) -> str | None:
        """The resident's own thing of ``kind`` (its room's, else its home's), if it has one."""
        home_sector = split(self.home)[0]
        mine = [a for a in self._within(home_sector) if a.count(":") >= 2
                and self.tree.kind.get(a, split(a)[-1]) == kind]
        if not mine:
            return None
        in_room = [a for a in mine if ":" in self.home and a.startswith(self.home + ":")]
        if in_room:
            return in_room[0]
        if any(a for a in mine if (info := self.aff.info(a)) is not None and info.kind == "bed") and ":" in self.home:
            return None  # someone else's bed in its house: none of its own to go to (no guessing)
        return mine[0]

    def destination(self, activity: str) -> str | None:
        """Where a trip in ``activity`` goes ("drive to Bluebell Cafe", "walk back home"): the
        place after "to"/"back", else None.  The model often names the place it sets off from."""
        m = _TRIP.search(activity or "")
        if m is None:
            return None
        rest = m.group("rest")
        if _norm(rest).split()[:1] in (["home"], ["house"]) or _norm(rest) in _HOME:
            return self.area_of("home")
        return self.named_in(rest, whole=True)

    def _place(self, activity: str, hint: str, block: str) -> Placed:
        trip = self.destination(activity)
        if trip is not None:  # a trip happens where it goes, whatever place was named with it
            hint = trip
        area = self.area_of(hint) if hint else None
        how = "area"
        if area is None:
            area, how = self.named_in(activity), "named"
        if area is None and block:
            area, how = self.named_in(block), "block"
        if area is not None:
            parts = split(area)
            if len(parts) >= 3:
                if self.aff.fit(activity, area) > 0:
                    return Placed(area, True, how)
                area = join(*parts[:2])  # the thing named does not fit: something in its room may
                parts = parts[:2]
            best, score = self._best(activity, self._within(area))
            if len(parts) == 2:  # the rest of the building, where nothing in the room fits, or fits
                # far better ("preparing the cake" at the kitchen counter, not the bedroom desk
                # that affords "prepare notes")
                wider, wider_score = self._best(activity, self._within(parts[0]))
                if wider is not None and (best is None or wider_score > score + WIDER_MARGIN):
                    best = wider
            if best is not None:
                return Placed(best, True, how)
            if how == "area":
                # the model named an area where nothing fits the activity ("a shower" at the
                # store): somewhere near that fits (home, work) wins; else it still goes there
                near = self._near(activity)
                return near if near is not None else Placed(area, False, how)
        near = self._near(activity)
        if near is not None:
            return near
        best, _ = self._best(activity, self.known)
        if best is not None:
            return Placed(best, True, "known")
        fallback = self.here if self.here and ":" in self.here else (self.home or self.here)
        return Placed(fallback, False, "nowhere")

    def _near(self, activity: str) -> Placed | None:
        """The best fitting place where it is, at home or at work, if any fits."""
        best = [(self._best(activity, self._within(r)), i) for i, r in enumerate(self._roots())]
        scored = [(s, -i, a) for (a, s), i in best if a is not None]
        if scored:
            return Placed(max(scored)[2], True, "near")
        return None

    def options(self, activity: str, hint: str = "", block: str = "", limit: int = 12) -> list[tuple[str, str]]:
        """Places that could serve when no rule fits, with what each is for, for the mind to
        choose by meaning (embeddings): the objects and rooms of the hinted area, else of here,
        home and work."""
        area = self.area_of(hint) if hint else None
        if area is None and block:
            area = self.named_in(block)
        roots = [split(area)[0]] if area else self._roots()
        out = []
        for r in roots:
            for a in self._within(r):
                if ":" in a and self.aff.info(a) is not None:
                    out.append((a, self.aff.text(a)))
        return out[:limit * 4]

    # ------------------------------------------------------------------ states
    def state(self, address: str, proposal: str | None, activity: str = "") -> str | None:
        """The vocabulary state an action leaves its object in, or None (no change, or no such
        state for that kind of thing: the proposal is dropped)."""
        if len(split(address)) < 3 or address not in self.tree:
            return None
        info = self.aff.info(address)
        if info is None:
            return None
        current = self.objects.get(address) if self.objects is not None and address in self.objects else IDLE
        return settle(info, current, proposal, activity)

    def mended(self, address: str, proposal: str | None, activity: str = "") -> str | None:
        """The state an action leaves a thing in a mishap's state (a fire, a leak) when it mends it:
        its resting state ("idle"); None when it does not (``states.mends``), or the address is no
        object of the tree."""
        if len(split(address)) < 3 or address not in self.tree:
            return None
        info = self.aff.info(address)
        current = self.objects.get(address) if self.objects is not None and address in self.objects else IDLE
        if info is None or (current != IDLE and not mends(info, current, proposal, activity)):
            return None
        return IDLE
