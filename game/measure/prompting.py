"""The measure package's prompt templates (``game/measure/prompts/*.txt``): a ``[system]`` and a
``[user]`` section with ``$name`` placeholders, filled verbatim with ``string.Template``."""

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
    system, user = raw.split("[system]", 1)[1].split("[user]", 1)
    return string.Template(system.strip()), string.Template(user.strip())


def render(name: str, /, **values: object) -> list[Message]:
    system, user = load(name)
    vals = {k: ("" if v is None else str(v)) for k, v in values.items()}
    try:
        return [Message("system", system.substitute(vals)), Message("user", user.substitute(vals))]
    except KeyError as e:
        raise PromptError(f"prompt template {name}.txt: no value for ${e.args[0]}") from None
