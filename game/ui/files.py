"""Files: saving (ctrl+s, save as, autosave, on quit) and loading a town (ctrl+l).  A recorded run
being watched is not saved: it is forked (``game.ui.replay_controls``)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual import work

from game.engine.save import save_name
from game.ui.host import list_saves
from game.ui.screens import AskScreen, LoadScreen, QuitScreen
from game.ui.text import clean


class Files:
    """Owns ``save_path`` (where ctrl+s writes) and the saves folder."""

    def default_save_path(self) -> Path:
        if self.save_path is not None:
            return self.save_path
        return self.saves_dir / save_name(clean(getattr(self.engine.town, "name", "town"), single_line=True))

    async def save_to(self, path: Path, *, quiet: bool = False) -> bool:
        """Save the town to ``path``.  The screen never waits on the disk: the town is taken as it
        is now (cheap, here), written on a thread while the town plays on (only what changed,
        when ``path`` is the file it last saved or was loaded from), and handed back here.  One
        save at a time: a second waits for the first."""
        engine = self.engine
        if engine is None or self.replaying:  # a recording is not a town to save: fork it
            return False
        async with self._save_lock:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                job = engine.save_job(path)
                await asyncio.to_thread(job.run)
                job.finish()
            except Exception as e:
                self.save_error = clean(str(e), single_line=True)
                self._report_error(e, "save")
                return False
        self.save_error = ""
        self.last_save = (job.seconds, job.incremental)
        if engine is self.engine:
            self.save_path = path
        if not quiet:
            self.notify(f"Saved to {path}")
        return True

    def save_later(self, path: Path, *, quiet: bool = False) -> None:
        """``save_to`` as a worker: the key that asked for it returns at once."""
        self.run_worker(self.save_to(path, quiet=quiet), group="save", exit_on_error=False)

    def action_save(self) -> None:
        if self.engine is not None:
            self.save_later(self.default_save_path())

    def ask_save_as(self) -> None:
        def done(name: str | None) -> None:
            if name:
                self.save_later(self.saves_dir / save_name(name, keep="-_."))

        self.push_screen(AskScreen("Save as", "a name for this save", f"in {self.saves_dir}"), done)

    def _autosave(self) -> None:
        """Every ``autosave_s``: skipped while a save is still being written."""
        if self.engine is not None and not self._save_lock.locked():
            self.save_later(self.default_save_path(), quiet=True)

    def action_load(self) -> None:
        if self.llm is None:
            return

        def done(path: Path | None) -> None:
            if path is not None:
                self.load_save(path)

        self.push_screen(LoadScreen(list_saves(self.host, self.saves_dir)), done)

    @work(group="load", exclusive=True, exit_on_error=False)
    async def load_save(self, path: Path) -> None:
        """Load ``path``; the current town keeps running until the save has loaded (a bad save
        is reported and changes nothing)."""
        self.notify(f"Loading {path.name}…", timeout=2)
        engine = await self.host.load_engine(path, self.llm)
        old, self.engine = self.engine, engine  # the old engine loop stops at its next turn
        self._town_wake.set()
        self.save_path = path
        self.install_engine(engine)
        if old is not None:
            try:
                await asyncio.wait_for(old.aclose(), 5)
            except Exception as e:  # the old town's decisions are dropped either way
                self._report_error(e, "load")

    async def action_quit(self) -> None:
        """ctrl+q (Textual's quit) saves first too."""
        await self.action_quit_town()

    async def action_quit_town(self) -> None:
        """Quit, saving first (the save is where `town play SAVE` continues).  When the save fails
        the player chooses what happens (``QuitScreen``): the town is never lost silently."""
        if self.engine is not None and not self.replaying and not await self.save_to(self.default_save_path(),
                                                                                   quiet=True):
            self.push_screen(QuitScreen(self.save_error), self._quit_choice)
            return
        await self._close_and_exit()

    async def _quit_choice(self, choice: str | None) -> None:
        if choice == "retry":
            await self.action_quit_town()
        elif choice == "elsewhere":
            def where(text: str | None) -> None:
                if not text:
                    self.push_screen(QuitScreen(self.save_error), self._quit_choice)
                    return
                target = Path(text).expanduser()
                if target.is_dir() or text.endswith(("/", "\\")):
                    target = target / self.default_save_path().name
                self.run_worker(self._save_then_quit(target), group="save", exit_on_error=False)

            self.push_screen(AskScreen("Save elsewhere", "a folder or a file, e.g. ~/town.save",
                                       "where to write the town before quitting"), where)
        elif choice == "discard":
            await self._close_and_exit()
        # "stay" (or esc): back to the town, nothing lost

    async def _save_then_quit(self, target: Path) -> None:
        if await self.save_to(target, quiet=True):
            await self._close_and_exit()
        else:
            self.push_screen(QuitScreen(self.save_error), self._quit_choice)

    async def _close_and_exit(self) -> None:
        if self.engine is not None:
            engine, self.engine = self.engine, None
            try:
                await asyncio.wait_for(engine.aclose(), 5)
            except Exception:  # quitting: the town's decisions in flight are dropped either way
                pass
        self._town_closing.set()
        self.exit(return_code=self.exit_code)
