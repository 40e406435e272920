"""What a resident is busy with is its own to say (issue 39): a whole talk is written in one call
with each speaker's points side by side (game/mind/talk/points.py), and a small model mixed them.
On 19282ee's day Ines told Rosa "she has a growing crush on Felix Adeyemi, the new baker" (Rosa's
point, which nothing of Ines's holds), and Rosa told Ines "I know you have a crush on Felix" (her
own point, given to the one she spoke to).  A sentence that says another's point without the
speaker's own life backing it, or gives the speaker's point to the listener as theirs, is not said.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from game.mind.facts.hours import stems

SHARED = 3  # words a sentence shares with another's point, none the speaker's, to be that point
GIVEN = 2  # words (and third people) a "you have/are" sentence shares with the speaker's own point, no word the
# listener's: Rosa's "I know you have a crush on Felix" shares "crush" and Felix
_YOU_ARE = re.compile(r"\byou(?:'re|’re| are| have|'ve|’ve| has been| have been)\b", re.I)


def point_not_theirs(sent: str, speaker: str, listeners: Sequence[str], points: Mapping[str, Sequence[str]],
                     lives: Mapping[str, str], people: Sequence[str], *, public: str = "",
                     homes: Mapping[str, str] | None = None) -> str:
    """Why ``sent`` (said by ``speaker``) says another's point or gives its own to the listener,
    else "".  ``points``: each resident's points (its persona's "currently", sentence by
    sentence); ``lives``: each resident's own text (persona and relationships), what backs it;
    ``public``: what everyone knows (the declared roles: "Hank Brody is running for mayor");
    ``homes``: who lives where (one's housemates' doings are known at home)."""
    names = {w.lower() for p in people for w in p.split()}
    said = stems(sent, names)
    mine = stems(f"{lives.get(speaker, '')} {public}", names)
    home = (homes or {}).get(speaker)
    for other in listeners:
        if home and (homes or {}).get(other) == home:
            continue
        for point in points.get(other, ()):
            shared = said & stems(point, names)
            if len(shared) >= SHARED and len(shared & mine) < 2:
                return f"{other.split()[0]}'s own to bring up"
    if len(listeners) == 1 and _YOU_ARE.search(sent) and not sent.rstrip().endswith("?"):
        theirs = stems(lives.get(listeners[0], ""), names)
        others = [p.split()[0] for p in people if p != speaker and p not in listeners]
        for point in points.get(speaker, ()):
            shared = said & stems(point, names)
            named = [f for f in others if re.search(rf"\b{f}\b", sent) and re.search(rf"\b{f}\b", point)]
            if len(shared) + len(named) >= GIVEN and shared and not shared & theirs:
                return f"{speaker.split()[0]}'s own, not {listeners[0].split()[0]}'s"
    return ""
