"""UI measurements quoted in docs/UI.md (not a test): .venv/bin/python tests/ui/measure_ui.py

Frame render of a 140x100 map with 25 residents and bubbles, key-to-screen latency while 25
decisions are pending, and start-to-first-move on the real Engine with a fake model."""
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "engine"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/fake_model.py
from fake_engine import FakeEngine, FakeHost
from test_mapview import actors, big_town
from test_real_engine import FakeModelHost
from textual import events

from game.ui.app import MainScreen, TownApp
from game.ui.mapview import MapView


def frame_bench():
    mv = MapView(big_town())
    mv.set_actors(actors())
    t0 = time.perf_counter()
    mv.render_frame()
    full = time.perf_counter() - t0
    ticks = []
    for k in range(50):
        t0 = time.perf_counter()
        for i in range(25):
            a = mv.actors[f"R{i}"]
            mv.move(a.name, (a.pos[0] + (1 if k % 2 == 0 else -1), a.pos[1]))
            if k % 5 == 0:
                mv.set_bubble(a.name, "📖" if k % 10 == 0 else "☕")
        mv.render_frame()
        ticks.append(time.perf_counter() - t0)
    # a viewport frame: 100x40 visible lines cropped from the cached rows
    t0 = time.perf_counter()
    for _ in range(20):
        for y in range(40):
            mv.row_strip(y + 30).crop_extend(20, 120, None)
    view = (time.perf_counter() - t0) / 20
    print(f"140x100 map, 25 residents + bubbles: full frame (all rows composed) {full*1000:.1f} ms; "
          f"tick (25 moves, re-render changed rows) median {statistics.median(ticks)*1000:.2f} ms, "
          f"max {max(ticks)*1000:.2f} ms; 100x40 viewport from cached strips {view*1000:.2f} ms")

async def key_latency():
    eng = FakeEngine(waiting=25)
    app = TownApp(FakeHost(engine=eng), Path("/tmp/town-ui-measure"), speed="fast", autosave_s=0)
    out = []
    async with app.run_test(size=(140, 44)) as pilot:
        while not (isinstance(app.screen, MainScreen) and app.widgets.map_view and app.widgets.map_view.actors):
            await pilot.pause(0.02)
        for _i in range(20):
            before = app.widgets.map_view.renders
            name = app.panels.selected_name
            t0 = time.perf_counter()
            app.post_message(events.Key("tab", None))
            while app.widgets.map_view.renders == before or app.panels.selected_name == name:
                await asyncio.sleep(0.001)
            out.append(time.perf_counter() - t0)
            await asyncio.sleep(0.05)
    print(f"key (tab) to the map row redrawn, engine at 'fast' with 25 decisions pending: "
          f"median {statistics.median(out)*1000:.1f} ms, max {max(out)*1000:.1f} ms")

async def first_move():
    host = FakeModelHost()
    t0 = time.perf_counter()
    app = TownApp(host, Path("/tmp/town-ui-measure"), speed="normal", autosave_s=0)
    async with app.run_test(size=(140, 44)) as pilot:
        while app.panels.first_move_at is None:
            await pilot.pause(0.02)
        main = time.perf_counter() - t0
        print(f"real Engine + default town (model answers from the engine tests' fake model): "
              f"app start to first resident move drawn {main:.2f} s")

if __name__ == "__main__":
    frame_bench()
    asyncio.run(key_latency())
    asyncio.run(first_move())
