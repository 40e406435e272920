"""What every resident did where, and every object change, over a run: ``SAVE.actions.jsonl``.

A save holds only the moment it was made; the place-fit measure (``town report``) needs each action
of the run with its place, and each state an object was put in.  Written beside the save by
``town run`` and ``game.measure.run``, the way positions are (``SAVE.positions.jsonl``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Protocol

from game.engine.api import Clock
from game.engine.events import TickResult
from game.engine.state import Resident

FORMAT = "town-actions"


class Sampled(Protocol):
    """What ``ActionLog.sample`` reads of a town (the engine)."""

    @property
    def clock(self) -> Clock: ...

    @property
    def residents(self) -> Mapping[str, Resident]: ...


@dataclass
class ActionLog:
    actions: list[dict] = field(default_factory=list)  # {t, who, action, address, state, source}
    objects: list[dict] = field(default_factory=list)  # {t, object, state, by}
    _last: dict[str, tuple] = field(default_factory=dict)

    def sample(self, engine: Sampled, res: TickResult | None = None) -> None:
        """Note the actions that began since the last sample, and the object changes of ``res``."""
        now = engine.clock.now
        for name, r in sorted(engine.residents.items()):
            a = r.action
            if a is None:
                continue
            key = (a.description, a.address, a.start)
            if self._last.get(name) == key:
                continue
            self._last[name] = key
            self.actions.append({"t": (a.start or now).isoformat(), "who": name, "action": a.description,
                                 "address": a.address, "state": a.object_state, "source": a.source})
        for c in res.object_changes if res is not None else ():
            self.objects.append({"t": now.isoformat(), "object": c.address, "state": c.state, "by": c.by})

    def write(self, path: str | Path) -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(json.dumps({"format": FORMAT, "version": 1}) + "\n")
            for a in self.actions:
                f.write(json.dumps({"kind": "action", **a}, ensure_ascii=False) + "\n")
            for o in self.objects:
                f.write(json.dumps({"kind": "object", **o}, ensure_ascii=False) + "\n")

    @classmethod
    def read(cls, path: str | Path) -> ActionLog:
        """Raises ``ValueError`` with a clear message for a file that is not an action log."""
        _, lines = read_headed(path, FORMAT, "action log")
        log = cls()
        for n, line in enumerate(lines[1:], start=2):
            if not line.strip():
                continue
            try:
                d = json.loads(line)
                kind = d.pop("kind")
                datetime.fromisoformat(d["t"])
            except (ValueError, KeyError, TypeError, AttributeError):
                raise ValueError(f"action log '{path}', line {n}: not an action or object change") from None
            (log.actions if kind == "action" else log.objects).append(d)
        return log


def read_headed(path: str | Path, fmt: str, what: str) -> tuple[dict, list[str]]:
    """The header and the lines of a JSON-lines log whose first line is ``{"format": fmt, ...}``;
    ``ValueError`` naming the file when it cannot be read or is something else."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise ValueError(f"{what} '{path}' cannot be read: {e.strerror}") from None
    try:
        head = json.loads(lines[0]) if lines else {}
    except ValueError:
        head = {}
    if not isinstance(head, dict) or head.get("format") != fmt:
        raise ValueError(f"'{path}' is not a{'n' if what[0] in 'aeiou' else ''} {what} (no {fmt} header)")
    return head, lines


def actions_log_path(save: str | Path) -> Path:
    return Path(str(save) + ".actions.jsonl")
