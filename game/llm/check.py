"""``town llm check [--json]``: is the model layer working?  One structured call, one embedding.

Exit code 0 only when the server answered a schema-constrained chat request with a valid value
and the embedder returned a unit vector.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import sys
import time
from typing import TYPE_CHECKING, TypedDict

from pydantic import BaseModel, Field

from game.text import dumps, echo, one_line

from .accounting import accounting_of
from .api import CallTag, Embedder, LLMError, Message, Priority
from .embed import CachedEmbedder

if TYPE_CHECKING:
    from .config import LLMConfig
    from .server import Progress


class Fruit(BaseModel):
    name: str = Field(max_length=40)
    colour: str = Field(max_length=40)


PROMPT = [
    Message("system", "You answer with one JSON object and nothing else."),
    Message("user", 'Name one fruit and its colour. Example: {"name": "plum", "colour": "purple"}'),
]


class ChatCheck(TypedDict, total=False):
    ok: bool
    error: str
    latency_s: float
    answer: dict[str, object]
    prompt_tokens: int
    completion_tokens: int
    tokens_per_s: float
    tries: int


class EmbedCheck(TypedDict, total=False):
    ok: bool
    error: str
    size: int
    latency_s: float
    similarity: float
    model: str | None


class CheckReport(TypedDict, total=False):
    """``town llm check --json``: ``ok``, ``url``, ``model``, ``embedded`` and ``errors`` always."""

    ok: bool
    url: str | None
    model: str | None
    embedded: bool
    errors: list[str]
    startup_s: float
    chat: ChatCheck
    embed: EmbedCheck


def _served_by(llm: object) -> tuple[str | None, Embedder | None]:
    """What the check reads of a real client (also under a recording): why GET /models was not the
    API's list, and its embedder; a replay has neither."""
    from .client import ModelClient
    from .record import RecordingLLM

    client = llm.inner if isinstance(llm, RecordingLLM) else llm
    if isinstance(client, ModelClient):
        return client.models_error, client.embedder
    return None, None


async def run_check(config: LLMConfig, progress: Progress | None = None) -> CheckReport:
    from .session import open_llm

    errors: list[str] = []
    report: CheckReport = {"ok": False, "url": None, "model": None,
                           "embedded": config.embedded, "errors": errors}
    t0 = time.monotonic()
    try:
        async with open_llm(config, progress=progress) as llm:
            report["startup_s"] = round(time.monotonic() - t0, 2)
            st = llm.status()
            report["url"], report["model"] = st.url, st.model
            models_error, embedder = _served_by(llm)
            if models_error:  # not the OpenAI API's list of models: say what came instead
                errors.append(f"models: {models_error} (an OpenAI-compatible server lists "
                                        f"its models there)")
            chat: ChatCheck = {"ok": False}
            try:
                t1 = time.monotonic()
                answer = await llm.complete(PROMPT, Fruit, CallTag("check", None, Priority.PLAYER),
                                            max_tokens=60, temperature=0.2)
                chat.update({"ok": True, "latency_s": round(time.monotonic() - t1, 2),
                             "answer": answer.model_dump()})
                acc = accounting_of(llm)  # (every model open_llm gives keeps one)
                if acc is not None:
                    chat.update({"prompt_tokens": acc.total.prompt_tokens,
                                 "completion_tokens": acc.total.completion_tokens,
                                 "tokens_per_s": round(acc.tokens_per_s(), 1), "tries": acc.total.calls})
            except LLMError as e:
                chat["error"] = str(e)
                errors.append(f"chat: {e}")
            report["chat"] = chat
            emb: EmbedCheck = {"ok": False}
            try:
                t2 = time.monotonic()
                texts = ["The baker opens her shop at dawn.", "At sunrise the bakery opens."]
                inner = embedder.inner if isinstance(embedder, CachedEmbedder) else None  # the encoder, not the cache
                vecs = await (inner.embed(texts) if inner is not None else llm.embed(texts))
                norm = math.sqrt(sum(x * x for x in vecs[0]))
                cos = sum(a * b for a, b in zip(vecs[0], vecs[1]))
                emb.update({"ok": abs(norm - 1.0) < 1e-3, "size": len(vecs[0]),
                            "latency_s": round(time.monotonic() - t2, 3), "similarity": round(cos, 3),
                            "model": embedder.name if embedder is not None else None})
                if not emb["ok"]:
                    errors.append(f"embed: the vector is not unit length ({norm:.4f})")
            except LLMError as e:
                emb["error"] = str(e)
                errors.append(f"embed: {e}")
            report["embed"] = emb
    except LLMError as e:
        errors.append(str(e))
    report["ok"] = bool(not errors and report.get("chat", {}).get("ok") and
                        report.get("embed", {}).get("ok"))
    return report


def _print(report: CheckReport) -> None:
    echo(f"model:      {report.get('model') or '-'}")
    echo(f"url:        {report.get('url') or '-'}" + ("  (embedded llama-server)" if report.get("embedded") else ""))
    if "startup_s" in report:
        echo(f"startup:    {report['startup_s']} s")
    chat: ChatCheck = report.get("chat") or {}
    if chat.get("ok"):
        echo(f"chat:       ok in {chat['latency_s']} s, {chat['prompt_tokens']} prompt + "
              f"{chat['completion_tokens']} completion tokens, {chat['tokens_per_s']} tokens/s, "
              f"answer {dumps(chat['answer'])}")
    elif chat:
        echo(f"chat:       FAILED: {one_line(chat.get('error'))}")
    emb: EmbedCheck = report.get("embed") or {}
    if emb.get("ok"):
        echo(f"embedding:  ok, size {emb['size']}, {emb['latency_s']} s ({emb.get('model')}), "
              f"similarity of two paraphrases {emb['similarity']}")
    elif emb:
        echo(f"embedding:  FAILED: {one_line(emb.get('error', 'not unit length'))}")
    for err in report["errors"]:
        if not err.startswith(("chat:", "embed:")):
            echo(f"error:      {one_line(err)}")
    echo("result:     " + ("ok" if report["ok"] else "FAILED"))


def cli_check(args: argparse.Namespace) -> int:
    from .config import LLMConfig

    if getattr(args, "replay", None):
        echo("town llm check: --replay uses no model, so there is nothing to check", file=sys.stderr)
        return 2
    try:
        config = LLMConfig.from_args(args)
    except ValueError as e:
        echo(f"town llm check: {e}", file=sys.stderr)
        return 2
    config.record = None
    as_json = bool(getattr(args, "json", False))
    progress = None if as_json else (lambda msg: echo(f"  {msg}", file=sys.stderr, flush=True))
    report = asyncio.run(run_check(config, progress))
    if as_json:
        echo(dumps(report, indent=1))
    else:
        _print(report)
    if not report["ok"]:  # the report is the result (stdout); what went wrong is an error too (stderr)
        why = "; ".join(one_line(e) for e in report["errors"]) or "the check did not pass"
        echo(f"town llm check: FAILED: {why[:300]}", file=sys.stderr)
    return 0 if report["ok"] else 1
