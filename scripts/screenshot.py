#!/usr/bin/env python3
"""The README's picture of the town (docs/screenshot.svg), made by the real app.

The real ``TownApp`` (game/ui) runs headless (Textual's ``App.run_test``) with the real engine on
the default town (its small cast of five), the town ``./scripts/play.sh`` plays.  Every decision
in the picture is a recorded answer of the real model (Qwen2.5 Coder 1.5B on the embedded
llama-server), replayed from tests/fixtures/ui/journey.jsonl: no model runs, and the picture comes
out the same, byte for byte, on every run.  The engine runs in lockstep and this script steps it,
as tests/ui/test_recorded_play.py does, so the same ticks ask the same questions.  A question the
recording cannot answer leaves that resident on its routine for the moment (the engine's fallback
without a model); one the engine reports as an error would show in the town log, so the town is
shown as it stood at the tick before (``Shot.cut_short``).  Then a resident is selected (the side
column shows her day as the model planned it, the camera follows her), the clock bar is set to
normal speed, and the screen is saved as SVG (Textual's ``App.save_screenshot``).

    .venv/bin/python scripts/screenshot.py                  # docs/screenshot.svg, 100x32
    .venv/bin/python scripts/screenshot.py --out /tmp/t.svg --size 120x40 --ticks 200

It prints where it wrote; on a failure it says why on stderr and exits 1.  Run it again after the
screen's look or the recording changes, and commit docs/screenshot.svg.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a file from anywhere: the game package is the clone's
    sys.path.insert(0, str(ROOT))

from game.llm.record import ReplayLLM  # noqa: E402
from game.ui.app import MainScreen, TownApp  # noqa: E402
from game.ui.host import RealHost  # noqa: E402
from game.ui.messages import Ticked  # noqa: E402
from game.world import default_town_path  # noqa: E402

RECORDING = ROOT / "tests" / "fixtures" / "ui" / "journey.jsonl"
OUT = ROOT / "docs" / "screenshot.svg"
SIZE = (100, 32)
TICKS = 360  # ten game seconds a tick: the town from 06:00 to 07:00
SELECT = "Grace Okafor"  # the resident whose panel is shown (the camera follows her)
START_S = 60.0  # the town must be on screen by then


class ShotError(Exception):
    """The picture could not be made (said in one line)."""


@dataclass
class Shot:
    path: Path
    clock: str  # the clock bar's time, "Day 1, 07:00:00"
    ticks: int  # ticks run
    cut_short: bool  # stopped before ``ticks``: the recording had no answer for the next one
    selected: str | None
    glyphs: dict[str, str] = field(default_factory=dict)  # resident -> glyph, those in view
    bubbles: dict[str, str] = field(default_factory=dict)  # resident -> emoji, those in view
    seconds: float = 0.0


class RecordedHost(RealHost):
    """The real host (the default town's small cast, the real engine) on a recording of the real
    model instead of a model server; the engine in lockstep, stepped by ``take``."""

    def __init__(self, recording: Path) -> None:
        super().__init__(SimpleNamespace(town=None, small=True, watch=None, start="town"))  # as recorded: 06:00
        self.recording = recording

    @asynccontextmanager
    async def _open(self, progress: Callable[..., None]):
        progress("recorded answers of the real model")
        yield ReplayLLM(self.recording)

    def open_llm(self, progress):
        return self._open(progress)

    async def new_engine(self, llm):
        engine = await super().new_engine(llm)
        engine.core.lockstep = True  # before the screen starts it: no day plans asked before the clock
        return engine


async def _on_screen(app: TownApp, pilot) -> None:
    """Wait until the town is on the main screen with its residents drawn; a town that could not
    start (the start screen's "Could not start: ...") fails at once, with its reason."""
    end = time.monotonic() + START_S
    while not (isinstance(app.screen, MainScreen) and app.widgets.map_view is not None
               and app.widgets.map_view.actors):
        if app.session.exit_code:
            raise ShotError(f"the town could not start: {app.worker.start_screen.error}")
        if time.monotonic() > end:
            raise ShotError(f"the town was not on screen within {START_S:.0f} s")
        await pilot.pause(0.02)


async def _step(app: TownApp, pilot, engine, ticks: int) -> tuple[int, bool]:
    """Up to ``ticks`` lockstep ticks, each shown as the app's engine loop shows one; stops before
    a tick that reports an error (the recording had no answer).  Returns (ticks shown, cut short)."""
    engine.core.lockstep = True
    for ran in range(ticks):
        errors = len(engine.core.errors)
        await asyncio.wait_for(engine.wait_ready(), START_S)
        result = engine.step()
        if len(engine.core.errors) > errors:  # the recording ran out: the screen keeps the last tick
            return ran, True
        app.post_message(Ticked(result))
        await pilot.pause(0)
    return ticks, False


async def take(out: Path = OUT, *, size: tuple[int, int] = SIZE, ticks: int = TICKS,
               select: str | None = SELECT, recording: Path = RECORDING) -> Shot:
    """Run the app on the recording for ``ticks`` ticks and save the screen to ``out`` (SVG)."""
    t0 = time.monotonic()
    if not recording.is_file():
        raise ShotError(f"no recording of the model at {recording}")
    if not default_town_path().exists():
        raise ShotError(f"no default town at {default_town_path()}")
    out = Path(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ShotError(f"cannot write {out}: {e}") from None
    with tempfile.TemporaryDirectory(prefix="town-shot-") as saves:
        host = RecordedHost(recording)
        # no theme from the player's config, no autosave: the same picture on every machine
        app = TownApp(host, Path(saves), speed="pause", autosave_s=0)
        async with app.run_test(size=size) as pilot:
            await _on_screen(app, pilot)
            # this script steps the town, nothing else: the app's engine loop (paused) stops here
            app.workers.cancel_group(app, "engine")
            await pilot.pause()
            engine = app.session.engine
            ran, cut_short = await _step(app, pilot, engine, ticks)
            if ran == 0 and ticks > 0:
                raise ShotError(f"the recording answers not even the first tick: {engine.core.errors[-1]}")
            if select is not None:
                if select not in app.panels.resident_names():
                    raise ShotError(f"no resident {select!r} in the town "
                                    f"(there are {', '.join(app.panels.resident_names())})")
                app.panels.select(select)
            await pilot.press("2")  # normal speed, as the clock bar shows a town in play
            await pilot.pause()
            await pilot.wait_for_scheduled_animations()
            mv = app.widgets.map_view
            sx, sy = int(mv.scroll_offset.x), int(mv.scroll_offset.y)
            w, h = mv.scrollable_content_region.size
            seen = [a for a in mv.actors.values() if sx <= a.pos[0] < sx + w and sy <= a.pos[1] < sy + h]
            if not seen:
                raise ShotError(f"no resident in view at {app.panels.last_clock}: nothing to show")
            shot = Shot(out, app.panels.last_clock, ran, cut_short, app.panels.selected_name,
                        {a.name: a.glyph for a in seen}, {a.name: a.emoji for a in seen if a.emoji})
            try:
                app.save_screenshot(filename=out.name, path=str(out.parent))
            except OSError as e:
                raise ShotError(f"cannot write {out}: {e}") from None
    shot.seconds = time.monotonic() - t0
    return shot


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a size is WIDTHxHEIGHT, like 100x32, not {text!r}") from None
    if w < 40 or h < 16:
        raise argparse.ArgumentTypeError(f"{text} is too small for the town (40x16 at least)")
    return w, h


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Make the README's picture of the town with the real app.")
    ap.add_argument("--out", type=Path, default=OUT, help=f"the SVG to write (default {OUT.relative_to(ROOT)})")
    ap.add_argument("--size", type=parse_size, default=SIZE, help="the terminal, WIDTHxHEIGHT (default 100x32)")
    ap.add_argument("--ticks", type=int, default=TICKS, help=f"ticks to run first (default {TICKS})")
    ap.add_argument("--select", default=SELECT, help=f"the resident shown in the side column (default {SELECT})")
    ap.add_argument("--recording", type=Path, default=RECORDING, help="the model's recorded answers")
    args = ap.parse_args(argv)
    try:
        shot = asyncio.run(take(args.out, size=args.size, ticks=args.ticks, select=args.select,
                                recording=args.recording))
    except ShotError as e:
        print(f"screenshot: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # the app itself failed: say what, not a bare traceback
        print(f"screenshot: the app failed: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    note = f" (cut short: the recording has no answer for tick {shot.ticks + 1})" if shot.cut_short else ""
    print(f"wrote {shot.path} ({args.size[0]}x{args.size[1]}, {shot.clock}, {shot.ticks} ticks{note}, "
          f"in view: {', '.join(sorted(shot.glyphs)) or 'no one'}; {shot.seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
