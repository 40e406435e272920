"""Kinds of place a resident's words may name that a town may not have ("take the train", "go to
the bank"): the plan check (game/mind/planning/daycheck.py) asks the world which a line names that this town
lacks, so the words and the walk do not disagree (the world would place "the bank" somewhere).

Each kind is a pattern for the words that name it and the words any of which, in a town's area or
object names or kinds, means the town has one.  Kinds not listed are not judged.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterable

from .tree import AreaTree

# (the kind as said to the model, what names it in a line, words in the town's names that are one)
KINDS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("bank", r"\bbank\b(?! of the)", ("bank",)),
    ("train", r"\b(train|trains|railway|rail station|subway|metro)\b", ("train", "railway", "station")),
    ("bus", r"\b(bus|buses|bus stop)\b", ("bus",)),
    ("airport", r"\b(airport|plane|flight)\b", ("airport",)),
    ("hospital", r"\b(hospital|clinic|doctor's office|doctors office|dentist|emergency room|ambulance)\b",
     ("hospital", "clinic", "dentist")),
    # one who treats the sick (Samuel's "Rosa's usual care provider", b5e348b; Millbrook has a pharmacist)
    ("doctor", r"\b(doctors?|physicians?|nurses?|(?:usual |regular |health ?)?care ?providers?|caregivers?)\b",
     ("doctor", "clinic", "hospital", "surgery", "medical", "nurse")),
    ("church", r"\b(church|chapel|temple|mosque|synagogue)\b", ("church", "chapel", "temple", "mosque", "synagogue")),
    ("gym", r"\b(gym|fitness (?:center|centre|club))\b", ("gym", "fitness")),
    ("hardware store", r"\bhardware (?:store|shop)\b", ("hardware", "supply", "tool")),
    ("post office", r"\bpost office\b", ("post",)),
    ("mall", r"\b(mall|shopping (?:center|centre))\b", ("mall",)),
    ("cinema", r"\b(cinema|movie theat(?:er|re)|movies)\b", ("cinema", "movie", "theater", "theatre")),
    ("theatre", r"\btheat(?:er|re)\b", ("theater", "theatre", "stage")),
    ("museum", r"\bmuseum\b", ("museum",)),
    ("beach", r"\b(beach|seaside)\b", ("beach",)),
    ("lake", r"\blake\b", ("lake",)),
    ("river", r"\briver\b", ("river",)),
    ("stadium", r"\b(stadium|arena)\b", ("stadium", "arena", "field")),
    ("swimming pool", r"\b(swimming pool|pool to swim|go swimming|swim laps)\b", ("swimming",)),
    ("hotel", r"\b(hotel|motel)\b", ("hotel", "motel", "inn")),
    ("police station", r"\bpolice\b", ("police",)),
    ("emergency services", r"\bemergency services?\b",
     ("hospital", "clinic", "police", "fire station")),
    ("fire station", r"\b(fire station|fire department|fire brigade|firefighters?)\b", ("fire station",)),
    # an emergency number rung (Grace, asked of the stove's fire at 06:20 in the stove run of 2026-12-02: "I
    # called 911"): one the town has no service for
    ("emergency services", r"\b(?:call(?:s|ed|ing)?|dial(?:s|l?ed|l?ing)?|ph?on(?:e|es|ed|ing)|rang|ring(?:s|ing)?)"
                           r"\s+(?:9-?1-?1|999|112)\b", ("hospital", "clinic", "police", "fire station")),
    ("gas station", r"\b(gas station|petrol station)\b", ("gas", "petrol")),
    ("farm", r"\bfarm\b", ("farm",)),
    ("factory", r"\bfactory\b", ("factory",)),
    ("bookstore", r"\b(bookstore|bookshop|book store|book shop)\b", ("bookstore", "bookshop", "book store",
                                                                     "book shop")),
    ("bakery", r"\b(?:to|at|from|in) the bakery\b(?! stall)", ("bakery",)),
    ("restaurant", r"\b(restaurant|diner|bistro)\b", ("restaurant", "diner", "bistro", "cafe", "pub", "kettle")),
    # (Grace to Ines on c59f68b's day: "Do you want to stop here or go to the cafeteria?")
    ("cafeteria", r"\b(cafeteria|canteen)\b", ("cafeteria", "canteen", "dining hall")),
    ("supermarket", r"\b(supermarket|grocery store)\b", ("supermarket", "grocery", "market")),
    ("school", r"\b(?<!college )school\b", ("school", "college")),
    # a paper the town does not print (Eli's "a reporter who works for the local newspaper", 136a191:
    # Millbrook has a newsletter)
    ("newspaper", r"\b(newspapers?|gazette|news ?paper)\b", ("newspaper", "gazette", "press")),
    ("office building", r"\boffice building\b", ("office building",)),
    # (and more than one: Rosa on a9a17c8's save, "improving the local parks and community centers")
    ("community centre", r"\bcommunity (?:center|centre)s?\b", ("community center", "community centre")),
    # a car where residents walk (Hank on 82f1ab1's day: "I'm getting out of the car, so I need to get to Marcus's pub")
    # (and "help me find a parking spot", Felix on 4151289's day)
    ("car", r"\b(?:(?:my|the|a|his|her|our|your) (?:car|truck|van)|(?:drive|driving|drove) (?:to|home|into|over)"
            r"|parking (?:spot|space|lot|place)s?)\b",
     ("garage", "parking", "driveway", "carport")),
    ("public transport", r"\b(?:public transport(?:ation)?|transit system|mass transit)\b", ("bus", "train", "tram",
                                                                                           "transit")),
)
_COMPILED = tuple((k, re.compile(p, re.I), re.compile("|".join(rf"\b{re.escape(h)}s?\b" for h in have)))
                  for k, p, have in KINDS)


def town_words(names: Iterable[str]) -> str:
    """All the words of a town's area and object names and kinds, as one lower-case text."""
    return " " + " ".join(re.sub(r"[^a-z0-9' ]+", " ", n.lower()) for n in names) + " "


_WORDS: weakref.WeakKeyDictionary[AreaTree, str] = weakref.WeakKeyDictionary()  # a town's tree -> its words


def tree_words(tree: AreaTree) -> str:
    """``town_words`` of a whole town (its sectors, areas, objects and kinds), once per town."""
    words = _WORDS.get(tree)
    if words is None:
        words = _WORDS[tree] = town_words([*tree.sectors(), *tree.all_arenas(), *tree.all_objects(),
                                           *tree.kind.values()])
    return words


def lacking(text: str, words: str) -> list[str]:
    """The kinds of place ``text`` names that a town whose ``town_words`` are ``words`` has none of."""
    out = []
    for kind, pattern, have in _COMPILED:
        if pattern.search(text or "") and not have.search(words):
            out.append(kind)
    return out
