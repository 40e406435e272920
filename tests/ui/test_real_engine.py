"""The screen on the real Engine and the real default town (the model is the fake model as the
engine tests run it, tests/engine/engine_fakes.py): walk to a resident, talk, whisper, embody
and release, set an object's state, save, quit, load and continue."""

from __future__ import annotations

import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from engine_fakes import engine_model  # noqa: E402

from game.engine import Engine  # noqa: E402
from game.engine.events import Embody, Release, SayToResident, SetObjectState, Whisper  # noqa: E402
from game.engine.saves import describe_save  # noqa: E402
from game.ui.app import MainScreen, TownApp  # noqa: E402
from game.ui.host import RealHost  # noqa: E402
from game.ui.screens import AskScreen, LoadScreen, TalkScreen, VisitorScreen  # noqa: E402
from game.world import default_town_path  # noqa: E402

pytestmark = pytest.mark.skipif(not default_town_path().exists(), reason="no default town")

KEY = {(1, 0): "right", (-1, 0): "left", (0, 1): "down", (0, -1): "up"}


class FakeModelHost(RealHost):
    """RealHost (real Engine.new/load/describe_save) with the fake model instead of a model server."""

    def __init__(self, town: str | None = None) -> None:
        super().__init__(SimpleNamespace(town=town, small=False, start="town"))  # the town's own 06:00
        self.llm = engine_model(jitter=0.001)

    @asynccontextmanager
    async def _open(self, progress):
        progress("fake model ready")
        yield self.llm

    def open_llm(self, progress):
        return self._open(progress)


async def until(pilot, cond, timeout: float = 10.0) -> None:
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise AssertionError("condition not met in time")
        await pilot.pause(0.02)


async def ready(app, pilot) -> None:
    await until(pilot, lambda: isinstance(app.screen, MainScreen) and app.widgets.map_view is not None
                and app.widgets.map_view.actors)


@pytest.mark.slow
async def test_play_the_real_engine_end_to_end(tmp_path):
    saves = tmp_path / "saves"
    app = TownApp(FakeModelHost(), saves, speed="pause", autosave_s=0)
    submitted = []
    async with app.run_test(size=(140, 44)) as pilot:
        await ready(app, pilot)
        engine: Engine = app.session.engine
        real_submit = engine.submit

        def spy(cmd):
            submitted.append(cmd)
            return real_submit(cmd)

        engine.submit = spy  # type: ignore[method-assign]
        # the visitor walks in, and walks up to the nearest resident along a real path
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, VisitorScreen))
        await pilot.press(*"Ada", "enter", *"a painter passing through", "enter")
        await until(pilot, lambda: "player" in app.widgets.map_view.actors)
        me = engine.positions()["player"]
        residents = engine.core.residents
        target = min((n for n in residents), key=lambda n: engine.paths.distance(me, residents[n].pos))
        path = engine.paths.path(me, engine.core.residents[target].pos)[:-1]
        for step in path:
            cur = engine.positions()["player"]
            await pilot.press(KEY[(step[0] - cur[0], step[1] - cur[1])])
        assert engine.positions()["player"] == (path[-1] if path else me)
        assert app.widgets.map_view.actors["player"].pos == engine.positions()["player"]
        # talk: the reply streams in from the (fake) model through the engine
        app.panels.select(target, follow=False)
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, TalkScreen))
        await pilot.press(*"hello, who are you?", "enter")
        assert SayToResident(target, "hello, who are you?") in submitted
        talk = app.screen
        await until(pilot, lambda: any(w == target for w, _ in talk.lines))
        reply = [t for w, t in talk.lines if w == target][0]
        assert reply.strip()
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, MainScreen))
        # whisper to someone else, anywhere
        other = sorted(n for n in engine.core.residents if n != target)[0]
        app.panels.select(other)
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, AskScreen))
        await pilot.press(*"you will run for mayor", "enter")
        assert Whisper(other, "you will run for mayor") in submitted
        # embody a third, walk it, hand it back
        third = sorted(n for n in engine.core.residents if n not in (target, other))[0]
        app.panels.select(third)
        await pilot.press("b")
        assert Embody(third) in submitted and engine.embodied == third
        before = engine.core.residents[third].pos
        for key in ("right", "left", "down", "up"):
            await pilot.press(key)
            if engine.core.residents[third].pos != before:
                break
        assert app.widgets.map_view.actors[third].pos == engine.core.residents[third].pos
        await pilot.press("b")
        assert Release() in submitted and engine.embodied is None
        # set an object's state in words
        sector = engine.town.tree.sectors()[0]
        arena = engine.town.tree.arenas(sector)[0]
        obj = engine.town.tree.objects(sector, arena)[0]
        address = f"{sector}:{arena}:{obj}"
        words = f"{engine.town.tree.describe(address)} is on fire"
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, AskScreen))
        await pilot.press(*words, "enter")
        assert SetObjectState(words) in submitted
        await until(pilot, lambda: any("on fire" in h for h in app.widgets.town_log.history))
        # the clock runs; residents move on screen
        app.player.set_speed("fast")
        step0 = engine.core.step_no
        await until(pilot, lambda: engine.core.step_no > step0 + 20)
        app.player.set_speed("pause")
        await pilot.pause(0.3)  # the last ticks' messages drain
        drawn = {n: a.pos for n, a in app.widgets.map_view.actors.items()}
        assert drawn == engine.positions()
        clock = engine.clock.text()
        await pilot.press("ctrl+s")
        await pilot.press("q")
    saved = saves / "Millbrook.save"
    assert saved.exists()
    info = describe_save(saved)
    assert info["clock"] == clock and len(info["residents"]) == len(engine.core.residents)

    # load it again from the start screen and continue
    app2 = TownApp(FakeModelHost(str(saved)), saves, speed="pause", autosave_s=0)
    async with app2.run_test(size=(140, 44)) as pilot:
        await ready(app2, pilot)
        assert app2.session.engine.clock.text() == clock
        assert app2.session.visitor == "Ada"
        await pilot.press("ctrl+l")
        await until(pilot, lambda: isinstance(app2.screen, LoadScreen))
        assert app2.screen.saves[0].town == "Millbrook"
        await pilot.press("escape")
        app2.player.set_speed("fast")
        n = app2.session.engine.core.step_no
        await until(pilot, lambda: app2.session.engine.core.step_no > n + 5)
        await pilot.press("q")


