"""Re-key recorded answers after a prompt change, until they are recorded again (run by hand).

    .venv/bin/python -m tests.mind.rekey SCENARIO ...

A replay answers only the exact requests recorded.  When a template changes but the answers a
real model gave still fit the new schema (the decompose and react prompts lost their places list:
the recorded ``place`` values are still read, now as an area hint), this runs the scenario once and
hands each request that no longer matches the next recorded answer of the same purpose, in the
order recorded, then rewrites the fixture with the new requests.  Such rows carry
``"rekeyed": true``: they are real answers, but to the old prompt; record the scenario again on
the real model (``python -m tests.mind.record``) to replace them.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from game.llm.api import CallTag, LLMError, ModelStatus
from game.llm.record import FORMAT, VERSION, embed_key, request_body, request_key, tag_row

from .scenarios import SCENARIOS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mind"


class RekeyLLM:
    """Answers a run from an older recording (see the module's docstring).  Texts never embedded
    before are embedded by ``embedder`` (the MiniLM encoder the recordings used), if given."""

    def __init__(self, path: Path, embedder: Any = None) -> None:
        self.embedder = embedder
        rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()[1:] if x.strip()]
        self.embeds = [r for r in rows if r["kind"] == "embed"]
        self.vectors = {r["key"]: r["vector"] for r in self.embeds}
        self.answers = [r for r in rows if r["kind"] in ("complete", "stream")]
        self.used: set[int] = set()
        self.out: list[dict[str, Any]] = []

    def _take(self, req: dict, tag: CallTag) -> dict:
        key = request_key(req)
        for i, r in enumerate(self.answers):
            if i not in self.used and r["key"] == key:
                self.used.add(i)
                self.out.append(r)
                return r
        for i, r in enumerate(self.answers):
            if i not in self.used and r["kind"] == req["kind"] and r["tag"].get("purpose") == tag.purpose:
                self.used.add(i)
                new = dict(r, key=key, request=req, tag=tag_row(tag), rekeyed=True)
                self.out.append(new)
                return new
        raise LLMError(f"no recorded answer left for purpose {tag.purpose!r}")

    async def complete(self, messages, schema, tag, *, max_tokens=512, temperature=0.7):
        row = self._take(request_body("complete", messages, schema, max_tokens, temperature), tag)
        return schema.model_validate(row["answer"])

    async def stream(self, messages, tag, *, max_tokens=256, temperature=0.7, stop=()):
        row = self._take(request_body("stream", messages, None, max_tokens, temperature, stop), tag)
        for piece in row.get("pieces", []):
            yield piece

    async def prefill(self, messages, tag) -> bool:
        return False

    async def embed(self, texts: list[str]) -> list[list[float]]:
        missing = [t for t in dict.fromkeys(texts) if embed_key(t) not in self.vectors]
        if missing:
            if self.embedder is None:
                raise LLMError(f"no recorded embedding for {missing[0][:60]!r}")
            for t, v in zip(missing, await self.embedder.embed(missing)):
                vec = [round(float(x), 7) for x in v]
                self.vectors[embed_key(t)] = vec
                self.embeds.append({"kind": "embed", "key": embed_key(t), "text": t, "vector": vec})
        return [self.vectors[embed_key(t)] for t in texts]

    def status(self) -> ModelStatus:
        """An ``LLM``'s status line (the screen reads it twice a second)."""
        return ModelStatus(url="rekey:", model="(recording)")

    def write(self, path: Path) -> int:
        """Write the recording the run used; returns how many answers were re-keyed."""
        lines = [json.dumps({"format": FORMAT, "version": VERSION}, separators=(",", ":"))]
        lines += [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in self.embeds + self.out]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return sum(1 for r in self.out if r.get("rekeyed"))


async def rekey(name: str) -> int:
    path = FIXTURES / f"{name}.jsonl"
    llm = RekeyLLM(path)
    await SCENARIOS[name](llm)
    return llm.write(path)


def main(argv: list[str]) -> int:
    for name in argv:
        print(f"{name}: {asyncio.run(rekey(name))} answers re-keyed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
