"""The mind's settings and the shared constants its parts use (call budgets, retrieval sizes).

Their own module so that every part of the mind (planning, reacting, dialogue, ...) can import
them without importing the ``Mind`` that is composed of those parts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from game.mind.memory.stream import Weights

Embedder = Callable[[list[str]], Awaitable[list[list[float]]]]


@dataclass
class MindConfig:
    reflect_threshold: float = 150.0
    importance_batch: int = 30  # score this many new memories in one call (10 made 9 calls a resident-day, 20 made 7.2)
    importance_max_wait_min: int = 120  # ... or whatever is pending once the oldest is this old
    dedupe_minutes: int = 60  # the same sight within this many minutes refreshes, not re-stores
    max_block_min: int = 120  # hour blocks longer than this are decomposed in parts
    # one decompose call covers the block in progress and the whole blocks after it until the
    # window spans this much, never past the max: a plan of two-hour blocks (or a long block cut
    # into parts of max_block_min) is decomposed about four hours a call, not two.  Each call's
    # prompt costs the embedded model more than its steps do (about 300 prompt tokens evaluated,
    # 5 s on two cores, against 0.5 s a step written beside other calls: docs/MODEL.md)
    decompose_window_min: int = 180
    decompose_window_max: int = 240
    # calls about everyday sights and the talks written whole (16 made 13.4 a resident-day); urgent news always
    max_reacts_per_day: int = 8
    max_talks_per_day: int = 5  # conversations a resident starts (or has had) in a day before it stops starting more
    max_lines_per_day: int = 30
    max_turns_per_speaker: int = 4  # per conversation
    # a whole talk asked with each speaker's own points to bring up (talk/points.py); off: as before
    talk_points: bool = True
    # a whole talk asked from each side's public self and only the memories about the others
    # (talk/drawn.py); off: every memory the talk brings to mind, and the starter's whole self
    talk_narrow: bool = True
    # each line of a whole talk first names the point it brings up, one of its speaker's own
    # (schemas.tagged_script_answer), or "reply" (issue 39)
    talk_tagged: bool = False
    # the same words of a sight are not considered twice within this, whoever asks (per text; the
    # engine holds back a person or thing seen longer, per subject: engine/tuning.py SUBJECT_COOLDOWN)
    percept_cooldown_min: int = 30
    told_floor: float = 5.0  # what someone said to the resident is at least "notable" once scored
    retrieve_k: int = 6
    memory_tokens: int = 220
    places_in_prompt: int = 40
    weights: Weights = field(default_factory=Weights)


# what "You remember" shows when the plan is already in the context
MEMORY_KINDS = ("observation", "conversation", "whisper", "reflection", "player")
