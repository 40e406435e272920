"""The fake model as the fault tests run it (tests only; the game never uses it).

* ``any_answer_model(seed)``: the fake model (``tests/fake_model.py``) answering every request
  instantly with a small valid answer for its schema (seeded), keeping no requests (a long run
  measures its own memory), booking no latency (a save stores the accounting's live
  ``tokens_per_s``, which a loaded engine has not measured yet: with no latency both are 0).
* ``fake_embedder()``: the fake model as the embedder of a real ``ModelClient``: bag-of-words
  vectors.
"""

from __future__ import annotations

from fake_model import FakeModel


def any_answer_model(seed: int = 0) -> FakeModel:
    return FakeModel(otherwise="valid", seed=seed, vectors="words", keep=False, latency_s=0.0)


def fake_embedder() -> FakeModel:
    return FakeModel(vectors="words", keep=False)
