"""A STAND-IN model server for benchmarks only: never used by the game.

``python -m game.measure.standin --slots 32`` serves an OpenAI-compatible API on 127.0.0.1 that
answers without any model, after the time a real server would take, so that the engine, the
client and the scheduler can be measured with a hundred residents on a machine with no GPU
(``game/measure/swarm.py``, docs/BENCHMARKS.md "Past one machine").  The game itself never starts
it and nothing in ``game/`` outside this benchmark imports it.

- ``POST /v1/chat/completions``: waits for one of ``slots`` slots (a request that names a free
  ``id_slot`` gets that one, as llama-server does), holds it for
  ``evaluated_prompt_tokens / prefill_rate + completion_tokens / decode_rate`` seconds (divided by
  ``speedup``), then answers.  Tokens are counted as ``ceil(chars / 4)`` per message plus 4.  Each
  slot keeps the last prompt it evaluated: a prompt that begins the same way only evaluates the
  rest (llama-server's slot cache), reported as llama-server does in ``timings``.
- The answer fits the request's ``response_format`` JSON schema: a recorded answer of the real
  model (Qwen2.5-Coder-1.5B, the recordings under tests/fixtures) to the same schema, picked by
  the prompt's hash, with every field the request's schema does not allow (a place not among its
  enum, a list too long) replaced by a value built from the schema; with no recording, the whole
  answer is built from the schema.  ``stream: true`` answers in server-sent events.
- ``POST /v1/embeddings``: hashed unit vectors of ``dim`` (384) numbers, at once, in no slot.
- ``GET /v1/models``, ``/health``, ``/props`` (``total_slots``: the client sizes its scheduler
  from it, as with llama-server), ``/stats`` (each chat request's slot, start and end times on
  ``time.monotonic()``, the same clock as the benchmark's on Linux; the requests refused).
- ``refuse``: that share of the chat requests (drawn at random, seeded) is answered HTTP 429 at
  once, with ``Retry-After: retry_after`` when given, as a rate-limited or overloaded server does:
  the client must ask them again, and lose none.  ``hide_slots``: ``/props`` answers 404, as vLLM
  or a router would, so the client finds how many to send from the answer times (the requests past
  the slots wait in the stand-in for one, as in a server's own queue).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import threading
import time
from collections import defaultdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np

MODEL_NAME = "standin-benchmark"
ROOT = Path(__file__).resolve().parents[2]
RECORDINGS = ROOT / "tests" / "fixtures"


def tokens(text: str) -> int:
    """The stand-in's token count of a text (about four characters a token, as for English)."""
    return math.ceil(len(text) / 4)


def _h(text: str) -> int:
    return int(hashlib.blake2b(text.encode("utf-8", "replace"), digest_size=8).hexdigest(), 16)


# ------------------------------------------------------------------------------ answers


def load_recorded(folder: Path = RECORDINGS) -> dict[str, list[Any]]:
    """The real model's answers in the recordings under ``folder``, by schema name."""
    pool: dict[str, list[Any]] = defaultdict(list)
    for path in sorted(folder.rglob("*.jsonl")) if folder.is_dir() else []:
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError:
            continue
        for line in lines:
            if '"kind":"complete"' not in line and '"kind": "complete"' not in line:
                continue
            try:
                rec = json.loads(line)
                name = rec["request"]["schema_name"]
            except (ValueError, KeyError, TypeError):
                continue
            if isinstance(rec.get("answer"), dict):
                pool[name].append(rec["answer"])
    return dict(pool)


def _resolve(node: Any, defs: dict[str, Any]) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        node = defs.get(str(node["$ref"]).rsplit("/", 1)[-1], {})
    if isinstance(node, dict) and "anyOf" in node:  # the first option that is not null
        opts = [o for o in node["anyOf"] if not (isinstance(o, dict) and o.get("type") == "null")]
        node = _resolve(opts[0], defs) if opts else {"type": "null"}
    return node


