"""What waits for a resident's reaction: the sights made salient (``Resident.salient``), whether one
of them is news it may not let pass (``urgent``), and when it last reacted to each subject, a person
or a thing (``reacted``, the cool-down ``tuning.SUBJECT_COOLDOWN`` reads).  A part of ``Engine``.

The perceiver (perceiving.py) and the hazards (hazards.py) add to it, the lanes
(decisions/lanes.py) take it into a reaction, a whisper or taking a resident over drops it
(commands.py); all through this part, the only writer of those three fields
(tests/test_owners.py)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from game.engine.state import Resident


class Salience:
    """Owns ``Resident.salient``, ``urgent`` and ``reacted``; keeps nothing of its own."""

    def note(self, r: Resident, sights: Iterable[str], urgent: bool) -> None:
        """``sights`` wait for ``r``'s reaction (each once); ``urgent``: one of them may not wait."""
        r.salient.extend(s for s in sights if s not in r.salient)
        r.urgent = r.urgent or urgent

    def reacted_to(self, r: Resident, subject: str, now: datetime) -> None:
        """``r`` is to react to ``subject`` (a person, a thing, a hazard): its cool-down starts now."""
        r.reacted[subject] = now

    def taken(self, r: Resident) -> None:
        """The sights went into a reaction: none waits now."""
        r.salient, r.urgent = [], False

    def dropped(self, r: Resident) -> None:
        """The sights waiting are let go (a whisper, taking the resident over); ``urgent`` stays."""
        r.salient = []
