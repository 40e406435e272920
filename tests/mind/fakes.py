"""The fake model as the mind's logic tests run it (tests only): ``scripted_model``."""

from __future__ import annotations

from typing import Any

from fake_model import FakeModel


def scripted_model(script: dict[str, Any] | None = None, **options: Any) -> FakeModel:
    """The fake model (``tests/fake_model.py``) answering only what ``script`` says, per purpose
    (``"stream:<purpose>"`` for a streamed reply); any other request fails the test.  Embeddings are
    hashed bags of words, so texts that share words are similar."""
    return FakeModel(script, otherwise="fail", vectors="words", **options)


def interview_answers(*answers: str) -> FakeModel:
    """The fake model saying ``answers`` in turn to interview questions (the first ask, then the second)."""
    return scripted_model({"interview": [{"answer": a} for a in answers]})
