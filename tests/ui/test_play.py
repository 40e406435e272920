"""Pilot tests: every way of playing, driven from the keyboard against FakeEngine."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from fake_engine import FakeEngine, FakeHost
from textual import events

from game.engine.events import (
    Embody,
    EndConversation,
    EnterAsVisitor,
    LogLine,
    MovePlayer,
    Release,
    SayToResident,
    SetObjectState,
    TickResult,
    Utterance,
    Whisper,
)
from game.llm.api import ModelUnavailable
from game.ui.app import MainScreen, TownApp
from game.ui.messages import Ticked
from game.ui.screens import AskScreen, HelpScreen, LoadScreen, TalkScreen, VisitorScreen
from game.ui.start import StartScreen

FAST = {"normal": 0.05, "fast": 0.02}


def make_app(tmp_path: Path, engine: FakeEngine | None = None, speed: str = "pause", **host_kw) -> TownApp:
    host = FakeHost(engine=engine or FakeEngine(), **host_kw)
    return TownApp(host, tmp_path / "saves", tick_delay=FAST, speed=speed, autosave_s=0)


async def until(pilot, cond, timeout: float = 5.0) -> None:
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise AssertionError("condition not met in time")
        await pilot.pause(0.02)


async def main_screen(app: TownApp, pilot) -> None:
    await until(pilot, lambda: isinstance(app.screen, MainScreen) and app.widgets.map_view is not None
                and app.widgets.map_view.actors)


async def enter_visitor(app: TownApp, pilot, name: str = "Ada", about: str = "a travelling painter",
                        between: str = "enter"):
    await pilot.press("v")
    await until(pilot, lambda: isinstance(app.screen, VisitorScreen))
    await pilot.press(*name)
    await pilot.press(between)
    await pilot.press(*about)
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, MainScreen))


def beside_isabella(reply: str) -> FakeEngine:
    """A town where the visitor walks in next to Isabella, who answers ``reply``."""
    eng = FakeEngine(reply=reply)
    eng.visitor_spawn = (6, 2)  # next to Isabella at (5, 2)
    eng.pos["Isabella Rodriguez"] = (5, 2)
    return eng


async def open_talk(app: TownApp, pilot) -> TalkScreen:
    """Walk in as the visitor and open a talk with the resident beside them (the t key)."""
    await main_screen(app, pilot)
    await enter_visitor(app, pilot)
    await pilot.press("t")
    await until(pilot, lambda: isinstance(app.screen, TalkScreen))
    return app.screen


async def test_start_screen_shows_model_progress_then_the_town(tmp_path):
    app = make_app(tmp_path)
    seen = []
    orig = app.worker.show_progress

    def spy(stage, fraction):
        seen.append((stage, isinstance(app.screen, StartScreen)))
        orig(stage, fraction)

    app.worker.show_progress = spy
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        stages = [s for s, _ in seen]
        assert "starting llama-server" in stages and "loading model weights" in stages
        assert all(on_start for _, on_start in seen)
        assert set(app.widgets.map_view.actors) == {"Isabella Rodriguez", "Klaus Mueller", "Maria Lopez"}
        assert app.widgets.map_view.actors["Isabella Rodriguez"].emoji == "📖"  # from engine.snapshot()


async def test_model_failure_at_start_is_shown_not_raised(tmp_path):
    app = make_app(tmp_path, fail_open=ModelUnavailable("llama-server did not start: port in use"))
    async with app.run_test(size=(120, 36)) as pilot:
        await until(pilot, lambda: app.panels.last_error is not None)
        assert isinstance(app.screen, StartScreen)
        assert "port in use" in app.worker.start_screen.error
        assert app.check_action("talk", ()) is False  # no game keys before a town runs
        await pilot.press("q")
    assert app.return_code == 1


async def test_engine_runs_at_speed_and_pauses(tmp_path):
    eng = FakeEngine()
    app = make_app(tmp_path, eng, speed="normal")
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        await until(pilot, lambda: app.panels.ticks >= 10)
        klaus = app.widgets.map_view.actors["Klaus Mueller"].pos
        assert klaus == eng.pos["Klaus Mueller"] or app.panels.ticks < eng.steps  # last message in flight
        await pilot.press("space")
        await pilot.pause(0.1)
        steps = eng.steps
        await pilot.pause(0.3)
        assert eng.steps == steps, "paused: the clock must stand still"
        assert eng.polls > 0, "paused: replies are still collected with poll()"
        assert "paused" in str(app.widgets.clock_bar.render())
        await pilot.press("space")
        await until(pilot, lambda: eng.steps > steps + 3)
        await pilot.press("4")
        assert app.session.speed == "max"


async def test_max_speed_waits_for_decisions(tmp_path):
    eng = FakeEngine(waiting=2)
    app = make_app(tmp_path, eng, speed="max")
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        await until(pilot, lambda: eng.waited_any >= 3)
        assert eng.steps <= eng.waited_any + 1


async def test_visitor_walks_in_and_walls_stop_them(tmp_path):
    eng = FakeEngine()
    eng.visitor_spawn = (10, 7)
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        await enter_visitor(app, pilot)
        assert EnterAsVisitor("Ada", "a travelling painter") in eng.commands
        mv = app.widgets.map_view
        assert mv.actors["player"].pos == (10, 7)
        await pilot.press("right", "d", "up", "w")
        assert mv.actors["player"].pos == (12, 5)  # drawn at once, while paused
        assert eng.pos["player"] == (12, 5)
        assert [c for c in eng.commands if isinstance(c, MovePlayer)] == [
            MovePlayer(1, 0), MovePlayer(1, 0), MovePlayer(0, -1), MovePlayer(0, -1)]
        # walk north into the wall at row 0
        for _ in range(6):
            await pilot.press("up")
        assert mv.actors["player"].pos == (12, 1)
        moves = len([c for c in eng.commands if isinstance(c, MovePlayer)])
        await pilot.press("up")
        assert mv.actors["player"].pos == (12, 1)
        assert len([c for c in eng.commands if isinstance(c, MovePlayer)]) == moves  # never sent
        assert "Ada" in str(app.widgets.clock_bar.render())


async def test_tab_in_the_visitor_form_goes_to_the_next_field(tmp_path):
    # the main screen's tab (select the next resident) is a priority binding: it must not take the
    # key from the form (in tmux, keys sent one by one: "you: Tess"; sent in one burst, the tab
    # arrives inside the pasted text and the form never sees it)
    eng = FakeEngine()
    eng.visitor_spawn = (10, 7)
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        await enter_visitor(app, pilot, "Tess", "a painter", between="tab")
        assert EnterAsVisitor("Tess", "a painter") in eng.commands


def burst(app: TownApp, *keys: str) -> None:
    """Keys that arrive together, as from ``tmux send-keys "Tess" Tab "a painter"`` or a fast
    typist over a slow link: all in the app's queue before the first is taken in."""
    named = {"tab": "\t", "enter": "\r", "space": " "}
    for key in keys:
        for k in ([key] if key in named else list(key)):
            app.post_message(events.Key(k if k not in " " else "space", named.get(k, k)))


