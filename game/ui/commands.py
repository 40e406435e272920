"""The command palette (ctrl+p): go to, whisper to, embody anyone; save, load, speeds, help."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Protocol, runtime_checkable

from textual.command import DiscoveryHit, Hit, Hits, Matcher, Provider
from textual.content import Content

from game.text import one_line
from game.ui.actions import PlayerActions
from game.ui.files import Files
from game.ui.panels import Panels

PaletteEntry = tuple[str, Callable[[], object], str]  # title, what it does, help


@runtime_checkable
class WithPalette(Protocol):
    """The app whose palette this is (game/ui/app.py ``TownApp.palette``)."""

    def palette(self) -> list[PaletteEntry]: ...


def town_palette(panels: Panels, player: PlayerActions, files: Files,
                 show_help: Callable[[], object]) -> list[PaletteEntry]:
    """Every command of a running town."""
    out: list[PaletteEntry] = []
    for name in panels.resident_names():
        out.append((f"Go to {name}", partial(panels.go_to, name), "select and follow this resident"))
        out.append((f"Whisper to {name}", partial(player.ask_whisper, name), "an inner voice they take as their own"))
        out.append((f"Embody {name}", partial(player.embody, name), "move and speak for this resident"))
    out += [
        ("Enter the town as a visitor", player.visitor, "name yourself and walk in"),
        ("Release the embodied resident", player.release, "hand the resident back to its own mind"),
        ("Set an object's state", player.change_object, "e.g. the stove in the Lin kitchen is on fire"),
        ("Save the town", files.save, "write the current save file"),
        ("Save the town as…", files.ask_save_as, "a new save file in the saves folder"),
        ("Load a saved town", files.load, "list the saves folder"),
    ]
    for speed in ("pause", "normal", "fast", "max"):
        out.append((f"Speed: {speed}", partial(player.set_speed, speed), "how fast the town's clock runs"))
    out.append(("Help: keys", show_help, "every key"))
    return out


class TownCommands(Provider):
    def _commands(self) -> list[PaletteEntry]:
        app = self.app
        return app.palette() if isinstance(app, WithPalette) else []

    async def discover(self) -> Hits:
        for title, callback, help_text in self._commands():
            yield DiscoveryHit(Content(one_line(title)), callback, text=one_line(title), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, callback, help_text in self._commands():
            title = one_line(title)
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, _highlight(matcher, title), callback, text=title, help=help_text)


def _highlight(matcher: Matcher, title: str) -> Content:
    """The title with the query's letters marked, as plain Content: Textual's own ``highlight``
    parses the title as markup, and titles hold residents' names."""
    content = Content(title)
    _, offsets = matcher.fuzzy_search.match(matcher.query, title)
    for offset in offsets:
        if not title[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content
