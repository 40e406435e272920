"""Spread and relationship logic on synthetic memory rows."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from game.measure.records import MemoryRow
from game.measure.relations import PositionLog, attendance, density_over_time, graph
from game.measure.spread import Info, said_in, track

T0 = datetime(2026, 3, 2, 8, 0)
PEOPLE = ["Ada Ito", "Ben Ito", "Cy Moss", "Dee Park"]


def rows(*items):
    out, ids = [], {}
    for who, minutes, kind, text in items:
        i = ids.get(who, 0)
        ids[who] = i + 1
        out.append(MemoryRow(who, i, kind, text, T0 + timedelta(minutes=minutes)))
    return out


NEWS = rows(
    ("Ada Ito", 0, "whisper", "I will throw a Valentine's party at the cafe on Friday"),
    ("Ada Ito", 5, "observation", "Ben Ito is making coffee"),
    ("Ben Ito", 60, "conversation", "Ada Ito told me: Come to my Valentine's party at the cafe!"),
    ("Ada Ito", 60, "conversation", "I talked with Ben Ito; I said: Come to my Valentine's party at the cafe!"),
    ("Cy Moss", 150, "conversation", "Ben told me: Ada is having a valentine party, you know"),
    ("Cy Moss", 151, "conversation", "I talked with Ben Ito; I said: Oh nice"),
    ("Cy Moss", 200, "plan", "My plan for Monday: go to the Valentine's party at 17:00"),
    ("Dee Park", 30, "observation", "the party hat is idle"),  # one keyword of two: not the news
)


def test_info_matching():
    info = Info.parse("party", "valentine, party")
    assert info.needed == 2
    assert info.matches("Valentine's PARTY tonight")
    assert not info.matches("the party hat is idle")
    assert Info.parse("x", "a, b, c").needed == 2
    with pytest.raises(ValueError):
        Info.parse("x", " , ")


def test_spread_who_when_from_whom():
    sp = track(NEWS, Info.parse("party", "valentine, party"), PEOPLE)
    assert sp.knowers == ["Ada Ito", "Ben Ito", "Cy Moss"]
    how = {x.resident: (x.how, x.source) for x in sp.learned}
    assert how == {"Ada Ito": ("whisper", None), "Ben Ito": ("told", "Ada Ito"), "Cy Moss": ("told", "Ben")}
    assert sp.seeds == ["Ada Ito"]
    assert sp.mentions == {"Ada Ito": 2, "Ben Ito": 1, "Cy Moss": 2}
    d = sp.to_dict(start=T0, end=T0 + timedelta(hours=4))
    assert d["never"] == ["Dee Park"] and d["knew"] == 3 and d["share"] == 0.75
    assert [k for _, k in d["curve"]] == [1, 2, 2, 3, 3]  # 08:00 09:00 10:00 11:00 12:00


def test_graph_ties_and_density():
    g = graph(NEWS, PEOPLE, relationships={"Ada Ito": {"Ben": "her brother"}})
    assert g.tie("Ada Ito", "Ben Ito").seed and g.tie("Ada Ito", "Ben Ito").talks == 1
    assert g.tie("Ada Ito", "Ben Ito").seen == 1
    assert g.knows("Ben Ito", "Ada Ito") and g.knows("Cy Moss", "Ben Ito")
    assert not g.knows("Ada Ito", "Cy Moss")
    assert len(g.edges()) == 2  # Ada-Ben, Ben-Cy
    assert g.density() == pytest.approx(2 * 2 / 12)
    assert g.directed_density() == pytest.approx(3 / 12)
    start = graph(NEWS, PEOPLE, until=T0, relationships={"Ada Ito": {"Ben": "her brother"}})
    assert start.density() == pytest.approx(2 / 12)
    curve = density_over_time(NEWS, PEOPLE, T0, T0 + timedelta(hours=3))
    assert [round(d, 3) for _, d in curve] == [0.0, 0.167, 0.167, 0.333]


def test_seed_relationship_records_read_at_start():
    seeded = rows(("Ada Ito", 0, "observation", "Cy Moss: an old friend from school"))
    g = graph(seeded, PEOPLE, start=T0)
    assert g.knows("Ada Ito", "Cy Moss") and g.tie("Ada Ito", "Cy Moss").seed


def test_attendance_and_position_log(tmp_path):
    class E:
        def __init__(self):
            self.t = T0
            self.pos = {"Ada Ito": (1, 1), "Ben Ito": (5, 5)}

        @property
        def clock(self):
            return type("C", (), {"now": self.t})()

        def positions(self):
            return dict(self.pos)

    e, log = E(), PositionLog(every=1)
    for m in range(0, 60, 10):
        e.t = T0 + timedelta(minutes=m)
        e.pos["Ben Ito"] = (1, 2) if 20 <= m <= 40 else (5, 5)
        log.sample(e)
    log.write(tmp_path / "p.jsonl")
    back = PositionLog.read(tmp_path / "p.jsonl")
    assert back.samples == log.samples
    att = attendance(back.samples, [(1, 1), (1, 2)], T0 + timedelta(minutes=15), T0 + timedelta(minutes=50))
    assert att["Ben Ito"] == {"first": "2026-03-02T08:20:00", "last": "2026-03-02T08:40:00", "samples": 3}
    assert att["Ada Ito"]["samples"] == 4
    (tmp_path / "bad.jsonl").write_text("hello\n")
    with pytest.raises(ValueError, match="not a position log"):
        PositionLog.read(tmp_path / "bad.jsonl")


def test_lines_that_carry_it_in_saved_conversations():
    convs = [{"id": "t2", "participants": ["Ben Ito", "Cy Moss"], "started": "2026-03-02T10:00:00",
              "lines": [["Cy Moss", "Morning"], ["Ben Ito", "Ada throws a Valentine party!"]]},
             {"id": "t1", "participants": ["Ada Ito", "Ben Ito"], "started": "2026-03-02T09:00:00",
              "lines": [["Ada Ito", "Come to my Valentine's party"]]}]
    got = said_in(convs, Info.parse("party", "valentine, party"))
    assert [(d["speaker"], d["to"], d["conversation"]) for d in got] == [
        ("Ada Ito", ["Ben Ito"], "t1"), ("Ben Ito", ["Cy Moss"], "t2")]
