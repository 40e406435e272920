"""Test doubles for the engine tests: ``engine_model`` (the fake model, ``tests/fake_model.py``, as
these tests run it), ``fire_blind`` (its hook for a model that will not deal with a hazard) and a
small hand-built town on the real world classes (``make_town``)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np
from fake_model import FakeModel

from game.world.objects import ObjectStates
from game.world.residents import Lifestyle, ResidentSpec
from game.world.town import Tile, Town
from game.world.tree import AreaTree

W, H = 24, 12


# what a fire-blind model answers to a hazard (``first``) and to being asked again (``again``)
FIRST = ({"decision": "talk", "talk_to": "Ann Lin",
          "new_action": "inviting her to the kitchen to check on the fire"},
         {"decision": "continue"},
         {"decision": "react", "new_action": "staring at the flames", "state": "on fire"})
AGAIN = ({"decision": "react", "new_action": "checking if the stove is still on fire", "state": "off"},
         {"decision": "continue"},
         {"decision": "react", "new_action": "cooking on it", "state": "on"})


def engine_model(script=None, **options) -> FakeModel:
    """The fake model as the engine tests run it: answers from the request's text only (the
    town's answers), with up to ``jitter`` (3 ms unless given) of random latency per call, so
    timing varies between runs while the answers do not; ``script`` and ``options`` go to
    ``FakeModel``."""
    return FakeModel(script, **{"jitter": 0.003, **options})


def two_hour_windows(engine) -> None:
    """Each mind of ``engine`` decomposes its plan two hours a call, as the look-ahead and fork tests
    were written for: at the default (three to four hours, game/mind/config.py) the first window
    outlasts the few game hours they run, and nothing is asked ahead in them."""
    for mind in engine.core.minds.values():
        mind.core.config.decompose_window_min = mind.core.config.decompose_window_max = 120


def fire_blind(first=FIRST, again=AGAIN):
    """A model that will not deal with a hazard, as the 1.5B model may not (Grace Okafor, asked
    about a burning stove, chose "inviting him to the kitchen to check on the fire"): asked what
    to do about one (react_hazard.txt) it answers ``first`` in turn (carry on, a talk, looking at
    it with a state that is no remedy), and asked again plainly (mend.txt) ``again`` in turn
    (looking at it, a state that is no remedy).  Returns the ``react`` hook for ``FakeModel``'s
    script (other reactions are answered as usual) and the list it keeps (resident, "hazard" or
    "mend") of each such question in."""
    asked: list[tuple[str | None, str]] = []

    def hook(messages, schema, tag):
        user = messages[-1].content
        which = "mend" if "nobody else is dealing with it" in user else "hazard" if "\nDanger: " in user else None
        if which is None:
            return None
        answers = first if which == "hazard" else again
        n = sum(1 for _, w in asked if w == which)
        asked.append((tag.resident, which))
        return {"emoji": "\U0001F440", "minutes": 10, **answers[n % len(answers)]}
    return hook, asked


def _spec(name, home, work, glyph, colour, spawn):
    return ResidentSpec(
        name=name, age=30, traits=["kind", "curious"], background=f"{name} lives in Testville.",
        currently="working on a project", lifestyle=Lifestyle(wake="06:30", sleep="22:30",
                                                              meals={"breakfast": "07:00", "lunch": "12:00"}),
        home=home, workplace=work, seed_memories=[f"{name} likes coffee."], glyph=glyph, colour=colour,
        spawn=spawn)


def make_town() -> Town:
    """Three rooms on top (Lin kitchen, Lin bedroom, cafe), a street below; doors at y=4."""
    grid = np.ones((H, W), dtype=bool)
    grid[0, :] = False
    grid[:, 0] = False
    grid[:, W - 1] = False
    grid[H - 1, :] = False
    for x in (6, 12):
        grid[1:5, x] = False
    grid[5, 1:W - 1] = False
    for x in (3, 9, 16):
        grid[5, x] = True  # doors
    tree = AreaTree(W, H, "Testville")
    rooms = {("Lin house", "kitchen"): range(1, 6), ("Lin house", "bedroom"): range(7, 12),
             ("Cafe", "counter"): range(13, W - 1)}
    for (sector, arena), xs in rooms.items():
        tiles = [(x, y) for x in xs for y in range(1, 5)]
        tree.add_sector(sector, tiles)
        tree.add_arena(sector, arena, tiles)
    tree.add_sector("Main street", [(x, y) for x in range(1, W - 1) for y in range(6, H - 1)])
    tree.add_arena("Main street", "road", [(x, y) for x in range(1, W - 1) for y in range(6, H - 1)])
    tree.add_object_tiles("stove", "stove", [(2, 1)])
    tree.add_object_tiles("bed", "bed", [(9, 1), (10, 1)])
    tree.add_object_tiles("coffee machine", "coffee machine", [(15, 1)])
    tree.finish()
    tiles = [[Tile("." if grid[y, x] else "#", "#ffffff", "#000000", bool(grid[y, x]),
                   "floor" if grid[y, x] else "wall") for x in range(W)] for y in range(H)]
    specs = [
        _spec("Ann Lin", "Lin house:bedroom", "Cafe:counter", "A", "#ff0000", (8, 2)),
        _spec("Bob Lin", "Lin house:bedroom", "Lin house:kitchen", "B", "#00ff00", (10, 3)),
        _spec("Cara Diaz", "Cafe:counter", "Cafe:counter", "C", "#0000ff", (17, 2)),
    ]
    town = Town(name="Testville", path=Path("testville.tmx"), width=W, height=H, tiles=tiles, tree=tree,
                residents=specs, small_cast=["Ann Lin", "Bob Lin"],
                spawn={s.name: s.spawn for s in specs}, objects=ObjectStates(tree.all_objects()), grid=grid,
                start=datetime(2026, 3, 2, 7, 0), seconds_per_step=10)
    return town


async def ticks(e, n: int) -> list:
    """``n`` ticks of engine ``e``, each once its work is ready (lockstep): their results."""
    out = []
    for _ in range(n):
        await e.wait_ready()
        out.append(e.step())
    return out