# a string the recording did not give, by its field's name (any other: a step of a routine)
_STRING_DEFAULTS = {"place": "home", "talk_to": "", "emoji": "", "state": "", "why": ""}


def fit(value: Any, schema: Any, defs: dict[str, Any], seed: int, key: str = "") -> Any:
    """``value`` made valid for ``schema``: what fits is kept, what does not is built from the schema."""
    node = _resolve(schema, defs)
    if not isinstance(node, dict):
        return value
    if "enum" in node:
        opts = [o for o in node["enum"] if o != ""] or list(node["enum"])
        return value if value in node["enum"] and value != "" else (opts[seed % len(opts)] if opts else "")
    kind = node.get("type")
    if kind == "object" or "properties" in node:
        src = value if isinstance(value, dict) else {}
        return {k: fit(src.get(k), sub, defs, seed >> (i % 48) if i else seed, k)
                for i, (k, sub) in enumerate(node.get("properties", {}).items())}
    if kind == "array":
        lo, hi = int(node.get("minItems", 1)), int(node.get("maxItems", 3))
        items = list(value) if isinstance(value, list) else []
        items = items[:hi]
        while len(items) < max(lo, 1 if not isinstance(value, list) else lo):
            items.append(None)
        return [fit(v, node.get("items", {}), defs, seed + i, key) for i, v in enumerate(items)]
    if kind == "string":
        text = value if isinstance(value, str) else _STRING_DEFAULTS.get(key, "doing the usual thing (15 min, home)")
        return text[: int(node.get("maxLength", 10**6))]
    if kind in ("integer", "number"):
        lo_raw: Any = node.get("minimum", node.get("ge", 1))  # pydantic writes ge/le where a validator bounds
        low = float(lo_raw)
        hi_raw: Any = node.get("maximum", node.get("le", low + 9))
        high = float(hi_raw)
        v = value if isinstance(value, (int, float)) and not isinstance(value, bool) else low + seed % 5
        v = min(max(v, low), high)
        return int(v) if kind == "integer" else float(v)
    if kind == "boolean":
        return bool(value) if isinstance(value, bool) else bool(seed & 1)
    if kind == "null":
        return None
    return value


def answer_for(payload: dict[str, Any], recorded: dict[str, list[Any]]) -> str:
    """The answer's text for a chat request: JSON fitting its schema, or a line of talk."""
    prompt = "".join(str(m.get("content", "")) for m in payload.get("messages", []) if isinstance(m, dict))
    seed = _h(prompt)
    fmt = payload.get("response_format") or {}
    js = fmt.get("json_schema") if isinstance(fmt, dict) else None
    if not isinstance(js, dict) or not isinstance(js.get("schema"), dict):
        return "Good to see you. I was just thinking about the day ahead."
    schema = js["schema"]
    name = str(js.get("name", ""))
    pool = recorded.get(name, [])
    defs = schema.get("$defs", {})
    if name == "ImportanceAnswer":  # one rating a listed memory, as the model is asked
        last = str(payload["messages"][-1].get("content", "")) if payload.get("messages") else ""
        n = max(1, sum(1 for line in last.splitlines() if line.startswith("- ")))
        pool = [{k: (v * n)[:n] if isinstance(v, list) and v else v for k, v in a.items()} for a in pool]
    # the first recorded answer (from the prompt's hash on) that fits as it is, else the first mended
    for i in range(len(pool)):
        base = pool[(seed + i) % len(pool)]
        if fit(base, schema, defs, seed) == base:
            return json.dumps(base, ensure_ascii=False)
    base = pool[seed % len(pool)] if pool else None
    return json.dumps(fit(base, schema, defs, seed), ensure_ascii=False)


def embedding(text: str, dim: int) -> list[float]:
    v = np.random.default_rng(_h(text)).standard_normal(dim)
    return [round(float(x), 6) for x in v / np.linalg.norm(v)]