async def test_real_host_opens_the_model_layer_from_the_flags():
    """RealHost.open_llm goes through game.llm (here --replay: no server needed)."""
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "mind" / "whisper_mayor.jsonl"
    if not fixture.exists():
        pytest.skip("no recorded fixture")
    args = SimpleNamespace(town=None, small=False, llm_url=None, model=None, embed_url=None,
                           record=None, replay=str(fixture))
    async with RealHost(args).open_llm(lambda *a: None) as llm:
        status = llm.status()
        assert hasattr(status, "in_flight") and hasattr(status, "queued")


def test_real_host_tells_saves_from_towns(tmp_path):
    save = tmp_path / "x.save"
    save.write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    assert RealHost(SimpleNamespace(town=str(save), small=False)).start_save == save
    host = RealHost(SimpleNamespace(town=str(default_town_path()), small=True))
    assert host.start_save is None and host.town_path == default_town_path() and host.small


async def test_the_town_read_to_check_it_at_the_start_is_built_from_not_read_again(monkeypatch):
    """`town play TOWN` reads and checks the town before the screen and the model start; the first
    engine is built from that reading, and only a later one (a new town after a load) reads again."""
    import game.engine.build as build
    from game.engine.build import read_input

    town = default_town_path()
    host = RealHost(SimpleNamespace(town=str(town), small=True), read_input(str(town), small=True))
    reads: list[object] = []
    real_read = build.read_town
    monkeypatch.setattr(build, "read_town", lambda *a, **k: reads.append(a[0]) or real_read(*a, **k))
    first = await host.new_engine(engine_model())
    assert reads == [] and sorted(first.core.residents) and len(first.core.residents) == 5
    # a new town opens before dawn (issue 42): the small cast's first wakes at 05:30
    assert first.clock.now.strftime("%H:%M") == "04:59"
    await first.aclose()
    second = await host.new_engine(engine_model())
    assert reads == [town]
    await second.aclose()
    own = RealHost(SimpleNamespace(town=str(town), small=True, start="town"))
    third = await own.new_engine(engine_model())
    assert third.clock.now.strftime("%H:%M") == "06:00"  # --start town: the town's own start
    await third.aclose()


async def test_the_status_line_shows_the_model_led_share_and_the_panel_the_source(tmp_path):
    """How much of the town the model leads is on screen: the share on the status line, and in
    the resident panel where the current action came from."""
    from game.ui.widgets import ClockBar, ResidentPanel

    app = TownApp(FakeModelHost(), tmp_path / "saves", speed="pause", autosave_s=0)
    async with app.run_test(size=(160, 48)) as pilot:
        await ready(app, pilot)
        engine: Engine = app.session.engine
        name = sorted(engine.core.residents)[0]
        app.panels.select(name, follow=False)
        app.player.set_speed("fast")
        await until(pilot, lambda: engine.core.ledger.share_now(engine.clock.day, now=engine.clock.now) is not None
                    and engine.core.residents[name].action is not None, timeout=20)
        app.player.set_speed("pause")
        await pilot.pause(0.3)
        app.panels.update_clock()
        app.panels.refresh_panel()
        await pilot.pause(0.05)
        bar = app.screen.query_one(ClockBar)
        assert "model-led" in bar._last and "%" in bar._last, bar._last
        panel = str(app.screen.query_one(ResidentPanel).render())
        assert any(w in panel for w in ("decided by the model", "on routine", "by rule", "a reaction",
                                        "talking (the model's words)", "asleep")), panel
