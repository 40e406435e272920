"""What residents say to each other: a whole conversation between residents in one call, the next
line of a talk with the player, whole or streamed, and the context held for it (``dialogue.py``,
``Talker``, which owns the held contexts), and what each speaker may bring up, built by rule from
what it holds (``points.py``).  The checks a line is held to before it is said are the facts'
(game/mind/facts/)."""
