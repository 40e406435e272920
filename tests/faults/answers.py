"""Every answer schema of the game (found, not listed by hand) and checks on accepted values."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections import Counter
from typing import Any

from pydantic import BaseModel

# C0/C1 controls (ESC, NUL, BEL, CR...), bidi overrides and lone surrogates: never in plain text
UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")

PLACES = ("Lin house:bedroom", "Lin house:kitchen", "Lin house:kitchen:stove", "Cafe:counter",
          "Cafe:counter:coffee machine")


def _models_in(module: Any) -> list[type[BaseModel]]:
    out = []
    for v in vars(module).values():
        if isinstance(v, type) and issubclass(v, BaseModel) and v is not BaseModel \
                and v.__module__ == module.__name__:
            out.append(v)
    return out


def answer_schemas() -> list[type[BaseModel]]:
    """Every pydantic model in the modules of game.mind (schemas.py, interview/answering.py, ...) and of
    game.measure (if present) that has fields, plus the variants the mind builds at run time: a
    filled-in day (``dayfill.day_fill_answer``, whose fields are the frame's lines; its base has none),
    and the steps of a window (``steps.block_steps_answer``, one field a block)."""
    found: list[type[BaseModel]] = []
    for pkg in ("game.mind", "game.measure"):
        try:
            package = importlib.import_module(pkg)
        except ImportError:
            continue
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{pkg}."):  # sub-packages too
            try:
                mod = importlib.import_module(info.name)
            except Exception:  # a module being written: skip it, the others still count
                continue
            # (a base whose fields are all made at run time, BlockSteps, shows none in its schema)
            found += [m for m in _models_in(mod) if m.model_fields and m.model_json_schema().get("properties")]
    from game.mind.planning.dayfill import day_fill_answer
    from game.mind.planning.steps import block_steps_answer

    found.append(day_fill_answer(("07:00", "09:00", "17:00")))
    found.append(block_steps_answer(("07:00", "07:30")))
    return found


def unsafe_strings(value: Any, path: str = "") -> list[str]:
    """Where a value (a pydantic model, dict, list...) holds text that is not plain."""
    out: list[str] = []
    if isinstance(value, BaseModel):
        for k in type(value).model_fields:
            out += unsafe_strings(getattr(value, k), f"{path}.{k}")
    elif isinstance(value, dict):
        for k, v in value.items():
            out += unsafe_strings(v, f"{path}.{k}")
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            out += unsafe_strings(v, f"{path}[{i}]")
    elif isinstance(value, str) and UNSAFE.search(value):
        out.append(f"{path}={value[:60]!r}")
    return out


def table(counts: Counter, title: str) -> str:
    """Counts as a small text table: rows are fault classes, columns outcomes."""
    classes = sorted({c for c, _ in counts})
    outcomes = sorted({o for _, o in counts})
    lines = [title, "  " + "class".ljust(16) + "".join(o.rjust(18) for o in outcomes) + "total".rjust(8)]
    for c in classes:
        row = [counts[(c, o)] for o in outcomes]
        lines.append("  " + c.ljust(16) + "".join(str(n).rjust(18) for n in row) + str(sum(row)).rjust(8))
    tot = [sum(counts[(c, o)] for c in classes) for o in outcomes]
    lines.append("  " + "ALL".ljust(16) + "".join(str(n).rjust(18) for n in tot) + str(sum(tot)).rjust(8))
    return "\n".join(lines)


_KIND = re.compile(r"\b\w+(?:Error|Exception)\b|unsafe text|not one line|does not name|does not mention|"
                   r"not one wide emoji|too long|not an allowed place|message [a-z ]+")


def summary(problems: list[str], each: int = 2) -> str:
    """Problems grouped by kind (the exception or check that failed): count and first examples."""
    groups: dict[str, list[str]] = {}
    for p in problems:
        m = _KIND.search(p)
        groups.setdefault(m.group(0) if m else p[:40], []).append(p)
    lines = []
    for kind, ps in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        lines.append(f"{len(ps)} x {kind}:")
        lines += [f"    {p[:300]}" for p in ps[:each]]
    return "\n".join(lines)
