"""The mind's prompt templates, ``game/mind/prompts/*.txt`` (see ``game.llm.prompts`` for the format).

Laid out for the server's prompt cache: every call sends the one system prompt
``prompts/_system.txt``, then its ``[task]``, then who the resident is (``person``, from
``components.prompt_person``), and the ``[user]`` data with ``$name`` placeholders filled verbatim."""

from __future__ import annotations

from game.llm.prompts import PromptError, PromptFolder
from game.resources import package_dir

__all__ = ["PROMPT_DIR", "PromptError", "load", "load_system", "render", "names", "examples"]

PROMPT_DIR = package_dir(__package__, "prompts")  # read from the package, as installed
_FOLDER = PromptFolder(PROMPT_DIR, shared="_system")
load = _FOLDER.load
render = _FOLDER.render
load_system = _FOLDER.system_prompt


def names() -> list[str]:
    return sorted(p.stem for p in PROMPT_DIR.glob("*.txt") if not p.stem.startswith("_"))


def examples(name: str) -> str:
    """The worked examples of template ``name``'s task (its lines that begin "Example"), as one text:
    what an answer that copies the example instead of the resident's own life would echo."""
    task, _ = load(name)
    return "\n".join(line for line in task.template.splitlines() if line.lstrip().startswith("Example"))
