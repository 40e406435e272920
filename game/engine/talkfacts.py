"""Facts in talks: a line as it may be said, checked against what the residents in the talk know
(game/mind/factcheck.py), and the fact told to those who had not heard it.  A part of ``Engine``."""

from __future__ import annotations

import logging
from datetime import datetime

from game.engine.towncore import TownCore
from game.mind.factcheck import vet_line
from game.mind.view import Conversation

log = logging.getLogger(__name__)


class TalkFacts:
    """Owns ``fixes``, the words of the model's lines mended against the facts.  Takes the core
    (the minds' books of facts, the town's names, the places told of)."""

    def __init__(self, core: TownCore) -> None:
        self.core = core
        self.fixes = 0

    def vet(self, conv: Conversation, speaker: str, text: str, now: datetime, *,
            may_move: bool = True) -> tuple[str, str]:
        """A line as it may be said (mind/factcheck.py): a line about a fact goes to the one in the
        talk who holds it, with the fact's place and hours; those who had not heard it hear it now,
        from the speaker, in the town's words.  The player's words may tell a new fact of theirs."""
        books = {p: self.core.minds[p].facts for p in conv.participants if p in self.core.minds}
        if speaker not in self.core.minds and books:  # the visitor: "I'm having a party at the pub at 8"
            for p in books:
                self.core.minds[p].read_fact(text, now, host=speaker, source=speaker)
        v = vet_line(speaker, text, conv.participants, books, now, self.core.town_names, may_move=may_move)
        if v.fixes:
            self.fixes += len(v.fixes)
            log.info("line checked against the facts: %s (%r -> %r)", "; ".join(v.fixes), text, v.text)
        if v.fact is not None and v.told:
            for p in v.told:
                self.core.minds[p].hear_fact(v.fact, v.speaker, now)
                if v.fact.place and p in self.core.spatial:
                    self.core.learn(p, v.fact.place)  # told where it is, they know the place
            if v.speaker in self.core.minds:
                self.core.minds[v.speaker].facts.told_to(v.fact.key, v.told)
        return v.speaker, v.text
