"""Files: saving (ctrl+s, save as, autosave, on quit) and loading a town (ctrl+l).  A recorded run
being watched is not saved: it is forked (``game.ui.replay_controls``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.app import App

from game.engine.saves import save_name
from game.errors import GameError
from game.ui.host import GameHost, list_saves
from game.ui.panels import Panels
from game.ui.screens import AskScreen, LoadScreen, QuitScreen
from game.ui.session import Session
from game.ui.text import clean
from game.ui.worker import EngineWorker


class Files:
    """Owns the saves folder, the autosave and the last save's figures (``last_save``); where
    ctrl+s writes is the session's ``save_path``."""

    def __init__(self, app: App[int], session: Session, panels: Panels, worker: EngineWorker, host: GameHost,
                 saves_dir: Path, autosave_s: float) -> None:
        self.app = app
        self.session = session
        self.panels = panels
        self.worker = worker
        self.host = host
        self.saves_dir = saves_dir
        self.autosave_s = autosave_s  # seconds between autosaves; 0: none
        self.save_error = ""  # why the last save failed (the quit dialog shows it)
        self.last_save: tuple[float, bool] | None = None  # the last save's seconds on disk, whether of changes
        self._lock = asyncio.Lock()  # one save at a time

    def default_save_path(self) -> Path:
        session = self.session
        if session.save_path is not None:
            return session.save_path
        name = session.engine.town.name if session.engine is not None else "town"
        return self.saves_dir / save_name(clean(name, single_line=True))

    async def save_to(self, path: Path, *, quiet: bool = False) -> bool:
        """Save the town to ``path``.  The screen never waits on the disk: the town is taken as it
        is now (cheap, here), written on a thread while the town plays on (only what changed,
        when ``path`` is the file it last saved or was loaded from), and handed back here.  One
        save at a time: a second waits for the first."""
        engine = self.session.engine
        if engine is None or self.session.replaying:  # a recording is not a town to save: fork it
            return False
        async with self._lock:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                job = engine.save_job(path)
                await asyncio.to_thread(job.run)
                job.finish()
            except (GameError, OSError) as e:  # a SaveError, a save refused (CommandError), the folder
                self.save_error = clean(str(e), single_line=True)
                self.panels.report_error(e, "save")
                return False
        self.save_error = ""
        self.last_save = (job.seconds, job.incremental)
        if engine is self.session.engine:
            self.session.save_path = path
        if not quiet:
            self.app.notify(f"Saved to {path}")
        return True

    def save_later(self, path: Path, *, quiet: bool = False) -> None:
        """``save_to`` as a worker: the key that asked for it returns at once."""
        self.app.run_worker(self.save_to(path, quiet=quiet), group="save", exit_on_error=False)

    def save(self) -> None:
        if self.session.engine is not None:
            self.save_later(self.default_save_path())

    def ask_save_as(self) -> None:
        def done(name: str | None) -> None:
            if name:
                self.save_later(self.saves_dir / save_name(name, keep="-_."))

        self.app.push_screen(AskScreen("Save as", "a name for this save", f"in {self.saves_dir}"), done)

    def autosave(self) -> None:
        """Every ``autosave_s``: skipped while a save is still being written."""
        if self.session.engine is not None and not self._lock.locked():
            self.save_later(self.default_save_path(), quiet=True)

    def load(self) -> None:
        if self.session.llm is None:
            return

        def done(path: Path | None) -> None:
            if path is not None:
                self.load_save(path)

        self.app.push_screen(LoadScreen(list_saves(self.host, self.saves_dir)), done)

    def load_save(self, path: Path) -> None:
        self.app.run_worker(self._load_save(path), group="load", exclusive=True, exit_on_error=False)

    async def _load_save(self, path: Path) -> None:
        """Load ``path``; the current town keeps running until the save has loaded (a bad save
        is reported and changes nothing)."""
        llm = self.session.llm
        if llm is None:
            return
        self.app.notify(f"Loading {path.name}…", timeout=2)
        engine = await self.host.load_engine(path, llm)
        self.session.save_path = path
        await self.worker.close_engine(self.worker.swap_engine(engine), "load")

    async def quit_town(self) -> None:
        """Quit, saving first (the save is where `town play SAVE` continues).  When the save fails
        the player chooses what happens (``QuitScreen``): the town is never lost silently."""
        if self.session.engine is not None and not self.session.replaying and \
                not await self.save_to(self.default_save_path(), quiet=True):
            self.app.push_screen(QuitScreen(self.save_error), self._quit_choice)
            return
        await self.close_and_exit()

    async def _quit_choice(self, choice: str | None) -> None:
        if choice == "retry":
            await self.quit_town()
        elif choice == "elsewhere":
            def where(text: str | None) -> None:
                if not text:
                    self.app.push_screen(QuitScreen(self.save_error), self._quit_choice)
                    return
                target = Path(text).expanduser()
                if target.is_dir() or text.endswith(("/", "\\")):
                    target = target / self.default_save_path().name
                self.app.run_worker(self._save_then_quit(target), group="save", exit_on_error=False)

            self.app.push_screen(AskScreen("Save elsewhere", "a folder or a file, e.g. ~/town.save",
                                           "where to write the town before quitting"), where)
        elif choice == "discard":
            await self.close_and_exit()
        # "stay" (or esc): back to the town, nothing lost

    async def _save_then_quit(self, target: Path) -> None:
        if await self.save_to(target, quiet=True):
            await self.close_and_exit()
        else:
            self.app.push_screen(QuitScreen(self.save_error), self._quit_choice)

    async def close_and_exit(self) -> None:
        session = self.session
        if session.engine is not None:
            engine, session.engine = session.engine, None
            try:
                await asyncio.wait_for(engine.aclose(), 5)
            except TimeoutError:  # quitting: the town's decisions in flight are dropped either way
                pass
        session.closing.set()
        self.app.exit(return_code=session.exit_code)
