"""Test doubles for the measure tests: ``FakeLLM`` (answers every schema the mind and the interview
ask for, deterministically from the request's content, instantly) and a small hand-built town on
the real world classes (``make_town``)."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from pathlib import Path

import numpy as np

from game.llm.accounting import Accounting
from game.llm.api import CallTag, ModelStatus
from game.world.objects import ObjectStates
from game.world.residents import Lifestyle, ResidentSpec
from game.world.town import Tile, Town
from game.world.tree import AreaTree

W, H = 20, 10


def _h(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16)


_ACTS = ("reading", "cooking", "having breakfast", "working", "resting", "writing notes", "washing up")


def _enums(schema_json: dict) -> list[list[str]]:
    out: list[list[str]] = []

    def walk(node):
        if isinstance(node, dict):
            if "enum" in node and all(isinstance(x, str) for x in node["enum"]):
                out.append([x for x in node["enum"] if x])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(schema_json)
    return out


class FakeLLM:
    """Deterministic answers from the request text; records every prompt; no latency.

    The interview answer follows the prompt's rule the way a good model would: a question about a
    person listed under "never met" (or absent from "People you know") gets "I don't know ..."."""

    def __init__(self, talk: bool = True) -> None:
        self.accounting = Accounting()
        self.talk = talk
        self.calls: list[tuple[str, str | None]] = []
        self.prompts: list[tuple[str, list]] = []

    async def complete(self, messages, schema, tag: CallTag, *, max_tokens=512, temperature=0.7):
        text = "\n".join(m.content for m in messages)
        self.calls.append((tag.purpose, tag.resident))
        self.prompts.append((tag.purpose, list(messages)))
        self.accounting.record(tag, prompt_tokens=len(text) // 4, completion_tokens=20, latency_s=0.5)
        k = _h(text)
        name = schema.__name__
        enums = _enums(schema.model_json_schema())
        places = enums[0] if enums else []
        places[k % len(places)] if places else ""
        fields = schema.model_fields
        if name == "ImportanceAnswer":
            n = len(re.findall(r"(?m)^\d+\. ", messages[-1].content)) or 1
            if "ratings" in fields:  # rating words (the mind's current schema)
                words = ("routine", "minor", "notable", "important", "huge")
                data = {"ratings": [words[(k >> i) % 5] for i in range(n)]}
            else:
                words = ("routine", "minor", "notable", "important", "huge")
                data = {"ratings": [words[(k >> i) % 5] for i in range(n)]}
        elif name == "DayPlanAnswer":
            blocks = [(7, 9, "breakfast and reading"), (9, 12, "work"), (12, 13, "lunch"), (13, 18, "work"),
                      (18, 22, "going to the party at the cafe")]
            item = schema.model_json_schema()["properties"]["plan"].get("items", {})
            if item.get("type") == "string":  # compact lines "7-9 breakfast"
                data = {"plan": [f"{a}-{b} {act}" for a, b, act in blocks]}
            else:
                data = {"plan": [{"start_hour": a, "end_hour": b, "activity": act} for a, b, act in blocks]}
        elif name == "DecomposeAnswer":
            # the model names the activity and at most the area ("home", "work", ""): the world
            # picks the object (fake activities the town's table knows, and some it does not)
            data = {"steps": [{"action": _ACTS[(k >> s) % len(_ACTS)] if (k >> s) % 4 else f"task {(k >> s) % 97}",
                               "minutes": 10 + (k >> s) % 3 * 5,
                               "place": ("", "home", "work")[(k >> s) % 3],
                               "emoji": "\u2615", "state": "", "object_state": ""} for s in range(3)]}
        elif name == "ReactAnswer":
            people = re.findall(r"(?mi)^.*people[^:\n]*:\s*(.+)$", text)
            if self.talk:
                who = people[-1].split(",")[0].strip() if people else ""
                data = {"decision": "talk", "talk_to": who}
            else:
                data = {"decision": "continue"}
        elif name == "LineAnswer":
            party = "party" in text.lower()
            say = "Did you hear? There is a party at the cafe tonight!" if party else f"Hello ({k % 1000})."
            data = {"say": say, "end_conversation": text.count(":") > 12}
        elif name == "ScriptAnswer":
            who = schema.model_json_schema()["$defs"]["ScriptLine"]["properties"]["speaker"]["enum"]
            party = "party" in text.lower()
            say = "Did you hear? There is a party at the cafe tonight!" if party else f"Hello ({k % 1000})."
            data = {"lines": [{"speaker": who[0], "say": say},
                              {"speaker": who[-1], "say": f"Oh, thank you ({k % 997})."}]}
        elif name == "InsightsAnswer":
            data = {"insights": [{"insight": f"I value my routine ({k % 100})", "evidence": [1, 2]}]}
        elif name == "IdentityAnswer":
            data = {"summary": "A steady person who likes routine."}
        elif name == "AttendAnswer":
            data = {"go": True, "why": "I am free then"}
        elif name == "InterviewAnswer":
            data = {"answer": self._interview(messages[-1].content)}
        else:
            raise AssertionError(f"FakeLLM does not know {name}")
        return schema.model_validate(data)

    @staticmethod
    def _interview(user: str) -> str:
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

    async def stream(self, messages, tag, *, max_tokens=256, temperature=0.7, stop=()):
        for piece in ("Well, ", "hello."):
            yield piece

    async def embed(self, texts):
        out = []
        for t in texts:
            rng = np.random.default_rng(_h(t))
            v = rng.normal(size=16)
            out.append((v / np.linalg.norm(v)).tolist())
        return out

    def status(self) -> ModelStatus:
        return ModelStatus(url="fake", model="fake")


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
