"""Test doubles for the engine tests: a FakeLLM that answers every schema the mind asks for,
deterministically from the request's content (with random latency, so timing varies between
runs while the answers do not), and a small hand-built town on the real world classes."""

from __future__ import annotations

import asyncio
import hashlib
import random
import re
from datetime import datetime
from pathlib import Path

import numpy as np

from game.llm.accounting import Accounting
from game.llm.api import CallTag, ModelStatus, ModelTimeout
from game.world.objects import ObjectStates
from game.world.residents import Lifestyle, ResidentSpec
from game.world.town import Tile, Town
from game.world.tree import AreaTree

W, H = 24, 12


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
    """Answers from the request's content only; ``jitter`` seconds of random latency per call."""

    def __init__(self, jitter: float = 0.003, latency_seed: int | None = None, talk: bool = True,
                 fail: tuple[str, ...] = ()) -> None:
        self.accounting = Accounting()
        self.fail = fail  # purposes answered with ModelTimeout
        self.jitter = jitter
        self._lat = random.Random(latency_seed)
        self.talk = talk
        self.calls: list[tuple[str, str | None]] = []
        self.prompts: list[str] = []

    async def _wait(self) -> None:
        if self.jitter:
            await asyncio.sleep(self._lat.random() * self.jitter)
        else:
            await asyncio.sleep(0)

    async def complete(self, messages, schema, tag: CallTag, *, max_tokens=512, temperature=0.7):
        text = "\n".join(m.content for m in messages)
        self.calls.append((tag.purpose, tag.resident))
        self.prompts.append(text)
        self.accounting.record(tag, prompt_tokens=len(text) // 4, completion_tokens=20, latency_s=0.01)
        await self._wait()
        if tag.purpose in self.fail:
            raise ModelTimeout(f"the fake model timed out on {tag.purpose}")
        k = _h(text)
        name = schema.__name__
        enums = _enums(schema.model_json_schema())
        places = enums[0] if enums else []
        place = places[k % len(places)] if places else ""
        if name == "ImportanceAnswer":
            n = len(re.findall(r"(?m)^\d+\. ", messages[-1].content)) or 1
            words = ("routine", "minor", "notable", "important", "huge")
            data = {"ratings": [words[(k >> i) % 5] for i in range(n)]}
        elif name == "DayPlanAnswer":
            data = {"plan": ["7-9 breakfast and reading", "9-12 work", "12-13 lunch", "13-18 work",
                             "18-22 relaxing at home"]}
        elif name == "DecomposeAnswer":
            # the model names the activity and at most the area ("home", "work", ""): the world
            # picks the object (fake activities the town's table knows, and some it does not)
            data = {"steps": [{"action": _ACTS[(k >> s) % len(_ACTS)] if (k >> s) % 4 else f"task {(k >> s) % 97}",
                               "minutes": 10 + (k >> s) % 3 * 5,
                               "place": ("", "home", "work")[(k >> s) % 3],
                               "emoji": "\u2615", "object_state": ""} for s in range(3)]}
        elif name == "ReactAnswer":
            people = re.findall(r"(?mi)^.*people[^:\n]*:\s*(.+)$", text)
            fire = "fire" in messages[-1].content.lower()
            if fire:
                data = {"decision": "react", "new_action": "putting out the fire", "place": place,
                        "emoji": "\U0001F692", "minutes": 10}
            elif self.talk and k % 2 == 0:
                who = people[-1].split(",")[0].strip() if people else ""
                data = {"decision": "talk", "talk_to": who}
            else:
                data = {"decision": "continue"}
        elif name == "LineAnswer":
            said = text.count("Hello, this is line")  # lines so far in the transcript (3-digit numbers:
            # "line 66" would share 3 of 4 words with "line 666" and end the talk as going in circles)
            data = {"say": f"Hello, this is line {k % 900 + 100}.", "end_conversation": said >= 3 and k % 2 == 0}
        elif name == "ScriptAnswer":  # a whole talk: the speakers (initiator first) take turns
            who = _enums(schema.model_json_schema())[0]
            n = 2 + k % 3
            data = {"lines": [{"speaker": who[i % len(who)], "say": f"Hello, this is line {(k >> i) % 900 + 100}."}
                              for i in range(n)], "matters": "important"}
        elif name == "InsightsAnswer":
            data = {"insights": [{"insight": f"I value my routine ({k % 100})", "evidence": [1, 2]}]}
        elif name == "IdentityAnswer":
            data = {"summary": "A steady person who likes routine."}
        elif name == "AttendAnswer":
            data = {"go": True, "why": "I am free then"}
        elif name == "InterviewAnswer":
            data = {"answer": "I am doing fine, thank you."}
        else:
            raise AssertionError(f"FakeLLM does not know {name}")
        return schema.model_validate(data)

    async def stream(self, messages, tag, *, max_tokens=256, temperature=0.7, stop=()):
        self.calls.append((tag.purpose, tag.resident))
        self.accounting.record(tag, prompt_tokens=20, completion_tokens=3, latency_s=0.01)
        for piece in ("Well, ", "hello ", "there."):
            await self._wait()
            yield piece

    async def embed(self, texts):
        out = []
        for t in texts:
            rng = np.random.default_rng(_h(t))
            v = rng.normal(size=16)
            out.append((v / np.linalg.norm(v)).tolist())
        await self._wait()
        return out

    def status(self) -> ModelStatus:
        return ModelStatus(url="fake", model="fake")


class FireBlindLLM(FakeLLM):
    """A model that will not deal with a hazard, as the 1.5B model may not (Grace Okafor, asked
    about a burning stove, chose "inviting him to the kitchen to check on the fire"): asked what
    to do about one (react_hazard.txt) it answers ``first`` in turn (carry on, a talk, looking at
    it with a state that is no remedy), and asked again plainly (mend.txt) ``again`` in turn
    (looking at it, a state that is no remedy).  Everything else it answers as ``FakeLLM``.
    ``asked`` keeps (resident, "hazard" or "mend") of each such question."""

    FIRST = ({"decision": "talk", "talk_to": "Ann Lin",
              "new_action": "inviting her to the kitchen to check on the fire"},
             {"decision": "continue"},
             {"decision": "react", "new_action": "staring at the flames", "state": "on fire"})
    AGAIN = ({"decision": "react", "new_action": "checking if the stove is still on fire", "state": "off"},
             {"decision": "continue"},
             {"decision": "react", "new_action": "cooking on it", "state": "on"})

    def __init__(self, first=FIRST, again=AGAIN, **kw) -> None:
        super().__init__(**kw)
        self.first, self.again = list(first), list(again)
        self.asked: list[tuple[str | None, str]] = []

    async def complete(self, messages, schema, tag: CallTag, *, max_tokens=512, temperature=0.7):
        user = messages[-1].content
        which = "mend" if "nobody else is dealing with it" in user else "hazard" if "\nDanger: " in user else None
        if which is None or schema.__name__ != "ReactAnswer":
            return await super().complete(messages, schema, tag, max_tokens=max_tokens, temperature=temperature)
        self.calls.append((tag.purpose, tag.resident))
        self.prompts.append(user)
        self.accounting.record(tag, prompt_tokens=len(user) // 4, completion_tokens=20, latency_s=0.01)
        await self._wait()
        answers = self.first if which == "hazard" else self.again
        n = sum(1 for _, w in self.asked if w == which)
        self.asked.append((tag.resident, which))
        return schema.model_validate({"emoji": "\U0001F440", "minutes": 10, **answers[n % len(answers)]})


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
