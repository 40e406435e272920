"""The game in an 80x24 terminal, the size many terminals open at: the main screen and every
dialog fit (no widget reaches past the screen's edge, or past its container's, except inside
something that scrolls), and each is kept as a snapshot at that size.

Every screen the game shows is listed in ``OPEN``: how the player gets to it from the town."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_engine import FakeEngine, FakeHost
from test_snapshots import StuckHost, main_ready, wait_for
from textual.widgets import Input

from game.ui.app import TownApp
from game.ui.screens import AskScreen, HelpScreen, LoadScreen, QuitScreen, TalkScreen, VisitorScreen

SIZE = (80, 24)


class DiskFullEngine(FakeEngine):
    """A town whose saves fail (the quit dialog)."""

    def save(self, path=None) -> str:
        raise OSError("No space left on device: the save could not be written, the town is still here")


def town(kind: str, tmp_path: Path) -> TownApp:
    if kind == "start":
        host = StuckHost()
    else:
        eng = (DiskFullEngine() if kind in ("quit", "save_elsewhere")
               else FakeEngine(reply="Welcome to Hobbs Cafe, friend!"))
        eng.visitor_spawn = (6, 2)  # next to Isabella
        eng.pos["Isabella Rodriguez"] = (5, 2)
        host = FakeHost(engine=eng)
    saves = tmp_path / "saves"
    saves.mkdir()
    FakeEngine().save(saves / "Testville.save")
    return TownApp(host, saves, speed="pause", autosave_s=0)


async def _start(pilot) -> None:
    await wait_for(pilot, lambda: pilot.app.worker.start_screen.fraction == 0.5)


async def _main(pilot) -> None:
    await main_ready(pilot)
    await pilot.press("tab", "tab")  # a resident selected: the side panel has something to show


async def _panel(pilot) -> None:
    await _main(pilot)
    await pilot.press("p")


async def _visitor(pilot) -> None:
    await _main(pilot)
    await pilot.press("v", *"Ada")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, VisitorScreen))


async def _talk(pilot) -> None:
    app = pilot.app
    await _main(pilot)
    await pilot.press("v", *"Ada", "tab", *"a travelling painter", "enter", "t")
    await wait_for(pilot, lambda: isinstance(app.screen, TalkScreen))
    await pilot.press(*"hello! is the cafe open this early?", "enter")
    await wait_for(pilot, lambda: len(app.screen.lines) == 2)


async def _whisper(pilot) -> None:
    await _main(pilot)
    await pilot.press("x")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, AskScreen))


async def _object(pilot) -> None:
    await _main(pilot)
    await pilot.press("o")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, AskScreen))


async def _save_as(pilot) -> None:
    await _main(pilot)
    pilot.app.files.ask_save_as()
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, AskScreen))


async def _load(pilot) -> None:
    await _main(pilot)
    await pilot.press("ctrl+l")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, LoadScreen))


async def _quit(pilot) -> None:
    await _main(pilot)
    await pilot.press("q")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, QuitScreen))


async def _save_elsewhere(pilot) -> None:
    await _quit(pilot)
    await pilot.press("e")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, AskScreen))


async def _help(pilot) -> None:
    await _main(pilot)
    await pilot.press("question_mark")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))


async def _palette(pilot) -> None:
    await _main(pilot)
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: type(pilot.app.screen).__name__ == "CommandPalette")


OPEN = {
    "start": _start, "main": _main, "main_with_panel": _panel, "visitor": _visitor, "talk": _talk,
    "whisper": _whisper, "object": _object, "save_as": _save_as, "load": _load, "quit": _quit,
    "save_elsewhere": _save_elsewhere, "help": _help, "palette": _palette,
}
# kept as snapshots: every dialog of the game's own (the palette is Textual's; save as and save
# elsewhere are the whisper's dialog with other words, and save as names the test's folder)
SNAPSHOTS = ["start", "main", "main_with_panel", "visitor", "talk", "whisper", "object", "load", "quit", "help"]


async def opened(pilot, kind: str) -> None:
    await OPEN[kind](pilot)
    pilot.app.clear_notifications()
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False  # a snapshot is taken at any moment of the blink
    await pilot.pause(0.3)


def _scrolls(widget, axis: str) -> bool:
    overflow = widget.styles.overflow_x if axis == "x" else widget.styles.overflow_y
    return overflow in ("auto", "scroll")


def overflowing(screen) -> list[str]:
    """Widgets on ``screen`` that reach past the screen's edge, or past their container's, in a
    direction no container scrolls in (what is cut off there cannot be seen at all)."""
    found = []
    area = screen.region
    for widget in screen.query("*"):
        if not widget.display or not widget.visible:
            continue
        region = widget.region
        if region.area == 0:  # not on screen: inside something not displayed
            continue
        chain = []
        for ancestor in widget.ancestors:
            if ancestor is screen:
                break
            chain.append(ancestor)
        scroll_x = any(_scrolls(a, "x") for a in chain)
        scroll_y = any(_scrolls(a, "y") for a in chain)
        outer = [("screen", area)]
        parent = widget.parent
        if chain and widget.parent.region.area:  # (a container of the palette's has no region of its own)
            outer.append((repr(parent), parent.region))
        for name, box in outer:
            if not scroll_x and (region.x < box.x or region.right > box.right):
                found.append(f"{widget!r} {region} is wider than {name} {box}")
            if not scroll_y and (region.y < box.y or region.bottom > box.bottom):
                found.append(f"{widget!r} {region} is taller than {name} {box}")
    return found


@pytest.mark.parametrize("kind", list(OPEN))
async def test_every_screen_fits_80x24(tmp_path, kind):
    app = town(kind, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, kind)
        assert app.screen.region.size == SIZE
        assert overflowing(app.screen) == []


async def test_the_side_panel_folds_in_a_narrow_terminal_and_p_shows_it(tmp_path):
    app = town("main", tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _main(pilot)
        side = app.screen.query_one("#side")
        assert not side.display  # 80 columns: the map has the width
        assert app.widgets.map_view.region.width == 80
        await pilot.press("p")
        assert side.display and side.region.right <= 80 and app.widgets.map_view.region.width >= 30
        await pilot.press("p")
        assert not side.display
        await pilot.resize_terminal(120, 36)  # a wide terminal shows it again
        await pilot.pause(0.1)
        assert side.display and side.region.width == 46
        await pilot.press("p")  # and p hides it there too
        assert not side.display
        await pilot.resize_terminal(80, 24)
        await pilot.pause(0.1)
        assert not side.display
        await pilot.resize_terminal(120, 36)
        await pilot.pause(0.1)
        assert not side.display  # each width keeps what the player chose there


@pytest.mark.parametrize("kind", SNAPSHOTS)
def test_snapshot_80x24(snap_compare, tmp_path, kind):
    async def run_before(pilot):
        await opened(pilot, kind)

    assert snap_compare(town(kind, tmp_path), terminal_size=SIZE, run_before=run_before)


async def test_the_clock_bar_leaves_out_what_does_not_fit(tmp_path):
    app = town("main", tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _main(pilot)
        bar = app.widgets.clock_bar
        bar.controlled, bar.follow, bar.waiting, bar.lead = "Ada Lovelace", "Isabella Rodriguez", 3, 0.97
        bar.update_bar()
        assert len(bar._last) <= 78  # 80 less the padding
        assert "you: Ada Lovelace" in bar._last and "model-led 97%" in bar._last
        # the camera goes first (the map shows whom it follows), then the decisions waited for
        assert "camera" not in bar._last and "thinking" not in bar._last
        bar.controlled = "Bartholomew Featherstonehaugh-Villiers"
        bar.update_bar()
        assert "you: Bartholomew Featherstonehaugh-Villiers" in bar._last  # what must be said (cut with …)
        assert "model-led" not in bar._last
        bar.replay, bar.controlled = True, None
        bar.update_bar()
        assert "REPLAY" in bar._last and "n fork" not in bar._last  # the footer has the replay keys
        await pilot.resize_terminal(160, 36)
        await pilot.pause(0.1)
        bar.replay, bar.controlled, bar.follow = False, "Bartholomew Featherstonehaugh", "Isabella Rodriguez"
        bar.waiting, bar.lead = 3, 0.97  # (the app set them again as the screen changed size)
        bar.update_bar()
        assert "camera: Isabella Rodriguez" in bar._last and "thinking: 3" in bar._last
        assert "model-led 97%" in bar._last


# every key the main screen has, as the footer writes it (1-4 share one word, "Speed")
MAIN_KEYS = {"tab", "p", "?", "q", "v", "t", "x", "b", "o", "f", "space", "1", "2", "3", "4", "^s", "^l", "^p"}


def footer_keys(app) -> dict[str, object]:
    """The footer's keys that are on screen, whole, by what they show."""
    from textual.widgets._footer import FooterKey

    bar = app.screen.query_one("KeyBar")
    shown = {}
    for key in bar.query(FooterKey):
        r = key.region
        if r.area and bar.region.contains_region(r) and app.screen.region.contains_region(r):
            shown[key.key_display] = r
    return shown


