"""``FakeModel``: the one fake language model of the tests (tests only; the game never uses it).

It implements the ``LLM`` protocol of ``game/llm/api.py`` (``complete``, ``stream``, ``embed``,
``status``), keeps an ``Accounting`` as the real client does, and can stand as the embedder of a
real ``ModelClient`` (``name``, ``dim``, ``aclose``).  It answers each request by its purpose
(``CallTag.purpose``), in this order:

* ``script[purpose]`` (``script["stream:" + purpose]`` for a stream), else ``script["*"]``
  (``script["stream:*"]``): a list of answers used in turn, the last one repeating.  An answer is
  a dict (validated into the schema asked for; for a stream, a str split on "|" into pieces), an
  exception to raise, or a hook ``(messages, schema, tag) -> dict | None`` (``None``: answer as
  if unscripted);
* ``fail``: the purposes answered with ``ModelTimeout``;
* ``otherwise``: ``"town"`` (default) answers every purpose the minds ask, deterministically from
  the request's text (the same request, the same answer); ``"valid"`` gives any small valid answer
  to any schema (seeded by ``seed``); ``"fail"`` raises ``AssertionError`` (a request the test did
  not expect).  An unscripted stream says "Well, hello there." in three pieces (the n-th, from the
  second on: "Well, hello there n." -- a resident does not say a sentence twice in one talk).

Options for the special cases: ``talk`` (whether a town reaction may start a talk), ``jitter``
(seconds of random latency per call, seeded by ``latency_seed``; ``None``: no await at all),
``vectors`` (``"hashed"``, default: a random unit vector per text; ``"words"``: hashed bags of
words, so texts that share words are close), ``status`` (the ``ModelStatus`` it reports,
changeable in place; ``status_reads`` counts the reads), ``prefill_s`` (not ``None``: it also
takes prefills, the optional ``Prefills`` capability, each taking that long), ``latency_s`` (what
the accounting books per call) and ``keep`` (False: keep no requests, texts or token estimates,
for a long run that measures its own memory).

Every request is kept in ``calls`` (``Call``: tag, messages, and the schema's name, "stream" or
"prefill"); ``completions`` counts the completions asked, kept or not; the texts embedded are in
``embedded``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
from pydantic import BaseModel

from game.llm.accounting import Accounting
from game.llm.answers import strict_schema
from game.llm.api import CallTag, Message, ModelStatus, ModelTimeout

Hook = Callable[[list[Message], type[BaseModel], CallTag], "dict[str, Any] | None"]
WORDS_DIM = 64
HASHED_DIM = 16
STREAM = ("Well, ", "hello ", "there.")


class Call(NamedTuple):
    """One request: who asked and why, the messages, and what: the schema's name for a
    completion, "stream" or "prefill"."""

    tag: CallTag
    messages: list[Message]
    kind: str

    @property
    def purpose(self) -> str:
        return self.tag.purpose

    @property
    def resident(self) -> str | None:
        return self.tag.resident

    @property
    def text(self) -> str:
        """The whole prompt, the messages' contents one after the other."""
        return "\n".join(m.content for m in self.messages)

    @property
    def user(self) -> str:
        """The last message's content."""
        return self.messages[-1].content


def text_hash(text: str) -> int:
    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16)


def bow_vector(text: str, dim: int = WORDS_DIM) -> list[float]:
    """A unit bag-of-words vector (a word's plural "s" dropped): texts sharing words are close."""
    v = np.zeros(dim, dtype=np.float64)
    for w in re.findall(r"[a-z0-9]+", text.lower()):
        if len(w) > 3 and w.endswith("s"):
            w = w[:-1]
        v[int(hashlib.md5(w.encode()).hexdigest(), 16) % dim] += 1.0
    n = float(np.linalg.norm(v))
    if n == 0:
        v[0], n = 1.0, 1.0
    return list(v / n)


def hashed_vector(text: str, dim: int = HASHED_DIM) -> list[float]:
    """A random unit vector seeded by the text: unrelated texts are far apart."""
    v = np.random.default_rng(text_hash(text)).normal(size=dim)
    return list((v / np.linalg.norm(v)).tolist())


# ---------------------------------------------------------------------------- any valid answer

VALID_WORDS = ("coffee", "garden", "bakery", "letter", "music", "market", "river", "lunch", "friend", "book")


def _resolve(node: dict, root: dict) -> dict:
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/"), ref
        cur: Any = root
        for part in ref[2:].split("/"):
            cur = cur[part]
        node = cur
    return node


