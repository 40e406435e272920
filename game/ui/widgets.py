"""The panels around the map: clock bar, resident panel, town log, model status line."""

from __future__ import annotations

from collections import deque

from rich.text import Text
from textual.widgets import RichLog, Static

from game.engine.events import LogLine
from game.engine.state import ResidentView
from game.llm.api import ModelStatus
from game.ui.text import clean, plain

SPEED_LABEL = {"pause": "⏸ paused", "normal": "▶ normal", "fast": "⏩ fast", "max": "⏭ as fast as decisions allow"}


def _fitted(parts: list[tuple[int, Text, Text | None]], room: int) -> list[tuple[int, Text, Text | None]]:
    """``parts`` within ``room`` cells (0: not known yet, all of them): the least needed (need 1,
    then 2 ..) shortened where they have shorter words, else left out, until the rest fit."""
    shown = list(parts)
    for need in sorted({n for n, _, _ in parts if n > 0}):
        for shorten in (True, False):
            if not room or sum(t.cell_len for _, t, _ in shown) <= room:
                return shown
            if shorten:
                shown = [(n, s, None) if n == need and s is not None else (n, t, s) for n, t, s in shown]
            else:
                shown = [p for p in shown if p[0] != need]
    return shown


class ClockBar(Static):
    """Town name, day and time, speed, who the player controls, the model server when it is not up,
    decisions pending, the model-led share."""

    DEFAULT_CSS = "ClockBar { height: 1; dock: top; background: $panel; color: $text; padding: 0 1; }"

    def __init__(self, town_name: str, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.town_name = clean(town_name, single_line=True)
        self.clock = ""
        self.speed = "normal"
        self.controlled: str | None = None
        self.waiting = 0
        self.lead: float | None = None  # the town's model-led share over the last game hours
        self.slowed = ""  # the pace governor's words when the clock waits for the model
        self.follow: str | None = None
        self.replay = False  # watching a recorded run
        self.model = ""  # "model restarting…" / "model away" while the model server is not up
        self._last = ""

    def update_bar(self) -> None:
        """The bar's parts, in order; those that do not fit the bar's width are shortened or left
        out one kind at a time, the least needed first (each says again what the footer or the panel
        says too); the model-led share goes last, whatever else is shown (a panel opened, a camera
        following, the clock slowed)."""
        parts: list[tuple[int, Text, Text | None]] = []  # (need, text, shorter): 0 always shown

        def part(need: int, *pieces: tuple[str, str], shorter: str | None = None) -> None:
            t = Text(end="")
            for text, style in pieces:
                t.append(text, style=style)
            short = None
            if shorter is not None:
                short = Text(end="")
                short.append(shorter, style=pieces[-1][1])
            parts.append((need, t, short))

        part(0, (f" {self.town_name} ", "bold reverse"))
        part(0, ("  ", ""), (clean(self.clock, single_line=True) or "…", "bold"))
        part(0, ("   ", ""), (SPEED_LABEL.get(self.speed, self.speed), ""))
        if self.replay:
            part(0, ("   ", ""), ("REPLAY", "bold reverse"))
            part(1, ("  [ ] ±10 min  { } ±1 h  g go to  n fork", "dim"))
        elif self.controlled:
            part(0, ("   ", ""), ("you: ", "dim"), (clean(self.controlled, single_line=True), "bold"))
        else:
            part(0, ("   ", ""), ("watching", "dim"))
            part(1, (" (v to walk in)", "dim"))
        if self.model:  # plainly, whatever the width: the residents live by routine meanwhile
            away = self.model == "model away"
            part(0, ("   ", ""), (f" {self.model} ", "bold reverse red" if away else "bold yellow"))
        if self.follow:
            part(2, ("   camera: ", "dim"), (clean(self.follow, single_line=True), ""))
        if self.waiting:
            part(3, (f"   thinking: {self.waiting}", "italic"))
        if self.slowed and not self.replay:
            part(4, (f"   {self.slowed}", "italic yellow"),
                 shorter="   " + self.slowed.replace(" for the model", ""))
        if self.lead is not None and not self.replay:
            part(5, ("   model-led ", "dim"), (f"{self.lead:.0%}", "bold" if self.lead >= 0.8 else "bold yellow"))
        shown = _fitted(parts, self.content_size.width)  # 0 before the first layout: everything
        t = Text(end="", no_wrap=True, overflow="ellipsis")
        for _, piece, _short in shown:
            t.append_text(piece)
        if t.plain != self._last:
            self._last = t.plain
            self.update(t, layout=False)  # one line, fixed height: no layout pass per tick

    def on_resize(self) -> None:
        self._last = ""  # what fits has changed
        self.update_bar()


MODEL_LED = ("model", "reaction", "talk")


def source_words(source: str, thinking: bool, asleep: bool = False) -> str:
    """Where the resident's current action came from, in the panel's words.  Asleep is by rule and
    not waking time (the ledger does not count it); the model may be planning the day meanwhile."""
    if asleep and source in ("routine", "rule"):
        return "asleep: the model plans their day" if thinking else "asleep (by rule; not waking time)"
    if source == "model":
        return "decided by the model"
    if source == "reaction":
        return "a reaction the model chose"
    if source == "talk":
        return "talking (the model's words)"
    if source == "routine":
        return "on routine: waiting for the model" if thinking else "on routine (rule-based)"
    if source == "rule":
        return "by rule (a short step between decisions)"
    return ""


class ResidentPanel(Static):
    """Everything about the selected resident."""

    DEFAULT_CSS = "ResidentPanel { padding: 0 1; }"

    def show(self, card: ResidentView | None, glyph: str = "", colour: str = "") -> None:
        t = Text(end="")
        if card is None:
            t.append("No one selected.\n\n", style="bold")
            t.append("Tab selects the next resident; click one on the map; ctrl+p to go to anyone.",
                     style="dim")
            self.update(t)
            return
        if glyph:
            t.append(glyph + " ", style=f"bold {colour}" if colour else "bold")
        t.append(clean(card.name, single_line=True) + "\n", style="bold underline")
        if card.emoji:  # (cleaned on its own: the space after it is not folded away)
            t.append(plain(card.emoji, single_line=True))
            t.append(" ")
        t.append(plain(card.action or "(no action yet)", single_line=True))
        t.append("\n")
        if card.place:
            t.append("at ", style="dim")
            t.append(plain(card.place, single_line=True))
            t.append("\n")
        flags = []
        if card.embodied:
            flags.append("you are embodying them")
        if card.conversation:
            flags.append("in a conversation")
        if card.thinking:
            flags.append("thinking…")
        if flags:
            t.append(" · ".join(flags) + "\n", style="italic")
        why = source_words(card.source, card.thinking, asleep=card.asleep)
        if why:
            t.append(why, style="dim" if card.source in MODEL_LED else "yellow")
            if card.lead is not None:
                t.append(f" · {card.lead:.0%} of their day led by the model", style="dim")
            t.append("\n")
        self._section(t, "Today's plan", card.plan)
        self._section(t, "Recent memories", card.recent)
        self._section(t, "Recalled", card.retrieved)
        if card.relationships:
            t.append("\nRelationships\n", style="bold")
            for who, what in card.relationships.items():
                t.append("• ")
                t.append(plain(who, "bold", single_line=True))
                t.append(": ")
                t.append(plain(what, single_line=True))
                t.append("\n")
        self.update(t)

    @staticmethod
    def _section(t: Text, title: str, lines: list[str], limit: int = 12) -> None:
        if not lines:
            return
        t.append(f"\n{title}\n", style="bold")
        for line in lines[:limit]:
            t.append("• ")
            t.append(plain(line, single_line=True))
            t.append("\n")
        if len(lines) > limit:
            t.append(f"  … {len(lines) - limit} more\n", style="dim")


LOG_STYLE = {
    "conversation": "cyan",
    "reflection": "magenta",
    "whisper": "yellow",
    "object": "bold red",
    "plan": "green",
    "react": "bright_blue",
    "system": "dim",
    "error": "bold red",
}


LOG_LABEL = {
    "conversation": "talk",
    "reflection": "think",
    "whisper": "voice",
    "object": "world",
    "plan": "plan",
    "react": "react",
    "system": "town",
    "error": "error",
}


class TownLog(RichLog):
    """Notable events: conversations, reflections, whispers, object changes."""

    DEFAULT_CSS = "TownLog { scrollbar-size-vertical: 1; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(markup=False, highlight=False, wrap=True, max_lines=1000, min_width=20, id=id)
        self.lines_written = 0
        self.history: deque[str] = deque(maxlen=1000)  # the plain text of what was written

    def add(self, clock: str, line: LogLine) -> None:
        t = Text(end="")
        if clock:
            t.append(clean(clock, single_line=True).split(",")[-1].strip() + " ", style="dim")
        t.append(f"{LOG_LABEL.get(line.kind, line.kind)[:5]:<5} ", style=LOG_STYLE.get(line.kind, ""))
        who = clean(line.who or "", single_line=True)
        if who and not clean(line.text).startswith(who):
            t.append(who, style="bold")
            t.append(": ")
        t.append(plain(line.text))
        self.write(t)
        self.history.append(t.plain)
        self.lines_written += 1


class ModelLine(Static):
    """Calls in flight, queue, tokens/s, last error."""

    DEFAULT_CSS = "ModelLine { height: 1; background: $panel; padding: 0 1; }"

    _last = ""

    def show(self, status: ModelStatus | None, error: str | None = None, *,
             idle_text: str = "model: starting…") -> None:
        t = Text(end="", no_wrap=True, overflow="ellipsis")
        if status is None:
            t.append(idle_text, style="dim")
            if error:
                t.append("   last error: ", style="dim")
                t.append(clean(error, single_line=True), style="red")
            self.update(t)
            return
        ok = status.reachable
        t.append("● " if ok else "✖ ", style="green" if ok else "bold red")
        model = clean(status.model or "model", single_line=True)
        t.append(model, style="bold")
        t.append(f"  in flight {status.in_flight}")
        t.append(f"  queued {status.queued}")
        t.append(f"  {status.tokens_per_s:.1f} tok/s")
        spare = status.spare
        if spare is not None:  # the server's idle share of the last minute (game/engine/decisions/capacity.py)
            t.append(f"  idle {spare:.0%}")
        err = error or status.last_error
        if err:
            t.append("  last error: ", style="bold red")
            t.append(plain(err, "red", single_line=True))
        if t.plain != self._last:
            self._last = t.plain
            self.update(t, layout=False)
