"""The words relations are said by and whether a relationship's text backs one (issue 39): the
common ground of the claims of relation (claims.py) and of friendship and teaching (ties.py).

Pure rules: no model, no state.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

# each word a relation is said by -> the words a relationship's text may back it with
KIN = {
    "wife": ("wife", "married", "husband"), "husband": ("husband", "married", "wife"),
    "daughter": ("daughter", "father", "mother", "dad", "mum", "mom"),
    "son": ("son", "father", "mother", "dad", "mum", "mom"),
    "father": ("father", "dad", "daughter", "son"), "dad": ("father", "dad", "daughter", "son"),
    "mother": ("mother", "mum", "mom", "daughter", "son"), "mum": ("mother", "mum", "mom", "daughter", "son"),
    "mom": ("mother", "mum", "mom", "daughter", "son"),
    "brother": ("brother", "sister", "sibling"), "sister": ("sister", "brother", "sibling"),
    "grandfather": ("grandfather", "grandson", "granddaughter", "grandpa"),
    "grandmother": ("grandmother", "grandson", "granddaughter", "grandma"),
    "uncle": ("uncle", "niece", "nephew"), "aunt": ("aunt", "niece", "nephew"),
    "nephew": ("nephew", "uncle", "aunt"), "niece": ("niece", "uncle", "aunt"),
    "cousin": ("cousin",), "lodger": ("lodger", "landlady", "landlord", "lodges", "lives with"),
    "landlady": ("landlady", "lodger", "lodges"), "landlord": ("landlord", "lodger", "lodges"),
    "roommate": ("roommate", "housemate", "lives with"), "housemate": ("housemate", "roommate", "lives with"),
    "pupil": ("pupil", "student", "taught", "teacher", "lessons"),
    "teacher": ("teacher", "taught", "pupil", "student", "lessons"),
    "boss": ("boss", "works for", "employee", "works at"), "employee": ("employee", "boss", "works for"),
}
REL = "|".join(sorted(KIN, key=len, reverse=True))
KIN_WORDS = frozenset(KIN)  # the words a relation is said by ("wife", "father", "lodger")
NAME = r"(?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+)?)"


@dataclass(frozen=True)
class Claim:
    kind: str  # "relation" or "role"
    who: str  # full name of whom the claim is about
    what: str  # "daughter of Hank Brody", "candidate for mayor", "has a father"
    backed: bool

    @property
    def not_so(self) -> str:
        """What is so instead, said plainly: "Grace Okafor has no father", "Rosa Brody is not the mayor",
        "Grace Okafor is not a friend of Rosa Brody"."""
        if self.what.startswith("has a "):
            return f"{self.who} has no {self.what[6:]}"
        return f"{self.who} is not {'a' if self.what.startswith('friend of ') else 'the'} {self.what}"


SPOUSE = {"wife": "husband", "husband": "wife"}


def backs(rel: str, there: str, back: str) -> bool:
    """Whether the holder's words of the other (``there``) or the other's of the holder (``back``) back ``rel``; a
    spouse by its own side ("my husband Samuel Okafor, who is my devoted wife", Grace on 4d3a658's save: her text
    says "her husband", his "his wife")."""
    if rel in SPOUSE:
        return bool(re.search(rf"\b(?:{rel}|married)\b", there) or re.search(rf"\b(?:{SPOUSE[rel]}|married)\b", back))
    return any(w in f"{there} {back}" for w in KIN[rel])


def full_name(name: str, people: Sequence[str]) -> str | None:
    """The one of ``people`` that ``name`` is, said whole or by its first name, else None."""
    for p in people:
        if name == p or name == p.split()[0]:
            return p
    return None


def own_only(text: str) -> str:
    """``text`` lower case without another's kin said in it ("Hank's daughter", in Grace's words of Rosa: no kin of
    Grace's), so that a relation word left is the holder's own."""
    return re.sub(r"\b\w+['’]s\s+\w+", " ", text.lower())
