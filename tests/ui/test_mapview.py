"""MapView: strips cached per row, only changed rows re-composed, wide emoji drawn safely."""

from __future__ import annotations

import dataclasses

from fake_engine import FakeSpec, fake_town
from rich.cells import cell_len
from textual.app import App, ComposeResult

from game.ui.mapview import Actor, MapView
from game.ui.text import FALLBACK_EMOJI, bubble_emoji


def big_town(w: int = 140, h: int = 100):
    rows = ["#" * w] + ["#" + "." * (w - 2) + "#" for _ in range(h - 2)] + ["#" * w]
    return fake_town("Big", rows, residents=[FakeSpec(f"R{i}", chr(65 + i), "#ff8800") for i in range(25)])


def actors(n: int = 25):
    return [Actor(f"R{i}", chr(65 + i), "#ff8800", (3 + (i * 5) % 130, 2 + (i * 7) % 95), "☕")
            for i in range(n)]


def line_text(strip) -> str:
    return "".join(seg.text for seg in strip)


def test_row_strips_are_cached_and_only_changed_rows_recomposed():
    mv = MapView(big_town())
    mv.set_actors(actors())
    mv.render_frame()
    assert mv.renders == 100
    mv.render_frame()
    assert mv.renders == 100, "a second frame with nothing changed composes nothing"
    mv.move("R0", (4, 2))  # same row: one row
    mv.render_frame()
    assert mv.renders == 101
    mv.move("R1", (8, 10))  # from row 9 to row 10: two rows
    mv.render_frame()
    assert mv.renders == 103
    mv.set_bubble("R2", "📖")
    mv.render_frame()
    assert mv.renders == 104
    mv.set_bubble("R2", "📖")  # unchanged: nothing
    mv.render_frame()
    assert mv.renders == 104


def test_every_row_keeps_the_map_width_with_wide_bubbles():
    mv = MapView(big_town())
    acts = actors()
    acts.append(Actor("edge", "E", "red", (138, 5), "🍳"))  # no room for a bubble at the edge
    acts.append(Actor("left", "L", "red", (10, 50), "🍳"))
    acts.append(Actor("right", "G", "red", (11, 50), "💤"))  # stands on left's bubble
    mv.set_actors(acts)
    for y in range(mv.map_height):
        strip = mv.row_strip(y)
        assert strip.cell_length == 140
        assert cell_len(line_text(strip)) == 140
    row50 = line_text(mv.row_strip(50))
    assert row50[10:12] == "LG" and "💤" in row50 and "🍳" not in row50


def test_bubble_emoji_is_one_wide_emoji():
    assert bubble_emoji("☕") == "☕"
    assert bubble_emoji("☕\ufe0f") == "☕"  # variation selector dropped
    assert bubble_emoji("❤️") == FALLBACK_EMOJI  # narrow without its selector: not drawn
    assert bubble_emoji("hello") == FALLBACK_EMOJI
    assert bubble_emoji("") is None
    assert bubble_emoji("\x1b[31m🍳") == "🍳"


class MapApp(App[None]):
    def compose(self) -> ComposeResult:
        yield MapView(big_town(), id="map")


async def test_follow_scrolls_the_camera_and_lines_render():
    app = MapApp()
    async with app.run_test(size=(60, 20)) as pilot:
        mv = app.query_one(MapView)
        mv.set_actors(actors())
        mv.follow = "R20"  # at (103, 42)
        await pilot.pause()
        x, y = mv.actors["R20"].pos
        sx, sy = mv.scroll_offset
        assert sx <= x < sx + 60 and sy <= y < sy + 20
        line = line_text(mv.render_line(y - sy))
        assert line[x - sx] == mv.actors["R20"].glyph
        mv.move("R20", (x + 1, y))
        assert mv.actors["R20"].pos == (x + 1, y)


def test_a_bubble_is_drawn_on_floor_only_never_over_a_wall():
    """A wide emoji takes two cells: on the resident's right where both are floor, else on its left,
    else not at all (it hid walls and doors; the panel says it anyway)."""
    rows = ["##########",
            "#........#",
            "#....#...#",
            "#.#......#",
            "#......#.#",
            "##########"]
    mv = MapView(fake_town("Walls", rows, residents=[]))
    mv.set_actors([Actor("right", "R", "red", (1, 1), "😴"),   # floor on its right
                   Actor("left", "L", "red", (4, 2), "🚿"),    # a wall on its right: on its left
                   Actor("none", "N", "red", (1, 3), "🍳"),    # a wall on its right, the edge on its left
                   Actor("edge", "E", "red", (8, 4), "💤")])   # one floor cell on its left: none
    drawn = [line_text(mv.row_strip(y)) for y in range(len(rows))]
    assert drawn[1] == "#R😴.....#"
    assert drawn[2] == "#.🚿L#...#"
    assert drawn[3] == "#N#......#"
    assert drawn[4] == "#......#E#"
    assert mv.actor_at((2, 1)) == "right" and mv.actor_at((3, 2)) == "left" and mv.actor_at((2, 3)) is None
    for y, tiles in enumerate(rows):  # every wall is drawn where the map has one
        x = 0
        for c in drawn[y]:
            assert tiles[x] != "#" or c == "#", (y, x, drawn[y])
            x += cell_len(c)


def test_a_colour_rich_cannot_read_is_left_out_not_raised():
    # game/ui/mapview.py catches ColorParseError there: the glyph is drawn without that colour
    rows = ["#####", "#...#", "#####"]
    tiles = fake_town("Odd", rows, residents=[FakeSpec("R0", "A", "not-a-colour")])
    tiles.tiles[1][1] = dataclasses.replace(tiles.tiles[1][1], fg="no such colour")
    mv = MapView(tiles)
    mv.set_actors([Actor("R0", "A", "not-a-colour", (2, 1), None)])
    assert line_text(mv.row_strip(1)) == "#.A.#"
