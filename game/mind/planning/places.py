"""Choosing an action's place among the addresses a resident is allowed to use.

Addresses look like ``"sector:arena:object"`` (or shorter).  The model is offered the allowed
list; whatever it writes is matched back to one of them: exactly, then ignoring case and
punctuation, then by word overlap with the address and its parts.  When nothing matches
sensibly the resident's fallback (home, else where it stands) is used and the caller counts it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_WORD = re.compile(r"[a-z0-9]+")
_STOP = {"the", "a", "an", "of", "in", "at", "to", "on", "s", "and", "my", "his", "her", "their"}


def _words(s: str) -> set[str]:
    out = set()
    for w in _WORD.findall(s.lower()):
        if w in _STOP:
            continue
        if len(w) > 3 and w.endswith("s"):
            w = w[:-1]
        out.add(w)
    return out


def _norm(s: str) -> str:
    return " ".join(_WORD.findall(s.lower()))


@dataclass(frozen=True)
class PlaceChoice:
    address: str
    exact: bool  # the model named an allowed address (up to case/punctuation)
    fallback: bool  # nothing matched: the fallback was used


def resolve_place(raw: str, allowed: tuple[str, ...] | list[str], fallback: str) -> PlaceChoice:
    allowed = list(allowed)
    if not allowed:
        return PlaceChoice(fallback, False, True)
    raw = (raw or "").strip()
    if raw in allowed:
        return PlaceChoice(raw, True, False)
    n = _norm(raw)
    if not n:
        return PlaceChoice(_sensible(fallback, allowed), False, True)
    for a in allowed:
        if _norm(a) == n:
            return PlaceChoice(a, True, False)
    # the model may give only the last part(s): "kitchen" or "Lin house:kitchen"
    tails = [a for a in allowed if _norm(a).endswith(n)]
    if len(tails) == 1:
        return PlaceChoice(tails[0], False, False)
    want = _words(raw)
    best, best_score = None, 0.0
    for a in allowed:
        parts = a.split(":")
        have = _words(a)
        if not have:
            continue
        common = want & have
        if not common:
            continue
        # reward covering the deepest part (the object/arena the model meant)
        last = _words(parts[-1])
        score = len(common) / len(want | have) + (0.5 if last and last <= want else 0.0)
        score -= 0.01 * len(parts)  # ties: prefer the broader address
        if score > best_score:
            best, best_score = a, score
    if best is not None and best_score >= 0.2:
        return PlaceChoice(best, False, False)
    return PlaceChoice(_sensible(fallback, allowed), False, True)


def _sensible(fallback: str, allowed: list[str]) -> str:
    """The fallback if allowed, else the allowed address that shares most of it, else the first."""
    if fallback in allowed:
        return fallback
    if fallback:
        for a in allowed:
            if a.startswith(fallback) or fallback.startswith(a):
                return a
    return allowed[0] if allowed else fallback


def find_in(allowed: tuple[str, ...] | list[str], under: str, words: tuple[str, ...]) -> str | None:
    """An allowed address below ``under`` whose last part mentions one of ``words``."""
    for w in words:
        for a in allowed:
            if (not under or a.startswith(under)) and w in a.split(":")[-1].lower():
                return a
    return None


def format_places(addresses: tuple[str, ...] | list[str]) -> str:
    """The addresses as a compact list for a prompt, one line per area: ``"Lin house: kitchen
    (stove, table); bathroom"``.  About half the characters of one address per line; the answer's
    schema still holds the full addresses, so the model writes one of them whole."""
    sectors: dict[str, dict[str, list[str]]] = {}
    for a in addresses:
        parts = [p.strip() for p in a.split(":")]
        arenas = sectors.setdefault(parts[0], {})
        if len(parts) >= 2:
            things = arenas.setdefault(parts[1], [])
            rest = ":".join(parts[2:])
            if rest and rest not in things:
                things.append(rest)
    lines = []
    for sector, arenas in sectors.items():
        if not arenas:
            lines.append(sector)
            continue
        rooms = "; ".join(f"{arena} ({', '.join(things)})" if things else arena
                          for arena, things in arenas.items())
        lines.append(f"{sector}: {rooms}")
    return "\n".join(lines)
