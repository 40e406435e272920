"""Property-based tests (hypothesis): the answer parser, memory retrieval, and the save round trip."""

from __future__ import annotations

import asyncio
import json
import math
import sqlite3
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from fake_model import valid_answer
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from game.llm.answers import AnswerError, parse_answer
from game.mind.memory.stream import KINDS, MemoryStream

from .answers import answer_schemas
from .fakes import any_answer_model

SCHEMAS = answer_schemas()
T0 = datetime(2026, 3, 2, 6, 0)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30),
    lambda kids: st.lists(kids, max_size=5) | st.dictionaries(st.text(max_size=12), kids, max_size=5),
    max_leaves=25)


# ------------------------------------------------------------------------ the answer parser

def _parse_ok_or_refused(text: str, schema) -> None:
    try:
        value, repaired = parse_answer(text, schema)
    except AnswerError as e:
        assert e.feedback
        return
    assert isinstance(value, schema) and isinstance(repaired, bool)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(SCHEMAS), st.text(max_size=400))
def test_parse_any_text(schema, text):
    _parse_ok_or_refused(text, schema)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(SCHEMAS), json_values, st.sampled_from(["", "Sure: ", "```json\n"]))
def test_parse_any_json(schema, value, prefix):
    _parse_ok_or_refused(prefix + json.dumps(value), schema)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SCHEMAS), st.integers(0, 10**6), st.integers(1, 400))
def test_valid_answers_survive_and_truncation_never_crashes(schema, seed, cut):
    import random

    good = valid_answer(schema, random.Random(seed))
    value, repaired = parse_answer(json.dumps(good), schema)
    assert not repaired
    again, _ = parse_answer(value.model_dump_json(), schema)
    assert again == value, "a parsed answer must round-trip through its own JSON"
    _parse_ok_or_refused(json.dumps(good)[:cut], schema)


# ------------------------------------------------------------------------ retrieval

record = st.tuples(
    st.sampled_from(KINDS), st.text(min_size=1, max_size=40).filter(lambda s: s.split()),
    st.integers(0, 24 * 60 * 10),  # minutes after T0
    st.floats(1, 10), st.lists(st.floats(-1, 1), min_size=4, max_size=4))


def _stream(records) -> MemoryStream:
    m = MemoryStream()
    for kind, text, minute, imp, vec in sorted(records, key=lambda r: r[2]):
        m.add(kind, text, T0 + timedelta(minutes=minute), importance=imp, embedding=vec)
    return m


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(record, min_size=1, max_size=40), st.lists(st.floats(-1, 1), min_size=4, max_size=4) | st.none(),
       st.integers(0, 50), st.integers(0, 24 * 60 * 12), st.none() | st.integers(1, 200),
       st.none() | st.lists(st.sampled_from(KINDS), min_size=1, max_size=3, unique=True))