@pytest.mark.parametrize("between", ["tab", "enter"])
async def test_the_visitor_form_takes_keys_sent_in_one_burst(tmp_path, between):
    # the tab (or enter) moves to the next field when it arrives: the letters after it are the
    # line about you, not more of the name ("Tessa painter")
    eng = FakeEngine()
    eng.visitor_spawn = (10, 7)
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(80, 24)) as pilot:
        await main_screen(app, pilot)
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, VisitorScreen))
        burst(app, "Tess", between, "a painter", "enter")
        await until(pilot, lambda: isinstance(app.screen, MainScreen))
        assert EnterAsVisitor("Tess", "a painter") in eng.commands


async def test_the_visitor_form_asks_for_a_name(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await main_screen(app, pilot)
        await pilot.press("v")
        await until(pilot, lambda: isinstance(app.screen, VisitorScreen))
        form = app.screen
        await pilot.press("enter")
        await pilot.pause(0.1)
        assert "Please give a name" in str(form.query_one("#visitor-error").render())
        assert form.focused.id == "visitor-name"
        await pilot.press("tab", *"a painter", "enter")
        await pilot.pause(0.1)
        assert form.is_current and form.focused.id == "visitor-name"
        await pilot.press(*"Tess", "enter")  # the line about you is written: enter walks in
        await until(pilot, lambda: isinstance(app.screen, MainScreen))
        assert EnterAsVisitor("Tess", "a painter") in app.session.engine.commands


async def test_moving_without_an_avatar_says_how(tmp_path):
    eng = FakeEngine()
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        await pilot.press("left")
        assert not [c for c in eng.commands if isinstance(c, MovePlayer)]
        assert any("press v" in n.message.lower() for n in app._notifications)


async def test_talk_to_a_neighbour_reply_streams_in(tmp_path):
    eng = beside_isabella("Welcome to Hobbs Cafe, friend!")
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        talk = await open_talk(app, pilot)
        assert talk.resident == "Isabella Rodriguez"
        partials = []
        orig = talk.on_utterance

        def spy(u):
            if u.speaker == "Isabella Rodriguez" and not u.final:
                partials.append(u.text)
            return orig(u)

        talk.on_utterance = spy
        await pilot.press(*"hello!")
        await pilot.press("enter")
        assert SayToResident("Isabella Rodriguez", "hello!") in eng.commands
        await until(pilot, lambda: ("Isabella Rodriguez", "Welcome to Hobbs Cafe, friend!") in talk.lines)
        assert partials[:2] == ["Welcome", "Welcome to"], "the reply appears as it is written"
        assert talk.lines[0] == ("Ada", "hello!")
        assert talk.lines.count(("Ada", "hello!")) == 1  # the engine's echo is not shown twice
        await pilot.press("escape")
        assert EndConversation("Isabella Rodriguez") in eng.commands
        assert isinstance(app.screen, MainScreen)
        assert app.panels.talk is None


async def test_what_is_typed_reaches_the_town_now_and_then_not_on_every_key(tmp_path):
    from game.engine.events import Typing
    eng = beside_isabella("Hello there.")
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        await open_talk(app, pilot)
        await pilot.press(*"is the cafe open")
        await until(pilot, lambda: Typing("Isabella Rodriguez", "is the cafe open") in eng.commands)
        typed = [c for c in eng.commands if isinstance(c, Typing)]
        assert len(typed) < len("is the cafe open") / 2, typed  # a pause or a second, not a key
        await pilot.pause(0.6)
        assert [c for c in eng.commands if isinstance(c, Typing)] == typed  # nothing new: nothing sent
        await pilot.press("enter")
        assert SayToResident("Isabella Rodriguez", "is the cafe open") in eng.commands


async def test_a_replys_words_are_shown_as_they_come_not_at_the_next_tick(tmp_path):
    eng = FakeEngine()
    eng.heard = asyncio.Event()  # as the real engine's: set when a reply to the player has new words
    host = FakeHost(engine=eng)
    app = TownApp(host, tmp_path / "saves", tick_delay={"normal": 60.0}, speed="normal", autosave_s=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        await until(pilot, lambda: eng.steps >= 1)
        await pilot.pause(0.2)
        steps, ticks = eng.steps, app.panels.ticks
        eng._out.utterances.append(Utterance("c1", "Isabella Rodriguez", "Ada", "Well", final=False))
        eng.heard.set()
        await until(pilot, lambda: app.panels.ticks > ticks, timeout=2.0)  # the next tick is a minute away
        assert eng.steps == steps and not eng._out.utterances  # collected by a poll; the clock stood


async def test_talk_with_no_one_near_explains(tmp_path):
    eng = FakeEngine()
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        await enter_visitor(app, pilot)
        await pilot.press("t")
        assert isinstance(app.screen, MainScreen)
        assert any("no one is next to you" in n.message.lower() for n in app._notifications)


async def test_whisper_to_the_selected_resident(tmp_path):
    eng = FakeEngine()
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        await pilot.press("tab", "tab")
        assert app.panels.selected_name == "Klaus Mueller"
        assert app.widgets.map_view.selected == "Klaus Mueller"
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, AskScreen))
        await pilot.press(*"you will run for mayor")
        await pilot.press("enter")
        assert Whisper("Klaus Mueller", "you will run for mayor") in eng.commands
        await until(pilot, lambda: app.widgets.town_log.lines_written > 0)
        await until(pilot, lambda: "thought: you will run for mayor" in str(app.widgets.resident_panel.render()))


