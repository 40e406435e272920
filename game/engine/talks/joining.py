"""How a talk written whole (``Conversations``) takes one who joins it, or one the player takes: a part
of ``Conversations``, over its talks and the job board."""

from __future__ import annotations

from game.engine.decisions.jobs import JobBoard
from game.engine.state import JobKind, Talk


def sit_in(name: str, talk: Talk, board: JobBoard) -> None:
    """One who joins a talk written whole: while its script is not asked yet, the newcomer brings
    its side and the script is asked again with it (a queued ``converse`` is dropped); once it is
    asked, being written or said, the newcomer listens to the rest and remembers it.  (Going on
    one line a call instead, ``by_lines``, made a lunch table of three or four cost a call a line:
    12-15 ran at x0.81 on ca91aae's day.)"""
    first = talk.conv.participants[0]
    job = board.jobs.get(first)
    writing = job is not None and job.kind == JobKind.CONVERSE and job.args.get("conversation") == talk.conv.id
    if talk.script or talk.next_at is not None or (writing and job is not None and job.task is not None):
        talk.sides[name] = ""  # no side asked: the script is written without the newcomer
    elif writing:
        board.cancel(first)  # asked again by ``run_script`` once the newcomer's side is in


def by_lines(talk: Talk, board: JobBoard) -> None:
    """The talk goes on one line per job from here (the player took a part): what was written of it
    and not said yet is dropped, and a script being written is not waited for (its answer is then
    ignored)."""
    if talk.mode != "lines":
        talk.mode, talk.script, talk.sides, talk.next_at = "lines", [], {}, None
        talk.conv.importance = None  # the lines from here on were not rated with the script
        for name in talk.conv.participants:
            job = board.jobs.get(name)
            if (job is not None and job.kind in (JobKind.SIDE, JobKind.CONVERSE)
                    and job.args.get("conversation") == talk.conv.id):
                board.cancel(name)
