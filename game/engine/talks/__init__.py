"""Conversations in the town: residents who decide to talk walk up and talk, a talk of residents
written whole in one call and said a line a game minute, the player's a line at a time
(``conversations.py``, ``Conversations``, which owns the talks in progress and those just ended);
each line checked against the facts of those in the talk before it is said, and the fact told to
those who had not heard it (``facts.py``, ``TalkFacts``); and a resident who goes after someone who
walked off while it thought (``seeking.py``, ``Seeker``).  See docs/ENGINE.md, "Conversations"."""
