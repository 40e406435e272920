"""Player actions: every way of playing (walk, talk, whisper, embody, change an object, speed).
Each becomes one engine ``Command``; a refused one is a warning, anything else goes to the one
place failures are shown."""

from __future__ import annotations

from textual.app import App

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
from game.settings import SPEEDS
from game.ui.main_screen import Widgets
from game.ui.mapview import PLAYER, Pos
from game.ui.panels import Panels
from game.ui.screens import AskScreen, TalkScreen, VisitorScreen
from game.ui.session import Session
from game.ui.text import clean


class PlayerActions:
    """Owns ``resume_speed`` (what space resumes at); the speed itself is the session's, the
    selection and the talk on screen are the panels'."""

    def __init__(self, app: App[int], session: Session, panels: Panels, widgets: Widgets) -> None:
        self.app = app
        self.session = session
        self.panels = panels
        self.widgets = widgets
        self.resume_speed = "normal"

    def _pos(self, name: str | None) -> Pos | None:
        mv = self.widgets.map_view
        if mv is None or name is None or name not in mv.actors:
            return None
        return mv.actors[name].pos

    def neighbours(self) -> list[str]:
        """Residents within talking range of the controlled actor, nearest first."""
        me = self.session.controlled
        p = self._pos(me)
        mv = self.widgets.map_view
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
        engine = self.session.engine
        if engine is None:
            self.app.notify("The town is still starting.", severity="warning")
            return False
        try:
            engine.submit(command)
        except CommandError as e:  # the player asked for something that cannot be done now
            self.app.notify(clean(str(e), single_line=True), severity="warning", timeout=5)
            return False
        except Exception as e:  # anything else is a failure, shown in the one place (test_play.py)
            self.panels.report_error(e, "command")
            return False
        self.session.wake.set()  # a paused screen collects the result at once
        return True

    def move_player(self, dx: int, dy: int) -> None:
        who = self.session.controlled
        if who is None:
            self.app.notify("You are watching. Press v to walk into town, or b to embody a resident.",
                            timeout=3)
            return
        mv = self.widgets.map_view
        pos = self._pos(who)
        if mv is None or pos is None:
            return
        dst = (pos[0] + dx, pos[1] + dy)
        if not mv.walkable(dst):
            self.app.bell()
            return
        if self.submit(MovePlayer(dx, dy)) and self.session.engine is not None:
            # the engine moves the player at once: draw it now, not at the next tick
            mv.move(who, self.session.engine.positions().get(who, dst))
            mv.follow = who

    def visitor(self) -> None:
        if self.session.engine is None:
            return
        if self.session.visitor:
            self.app.notify(f"You are already in town as {self.session.visitor}.")
            return

        def done(result: tuple[str, str] | None) -> None:
            if result is None:
                return
            name, about = result
            if self.submit(EnterAsVisitor(name, about)):
                self.panels.place_visitor()
                self.app.notify(f"{name} walks into town. Arrows/WASD walk, t talks.")

        self.app.push_screen(VisitorScreen(), done)

    def talk(self) -> None:
        if self.session.controlled is None:
            self.app.notify("Walk in first (v), or embody a resident (b), then stand next to someone.")
            return
        near = self.neighbours()
        if not near:
            self.app.notify("No one is next to you. Walk up to a resident (x whispers from anywhere).")
            return
        selected = self.panels.selected_name
        self.open_talk(selected if selected in near and selected is not None else near[0])

    def open_talk(self, resident: str) -> None:
        # the conversation begins now: the resident stops to listen and gets its reply ready
        if not self.submit(OpenTalk(resident)):
            return
        talk = self.panels.talk = TalkScreen(self.session.speaker_name, resident)
        talk.started = True
        self.session.wake.set()

        def closed(_: object) -> None:
            self.panels.talk = None

        self.app.push_screen(talk, closed)

    def typing(self, resident: str, text: str) -> None:
        """What the player has typed so far (a hint to the town; nothing to tell the player)."""
        engine = self.session.engine
        if engine is None:
            return
        try:
            engine.submit(Typing(resident, text))
        except CommandError:
            pass
        except Exception as e:  # noqa: BLE001 - a failure, shown in the one place (test_play.py)
            self.panels.report_error(e, "command")

    def say_to(self, resident: str, text: str) -> None:
        self.submit(SayToResident(resident, text))

    def end_conversation(self, resident: str) -> None:
        self.submit(EndConversation(resident))

    def whisper(self) -> None:
        name = self.panels.selected_name
        if name is None:
            self.app.notify("Select a resident first (Tab, click, or ctrl+p → Whisper to …).")
            return
        self.ask_whisper(name)

    def ask_whisper(self, name: str) -> None:
        def done(text: str | None) -> None:
            if text and self.submit(Whisper(name, text)):
                self.app.notify(f"{name} hears a thought: “{text}”")

        self.app.push_screen(AskScreen(f"Whisper to {name}",
                                       "e.g. you will run for mayor",
                                       f"{name} takes these words as their own thought."), done)

    def toggle_embody(self) -> None:
        if self.session.embodied:
            self.release()
            return
        if self.panels.selected_name is None:
            self.app.notify("Select a resident to embody first (Tab or click).")
            return
        self.embody(self.panels.selected_name)

    def embody(self, name: str) -> None:
        if self.session.embodied == name:
            return
        if self.session.embodied:
            self.release()
        if self.submit(Embody(name)):
            mv = self.widgets.map_view
            if mv is not None:
                mv.controlled = name
                mv.follow = name
                mv.refresh()
            self.panels.select(name, follow=False)
            self.app.notify(f"You are {name} now. Arrows walk, t talks, b hands {name} back.")

    def release(self) -> None:
        name = self.session.embodied
        if not name:
            self.app.notify("You are not embodying anyone.")
            return
        if self.submit(Release()):
            mv = self.widgets.map_view
            if mv is not None:
                mv.controlled = self.session.controlled
                mv.follow = self.session.controlled
                mv.refresh()
                if name in mv.actors:
                    mv.invalidate_row(mv.actors[name].pos[1])
            self.panels.update_clock()
            self.app.notify(f"{name} is their own again.")

    def change_object(self) -> None:
        def done(text: str | None) -> None:
            if text and self.submit(SetObjectState(text)):
                self.app.notify(f"The world changes: {text}")

        self.app.push_screen(AskScreen("Change the world", "the stove in the Lin kitchen is on fire",
                                       "Say what is now true of an object; people nearby will notice."), done)

    def follow(self) -> None:
        mv = self.widgets.map_view
        if mv is None:
            return
        selected = self.panels.selected_name
        if mv.follow == selected or selected is None:
            mv.follow = self.session.controlled
        else:
            mv.follow = selected
        self.panels.update_clock()

    def set_speed(self, speed: str) -> None:
        if speed not in SPEEDS:
            return
        self.session.speed = speed
        self.session.wake.set()
        self.panels.update_clock()

    def toggle_pause(self) -> None:
        if self.session.speed == "pause":
            self.set_speed(self.resume_speed)
        else:
            self.resume_speed = self.session.speed
            self.set_speed("pause")
