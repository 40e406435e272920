"""Prompt templates kept as files beside the code that uses them (``prompts/*.txt``).

A template has a ``[system]`` and a ``[user]`` section; ``$name`` placeholders are filled with
``string.Template`` (values are inserted verbatim, never re-interpreted).  Each package that has
prompts makes one ``PromptFolder`` for its own ``prompts/`` directory.

A folder made with ``shared="_system"`` lays every prompt out for the server's prompt cache
(issue 15): one system prompt for every purpose (``_system.txt``), then the task (the template's
``[task]`` section, the same words for every resident), then who the person is (the ``person`` given
to ``render``) and last the data that changes (``[user]``).  Two calls for the same purpose then
begin with the same tokens up to the person, whoever they are for, and every call begins with the
same system prompt, so llama-server (``cache_prompt``, its slots and ``--cache-ram``) or vLLM
(automatic prefix caching) evaluates only what follows.

The task comes before the person, not after (until 2026-11-26): llama-server takes a prompt from
its RAM cache only when the beginning they share is at least a quarter of the cached prompt, and a
resident's description alone (about 160 tokens of 500-750) often was not; and a cached prompt it
takes is used up, so a resident's prompts of one purpose rarely found each other among 25 residents
and 3 slots.  A task is shared by every resident's calls of that purpose.  On 43 recorded requests
of Smallville's work hours, 3 at a time: 8,567 prompt tokens of 23,505 served from the cache
against 5,479 and 5,611, 14% fewer evaluated, 6.14 requests a minute against 5.65 and 5.48
(docs/MODEL.md).
"""

from __future__ import annotations

import functools
import string
from pathlib import Path

from game.errors import GameError
from game.llm.api import Message


class PromptError(GameError):
    pass


class PromptFolder:
    def __init__(self, folder: Path, shared: str | None = None) -> None:
        self.folder = folder
        self.shared = shared  # the name of the one system prompt (then templates have [task])
        self.load = functools.lru_cache(maxsize=None)(self._load)
        self.system_prompt = functools.lru_cache(maxsize=None)(self._load_system)

    def _read(self, path: Path) -> str:
        try:
            return path.read_text(encoding="utf-8")
        except OSError as e:
            raise PromptError(f"prompt template {path}: cannot be read ({e.strerror})") from None

    def _load_system(self) -> str:
        text = self._read(self.folder / f"{self.shared}.txt").strip()
        if not text or "[" in text.split("\n", 1)[0]:
            raise PromptError(f"prompt template {self.folder / f'{self.shared}.txt'}: "
                              "the shared system prompt is plain text with no sections")
        return text

    def _load(self, name: str) -> tuple[string.Template, string.Template]:
        path = self.folder / f"{name}.txt"
        raw = self._read(path)
        head = "[task]" if self.shared else "[system]"
        if head not in raw or "[user]" not in raw:
            raise PromptError(f"prompt template {path}: needs a {head} and a [user] section")
        system, user = raw.split(head, 1)[1].split("[user]", 1)
        return string.Template(system.strip()), string.Template(user.strip())

    def render(self, name: str, /, person: str = "", **values: object) -> list[Message]:
        """The messages of template ``name``.  In a shared folder: the shared system prompt, then one
        user message of "Task: " and the task, ``person`` (who the resident is), and the data."""
        first, user = self.load(name)
        vals = {k: ("" if v is None else str(v)) for k, v in values.items()}
        try:
            first_text, user_text = first.substitute(vals), user.substitute(vals)
        except KeyError as e:
            raise PromptError(f"prompt template {name}.txt: no value for ${e.args[0]}") from None
        if not self.shared:
            return [Message("system", first_text), Message("user", user_text)]
        parts = [f"Task: {first_text}", person.strip(), user_text]
        return [Message("system", self.system_prompt()), Message("user", "\n\n".join(p for p in parts if p))]
