"""Watching a recorded run again: a tape of ``TickResult``s made by replaying the engine.

A run recorded with ``--record FILE`` (every model request and answer) replays with no model: the
engine runs in lockstep from the same start (the same town and seed, or the same starting save)
with a ``ReplayLLM`` over the recording, and the same player commands at the same ticks, so it makes
the same town tick by tick (lockstep applies answers in a fixed order; see game/engine).

``ReplayTape`` runs that engine forward once and keeps what the screen needs:

- ``await tape.advance(n)``: replay ``n`` more ticks (the tape grows; ``tape.end`` is its last step);
- ``tape.results(a, b)``: the ``TickResult``s of steps ``a+1 .. b``, for playing forward;
- ``tape.frame(step)``: one ``TickResult`` holding the whole picture at ``step`` (everyone's position
  as a move with ``src == dst``, everyone's bubble), for scrubbing and jumping anywhere at once;
- ``tape.step_at("day 1 09:00")``: the step of a game time, for "jump to a time";
- ``await tape.fork(step, llm, save_path)``: a live ``Engine`` from that moment on (the engine is
  replayed afresh to ``step``, saved, and loaded with the live model).

Pausing is the screen's business (it stops asking for results).  What the UI needs is written in
docs/MEASURE.md.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from game.engine.events import Bubble, Command, Move, TickResult

if TYPE_CHECKING:  # pragma: no cover
    from game.engine.api import TownMap
    from game.engine.engine import Engine
    from game.engine.running.manifest import RunManifest
    from game.llm.api import LLM

KEYFRAME_EVERY = 60  # ticks between two full pictures kept in memory


@dataclass
class _Key:
    step: int
    clock: str
    positions: dict[str, tuple[int, int]]
    bubbles: dict[str, Bubble]


@dataclass
class ReplayTape:
    start: str  # the town folder (or .tmx) or the save the recorded run started from
    recording: str  # the model recording of that run
    small: bool = False
    seed: int = 0
    commands: Sequence[tuple[int, Command]] = ()  # (step after which it was submitted, command)
    start_time: datetime | None = None  # a new town started at another time than its own (new_engine start=)
    results: list[TickResult] = field(default_factory=list, init=False, repr=False)
    _engine: Engine | None = field(default=None, init=False, repr=False)
    _keys: list[_Key] = field(default_factory=list, init=False, repr=False)
    _times: list[datetime] = field(default_factory=list, init=False, repr=False)
    _pos: dict[str, tuple[int, int]] = field(default_factory=dict, init=False, repr=False)
    _bub: dict[str, Bubble] = field(default_factory=dict, init=False, repr=False)

    # -------------------------------------------------------------------- replaying
    def _new_engine(self) -> Engine:
        from game.engine.build import load_engine, new_engine
        from game.engine.saves import is_save
        from game.llm.record import ReplayLLM

        llm = ReplayLLM(self.recording)
        if is_save(self.start):
            e = load_engine(self.start, llm, lockstep=True)
        else:
            e = new_engine(self.start, llm, small=self.small, seed=self.seed, lockstep=True,
                           start=self.start_time)
        return e

    def _submit_due(self, e: Engine) -> None:
        for at, cmd in self.commands:
            if at == e.core.step_no:
                e.submit(cmd)

    def open(self) -> TickResult:
        """Start the replay; returns the first picture (step 0 of the tape)."""
        if self._engine is None:
            e = self._engine = self._new_engine()
            snap = e.snapshot()
            self._pos = {m.who: m.dst for m in snap.moves}
            self._bub = {b.who: b for b in snap.bubbles}
            self.base_step = e.core.step_no
            self._keys.append(_Key(self.base_step, snap.clock, dict(self._pos), dict(self._bub)))
            self._times.append(e.clock.now)
            self._submit_due(e)
        return self.frame(self.base_step)

    @property
    def engine(self) -> Engine:
        """The engine replaying the run (raises ``ValueError`` before ``open``)."""
        if self._engine is None:
            raise ValueError("the replay is not open")
        return self._engine

    @property
    def first_time(self) -> datetime:
        """The game time of the tape's first step (once open)."""
        if not self._times:
            raise ValueError("the replay is not open")
        return self._times[0]

    @property
    def town(self) -> TownMap:
        """The town of the run (once open)."""
        return self.engine.town

    @property
    def end(self) -> int:
        return self.base_step + len(self.results) if self._engine is not None else 0

    async def advance(self, n: int = 1) -> list[TickResult]:
        """Replay ``n`` more ticks; returns their results (also kept on the tape)."""
        self.open()
        e = self.engine
        out = []
        for _ in range(n):
            while e.blocked:
                await e.wait_ready()
            res = e.step()
            self.results.append(res)
            self._times.append(e.clock.now)
            for m in res.moves:
                self._pos[m.who] = m.dst
            for b in res.bubbles:
                self._bub[b.who] = b
            if res.step % KEYFRAME_EVERY == 0:
                self._keys.append(_Key(res.step, res.clock, dict(self._pos), dict(self._bub)))
            self._submit_due(e)
            out.append(res)
        return out

    async def advance_to(self, step: int) -> None:
        if step > self.end:
            await self.advance(step - self.end)

    # -------------------------------------------------------------------- watching
    def result(self, step: int) -> TickResult:
        return self.results[step - self.base_step - 1]

    def results_between(self, a: int, b: int) -> list[TickResult]:
        """Results of steps ``a+1 .. b`` (both within the tape)."""
        lo, hi = max(a, self.base_step) - self.base_step, min(b, self.end) - self.base_step
        return self.results[lo:hi]

    def frame(self, step: int) -> TickResult:
        """The whole picture at ``step``: a keyframe brought forward by the moves and bubbles after it."""
        if not self._keys:
            raise ValueError("the replay is not open")
        step = max(self.base_step, min(step, self.end))
        i = bisect.bisect_right([k.step for k in self._keys], step) - 1
        key = self._keys[i]
        pos, bub, clock = dict(key.positions), dict(key.bubbles), key.clock
        for res in self.results_between(key.step, step):
            for m in res.moves:
                pos[m.who] = m.dst
            for b in res.bubbles:
                bub[b.who] = b
            clock = res.clock
        return TickResult(step=step, clock=clock, moves=[Move(w, p, p) for w, p in sorted(pos.items())],
                          bubbles=[bub[w] for w in sorted(bub)])

    def step_at(self, when: str | datetime) -> int:
        """The first step of the tape at or after a game time (``"day 1 09:00"`` or a datetime);
        the tape's end if it has not got that far yet."""
        if isinstance(when, str):
            from game.world.clock import parse_until

            when = parse_until(when, self.engine.clock.start)
        i = bisect.bisect_left(self._times, when)
        return self.base_step + min(i, len(self._times) - 1)

    def position_samples(self, every: int = 6) -> list[tuple[datetime, dict[str, tuple[int, int]]]]:
        """Where everyone was every ``every`` steps of the tape (for ``relations.attendance``): the
        position history that saves do not keep, rebuilt from the replay."""
        if not self._keys:
            raise ValueError("the replay is not open")
        pos = dict(self._keys[0].positions)
        out = [(self._times[0], dict(pos))]
        for i, res in enumerate(self.results, start=1):
            for m in res.moves:
                pos[m.who] = m.dst
            if i % max(1, every) == 0 or i == len(self.results):
                out.append((self._times[i], dict(pos)))
        return out

    # -------------------------------------------------------------------- forking
    async def fork(self, step: int, llm: LLM, save_path: str | Path, *, lockstep: bool = False) -> Engine:
        """A live town from ``step`` on: the run replayed afresh to ``step`` (so the tape itself is
        untouched), saved to ``save_path`` and loaded with ``llm``."""
        from game.engine.build import load_engine

        e = self._new_engine()
        try:
            self._submit_due(e)
            while e.core.step_no < step:
                while e.blocked:
                    await e.wait_ready()
                e.step()
                self._submit_due(e)
            e.save(save_path)
        finally:
            await e.aclose()
        return load_engine(save_path, llm, lockstep=lockstep)

    async def aclose(self) -> None:
        if self._engine is not None:
            await self._engine.aclose()


def fingerprint(results: Sequence[TickResult]) -> list[tuple]:
    """Plain data that two replays of one run must share (for tests and `town` tools)."""
    return [(r.step, r.clock, tuple(r.moves), tuple(r.bubbles), tuple(replace(u) for u in r.utterances),
             tuple(r.object_changes), tuple((x.kind, x.text, x.who) for x in r.log)) for r in results]


def tape_of(recording: str | Path | RunManifest) -> tuple[ReplayTape, int]:
    """The tape of a recorded run (its path, or its loaded ``RunManifest``) and the step where the
    run ended (raises ``ManifestError`` with what is missing)."""
    from game.engine.running.manifest import RunManifest

    m = recording if isinstance(recording, RunManifest) else RunManifest.load(recording)
    m.check_start()
    return ReplayTape(m.start, m.recording, small=m.small, seed=m.seed, commands=list(m.commands),
                      start_time=m.start_time), m.end_step
