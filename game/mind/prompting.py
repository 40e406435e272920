"""The mind's prompt templates, ``game/mind/prompts/*.txt`` (see ``game.llm.prompts`` for the format:
a ``[system]`` and a ``[user]`` section, ``$name`` placeholders filled verbatim)."""

from __future__ import annotations

from pathlib import Path

from game.llm.prompts import PromptError, PromptFolder

__all__ = ["PROMPT_DIR", "PromptError", "load", "render", "names"]

PROMPT_DIR = Path(__file__).with_name("prompts")
_FOLDER = PromptFolder(PROMPT_DIR)
load = _FOLDER.load
render = _FOLDER.render


def names() -> list[str]:
    return sorted(p.stem for p in PROMPT_DIR.glob("*.txt"))
