"""Kinds of place said of the town's places and people (issue 39): a place called a kind its name says it is
not ("Bluebell Cafe, a local bakery"), and a place of a kind given to one whose places and doings have none
("I want to sell my bread to Bluebell Cafe instead of Ines Moreau's bakery", Felix to Ines and Rosa on a dawn
of 04d78ed, 2026-12-02: Ines runs the cafe; the bakery stall is Felix's).

Pure rules over words: no model call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from game.mind.facts.fact import TownNames
from game.mind.facts.unbacked import by_first

# kinds of place, each with the words said of it; a place's own kinds are those its name says
_KINDS = {
    "cafe": ("cafe", "café", "coffee shop", "coffeehouse", "coffee house"), "bakery": ("bakery", "bakeshop"),
    "pub": ("pub", "bar", "inn", "tavern"), "store": ("store", "shop", "supply store", "hardware store"),
    "market": ("market", "grocery", "supermarket", "grocer"), "pharmacy": ("pharmacy", "chemist", "drugstore"),
    "library": ("library",), "college": ("college", "university", "school"), "park": ("park", "garden"),
    "hall": ("hall", "town hall", "city hall"), "restaurant": ("restaurant", "diner", "bistro"),
}
KIND_OF = {w: k for k, ws in _KINDS.items() for w in ws}
_KIND_WORDS = "|".join(sorted(KIND_OF, key=len, reverse=True))


def wrong_kind_of_place(sent: str, places: Sequence[str]) -> str:
    """Why ``sent`` calls a place of the town a kind of place its name says it is not ("Bluebell
    Cafe, a local bakery"), else ""; a place whose name says no kind is not judged."""
    for p in places:
        if p not in sent:  # (first: a big town has a thousand places)
            continue
        own = _kinds(p)
        m = re.search(rf"\b{re.escape(p)}(?:,| is| was|'s a)\s+(?:a|an|the|our|my)\s+(?:[\w-]+\s+){{0,2}}?"
                      rf"(?P<k>{_KIND_WORDS})\b", sent, re.I)
        if own and m and KIND_OF[m.group("k").lower()] not in own:
            return f"{p} is no {m.group('k').lower()}"
    return ""


# kinds that name one trade's place (a "shop", a "store", a "park" or a "hall" is said loosely of many)
_TRADE_KINDS = frozenset({"cafe", "bakery", "pub", "market", "pharmacy", "library", "college", "restaurant"})
_WHOSE = re.compile(r"\b(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?)(?:'s|\u2019s)\s+(?i:(?:(?:new|own|little|old|local|"
                    r"favou?rite|family)\s+)?(?P<k>" + _KIND_WORDS + r")\b(?!\s+(?:stall|stand|counter|table)))")


def _kinds(text: str) -> set[str]:
    return {k for w, k in KIND_OF.items() if re.search(rf"\b{re.escape(w)}\b", text, re.I)}


def place_kind_unheld(sent: str, town: TownNames, listener: str = "") -> str:
    """Why ``sent`` gives a resident a place of a trade ("Ines Moreau's bakery"; "your bakery" said to
    ``listener``, the one spoken to: Felix to Hank on the evening's day of 2026-12-02) that neither its
    workplace's nor its home's name says, nor its own doings (each up to the first other resident it names:
    Ines's "nervous that Felix Adeyemi's new bakery stall ..." is Felix's), else ""; one whose workplace's name
    says no kind (The Copper Kettle) is not judged."""
    said: list[tuple[str, str]] = []  # (the resident, the kind's word)
    if "'s" in sent or "\u2019s" in sent:
        firsts = by_first(town.people)
        for m in _WHOSE.finditer(sent):
            who = m.group("who")
            named = [who] if who in town.people else list(firsts.get(who, ())) if " " not in who else []
            if len(named) == 1:
                said.append((named[0], m.group("k")))
    if listener in town.people:
        said += [(listener, m.group("k")) for m in _YOUR.finditer(sent)]
    for p, word in said:
        kind, work = KIND_OF[word.lower()], town.workplaces.get(p, "")
        if kind not in _TRADE_KINDS or not _kinds(work):
            continue
        others = [o for o in town.people if o != p]
        own = " ".join(re.split("|".join(re.escape(o) for o in others), d)[0] if others else d
                       for d in town.doings.get(p, ()))
        if kind not in _kinds(" ".join([work, town.homes.get(p, ""), own, *town.roles.get(p, ())])):
            return f"{p} has no {word.lower()}"
    return ""


_YOUR = re.compile(r"\byour\s+(?:(?:new|own|little|old|local|favou?rite|family)\s+)?(?P<k>" + _KIND_WORDS
                   + r")\b(?!\s+(?:stall|stand|counter|table))", re.I)
