"""The measure package's prompt templates (``game/measure/prompts/*.txt``; format in
``game.llm.prompts``)."""

from __future__ import annotations

from pathlib import Path

from game.llm.prompts import PromptError, PromptFolder

__all__ = ["PROMPT_DIR", "PromptError", "load", "render"]

PROMPT_DIR = Path(__file__).with_name("prompts")
_FOLDER = PromptFolder(PROMPT_DIR)
load = _FOLDER.load
render = _FOLDER.render
