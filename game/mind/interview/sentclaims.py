"""The rules an interview answer's sentence is read by for what it claims of places, people's work,
amounts, pastimes, homes, scenes, secret roles, the past and what is only supposed (backing.py asks
again with the reason, then drops the sentence)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from game.mind.facts.fact import TownNames
from game.mind.facts.hidden import hidden_role_problem
from game.mind.facts.hypothetical import as_if_so, held_as_if
from game.mind.facts.linechecks import works_elsewhere, wrong_kind_of_place
from game.mind.facts.oneastwo import one_as_two
from game.mind.facts.pastnow import past_as_now
from game.mind.facts.roleslips import named_at_work_elsewhere
from game.mind.facts.slips import home_unbacked, made_for_me_said_as_mine, strangers_in_scene
from game.mind.facts.unbacked import amount_unbacked
from game.mind.facts.workplace import campaign_given
from game.mind.interview.ownclaims import pastime_unbacked

# a lack said of a place of the town that nothing held says ("improving the accessibility of Bluebell Cafe ..., as
# it currently lacks a wheelchair-accessible entrance", Samuel asked what he would change, 654b82e's save)
_LACKS = re.compile(r"\b(?:currently |still |really )?(?:lacks|doesn't have|does not have|has no)\s+"
                    r"(?:a |an |any |enough )?(?P<x>[\w-]+(?: [\w-]+){0,3})", re.I)


# a trade the speaker gives itself ("I am also a great singer and songwriter", Grace, the mayor, on d7d6132's save),
# backed by the trade or its stem in what it holds ("Samuel ... teaching music": no singer); a trait said as a noun
# ("a good listener", "a firm believer") or kin ("a proud mother") is no trade
_MY_TRADE = re.compile(r"\bI(?:'m|’m| am)\s+(?:also\s+|still\s+)?(?:a|an)\s+(?:[\w-]+\s+){0,3}?"
                       r"(?P<t>[a-z]+(?:er|ist|ista|ian|or))(?:\s+and\s+(?:an?\s+)?(?P<u>[a-z]+(?:er|ist|ista|ian|or)))?\b")
_NO_TRADE = frozenset({"listener", "believer", "learner", "thinker", "dreamer", "leader", "planner", "organizer",
                       "organiser", "helper", "worker", "lover", "fighter", "survivor", "supporter", "member",
                       "customer", "visitor", "neighbor", "neighbour", "regular", "admirer", "fan", "mother", "father",
                       "grandmother", "grandfather", "daughter", "sister", "brother", "partner", "caretaker",
                       "person", "newcomer", "stranger", "senior", "owner", "humor", "minor", "major", "junior"})


def trade_unheld(sent: str, backing: str) -> str:
    """Why ``sent`` gives its speaker a trade nothing it holds names, else ""."""
    low = backing.lower()
    for m in _MY_TRADE.finditer(sent):
        for t in (m.group("t"), m.group("u")):
            if not t or t.lower() in _NO_TRADE:
                continue
            stem = re.sub(r"(?:er|ist|ista|ian|or)$", "", t.lower())
            said = [t.lower(), *([stem] if len(stem) >= 4 else []), *_DONE.get(t.lower(), ())]
            if not any(w in low for w in said):
                return f"you are not a {t}"
    return ""


# a trade by what is done ("taught music for thirty years", "the song he wrote for Grace")
_DONE = {"teacher": ("taught", "lessons"), "writer": ("wrote", "writes"), "singer": ("sang", "sings"),
         "songwriter": ("wrote a song", "song he wrote", "song she wrote")}


def lack_unheld(sent: str, places: Sequence[str], backing: str) -> str:
    """Why ``sent`` says a place of the town lacks a thing no text the resident holds speaks of, else ""."""
    m = _LACKS.search(sent)
    if m is None or not any(p.lower() in sent.lower() for p in places):
        return ""
    words = [w for w in re.findall(r"[a-z]{4,}", m.group("x").lower()) if w not in ("good", "proper", "real")]
    low = backing.lower()
    return f"nothing you hold says it lacks {m.group('x')}" if words and not any(w[:5] in low for w in words) else ""


# who will come, said of the whole town ("It is hosted by Grace Okafor and will be attended by all residents of
# Millbrook", Grace of her debate on 2c4c6ac's save): nothing the town holds says who comes
_ALL_COME = re.compile(r"\battended by (?:all|every|the whole)\b|\b(?:everyone|everybody|all (?:the )?residents|the "
                       r"whole town) (?:in (?:town|\w+) )?(?:will|is going to|are going to) (?:be there|come|attend)\b",
                       re.I)


def all_come(sent: str, backing: str) -> str:
    """Why ``sent`` says the whole town comes to something, with no text held saying so, else ""."""
    m = _ALL_COME.search(sent)
    if m and re.search(r"\b(?:hope|hoping|wish|want|invite|inviting|would like|if)\b", sent[:m.start()], re.I):
        return ""  # a wish, an invitation: no claim
    return f"nothing you hold says who comes ({m.group(0)})" if m and m.group(0).lower() not in backing.lower() else ""


def claims_unbacked(sent: str, me: str, town: TownNames, backing: str, question: str) -> tuple[str, ...]:
    """Someone at another's workplace (linechecks, roleslips), amounts, pastimes, a home, scenes the
    town lacks, a secret role, the past said as now (pastnow), a supposed thing said as so, a campaign of one
    who runs for nothing, one person said as two (oneastwo): each reason, or ""."""
    return (works_elsewhere(sent, me, town) or named_at_work_elsewhere(sent, town),
            wrong_kind_of_place(sent, town.places), amount_unbacked(sent, backing), pastime_unbacked(sent, backing),
            home_unbacked(sent, backing), strangers_in_scene(sent), hidden_role_problem(sent, me, [], town),
            as_if_so(sent, question, town.people), made_for_me_said_as_mine(sent, me, backing),
            held_as_if(sent, town.roles.get(me, ())), past_as_now(sent, [backing]), campaign_given(sent, [], town, me),
            lack_unheld(sent, town.places, backing), all_come(sent, backing), trade_unheld(sent, backing),
            one_as_two(sent, me, town.people, town.relations))  # ("breakfast with Grace and my wife", Samuel)


def current_not_former(answer: str, me: str, town: TownNames) -> tuple[str, list[str]]:
    """``answer`` without "former" before an office the speaker holds now ("a 59-year-old former mayor of
    Millbrook", Grace of herself on 2c4c6ac's save, her civics teaching the former role), and the mends."""
    fixes: list[str] = []
    for role in town.roles.get(me, ()):
        if role.startswith("candidate"):
            continue
        pat = re.compile(rf"\b(?:former|ex-)\s*(?=(?:[a-z]+ )?{re.escape(role)}\b)", re.I)
        if pat.search(answer):
            answer = pat.sub("", answer)
            fixes.append(f"former {role}: {role} now")
    return answer, fixes
