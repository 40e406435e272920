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


def test_the_panel_says_a_sleeper_is_asleep_not_waiting_for_the_model():
    """Asleep, a resident's day is planned before it wakes: the panel said "on routine: waiting for
    the model" of a sleeper (seen in tmux, 2026-11-25); sleep is by rule and not waking time."""
    from game.ui.widgets import source_words

    assert source_words("routine", True, asleep=True) == "asleep: the model plans their day"
    assert source_words("routine", False, asleep=True) == "asleep (by rule; not waking time)"
    assert source_words("routine", True) == "on routine: waiting for the model"
    assert source_words("model", False, asleep=True) == "decided by the model"  # a nap the model chose
