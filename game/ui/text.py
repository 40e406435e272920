"""Plain text for the screen: model and player words are shown as they are, never as markup.

Everything that came from a model or a player goes through ``clean`` (control characters and
terminal escape sequences removed) and is wrapped in ``rich.text.Text`` objects, never parsed as
markup, so "[bold]" or an ANSI escape from a model is printed literally or dropped.
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

# CSI / OSC / other escape sequences, then any remaining control character but newline/tab.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI ... final byte
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC ... BEL or ST
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS/SOS/PM/APC ... ST
    r"|\x1b[@-Z\\-_]?"  # lone two-byte escapes (or a bare ESC)
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)
# C0/C1 controls, bidi overrides and isolates (they reorder the rest of the line on screen) and
# lone surrogates (a terminal write of them fails)
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def clean(text: object, *, single_line: bool = False) -> str:
    """``text`` with escape sequences and control characters removed (tabs become spaces)."""
    s = "" if text is None else str(text)
    s = _ESCAPES.sub("", s)
    s = s.replace("\t", " ").replace("\r\n", "\n").replace("\r", "\n")
    s = _CONTROLS.sub("", s)
    if single_line:
        s = " ".join(s.split())
    return s


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