@pytest.mark.parametrize("kind", ["main", "main_with_panel"])
async def test_every_key_shows_in_the_footer_at_80x24(tmp_path, kind):
    """At 80 columns the footer ended at 'o O' (f, space, 1-4, ctrl+s and ctrl+l never showed): now
    it takes a second row where one is too narrow."""
    app = town(kind, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, kind)
        shown = footer_keys(app)
        assert set(shown) == MAIN_KEYS
        assert len({r.y for r in shown.values()}) == 2  # two rows
        words = " ".join(str(k.render()) for k in app.screen.query("KeyBar FooterKey, KeyBar FooterLabel"))
        for word in ("Camera", "Pause", "Speed", "Save", "Load", "Object"):
            assert word in words
        await pilot.resize_terminal(200, 24)  # wide enough: one row again
        await pilot.pause(0.3)
        shown = footer_keys(app)
        assert set(shown) == MAIN_KEYS and len({r.y for r in shown.values()}) == 1


async def test_the_panel_shows_a_space_after_the_emoji(tmp_path):
    app = town("main_with_panel", tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "main_with_panel")
        text = str(app.widgets.resident_panel.render())
        assert "☕ pacing up and down" in text


async def test_opening_the_panel_keeps_the_model_led_share_on_the_clock_bar(tmp_path):
    app = town("main", tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await _main(pilot)
        bar = app.widgets.clock_bar
        for panel_open in (False, True):
            bar.follow, bar.waiting, bar.lead = "Isabella Rodriguez", 3, 0.83
            bar.slowed, bar.speed = "slowed x3 for the model", "normal"
            bar.update_bar()
            assert "model-led 83%" in bar._last and "slowed x3" in bar._last, (panel_open, bar._last)
            assert len(bar._last) <= 78
            await pilot.press("p")
            await pilot.pause(0.1)