def valid_instance(schema: dict, rng: random.Random | None = None, root: dict | None = None) -> Any:
    """A valid value for ``schema`` (a JSON-schema dict), small and plausible."""
    rng = rng or random.Random(0)
    root = root if root is not None else schema
    node = _resolve(schema, root)
    if "enum" in node:
        opts = [o for o in node["enum"] if o != ""] or list(node["enum"])
        return rng.choice(opts)
    if "const" in node:
        return node["const"]
    for key in ("anyOf", "oneOf"):
        if key in node:
            subs = [s for s in node[key] if _resolve(s, root).get("type") != "null"] or node[key]
            return valid_instance(subs[0], rng, root)
    t = node.get("type")
    if isinstance(t, list):
        t = next((x for x in t if x != "null"), "null")
    if t == "object" or "properties" in node:
        return {k: valid_instance(v, rng, root) for k, v in node.get("properties", {}).items()}
    if t == "array":
        lo = int(node.get("minItems", 1))
        hi = int(node.get("maxItems", lo + 2))
        n = max(lo, min(hi, lo + rng.randint(0, 2)))
        return [valid_instance(node.get("items", {"type": "string"}), rng, root) for _ in range(n)]
    if t == "integer":
        lo = int(node.get("minimum", 1))
        hi = int(node.get("maximum", lo + 9))
        return rng.randint(lo, min(hi, lo + 9))
    if t == "number":
        return float(node.get("minimum", 0)) + rng.random()
    if t == "boolean":
        return rng.random() < 0.3
    if t == "null":
        return None
    # strings (and anything untyped)
    hi = int(node.get("maxLength", 40))
    return " ".join(rng.choice(VALID_WORDS) for _ in range(3))[: max(1, hi)]


def valid_answer(schema_cls: type[BaseModel], rng: random.Random | None = None) -> Any:
    """A valid answer for ``schema_cls`` as the model layer sends its schema."""
    return valid_instance(strict_schema(schema_cls), rng)


# ---------------------------------------------------------------------------- the town's answers

ACTS = ("reading", "cooking", "having breakfast", "working", "resting", "writing notes", "washing up")