def test_retrieval_properties(records, query, k, now_min, budget, kinds):
    m = _stream(records)
    now = T0 + timedelta(minutes=now_min)
    before = [m.get(i).last_access for i in range(len(m))]
    late = m.later_than(now)  # records from after ``now``: not seen by a retrieval at ``now``
    scores = m.scores(query, now, kinds, hide=late)
    w = m.weights
    top = w.recency + w.importance + w.relevance

    def counts(i: int) -> bool:
        return (kinds is None or m.get(i).kind in kinds) and m.get(i).created <= now

    for i in range(len(m)):
        if counts(i):
            assert 0.0 <= scores[i] <= top + 1e-9, scores[i]
        else:
            assert scores[i] == -math.inf
    got = m.retrieve(query, now, k=k, token_budget=budget, kinds=kinds)
    ids = [r.id for r in got]
    assert len(ids) == len(set(ids)) and len(ids) <= k
    assert all((kinds is None or r.kind in kinds) and r.created <= now for r in got)
    s = [scores[i] for i in ids]
    assert s == sorted(s, reverse=True), "best first"
    if budget is not None:
        assert sum(len(r.text) // 4 + 2 for r in got) <= budget
    if k > 0 and budget is None:
        eligible = [i for i in range(len(m)) if counts(i)]
        assert len(ids) == min(k, len(eligible))
        if ids and len(eligible) > len(ids):  # nothing left out scores higher than the last taken
            left = [scores[i] for i in eligible if i not in ids]
            assert max(left) <= s[-1] + 1e-9
    for i in range(len(m)):  # access refresh: exactly the retrieved records
        after = m.get(i).last_access
        if i in ids:
            assert abs((after - now).total_seconds()) < 1
        else:
            assert after == before[i]


def test_one_bad_vector_does_not_blind_retrieval():
    """An embedding server that returns one NaN vector must not make every retrieval come back empty."""
    m = MemoryStream()
    for i in range(5):
        m.add("observation", f"memory {i}", T0 + timedelta(minutes=i), importance=5,
              embedding=[1.0, float(i), 0.0, 0.0])
    m.add("observation", "poisoned", T0, importance=5, embedding=[float("nan")] * 4)
    got = m.retrieve([1.0, 0.0, 0.0, 0.0], T0 + timedelta(hours=1), k=3)
    assert len(got) == 3


@settings(max_examples=150, deadline=None)
@given(st.lists(record, min_size=0, max_size=30), st.lists(st.booleans(), max_size=30))
def test_memory_rows_round_trip(records, scored):
    m = _stream(records)
    for i, s in enumerate(scored[: len(m)]):
        if not s:
            m.columns.scored[i] = False
    rows = m.to_rows()
    json.dumps([{k: v for k, v in r.items() if k != "embedding"} for r in rows])  # plain data
    again = MemoryStream.from_rows(rows)
    assert len(again) == len(m)
    for i in range(len(m)):
        a, b = m.get(i), again.get(i)
        assert (a.kind, a.text, a.evidence, a.scored) == (b.kind, b.text, b.evidence, b.scored)
        assert abs((a.created - b.created).total_seconds()) < 1e-3
        assert abs((a.last_access - b.last_access).total_seconds()) < 1e-3
        assert a.importance == pytest.approx(b.importance)
    if len(m):
        q = [1.0, 0.0, 0.0, 0.0]
        assert np.allclose(m.scores(q, T0), again.scores(q, T0))


# ------------------------------------------------------------------------ the save round trip

def _dump(path: Path) -> dict:
    db = sqlite3.connect(path)
    try:
        out = {}
        for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            rows = db.execute(f"SELECT * FROM {t}").fetchall()
            if t == "meta":  # when, and which file: a new one each time a save is written whole
                rows = [r for r in rows if r[0] not in ("saved_at", "save_id")]
            # embeddings are loaded as they were stored: bit for bit
            out[t] = sorted(rows, key=repr)
        return out
    finally:
        db.close()


async def _round_trip(n_ticks: int, seed: int) -> None:
    from game.engine.build import load_engine

    from .town_engine import busy_engine, ticks

    with tempfile.TemporaryDirectory() as d:
        e = await busy_engine(Path(d), n_ticks, seed=seed)
        first, second = Path(d) / "a.save", Path(d) / "b.save"
        e.save(first)
        again = load_engine(first, any_answer_model(seed), lockstep=e.lockstep)
        again.save(second)
        a, b = _dump(first), _dump(second)
        assert a.keys() == b.keys()
        for t in a:
            assert a[t] == b[t], f"table {t} changed in a save -> load -> save round trip"
        # and both go on identically for a while (same answers, same town)
        e2 = load_engine(first, any_answer_model(seed + 1), lockstep=True)
        e3 = load_engine(first, any_answer_model(seed + 1), lockstep=True)
        r2 = [(r.moves, r.bubbles) for r in await ticks(e2, 30)]
        r3 = [(r.moves, r.bubbles) for r in await ticks(e3, 30)]
        assert r2 == r3
        for x in (e, again, e2, e3):
            await x.aclose()


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.generate])  # no shrinking: each example plays a town
@given(st.integers(0, 300), st.integers(0, 1000))
def test_save_round_trip(n_ticks, seed):
    asyncio.run(_round_trip(n_ticks, seed))
