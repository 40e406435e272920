"""The board of jobs in flight: one model-backed job per resident at a time.  A part of ``Engine``.

Any part asks a job here (``ask``) or stops caring for one (``cancel``); the lanes
(game/engine/decisions/lanes.py) start the jobs as tasks, run them by their kind and apply their answers.
"""

from __future__ import annotations

import asyncio
from datetime import datetime

from game.engine.state import Job, JobArgs, JobKind, Resident, ViewData
from game.engine.towncore import TownCore
from game.mind.view import WorldView


class JobBoard:
    """Owns ``jobs`` (resident -> its one job in flight), ``seq``, the last job's number, and the
    residents' observation buffers (``Resident.obs_buffer``, ``obs_since``: ``buffer`` fills one, a
    job takes it, a cancelled job gives it back).  Takes the core."""

    def __init__(self, core: TownCore) -> None:
        self.core = core
        self.jobs: dict[str, Job] = {}
        self.seq = 0

    def ask(self, r: Resident, kind: JobKind, now: datetime, args: JobArgs,
            view: WorldView | None = None) -> Job:
        """A job for ``r``, due ``decision_ticks`` from now; the observations waiting go with it,
        and ``view`` (what it knows of the world, for a decision) as plain data."""
        assert r.name not in self.jobs, f"{r.name} already has a job in flight"
        self.seq += 1
        obs, r.obs_buffer, r.obs_since = r.obs_buffer, [], None
        if view is not None:
            args = args.copy()
            args["view"] = view_to_dict(view)
        job = Job(seq=self.seq, resident=r.name, kind=kind, now=now,
                  ready_at=self.core.step_no + self.core.decision_ticks, args=args, observations=obs)
        self.jobs[r.name] = job
        return job

    def buffer(self, r: Resident, text: str, now: datetime) -> None:
        """What ``r`` saw, waiting for its next job (``ask`` hands it over; ``obs_since``: since when)."""
        if not r.obs_buffer:
            r.obs_since = now
        r.obs_buffer.append(text)

    def cancel(self, name: str) -> None:
        """Stop caring about ``name``'s job.  In lockstep a job already started is not cancelled but
        dropped: it runs to the end (what it did to the mind, observations stored, memories touched,
        happens whatever the timing) and its answer is thrown away at its own boundary, so a run
        and its replay stay identical (its lane is free again from that boundary on).  In real
        time it is cancelled at once."""
        job = self.jobs.get(name)
        if job is None:
            return
        if self.core.lockstep and job.task is not None:
            job.args["dropped"] = True
            return
        job = self.jobs.pop(name, None)
        if job is not None:
            if job.task is not None and not job.task.done():
                job.task.cancel()
            # observations already handed to the job go back to the buffer: nothing is lost
            r = self.core.residents[name]
            r.obs_buffer = job.observations + r.obs_buffer

    def due(self) -> list[asyncio.Task[object]]:
        """Lockstep: the tasks of jobs due at this boundary that have not finished."""
        step = self.core.step_no
        return [j.task for j in self.jobs.values() if j.ready_at <= step and j.task and not j.task.done()]

    def running(self) -> list[asyncio.Task[object]]:
        return [j.task for j in self.jobs.values() if j.task and not j.task.done()]


def view_to_dict(v: WorldView) -> ViewData:
    return {"now_text": v.now_text, "here": v.here, "here_text": v.here_text,
            "known_places": v.known_places, "allowed": list(v.allowed), "nearby": list(v.nearby),
            "people_here": list(v.people_here)}


def view_from_dict(d: ViewData) -> WorldView:
    return WorldView.make(**d)
