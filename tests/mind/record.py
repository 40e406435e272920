"""Record the mind scenarios against a real model (run by hand; not a test).

    .venv/bin/python -m tests.mind.record [--url http://127.0.0.1:8377/v1] [SCENARIO ...]

Writes ``tests/fixtures/mind/<scenario>.jsonl`` with ``game.llm.record.RecordingLLM`` (chat answers
from the server, embeddings from the built-in MiniLM encoder).  Embedding vectors are rounded as
the recording stores them, so the recorded run and its replays retrieve exactly the same memories.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any

from game.llm.client import ModelClient
from game.llm.config import LLMConfig
from game.llm.record import RecordingLLM
from game.llm.session import make_embedder

from .scenarios import SCENARIOS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mind"


class RoundedEmbeddings:
    """Pass-through whose embeddings are rounded the way a recording stores them."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def complete(self, *a: Any, **kw: Any) -> Any:
        return await self.inner.complete(*a, **kw)

    async def embed(self, texts: list[str]) -> list[list[float]]:
        return [[round(float(x), 7) for x in v] for v in await self.inner.embed(texts)]


async def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", default="http://127.0.0.1:8377/v1")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args(argv)
    names = args.names or list(SCENARIOS)
    cfg = LLMConfig(llm_url=args.url)
    client = ModelClient.from_config(cfg, embedder=make_embedder(cfg))
    await client.connect()
    FIXTURES.mkdir(parents=True, exist_ok=True)

    async def one(name: str) -> None:
        path = FIXTURES / f"{name}.jsonl"
        path.unlink(missing_ok=True)
        rec = RecordingLLM(client, path)
        t = time.monotonic()
        try:
            await SCENARIOS[name](RoundedEmbeddings(rec))
        finally:
            with rec._lock:
                rec._fh.close()
        print(f"{name}: recorded in {time.monotonic() - t:.0f} s -> {path}", flush=True)

    try:
        await asyncio.gather(*(one(n) for n in names))
    finally:
        print(client.accounting.to_dict() if hasattr(client.accounting, "to_dict") else "", flush=True)
        await client.aclose()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
