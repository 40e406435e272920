"""How soon the game answers a player, on a real model: the real app (headless Textual), the real
engine and town, and the model the flags name (default: the embedded llama-server, started here).

    .venv/bin/python bench/play_latency.py [--small] [--talks 3] [--json OUT] [--llm-url URL]

Measured, from the moment this script starts (as ``town play`` would, model already set up):

- first move: until the first resident moves on the map (the screen is up, the model server started
  and the town built; residents walk their lifestyle routine while their day plans are written);
- first words: the visitor, standing next to a resident while the others are planning their day,
  opens a talk (the t key), types a line key by key into the talk's input (``--typing-cps``
  characters a second, 5 by default: about 60 words a minute; the screen tells the town what is
  typed as it does in play) and says it (enter); the time from saying it until the first words of the
  resident's reply are on screen, and until the reply is complete.  A second line follows once the
  reply is there and read (``--read-s``, 4 s), typed at the same speed.  Repeated with ``--talks`` residents.

Prints one line per figure and, with --json, writes them to a file.  Not a test: a measurement.
"""

from __future__ import annotations

import time

T0 = time.monotonic()  # before any of the game is imported, as a `town play` process starts

import argparse  # noqa: E402
import asyncio  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


async def measure(args: argparse.Namespace) -> dict:
    from textual.widgets import Input

    from game.cli import _add_llm_flags  # noqa: F401  (the flags are parsed in main)
    from game.engine.events import EnterAsVisitor
    from game.ui.app import MainScreen, TownApp
    from game.ui.host import RealHost
    from game.ui.messages import Ticked
    from game.ui.screens import TalkScreen

    host = RealHost(args)
    saves = Path(args.saves)
    app = TownApp(host, saves, autosave_s=0, speed="normal")
    heard: dict[str, tuple[float | None, float | None]] = {}
    original = TownApp.on_ticked

    def on_ticked(self, message: Ticked) -> None:  # note when a reply's first words and end arrive
        for u in message.result.utterances:
            if u.speaker in heard and u.text.strip():
                first, done = heard[u.speaker]
                now = time.monotonic()
                heard[u.speaker] = (first or now, now if u.final else done)
        original(self, message)

    TownApp.on_ticked = on_ticked  # type: ignore[method-assign]
    out: dict = {"model": None, "first_move_s": None, "talks": []}
    async with app.run_test(size=(160, 48)) as pilot:
        while app.first_move_at is None:
            if time.monotonic() - T0 > 300:
                raise SystemExit("no resident moved in 300 s")
            await pilot.pause(0.05)
        out["first_move_s"] = round(app.first_move_at - T0, 2)
        print(f"first resident moving: {out['first_move_s']:.2f} s after start", file=sys.stderr, flush=True)
        status = app.llm.status()
        out["model"] = getattr(status, "model", None)
        engine = app.engine
        sched = getattr(engine.core.llm, "scheduler", None)  # (a recording client hands it on)
        if sched is not None and args.no_preempt:
            sched.preempt = False  # the player's requests wait behind the town's in flight
        out["preempt"] = bool(getattr(sched, "preempt", False))
        assert isinstance(app.screen, MainScreen)
        engine.submit(EnterAsVisitor("Mara", "a traveller asking for directions"))
        grid = engine.town.grid
        asked: list[str] = []

        def town_calls() -> int:  # the town's own requests finished so far (not the player's)
            use = engine.core.llm.status().by_purpose or {}
            return sum(int(getattr(u, "calls", 0)) for p, u in use.items() if p not in ("prefill", "dialogue"))

        talk_s = 0.0
        town_before = town_calls()
        for _ in range(args.talks):
            free = [n for n, r in sorted(engine.core.residents.items())
                    if n not in asked and not r.conversation and "sleep" not in
                    (r.action.description.lower() if r.action else "")]
            if not free:
                break
            name = free[0]
            asked.append(name)
            x, y = engine.core.residents[name].pos
            spot = next(((x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))
                         if grid[y + dy, x + dx]), (x, y))
            engine.player.pos = spot  # the visitor stands next to them (walking there is not measured)
            opened = time.monotonic()
            app.open_talk(name)  # the t key: the talk opens, the player starts typing
            while not (isinstance(app.screen, TalkScreen) and app.screen.query("#talk-input")):
                await pilot.pause(0.02)
            box = app.screen.query_one("#talk-input", Input)
            for turn, line in enumerate(("Hello! I'm new in town. What are you up to today?",
                                         "Nice to meet you. Where can I get a good coffee around here?"), 1):
                typing = len(line) / args.typing_cps if args.typing_cps > 0 else 0.0
                began = time.monotonic()
                for i, ch in enumerate(line, 1):  # key by key, into the talk's input, as a player types
                    box.insert_text_at_cursor(ch)
                    await pilot.pause(max(0.0, began + i * typing / len(line) - time.monotonic()))
                busy = engine.core.llm.status()
                heard[name] = (None, None)
                t = time.monotonic()
                await pilot.press("enter")
                while heard[name][1] is None and time.monotonic() - t < 240:
                    await pilot.pause(0.02)
                first, done = heard.pop(name)
                row = {"resident": name, "turn": turn, "typing_s": round(typing, 1),
                       "first_words_s": round(first - t, 2) if first else None,
                       "reply_s": round(done - t, 2) if done else None,
                       "in_flight_when_asked": getattr(busy, "in_flight", None),
                       "queued_when_asked": getattr(busy, "queued", None)}
                out["talks"].append(row)
                print(f"  {name}, turn {turn}: first words {row['first_words_s']} s, whole reply "
                      f"{row['reply_s']} s (the model had {row['in_flight_when_asked']} in flight, "
                      f"{row['queued_when_asked']} queued)", file=sys.stderr, flush=True)
                await pilot.pause(args.read_s)  # the player reads the reply before typing on
            await pilot.press("escape")  # the conversation ends
            talk_s += time.monotonic() - opened
            await pilot.pause(1.0)
        # what the town got done meanwhile: it starts nothing new while the player talks (types,
        # waits on a reply) and for a moment after, so this is the price of the figures above
        out["talking_s"] = round(talk_s, 1)
        out["town_calls_while_talking"] = town_calls() - town_before
        print(f"the town finished {out['town_calls_while_talking']} of its own requests in the "
              f"{out['talking_s']} s of talks", file=sys.stderr, flush=True)
        for turn in (1, 2):
            firsts = [r["first_words_s"] for r in out["talks"] if r["first_words_s"] is not None
                      and r["turn"] == turn]
            if firsts:
                out[f"first_words_median_s_turn{turn}"] = round(statistics.median(firsts), 2)
                print(f"first words of a reply, turn {turn}: median {statistics.median(firsts):.2f} s "
                      f"over {len(firsts)}", file=sys.stderr, flush=True)
        use = getattr(engine.core.llm.status(), "by_purpose", {}) or {}
        out["prefill"] = {k: round(float(getattr(use.get("prefill"), k, 0) or 0), 2)
                          for k in ("calls", "prompt_tokens", "latency_s")}
        print(f"prefill calls: {out['prefill']}", file=sys.stderr, flush=True)
        out["town_requests_stopped"] = getattr(sched, "preempted", None)
        print(f"town requests stopped for the player's and asked again: {out['town_requests_stopped']} "
              f"(preempt {'on' if out['preempt'] else 'off'})", file=sys.stderr, flush=True)
        await app.action_quit_town()  # as the q key: the engine's decisions are cancelled first
    return out


def main() -> int:
    from game.cli import _add_llm_flags

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("town", nargs="?", default=None)
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--talks", type=int, default=3)
    ap.add_argument("--typing-cps", type=float, default=5.0,
                    help="characters a second the player types (0: the line is there at once)")
    ap.add_argument("--read-s", type=float, default=4.0,
                    help="seconds the player reads a reply before typing the next line")
    ap.add_argument("--no-preempt", action="store_true",
                    help="the player's requests wait behind the town's in flight (as before 2026-11-25)")
    ap.add_argument("--saves", default="/tmp/town-latency-saves")
    ap.add_argument("--json", default=None, metavar="OUT")
    _add_llm_flags(ap)
    args = ap.parse_args()
    args.watch = None
    out = asyncio.run(measure(args))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
