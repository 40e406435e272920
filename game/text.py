"""Plain text: the one place where words from outside the code are made safe to show or store.

Words reach the game from players, models, servers, files and towns. Whatever they hold, they are
shown as the letters they are: terminal escape sequences (CSI, OSC, DCS...) are removed whole, and
so are control characters, zero-width spaces, bidi overrides and isolates (they reorder the rest of
a line on screen) and lone surrogates (a terminal or a UTF-8 file cannot take them). Markup is not
this module's business: it returns a ``str``; the screen wraps it in plain ``Text``/``Content``,
never parsed as markup (``game/ui/text.py``).

This module imports nothing of the game, so every layer may use it.
"""

from __future__ import annotations

import re
from typing import TextIO

# CSI / OSC / other escape sequences, then any remaining control character but newline/tab.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI ... final byte
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC ... BEL or ST
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS/SOS/PM/APC ... ST
    r"|\x1b[@-Z\\-_]?"  # lone two-byte escapes (or a bare ESC)
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)
# C0/C1 controls, zero-width space, bidi overrides and isolates, lone surrogates
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
ELLIPSIS = "\u2026"


def clean(text: object, *, single_line: bool = False, max_len: int | None = None) -> str:
    """``text`` with escape sequences and control characters removed (tabs become spaces).

    ``single_line`` folds every run of white space (newlines too) into one space; ``max_len`` caps
    the result, ending a cut text with an ellipsis. Cleaning twice changes nothing."""
    s = "" if text is None else str(text)
    s = _ESCAPES.sub("", s)
    s = s.replace("\t", " ").replace("\r\n", "\n").replace("\r", "\n")
    s = _CONTROLS.sub("", s)
    if single_line:
        s = " ".join(s.split())
    if max_len is not None and len(s) > max_len:
        s = s[: max(0, max_len - 1)].rstrip() + ELLIPSIS
    return s


def one_line(text: object, max_len: int | None = None) -> str:
    """``clean(text, single_line=True, max_len=max_len)``: for names, titles, log lines, errors."""
    return clean(text, single_line=True, max_len=max_len)


def echo(text: object = "", *, file: TextIO | None = None, flush: bool = False) -> None:
    """Print ``clean(text)``: how every headless command (``town run``, ``town llm check``,
    ``town report``, ``town interview``...) writes to a terminal, since what it prints holds names,
    answers and server error text from outside (``file`` defaults to stdout)."""
    import sys

    print(clean(text), file=file if file is not None else sys.stdout, flush=flush)


def _escape_char(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group(0)):04x}"


def dumps(obj: object, **kw: object) -> str:
    """``json.dumps`` for a terminal: the text keeps its letters (``ensure_ascii=False``) but every
    character ``clean`` would remove (C1 controls such as the 8-bit CSI, bidi overrides, lone
    surrogates) is written as a ``\\uXXXX`` escape, so the JSON reads back the same and the raw
    character never reaches the screen (``json`` itself escapes only C0 controls)."""
    import json

    kw.setdefault("ensure_ascii", False)
    return _CONTROLS.sub(_escape_char, json.dumps(obj, **kw))  # type: ignore[arg-type]
