"""Prompt templates kept as files beside the code that uses them (``prompts/*.txt``).

A template has a ``[system]`` and a ``[user]`` section; ``$name`` placeholders are filled with
``string.Template`` (values are inserted verbatim, never re-interpreted).  Each package that has
prompts makes one ``PromptFolder`` for its own ``prompts/`` directory.
"""

from __future__ import annotations

import functools
import string
from pathlib import Path

from game.llm.api import Message
from game.errors import GameError


class PromptError(GameError):
    pass


class PromptFolder:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.load = functools.lru_cache(maxsize=None)(self._load)

    def _load(self, name: str) -> tuple[string.Template, string.Template]:
        path = self.folder / f"{name}.txt"
        try:
            raw = path.read_text(encoding="utf-8")
        except OSError as e:
            raise PromptError(f"prompt template {path}: cannot be read ({e.strerror})") from None
        if "[system]" not in raw or "[user]" not in raw:
            raise PromptError(f"prompt template {path}: needs a [system] and a [user] section")
        system, user = raw.split("[system]", 1)[1].split("[user]", 1)
        return string.Template(system.strip()), string.Template(user.strip())

    def render(self, name: str, /, **values: object) -> list[Message]:
        system, user = self.load(name)
        vals = {k: ("" if v is None else str(v)) for k, v in values.items()}
        try:
            return [Message("system", system.substitute(vals)), Message("user", user.substitute(vals))]
        except KeyError as e:
            raise PromptError(f"prompt template {name}.txt: no value for ${e.args[0]}") from None
