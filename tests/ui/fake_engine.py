"""A small fake engine and host for the UI tests (tests only: the product never uses these).

FakeEngine follows the engine contract the UI relies on (docs/INTERFACES.md, game/ui section):
``town``, ``positions()``, ``clock.text()``, ``step() -> TickResult``, ``submit(command)``,
``save(path)``, ``inspect(name)``, ``Engine.describe_save(path)``.  Its residents walk fixed
routes; a resident spoken to answers over the next ticks in streamed pieces.
"""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game.engine.events import (
    Bubble, Embody, EndConversation, EnterAsVisitor, LogLine, Move, MovePlayer, ObjectChange,
    Release, SayToResident, SetObjectState, TickResult, Utterance, Whisper,
)
from game.llm.api import ModelStatus

MAP = [
    "########################################",
    "#......#...............................#",
    "#......#.......~~~~~...................#",
    "#......+.......~~~~~.......#######.....#",
    "#......#.......~~~~~.......#.....#.....#",
    "########...................#.....+.....#",
    "#..........................#######.....#",
    "#......................................#",
    "#...######.............................#",
    "#...#....#.............................#",
    "#...#....+.............................#",
    "#...######.............................#",
    "#......................................#",
    "########################################",
]
COLOURS = {"#": ("#888888", "#303030"), ".": ("#4e7a3a", "#1f3a1f"), "~": ("#5fafff", "#1c3f6e"),
           "+": ("#d7af5f", "#5f3f1f")}


@dataclass(frozen=True)
class FakeTile:
    glyph: str
    fg: str
    bg: str
    walkable: bool
    name: str = ""


@dataclass
class FakeSpec:
    name: str
    glyph: str
    colour: str


@dataclass
class FakeTown:
    name: str
    width: int
    height: int
    tiles: list[list[FakeTile]]
    residents: list[FakeSpec]


def fake_town(name: str = "Testville", rows: list[str] | None = None,
              residents: list[FakeSpec] | None = None) -> FakeTown:
    rows = rows or MAP
    tiles = []
    for line in rows:
        row = []
        for ch in line:
            fg, bg = COLOURS.get(ch, ("white", "black"))
            row.append(FakeTile(ch, fg, bg, ch in ".+"))
        tiles.append(row)
    if residents is None:
        residents = [FakeSpec("Isabella Rodriguez", "I", "#ff5f87"), FakeSpec("Klaus Mueller", "K", "#87d7ff"),
                     FakeSpec("Maria Lopez", "M", "#ffd75f")]
    return FakeTown(name, len(rows[0]), len(rows), tiles, residents)


class FakeClock:
    def __init__(self) -> None:
        self.step = 0

    def text(self) -> str:
        s = 7 * 3600 + self.step * 10
        day = 1 + s // 86400
        s %= 86400
        return f"Day {day}, {s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}"


ROUTES = {  # each resident paces between two tiles
    "Isabella Rodriguez": ((2, 2), (5, 2)),
    "Klaus Mueller": ((20, 7), (30, 7)),
    "Maria Lopez": ((12, 10), (12, 12)),
}
EMOJI = ["☕", "📖", "🍳", "💤"]


