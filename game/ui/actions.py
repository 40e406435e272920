"""Player actions: who the player is (the engine's visitor or embodied resident, never a copy),
who is selected, and every way of playing (walk, talk, whisper, embody, change an object, speed).
Each becomes one engine ``Command``; a refused one is a warning, anything else goes to the one
place failures are shown."""

from __future__ import annotations

from typing import Any

from game.engine import CommandError
from game.engine.events import (
    Command,
    Embody,
    EndConversation,
    EnterAsVisitor,
    MovePlayer,
    OpenTalk,
    Release,
    SayToResident,
    SetObjectState,
    Typing,
    Whisper,
)
from game.engine.tuning import TALK_RANGE
from game.ui.mapview import PLAYER
from game.ui.messages import Said, Select, SelectStep, TalkClosed, Typed, Walk
from game.ui.screens import AskScreen, HelpScreen, TalkScreen, VisitorScreen
from game.ui.text import clean
from game.ui.widgets import SPEEDS


class PlayerActions:
    """Owns ``selected_name``, ``speed`` and the talk on screen."""

    selected_name: str | None = None

    @property
    def embodied(self) -> str | None:
        """The resident the player speaks and walks for: the engine's, never a copy (a loaded save
        may hold one)."""
        return self.engine.embodied if self.engine is not None else None

    @property
    def visitor(self) -> str | None:
        """The visitor's name once the player walked in (the engine's)."""
        player = self.engine.player if self.engine is not None else None
        return player.name if player is not None else None

    @property
    def controlled(self) -> str | None:
        """The actor the arrow keys move: the embodied resident, else the visitor."""
        if self.embodied:
            return self.embodied
        return PLAYER if self.visitor else None

    @property
    def speaker_name(self) -> str:
        return self.embodied or self.visitor or "you"

    def resident_names(self) -> list[str]:
        return sorted(self.residents)

    def select(self, name: str | None, *, follow: bool = True) -> None:
        self.selected_name = name
        mv = self.map_view
        if mv is not None:
            mv.selected = name
            if follow and name is not None and self.controlled is None:
                mv.follow = name
        self.panel_dirty = True
        self.refresh_panel()
        self._update_clock()

    def select_step(self, step: int) -> None:
        names = self.resident_names()
        if not names:
            return
        cur = self.selected_name
        i = names.index(cur) + step if cur in names else (0 if step > 0 else -1)
        self.select(names[i % len(names)])

    def go_to(self, name: str) -> None:
        self.select(name, follow=False)
        mv = self.map_view
        if mv is not None:
            mv.follow = name
            self._update_clock()

    def _pos(self, name: str | None) -> tuple[int, int] | None:
        mv = self.map_view
        if mv is None or name not in mv.actors:
            return None
        return mv.actors[name].pos  # type: ignore[index]

    def neighbours(self) -> list[str]:
        """Residents within talking range of the controlled actor, nearest first."""
        me = self.controlled
        p = self._pos(me)
        mv = self.map_view
        if p is None or mv is None:
            return []
        near = []
        for name, a in mv.actors.items():
            if name in (me, PLAYER):
                continue
            d = max(abs(a.pos[0] - p[0]), abs(a.pos[1] - p[1]))
            if d <= TALK_RANGE:
                near.append((d, name))
        return [n for _, n in sorted(near)]

    def submit(self, command: Command) -> bool:
        if self.engine is None:
            self.notify("The town is still starting.", severity="warning")
            return False
        try:
            self.engine.submit(command)
        except CommandError as e:  # the player asked for something that cannot be done now
            self.notify(clean(str(e), single_line=True), severity="warning", timeout=5)
            return False
        except Exception as e:  # anything else is a failure, shown in the one place
            self._report_error(e, "command")
            return False
        self._town_wake.set()  # a paused screen collects the result at once
        return True

    def on_walk(self, message: Walk) -> None:
        self.move_player(message.dx, message.dy)

    def on_select_step(self, message: SelectStep) -> None:
        self.select_step(message.step)

    def on_select(self, message: Select) -> None:
        self.select(message.name)

    def on_typed(self, message: Typed) -> None:
        self.typing(message.resident, message.text)

    def on_said(self, message: Said) -> None:
        self.say_to(message.resident, message.text)

    def on_talk_closed(self, message: TalkClosed) -> None:
        self.end_conversation(message.resident)

    def move_player(self, dx: int, dy: int) -> None:
        who = self.controlled
        if who is None:
            self.notify("You are watching. Press v to walk into town, or b to embody a resident.",
                        timeout=3)
            return
        mv = self.map_view
        pos = self._pos(who)
        if mv is None or pos is None:
            return
        dst = (pos[0] + dx, pos[1] + dy)
        if not mv.walkable(dst):
            self.bell()
            return
        if self.submit(MovePlayer(dx, dy)):
            # the engine moves the player at once: draw it now, not at the next tick
            mv.move(who, self.engine.positions().get(who, dst))
            mv.follow = who

    def action_visitor(self) -> None:
        if self.engine is None:
            return
        if self.visitor:
            self.notify(f"You are already in town as {self.visitor}.")
            return

        def done(result: tuple[str, str] | None) -> None:
            if result is None:
                return
            name, about = result
            if self.submit(EnterAsVisitor(name, about)):
                self._place_visitor()
                self.notify(f"{name} walks into town. Arrows/WASD walk, t talks.")

        self.push_screen(VisitorScreen(), done)

    def _place_visitor(self) -> None:
        mv = self.map_view
        if mv is None:
            return
        pos = self.engine.positions().get(PLAYER)
        if pos is not None:
            mv.add_actor(self._actor(PLAYER, pos))
        if self.embodied is None:
            mv.controlled = PLAYER
            mv.follow = PLAYER
        self._update_clock()

    def action_talk(self) -> None:
        if self.controlled is None:
            self.notify("Walk in first (v), or embody a resident (b), then stand next to someone.")
            return
        near = self.neighbours()
        if not near:
            self.notify("No one is next to you. Walk up to a resident (x whispers from anywhere).")
            return
        who = self.selected_name if self.selected_name in near else near[0]
        self.open_talk(who)

    def open_talk(self, resident: str) -> None:
        # the conversation begins now: the resident stops to listen and gets its reply ready
        if not self.submit(OpenTalk(resident)):
            return
        self.talk = TalkScreen(self.speaker_name, resident)
        self.talk.started = True
        self._town_wake.set()

        def closed(_: Any) -> None:
            self.talk = None

        self.push_screen(self.talk, closed)

    def typing(self, resident: str, text: str) -> None:
        """What the player has typed so far (a hint to the town; nothing to tell the player)."""
        if self.engine is None:
            return
        try:
            self.engine.submit(Typing(resident, text))
        except CommandError:
            pass
        except Exception as e:  # noqa: BLE001 - a failure, shown in the one place
            self._report_error(e, "command")

    def say_to(self, resident: str, text: str) -> None:
        self.submit(SayToResident(resident, text))

    def end_conversation(self, resident: str) -> None:
        self.submit(EndConversation(resident))

    def action_whisper(self) -> None:
        name = self.selected_name
        if name is None:
            self.notify("Select a resident first (Tab, click, or ctrl+p → Whisper to …).")
            return
        self.ask_whisper(name)

    def ask_whisper(self, name: str) -> None:
        def done(text: str | None) -> None:
            if text and self.submit(Whisper(name, text)):
                self.notify(f"{name} hears a thought: “{text}”")

        self.push_screen(AskScreen(f"Whisper to {name}",
                                   "e.g. you will run for mayor",
                                   f"{name} takes these words as their own thought."), done)

    def action_embody(self) -> None:
        if self.embodied:
            self.release()
            return
        if self.selected_name is None:
            self.notify("Select a resident to embody first (Tab or click).")
            return
        self.embody(self.selected_name)

    def embody(self, name: str) -> None:
        if self.embodied == name:
            return
        if self.embodied:
            self.release()
        if self.submit(Embody(name)):
            mv = self.map_view
            if mv is not None:
                mv.controlled = name
                mv.follow = name
                mv.refresh()
            self.select(name, follow=False)
            self.notify(f"You are {name} now. Arrows walk, t talks, b hands {name} back.")

    def release(self) -> None:
        if not self.embodied:
            self.notify("You are not embodying anyone.")
            return
        name = self.embodied
        if self.submit(Release()):
            mv = self.map_view
            if mv is not None:
                mv.controlled = self.controlled
                mv.follow = self.controlled
                mv.refresh()
                for n in (name,):
                    if n in mv.actors:
                        mv._invalidate(mv.actors[n].pos[1])
            self._update_clock()
            self.notify(f"{name} is their own again.")

    def action_object(self) -> None:
        def done(text: str | None) -> None:
            if text and self.submit(SetObjectState(text)):
                self.notify(f"The world changes: {text}")

        self.push_screen(AskScreen("Change the world", "the stove in the Lin kitchen is on fire",
                                   "Say what is now true of an object; people nearby will notice."), done)

    def action_follow(self) -> None:
        mv = self.map_view
        if mv is None:
            return
        if mv.follow == self.selected_name or self.selected_name is None:
            mv.follow = self.controlled
        else:
            mv.follow = self.selected_name
        self._update_clock()

    def set_speed(self, speed: str) -> None:
        if speed not in SPEEDS:
            return
        self.speed = speed
        self._town_wake.set()
        self._update_clock()

    def action_speed(self, speed: str) -> None:
        self.set_speed(speed)

    def action_toggle_pause(self) -> None:
        if self.speed == "pause":
            self.set_speed(self.resume_speed)
        else:
            self.resume_speed = self.speed
            self.set_speed("pause")

    def action_help(self) -> None:
        self.push_screen(HelpScreen())
