"""Object states from a vocabulary: a proposed change is one of the object's states or nothing.

A model (or the player) proposes a state in free words ("brewing", "is on fire!", "turned off");
each kind of object has its own short list of states (``kinds.toml``), and the proposal is matched
to one of them or dropped.  So the fridge can be open or empty but never "browsing", and a fire
goes out when someone puts it out.
"""

from __future__ import annotations

import re

from .affordances import KindInfo, Mishap, load_kinds
from .objects import IDLE

_PUT_OUT = re.compile(r"\b(put(?:ting|s)? out|extinguish\w*|douse\w*|smother\w*|stop(?:s|ping|ped)? the fire)\b")
_MISHAPS = load_kinds().mishaps  # [mishap.STATE] of kinds.toml
# states a mishap puts a thing in: a resident's action leaves its object so only when the action's
# own words say it happens ("burning the toast", "breaking a glass"); a reaction to a fire
# proposing "on fire" for the desk it sits at is dropped (seen in play: Felix "calling Nora
# Lindqvist" set his desk on fire).  The player may put anything in them.
MISHAPS = frozenset(_MISHAPS)
# the mishaps that call for action (a fire, a leak): whoever is awake near one goes to it and makes
# it safe, its resting state (game/engine/noticing/hazards.py)
HAZARDS = frozenset(s for s, m in _MISHAPS.items() if m.urgent)
# only looking at a thing does not mend it ("checking if the stove is still on fire", state "off")
_LOOKING = re.compile(r"\b(check\w*|look(?:s|ing|ed)? (?:at|into|over)|see(?:s|ing)? (?:if|whether|what)|watch\w*|"
                      r"inspect\w*|investigat\w*|examin\w*|observ\w*|notic\w*|wonder\w*)\b")
_CAUSES = re.compile(r"\b(burn\w*|set(?:s|ting)? \w+(?: \w+)? on fire|set(?:s|ting)? fire|catch\w* fire|caught fire|"
                     r"break(?!fast)\w*|broke|smash\w*|leak\w*|flood\w*|overflow\w*|clog\w*|block\w*)\b")
_OCCUPIED = frozenset({"in use", "occupied"})  # being used: not read from an activity's words
_OFF_WORDS = ("idle", "off", "turned off", "switched off", "put out", "out", "extinguished", "normal", "free",
              "closed", "done", "finished", "stopped", "fixed" )


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9-]+", (text or "").lower()))


def _has(text: str, phrase: str) -> bool:
    return bool(re.search(rf"(?<![a-z0-9-]){re.escape(phrase)}(?![a-z0-9-])", text))


def match_state(info: KindInfo, proposal: str) -> str | None:
    """The state of ``info``'s vocabulary that ``proposal`` means (``IDLE`` for its resting state),
    or None when it means none of them.  Exact names first, then the longest phrase found in it."""
    p = _norm(proposal)
    if not p:
        return None
    rest = _norm(info.rest)
    if p in (rest, IDLE):
        return IDLE
    for state in info.states:
        if p == _norm(state):
            return state
    best: tuple[int, str] | None = None
    for state, words in info.states.items():
        for w in (state, *words):
            w = _norm(w)
            if w and _has(p, w) and (best is None or len(w) > best[0]):
                best = (len(w), state)
    rest_words = {rest, *_OFF_WORDS} - {_norm(s) for s in info.states}
    for w in rest_words:
        if w and _has(p, w) and (best is None or len(w) > best[0]):
            best = (len(w), IDLE)
    return best[1] if best else None


def settle(info: KindInfo, current: str, proposal: str | None, activity: str = "") -> str | None:
    """The state an action leaves its object in, or None for no change: a fire or a leak is put out
    by an action that says so (whatever state it proposed); otherwise the proposal, matched, and a
    mishap (``MISHAPS``) only when the activity itself says it; a thing in a mishap's state only
    when the action mends it (``mends``)."""
    if current != IDLE and _PUT_OUT.search((activity or "").lower() + " " + (proposal or "").lower()):
        return IDLE
    if current in MISHAPS:  # a burning stove is not turned "on" by checking on it (recorded:
        # "checking if the stove is still on fire", state "on"): only mended
        return IDLE if mends(info, current, proposal, activity) else None
    if not proposal:
        return _from_activity(info, current, activity)
    state = match_state(info, proposal)
    if state in MISHAPS and not _CAUSES.search((activity or "").lower()):
        return None
    return state


def mends(info: KindInfo, current: str, proposal: str | None, activity: str = "") -> bool:
    """Whether an action (its words, the state it proposes) makes a thing in a mishap's state safe
    again: its words say so (the mishap's own ``mend`` words: "turning off the stove", "fixing
    the leak"), or it proposes the resting state ("off", "fixed") and does more than look at it
    ("checking if the stove is still on fire" with "off" leaves it burning)."""
    words = _norm(activity)
    m = _MISHAPS.get(current)
    if m is not None and any(_has(words, _norm(w)) for w in m.mend):
        return True
    if _PUT_OUT.search((activity or "").lower() + " " + (proposal or "").lower()):
        return True
    return (bool(proposal) and match_state(info, proposal or "") == IDLE
            and not _LOOKING.search((activity or "").lower()))


def mishap(state: str) -> Mishap | None:
    """How a thing in ``state`` is mended, if ``state`` is a mishap's (``kinds.toml``)."""
    return _MISHAPS.get(state)


def _from_activity(info: KindInfo, current: str, activity: str) -> str | None:
    """With no state proposed, the one the activity's own words name ("cooking" at a stove: on;
    "closing the fridge" that stood open: closed); never a mishap, and the resting state only for
    a thing that is not at rest, and not that a table or a desk is "in use" while someone eats or
    writes at it (every meal would be news to everyone who sees it).  None when the words name none."""
    state = match_state(info, activity or "")
    if state is None or state in MISHAPS or state in _OCCUPIED or (state == IDLE and current == IDLE):
        return None
    return state


def describe(info: KindInfo, state: str) -> str:
    """A state as people say it: the resting state by its own name ("off", "closed")."""
    return info.rest if state == IDLE else state
