"""The model layer: see ``game/llm/api.py`` (the contract) and ``docs/MODEL.md``."""

from __future__ import annotations

from .api import (
    LLM,
    BadAnswer,
    CallTag,
    LLMError,
    Message,
    ModelStatus,
    ModelTimeout,
    ModelUnavailable,
    Priority,
    Usage,
)

__all__ = ["BadAnswer", "CallTag", "LLM", "LLMError", "LLMConfig", "Message", "ModelStatus",
           "ModelTimeout", "ModelUnavailable", "Priority", "Usage", "open_llm"]


def __getattr__(name: str) -> object:
    # lazy: importing the contract must not pull in httpx/numpy
    if name == "open_llm":
        from .session import open_llm
        return open_llm
    if name == "LLMConfig":
        from .config import LLMConfig
        return LLMConfig
    raise AttributeError(name)
