"""A FAKE llama-server for tests only: a tiny HTTP server that takes llama-server's command line and
answers /health, /v1/models, /props and /v1/chat/completions the way llama-server does, with
``timings`` (prompt_n, cache_n) from a per-slot prompt cache: a request pinned to a slot (id_slot)
whose prompt begins like that slot's last one is "evaluated" only from where they differ.  Tokens
are words.  It generates nothing real (the answer is ``{}``); /props also returns the command line
it was started with, so a test can see the flags.  Never used by the game.

For the restart tests (tests/llm/test_supervisor.py), from the environment:
  FAKE_LLAMA_VALID=1       answer each request with a valid instance of its JSON schema
                           (tests/fake_model.py), so the minds can use the answers
  FAKE_LLAMA_DELAY=S       take S seconds over each answer (calls are in flight when it is killed)
  FAKE_LLAMA_STARTS=FILE   one line per start; with FAKE_LLAMA_MAX_STARTS=N, a start past the N-th
                           exits at once with code 3 (a server that cannot come back)"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--parallel", type=int, default=1)
    known, _ = ap.parse_known_args(argv)
    log = os.environ.get("FAKE_LLAMA_ARGV_LOG")
    if log:  # the command line it was started with, one line per start
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(argv) + "\n")
    starts = os.environ.get("FAKE_LLAMA_STARTS")
    if starts:
        with open(starts, "a", encoding="utf-8") as fh:
            fh.write(f"{os.getpid()}\n")
        limit = os.environ.get("FAKE_LLAMA_MAX_STARTS")
        if limit and len(Path(starts).read_text().split()) > int(limit):
            print("fake llama-server: refusing to start again", file=sys.stderr)
            sys.exit(3)
    valid = os.environ.get("FAKE_LLAMA_VALID") == "1"
    delay = float(os.environ.get("FAKE_LLAMA_DELAY") or 0)
    if valid:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    rng = random.Random(7)
    slots: dict[int, list[str]] = {}
    lock = threading.Lock()

    def content(body: dict) -> str:
        if not valid:
            return "{}"
        from fake_model import valid_instance

        schema = (body.get("response_format") or {}).get("json_schema", {}).get("schema", {})
        with lock:
            return json.dumps(valid_instance(schema, rng))

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):  # quiet
            pass

        def _send(self, obj):
            body = json.dumps(obj).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            if self.path == "/health":
                self._send({"status": "ok"})
            elif self.path.endswith("/models"):
                self._send({"data": [{"id": "fake-llama"}]})
            elif self.path == "/props":
                self._send({"total_slots": known.parallel, "argv": argv})
            else:
                self.send_error(404)

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            words = " ".join(m.get("content", "") for m in body.get("messages", [])).split()
            slot = body.get("id_slot", -1)
            with lock:
                before = slots.get(slot, []) if body.get("cache_prompt", True) else []
                same = 0
                while same < min(len(before), len(words)) and before[same] == words[same]:
                    same += 1
                same = min(same, max(0, len(words) - 1))  # llama-server evaluates at least one token
                slots[slot] = words
            if delay:
                time.sleep(delay)
            self._send({"choices": [{"index": 0, "finish_reason": "stop",
                                     "message": {"role": "assistant", "content": content(body)}}],
                        "usage": {"prompt_tokens": len(words), "completion_tokens": 2},
                        "timings": {"prompt_n": len(words) - same, "cache_n": same, "predicted_n": 2,
                                    "prompt_ms": 1.0, "predicted_ms": 1.0}})

    ThreadingHTTPServer((known.host, known.port), Handler).serve_forever()


if __name__ == "__main__":
    main(sys.argv[1:])
