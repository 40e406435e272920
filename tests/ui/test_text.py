"""game.ui.text: what reaches the terminal from model and player text."""

from __future__ import annotations

from game.ui.text import clean, plain


def test_escapes_controls_bidi_and_surrogates_are_removed():
    s = "a\x1b[31mred\x1b[0m\x1b]52;c;eA==\x07 \u202eevil\u202c \ud800z\x00\x9b2J"
    c = clean(s)
    assert c == "ared evil z"
    assert clean(c) == c
    c.encode("utf-8")


def test_markup_is_kept_literally_and_carries_no_style():
    t = plain("[bold red]hi[/] :smile:", "bold")
    assert t.plain == "[bold red]hi[/] :smile:"
    assert not t.spans


def test_single_line():
    assert clean("one\ntwo\r\nthree\tfour", single_line=True) == "one two three four"
