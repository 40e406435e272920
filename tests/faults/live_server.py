"""A tiny OpenAI-compatible HTTP server on 127.0.0.1 that a test starts, breaks and stops.

It is real TCP (asyncio streams), so the real ``httpx`` client inside ``ModelClient`` meets real
connection refusals, dropped connections, timeouts and half-written streams.  Only 127.0.0.1.

``mode`` decides how it answers each request:
  "ok"     a valid answer for the schema in the request (``valid_instance``), or an SSE stream
  "slow"   the same after ``delay`` seconds
  "hang"   reads the request and never answers
  "drop"   reads the request and closes the connection (a server killed mid-request)
  "cut"    streams: sends a few pieces, then closes the connection (killed mid-answer)
  "503"    HTTP 503 "Loading model"
  "error"  HTTP ``error_status`` (400) with ``error_body`` as the error message (hostile text tests)
``stop()`` closes the listening socket and every open connection (the server is gone: the next
request is refused); ``start()`` brings it back on the same port.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket

from fake_model import valid_instance


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(self, port: int | None = None, seed: int = 0) -> None:
        self.port = port or free_port()
        self.mode = "ok"
        self.delay = 0.2
        self.rng = random.Random(seed)
        self.requests = 0
        self.error_status = 400
        self.error_body = "bad request"
        self.answered = 0
        self._server: asyncio.base_events.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port, reuse_address=True)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            for w in list(self._writers):
                w.transport.abort()  # like a SIGKILL: no goodbye
            self._writers.clear()
            try:
                await asyncio.wait_for(self._server.wait_closed(), 2)
            except TimeoutError:
                pass
            self._server = None

    async def __aenter__(self) -> LiveServer:
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stop()

    async def _read_request(self, reader: asyncio.StreamReader) -> tuple[str, str, bytes] | None:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, path, _ = lines[0].split(" ", 2)
        length = 0
        for line in lines[1:]:
            if line.lower().startswith("content-length:"):
                length = int(line.split(":", 1)[1])
        body = await reader.readexactly(length) if length else b""
        return method, path, body

    async def _send(self, writer: asyncio.StreamWriter, status: int, body: bytes,
                    ctype: str = "application/json") -> None:
        reason = {200: "OK", 404: "Not Found", 503: "Service Unavailable"}.get(status, "X")
        writer.write(f"HTTP/1.1 {status} {reason}\r\nContent-Type: {ctype}\r\n"
                     f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        await writer.drain()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            while True:
                try:
                    req = await self._read_request(reader)
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                if req is None:
                    return
                method, path, body = req
                self.requests += 1
                if path.endswith("/models"):
                    await self._send(writer, 200, b'{"data": [{"id": "live-fake"}]}')
                    continue
                if path.endswith("/health"):
                    await self._send(writer, 200, b'{"status": "ok"}')
                    continue
                mode = self.mode
                if mode == "hang":
                    await asyncio.sleep(3600)
                    return
                if mode == "drop":
                    writer.transport.abort()
                    return
                if mode == "503":
                    await self._send(writer, 503, b'{"error": {"message": "Loading model"}}')
                    continue
                if mode == "error":
                    body = json.dumps({"error": {"message": self.error_body}}, ensure_ascii=False)
                    await self._send(writer, self.error_status, body.encode("utf-8", "replace"))
                    continue
                if mode == "slow":
                    await asyncio.sleep(self.delay)
                payload = json.loads(body or b"{}")
                if payload.get("stream"):
                    await self._stream(writer, cut=mode == "cut")
                    if mode == "cut":
                        return
                    continue
                schema = (payload.get("response_format") or {}).get("json_schema", {}).get("schema", {})
                content = json.dumps(valid_instance(schema, self.rng))
                reply = {"choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": content}}],
                         "usage": {"prompt_tokens": 10, "completion_tokens": 5}}
                await self._send(writer, 200, json.dumps(reply).encode())
                self.answered += 1
        except (ConnectionError, asyncio.CancelledError):
            return
        finally:
            self._writers.discard(writer)
            try:
                writer.close()
            except Exception:  # noqa: BLE001 - already gone
                pass

    async def _stream(self, writer: asyncio.StreamWriter, cut: bool) -> None:
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")

        def chunk(data: bytes) -> bytes:
            return f"{len(data):x}\r\n".encode() + data + b"\r\n"

        pieces = ["Hello ", "there, ", "neighbour."]
        for i, piece in enumerate(pieces):
            event = {"choices": [{"index": 0, "delta": {"content": piece}}]}
            writer.write(chunk(f"data: {json.dumps(event)}\n\n".encode()))
            await writer.drain()
            await asyncio.sleep(0.01)
            if cut and i == 1:
                writer.transport.abort()
                return
        writer.write(chunk(b"data: [DONE]\n\n") + b"0\r\n\r\n")
        await writer.drain()
        self.answered += 1
