"""A benchmark double: ``FakeInstantLLM`` answers every schema the mind asks for at once, so a
benchmark measures the engine and the minds with no model time at all.  It is never used by the
game itself (``town bench`` loads it from this folder for the tick benchmark only)."""

from __future__ import annotations

import hashlib

import numpy as np

from game.llm.accounting import Accounting
from game.llm.api import ModelStatus


def _h(text: str) -> int:
    return int(hashlib.blake2b(text.encode(), digest_size=8).hexdigest(), 16)


def _enum(schema: dict) -> list[str]:
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "enum" in node and all(isinstance(x, str) for x in node["enum"]):
                vals = [x for x in node["enum"] if x]
                if vals:
                    return vals
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return []


class FakeInstantLLM:
    def __init__(self, dim: int = 384) -> None:
        self.accounting = Accounting()
        self.dim = dim
        self.calls = 0
        self._schemas: dict[type, list[str]] = {}
        self._items: dict[type, dict] = {}

    async def complete(self, messages, schema, tag, *, max_tokens=512, temperature=0.7):
        self.calls += 1
        text = messages[-1].content
        k = _h(text)
        self.accounting.record(tag, prompt_tokens=len(text) // 4, completion_tokens=30)
        places = self._schemas.get(schema)
        if places is None:
            places = self._schemas[schema] = _enum(schema.model_json_schema())
        place = places[k % len(places)] if places else ""
        name = schema.__name__
        fields = schema.model_fields
        if name == "ImportanceAnswer":
            n = max(1, sum(1 for line in text.splitlines() if line[:1].isdigit()))
            if "ratings" in fields:
                words = ("routine", "minor", "notable", "important", "huge")
                data = {"ratings": [words[(k >> i) % 5] for i in range(n)]}
            else:
                data = {"scores": [2 + (k >> i) % 7 for i in range(n)]}
        elif name == "DayPlanAnswer":
            blocks = ((7, "breakfast"), (9, "work"), (11, "work"), (13, "lunch and a walk"), (15, "work"),
                      (17, "visiting a friend"), (19, "dinner"), (21, "reading"))
            item = self._items.get(schema)
            if item is None:
                item = self._items[schema] = schema.model_json_schema()["properties"]["plan"].get("items", {})
            if item.get("type") == "string":
                data = {"plan": [f"{h}-{h + 2} {a}" for h, a in blocks]}
            else:
                data = {"plan": [{"start_hour": h, "end_hour": h + 2, "activity": a} for h, a in blocks]}
        elif name in ("DecomposeAnswer", "BlockStepsAnswer"):
            data = {"steps": [f"step {(k >> s) % 50} (15 min"
                              + (f", {places[(k >> s) % len(places)]})" if places else ")") for s in range(4)]}
        elif name == "ReactAnswer":
            data = {"decision": ("talk", "continue", "continue")[k % 3], "talk_to": "",
                    "new_action": "", "place": place}
        elif name == "LineAnswer":
            data = {"say": f"Nice to see you ({k % 100}).", "end_conversation": k % 3 == 0}
        elif name == "ScriptAnswer":
            who = schema.model_json_schema()["$defs"]["ScriptLine"]["properties"]["speaker"]["enum"]
            data = {"lines": [{"speaker": who[i % len(who)], "say": f"Nice to see you ({(k >> i) % 100})."}
                              for i in range(2 + k % 3)]}
        elif name == "InsightsAnswer":
            data = {"insights": [{"insight": "I like my routine", "evidence": [1]}]}
        elif name == "IdentityAnswer":
            data = {"summary": "A steady person."}
        else:
            data = {"answer": "Fine."}
        return schema.model_validate(data)

    async def stream(self, messages, tag, *, max_tokens=256, temperature=0.7):
        yield "Hello."

    async def embed(self, texts):
        out = []
        for t in texts:
            v = np.random.default_rng(_h(t)).standard_normal(self.dim).astype(np.float32)
            out.append((v / np.linalg.norm(v)).tolist())
        return out

    def status(self) -> ModelStatus:
        return ModelStatus(url="instant", model="fake-instant")
