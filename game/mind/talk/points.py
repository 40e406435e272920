"""What a resident may bring up in a talk, built by rule from what it holds (issue 39): the
gatherings it knows of, whose each is and whether each listener has heard of it; what it is
doing now; what it is busy with this week (its persona's own words, less what it keeps to
itself).  Each point is the speaker's own, in the third person with its name, so that a model
writing both sides of a talk knows whose each one is.

A small model writing a whole talk took one speaker's news for the other's ("I see you're
helping Samuel prepare the party", to the one who was not), a topic of the other side's as its
own (the mayor with "new pub quiz ideas", the landlord's), and spoke of the listener in the
third person.  The points say whose each thing is; the converse prompt asks each line to bring
up one of its speaker's points or answer the line before.

Pure rules over the mind's records: no model call.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime

from game.mind.core import MindCore
from game.mind.facts.fact import Fact
from game.mind.facts.unbacked import sentences

# what a persona keeps to itself: not a point to bring up (it stays in its own context)
_PRIVATE = re.compile(r"\b(?:secret|secretly|privately|has not told|have not told|not dared|hasn't told|"
                      r"only (?:his|her|their) \w+ knows|must keep it from|keeps? it from|nobody knows)\b", re.I)
MAX_POINTS = 4


def public(text: str) -> str:
    """``text`` less its sentences that say what their subject keeps to itself ("Kenji Tanaka
    secretly writes the anonymous 'Millbrook Owl' column"): another's side of a talk shows the rest."""
    parts = sentences(text)
    return " ".join(s for s in parts if not _PRIVATE.search(s)) if parts else text


def public_lines(text: str) -> str:
    """``public`` line by line: a section's lines ("- Hank Brody has not told anyone ...") less
    what their subject keeps to itself; a line left empty goes."""
    kept = [(public(line[2:]) and "- " + public(line[2:])) if line.startswith("- ") else public(line)
            for line in text.splitlines()]
    return "\n".join(k for k, line in zip(kept, text.splitlines()) if k.strip() or not line.strip())


def _fact_point(core: MindCore, f: Fact, listeners: Sequence[str], now: datetime) -> str:
    """A gathering as a point of this resident: whose it is from its side, and who has heard."""
    first = core.persona.first_name
    when = f.when_text(now)
    at = f" at {f.place}" if f.place else ""
    what = re.sub(r"^(?:the|a|an)\s+", "", f.bare_what, flags=re.I)  # ("Grace Okafor's public debate")
    if f.host == core.name:
        head = f"{first}'s own {what}{at} {when}".rstrip()
    else:
        head = f"{f.host}'s {what}{at} {when}".rstrip()
    # who of the listeners it knows has heard: those it told, the one who told it
    heard = [p.split()[0] for p in listeners if p in f.told or p == f.source]
    return head + (f"; {', '.join(heard)} knows of it" if heard else "")


def talking_points(core: MindCore, now: datetime, listeners: Sequence[str], doing: str = "") -> list[str]:
    """This resident's points for a talk with ``listeners``: its gatherings (none kept from a
    listener, none a listener is the host of: that one is the listener's to speak of), what it is
    doing, and what its persona is busy with, at most ``MAX_POINTS``."""
    first = core.persona.first_name
    out = []
    for f in core.facts.upcoming(now):
        if f.kind != "gathering" or f.kept_from(listeners) or f.host in listeners:
            continue
        out.append(_fact_point(core, f, listeners, now))
    if doing:
        out.append(f"{first} is {doing}")
    for sent in sentences(core.persona.currently):
        if _PRIVATE.search(sent) or any(f.kept_from(listeners) and f.speaks_of(sent) for f in core.facts):
            continue
        out.append(re.sub(r"^(?:He|She|They)\b", first, sent).rstrip("."))
    return out[:MAX_POINTS]


def render_points(first: str, points: Sequence[str], tagged: bool = False) -> str:
    """The points as a prompt section: "Ines's own to bring up:" and one per line; ``tagged``, each
    with its tag in front ("- (Ines 1) ..."), which a line of a tagged talk names (``point_tags``)."""
    if not points:
        return ""
    return f"{first}'s own to bring up:\n" + "\n".join(
        f"- ({first} {n}) {p}" if tagged else f"- {p}" for n, p in enumerate(points, 1))


_TAG = re.compile(r"^- \((\S+) (\d)\) ", re.M)


def point_tags(text: str, calls: Sequence[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each of ``calls`` (the talk's speakers as the script names them) with the tags of its points
    in ``text`` (a talk's prompt sections, rendered ``tagged``)."""
    found: dict[str, list[str]] = {c: [] for c in calls}
    for m in _TAG.finditer(text):
        if m.group(1) in found and f"{m.group(1)} {m.group(2)}" not in found[m.group(1)]:
            found[m.group(1)].append(f"{m.group(1)} {m.group(2)}")
    return tuple((c, tuple(found[c])) for c in calls)


def point_text(text: str, tag: str) -> str:
    """The words of the point tagged ``tag`` in ``text`` ("" when none)."""
    m = re.search(rf"^- \({re.escape(tag)}\) (.*)$", text, re.M)
    return m.group(1) if m else ""


def unworded(lines: Sequence[object], text: str) -> int:
    """How many lines of a tagged talk name a point and share no word of four letters or more with
    it: what the model tagged and what it wrote are apart (counted, to tell how it uses the tags)."""
    n = 0
    for ln in lines:
        tag = str(getattr(ln, "point", "") or "")
        words = set(re.findall(r"[a-z]{4,}", point_text(text, tag).lower()))
        if words and not words & set(re.findall(r"[a-z]{4,}", str(getattr(ln, "say", "")).lower())):
            n += 1
    return n


# the converse prompt's rule for the points, where they are given; and for points tagged
POINTS_RULE = (" A line brings up one of its speaker's own points, or answers the line before; each point is"
               " only its owner's to tell, and the one it is told to is spoken to as \"you\".")
TAGGED_RULE = (" Each line first names in point what it brings up: the tag of one of its own speaker's points"
               " (a point is only its owner's to tell), or \"reply\" when it answers the line before. The one a"
               " point is told to is spoken to as \"you\".")
_EXAMPLE = [("Tom", "Tom 1", "Morning, Ann! The market moves to Friday this week."),
            ("Ann", "reply", "Thanks for telling me, Tom. I will bake on Thursday then.")]


def points_rule(points: bool, tagged: bool) -> str:
    return TAGGED_RULE if tagged else POINTS_RULE if points else ""


def script_example(tagged: bool) -> str:
    """The converse prompt's example answer, its lines with their points when ``tagged``."""
    lines = [{"speaker": who, **({"point": tag} if tagged else {}), "say": say} for who, tag, say in _EXAMPLE]
    return json.dumps({"lines": lines, "matters": "notable"})