async def test_embody_walk_and_release(tmp_path):
    eng = FakeEngine()
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        await pilot.press("tab", "tab", "tab")
        assert app.panels.selected_name == "Maria Lopez"
        await pilot.press("b")
        assert Embody("Maria Lopez") in eng.commands
        assert app.session.controlled == "Maria Lopez"
        start = eng.pos["Maria Lopez"]
        await pilot.press("right", "right")
        assert eng.pos["Maria Lopez"] == (start[0] + 2, start[1])
        assert app.widgets.map_view.actors["Maria Lopez"].pos == (start[0] + 2, start[1])
        assert "Maria Lopez" in str(app.widgets.clock_bar.render())
        await pilot.press("b")
        assert Release() in eng.commands
        assert app.session.controlled is None


async def test_set_an_object_on_fire(tmp_path):
    eng = FakeEngine()
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, AskScreen))
        await pilot.press(*"the stove in the Lin kitchen is on fire")
        await pilot.press("enter")
        assert SetObjectState("the stove in the Lin kitchen is on fire") in eng.commands
        await until(pilot, lambda: app.widgets.town_log.lines_written > 0)
        fire = [h for h in app.widgets.town_log.history if "is now on fire" in h]
        assert len(fire) == 1 and "the stove in the kitchen of the Lin house" in fire[0], fire


