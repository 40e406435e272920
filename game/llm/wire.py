"""What goes over the wire to an OpenAI-compatible server and what is read back from it, kept
apart from the client's retries and re-asks: messages as they can be sent, reply fields read
defensively (an odd server may send anything), token counts from ``usage``/``timings``, the
server's own error text, and which failures are worth retrying.

Pure functions and one exception; ``ModelClient`` (client.py) and the benchmarks use them.
"""

from __future__ import annotations

import html
import json
import math
import re
import time
from email.utils import parsedate_to_datetime
from typing import TypedDict

import httpx

from game.text import one_line

from .api import Message

RETRY_STATUS = {408, 425, 429, 500, 502, 503, 504}
# the server is there but will not take the request now (too many requests, overloaded, loading):
# fewer in flight, the request asked again after Retry-After or a back-off, never given up for it
BUSY_STATUS = {429, 503}
RETRY_AFTER_MAX_S = 120.0  # a Retry-After longer than this is taken as this


class Transient(Exception):
    """A failure worth retrying (connection refused, dropped, 503 while loading...).  ``lost``:
    the server itself may be gone (refused, dropped, no connection in time), not just busy.
    ``busy``: it refused for its load (429, 503); ``retry_after``: the seconds it asked for;
    ``stalled``: the server answered others while this one stood still (``ServerLink.watched``);
    ``wedged``: the whole server stood still with it in flight (``SlotWatch``)."""

    def __init__(self, message: str, *, timeout: bool = False, lost: bool = False, busy: bool = False,
                 retry_after: float | None = None, stalled: bool = False, wedged: bool = False) -> None:
        super().__init__(message)
        self.timeout = timeout
        self.stalled = stalled or wedged
        self.wedged = wedged
        self.lost = lost
        self.busy = busy
        self.retry_after = retry_after


def retry_after_s(value: str | None, now: float | None = None) -> float | None:
    """A ``Retry-After`` header's seconds (a number of seconds, or an HTTP date: seconds from
    ``now``, Unix time), at most ``RETRY_AFTER_MAX_S``; None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            seconds = parsedate_to_datetime(value).timestamp() - (time.time() if now is None else now)
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
    if not math.isfinite(seconds):
        return None
    return min(RETRY_AFTER_MAX_S, max(0.0, seconds))


def refusal(resp: httpx.Response, base_url: str) -> Transient:
    """A reply whose status is worth retrying (``RETRY_STATUS``) as a ``Transient``, busy for 429
    and 503, with the server's Retry-After."""
    busy = resp.status_code in BUSY_STATUS
    return Transient(f"the model server at {base_url} answered HTTP {resp.status_code}: "
                     f"{server_message(resp)}", busy=busy,
                     retry_after=retry_after_s(resp.headers.get("retry-after")) if busy else None)


def utf8(text: str) -> str:
    """``text`` as it can be sent: lone surrogates (from a JSON "\\ud800" escape in an earlier
    answer, or a player's odd input) cannot be encoded as UTF-8 and would fail the whole request."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")


def wire_messages(messages: list[Message]) -> list[dict[str, str]]:
    out = []
    for m in messages:
        if m.role not in ("system", "user", "assistant"):
            raise ValueError(f"message role '{m.role}' is not system, user or assistant")
        out.append({"role": m.role, "content": utf8(m.content)})
    return out


def as_text(content: object) -> str:
    """The message content as text, whatever type an odd server put there."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, (dict, list)):
        return json.dumps(content)
    return str(content)


def finite_numbers(value: object) -> dict[str, float]:
    """A ``usage``/``timings`` object reduced to its finite numbers (an odd server may send text)."""
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items()
            if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)}


class TokenCounts(TypedDict):
    """The token figures of one reply, as ``Accounting.record`` takes them."""

    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int