class FakeEngine:
    """A deterministic stand-in for game.engine.Engine (see module docstring)."""

    def __init__(self, town: FakeTown | None = None, *, reply: str = "Hello there, welcome to town!",
                 waiting: int = 0) -> None:
        self.town = town or fake_town()
        self.clock = FakeClock()
        self.pos: dict[str, tuple[int, int]] = {}
        for spec in self.town.residents:
            self.pos[spec.name] = ROUTES.get(spec.name, ((1, 1), (1, 1)))[0]
        self.commands: list[Any] = []
        self.pending: list[Any] = []
        self.reply = reply
        self.waiting = waiting
        self.embodied: str | None = None
        self.visitor: str | None = None
        self.objects: dict[str, str] = {}
        self.whispers: list[tuple[str, str]] = []
        self.memories: dict[str, list[str]] = {s.name: [] for s in self.town.residents}
        self._speech: list[tuple[str, str, str, int]] = []  # (resident, listener, conv id, start step)
        self.fail_next_step: BaseException | None = None
        self.steps = 0
        self.saved: list[Path] = []
        self.visitor_spawn = (10, 7)

    # --- the contract ----------------------------------------------------------------------------

    def positions(self) -> dict[str, tuple[int, int]]:
        return dict(self.pos)

    def submit(self, command: Any) -> None:
        if isinstance(command, EnterAsVisitor):  # the visitor is placed at once, at the spawn tile
            self.pos["player"] = self.visitor_spawn
        self.commands.append(command)
        self.pending.append(command)

    def _walkable(self, p: tuple[int, int]) -> bool:
        x, y = p
        return 0 <= y < self.town.height and 0 <= x < self.town.width and self.town.tiles[y][x].walkable

    def step(self) -> TickResult:
        if self.fail_next_step is not None:
            e, self.fail_next_step = self.fail_next_step, None
            raise e
        self.clock.step += 1
        self.steps += 1
        r = TickResult(step=self.clock.step, clock=self.clock.text(), waiting_on_model=self.waiting)
        for cmd in self.pending:
            self._apply(cmd, r)
        self.pending.clear()
        for spec in self.town.residents:
            name = spec.name
            if name == self.embodied or any(s[0] == name for s in self._speech):
                continue
            a, b = ROUTES.get(name, ((1, 1), (1, 1)))
            period = (abs(b[0] - a[0]) + abs(b[1] - a[1])) * 2 or 1
            k = self.clock.step % period
            half = period // 2
            t = k if k <= half else period - k
            dx = (b[0] > a[0]) - (b[0] < a[0])
            dy = (b[1] > a[1]) - (b[1] < a[1])
            dst = (a[0] + dx * t, a[1] + dy * t)
            if dst != self.pos[name]:
                r.moves.append(Move(name, self.pos[name], dst))
                self.pos[name] = dst
            if self.clock.step % 5 == 1:
                i = (self.clock.step // 5 + len(name)) % len(EMOJI)
                r.bubbles.append(Bubble(name, EMOJI[i], f"doing thing {i}"))
        for item in list(self._speech):
            resident, listener, conv, start = item
            n = self.clock.step - start
            words = self.reply.split(" ")
            if n < len(words):
                r.utterances.append(Utterance(conv, resident, listener, " ".join(words[:n + 1]), final=False))
            else:
                r.utterances.append(Utterance(conv, resident, listener, self.reply, final=True))
                self.memories[resident].append(f"talked with {listener}")
                self._speech.remove(item)
        return r

    def _apply(self, cmd: Any, r: TickResult) -> None:
        if isinstance(cmd, EnterAsVisitor):
            self.visitor = cmd.name
            r.log.append(LogLine("system", f"{cmd.name} arrives: {cmd.description}", cmd.name))
        elif isinstance(cmd, MovePlayer):
            who = self.embodied or ("player" if self.visitor else None)
            if who is None:
                return
            src = self.pos[who]
            dst = (src[0] + cmd.dx, src[1] + cmd.dy)
            if self._walkable(dst):
                self.pos[who] = dst
                r.moves.append(Move(who, src, dst))
        elif isinstance(cmd, SayToResident):
            speaker = self.embodied or self.visitor or "player"
            r.utterances.append(Utterance(f"c{self.clock.step}", speaker, cmd.resident, cmd.text))
            self._speech.append((cmd.resident, speaker, f"c{self.clock.step}", self.clock.step))
        elif isinstance(cmd, Whisper):
            self.whispers.append((cmd.resident, cmd.text))
            self.memories[cmd.resident].append(f"thought: {cmd.text}")
            r.log.append(LogLine("whisper", cmd.text, cmd.resident))
        elif isinstance(cmd, Embody):
            self.embodied = cmd.resident
        elif isinstance(cmd, Release):
            self.embodied = None
        elif isinstance(cmd, SetObjectState):
            self.objects["kitchen:stove"] = cmd.description
            r.object_changes.append(ObjectChange("Lin house:kitchen:stove", "on fire", "player"))
        elif isinstance(cmd, EndConversation):
            pass

    def inspect(self, name: str) -> dict[str, Any]:
        return {
            "action": "pacing up and down",
            "emoji": "☕",
            "place": f"the square at {self.pos[name]}",
            "plan": ["07:00 wake up", "08:00 open the cafe", "12:00 lunch"],
            "recent": list(reversed(self.memories[name]))[:5] or ["saw the morning light"],
            "retrieved": ["the cafe opens at 8"],
            "relationships": {o.name: "a neighbour" for o in self.town.residents if o.name != name},
        }

    def save(self, path: str | Path) -> None:
        path = Path(path)
        data = {"town": self.town.name, "clock": self.clock.text(), "step": self.clock.step,
                "residents": [s.name for s in self.town.residents], "pos": self.pos}
        path.write_text(json.dumps(data))
        self.saved.append(path)

    @staticmethod
    def describe_save(path: Path) -> dict[str, Any]:
        d = json.loads(Path(path).read_text())
        return {"town": d["town"], "clock": d["clock"], "residents": d["residents"]}

    @classmethod
    def load(cls, path: Path) -> "FakeEngine":
        d = json.loads(Path(path).read_text())
        e = cls(fake_town(d["town"]))
        e.clock.step = d["step"]
        e.pos = {k: tuple(v) for k, v in d["pos"].items()}
        return e


class FakeLLM:
    def __init__(self) -> None:
        self.model_status = ModelStatus(url="fake://", model="fake-model", in_flight=2, queued=3,
                                        tokens_per_s=12.5)

    def status(self) -> ModelStatus:
        return self.model_status


@dataclass
class FakeHost:
    """Starts a FakeLLM (reporting progress) and hands out FakeEngines."""

    engine: FakeEngine = field(default_factory=FakeEngine)
    start_save: Path | None = None
    progress_calls: list[tuple[Any, ...]] = field(default_factory=list)
    fail_open: BaseException | None = None
    loaded: list[Path] = field(default_factory=list)
    llm: FakeLLM = field(default_factory=FakeLLM)

    @asynccontextmanager
    async def _open(self, progress: Any):
        progress("starting llama-server", 0.25)
        self.progress_calls.append(("starting", 0.25))
        if self.fail_open is not None:
            raise self.fail_open
        progress("loading model weights", 0.75)
        self.progress_calls.append(("loading", 0.75))
        yield self.llm

    def open_llm(self, progress: Any) -> Any:
        return self._open(progress)

    async def new_engine(self, llm: Any) -> FakeEngine:
        return self.engine

    async def load_engine(self, path: Path, llm: Any) -> FakeEngine:
        self.loaded.append(path)
        return FakeEngine.load(path)

    def describe_save(self, path: Path):
        from game.ui.host import SaveInfo

        d = FakeEngine.describe_save(path)
        return SaveInfo(path, d["town"], d["clock"], d["residents"])
