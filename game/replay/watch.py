"""Watching a recorded run in the game: a ``ReplayTape`` behind the face the screen knows.

``WatchEngine`` answers what ``game.ui`` asks of a live ``Engine`` (``positions``, ``snapshot``,
``inspect``, ``clock``, ``town``) from the tape, plus what watching needs: ``step_async`` (the next
recorded tick), ``seek`` (any step, backwards or forwards, as one whole picture), ``step_at`` (a game
time) and ``fork`` (a live town from the step on screen, with a real model).  Player commands are
refused with a message: a recording cannot be changed, only forked.  No model is used to watch.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from game.engine.commands import CommandError
from game.engine.events import Command, TickResult
from game.engine.state import Player, ResidentView
from game.replay.tape import ReplayTape, tape_of

if TYPE_CHECKING:  # pragma: no cover
    from game.engine.api import ClockText, SaveWork
    from game.engine.engine import Engine
    from game.llm.api import LLM


class _Clock:
    def __init__(self, watch: WatchEngine) -> None:
        self._watch = watch

    def text(self) -> str:
        return self._watch.shown.clock


class WatchEngine:
    """A recorded run, watched.  ``at`` is the step on screen; the tape grows as it is watched."""

    is_replay = True

    def __init__(self, tape: ReplayTape, end_step: int | None = None) -> None:
        self.tape = tape
        self.shown = tape.open()
        self.at = self.shown.step
        self.end_step = end_step if end_step and end_step > self.at else None
        self.town = tape.town
        self.player: Player | None = None
        self.embodied: str | None = None
        self.jobs: dict = {}
        self.heard = asyncio.Event()  # never set: a recording has no replies to the player
        self.clock: ClockText = _Clock(self)
        self.lockstep = True
        self._lock = asyncio.Lock()
        self.warning: str | None = None  # said on screen when the watch starts

    @classmethod
    def of_recording(cls, recording: str | Path) -> WatchEngine:
        """Raises ``ManifestError`` (a message) when the run cannot be watched."""
        from game.engine.running.manifest import RunManifest

        manifest = RunManifest.load(recording)
        w = cls(*tape_of(manifest))
        if not manifest.same_code:
            w.warning = ("this run was recorded by another version of the game's engine or minds: the "
                         "replay follows it until the first question this version asks differently, "
                         "then shows errors")
        return w

    # ---------------------------------------------------------------- watching
    @property
    def at_end(self) -> bool:
        return self.end_step is not None and self.at >= self.end_step

    @property
    def first_step(self) -> int:
        return self.tape.base_step

    async def step_async(self) -> TickResult:
        """The next recorded tick (an empty result, the clock standing, at the end of the run)."""
        async with self._lock:
            return await self._step()

    async def _step(self) -> TickResult:
        if self.at_end:
            return TickResult(step=self.at, clock=self.shown.clock)
        if self.at >= self.tape.end:
            await self.tape.advance(1)
        self.at += 1
        res = self.tape.result(self.at)
        self.shown = TickResult(step=res.step, clock=res.clock)
        return res

    async def seek(self, step: int) -> TickResult:
        """The whole picture at ``step`` (clamped to the run): every position and bubble."""
        last = self.end_step if self.end_step is not None else step
        step = max(self.first_step, min(step, last))
        async with self._lock:  # one replay engine: not stepped by two at once
            await self.tape.advance_to(step)
        self.at = step
        frame = self.tape.frame(step)
        self.shown = TickResult(step=frame.step, clock=frame.clock)
        return frame

    def steps_per_minute(self) -> int:
        seconds = self.town.seconds_per_step or 10
        return max(1, round(60 / seconds))

    def step_at(self, when: str) -> int:
        """The step of a game time ("day 1 09:00", or "09:00" on the day on screen); ValueError
        with a message for words that are not a time."""
        import math

        from game.world.clock import parse_until

        text = when.strip()
        if text[:1].isdigit():
            day = self.shown.clock.split(",")[0].strip() or "Day 1"
            text = f"{day} {text}"
        target = parse_until(text, self.tape.engine.clock.start)
        t0 = self.tape.first_time
        step_len = self.town.seconds_per_step or 10
        return self.first_step + max(0, math.ceil((target - t0).total_seconds() / step_len))

    # ---------------------------------------------------------------- what the screen asks
    def positions(self) -> dict[str, tuple[int, int]]:
        return {m.who: m.dst for m in self.tape.frame(self.at).moves}

    def snapshot(self) -> TickResult:
        return self.tape.frame(self.at)

    def poll(self) -> TickResult:
        return TickResult(step=self.at, clock=self.shown.clock)

    def lead(self) -> tuple[float | None, float]:
        return None, 0.0  # a replay shows the recorded town; no decisions are waited for

    def routine_wait_min(self) -> float:
        return 0.0

    def inspect(self, name: str) -> ResidentView:
        frame = self.tape.frame(self.at)
        pos = {m.who: m.dst for m in frame.moves}.get(name)
        bubble = next((b for b in frame.bubbles if b.who == name), None)
        place = ""
        if pos is not None:
            try:
                place = self.town.tree.describe(self.town.tree.address_at(pos) or "")  # (none: the streets)
            except KeyError:  # (a place the tree does not know)
                place = ""
        return ResidentView(name=name, action=bubble.text if bubble else "", emoji=bubble.emoji if bubble else "",
                            place=place, pos=pos,
                            plan=["(a recorded run: fork it with n to see plans and memories)"])

    def submit(self, command: Command) -> object:
        raise CommandError("this is a recorded run: press n to fork a live town from here")

    def save(self, path: str | Path | None = None) -> str:
        raise CommandError("a recorded run is not saved: fork it (n) for a live town you can save")

    def save_job(self, path: str | Path | None = None) -> SaveWork:
        raise CommandError("a recorded run is not saved: fork it (n) for a live town you can save")

    async def wait_any(self) -> None:
        return None

    async def fork(self, llm: LLM, save_path: str | Path) -> Engine:
        """A live town from the step on screen (saved to ``save_path`` first), run by ``llm``."""
        return await self.tape.fork(self.at, llm, save_path)

    async def aclose(self) -> None:
        await self.tape.aclose()
