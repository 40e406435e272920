"""The manifest of a recorded run: what a replay needs besides the model's answers.

A run recorded with ``--record FILE`` keeps every model request and answer in FILE; ``FILE.run.json``
beside it says where the run started (a town folder or a save), the cast, the seed, the player's
commands (with the step after which each was done) and where the run ended.  Plain JSON, written
atomically when the run ends.  ``game.replay.tape`` turns the two into a tape to watch or fork.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Protocol

from game.engine.api import ClockText
from game.engine.events import Command
from game.errors import GameError

MANIFEST_FORMAT = "town-run"


def manifest_path(recording: str | Path) -> Path:
    """Where the manifest of a recorded run lives: beside the recording, ``FILE.run.json``."""
    return Path(str(recording) + ".run.json")


def command_to_dict(cmd: Command) -> dict:
    from dataclasses import asdict

    return {"type": type(cmd).__name__, **asdict(cmd)}


def command_from_dict(d: dict) -> Command:
    from game.engine import events

    kinds = {c.__name__: c for c in (events.EnterAsVisitor, events.MovePlayer, events.OpenTalk,
                                     events.Typing, events.SayToResident,
                                     events.EndConversation, events.Whisper, events.Embody,
                                     events.Release, events.SetObjectState)}
    d = dict(d)
    cls = kinds.get(str(d.pop("type", "")))
    if cls is None:
        raise ValueError(f"unknown command in the run's manifest: {d!r}")
    return cls(**d)


def code_fingerprint() -> str:
    """A short hash of what decides which questions a run asks (the engine, the minds, their prompt
    templates and answer schemas): a recording replays exactly only under the same fingerprint."""
    import hashlib

    root = Path(__file__).resolve().parents[2]  # game/ (this file is game/engine/running/manifest.py)
    h = hashlib.sha256()
    for folder in ("engine", "mind"):
        for f in sorted((root / folder).rglob("*")):
            if f.suffix in (".py", ".txt") and "__pycache__" not in f.parts:
                h.update(f.relative_to(root).as_posix().encode())
                h.update(f.read_bytes())
    return h.hexdigest()[:16]


def write_manifest(recording: str | Path, *, start: str | Path, small: bool, seed: int,
                   commands: Sequence[tuple[int, Command]], end_step: int, end_clock: str = "",
                   start_time: datetime | None = None) -> Path:
    """Write what a replay of a recorded run needs besides the model's answers: where it started
    (a town folder or a save), the cast, the seed, the player's commands and where it ended.  Plain
    JSON, written atomically."""
    import json

    from game.engine.saves import atomic

    path = manifest_path(recording)
    from game.world import resolve_town_path

    data = {"format": MANIFEST_FORMAT, "version": 1, "start": str(resolve_town_path(start).resolve()),
            "small": bool(small),
            "seed": int(seed), "start_time": start_time.isoformat() if start_time else None,
            "commands": [[int(at), command_to_dict(c)] for at, c in commands],
            "end_step": int(end_step), "end_clock": end_clock, "code": code_fingerprint()}
    atomic.write_text(path, json.dumps(data, indent=1, ensure_ascii=False))  # fsynced; no leftovers
    return path


class Ended(Protocol):
    """What ``write_engine_manifest`` reads of a town that has just run (the engine's core)."""

    @property
    def step_no(self) -> int: ...

    @property
    def clock(self) -> ClockText: ...

    @property
    def seed(self) -> int: ...


def write_engine_manifest(recording: str | Path, core: Ended, commands: Sequence[tuple[int, Command]], *,
                          start: str | Path, small: bool, start_time: datetime | None = None) -> Path:
    """``write_manifest`` for a run that has just ended on an engine: its core and the player's
    commands it did (``PlayerCommands.log``)."""
    return write_manifest(recording, start=start, small=small, seed=core.seed,
                          commands=list(commands), end_step=core.step_no,
                          end_clock=core.clock.text(), start_time=start_time)


class ManifestError(GameError, ValueError):
    """A recorded run that cannot be watched: what is missing or wrong, in words."""


@dataclass
class RunManifest:
    recording: str
    start: str
    small: bool = False
    seed: int = 0
    start_time: datetime | None = None
    commands: list[tuple[int, Command]] = field(default_factory=list)
    end_step: int = 0
    end_clock: str = ""
    code: str = ""  # the code fingerprint of the run ("" for manifests written before it existed)

    @property
    def same_code(self) -> bool:
        return self.code == code_fingerprint()

    def check_start(self) -> RunManifest:
        """Raise ``ManifestError`` when the town or save the run started from is gone."""
        from game.world import resolve_town_path

        if not resolve_town_path(self.start).exists():  # a built-in town kept by another install
            raise ManifestError(f"the run started from {self.start}, which is not there any more")
        return self

    @classmethod
    def load(cls, recording: str | Path) -> RunManifest:
        import json

        rec = Path(recording)
        if not rec.is_file():
            raise ManifestError(f"{rec}: no such recording")
        path = manifest_path(rec)
        if not path.is_file():
            raise ManifestError(f"{rec}: no {path.name} beside it (runs recorded with --record write one "
                                f"at the end; a run cut short before its end has none)")
        try:
            d = json.loads(path.read_text(encoding="utf-8"))
            if d.get("format") != MANIFEST_FORMAT:
                raise ManifestError(f"{path}: not a run manifest")
            if int(d.get("version", 0)) > 1:
                raise ManifestError(f"{path}: made by a newer version of the game")
            return cls(recording=str(rec), start=str(d["start"]), small=bool(d.get("small")),
                       seed=int(d.get("seed", 0)),
                       start_time=datetime.fromisoformat(d["start_time"]) if d.get("start_time") else None,
                       commands=[(int(at), command_from_dict(c)) for at, c in d.get("commands", [])],
                       end_step=int(d.get("end_step", 0)), end_clock=str(d.get("end_clock", "")),
                       code=str(d.get("code", "")))
        except ManifestError:
            raise
        except (ValueError, KeyError, TypeError) as e:
            raise ManifestError(f"{path}: damaged run manifest ({e})") from e
