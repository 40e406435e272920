"""Player input: any text in names, talk, whispers and object changes is accepted by the engine
(or refused with a ``CommandError``), survives a save, and is shown as plain text.

The sanitisers under test: ``game.ui.text.clean`` / ``plain`` (every string the screen shows, and
what the screen's inputs hand to the engine) and ``game.mind.schemas.clean_text`` (what the minds
store and send to the model).  The engine itself only collapses whitespace.
"""

from __future__ import annotations

import asyncio
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from game.engine.build import load_engine, new_engine
from game.engine.engine import CommandError
from game.engine.events import EnterAsVisitor, SayToResident, SetObjectState, Whisper
from game.mind.schemas import clean_text
from game.ui.text import clean, plain

from .answers import UNSAFE
from .fakes import any_answer_model
from .hostile import ESCAPES, MARKUP
from .townfiles import write_town

SNIPPETS = list(ESCAPES) + list(MARKUP) + [
    "\u202e\u0645\u0631\u062d\u0628\u0627", "\u05e9\u05dc\u05d5\u05dd", "\u200f\u200e", "\ufeff",
    "\U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F3F3\ufe0f\u200d\U0001F308", "e\u0301" * 20,
    "\U0001F600" * 50, "\x00" * 10, "\t\n\r\v\f", "x" * 20_000, "[" * 500, "\u0000\u001b\u009b",
]

hostile_text = st.one_of(
    st.text(max_size=200),
    st.text(alphabet=st.characters(categories=["Cc", "Cf", "Cs", "Zl", "Zp", "Mn", "So"]), max_size=60),
    st.lists(st.sampled_from(SNIPPETS), min_size=1, max_size=4).map("".join),
    st.tuples(st.text(max_size=20), st.sampled_from(SNIPPETS), st.text(max_size=20)).map("".join),
)

# what a terminal must never receive from model or player text
ESC_OR_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
BIDI = re.compile(r"[\u202a-\u202e\u2066-\u2069]")


# ------------------------------------------------------------------------ the sanitisers

@settings(max_examples=400, deadline=None)
@given(hostile_text)
def test_ui_clean_leaves_plain_text(s):
    c = clean(s)
    assert not ESC_OR_CONTROL.search(c)
    assert clean(c) == c, "clean must be idempotent"
    one = clean(s, single_line=True)
    assert "\n" not in one and not ESC_OR_CONTROL.search(one)
    c.encode("utf-8")  # a terminal write must not fail (no lone surrogates)


@settings(max_examples=300, deadline=None)
@given(hostile_text)
def test_ui_clean_removes_bidi_overrides(s):
    assert not BIDI.search(clean(s)), "bidi overrides reorder the rest of the line on screen"


@settings(max_examples=300, deadline=None)
@given(hostile_text)
def test_plain_is_literal(s):
    t = plain(s, "bold")
    assert t.plain == clean(s)
    assert not t.spans, "text from a model or player must not carry styles of its own"
    console = Console(record=True, width=120, color_system=None, legacy_windows=False, file=open("/dev/null", "w"))
    console.print(t)
    out = console.export_text()
    for m in MARKUP:
        if m in clean(s):
            # the markup is printed as written, not obeyed
            assert m.replace("\n", "") in out.replace("\n", "") or len(clean(s)) > 100


@settings(max_examples=400, deadline=None)
@given(hostile_text)
def test_mind_clean_text(s):
    c = clean_text(s, 300)
    assert not UNSAFE.search(c), f"{c!r}"
    assert len(c) <= 300 and "\n" not in c
    assert clean_text(c, 300) == c
    c.encode("utf-8")


# ------------------------------------------------------------------------ the engine

_TOWN: Path | None = None


def _town() -> Path:
    global _TOWN
    if _TOWN is None:
        _TOWN = write_town(Path(tempfile.mkdtemp(prefix="faults-input-")) / "town")
    return _TOWN


async def _play(name: str, talk: str, whisper: str, obj: str) -> None:
    e = new_engine(_town(), any_answer_model(), lockstep=False, seed=1)
    try:
        entered = True
        try:
            e.submit(EnterAsVisitor(name, talk[:200]))
        except CommandError as err:
            entered = False
            assert str(err)
        if entered:
            ann = e.core.residents["Ann Lin"]
            e.player.pos = ann.pos
            for cmd in (SayToResident("Ann Lin", talk), SayToResident(name[:30] or "x", talk)):
                try:
                    e.submit(cmd)
                except CommandError as err:
                    assert str(err)
        for cmd in (Whisper("Bob Lin", whisper), Whisper(whisper[:40] or "?", "hello"), SetObjectState(obj),
                    SetObjectState(f"the stove is {obj}")):
            try:
                e.submit(cmd)
            except CommandError as err:
                assert str(err)
        shown = []
        for _ in range(6):
            await asyncio.sleep(0)
            res = e.step()
            shown += [e.text for e in res.log] + [u.text for u in res.utterances] + \
                     [b.text for b in res.bubbles] + [u.speaker for u in res.utterances]
            shown += [c.state for c in res.object_changes]
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "input.save"
            e.save(path)
            again = load_engine(path, any_answer_model())
            if entered:
                assert again.player is not None and again.player.name == e.player.name
            assert again.town.objects.to_dict() == e.town.objects.to_dict()
            await again.aclose()
        for text in shown:  # what the screen would print
            c = clean(text, single_line=True)
            assert not ESC_OR_CONTROL.search(c)
            c.encode("utf-8")
    finally:
        await e.aclose()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=hostile_text, talk=hostile_text, whisper=hostile_text, obj=hostile_text)
def test_engine_takes_any_player_text(name, talk, whisper, obj):
    asyncio.run(_play(name, talk, whisper, obj))


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[f"s{i}" for i in range(len(SNIPPETS))])
def test_engine_takes_each_hostile_snippet(snippet):
    asyncio.run(_play(f"Zed {snippet}", f"hello {snippet}", f"think {snippet}", f"on fire {snippet}"))