# ------------------------------------------------------------------------------ the server


class Slots:
    """``n`` slots, each remembering the last prompt it evaluated."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.free = set(range(n))
        self.cond = threading.Condition()
        self.prompts: list[str] = [""] * n

    def take(self, wanted: Any) -> int:
        with self.cond:
            while not self.free:
                self.cond.wait()
            slot = wanted if isinstance(wanted, int) and wanted in self.free else min(self.free)
            self.free.discard(slot)
            return slot

    def give(self, slot: int) -> None:
        with self.cond:
            self.free.add(slot)
            self.cond.notify()


class StandIn(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256

    def __init__(self, port: int, *, slots: int, prefill_rate: float, decode_rate: float,
                 speedup: float = 1.0, dim: int = 384, recordings: Path = RECORDINGS,
                 refuse: float = 0.0, retry_after: float | None = None, hide_slots: bool = False) -> None:
        super().__init__(("127.0.0.1", port), Handler)
        self.refuse = min(1.0, max(0.0, float(refuse)))
        self.retry_after = retry_after
        self.hide_slots = hide_slots
        self._draw = random.Random(7)  # which requests are refused (under ``lock``)
        self.refused = 0
        self.slots = Slots(max(1, slots))
        self.prefill_rate = float(prefill_rate)
        self.decode_rate = float(decode_rate)
        self.speedup = max(1e-6, float(speedup))
        self.dim = dim
        self.recorded = load_recorded(recordings)
        self.log: list[tuple[int, float, float, int, int, int]] = []  # slot, start, end, sent, evaluated, completion
        self.lock = threading.Lock()

    def refuses_now(self) -> bool:
        """Whether this chat request is one of the share refused (``refuse``)."""
        if self.refuse <= 0:
            return False
        with self.lock:
            if self._draw.random() >= self.refuse:
                return False
            self.refused += 1
            return True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that closed its kept-alive connection (the run's end) is no error to print."""
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def chat(self, payload: dict[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any]]:
        msgs = [m for m in payload.get("messages", []) if isinstance(m, dict)]
        prompt = "\n".join(f"{m.get('role')}:{m.get('content', '')}" for m in msgs)
        sent = sum(tokens(str(m.get("content", ""))) + 4 for m in msgs)
        text = answer_for(payload, self.recorded)
        completion = max(1, min(tokens(text), int(payload.get("max_tokens") or 10**6)))
        cached = 0
        slot = self.slots.take(payload.get("id_slot"))
        t0 = time.monotonic()
        try:
            prev = self.slots.prompts[slot]
            same = 0
            for a, b in zip(prev, prompt):
                if a != b:
                    break
                same += 1
            cached = min(sent, math.floor(same / 4))
            time.sleep(((sent - cached) / self.prefill_rate + completion / self.decode_rate) / self.speedup)
            self.slots.prompts[slot] = prompt
        finally:
            self.slots.give(slot)
            t1 = time.monotonic()
            with self.lock:
                self.log.append((slot, t0, t1, sent, sent - cached, completion))
        evaluated = sent - cached
        usage = {"prompt_tokens": sent, "completion_tokens": completion, "total_tokens": sent + completion}
        timings = {"prompt_n": evaluated, "cache_n": cached, "predicted_n": completion,
                   "prompt_ms": 1000 * evaluated / self.prefill_rate / self.speedup,
                   "predicted_ms": 1000 * completion / self.decode_rate / self.speedup}
        return text, usage, timings