def token_counts(usage: object, timings: object, *, completion_default: int = 0) -> TokenCounts:
    """Tokens sent, completed and served from the server's prompt cache, from a reply's ``usage``
    and (llama-server) ``timings``: the keyword arguments of ``Accounting.record``.

    llama-server reports ``timings.prompt_n`` (prompt tokens it evaluated) and ``timings.cache_n``
    (taken from its cache); vLLM and OpenAI report ``usage.prompt_tokens_details.cached_tokens``.
    A server that says nothing of a cache is taken to have evaluated the whole prompt."""
    u, t = finite_numbers(usage), finite_numbers(timings)
    details = usage.get("prompt_tokens_details") if isinstance(usage, dict) else None
    cached_detail = finite_numbers(details).get("cached_tokens")
    evaluated = t.get("prompt_n")
    cache_n = t.get("cache_n")
    sent = u.get("prompt_tokens")
    if sent is None:
        sent = (evaluated or 0) + (cache_n or 0)
    sent = max(0, int(sent))
    if evaluated is not None:
        cached = sent - int(evaluated)
    elif cache_n is not None:
        cached = int(cache_n)
    elif cached_detail is not None:
        cached = int(cached_detail)
    else:
        cached = 0
    completion = u.get("completion_tokens", t.get("predicted_n", completion_default))
    return {"prompt_tokens": sent, "completion_tokens": max(0, int(completion)),
            "cached_tokens": max(0, min(cached, sent))}


EXCERPT_CHARS = 160  # of a reply that is not the OpenAI API's JSON (an HTML error page...)

_HEAD = re.compile(r"<(head|script|style)\b.*?</\1\s*>", re.I | re.S)
_TAG = re.compile(r"<[^>]*>")


def body_excerpt(resp: httpx.Response, limit: int = EXCERPT_CHARS) -> str:
    """A short, plain, quoted excerpt of a reply that is not JSON: an HTML page's words without
    its tags (or its title, when its body has none), one line, escape sequences and control
    characters removed, cut at ``limit``; so a server that is not the API is named by what it
    sent, and never dumped raw."""
    text = resp.text or ""
    ctype = resp.headers.get("content-type", "").split(";")[0].strip().lower()
    is_html = "html" in ctype or text.lstrip()[:1] == "<"
    if is_html:
        title = re.search(r"<title[^>]*>(.*?)</title\s*>", text, re.I | re.S)
        words = one_line(html.unescape(_TAG.sub(" ", _HEAD.sub(" ", text))))
        if not words and title:
            words = one_line(html.unescape(title.group(1)))
    else:
        words = one_line(text)
    if not words:
        return f"an empty {'HTML page' if is_html else 'reply'}" + (f" ({ctype})" if ctype else "")
    excerpt = json.dumps(one_line(words, limit), ensure_ascii=False)
    return f"an HTML page: {excerpt}" if is_html else excerpt


def server_message(resp: httpx.Response) -> str:
    try:
        data = resp.json()
    except (ValueError, RecursionError):
        return body_excerpt(resp)
    err = data.get("error") if isinstance(data, dict) else None
    if isinstance(err, dict):
        return str(err.get("message") or err)[:300]
    if err:
        return str(err)[:300]
    return json.dumps(data)[:300]


class StreamTally:
    """A streamed answer read line by line (server-sent events): its text pieces as they come,
    and what else it said: ``usage``, llama-server's ``timings`` (the last chunk), how many
    pieces, and whether ``[DONE]`` ended it."""

    def __init__(self) -> None:
        self.usage: object = {}
        self.raw_timings: object = None
        self.timings: dict[str, float] = {}
        self.pieces = 0
        self.done = False

    def read(self, line: str) -> list[str]:
        """The text pieces of one line of the stream (none for a line that is not data)."""
        if not line.startswith("data:"):
            return []
        body = line[5:].strip()
        if body == "[DONE]":
            self.done = True
            return []
        try:
            chunk = json.loads(body)
        except (ValueError, RecursionError):
            return []
        if not isinstance(chunk, dict):
            return []
        if isinstance(chunk.get("usage"), dict):
            self.usage = chunk["usage"]
        if isinstance(chunk.get("timings"), dict):  # llama-server: the last chunk
            self.raw_timings = chunk["timings"]
            self.timings = finite_numbers(self.raw_timings)
        out = []
        choices = chunk.get("choices")
        for choice in choices if isinstance(choices, list) else []:
            delta = choice.get("delta") if isinstance(choice, dict) else None
            piece = delta.get("content") if isinstance(delta, dict) else None
            if piece and isinstance(piece, str):
                out.append(piece)
        self.pieces += len(out)
        return out


def answer_of(data: object) -> tuple[str, object] | None:
    """The text and ``finish_reason`` of a chat completion's first choice; None when the reply
    has no answer there."""
    if not isinstance(data, dict):
        return None
    choices = data.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return None
    message = choices[0].get("message")
    if not isinstance(message, dict):
        return None
    return as_text(message.get("content")), choices[0].get("finish_reason")
