"""Keeping a town: the engine's parts as one ``TownState`` (what a save holds) and taken back from
one, and the save file this town writes to (only what changed since, once it has written or loaded
it).  A part of ``Engine``; the file format itself is writing.py's."""

from __future__ import annotations

import random
from pathlib import Path

from game.engine import saves
from game.engine.commands import CommandError
from game.engine.decisions.jobs import JobBoard
from game.engine.decisions.ledger import DecisionLedger
from game.engine.state import TownState
from game.engine.talks.conversations import Conversations
from game.engine.things import Things
from game.engine.towncore import TownCore
from game.llm.accounting import accounting_of
from game.mind.memory.image import MemoryImage
from game.mind.mindstate import MindState


class Saver:
    """Owns ``path`` (the town's save file) and ``synced`` (save file -> what it holds).  Takes
    the core, the things, the job board and the talks: the parts whose state a save holds."""

    def __init__(self, core: TownCore, things: Things, board: JobBoard, talks: Conversations) -> None:
        self.core = core
        self.things = things
        self.board = board
        self.talks = talks
        self.path: str | None = None
        self.synced: dict[str, saves.SyncPoint] = {}

    def save(self, path: str | Path | None = None) -> str:
        """Write the town to ``path`` (or its own save path); returns the path.  A file this
        engine wrote or loaded gets only what changed since (game/engine/saves/writing.py)."""
        job = self.save_job(path)
        job.run()
        return job.finish()

    def save_job(self, path: str | Path | None = None) -> saves.SaveJob:
        """The town as it is now, ready to be written by ``SaveJob.run`` on any thread (the screen
        runs it off its own): the cheap part of a save.  ``SaveJob.finish`` on this thread after."""
        target = str(path or self.path or "")
        if not target:
            raise CommandError("no save file given and this town has none yet")
        sync = self.synced.get(saves.sync_key(target))
        return saves.SaveJob(saves.prepare(self.state(since=sync)), target, sync, done=self._saved)

    def _saved(self, job: saves.SaveJob) -> None:
        """A save job was written: the file is the town's save now, and what it holds is
        remembered (the next save to it writes what changed since)."""
        assert job.result is not None
        self.synced[saves.sync_key(job.path)] = job.result
        self.path = job.path

    def remember(self, path: str | Path, sync: saves.SyncPoint | None) -> None:
        """A save this engine was loaded from: its next save to it writes only what changed."""
        if sync is None:
            return
        sync.bind({name: (m.memory.uid, m.memory.version) for name, m in self.core.minds.items()})
        self.synced[saves.sync_key(path)] = sync

    def state(self, since: saves.SyncPoint | None = None) -> TownState:
        """The whole town as data (``game.engine.state.TownState``): what a save holds.  It refers to
        the live residents, talks and jobs: prepare it (``save.prepare``) before the next tick.
        ``since``: what a save file holds; the memory images then name what changed after it."""
        core = self.core
        accounting = accounting_of(core.llm)  # (a test's model may keep none)
        minds: dict[str, MindState] = {}
        memories: dict[str, MemoryImage | list[dict]] = {}
        for name in sorted(core.residents):
            mind = core.minds[name]
            minds[name] = mind.to_state(memory=False)
            held = since.streams.get(name) if since is not None else None
            version = held.version if held is not None and held.uid == mind.memory.uid else None
            memories[name] = mind.memory.image(version)
        version, internal, gauss = core.rng.getstate()
        return TownState(
            town_path=core.town_path, town_name=core.town.name, clock=core.clock.to_dict(),
            clock_text=core.clock.text(), seed=core.seed, rng=[version, list(internal), gauss],
            step_no=core.step_no, seq=self.board.seq, talk_seq=self.talks.seq, decision_ticks=core.decision_ticks,
            lockstep=core.lockstep, small=core.small, player=core.player, embodied=core.embodied,
            residents=dict(core.residents), minds=minds, memories=memories,
            spatial={n: sm.to_dict() for n, sm in core.spatial.items()}, objects=core.town.objects.to_dict(),
            object_news=dict(self.things.news), talks=dict(self.talks.talks),
            finished_talks=list(self.talks.finished_talks), jobs=sorted(self.board.jobs.values(), key=lambda j: j.seq),
            accounting=accounting.to_dict() if accounting is not None else None,
            ledger=core.ledger.to_dict())

    def restore(self, state: TownState) -> None:
        """Take on the engine's part of a saved town (the minds, map and clock were built from it)."""
        rng = random.Random()
        rng.setstate((state.rng[0], tuple(state.rng[1]), state.rng[2]))
        core = self.core
        core.rng = rng
        core.step_no = state.step_no
        self.board.seq = state.seq
        self.talks.seq = state.talk_seq
        core.embodied = state.embodied
        core.player = state.player
        core.residents.update(state.residents)
        core.town.objects.load_dict(state.objects)
        self.things.news = dict(state.object_news)
        self.talks.talks = dict(state.talks)
        self.talks.finished_talks = list(state.finished_talks)
        # their tasks are started by the first step() (the answers are asked again)
        self.board.jobs = {job.resident: job for job in state.jobs}
        core.ledger = DecisionLedger.from_dict(state.ledger)  # older saves have none: counting starts now
