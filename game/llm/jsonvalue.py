"""What JSON holds, as a type: the bodies sent to and read from a model server, recordings and
accounting in their plain form.  A value read from outside is a ``JSON`` and is narrowed with
``isinstance`` before use; one that is only passed on (to ``json.dumps``, to httpx) may stay an
``object``."""

from __future__ import annotations

from typing import TypeAlias

JSON: TypeAlias = None | bool | int | float | str | list["JSON"] | dict[str, "JSON"]
JSONObject: TypeAlias = dict[str, JSON]


def as_object(value: object) -> dict[str, object]:
    """``value`` when it is a JSON object, else an empty one (an odd server, a damaged file)."""
    if isinstance(value, dict):
        return {str(k): v for k, v in value.items()}
    return {}


def as_list(value: object) -> list[object]:
    """``value`` when it is a JSON array, else an empty one."""
    return list(value) if isinstance(value, list) else []
