"""Test doubles for the measure tests: ``measure_model`` (the fake model, ``tests/fake_model.py``,
answering as these tests need: the party at the cafe planned and passed on, interviews answered by
the prompt's rule) and a small hand-built town on the real world classes (``make_town``)."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import numpy as np
from fake_model import FakeModel, day_keys, fill_keys, frame_labels, text_hash

from game.world.objects import ObjectStates
from game.world.residents import Lifestyle, ResidentSpec
from game.world.town import Tile, Town
from game.world.tree import AreaTree

W, H = 20, 10


def _party(text: str) -> bool:
    return "party" in text.lower()


PARTY = "Did you hear? There is a party at the cafe tonight!"


def plan_with_party(messages, schema, tag) -> dict:
    """A day that ends at the party at the cafe: the frame's own words, the last free line the party."""
    labels = frame_labels(messages[-1].content)
    lines = fill_keys(day_keys(schema), messages[-1].content)
    free = [k for k in lines if labels.get(k) == "free time"]
    if free:
        lines[free[-1]] = "going to the party at the cafe"
    return lines


def react_by_talking(talk: bool):
    """Every reaction is a talk (to the last person listed), or with ``talk`` False none is."""
    def hook(messages, schema, tag) -> dict:
        if not talk:
            return {"decision": "continue"}
        people = re.findall(r"(?mi)^.*people[^:\n]*:\s*(.+)$", "\n".join(m.content for m in messages))
        return {"decision": "talk", "talk_to": people[-1].split(",")[0].strip() if people else ""}
    return hook


def line_with_news(messages, schema, tag) -> dict:
    """A line that passes on the party where the prompt mentions one."""
    text = "\n".join(m.content for m in messages)
    say = PARTY if _party(text) else f"Hello ({text_hash(text) % 1000})."
    return {"say": say, "end_conversation": text.count(":") > 12}


def talk_with_news(messages, schema, tag) -> dict:
    """Two lines: the party passed on where the prompt mentions one, and thanks; by the one whose
    part ("Talking with: ...") mentions it, if another's does (a greeting first), else by the first."""
    text = "\n".join(m.content for m in messages)
    k = text_hash(text)
    who = schema.model_json_schema()["$defs"]["ScriptLine"]["properties"]["speaker"]["enum"]
    sides = text.split("Talking with:\n")[1:]
    teller = next((w for side in sides if _party(side) for w in who[1:] if side.startswith(w)), None)
    if teller is not None:
        return {"lines": [{"speaker": who[0], "say": f"Hello ({k % 1000})."}, {"speaker": teller, "say": PARTY},
                          {"speaker": who[0], "say": f"Oh, thank you ({k % 997})."}]}
    say = PARTY if _party(text) else f"Hello ({k % 1000})."
    return {"lines": [{"speaker": who[0], "say": say}, {"speaker": who[-1], "say": f"Oh, thank you ({k % 997})."}]}


def interview_answer(user: str) -> str:
    """The interview's rule followed the way a good model would: a question about a person listed
    under "never met" (or absent from "People you know") gets "I don't know ..."."""
    q = user.rsplit(":", 1)[-1]
    never = re.search(r"never met[^\n]*:\n((?:- .*\n?)+)", user)
    if never:
        who = never.group(1).splitlines()[0][2:].strip()
        return f"I don't know anyone called {who}."
    known = re.search(r"People you know:\n((?:- .*\n?)+)", user)
    names = [ln[2:].split(":")[0].strip() for ln in known.group(1).splitlines()] if known else []
    asked = re.findall(r"\b([A-Z][a-z]+ [A-Z][a-z]+)\b", q)
    for a in asked:
        if a not in names:
            return f"I don't know anyone called {a}."
    return f"Let me think. {q.strip()}"


def measure_model(talk: bool = True, interview=interview_answer, **options) -> FakeModel:
    """The fake model as the measure tests run it: instant, every reaction a talk (``talk``), the
    party at the cafe planned and passed on in talks, interviews answered by ``interview`` (the
    question's prompt -> the answer), 0.5 s booked per call; ``options`` and their ``script``
    go to ``FakeModel``."""
    script = {"plan_day": plan_with_party, "replan": plan_with_party, "react": react_by_talking(talk),
              "dialogue": line_with_news, "converse": talk_with_news,
              "interview": lambda messages, schema, tag: {"answer": interview(messages[-1].content)},
              "stream:*": "Well, |hello.", **options.pop("script", {})}
    return FakeModel(script, latency_s=0.5, **options)


def _spec(name, home, work, glyph, colour, spawn, rel=None):
    return ResidentSpec(
        name=name, age=30, traits=["kind", "curious"], background=f"{name} lives in Measureville.",
        currently="working on a project", lifestyle=Lifestyle(wake="06:30", sleep="22:30",
                                                              meals={"breakfast": "07:00", "lunch": "12:00"}),
        home=home, workplace=work, seed_memories=[f"{name} likes coffee."], glyph=glyph, colour=colour,
        spawn=spawn, relationships=rel or {})


def make_town() -> Town:
    """Two rooms on top (a house, a cafe), a street below; three residents close together."""
    grid = np.ones((H, W), dtype=bool)
    grid[0, :] = False
    grid[:, 0] = False
    grid[:, W - 1] = False
    grid[H - 1, :] = False
    grid[1:5, 9] = False
    grid[5, 1:W - 1] = False
    for x in (4, 14):
        grid[5, x] = True
    tree = AreaTree(W, H, "Measureville")
    for (sector, arena), xs in {("Ito house", "kitchen"): range(1, 9), ("Cafe", "counter"): range(10, W - 1)}.items():
        tiles = [(x, y) for x in xs for y in range(1, 5)]
        tree.add_sector(sector, tiles)
        tree.add_arena(sector, arena, tiles)
    street = [(x, y) for x in range(1, W - 1) for y in range(6, H - 1)]
    tree.add_sector("Main street", street)
    tree.add_arena("Main street", "road", street)
    tree.add_object_tiles("stove", "stove", [(2, 1)])
    tree.add_object_tiles("coffee machine", "coffee machine", [(15, 1)])
    tree.finish()
    tiles = [[Tile("." if grid[y, x] else "#", "#ffffff", "#000000", bool(grid[y, x]),
                   "floor" if grid[y, x] else "wall") for x in range(W)] for y in range(H)]
    specs = [
        _spec("Ada Ito", "Ito house:kitchen", "Cafe:counter", "A", "#ff0000", (12, 2),
              rel={"Ben Ito": "her brother"}),
        _spec("Ben Ito", "Ito house:kitchen", "Cafe:counter", "B", "#00ff00", (13, 2),
              rel={"Ada Ito": "his sister"}),
        _spec("Cy Moss", "Cafe:counter", "Cafe:counter", "C", "#0000ff", (14, 3)),
    ]
    return Town(name="Measureville", path=Path("measureville.tmx"), width=W, height=H, tiles=tiles, tree=tree,
                residents=specs, small_cast=["Ada Ito", "Ben Ito"], spawn={s.name: s.spawn for s in specs},
                objects=ObjectStates(tree.all_objects()), grid=grid, start=datetime(2026, 3, 2, 7, 0),
                seconds_per_step=10)
