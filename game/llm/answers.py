"""Typed answers: the JSON schema sent to the server, and turning model text into a pydantic value.

``strict_schema`` makes pydantic's schema fit OpenAI's strict mode (every object closes its
properties and lists all of them as required), which llama.cpp, vLLM and Ollama also accept.
``parse_answer`` validates the text; when the text is not clean JSON it repairs what a small model
typically gets wrong (code fences, prose around the object, trailing commas, an answer cut off by
the token limit) before giving up with ``AnswerError`` carrying a message fit to send back.
"""

from __future__ import annotations

import copy
import json
import re
import weakref
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from game.errors import GameError

from .jsonvalue import JSON, JSONObject

T = TypeVar("T", bound=BaseModel)


class AnswerError(GameError, ValueError):
    """The text could not be turned into the schema; ``feedback`` tells the model what went wrong."""

    def __init__(self, feedback: str) -> None:
        super().__init__(feedback)
        self.feedback = feedback


_DROP_KEYS = ("title", "default", "examples")


def _close_objects(node: JSON) -> JSON:
    """Walk a schema node; ``properties`` and ``$defs`` are maps of names to schema nodes."""
    if isinstance(node, list):
        return [_close_objects(v) for v in node]
    if not isinstance(node, dict):
        return node
    return _close_object(node)


def _close_object(node: JSONObject) -> JSONObject:
    out: JSONObject = {}
    for key, value in node.items():
        if key in ("properties", "$defs") and isinstance(value, dict):
            out[key] = {name: _close_objects(sub) for name, sub in value.items()}
        elif key in _DROP_KEYS:
            continue  # annotations only; they cost grammar size and nothing else
        else:
            out[key] = _close_objects(value)
    props = out.get("properties")
    if out.get("type") == "object" and isinstance(props, dict):
        out["additionalProperties"] = False
        out["required"] = list(props.keys())
    return out


_SCHEMAS: weakref.WeakKeyDictionary[type[BaseModel], JSONObject] = weakref.WeakKeyDictionary()


def strict_schema(schema: type[BaseModel]) -> JSONObject:
    """The model's JSON schema, closed and fully required (OpenAI strict mode); made once a class
    (8% of the engine's time at 1,000 residents), so read it, do not change it."""
    made = _SCHEMAS.get(schema)
    if made is None:
        made = _SCHEMAS[schema] = _close_object(copy.deepcopy(schema.model_json_schema()))
    return made


def response_format(schema: type[BaseModel]) -> JSONObject:
    name = re.sub(r"[^A-Za-z0-9_-]", "_", schema.__name__)[:64] or "answer"
    return {
        "type": "json_schema",
        "json_schema": {"name": name, "schema": strict_schema(schema), "strict": True},
    }


# --- repair ---------------------------------------------------------------------------------

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.S)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")


def _balanced_from(text: str, start: int) -> tuple[str, bool]:
    """The JSON value that starts at ``text[start]`` ('{' or '['); (value, complete?)."""
    stack: list[str] = []
    in_str = False
    esc = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]":
            if not stack or stack[-1] != ch:
                return text[start:i], False
            stack.pop()
            if not stack:
                return text[start : i + 1], True
    # ran out of text: close what is open (an answer cut off by max_tokens)
    tail = text[start:]
    if in_str:
        if esc:
            tail = tail[:-1]
        tail += '"'
    tail = re.sub(r",\s*$", "", tail.rstrip())
    tail = re.sub(r',\s*"[^"]*"\s*:?\s*$', "", tail)  # a key with no value yet
    tail = re.sub(r":\s*$", ": null", tail)
    return tail + "".join(reversed(stack)), False


def candidates(text: str) -> list[str]:
    """Strings that may hold the intended JSON, best first."""
    out: list[str] = []
    stripped = text.strip()
    out.append(stripped)
    for m in _FENCE.finditer(text):
        out.append(m.group(1).strip())
    for opener in ("{", "["):
        i = text.find(opener)
        if i >= 0:
            value, _ = _balanced_from(text, i)
            out.append(value)
    more = [_TRAILING_COMMA.sub(r"\1", c) for c in out]
    seen: set[str] = set()
    result = []
    for c in out + more:
        if c and c not in seen:
            seen.add(c)
            result.append(c)
    return result


def _short_errors(err: ValidationError, limit: int = 4) -> str:
    parts = []
    for e in err.errors()[:limit]:
        loc = ".".join(str(p) for p in e.get("loc", ())) or "(the whole answer)"
        parts.append(f"{loc}: {e.get('msg', 'invalid')}")
    more = len(err.errors()) - limit
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)


def _wrap_for(schema: type[BaseModel], value: JSON) -> JSON:
    """A bare list where the schema is one list field: wrap it (a common small-model slip)."""
    required = [name for name, f in schema.model_fields.items() if f.is_required()]
    if isinstance(value, list) and len(required) == 1:
        return {required[0]: value}
    return value


def parse_answer(text: str, schema: type[T]) -> tuple[T, bool]:
    """Validate ``text`` into ``schema``; returns (value, repaired?).  Raises ``AnswerError``."""
    first_error: str | None = None
    shape_error: str | None = None
    for n, cand in enumerate(candidates(text)):
        try:
            data = json.loads(cand)
        except json.JSONDecodeError as e:
            if first_error is None:
                first_error = f"the answer is not valid JSON ({e.msg} at character {e.pos})"
            continue
        except RecursionError:  # "[[[[..." deeper than Python's stack
            if first_error is None:
                first_error = "the answer is nested too deeply to read"
            continue
        except ValueError:  # a number with more digits than Python converts (4300)
            if first_error is None:
                first_error = "the answer holds a number too long to read"
            continue
        data = _wrap_for(schema, data)
        try:
            return schema.model_validate(data), n > 0 or cand != text.strip()
        except ValidationError as e:
            # JSON but the wrong shape: this is the most useful feedback
            if shape_error is None:
                shape_error = f"the JSON does not match the schema: {_short_errors(e)}"
        except (TypeError, ArithmeticError, RecursionError) as e:
            # a validator that raised instead of refusing (pydantic passes these through): the
            # answer is still just a bad answer to the caller
            if shape_error is None:
                shape_error = f"the JSON does not match the schema ({type(e).__name__}: {e})"
    if not text.strip():
        raise AnswerError("the answer was empty")
    raise AnswerError(shape_error or first_error or "no JSON object found in the answer")
