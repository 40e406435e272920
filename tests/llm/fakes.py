"""A fake OpenAI-compatible server for the pure client tests (tests only; never used by the game)."""

from __future__ import annotations

import json
from typing import Any

import httpx


def chat_reply(content: str, *, prompt_tokens: int = 10, completion_tokens: int = 5,
               finish: str = "stop") -> dict[str, Any]:
    return {
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                     "finish_reason": finish}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
    }


class FakeServer:
    """Scripted answers in order; each item is a str (answer), an int (HTTP status) or an
    exception instance to raise in the transport, or a dict (the whole JSON reply, e.g. with
    ``timings``).  ``final_chunk``: the last streamed event (usage, llama-server's timings).  Every
    request is kept in ``requests``."""

    def __init__(self, script: list[Any], *, sse: list[str] | None = None,
                 final_chunk: dict[str, Any] | None = None) -> None:
        self.final_chunk = final_chunk or {"choices": [],
                                           "usage": {"prompt_tokens": 7, "completion_tokens": 3}}
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        self.headers: list[httpx.Headers] = []
        self.sse = sse

    def handler(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/models"):
            return httpx.Response(200, json={"data": [{"id": "fake-model"}]})
        if request.url.path.endswith("/props"):
            return httpx.Response(200, json={"total_slots": 2})
        body = json.loads(request.content) if request.content else {}
        self.requests.append(body)
        self.headers.append(request.headers)
        if not self.script:
            raise AssertionError("FakeServer: more requests than scripted answers")
        item = self.script.pop(0)
        if isinstance(item, Exception):
            raise item
        if isinstance(item, int):
            return httpx.Response(item, json={"error": {"message": f"scripted {item}"}})
        if body.get("stream"):
            lines = []
            for piece in item.split("|"):
                chunk = {"choices": [{"delta": {"content": piece}, "index": 0}]}
                lines.append(f"data: {json.dumps(chunk)}\n\n")
            lines.append(f"data: {json.dumps(self.final_chunk)}\n\n")
            lines.append("data: [DONE]\n\n")
            return httpx.Response(200, content="".join(lines).encode(),
                                  headers={"content-type": "text/event-stream"})
        if callable(item):
            item = item(body)
        if isinstance(item, dict):
            return httpx.Response(200, json=item)
        return httpx.Response(200, json=chat_reply(item))

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handler)