class Handler(BaseHTTPRequestHandler):
    server: StandIn
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def _send(self, code: int, body: Any, ctype: str = "application/json",
              headers: dict[str, str] | None = None) -> None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        try:
            self.send_response(code)
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up on it (a run's end)
            self.close_connection = True

    def do_GET(self) -> None:
        path = self.path.split("?")[0].rstrip("/")
        s = self.server
        if path in ("/v1/models", "/models"):
            self._send(200, {"object": "list", "data": [{"id": MODEL_NAME, "object": "model"}]})
        elif path == "/health":
            self._send(200, {"status": "ok"})
        elif path == "/props" and not s.hide_slots:
            self._send(200, {"total_slots": s.slots.n, "standin": True})
        elif path == "/stats":
            with s.lock:
                log = list(s.log)
            self._send(200, {"slots": s.slots.n, "prefill_rate": s.prefill_rate, "decode_rate": s.decode_rate,
                             "speedup": s.speedup, "requests": log, "refused": s.refused,
                             "refuse": s.refuse, "hide_slots": s.hide_slots})
        else:
            self._send(404, {"error": {"message": f"no {path} here"}})

    def do_POST(self) -> None:
        path = self.path.split("?")[0].rstrip("/")
        try:
            n = int(self.headers.get("Content-Length") or 0)
            payload = json.loads(self.rfile.read(n) or b"{}")
            if not isinstance(payload, dict):
                raise ValueError("not an object")
        except ValueError as e:
            self._send(400, {"error": {"message": f"bad request: {e}"}})
            return
        s = self.server
        if path in ("/v1/embeddings", "/embeddings"):
            texts = payload.get("input")
            texts = [texts] if isinstance(texts, str) else list(texts or [])
            self._send(200, {"object": "list", "model": MODEL_NAME,
                             "data": [{"object": "embedding", "index": i, "embedding": embedding(str(t), s.dim)}
                                      for i, t in enumerate(texts)]})
            return
        if path not in ("/v1/chat/completions", "/chat/completions"):
            self._send(404, {"error": {"message": f"no {path} here"}})
            return
        if s.refuses_now():
            self._send(429, {"error": {"message": "too many requests (the stand-in refuses a share)",
                                       "type": "rate_limit_error"}},
                       headers={"Retry-After": f"{s.retry_after:g}"} if s.retry_after is not None else None)
            return
        text, usage, timings = s.chat(payload)
        if not payload.get("stream"):
            self._send(200, {"id": "standin", "object": "chat.completion", "model": MODEL_NAME,
                             "choices": [{"index": 0, "finish_reason": "stop",
                                          "message": {"role": "assistant", "content": text}}],
                             "usage": usage, "timings": timings})
            return
        chunks = [{"choices": [{"index": 0, "delta": {"content": text}}]},
                  {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}], "usage": usage,
                   "timings": timings}]
        body = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"
        self._send(200, body, "text/event-stream")


def start_in_thread(**kw: Any) -> StandIn:
    """A stand-in on a free port, served from a daemon thread (tests); ``.shutdown()`` stops it."""
    srv = StandIn(kw.pop("port", 0), **kw)
    threading.Thread(target=srv.serve_forever, name="standin", daemon=True).start()
    return srv


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m game.measure.standin", description=__doc__.split("\n\n")[0])
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--slots", type=int, default=32)
    p.add_argument("--prefill-rate", type=float, required=True, help="prompt tokens/s evaluated in one slot")
    p.add_argument("--decode-rate", type=float, required=True, help="tokens/s generated in one slot")
    p.add_argument("--speedup", type=float, default=1.0, help="every latency divided by this")
    p.add_argument("--refuse", type=float, default=0.0, help="answer HTTP 429 to this share of chat requests")
    p.add_argument("--retry-after", type=float, help="with --refuse: the Retry-After seconds sent")
    p.add_argument("--hide-slots", action="store_true", help="/props answers 404 (as vLLM or a router)")
    a = p.parse_args(argv)
    srv = StandIn(a.port, slots=a.slots, prefill_rate=a.prefill_rate, decode_rate=a.decode_rate,
                  speedup=a.speedup, refuse=a.refuse, retry_after=a.retry_after, hide_slots=a.hide_slots)
    print(srv.url, flush=True)  # the first line: where it listens
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
