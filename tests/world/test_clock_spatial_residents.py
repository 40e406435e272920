from __future__ import annotations

from datetime import datetime

import pytest

from game.world import Clock, SpatialMemory, parse_until


def test_clock():
    c = Clock(datetime(2026, 3, 2, 23, 59, 50), seconds_per_step=10)
    assert c.day == 1 and c.text() == "Day 1, 23:59:50"
    c.tick()
    assert c.day == 2 and c.text() == "Day 2, 00:00:00"
    assert Clock.from_dict(c.to_dict()).now == c.now
    assert c.steps_until(datetime(2026, 3, 3, 0, 1, 0)) == 6


def test_parse_until():
    start = datetime(2026, 3, 2, 6, 0)
    assert parse_until("day 2 08:00", start) == datetime(2026, 3, 3, 8, 0)
    assert parse_until("Day 1, 23:30", start) == datetime(2026, 3, 2, 23, 30)
    assert parse_until("day 3", start) == datetime(2026, 3, 4)
    assert parse_until("2026-03-05T10:00", start) == datetime(2026, 3, 5, 10)
    # past a hundred years the dates overflow; a time zone is no game time's (issue 41: both were tracebacks)
    for bad in ("tomorrow", "day 0 08:00", "day 2 25:00", "", "day 3000000 08:00", "2026-03-02T08:00+02:00",
                "9999-12-31T00:00"):
        with pytest.raises(ValueError):
            parse_until(bad, start)


def test_spatial_memory_seed_learn_stale(town):
    m = town.spatial_seed("Grace Okafor")
    assert m.knows("Okafor house:kitchen:stove")
    assert m.knows("Town Hall:mayor's office")
    assert not m.knows("Oakhill College dorm")
    assert "Okafor house" in m.describe_known(town.tree)
    assert m.learn("Oakhill College dorm:common room") and m.knows("Oakhill College dorm")
    assert not m.learn("Oakhill College dorm:common room")
    # stale knowledge: an object she remembers that is not there any more ...
    m.learn("Oakhill College dorm:common room:harp")
    assert m.knows("Oakhill College dorm:common room:harp")
    # ... is forgotten when she sees the room again, and the real objects are learnt
    assert m.observe_area(town.tree, "Oakhill College dorm:common room")
    assert not m.knows("Oakhill College dorm:common room:harp")
    assert m.knows("Oakhill College dorm:common room:sofa")
    assert SpatialMemory.from_dict(m.to_dict()).to_dict() == m.to_dict()
    assert set(m.known_arenas("Okafor house")) == set(town.tree.arenas("Okafor house"))


def test_residents_of_default_town(town):
    rs = town.residents
    assert len(rs) >= 10
    names = {r.name for r in rs}
    assert 4 <= len(town.small_cast) <= 6 and set(town.small_cast) <= names
    web = sum(len(r.relationships) for r in rs)
    assert web >= 3 * len(rs)
    for r in rs:
        assert r.home in town.tree and r.home.count(":") == 1
        assert r.workplace is None or r.workplace in town.tree
        assert r.seed_memories and r.traits and r.lifestyle.wake and r.lifestyle.sleep
        assert set(r.relationships) <= names
        assert len(r.glyph) == 1 and r.colour.startswith("#")
        assert town.spawn[r.name] in town.tree.tiles_of(r.home)
        assert town.grid[town.spawn[r.name][1], town.spawn[r.name][0]]
    # the small cast alone still has its story: everyone in it knows someone else in it
    small = [town.resident(n) for n in town.small_cast]
    for r in small:
        assert set(r.relationships) & (set(town.small_cast) - {r.name})
    assert len({r.glyph for r in rs}) == len(rs)
