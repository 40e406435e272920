"""The one base class of the game's own failures.

Every error the game raises on purpose (a bad town or save, a command that cannot be done now, a
model that failed, a setup that went wrong) derives from ``GameError``, and its message is fit to
show a player as it is.  The screen handles them in one place (``game.ui``): a ``GameError`` is
shown as its message; anything else is a bug and is shown with its type.
"""

from __future__ import annotations


class GameError(Exception):
    """A failure the game explains: the message names what went wrong and, where it can, what to do."""
