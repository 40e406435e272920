"""Kin a resident gives itself with no name ("my children", "I am a single parent"), held to what its own
records say of its family (issue 39).  Pure rules: no model call."""

from __future__ import annotations

import re

from game.mind.facts.relwords import own_only

# kin said with no name ("my children", "a single parent", "my husband"): backed only by a word of
# that kin that is the speaker's own in what it holds ("his daughter", "her husband of 34 years")
_KIN_GROUPS = {
    "child": ("son", "sons", "daughter", "daughters", "children", "kids", "child", "grandchildren"),
    "spouse": ("husband", "wife", "married", "spouse"),
    "parent": ("father", "mother", "dad", "mum", "mom", "parents"),
    "sibling": ("brother", "brothers", "sister", "sisters", "siblings"),
}
_KIN_WORD = {w: g for g, ws in _KIN_GROUPS.items() for w in ws}
_MY_KIN = re.compile(r"\b(?:my|our|their)\s+(?:(?:young|little|two|three|four|grown|eldest|youngest|late|dear|beloved|"
                     r"lovely|own|grand)\s+)*(?:\w+\s+and\s+)?(?P<w>"
                     + "|".join(sorted(_KIN_WORD, key=len, reverse=True)) + r")\b"
                     r"|\bsingle (?P<single>parent|mother|father|mom|mum|dad)\b"
                     r"|\bI(?:'m| am) (?:[A-Z][a-z]+ [A-Z][a-z]+, )?(?:a|an|the) (?:[\w-]+ ){0,3}?(?P<parent>father|"
                     r"mother|parent|dad|mum|mom|"
                     r"grandfather|grandmother|grandparent)\b", re.I)


def kin_unbacked(text: str, own: str) -> list[str]:
    """The kin ``text`` gives its speaker with no name ("my children", "I am a single parent") that
    ``own`` (the speaker's persona and relationships, in its own third person) never gives it:
    "his daughter", "her son Eli", "married to" back them; "Hank's daughter" does not."""
    low = own_only(own)
    have = {_KIN_WORD[m.group(1)] for m in re.finditer(
        r"\b(?:his|her|their)\s+(?:(?:\w+\s+){0,2})(" + "|".join(_KIN_WORD) + r")\b", low)}
    have |= {"spouse"} if re.search(r"\bmarried\b", low) else set()
    # "my parents" needs a mother and a father of its own ("her father, Hank", whose wife died, is one)
    both = all(re.search(rf"\b(?:his|her|their)\s+(?:\w+\s+){{0,2}}(?:{w})\b", low)
               for w in ("mother|mum|mom|parents", "father|dad|parents"))
    out = []
    for m in _MY_KIN.finditer(text):
        group = "child" if m.group("single") or m.group("parent") else _KIN_WORD[m.group("w").lower()]
        if group not in have or (m.group("w") or "").lower() == "parents" and not both:
            out.append(m.group(0))
    return out
