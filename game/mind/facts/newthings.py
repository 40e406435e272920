"""A thing the model brings into a talk that nothing it was given speaks of (issue 39): a small
model writing both sides of a talk gives a resident a possession, a duty or a favour out of thin
air.  On the saved days of 2026-11-30: "I'll be there to help you with the tables" (Ines to the
mayor: no tables anywhere), "He's always been very reliable with his patients" (Samuel has none),
"I'm helping my friend Nora Lindqvist with a project at the cafe" (no project), "Rosa Brody can help
with the delivery", "I'm looking forward to hearing your presentation".

A thing is the word after a possessive ("his patients", "your presentation", "my friend's business":
Felix to the mayor on a4c5919's day), after "with the" ("with the tables", "with a project") or after "I
have some" ("I have some fresh tomatoes and basil", Kenji the pharmacist to Felix on the evening's day of
2026-12-02): the shapes in which a line says that someone has, owes or does a thing.  A sentence that asserts one (a
question asks, and is let be) whose word is in neither the prompt the talk was written from (the
speaker's context, the others' sides, its points) nor the talk so far, nor the everyday words below,
is not said.

On five saved days' recordings (204 script lines) it names 5 lines, each an invention read by hand;
before the everyday words it named 3 more ("your offer", "her family", "our decisions").

Pure rules over words: no model call.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from game.mind.facts.owned import backing_words, stem
from game.mind.facts.unbacked import sentences

_THING = re.compile(r"\b(?:my|your|his|her|their|our)\s+(?P<d>[a-z]+)(?:'s|\u2019s)\s+(?:own\s+|new\s+)?(?P<c>[a-z]+)"
                    r"|\b(?:my|your|his|her|their|our)\s+(?:own\s+|new\s+|little\s+|usual\s+)?(?P<a>[a-z]+)"
                    r"|\bwith\s+(?:the|a|an|some)\s+(?P<b>[a-z]+)"
                    r"|\bI(?:'ve|\u2019ve| have)\s+(?:got\s+)?(?:some|a few|plenty of|lots of)\s+"
                    r"(?:(?:fresh|new|good|nice|lovely|special)\s+)?(?P<e>[a-z]+)", re.I)
# the everyday: what anyone has or does without a text saying so
EVERYDAY = frozenset("""
time times mind minds others day days week weekend morning evening afternoon night life family friend friends
home house place way ways help best offer offers idea ideas thought thoughts plan plans work job break lunch
breakfast dinner coffee meal food drink schedule turn word words news question questions advice support company
chance side part decision decisions local humor humour kindness smile voice energy enthusiasm spirit passion
dedication favorite favourite first last dear old good whole other own name health heart hands head feet eyes
hair door seat coat bag phone keys cup glass things stuff rest routine shift walk neighbour neighbor neighbours
neighbors guests guest community town people everyone everything something anything nothing same usual most
opinion opinions view views feelings feeling story stories memory memories hope hopes wishes thanks attention
patience trip visit""".split())


def new_things(sent: str, backed: set[str]) -> list[str]:
    """The things ``sent`` asserts that ``backed`` (``owned.backing_words``: stems) does not name
    ("his patients" -> ["patients"]); none in a question."""
    if sent.rstrip().endswith("?"):
        return []
    out = []
    for m in _THING.finditer(sent):
        for w in (x.lower() for x in m.group("d", "c", "a", "b", "e") if x):
            if len(w) < 4 or w in EVERYDAY or stem(w) in EVERYDAY or stem(w) in backed:
                continue
            out.append(w)
    return out


def without_new_things(text: str, backed: set[str], earlier: Iterable[str] = ()) -> tuple[str, list[str]]:
    """``text`` less its sentences that assert a thing nothing backs (``backed``, or the ``earlier``
    lines of the talk), and the things found."""
    known = backed | backing_words(*earlier)
    kept, found = [], []
    for s in sentences(text) or [text]:
        new = new_things(s, known)
        if new:
            found += new
        else:
            kept.append(s)
    return " ".join(kept), found
