"""The rules an interview answer's sentence is read by for what it claims of places, people's work,
amounts, pastimes, homes, scenes, secret roles, the past and what is only supposed (backing.py asks
again with the reason, then drops the sentence)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from game.mind.facts.fact import TownNames
from game.mind.facts.hidden import hidden_role_problem
from game.mind.facts.hypothetical import as_if_so, held_as_if
from game.mind.facts.linechecks import amount_unbacked, works_elsewhere, wrong_kind_of_place
from game.mind.facts.pastnow import past_as_now
from game.mind.facts.roleslips import named_at_work_elsewhere
from game.mind.facts.slips import home_unbacked, made_for_me_said_as_mine, strangers_in_scene
from game.mind.facts.workplace import campaign_given
from game.mind.interview.ownclaims import pastime_unbacked

# a lack said of a place of the town that nothing held says ("improving the accessibility of Bluebell Cafe ..., as
# it currently lacks a wheelchair-accessible entrance", Samuel asked what he would change, 654b82e's save)
_LACKS = re.compile(r"\b(?:currently |still |really )?(?:lacks|doesn't have|does not have|has no)\s+"
                    r"(?:a |an |any |enough )?(?P<x>[\w-]+(?: [\w-]+){0,3})", re.I)


def lack_unheld(sent: str, places: Sequence[str], backing: str) -> str:
    """Why ``sent`` says a place of the town lacks a thing no text the resident holds speaks of, else ""."""
    m = _LACKS.search(sent)
    if m is None or not any(p.lower() in sent.lower() for p in places):
        return ""
    words = [w for w in re.findall(r"[a-z]{4,}", m.group("x").lower()) if w not in ("good", "proper", "real")]
    low = backing.lower()
    return f"nothing you hold says it lacks {m.group('x')}" if words and not any(w[:5] in low for w in words) else ""


def claims_unbacked(sent: str, me: str, town: TownNames, backing: str, question: str) -> tuple[str, ...]:
    """Someone at another's workplace (linechecks, roleslips), amounts, pastimes, a home, scenes the
    town lacks, a secret role, the past said as now (pastnow), a supposed thing said as so, a campaign of one
    who runs for nothing: each reason, or ""."""
    return (works_elsewhere(sent, me, town) or named_at_work_elsewhere(sent, town),
            wrong_kind_of_place(sent, town.places), amount_unbacked(sent, backing), pastime_unbacked(sent, backing),
            home_unbacked(sent, backing), strangers_in_scene(sent), hidden_role_problem(sent, me, [], town),
            as_if_so(sent, question, town.people), made_for_me_said_as_mine(sent, me, backing),
            held_as_if(sent, town.roles.get(me, ())), past_as_now(sent, [backing]), campaign_given(sent, [], town, me),
            lack_unheld(sent, town.places, backing))
