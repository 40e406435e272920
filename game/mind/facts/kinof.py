"""Kin given to another resident that the town does not give them (issue 39): Hank, asked what he is
busy with this week, "I am also preparing for Rosa Brody's daughter" (the panel of 86de9fc; Rosa has
no daughter, she is his).  Who is whose is the town's data: each resident's relationships in its own
words ("Rosa Brody": "his daughter ..."), read from either side.

Pure rules: no model call.
"""

from __future__ import annotations

import re

from game.mind.facts.fact import TownNames
from game.mind.facts.unbacked import by_first, sentences

# a kin word said of a resident -> what the resident's own relationships call that one, and what that
# one's relationships call the resident (the other side of it), each at the start of the words ("her
# father; she loves him": not "a sweet girl who should stand up to her father", of another's father)
_PARENT = "father|mother|dad|mum|mom|parent"
_KIN = {
    "daughter": ("daughter", _PARENT), "son": ("son", _PARENT), "children": ("daughter|son", _PARENT),
    "kids": ("daughter|son", _PARENT), "wife": ("wife", "husband"), "husband": ("husband", "wife"),
    "father": ("father|dad", "daughter|son"), "mother": ("mother|mum|mom", "daughter|son"),
    "sister": ("sister", "sister|brother"), "brother": ("brother", "sister|brother"),
}
_OF = re.compile(rf"\b(?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+)?)['’]s (?P<kin>{'|'.join(_KIN)})\b")


def kin_unheld(text: str, town: TownNames) -> list[str]:
    """The sentences of ``text`` that give a resident kin ("Rosa Brody's daughter") that neither its own
    relationships nor anyone's relationships of it hold."""
    firsts = by_first(tuple(town.people))
    out = []
    for sent in sentences(text):
        for m in _OF.finditer(sent):
            who = [p for p in firsts.get(m.group("name").split()[0], ()) if m.group("name") in (p, p.split()[0])]
            if len(who) != 1 or _holds(who[0], m.group("kin"), town):
                continue
            out.append(sent)
            break
    return out


def _holds(who: str, kin: str, town: TownNames) -> bool:
    mine, theirs = (re.compile(rf"^\W*(?:his|her|their)\s+(?:\w+\s+)?(?:{k})\b", re.I) for k in _KIN[kin])
    if any(mine.search(v) for v in town.relations.get(who, {}).values()):
        return True
    return any(theirs.search(rel.get(who, "")) for rel in town.relations.values())
