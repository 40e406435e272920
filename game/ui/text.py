"""Plain text for the screen: model and player words are shown as they are, never as markup.

Everything that came from a model or a player goes through ``game.text.clean`` (control characters
and terminal escape sequences removed) and is wrapped in ``rich.text.Text`` objects, never parsed as
markup, so "[bold]" or an ANSI escape from a model is printed literally or dropped.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from game.text import clean

__all__ = ["clean", "plain", "is_wide_emoji", "bubble_emoji", "FALLBACK_EMOJI"]


def plain(text: object, style: str | Style = "", *, single_line: bool = False) -> Text:
    """A ``Text`` holding ``text`` cleaned and literal (no markup, no emoji codes)."""
    return Text(clean(text, single_line=single_line), style=style, end="")


def is_wide_emoji(s: str) -> bool:
    """True for a single emoji that takes exactly two cells with no variation selector."""
    return bool(s) and "\ufe0f" not in s and "\ufe0e" not in s and cell_len(s) == 2 and len(s) <= 2


FALLBACK_EMOJI = "💭"


def bubble_emoji(s: str | None) -> str | None:
    """The emoji to draw for a bubble: ``s`` when it is one wide emoji, else a neutral one.

    Emoji with a variation selector (e.g. "☕️") have unreliable widths across terminals, so they
    are replaced rather than drawn."""
    if not s:
        return None
    s = clean(s, single_line=True).replace(" ", "")
    if is_wide_emoji(s):
        return s
    stripped = s.replace("\ufe0f", "").replace("\ufe0e", "")
    if is_wide_emoji(stripped):
        return stripped
    return FALLBACK_EMOJI
