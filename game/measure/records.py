"""Memory records as plain rows, read from a save or a live town, for the measurements.

A row and the readers of what its text says (who told the resident, whom it talked with, who is
mentioned) belong to the mind that writes those shapes (``game.mind.memory.records``) and are re-exported
here; this module adds reading them, and the rest of a save, without a model or a world.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, cast

from game.mind.memory.records import (
    MemoryRow,
    Remembering,
    mentioned,
    name_pattern,
    rows_of_mind,
    source_of,
    talked_with,
)

if TYPE_CHECKING:  # pragma: no cover
    from game.engine.engine import Engine

__all__ = ["MemoryRow", "SaveData", "by_resident", "mentioned", "name_pattern", "read_save", "rows_of_engine",
           "rows_of_mind", "source_of", "talked_with"]


@dataclass
class SaveData:
    """What the measurements read from one save (read-only, no model, no world)."""

    path: str
    meta: dict
    residents: list[str]
    memories: list[MemoryRow]
    conversations: list[dict] = field(default_factory=list)  # finished and active talks
    accounting: dict | None = None
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    engine_state: dict[str, dict] = field(default_factory=dict)
    relationships: dict[str, dict[str, str]] = field(default_factory=dict)  # from each persona
    actions: dict[str, str] = field(default_factory=dict)  # what each resident is doing at the save
    mind_stats: dict[str, dict[str, int]] = field(default_factory=dict)  # each mind's rule/fallback counts
    plans: dict[str, dict] = field(default_factory=dict)  # each mind's day plan (DayPlan.to_dict), if any
    personas: dict[str, dict] = field(default_factory=dict)  # each mind's persona (Persona.to_dict)
    facts: dict[str, list[dict]] = field(default_factory=dict)  # each mind's facts (Fact.to_dict)

    @property
    def clock_text(self) -> str:
        return str(self.meta.get("clock_text", ""))

    @property
    def now(self) -> datetime | None:
        clock = self.meta.get("clock") or {}
        try:
            from datetime import timedelta

            start = datetime.fromisoformat(clock["start"])
            return start + timedelta(seconds=float(clock["seconds_per_step"]) * int(clock.get("step", 0)))
        except (KeyError, TypeError, ValueError):
            return None

    @property
    def start(self) -> datetime | None:
        try:
            return datetime.fromisoformat((self.meta.get("clock") or {})["start"])
        except (KeyError, TypeError, ValueError):
            return None


def read_save(path: str | Path) -> SaveData:
    """Read the parts of a save the measurements need.  Raises ``SaveError`` (a clear message)."""
    from game.engine.saves import SaveError, open_save, read_memories
    from game.mind.memory.stream import KINDS, from_game_hours

    db, meta = open_save(path)
    try:
        residents = [str(n) for n in meta.get("residents", [])]
        rows: list[MemoryRow] = []
        images, _ = read_memories(db, meta, Path(path))
        for resident in sorted(images):
            img = images[resident]
            for i in range(img.n):
                rows.append(MemoryRow(resident=resident, id=i, kind=KINDS[int(img.kind[i])], text=str(img.text[i]),
                                      created=from_game_hours(float(img.created[i])),
                                      importance=float(img.importance[i]),
                                      evidence=tuple(int(e) for e in img.evidence[i])))
        convs = []
        for _cid, active, data in db.execute("SELECT id, active, data FROM conversations ORDER BY rowid"):
            d = json.loads(data)
            d["active"] = bool(active)
            convs.append(d)
        acc_row = db.execute("SELECT data FROM accounting WHERE id = 1").fetchone()
        positions, eng, rel, actions, stats, plans, personas, facts = {}, {}, {}, {}, {}, {}, {}, {}
        for name, x, y, action, e, mstate in db.execute(
                "SELECT name, x, y, action, engine_state, mind_state FROM residents"):
            positions[name] = (int(x), int(y))
            eng[name] = json.loads(e)
            mind_state = json.loads(mstate) or {}
            persona = mind_state.get("persona") or {}
            st = mind_state.get("stats")
            stats[name] = {str(k): int(v) for k, v in st.items()} if isinstance(st, dict) else {}
            rel[name] = {str(k): str(v) for k, v in (persona.get("relationships") or {}).items()}
            personas[name] = persona
            facts[name] = [d for d in mind_state.get("facts") or [] if isinstance(d, dict)]
            if isinstance(mind_state.get("plan"), dict):
                plans[name] = mind_state["plan"]
            act = json.loads(action) if action else None
            actions[name] = str(act.get("description", "")) if isinstance(act, dict) else ""
    except (sqlite3.DatabaseError, ValueError, KeyError, TypeError, IndexError) as e:
        raise SaveError(f"save '{path}' is damaged or incomplete ({type(e).__name__}: {e})") from None
    finally:
        db.close()
    return SaveData(path=str(path), meta=meta, residents=residents, memories=rows, conversations=convs,
                    accounting=json.loads(acc_row[0]) if acc_row else None, positions=positions,
                    engine_state=eng, relationships=rel, actions=actions, mind_stats=stats, plans=plans,
                    personas=personas, facts=facts)


def rows_of_engine(engine: Engine) -> list[MemoryRow]:
    """Every resident's memory as rows (the engine's minds are ``game.mind.Mind``s)."""
    out: list[MemoryRow] = []
    for name in sorted(engine.core.minds):
        out.extend(rows_of_mind(name, cast(Remembering, engine.core.minds[name])))
    return out


def by_resident(rows: Iterable[MemoryRow]) -> dict[str, list[MemoryRow]]:
    out: dict[str, list[MemoryRow]] = {}
    for r in rows:
        out.setdefault(r.resident, []).append(r)
    for v in out.values():
        v.sort(key=lambda r: (r.created, r.id))
    return out