async def test_refused_command_is_a_warning_not_a_crash(tmp_path):
    eng = FakeEngine()
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        app.player.release()  # nothing embodied: the app says so before asking the engine
        app.player.submit(Release())  # the engine refuses it: a warning notification
        await pilot.pause(0.05)
        msgs = [n.message for n in app._notifications]
        assert any("not controlling anyone" in m for m in msgs)
        assert app.panels.last_error is None


async def test_select_by_click_and_go_to(tmp_path):
    eng = FakeEngine()
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        mv = app.widgets.map_view
        x, y = mv.actors["Maria Lopez"].pos
        await pilot.click("#map", offset=(x + 1 - mv.scroll_offset.x, y + 1 - mv.scroll_offset.y))
        assert app.panels.selected_name == "Maria Lopez"
        assert "Maria Lopez" in str(app.widgets.resident_panel.render())
        assert "08:00 open the cafe" in str(app.widgets.resident_panel.render())
        app.panels.go_to("Klaus Mueller")
        assert mv.follow == "Klaus Mueller" and app.panels.selected_name == "Klaus Mueller"


async def test_command_palette_goes_to_a_resident(tmp_path):
    eng = FakeEngine()
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        await pilot.press("ctrl+p")
        await pilot.pause(0.1)
        await pilot.press(*"go to klaus")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await until(pilot, lambda: app.panels.selected_name == "Klaus Mueller")
        assert app.widgets.map_view.follow == "Klaus Mueller"


async def test_save_load_and_quit_autosaves(tmp_path):
    eng = FakeEngine()
    app = make_app(tmp_path, eng, speed="normal")
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        await until(pilot, lambda: eng.steps >= 5)
        await pilot.press("ctrl+s")
        saved = tmp_path / "saves" / "Testville.save"
        assert saved.exists()
        await pilot.press("ctrl+l")
        await until(pilot, lambda: isinstance(app.screen, LoadScreen))
        assert app.screen.saves[0].town == "Testville"
        assert len(app.screen.saves[0].residents) == 3
        await pilot.press("enter")
        await until(pilot, lambda: app.files.host.loaded == [saved])
        await until(pilot, lambda: app.session.engine is not None and app.session.engine is not eng
                    and isinstance(app.screen, MainScreen) and app.widgets.map_view is not None)
        new = app.session.engine
        await until(pilot, lambda: new.steps > 0)
        assert eng.steps == eng.steps  # the old engine was left
        await pilot.press("q")
    assert new.closed
    assert new.saved and new.saved[-1] == saved


async def test_help_screen(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)


async def test_model_text_is_shown_as_plain_text(tmp_path):
    eng = FakeEngine()
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        nasty = "[bold red]not markup[/] \x1b[31mred\x1b[0m\x1b]0;title\x07 done"
        app.post_message(Ticked(TickResult(step=1, clock="Day 1, 07:00:10",
                                           log=[LogLine("reflection", nasty, "Klaus Mueller")])))
        await until(pilot, lambda: app.widgets.town_log.lines_written == 1)
        text = app.widgets.town_log.history[0]
        assert "[bold red]not markup[/] red done" in text
        assert "\x1b" not in text and "title" not in text
        drawn = " ".join("".join(seg.text for seg in line) for line in app.widgets.town_log.lines)
        assert "[bold red]not" in drawn and "\x1b" not in drawn


async def test_model_errors_become_a_notice_and_the_town_goes_on(tmp_path):
    eng = FakeEngine()
    app = make_app(tmp_path, eng, speed="normal")
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        eng.fail_next_step = ModelUnavailable("the model server went away")
        await until(pilot, lambda: app.panels.last_error is not None)
        assert "went away" in app.panels.last_error
        steps = eng.steps
        await until(pilot, lambda: eng.steps > steps + 2)  # still running
        assert "went away" in str(app.widgets.model_line.render())
        # a decision that failed inside the engine arrives as an error log line
        app.post_message(Ticked(TickResult(step=9, clock="Day 1, 07:01:30",
                                           log=[LogLine("error", "Klaus Mueller: next failed (model): timeout")])))
        await until(pilot, lambda: "timeout" in (app.panels.last_error or ""))


async def test_engine_crash_is_reported_once_and_pauses(tmp_path):
    eng = FakeEngine()
    app = make_app(tmp_path, eng, speed="normal")
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        eng.fail_next_step = RuntimeError("bug in the engine")
        await until(pilot, lambda: app.panels.last_error is not None)
        assert "bug in the engine" in app.panels.last_error
        assert app.session.speed == "pause"
        await pilot.press("space")
        steps = eng.steps
        await until(pilot, lambda: eng.steps > steps)


