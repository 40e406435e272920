"""The command palette (ctrl+p): go to, whisper to, embody anyone; save, load, speeds, help."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content

from game.text import one_line


class TownCommands(Provider):
    def _commands(self) -> Iterator[tuple[str, Callable[[], Any], str]]:
        app: Any = self.app
        if getattr(app, "engine", None) is None:
            return
        for name in app.resident_names():
            yield f"Go to {name}", partial(app.go_to, name), "select and follow this resident"
            yield f"Whisper to {name}", partial(app.ask_whisper, name), "an inner voice they take as their own"
            yield f"Embody {name}", partial(app.embody, name), "move and speak for this resident"
        yield "Enter the town as a visitor", app.action_visitor, "name yourself and walk in"
        yield "Release the embodied resident", app.release, "hand the resident back to its own mind"
        yield "Set an object's state", app.action_object, "e.g. the stove in the Lin kitchen is on fire"
        yield "Save the town", app.action_save, "write the current save file"
        yield "Save the town as…", app.ask_save_as, "a new save file in the saves folder"
        yield "Load a saved town", app.action_load, "list the saves folder"
        for speed in ("pause", "normal", "fast", "max"):
            yield f"Speed: {speed}", partial(app.set_speed, speed), "how fast the town's clock runs"
        yield "Help: keys", app.action_help, "every key"

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


def _highlight(matcher: Any, title: str) -> Content:
    """The title with the query's letters marked, as plain Content: Textual's own ``highlight``
    parses the title as markup, and titles hold residents' names."""
    content = Content(title)
    _, offsets = matcher.fuzzy_search.match(matcher.query, title)
    for offset in offsets:
        if not title[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content
