"""The resident's slower thinking: the daily identity summary and reflections (salient questions,
then insights that cite the memories they rest on).

``Reflector`` is a part of ``Mind`` (see mind.py): it owns the time of the last reflection; the
identity summary it writes is kept by the core, as every prompt begins with it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from game.llm.api import LLMError, Priority
from game.mind import prompting
from game.mind.core import MindCore
from game.mind.facts.claims import role_claims
from game.mind.facts.hours import stems
from game.mind.facts.linechecks import works_elsewhere
from game.mind.facts.unbacked import echoes_example, sentences
from game.mind.memory.stream import Record
from game.mind.planning.wording import whole_sentences
from game.mind.schemas import IDENTITY_MAX, IdentityAnswer, InsightsAnswer


class Reflector:
    """The identity summary and reflection.  Takes the core (memory, retrieval, the model)."""

    def __init__(self, core: MindCore) -> None:
        self.core = core
        self.last_reflection: datetime | None = None

    # ----------------------------------------------------------------- identity
    async def ensure_identity(self, now: datetime) -> str:
        """The identity summary (core traits, occupation, feeling about progress), refreshed daily."""
        d, _ = self.core.day_and_minute(now)
        if self.core.identity_date == d:  # asked today (a summary dropped as not about them stays so)
            return self.core.identity
        first_day = self.core.identity_date is None and d == self.core.first_date
        self.core.identity_asked(d)
        if first_day:
            # a new resident's first day: its memory holds the persona's seeds (and what it saw since),
            # and a summary of them says the persona's brief again.  The brief stands for the day, and
            # the first wake-up's critical path is two calls, not three (issue 42: at dawn on two cores
            # each identity took about a minute); from the second day it is asked
            self.core.count("identity_from_seeds")
            return self.core.identity
        first = self.core.persona.first_name
        recs: dict[int, Record] = {}
        for q in (f"{first}'s core characteristics", f"{first}'s current daily occupation",
                  f"{first}'s feeling about his recent progress in life"):
            for r in await self.core.recall(q, now, k=4, token_budget=120):
                recs[r.id] = r
        memories = "\n".join(f"- {r.text}" for r in sorted(recs.values(), key=lambda r: r.id)) or "- (nothing yet)"
        try:
            ans = await self.core.complete("identity", IdentityAnswer, "identity", Priority.REFLECT, now,
                                           max_tokens=100, first=first,
                                           name=self.core.name, memories=memories, date=now.strftime("%A %B %d"))
            self.core.new_identity(self._fit_identity(ans.summary, memories))
        except LLMError as e:
            self.core.fail("identity", e)
            self.core.new_identity("")  # asked again next time
            self.core.identity_asked(None)
        return self.core.identity

    def _fit_identity(self, summary: str, memories: str) -> str:
        """The summary as it goes into every prompt of the day: cut off by its length limit, it
        ends at its last whole sentence ("... still giving lessons to a aa" was in every prompt of
        Samuel's recorded morning); one that never names the resident is not about them and is
        dropped, the persona alone standing for the day (Ines's was the prompt's example, "Eddy is
        curious and hard-working. He studies music at the college. ...").  A sentence that echoes the
        example and nothing the resident holds is left out ("I felt good about the song I finished this
        week", said by Kenji, a pharmacist)."""
        text = whole_sentences(summary.strip(), near=IDENTITY_MAX - 20)
        backing = f"{self.core.persona.brief()}\n{self.core.persona.daily}\n{memories}"
        example, said = prompting.examples("identity"), sentences(text)
        kept = [s for s in said if not echoes_example(s, example, backing)]
        if len(kept) < len(said):
            self.core.count("identity_example_echo")
            text = " ".join(kept)
        if self.core.persona.first_name.lower() not in text.lower():
            self.core.count("identity_dropped")
            return ""
        return text

    # ---------------------------------------------------------------- reflection
    def reflection_due(self, now: datetime | None = None) -> bool:
        return self.core.memory.importance_since(self.last_reflection, now) >= self.core.config.reflect_threshold

    async def reflect_if_due(self, now: datetime) -> list[str]:
        """When the importance of what happened since the last reflection passes the threshold:
        the focal points (the most important of the recent records, by rule), retrieval for each
        over the whole stream, and insights citing their evidence (one call).

        The paper asks the model for the focal points first, as three salient questions about the
        recent records; a measured day of the small cast spent half its reflection calls (2.6 a
        resident-day) on those questions, and most of the 1.5B model's 39 were generic ("What is
        Rosa Brody's recent life like?", "What does Samuel Okafor do for a living?").  What made
        the reflection due, its most important records, is the focus here instead."""
        if not self.reflection_due(now):
            return []
        since = self.last_reflection
        self.last_reflection = now
        name = self.core.name
        focal = self._focal_points(since, now)
        evidence: dict[int, Record] = {}
        for q in focal:
            for r in await self.core.recall(q, now, k=5, token_budget=200, kinds=None):
                evidence.setdefault(r.id, r)
        if not evidence:
            return []
        numbered = sorted(evidence.values(), key=lambda r: r.created)[:15]
        listing = "\n".join(f"{n}. {r.text}" for n, r in enumerate(numbered, 1))
        try:
            ia = await self.core.complete("insights", InsightsAnswer, "reflect", Priority.REFLECT, now,
                                          max_tokens=200, name=name, items=listing)
        except LLMError as e:
            self.core.fail("reflect", e)
            return []
        made = []
        # what an insight may draw its words from: the resident and the statements it was shown (the
        # prompt's example, "Klaus is dedicated to his research", came back as "Grace Okafor is dedicated
        # to her research", and her interview said so: 90db376)
        example = prompting.examples("insights")
        backing = f"{self.core.persona.brief()}\n{self.core.persona.daily}\n{listing}"
        for text, cites in ((plain_insight(i.insight), i.evidence) for i in ia.insights):
            if echoes_example(text, example, backing):
                self.core.count("insight_example_echo")
                continue
            ids = []
            for n in cites:
                if 1 <= n <= len(numbered):
                    ids.append(numbered[n - 1].id)
                else:
                    self.core.count("evidence_dropped")
            ids = list(dict.fromkeys(ids))
            if not text or not ids:
                self.core.count("insight_dropped")
                continue
            if self._misattributes(text):
                continue
            cited = "\n".join(evidence[i].text for i in ids)
            if ungrounded(text, f"{self.core.persona.brief()}\n{cited}", self.core.facts.town.people):
                self.core.count("insight_ungrounded")  # (Rosa "is well-versed in business operations", of
                continue  # what Felix told her of his stall: 136a191)
            self.core.memory.add("reflection", text, now, evidence=ids)
            made.append(text)
        self.core.count("reflections", len(made))
        return made

    def _misattributes(self, insight: str) -> bool:
        """Whether an insight gives someone a workplace or a role the town does not ("Samuel Okafor
        is managing Bluebell Cafe", of the cafe's pianist; facts/linechecks.py, facts/claims.py): not kept,
        counted (``insight_misattributed``).  A reflection is a memory that later prompts carry."""
        town = self.core.facts.town
        bad = works_elsewhere(insight, "", town) or any(
            not c.backed for c in role_claims(insight, list(town.people), town.roles))
        self.core.count("insight_misattributed", bool(bad))
        return bool(bad)

    def _focal_points(self, since: datetime | None, now: datetime | None = None, n: int = 3) -> list[str]:
        """The texts of the ``n`` most important records of the last 60 since ``since`` (the
        newer first among equals): what made the reflection due."""
        last = self.core.memory.recent(60, until=now)
        recent = [r for r in last if since is None or r.created > since] or last
        ranked = sorted(enumerate(recent), key=lambda ir: (-ir[1].importance, -ir[0]))
        return [r.text for _, r in ranked[:n]]


GROUNDED = 0.34  # the share of an insight's own words its resident and cited records must hold


def ungrounded(insight: str, backing: str, people: Sequence[str]) -> bool:
    """Whether most of an insight's words (three or more, by their stems) come from nothing its
    resident is nor the records it cites: the model's own story, not a reflection on what happened."""
    names = {w.lower() for p in people for w in p.split()}
    words = {w for w in stems(insight, names) if len(w) >= 4}
    if len(words) < 3:
        return False
    return len(words & stems(backing, names)) < GROUNDED * len(words)


# an analyst's clause on an insight ("..., as evidenced by her actions in helping with", "..., based on her
# statement in", "..., likely for Grace's 60th birthday": Rosa's on eaef4b9's day): a memory the resident
# later speaks from, and her interview answers said "as evidenced by my actions" and "based on my statement"
_ANALYST = re.compile(r",?\s+(?:likely|probably|possibly|as evidenced by|as shown by|as seen in|based on|according to"
                      r"|which (?:suggests|indicates|shows))\b.*$", re.I)


def plain_insight(text: str) -> str:
    """An insight less an analyst's clause at its end (and what follows it), ending as a sentence."""
    cut = _ANALYST.sub("", text.strip()).rstrip(" ,;:")
    if re.search(r"\b(?:is|are|was|were|has|have|had|seems|appears|be)\W*$", cut, re.I):
        return ""  # nothing left to say ("Grace Okafor is likely ...": "Grace Okafor is.", b61bcdc's day)
    return (cut + "." if cut and cut[-1] not in ".!?" else cut) if cut != text.strip() else text
