"""The town map: a character grid drawn with Textual's Line API.

Each map row is composed once into a ``Strip`` (tiles, then emoji bubbles, then the people on it)
and kept in a per-row cache.  A move or a new bubble invalidates only the rows it touches and
refreshes only those lines; scrolling re-crops cached strips and never re-composes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from rich.cells import cell_len
from rich.color import ColorParseError
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from game.ui.text import bubble_emoji, clean

Pos = tuple[int, int]
_SKIP = None  # the second cell of a wide character
PLAYER = "player"


@dataclass
class Actor:
    name: str
    glyph: str
    colour: str
    pos: Pos
    emoji: str | None = None


class Tile(Protocol):
    """One tile of the map as drawn (``game.world.town.Tile``)."""

    @property
    def glyph(self) -> str: ...

    @property
    def fg(self) -> str: ...

    @property
    def bg(self) -> str: ...

    @property
    def walkable(self) -> bool: ...


class MapTown(Protocol):
    """The town as the map draws it (``game.world.town.Town``): its tiles, ``tiles[y][x]``."""

    @property
    def width(self) -> int: ...

    @property
    def height(self) -> int: ...

    @property
    def tiles(self) -> Sequence[Sequence[Tile]]: ...


def _safe_style(fg: str | None = None, bg: str | None = None, *, bold: bool | None = None,
                reverse: bool | None = None, underline: bool | None = None) -> Style:
    try:
        return Style(color=fg or None, bgcolor=bg or None, bold=bold, reverse=reverse, underline=underline)
    except ColorParseError:  # a colour rich cannot parse: keep the other half
        try:
            return Style(bgcolor=bg or None, bold=bold, reverse=reverse, underline=underline)
        except ColorParseError:
            return Style(bold=bold, reverse=reverse, underline=underline)


def _one_cell(glyph: str, default: str = "?") -> str:
    g = clean(glyph, single_line=True)[:1] or default
    return g if cell_len(g) == 1 else default


class MapView(ScrollView, can_focus=True):
    """The town as a grid of coloured glyphs, with people and their emoji bubbles on top."""

    DEFAULT_CSS = """
    MapView { background: $background; scrollbar-size: 1 1; }
    """

    follow: reactive[str | None] = reactive(None, init=False)
    selected: reactive[str | None] = reactive(None, init=False)

    class ActorClicked(Message):
        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

    def __init__(self, town: MapTown, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.town = town
        self.map_width = int(town.width)
        self.map_height = int(town.height)
        self._style_cache: dict[tuple[str, str], Style] = {}
        self._base: list[list[tuple[str, Style]]] = [self._base_row(y) for y in range(self.map_height)]
        self._rows: dict[int, Strip] = {}
        self.actors: dict[str, Actor] = {}
        self._at_row: dict[int, set[str]] = {}
        self.controlled: str | None = None
        self.renders = 0  # rows composed (for tests and the benchmark)
        self.virtual_size = Size(self.map_width, self.map_height)

    # --- the map -----------------------------------------------------------------------------

    def _tile_style(self, fg: str, bg: str) -> Style:
        key = (fg or "", bg or "")
        style = self._style_cache.get(key)
        if style is None:
            style = self._style_cache[key] = _safe_style(fg, bg)
        return style

    def _base_row(self, y: int) -> list[tuple[str, Style]]:
        row = self.town.tiles[y]
        out = []
        for x in range(self.map_width):
            t = row[x]
            out.append((_one_cell(t.glyph, " "), self._tile_style(t.fg, t.bg)))
        return out

    def walkable(self, pos: Pos) -> bool:
        x, y = pos
        if not (0 <= x < self.map_width and 0 <= y < self.map_height):
            return False
        return bool(self.town.tiles[y][x].walkable)

    # --- people ---------------------------------------------------------------------------------

    def set_actors(self, actors: Iterable[Actor]) -> None:
        for a in list(self.actors.values()):
            self.invalidate_row(a.pos[1])
        self.actors = {}
        self._at_row = {}
        for a in actors:
            self.actors[a.name] = a
            self._at_row.setdefault(a.pos[1], set()).add(a.name)
            self.invalidate_row(a.pos[1])

    def add_actor(self, actor: Actor) -> None:
        if actor.name in self.actors:
            self.move(actor.name, actor.pos)
            return
        self.actors[actor.name] = actor
        self._at_row.setdefault(actor.pos[1], set()).add(actor.name)
        self.invalidate_row(actor.pos[1])

    def move(self, name: str, dst: Pos) -> None:
        a = self.actors.get(name)
        if a is None or a.pos == tuple(dst):
            return
        self._at_row.get(a.pos[1], set()).discard(name)
        self.invalidate_row(a.pos[1])
        a.pos = (int(dst[0]), int(dst[1]))
        self._at_row.setdefault(a.pos[1], set()).add(name)
        self.invalidate_row(a.pos[1])
        if name == self.follow:
            self.center_on(a.pos)

    def set_bubble(self, name: str, emoji: str | None) -> None:
        a = self.actors.get(name)
        if a is None:
            return
        e = bubble_emoji(emoji)
        if e != a.emoji:
            a.emoji = e
            self.invalidate_row(a.pos[1])

    def bubble_x(self, actor: Actor) -> int | None:
        """Where ``actor``'s emoji bubble starts: the two cells on its right, else the two on its
        left, whichever are floor (walkable), else nowhere.  An emoji takes two cells: drawn over a
        wall or a door it hid them (the panel says the emoji anyway)."""
        if not actor.emoji:
            return None
        x, y = actor.pos
        for start in (x + 1, x - 2):
            if self.walkable((start, y)) and self.walkable((start + 1, y)):
                return start
        return None

    def actor_at(self, pos: Pos) -> str | None:
        """Who is drawn at (or whose bubble covers) ``pos``."""
        best = None
        for name in self._at_row.get(pos[1], ()):
            a = self.actors[name]
            if a.pos[0] == pos[0]:
                return name
            start = self.bubble_x(a)
            if start is not None and start <= pos[0] <= start + 1:
                best = name
        return best

    def watch_selected(self, old: str | None, new: str | None) -> None:
        for n in (old, new):
            if n in self.actors:
                self.invalidate_row(self.actors[n].pos[1])

    def watch_follow(self, new: str | None) -> None:
        if new in self.actors:
            self.center_on(self.actors[new].pos, force=True)

    def center_on(self, pos: Pos, *, force: bool = False) -> None:
        """Scroll so ``pos`` is in view; recentre only when it leaves the middle half."""
        w, h = self.scrollable_content_region.size
        if w <= 0 or h <= 0:
            self.call_after_refresh(self.center_on, pos, force=True)
            return
        sx, sy = self.scroll_offset
        x, y = pos
        inside = sx + w // 4 <= x < sx + w - w // 4 and sy + h // 4 <= y < sy + h - h // 4
        if force or not inside:
            tx = min(max(0, x - w // 2), max(0, self.map_width - w))
            ty = min(max(0, y - h // 2), max(0, self.map_height - h))
            if (tx, ty) != (sx, sy):  # at the map's edge the camera cannot move: no repaint
                self.scroll_to(tx, ty, animate=False, immediate=True)

    # --- rendering ----------------------------------------------------------------------------------

    def invalidate_row(self, y: int) -> None:
        if self._rows.pop(y, None) is not None:
            if self.is_mounted:
                self.refresh_line(y)

    def _compose_row(self, y: int) -> Strip:
        self.renders += 1
        cells: list[tuple[str, Style] | None] = list(self._base[y])
        width = self.map_width
        names = sorted(self._at_row.get(y, ()))  # a fixed order, so overlaps draw the same way
        for name in names:  # bubbles first (on floor only), people on top
            a = self.actors[name]
            start = self.bubble_x(a)
            if a.emoji and start is not None:
                bg = self._base[y][start][1].bgcolor
                cells[start] = (a.emoji, Style(bgcolor=bg))
                cells[start + 1] = _SKIP
        for name in names:
            a = self.actors[name]
            x = a.pos[0]
            if not 0 <= x < width:
                continue
            bg = self._base[y][x][1].bgcolor
            if name == self.selected:
                style = _safe_style(a.colour, None, bold=True, reverse=True)
            elif name == self.controlled:
                style = _safe_style(a.colour, None, bold=True, underline=True) + Style(bgcolor=bg)
            else:
                style = _safe_style(a.colour, None, bold=True) + Style(bgcolor=bg)
            cells[x] = (a.glyph, style)
        # a wide character needs its second cell; an orphaned second cell shows the tile again
        segments: list[Segment] = []
        run_text: list[str] = []
        run_style: Style | None = None
        i = 0
        while i < width:
            c = cells[i]
            if c is _SKIP:
                c = self._base[y][i]
                step = 1
            elif cell_len(c[0]) == 2:
                if i + 1 < width and cells[i + 1] is _SKIP:
                    step = 2
                else:
                    c = (" ", c[1])
                    step = 1
            else:
                step = 1
            if c[1] is not run_style and c[1] != run_style:
                if run_text:
                    segments.append(Segment("".join(run_text), run_style))
                run_text, run_style = [], c[1]
            run_text.append(c[0])
            i += step
        if run_text:
            segments.append(Segment("".join(run_text), run_style))
        return Strip(segments, width)

    def row_strip(self, y: int) -> Strip:
        strip = self._rows.get(y)
        if strip is None:
            strip = self._rows[y] = self._compose_row(y)
        return strip

    def render_line(self, y: int) -> Strip:
        sx, sy = self.scroll_offset
        row = sy + y
        width = self.scrollable_content_region.width
        if not 0 <= row < self.map_height:
            return Strip.blank(width, self.rich_style)
        return self.row_strip(row).crop_extend(sx, sx + width, self.rich_style)

    def render_frame(self) -> list[Strip]:
        """Every map row (for the benchmark): composes the rows that changed since last time."""
        return [self.row_strip(y) for y in range(self.map_height)]

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:  # on the border or a scrollbar
            return
        sx, sy = self.scroll_offset
        name = self.actor_at((offset.x + sx, offset.y + sy))
        if name is not None:
            self.post_message(self.ActorClicked(name))
