"""The keys at the foot of the main screen, every one of them shown: on one line where they fit, on
two (or more) where they do not.

Textual's ``Footer`` is one line that scrolls sideways: at 80 columns it ended at 'o O', and f,
space, 1-4, ctrl+s and ctrl+l were never seen.  ``KeyBar`` is that footer (the same keys, looks and
clicks) laid out in rows that each fit the width, recomposed when the width changes what fits.  Keys
that share a ``Binding.Group`` are drawn together under the group's one word ("1234 Speed")."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import HorizontalGroup
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel

PALETTE_MARGIN = 2  # the palette key's border on its left and padding on its right (town.tcss)


@dataclass
class Entry:
    """One thing shown: a key with its word, or a group's keys with the group's word."""

    keys: list[tuple[Binding, bool, str]]  # (binding, enabled, tooltip)
    key_displays: list[str]
    description: str

    @property
    def width(self) -> int:
        """Cells taken in the compact footer, with the one-cell space after it."""
        keys = sum(cell_len(d) for d in self.key_displays)
        return keys + (1 + cell_len(self.description) if self.description else 0) + 1


def rows_of(entries: list[Entry], room: int) -> list[list[Entry]]:
    """``entries`` in order, in as few rows as keep each within ``room`` cells (one wider than
    ``room`` alone on its row), the rows as even as that many allows (not a full row and two keys)."""
    rows = _filled(entries, room)
    narrowest = max((e.width for e in entries), default=1)
    for even in range(narrowest, room):
        fewest = _filled(entries, even)
        if len(fewest) == len(rows):
            return fewest
    return rows


def _filled(entries: list[Entry], room: int) -> list[list[Entry]]:
    """Each row filled before the next begins."""
    rows: list[list[Entry]] = [[]]
    used = 0
    for entry in entries:
        if rows[-1] and used + entry.width > room:
            rows.append([])
            used = 0
        rows[-1].append(entry)
        used += entry.width
    return [row for row in rows if row]


class KeyBar(Footer):
    """Every key the screen has, in as many rows as the width needs (see the module's words)."""

    DEFAULT_CSS = """
    KeyBar {
        layout: vertical;
        height: auto;
        max-height: 4;
    }
    KeyBar > HorizontalGroup {
        height: 1;
        width: 1fr;
    }
    KeyBar.-compact FooterKey.-grouped {
        margin: 0;
    }
    KeyBar.-compact FooterLabel {
        margin: 0 1;
    }
    """

    def __init__(self) -> None:
        super().__init__(compact=True)
        self._shape: list[int] = []  # how many entries each row held when last composed

    def entries(self) -> list[Entry]:
        """What the screen's keys show, one entry for each action (or each group of them)."""
        seen: dict[str, tuple[Binding, bool, str]] = {}
        for _node, binding, enabled, tooltip in self.screen.active_bindings.values():
            if binding.show and binding.action not in seen:
                seen[binding.action] = (binding, enabled, tooltip)
        out: list[Entry] = []
        for item in seen.values():
            binding = item[0]
            last = out[-1] if out else None
            if binding.group is not None and last is not None and last.keys[0][0].group == binding.group:
                last.keys.append(item)
                last.key_displays.append(self.app.get_key_display(binding))
                continue
            description = binding.group.description if binding.group is not None else binding.description
            out.append(Entry([item], [self.app.get_key_display(binding)], description))
        return out

    def _palette(self) -> tuple[Binding, bool, str] | None:
        if not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
            return None
        found = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        return None if found is None else (found[1], found[2], found[3])

    def _rows(self) -> tuple[list[list[Entry]], tuple[Binding, bool, str] | None]:
        palette = self._palette()
        width = self.size.width or self.app.size.width
        if palette is not None:
            binding = palette[0]
            width -= (cell_len(self.app.get_key_display(binding)) + 1 + cell_len(binding.description)
                      + PALETTE_MARGIN)
        return rows_of(self.entries(), max(1, width)), palette

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        rows, palette = self._rows()
        self._shape = [len(row) for row in rows]
        for row in rows:
            with HorizontalGroup():
                for entry in row:
                    yield from self._keys(entry)
        if palette is not None:
            binding, enabled, tooltip = palette
            yield FooterKey(binding.key, self.app.get_key_display(binding), binding.description, binding.action,
                            classes="-command-palette", disabled=not enabled,
                            tooltip=binding.tooltip or binding.description)

    def _keys(self, entry: Entry) -> Iterator[Widget]:
        grouped = len(entry.keys) > 1
        for (binding, enabled, tooltip), display in zip(entry.keys, entry.key_displays, strict=True):
            yield FooterKey(binding.key, display, "" if grouped else entry.description, binding.action,
                            disabled=not enabled, tooltip=tooltip or binding.description,
                            classes="-grouped" if grouped else "").data_bind(compact=Footer.compact)
        if grouped:
            yield FooterLabel(entry.description)

    def on_resize(self, event: events.Resize) -> None:
        """A new width may fit the keys in more rows or fewer."""
        if self._bindings_ready and [len(row) for row in self._rows()[0]] != self._shape:
            self.call_after_refresh(self.recompose)
