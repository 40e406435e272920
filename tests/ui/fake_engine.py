"""A small fake engine and host for the UI tests (tests only: the product never uses these).

FakeEngine follows the engine contract the UI relies on (``game.engine.api.LiveEngine``) and
the real engine's behaviour: ``submit`` acts at once (raising ``CommandError`` for what cannot be
done) and its events come with the next ``step()`` or ``poll()``; ``poll()`` never moves the clock.
Its residents walk fixed routes; a resident spoken to answers word by word, one word per
``step()``/``poll()``, as ``Utterance(final=False)`` pieces and then the whole line.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fake_model import FakeModel

from game.engine import CommandError
from game.engine.events import (
    Bubble,
    Embody,
    EndConversation,
    EnterAsVisitor,
    LogLine,
    Move,
    MovePlayer,
    ObjectChange,
    OpenTalk,
    Release,
    SayToResident,
    SetObjectState,
    TickResult,
    Utterance,
    Whisper,
)
from game.engine.state import Player, ResidentView
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

    is_replay = False

    def __init__(self, town: FakeTown | None = None, *, reply: str = "Hello there, welcome to town!",
                 waiting: int = 0) -> None:
        self.town = town or fake_town()
        self.clock = FakeClock()
        self.pos: dict[str, tuple[int, int]] = {}
        for spec in self.town.residents:
            self.pos[spec.name] = ROUTES.get(spec.name, ((1, 1), (1, 1)))[0]
        self.commands: list[Any] = []
        self.reply = reply
        self.waiting = waiting
        self.embodied: str | None = None
        self.player: Player | None = None
        self.heard = asyncio.Event()
        self.objects: dict[str, str] = {}
        self.whispers: list[tuple[str, str]] = []
        self.memories: dict[str, list[str]] = {s.name: [] for s in self.town.residents}
        self._speech: list[list[Any]] = []  # [resident, listener, conv id, words said so far]
        self.fail_next_step: BaseException | None = None
        self.steps = 0
        self.saved: list[Path] = []
        self.visitor_spawn = (36, 12)
        self._out = TickResult(step=0, clock="")
        self.polls = 0
        self.waited_any = 0
        self.closed = False
        self.talking: dict[str, str] = {}  # resident -> conversation id, until it ends
        self.asleep: set[str] = set()  # residents shown asleep (``ResidentView.asleep``)

    # --- the contract ----------------------------------------------------------------------------

    def positions(self) -> dict[str, tuple[int, int]]:
        return dict(self.pos)

    def submit(self, command: Any) -> None:
        self.commands.append(command)
        self._apply(command, self._out)

    def _take_out(self) -> TickResult:
        r, self._out = self._out, TickResult(step=self.clock.step, clock="")
        r.step, r.clock, r.waiting_on_model = self.clock.step, self.clock.text(), self.waiting
        return r

    def poll(self) -> TickResult:
        self.polls += 1
        r = self._take_out()
        self._speak(r)
        return r

    def snapshot(self) -> TickResult:
        r = TickResult(step=self.clock.step, clock=self.clock.text())
        for name, p in sorted(self.pos.items()):
            r.moves.append(Move(name, p, p))
        r.bubbles.append(Bubble(self.town.residents[0].name, "📖", "reading"))
        return r

    async def wait_any(self) -> None:
        self.waited_any += 1
        await asyncio.sleep(0.01)

    async def aclose(self) -> None:
        self.closed = True

    def _walkable(self, p: tuple[int, int]) -> bool:
        x, y = p
        return 0 <= y < self.town.height and 0 <= x < self.town.width and self.town.tiles[y][x].walkable

    def step(self) -> TickResult:
        if self.fail_next_step is not None:
            e, self.fail_next_step = self.fail_next_step, None
            raise e
        self.clock.step += 1
        self.steps += 1
        r = self._take_out()
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
        self._speak(r)
        return r

    def _speak(self, r: TickResult) -> None:
        for item in list(self._speech):
            resident, listener, conv, n = item
            item[3] += 1
            words = self.reply.split(" ")
            if n < len(words):
                r.utterances.append(Utterance(conv, resident, listener, " ".join(words[:n + 1]), final=False))
            else:
                r.utterances.append(Utterance(conv, resident, listener, self.reply, final=True))
                self.memories[resident].append(f"talked with {listener}")
                self._speech.remove(item)

    def _apply(self, cmd: Any, r: TickResult) -> None:
        if isinstance(cmd, EnterAsVisitor):
            if self.player:
                raise CommandError(f"{self.player.name} is already in town")
            self.player = Player(cmd.name, cmd.description, self.visitor_spawn)
            self.pos["player"] = self.visitor_spawn
            r.moves.append(Move("player", self.visitor_spawn, self.visitor_spawn))
            r.log.append(LogLine("system", f"{cmd.name} arrives: {cmd.description}", cmd.name))
        elif isinstance(cmd, MovePlayer):
            who = self.embodied or ("player" if self.player else None)
            if who is None:
                raise CommandError("enter the town as a visitor or take over a resident first")
            src = self.pos[who]
            dst = (src[0] + cmd.dx, src[1] + cmd.dy)
            if self._walkable(dst):
                self.pos[who] = dst
                r.moves.append(Move(who, src, dst))
        elif isinstance(cmd, OpenTalk):
            me = self.pos[self.embodied or "player"]
            them = self.pos[cmd.resident]
            if max(abs(me[0] - them[0]), abs(me[1] - them[1])) > 4:
                raise CommandError(f"{cmd.resident} is too far away to hear you; walk closer")
            self.talking.setdefault(cmd.resident, f"c{self.clock.step}")
        elif isinstance(cmd, SayToResident):
            speaker = self.embodied or (self.player.name if self.player else "player")
            me = self.pos[self.embodied or "player"]
            them = self.pos[cmd.resident]
            if max(abs(me[0] - them[0]), abs(me[1] - them[1])) > 4:
                raise CommandError(f"{cmd.resident} is too far away to hear you; walk closer")
            r.utterances.append(Utterance(f"c{self.clock.step}", speaker, cmd.resident, cmd.text))
            self._speech.append([cmd.resident, speaker, f"c{self.clock.step}", 0])
            self.talking.setdefault(cmd.resident, f"c{self.clock.step}")
        elif isinstance(cmd, Whisper):
            self.whispers.append((cmd.resident, cmd.text))
            self.memories[cmd.resident].append(f"thought: {cmd.text}")
            r.log.append(LogLine("whisper", cmd.text, cmd.resident))
        elif isinstance(cmd, Embody):
            if self.embodied:
                raise CommandError(f"you are already {self.embodied}; release them first")
            self.embodied = cmd.resident
            r.bubbles.append(Bubble(cmd.resident, "🚶", "walking around"))
        elif isinstance(cmd, Release):
            if not self.embodied:
                raise CommandError("you are not controlling anyone")
            self.embodied = None
        elif isinstance(cmd, SetObjectState):
            self.objects["kitchen:stove"] = cmd.description
            r.object_changes.append(ObjectChange("Lin house:kitchen:stove", "on fire", "player"))
            # like the real engine: every change is also a worded log line
            r.log.append(LogLine("object", "the stove in the kitchen of the Lin house is now on fire",
                                 "player"))
        elif isinstance(cmd, EndConversation):
            if cmd.resident not in self.talking:
                raise CommandError(f"you are not talking with {cmd.resident}")
            del self.talking[cmd.resident]

    def lead(self) -> tuple[float | None, float]:
        return None, 0.0

    def routine_wait_min(self) -> float:
        return 0.0

    def inspect(self, name: str) -> ResidentView:
        if name not in self.pos:  # as the real one (EngineView.inspect)
            raise CommandError(f"there is no resident called '{name}'")
        return ResidentView(
            name=name,
            action="pacing up and down",
            emoji="☕",
            place=f"the square at {self.pos[name]}",
            pos=self.pos[name],
            plan=["07:00 wake up", "08:00 open the cafe", "12:00 lunch"],
            recent=list(reversed(self.memories[name]))[:5] or ["saw the morning light"],
            retrieved=["the cafe opens at 8"],
            relationships={o.name: "a neighbour" for o in self.town.residents if o.name != name},
            embodied=name == self.embodied,
            conversation=self.talking.get(name),
            thinking=False,
            asleep=name in self.asleep,
        )

    def save_job(self, path: str | Path | None = None) -> FakeSaveJob:
        return FakeSaveJob(self, path)

    def save(self, path: str | Path | None = None) -> str:
        path = Path(path or "")
        data = {"town": self.town.name, "clock": self.clock.text(), "step": self.clock.step,
                "residents": [s.name for s in self.town.residents], "pos": self.pos,
                "embodied": self.embodied}
        path.write_text(json.dumps(data))
        self.saved.append(path)
        return str(path)

    @staticmethod
    def describe_save(path: Path) -> dict[str, Any]:
        d = json.loads(Path(path).read_text())
        return {"town": d["town"], "clock": d["clock"], "residents": d["residents"]}

    @classmethod
    def load(cls, path: Path) -> FakeEngine:
        d = json.loads(Path(path).read_text())
        e = cls(fake_town(d["town"]))
        e.clock.step = d["step"]
        e.pos = {k: tuple(v) for k, v in d["pos"].items()}
        e.embodied = d.get("embodied")  # like a real save: the player is still that resident
        return e


def status_model() -> FakeModel:
    """The fake model, with a status line that shows work in flight and queued."""
    return FakeModel(status=ModelStatus(url="fake://", model="fake-model", in_flight=2, queued=3,
                                        tokens_per_s=12.5))


@dataclass
class FakeHost:
    """Starts the fake model (reporting progress) and hands out FakeEngines."""

    engine: FakeEngine = field(default_factory=FakeEngine)
    start_save: Path | None = None
    progress_calls: list[tuple[Any, ...]] = field(default_factory=list)
    fail_open: BaseException | None = None
    loaded: list[Path] = field(default_factory=list)
    llm: FakeModel = field(default_factory=status_model)
    watch: str | None = None  # these tests watch no recording (tests/ui/test_watch_screen.py does)

    def watch_engine(self) -> Any:
        raise AssertionError("FakeHost has no recording to watch")

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
        from game.engine.saves import SaveError
        from game.ui.host import SaveInfo

        try:  # as the real one: a file it cannot read is a SaveError (GameHost.describe_save)
            d = FakeEngine.describe_save(path)
        except (OSError, ValueError, KeyError) as e:
            raise SaveError(f"'{path}' is not a fake save ({type(e).__name__}: {e})") from None
        return SaveInfo(path, d["town"], d["clock"], d["residents"])


class FakeSaveJob:
    """``save_job`` of the fake engine: written when finished (the fake's save is instant)."""

    seconds = 0.0
    incremental = False

    def __init__(self, engine: FakeEngine, path: str | Path | None) -> None:
        self.engine, self.path = engine, path

    def run(self) -> None:
        return None

    def finish(self) -> str:
        return self.engine.save(self.path)
