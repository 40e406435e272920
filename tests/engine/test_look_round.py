"""A round of looks reads those near each looker from the round's grid, by cell and by arena
(``Perceiver.around``, ``Perceiver.in_arena``): each resident sees what the world's perception
sees among the whole town, and nothing of the round is kept after it."""

from __future__ import annotations

from datetime import datetime

from engine_fakes import engine_model

from game.engine.build import new_engine
from game.engine.tuning import PERCEIVE_BANDWIDTH, PERCEIVE_EVERY, PERCEIVE_RADIUS
from game.world import default_town_path, perceive

MORNING = datetime(2026, 3, 2, 10, 0)


def _seen(percepts, name: str) -> dict[str, str]:
    return {("person:" + p.subject if p.kind == "person" else "object:" + p.address): p.text
            for p in percepts if not (p.kind == "person" and p.subject == name)}


async def test_a_round_of_looks_sees_what_the_whole_town_would_show():
    e = new_engine(default_town_path(), engine_model(), lockstep=True, start=MORNING)
    core, town = e.core, e.core.town
    # everyone crowded round the cafe's door: in the cafe, its kitchen and the street outside
    spots = (town.walkable_tiles_of("Bluebell Cafe:cafe") + town.walkable_tiles_of("Bluebell Cafe:kitchen"))
    door = spots[0]
    street = [(door[0] + dx, door[1] + dy) for dx in range(-6, 7) for dy in range(-6, 7)
              if town.paths.walkable((door[0] + dx, door[1] + dy))]
    tiles = spots[::2] + street[::3]
    for i, r in enumerate(core.residents.values()):
        r.pos = tiles[(7 * i) % len(tiles)]
    assert len({town.tree.arena_at(r.pos) for r in core.residents.values()}) >= 3
    for step_no in range(PERCEIVE_EVERY):
        actors, doing = core.actors(), core.doing()
        lookers = [r for i, r in enumerate(core.residents.values()) if (step_no + i) % PERCEIVE_EVERY == 0]
        want = {r.name: _seen(perceive(r.name, r.pos, town, actors, PERCEIVE_RADIUS, PERCEIVE_BANDWIDTH,
                                       doing=doing), r.name) for r in lookers}
        e.perceiver.look_round(core.residents.values(), step_no, core.clock.now)
        assert {r.name: r.seen for r in lookers} == want
        assert any(len(w) > 2 for w in want.values())
    # after the round its grid is let go: a look outside a round reads the whole town
    assert e.perceiver._cells is None and e.perceiver._near_in == {} and e.perceiver._by_arena == {}
    near = core.actors()
    assert e.perceiver.in_arena(door, near) is near
    await e.aclose()
