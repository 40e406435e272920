"""A generative-agents town you play in the terminal.

Layers (imports point down only):  ui -> engine -> mind, world -> llm.
Only ``game.ui`` imports Textual.
"""

__version__ = "0.1.0"  # the one place the version is written: pyproject.toml reads it from here
