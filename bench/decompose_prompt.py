"""Size of the decompose prompt for the default town's small cast at 09:00 on day 1 (issue 16: the
places list was most of it).  Scripted answers (no model): the prompt is what the mind would send.

    .venv/bin/python bench/decompose_prompt.py

Prints characters per resident and in all, and a token estimate (characters / 4; the server's own
count is what `town report` shows for a real run).  Run it on two checkouts to compare them."""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.engine.build import new_engine  # noqa: E402
from game.world import default_town_path  # noqa: E402


class Scripted:
    """Answers every call with a fixed, valid answer and keeps the decompose prompts."""

    def __init__(self) -> None:
        self.prompts: dict[str, str] = {}
        self.schemas: dict[str, str] = {}

    async def complete(self, messages, schema, tag, *, max_tokens=512, temperature=0.7):
        name = schema.__name__
        if tag.purpose == "decompose":
            self.prompts.setdefault(tag.resident, "\n".join(m.content for m in messages))
            self.schemas.setdefault(tag.resident, json.dumps(schema.model_json_schema()))
        data = {
            "IdentityAnswer": {"summary": "A resident of Millbrook who cares about the town and its people, "
                                          "busy with work and family, and with opinions about the election."},
            "DayPlanAnswer": {"plan": ["6-9 wake up, wash and have breakfast", "9-12 work", "12-13 lunch",
                                       "13-18 work", "18-22 dinner and the evening at home"]},
            "ImportanceAnswer": {"ratings": ["minor"] * 40},
            "ReactAnswer": {"decision": "continue"},
        }.get(name)
        if name in ("DecomposeAnswer", "BlockStepsAnswer"):
            data = {"steps": [{"action": "working", "minutes": 15, "place": "", "emoji": "\U0001F4BC", "state": ""}]}
        if data is None:
            raise RuntimeError(f"no scripted answer for {name}")
        return schema.model_validate(data)

    async def embed(self, texts):
        return [[1.0] + [0.0] * 15 for _ in texts]

    async def stream(self, *a, **k):
        yield ""

    async def prefill(self, *a, **k):
        return False

    def status(self):
        return None


async def main() -> int:
    llm = Scripted()
    e = new_engine(str(default_town_path()), llm, small=True, lockstep=True,
                   start=datetime(2026, 3, 2, 8, 58))
    for _ in range(60):
        await e.wait_ready()
        e.step()
        if len(llm.prompts) == len(e.core.residents):
            break
    await e.aclose()
    total = 0
    for who, p in sorted(llm.prompts.items()):
        total += len(p)
        print(f"{who}: {len(p)} chars (~{len(p) // 4} tokens); schema {len(llm.schemas[who])} chars")
    n = max(1, len(llm.prompts))
    print(f"mean: {total // n} chars (~{total // n // 4} tokens) over {len(llm.prompts)} prompts")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