@pytest.mark.parametrize("key", ["right", "tab"])
async def test_keys_answer_at_once_while_the_model_is_busy(tmp_path, key):
    eng = FakeEngine(waiting=25)
    app = make_app(tmp_path, eng, speed="pause")
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        if key == "right":
            await enter_visitor(app, pilot)
        app.player.set_speed("fast")
        await until(pilot, lambda: eng.steps > 5)
        if key == "right":
            done = lambda: app.widgets.map_view.actors["player"].pos == (37, 12)  # noqa: E731
        else:
            done = lambda: app.panels.selected_name == "Isabella Rodriguez"  # noqa: E731
        t0 = time.perf_counter()
        app.post_message(events.Key(key, None))
        while not done():
            await asyncio.sleep(0.002)
            assert time.perf_counter() - t0 < 1.0, "the key did not answer within a second"
        elapsed = time.perf_counter() - t0
        assert elapsed < 0.3, f"key to state took {elapsed * 1000:.0f} ms"


async def test_a_bad_save_is_reported_and_the_town_goes_on(tmp_path):
    eng = FakeEngine()
    app = make_app(tmp_path, eng, speed="normal")
    bad = tmp_path / "broken.save"
    bad.write_text("not a save")
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        app.files.load_save(bad)
        await until(pilot, lambda: app.panels.last_error is not None)
        assert app.session.engine is eng
        steps = eng.steps
        await until(pilot, lambda: eng.steps > steps + 2)


async def test_ctrl_q_saves_too(tmp_path):
    eng = FakeEngine()
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        await pilot.press("ctrl+q")
    assert eng.saved and eng.closed


@pytest.mark.parametrize("asleep", [False, True])
async def test_talk_ended_by_the_town_is_shown(tmp_path, asleep):
    eng = beside_isabella("Sorry, I must go.")
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        talk = await open_talk(app, pilot)
        await pilot.press(*"hi", "enter")
        await until(pilot, lambda: len(talk.lines) == 2)
        assert not talk.ended
        if asleep:
            eng.asleep.add("Isabella Rodriguez")
        eng.talking.clear()  # the engine ends the conversation (the resident walked off, or fell asleep)
        await until(pilot, lambda: talk.ended)
        shown = " ".join(str(line.text) for line in talk.query_one("#talk-log").lines)
        said = ("Isabella Rodriguez is asleep: the conversation has ended" if asleep
                else "the conversation with Isabella Rodriguez has ended")
        assert said in shown
        await pilot.press("escape")
        assert EndConversation("Isabella Rodriguez") not in eng.commands  # nothing left to end


async def test_space_resumes_at_the_speed_it_paused(tmp_path):
    """Regression: pausing kept the speed under one name and resuming read another, so space
    always resumed at normal speed."""
    app = make_app(tmp_path, FakeEngine(), speed="fast")
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)
        await pilot.press("space")
        assert app.session.speed == "pause"
        await pilot.press("space")
        assert app.session.speed == "fast"
        await pilot.press("4", "space", "space")
        assert app.session.speed == "max"


async def test_a_command_that_fails_is_shown_and_the_game_goes_on(tmp_path):
    # game/ui/actions.py catches any failure of a command there (not only a CommandError)
    eng = FakeEngine()
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)

        def broken(command: object) -> None:
            raise RuntimeError("a bug in the town")

        eng.submit = broken
        assert not app.player.submit(EnterAsVisitor("Ada", "a painter"))
        assert app.panels.last_error == "RuntimeError: a bug in the town"
        app.panels.last_error = None
        app.player.typing("Isabella Rodriguez", "Hel")  # what the player types: shown too, never raised
        assert app.panels.last_error == "RuntimeError: a bug in the town"
        assert app.is_running


async def test_a_resident_the_panel_cannot_show_is_an_error_shown_not_raised(tmp_path):
    # game/ui/panels.py catches any failure of ``inspect`` there: the panel never stops the game
    eng = FakeEngine()
    app = make_app(tmp_path, eng)
    async with app.run_test(size=(120, 36)) as pilot:
        await main_screen(app, pilot)

        def broken(name: str) -> object:
            raise RuntimeError("a bug in the panel")

        eng.inspect = broken
        await pilot.press("tab")  # select the next resident: the panel asks for them
        await until(pilot, lambda: app.panels.last_error == "RuntimeError: a bug in the panel")
        assert app.is_running