@pytest.mark.slow
async def test_a_save_made_while_embodying_loads_embodied(tmp_path):
    """Regression: a town saved while the player embodied a resident, loaded again, showed no one
    embodied while the engine still had them: b then said "you are already ..." and the resident
    stayed frozen.  The screen shows what the engine holds, and b hands the resident back."""
    from game.engine.build import new_engine

    engine = new_engine(default_town_path(), engine_model(jitter=0.001), lockstep=True)
    name = sorted(engine.core.residents)[0]
    engine.submit(Embody(name))
    saved = tmp_path / "saves" / "embodied.save"
    engine.save(saved)
    await engine.aclose()

    app = TownApp(FakeModelHost(str(saved)), tmp_path / "saves", speed="pause", autosave_s=0)
    async with app.run_test(size=(140, 44)) as pilot:
        await ready(app, pilot)
        assert app.session.engine.embodied == name
        assert app.session.controlled == name and app.widgets.map_view.controlled == name
        assert name in str(app.widgets.clock_bar.render())
        await pilot.press("b")  # hands the resident back
        await until(pilot, lambda: app.session.engine.embodied is None)
        assert app.session.controlled is None
        await pilot.press("q")


async def test_quit_with_a_failed_save_asks_instead_of_losing_the_town(tmp_path, monkeypatch):
    """The disk is full when the player quits: the town stays, the player is asked (try again,
    save elsewhere, quit without saving, back to the town), and saving elsewhere then quits."""
    from game.engine import saves as save_mod
    from game.ui.screens import QuitScreen

    app = TownApp(FakeModelHost(), tmp_path / "saves", speed="pause", autosave_s=0)
    async with app.run_test(size=(140, 44), notifications=True) as pilot:
        await ready(app, pilot)
        monkeypatch.setattr(save_mod.faults, "max_pages", 3)  # SQLite's own "database or disk is full"
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen))
        assert "disk is full" in app.screen.error and app.is_running
        await pilot.press("escape")  # back to the town: nothing lost
        await until(pilot, lambda: isinstance(app.screen, MainScreen))
        assert app.session.engine is not None
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen))
        await pilot.press("r")  # still full: asked again
        await pilot.pause(0.2)
        await until(pilot, lambda: isinstance(app.screen, QuitScreen))
        monkeypatch.setattr(save_mod.faults, "max_pages", None)
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, AskScreen) and bool(app.screen.query("Input")))
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        app.screen.query_one("Input").value = str(elsewhere)
        await pilot.press("enter")
        await until(pilot, lambda: not app.is_running, timeout=10)
    assert app.return_code in (None, 0)
    assert list(elsewhere.glob("*.save")), "the town was saved elsewhere before quitting"


async def test_quit_without_saving_is_the_players_choice(tmp_path, monkeypatch):
    from game.engine import saves as save_mod
    from game.ui.screens import QuitScreen

    app = TownApp(FakeModelHost(), tmp_path / "saves", speed="pause", autosave_s=0)
    async with app.run_test(size=(140, 44)) as pilot:
        await ready(app, pilot)
        monkeypatch.setattr(save_mod.faults, "max_pages", 3)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, QuitScreen))
        await pilot.press("d")
        await until(pilot, lambda: not app.is_running, timeout=10)
    assert not list((tmp_path / "saves").glob("*.save"))


async def test_autosave_writes_on_another_thread_and_then_only_the_changes(tmp_path, monkeypatch):
    """The autosave takes the town as it is on the screen's thread and writes it on another;
    the second autosave to the same file writes only what changed; the town loads as saved."""
    import threading

    from game.engine import saves as save_mod
    from game.engine.build import load_engine

    threads = []
    real_run = save_mod.SaveJob.run

    def run(job):
        threads.append(threading.get_ident())
        return real_run(job)

    monkeypatch.setattr(save_mod.SaveJob, "run", run)
    saves = tmp_path / "saves"
    app = TownApp(FakeModelHost(), saves, speed="max", autosave_s=0)
    async with app.run_test(size=(140, 44)) as pilot:
        await ready(app, pilot)
        app.files.autosave()
        await until(pilot, lambda: app.files.last_save is not None)
        assert app.files.last_save[1] is False  # the first save of a new town is written whole
        first_step = app.session.engine.core.step_no
        await until(pilot, lambda: app.session.engine.core.step_no > first_step + 5)
        app.files.last_save = None
        app.files.autosave()
        await until(pilot, lambda: app.files.last_save is not None)
        assert app.files.last_save[1] is True
        assert threads and all(t != threading.get_ident() for t in threads)
        path = app.session.save_path
        saved_step = describe_save(path)["clock"]
        assert saved_step
        await pilot.press("1")  # pause
    loaded = load_engine(path, engine_model())
    assert loaded.core.step_no > first_step
    await loaded.aclose()
