"""The one interview: a question answered in character, as at one moment of the town, by
``Mind.answer`` and by ``town interview``/``town experiment`` (``answering.py``, with its own
template, ``interview.txt``), and the answer held to what backs it before it is given: the facts,
memories, persona, plan and places the resident holds (``backing.py``, ``Backing``) and its records
of whom it talked with and what its days hold (``answerdata.py``), and what it claims of the
resident itself: its meals, age, office, the hour asked of (``ownclaims.py``).  The rules it
shares with talk are the facts' (game/mind/facts/)."""
