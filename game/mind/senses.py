"""What the resident takes in: sights (routine ones scored by rule, the rest in batches by the
model), the inner voice, what other residents said to it, and the facts in what it thought or
was told.

``Senses`` is a part of ``Mind`` (see mind.py): it owns the bookkeeping of scoring in flight, the
least importance of what others told the resident and the ratings of sights it has seen.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from datetime import datetime, timedelta

from game.llm.api import LLMError, Priority
from game.mind.core import MindCore
from game.mind.facts.fact import Fact
from game.mind.planning.agenda import Agenda
from game.mind.schemas import ImportanceAnswer, clean_text
from game.mind.view import Conversation

# the engine's own words for a talk seen from outside (game/engine/talks/): what was said is remembered by
# those in it, and the sight of it was rated routine by the model in 43 of 44 cases (a whole day)
_NAME = r"[A-Z][\w'.-]*(?: [A-Z][\w'.-]*)*"
_TALK_SIGHTS = re.compile(rf" is (?:talking with|going to talk with) {_NAME}(?:, {_NAME})*(?: \([^()]*\))?$")


def rule_importance(text: str) -> float | None:
    """Importance by rule for routine sights, or None when the model should score it."""
    t = " " + text.lower()
    if any(m in t for m in ("is sleeping", "is asleep", "is idle", " wall", " floor", "is empty",
                            "is thinking about the conversation")):
        return 1.0
    if t.rstrip().endswith((" is idle", " is off", " is closed", "is walking", "is standing")):
        return 2.0
    if _TALK_SIGHTS.search(text.strip()):
        return 2.0
    return None


SEEN_RATINGS = 1024  # sights whose model rating a resident keeps, to rate them again by itself


_WHERE = re.compile(r"\s*\([^()]*\)$")


def sight_key(text: str) -> str:
    """A sight without where it was seen: "Rosa is working (the cafe counter ...)" and "Rosa is
    working (the cafe ...)" within the dedupe window are one sight, stored once (in a recorded
    day, 155 of the 587 sights sent to be scored repeated another of the same batch so)."""
    return _WHERE.sub("", text)


class Hearsay:
    """Facts taken in: read in the resident's own thought or in what someone said, or told in a talk
    (the engine checked the words).  Takes the core (facts, memory, stats)."""

    def __init__(self, core: MindCore) -> None:
        self.core = core

    def read_fact(self, text: str, now: datetime, *, host: str | None = None, source: str = "") -> Fact | None:
        """A gathering or candidacy in ``text`` (the resident's own thought, or what ``source``
        said), kept as a fact; None when the words hold none (facts/fact.py, no model call)."""
        p = self.core.persona
        fact = self.core.facts.read(text, p.name, now, host=host, source=source,
                                    home=(p.home or "").split(":")[0], work=(p.workplace or "").split(":")[0])
        if fact is not None:
            self.core.count("facts_read")
        return fact

    def hear_fact(self, fact: Fact, source: str, now: datetime) -> bool:
        """``source`` told the resident ``fact`` (a talk said it; the engine checked the words): kept
        as what that person said, and remembered in the town's words, not the model's."""
        heard = self.core.facts.hear(fact, source, now)
        if heard is None:
            return False
        self.core.count("facts_heard")
        self.core.memory.add("conversation", f"{source} told me: {heard.sentence(now)}.", now,
                             importance=max(7.0, self.core.config.told_floor))
        return True


class Senses:
    """Observing, scoring importance, whispers, remembering what was said.

    Takes the core (memory, facts, stats, the model), the agenda (a thought asks for a replan) and
    the hearsay (a thought may hold a fact)."""

    def __init__(self, core: MindCore, agenda: Agenda, hearsay: Hearsay) -> None:
        self.core = core
        self.agenda = agenda
        self.hearsay = hearsay
        self._scoring: set[int] = set()
        self._floor: dict[int, float] = {}  # record id -> least importance once scored
        # sight (without where) -> the importance the model gave it for this resident: the same
        # sight again, past the dedupe window, gets it without a call (in a whole day, 32 of the
        # 308 sights the model scored it had scored before). Not saved: after a load, the first
        # sighting is asked again.
        self._rated: OrderedDict[str, float] = OrderedDict()

    # ------------------------------------------------------------ observation
    async def observe(self, now: datetime, percepts: list[str], *, score: bool = True) -> list[int]:
        """Store what the resident perceives; routine sights by rule, the rest scored in batches
        (``score`` False: not now, whatever is due; ``score_pending`` later)."""
        self.core.seed(now)
        new = []
        since = now - timedelta(minutes=self.core.config.dedupe_minutes)
        for raw in percepts:
            text = clean_text(raw, 300)
            if not text:
                continue
            # someone doing the same thing a few steps further on is the same sight
            old = self.core.memory.find_recent_text(text, since, key=sight_key)
            if old is not None:
                self.core.memory.touch([old], now)
                self.core.count("seen_again")
                continue
            imp = rule_importance(text)
            if imp is not None:
                self.core.count("importance_rule")
            elif (imp := self._rated.get(key := sight_key(text))) is not None:
                self._rated.move_to_end(key)
                self.core.count("importance_seen_before")
            new.append(self.core.memory.add("observation", text, now, importance=imp))
        if score:
            await self.score_pending(now)
        return new

    def scoring_due(self, now: datetime) -> bool:
        """Whether enough memories wait to be scored (``importance_batch``), or one has waited long
        enough (``importance_max_wait_min``), for ``score_pending`` to make its call now."""
        pending = [i for i in self.core.memory.unscored(until=now) if i not in self._scoring]
        if not pending:
            return False
        oldest = self.core.memory.created_at(pending[0])
        return (len(pending) >= self.core.config.importance_batch
                or now - oldest >= timedelta(minutes=self.core.config.importance_max_wait_min))

    async def score_pending(self, now: datetime, force: bool = False) -> int:
        """One importance call for the memories waiting to be scored, when enough have gathered."""
        pending = [i for i in self.core.memory.unscored(until=now) if i not in self._scoring]
        if not pending or not (force or self.scoring_due(now)):
            return 0
        batch = pending[:30]
        self._scoring.update(batch)
        try:
            # what happened, not where it was seen: "(the closet in Grace and Samuel's bedroom of
            # the Okafor house)" was half of a sight's words, and 91% of sights were rated routine
            items = "\n".join(f"- {sight_key(self.core.memory.text(r))}" for r in batch)
            ans = await self.core.complete("importance", ImportanceAnswer, "importance", Priority.SCORE, now,
                                           max_tokens=10 + 4 * len(batch), temperature=0.2,
                                           items=items, n=len(batch))
            scores = list(ans.scores)
            for n, r in enumerate(batch):
                score = scores[n] if n < len(scores) else 3
                self.core.memory.set_importance(r, max(score, self._floor.pop(r, 1)))
                if n < len(scores) and self.core.memory.get(r).kind == "observation":
                    self._remember_rating(sight_key(self.core.memory.text(r)), float(score))
            if len(scores) != len(batch):
                self.core.count("importance_count_mismatch")
            self.core.count("importance_scored", len(batch))
        except LLMError as e:
            self.core.fail("importance", e)
            for r in batch:  # keep the provisional score rather than asking again and again
                self.core.memory.set_importance(r, self.core.memory.get(r).importance)
        finally:
            self._scoring.difference_update(batch)
        return len(batch)

    def _remember_rating(self, key: str, score: float) -> None:
        self._rated[key] = score
        self._rated.move_to_end(key)
        while len(self._rated) > SEEN_RATINGS:
            self._rated.popitem(last=False)

    def whisper(self, now: datetime, text: str) -> int:
        """The inner voice: stored as the resident's own thought (importance 8); flags a re-plan."""
        self.core.seed(now)
        text = clean_text(text, 300)
        rid = self.core.memory.add("whisper", text, now, importance=8)
        self.hearsay.read_fact(text, now)  # a gathering it hosts, a candidacy: kept as data (facts/fact.py)
        self.agenda.replan_for(f"a thought: {text}")
        self.core.count("whispers")
        return rid

    def remember_conversation(self, now: datetime, conversation: Conversation) -> list[int]:
        """Store a finished conversation: each line others said, and a summary of one's own part.
        A talk the model rated as it wrote it (``conversation.importance``) gives its memories that
        rating (what was said to one at least "notable"); the others are rated in a batch."""
        self.core.seed(now)
        ids = []
        others = [p for p in conversation.participants if p != self.core.name]
        kind = "player" if conversation.with_player else "conversation"
        rated = conversation.importance
        if rated is not None:
            self.core.count("importance_with_talk")
        mine = []
        for speaker, text in conversation.heard_by(self.core.name):
            text = clean_text(text, 300)
            if not text:
                continue
            if speaker == self.core.name:
                mine.append(text)
            elif rated is not None:
                ids.append(self.core.memory.add(kind, f"{speaker} told me: {text}", now,
                                           importance=max(rated, self.core.config.told_floor)))
            else:
                rid = self.core.memory.add(kind, f"{speaker} told me: {text}", now)
                self._floor[rid] = self.core.config.told_floor
                ids.append(rid)
        if mine:
            with_whom = ", ".join(others) or "someone"
            ids.append(self.core.memory.add("conversation", clean_text(
                f"I talked with {with_whom}; I said: " + " ".join(mine), 400), now, importance=rated))
        return ids
