"""A tiny loader for the prompt templates in ``game/mind/prompts/*.txt``.

A template file has a ``[system]`` section and a ``[user]`` section; ``$name`` placeholders are
filled with ``string.Template`` (values are inserted verbatim, never re-interpreted).
"""

from __future__ import annotations

import functools
import string
from pathlib import Path

from game.llm.api import Message

PROMPT_DIR = Path(__file__).with_name("prompts")


class PromptError(Exception):
    pass


@functools.lru_cache(maxsize=None)
def load(name: str) -> tuple[string.Template, string.Template]:
    path = PROMPT_DIR / f"{name}.txt"
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as e:
        raise PromptError(f"prompt template {path}: cannot be read ({e.strerror})") from None
    if "[system]" not in raw or "[user]" not in raw:
        raise PromptError(f"prompt template {path}: needs a [system] and a [user] section")
    _, rest = raw.split("[system]", 1)
    system, user = rest.split("[user]", 1)
    return string.Template(system.strip()), string.Template(user.strip())


def render(name: str, /, **values: object) -> list[Message]:
    system, user = load(name)
    vals = {k: ("" if v is None else str(v)) for k, v in values.items()}
    try:
        return [Message("system", system.substitute(vals)), Message("user", user.substitute(vals))]
    except KeyError as e:
        raise PromptError(f"prompt template {name}.txt: no value for ${e.args[0]}") from None


def names() -> list[str]:
    return sorted(p.stem for p in PROMPT_DIR.glob("*.txt"))
