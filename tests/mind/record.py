"""Record the mind scenarios against a real model (run by hand; not a test).

    .venv/bin/python -m tests.mind.record [--url http://127.0.0.1:8377/v1] [SCENARIO ...]

Writes ``tests/fixtures/mind/<scenario>.jsonl`` with ``game.llm.record.RecordingLLM`` (chat answers
from the server, embeddings from the built-in MiniLM encoder).  Embedding vectors are rounded as
the recording stores them, so the recorded run and its replays retrieve exactly the same memories.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

from game.llm.client import ModelClient
from game.llm.config import LLMConfig
from game.llm.record import RecordingLLM
from game.llm.session import make_embedder

from .scenarios import SCENARIOS

FIXTURES = Path(os.environ.get("TOWN_MIND_FIXTURES") or Path(__file__).resolve().parents[1] / "fixtures" / "mind")


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


def _minds(out: dict) -> list:
    found = []
    for v in out.values():
        for x in (v if isinstance(v, list) else [v]):
            if hasattr(x, "last_error") and hasattr(x, "memory"):
                found.append(x)
    return found


async def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", default="http://127.0.0.1:8377/v1")
    ap.add_argument("--timeout", type=float, default=1500.0, help="seconds per request (shared, slow server)")
    ap.add_argument("--parallel", action="store_true", help="record the scenarios at the same time")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args(argv)
    names = args.names or list(SCENARIOS)
    cfg = LLMConfig(llm_url=args.url, timeout_s=args.timeout)
    client = ModelClient.from_config(cfg, embedder=make_embedder(cfg))
    await client.connect()
    FIXTURES.mkdir(parents=True, exist_ok=True)

    async def one(name: str) -> None:
        path = FIXTURES / f"{name}.jsonl"
        path.unlink(missing_ok=True)
        rec = RecordingLLM(client, path)
        t = time.monotonic()
        try:
            out = await SCENARIOS[name](RoundedEmbeddings(rec))
        finally:
            with rec._lock:
                rec._fh.close()
        errors = [m.last_error for m in _minds(out) if m.last_error]
        print(f"{name}: recorded in {time.monotonic() - t:.0f} s -> {path}"
              + (f"; ERRORS: {errors}" if errors else ""), flush=True)

    try:
        if args.parallel:
            await asyncio.gather(*(one(n) for n in names))
        else:
            for n in names:  # one at a time: the shared server is slow
                await one(n)
    finally:
        print(client.accounting.to_dict() if hasattr(client.accounting, "to_dict") else "", flush=True)
        await client.aclose()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
