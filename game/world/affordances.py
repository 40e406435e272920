"""What people do with each object and area of a town, and which states each object can be in.

A small model cannot be trusted to pick a fitting object from a long list, nor to invent a sensible
state for it ("the fridge is now browsing"); the town can, when every kind of thing says what it is
for.  The defaults by kind live in ``kinds.toml`` beside this file; a town overrides them per object
or arena with the Tiled properties ``affords`` and ``states`` (comma-separated), so a map maker edits
them in Tiled and pytmx reads them with the rest of the map.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..resources import package_dir
from .tree import AreaTree, split

KINDS_FILE = package_dir(__package__, "kinds.toml")

# words that say nothing about where something is done ("having breakfast": "breakfast" counts)
_FILLER = {"the", "a", "an", "of", "in", "at", "on", "to", "and", "for", "with", "about", "up", "some",
           "my", "his", "her", "their", "its", "it", "any", "from", "into", "out", "over", "by",
           "go", "going", "get", "getting", "take", "taking", "do", "doing",
           "start", "starting", "continue", "continuing", "finish", "finishing",
           "time", "little", "bit", "quick", "quickly", "while", "before", "after", "then", "again",
           "new", "more", "s", "be", "is", "use", "using"}
_KEEP_FILLER = {"get", "make", "take", "use"}  # kept inside an affordance phrase ("get dressed")
_GENERIC = {"mak", "get", "tak", "us"}  # stems that alone say nothing of the place


def stem(word: str) -> str:
    """A crude stem, enough to meet "cooking" with "cook" and "writes" with "write"."""
    w = word.lower()
    for suf, rep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)] + rep
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":  # "shopp" -> "shop"
        w = w[:-1]
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]
    return w


# "having breakfast" is eating it, "making breakfast" is cooking it: the verb tells table from stove
_ALIAS = {"hav": "eat", "had": "eat", "ate": "eat", "grab": "get"}


def words_of(text: str, keep: Iterable[str] = ()) -> list[str]:
    keep = set(keep)
    text = (text or "").lower().replace("\u2019", "'")
    text = re.sub(r"'s\b", "", text)
    out = []
    for w in re.findall(r"[a-z]+", text):
        if w in _FILLER and w not in keep:
            continue
        s = stem(w)
        out.append(_ALIAS.get(s, s))
    return out


@dataclass(frozen=True)
class KindInfo:
    """What one kind of thing affords and the states it can be in."""

    kind: str
    affords: tuple[str, ...]
    rest: str = "idle"  # the name of the resting state, stored as "idle"
    states: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # state -> words meaning it
    private: bool = False  # used at home only (a bed, a shower)

    def state_names(self) -> list[str]:
        return [self.rest, *self.states]


@dataclass(frozen=True)
class Mishap:
    """A state a mishap puts a thing in (``[mishap.STATE]`` of ``kinds.toml``) and how it is mended."""

    state: str  # "on fire"
    urgent: bool = False  # a hazard: whoever is awake near it makes it safe at once
    doing: str = ""  # the action that mends it, taken by rule ("putting out the fire"; $thing: its name)
    says: str = ""  # the town log's words when it is mended ("puts out the fire on the $thing")
    emoji: str = ""
    mend: tuple[str, ...] = ()  # words of an action that mend it, whatever state it names

    def words(self, template: str, thing: str) -> str:
        return template.replace("$thing", thing)


@dataclass(frozen=True)
class KindTable:
    objects: Mapping[str, KindInfo]
    areas: Mapping[str, KindInfo]
    common: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # states of every object
    mishaps: Mapping[str, Mishap] = field(default_factory=dict)  # state -> how it comes and goes

    def object_kind(self, kind: str) -> KindInfo:
        """The entry for an object kind: exact, then its last word ("cafe counter" -> "counter"),
        then any of its words, else a generic one that affords what its name says."""
        k = " ".join(kind.lower().split())
        if k in self.objects:
            return self.objects[k]
        ws = k.split()
        for w in reversed(ws):
            if w in self.objects:
                return _renamed(self.objects[w], kind)
            if w.endswith("s") and w[:-1] in self.objects:
                return _renamed(self.objects[w[:-1]], kind)
        return KindInfo(kind, (f"use the {k}",), "idle",
                        {"in use": ("in use", "being used", "occupied"), **self.common})

    def area_kind(self, name: str) -> KindInfo | None:
        """The entry for an arena by its name: exact, then the longest known tail of its words
        ("Priya's room" -> "room", "dorm kitchen" -> "kitchen"), then any known word."""
        k = re.sub(r"'s\b", "", " ".join(name.lower().replace("\u2019", "'").split()))
        if k in self.areas:
            return self.areas[k]
        ws = k.split()
        for i in range(1, len(ws)):
            tail = " ".join(ws[i:])
            if tail in self.areas:
                return self.areas[tail]
        for w in reversed(ws):
            if w in self.areas:
                return self.areas[w]
        return None


def _renamed(info: KindInfo, kind: str) -> KindInfo:
    return KindInfo(kind, info.affords, info.rest, info.states, info.private)


def _csv(value: object) -> tuple[str, ...]:
    return tuple(p.strip().lower() for p in str(value or "").split(",") if p.strip())


def _entry(kind: str, raw: dict) -> KindInfo:
    states = {str(s).lower(): tuple(str(w).lower() for w in (ws or [])) for s, ws in (raw.get("states") or {}).items()}
    return KindInfo(kind, tuple(str(a).lower() for a in raw.get("affords", [])), str(raw.get("rest", "idle")).lower(),
                    states, bool(raw.get("private", False)))


@lru_cache(maxsize=4)
def load_kinds(path: str | None = None) -> KindTable:
    """The table of kinds (``kinds.toml`` by default).  A malformed file is a bug of the game's own
    data, so it raises ``ValueError`` naming the file."""
    p = Path(path) if path else KINDS_FILE
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ValueError(f"{p}: cannot read the table of kinds: {e}") from e
    common = _entry("any", data.get("any", {})).states
    objects = {}
    for k, v in data.get("object", {}).items():
        entry = _entry(k, v)
        objects[k] = KindInfo(k, entry.affords, entry.rest,
                              {**entry.states, **{s: w for s, w in common.items() if s not in entry.states}},
                              entry.private)
    mishaps = {str(k).lower(): Mishap(str(k).lower(), bool(v.get("urgent", False)), str(v.get("doing", "")),
                                      str(v.get("says", "")), str(v.get("emoji", "")),
                                      tuple(str(w).lower() for w in v.get("mend", [])))
               for k, v in data.get("mishap", {}).items()}
    return KindTable(objects, {k: _entry(k, v) for k, v in data.get("area", {}).items()}, common, mishaps)


class Affordances:
    """Affordances and state vocabularies of every object and arena of one town's tree."""

    def __init__(self, tree: AreaTree, table: KindTable | None = None) -> None:
        self.tree = tree
        self.table = table or load_kinds()
        self._cache: dict[str, KindInfo | None] = {}
        self._words: dict[str, list[set[str]]] = {}

    def info(self, address: str) -> KindInfo | None:
        """An object's or an arena's entry (a Tiled ``affords``/``states`` property replaces the
        default's); None for a sector, the street or an arena of no known kind."""
        if address in self._cache:
            return self._cache[address]
        parts = split(address)
        props = self.tree.props.get(address, {})
        out: KindInfo | None
        if len(parts) >= 3:
            base = self.table.object_kind(self.tree.kind.get(address, parts[-1]))
            states = dict(base.states)
            rest = base.rest
            if props.get("states"):
                named = _csv(props["states"])
                rest, states = named[0], {s: (s,) + base.states.get(s, ()) for s in named[1:]}
                states.update({s: w for s, w in self.table.common.items() if s not in states})
            affords = _csv(props["affords"]) if props.get("affords") else base.affords
            private = str(props.get("private", base.private)).lower() in ("true", "1", "yes")
            out = KindInfo(base.kind, affords, rest, states, private)
        elif len(parts) == 2:
            if props.get("affords"):
                out = KindInfo(parts[1], _csv(props["affords"]))
            else:
                out = self.table.area_kind(parts[1])
        else:
            out = None
        self._cache[address] = out
        return out

    def phrases(self, address: str) -> list[set[str]]:
        """The affordances of an address as sets of stems (its kind's own name counts as one)."""
        if address not in self._words:
            info = self.info(address)
            out: list[set[str]] = []
            if info is not None:
                out = [set(words_of(a) or words_of(a, _KEEP_FILLER)) for a in info.affords]
                if len(split(address)) >= 3:
                    out.append(set(words_of(info.kind)))
            self._words[address] = [p for p in out if p]
        return self._words[address]

    def fit(self, activity: str, address: str) -> float:
        """How well ``activity`` fits what ``address`` affords: 0 (nothing in common) .. about 1
        (an affordance named in full).  The share of an affordance's words the activity has, the
        best affordance counting."""
        act = set(words_of(activity))
        if not act:
            return 0.0
        best = 0.0
        for p in self.phrases(address):
            hit = len(p & act)
            if hit and (p & act) - _GENERIC:  # "making coffee" is not "make a phone call"
                best = max(best, hit / len(p) - 0.01 * len(act - p) / max(1, len(act)))
        return best

    def text(self, address: str) -> str:
        """A line saying what the place is for (for embedding: "stove: cook, boil, ...")."""
        info = self.info(address)
        if info is None:
            return split(address)[-1] if address else ""
        return f"{info.kind}: {', '.join(info.affords)}"
