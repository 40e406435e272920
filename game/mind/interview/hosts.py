"""A gathering given another host in an answer ("Grace Okafor is hosting it", of Samuel's party for her), read by
rules for backing.py: no model call."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from game.mind.facts.fact import Fact, TownNames
from game.mind.facts.unbacked import sentences

# ("Grace Okafor is my wife, the love of my life, and the one who is hosting the surprise party for Grace's 60th
# birthday", Samuel of his own party on 160f87f's save)
_HOSTS = re.compile(r"\b(?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?),? (?:who )?(?:is|'s|will be|was) (?:already )?"
                    r"(?:the one who will be |(?:[\w']+ ){1,5}and |[^.!?]{0,60}?\bthe one who (?:is |will be |was )?)?"
                    r"(?:hosting|throwing|holding|organi[sz]ing|the host|"
                    r"the organi[sz]er|(?P<up>setting up|preparing|decorating|planning))\b")  # (up: a helper's too)
# "She is hosting the party", of the one the sentence before named
_SHE_HOSTS = re.compile(r"^(?:She|He)(?: is|'s| will be| was) (?:hosting|throwing|holding|organi[sz]ing)\b")
_FULL = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)?\b")

_HELPS = re.compile(r"\bhelp(?:s|ing)? (?P<who>[A-Z][a-z]+(?: [A-Z][a-z]+)?) (?:to )?(?:prepare|plan|organi[sz]e|"
                    r"set up|get ready for|with)\b")


def hosts_wrong(answer: str, held: Sequence[Fact], town: TownNames, now: datetime | None) -> list[tuple[str, str]]:
    """A sentence about a gathering it holds (or the sentence before spoke of) that gives it another host ("Grace
    Okafor is hosting it"; "helping Samuel prepare Grace's debate"; "Grace, who was already setting up the party")."""
    out = []
    last: str | None = None  # the one the sentences so far named last
    before: list[Fact] = []  # the gatherings the sentence before spoke of
    for sent in sentences(answer):
        here = [f for f in held if f.speaks_of(sent)]
        named = [m.group("who") for m in [*_HOSTS.finditer(sent), *_HELPS.finditer(sent)] if not m.groupdict().get(
            "up") or any(f.honoree and m.group("who") in (f.honoree, f.honoree.split()[0]) for f in here)]
        if last is not None and _SHE_HOSTS.match(sent):
            named.append(last)
        for said in named:
            who = next((p for p in town.people if said in (p, p.split()[0])), None)
            about = here or before  # ("It is a surprise party ... Grace is the host")
            if who is None or not about or any(f.host == who for f in about):
                continue
            out.append((sent, f"{about[0].host} is the host: {about[0].sentence(now)}."))
        names = [p for m in _FULL.finditer(sent) for p in town.people if m.group(0) in (p, p.split()[0])]
        last, before = names[-1] if names else last, here
    return out