def schema_enums(schema: type[BaseModel]) -> list[list[str]]:
    """The string enums of ``schema``'s JSON schema, in order, less empty values."""
    out: list[list[str]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "enum" in node and all(isinstance(x, str) for x in node["enum"]):
                out.append([x for x in node["enum"] if x])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(schema.model_json_schema())
    return out


FREE_TIME = ("reading a book", "walking in the park", "visiting a friend", "tidying the house", "writing letters",
             "painting a picture", "gardening outside", "listening to music", "baking bread", "sewing a dress")
_FRAME_LINE = re.compile(r"(?m)^\d\d:\d\d-\d\d:\d\d (.+?)(?: \(at [^)]*\))?( \(fixed\))?$")


def fill_frame(user: str) -> list[str]:
    """A plain resident's day for a frame (plan_day.txt, replan.txt): the lines it is asked for (not
    the fixed ones; a shift once), work in the frame's own words, each free line something else."""
    out, free, seen = [], 0, set()
    for label, fixed in _FRAME_LINE.findall(user):
        if fixed or label in seen:
            continue
        if label == "free time":
            out.append(FREE_TIME[free % len(FREE_TIME)])
            free += 1
        else:
            seen.add(label)
            out.append(label)
    return out or ["reading a book"]


def day_keys(schema: type[BaseModel]) -> dict[str, Any]:
    """The lines a filled-in frame's schema asks for: its properties by their keys."""
    return schema.model_json_schema(by_alias=True).get("properties") or {}


def frame_labels(user: str) -> dict[str, str]:
    """Each line of the frame a request shows, by its starting hour: "08:00" -> "run the town"."""
    return {m.group(1): m.group(2) for m in re.finditer(
        r"(?m)^(\d\d:\d\d)-\d\d:\d\d (.+?)(?: \(at [^)]*\))?(?:, one of: .*)?$", user)}


def fill_keys(props: dict[str, Any], user: str = "") -> dict[str, str]:
    """A plain resident's day for a filled-in frame's schema (one key a line it is asked for, its hour,
    "HH:MM"; its label from the frame in ``user``, the request's text): a free line with choices takes
    the first not yet taken (the dealt choices differ, so none repeats), another free line something
    of its own, a work line the frame's words."""
    out, used, free = {}, set(), 0
    labels = frame_labels(user)
    for key, node in props.items():
        label = labels.get(key, key)
        options = [o for o in node.get("enum") or () if o not in used]
        if options:
            out[key] = options[0]
        elif label == "free time":
            out[key] = FREE_TIME[free % len(FREE_TIME)]
            free += 1
        else:
            out[key] = label
        used.add(out[key])
    return out


def town_answer(messages: list[Message], schema: type[BaseModel], purpose: str, talk: bool) -> dict[str, Any]:
    """What a plain, steady resident answers to each of the minds' requests; ``talk``: whether a
    reaction may be to start a talk (to the last person listed, on about half the requests)."""
    text = "\n".join(m.content for m in messages)
    user = messages[-1].content
    k = text_hash(text)
    if purpose == "importance":
        n = len(re.findall(r"(?m)^\d+\. ", user)) or 1
        words = ("routine", "minor", "notable", "important", "huge")
        return {"ratings": [words[(k >> i) % 5] for i in range(n)]}
    if purpose in ("plan_day", "replan"):
        props = day_keys(schema)
        return fill_keys(props, user) if props else {"plan": fill_frame(user)}  # (a list: read line by line)
    if purpose == "decompose":
        # the model names the activity and at most the area ("home", "work", ""): the world
        # picks the object (activities the town's table knows, and some it does not)
        return {"steps": [{"action": ACTS[(k >> s) % len(ACTS)] if (k >> s) % 4 else f"task {(k >> s) % 97}",
                           "minutes": 10 + (k >> s) % 3 * 5,
                           "place": ("", "home", "work")[(k >> s) % 3],
                           "emoji": "\u2615", "object_state": ""} for s in range(3)]}
    if purpose == "react":
        if "fire" in user.lower():
            enums = schema_enums(schema)
            places = enums[0] if enums else []
            return {"decision": "react", "new_action": "putting out the fire",
                    "place": places[k % len(places)] if places else "", "emoji": "\U0001F692", "minutes": 10}
        if talk and k % 2 == 0:
            people = re.findall(r"(?mi)^.*people[^:\n]*:\s*(.+)$", text)
            return {"decision": "talk", "talk_to": people[-1].split(",")[0].strip() if people else ""}
        return {"decision": "continue"}
    if purpose == "dialogue":
        said = text.count("Hello, this is line")  # lines so far in the transcript (3-digit numbers:
        # "line 66" would share 3 of 4 words with "line 666" and end the talk as going in circles)
        return {"say": f"Hello, this is line {k % 900 + 100}.", "end_conversation": said >= 3 and k % 2 == 0}
    if purpose in ("converse", "converse_more"):  # a whole talk (or its rest): the speakers take turns
        who = schema_enums(schema)[0]
        return {"lines": [{"speaker": who[i % len(who)], "say": f"Hello, this is line {(k >> i) % 900 + 100}."}
                          for i in range(2 + k % 3)], "matters": "important"}
    if purpose == "reflect":
        return {"insights": [{"insight": f"I value my routine ({k % 100})", "evidence": [1, 2]}]}
    if purpose == "identity":
        return {"summary": "A steady person who likes routine."}
    if purpose == "attend":
        return {"go": True, "why": "I am free then"}
    if purpose == "interview":
        return {"answer": "I am doing fine, thank you."}
    raise AssertionError(f"FakeModel has no town answer for purpose {purpose!r}")


# ---------------------------------------------------------------------------- the model

class FakeModel:
    """The fake model (see the module's docstring)."""

    name = "fake-model"  # as an embedder

    def __init__(self, script: Mapping[str, Any] | None = None, *, otherwise: str = "town", talk: bool = True,
                 fail: Sequence[str] = (), seed: int = 0, jitter: float | None = None,
                 latency_seed: int | None = None, vectors: str = "hashed", status: ModelStatus | None = None,
                 prefill_s: float | None = None, latency_s: float = 0.01, keep: bool = True) -> None:
        assert otherwise in ("town", "valid", "fail"), otherwise
        assert vectors in ("words", "hashed"), vectors
        self.script = {k: list(v) if isinstance(v, (list, tuple)) else [v] for k, v in (script or {}).items()}
        self.otherwise, self.talk, self.fail = otherwise, talk, tuple(fail)
        self.rng = random.Random(seed)
        self.jitter, self._lat = jitter, random.Random(latency_seed)
        self.vectors = vectors
        self.dim: int | None = WORDS_DIM if vectors == "words" else HASHED_DIM
        self.model_status = status if status is not None else ModelStatus(url="fake", model="fake")
        self.latency_s = latency_s
        self.accounting = Accounting()
        self.keep = keep
        self.completions = 0  # requests for a completion, kept or not
        self.calls: list[Call] = []
        self.used: dict[str, int] = {}  # script key -> answers taken
        self.tokens: list[tuple[str, int, int]] = []  # (purpose, prompt, completion) estimates per answer
        self.embedded: list[str] = []
        self.embed_calls = 0
        self.status_reads = 0
        self.prefills_done = 0
        self.streams = 0  # unscripted streams asked (their one's words: see the module's docstring)
        self.prefill_s = prefill_s
        if prefill_s is not None:  # only then is it a ``Prefills`` (the minds check for the method)
            self.prefill = self._prefill

    # ------------------------------------------------------------------ what was asked
    def purposes(self) -> list[str]:
        return [c.purpose for c in self.calls]

    def pairs(self) -> list[tuple[str, str | None]]:
        """(purpose, resident) of each request."""
        return [(c.purpose, c.resident) for c in self.calls]

    def of(self, kind: str) -> list[Call]:
        """The requests of one kind: "complete" (every completion), "stream", "prefill"."""
        if kind == "complete":
            return [c for c in self.calls if c.kind not in ("stream", "prefill")]
        return [c for c in self.calls if c.kind == kind]

    def _keep(self, call: Call) -> None:
        if self.keep:
            self.calls.append(call)

    # ------------------------------------------------------------------ the protocol
    async def _wait(self) -> None:
        if self.jitter is None:
            return
        await asyncio.sleep(self._lat.random() * self.jitter if self.jitter else 0)

    def _scripted(self, key: str, wildcard: str) -> Any:
        for k in (key, wildcard):
            answers = self.script.get(k)
            if answers:
                i = self.used.get(k, 0)
                self.used[k] = i + 1
                return answers[min(i, len(answers) - 1)]
        return None

    async def complete(self, messages: list[Message], schema: type[Any], tag: CallTag, *,
                       max_tokens: int = 512, temperature: float = 0.7) -> Any:
        call = Call(tag, messages, schema.__name__)
        self.completions += 1
        self._keep(call)
        self.accounting.record(tag, prompt_tokens=len(call.text) // 4, completion_tokens=20,
                               latency_s=self.latency_s)
        await self._wait()
        a = self._scripted(tag.purpose, "*")
        if isinstance(a, BaseException):
            raise a
        if callable(a):
            a = a(messages, schema, tag)
        if a is None:
            if tag.purpose in self.fail:
                raise ModelTimeout(f"the fake model timed out on {tag.purpose}")
            if self.otherwise == "fail":
                raise AssertionError(f"FakeModel: no scripted answer for purpose {tag.purpose!r}")
            if self.otherwise == "valid":
                a = valid_instance(strict_schema(schema), self.rng)
            else:
                a = town_answer(messages, schema, tag.purpose, self.talk)
        value = schema.model_validate(a)
        prompt = sum(len(m.content) for m in messages) // 4 + 8 * len(messages)
        if self.keep:
            self.tokens.append((tag.purpose, prompt, len(json.dumps(a, ensure_ascii=False)) // 4 + 1))
        return value

    async def stream(self, messages: list[Message], tag: CallTag, *, max_tokens: int = 256,
                     temperature: float = 0.7, stop: tuple[str, ...] = ()) -> AsyncIterator[str]:
        self._keep(Call(tag, messages, "stream"))
        self.accounting.record(tag, prompt_tokens=20, completion_tokens=3, latency_s=self.latency_s)
        a = self._scripted("stream:" + tag.purpose, "stream:*")
        if isinstance(a, BaseException):
            raise a
        if a is None and self.otherwise == "fail":
            raise AssertionError(f"FakeModel: no scripted stream for purpose {tag.purpose!r}")
        self.streams += a is None
        n = self.streams
        for piece in (a.split("|") if a is not None else STREAM if n <= 1 else (*STREAM[:2], f"there {n}.")):
            await self._wait()
            yield piece

    async def _prefill(self, messages: list[Message], tag: CallTag) -> bool:
        self._keep(Call(tag, messages, "prefill"))
        await asyncio.sleep(self.prefill_s or 0)
        self.prefills_done += 1
        return True

    async def embed(self, texts: list[str]) -> list[list[float]]:
        self.embed_calls += 1
        if self.keep:
            self.embedded.extend(texts)
        vector = bow_vector if self.vectors == "words" else hashed_vector
        out = [vector(t) for t in texts]
        await self._wait()
        return out

    def status(self) -> ModelStatus:
        self.status_reads += 1
        return self.model_status

    async def aclose(self) -> None:  # as an embedder
        return None
