"""The ``standin`` benchmark's settings (game/measure/swarm.py): the town, the server's slots and
stated rates, the stretch of game time, and the process's memory reading."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

NORMAL_TICK_S = 0.5  # game/engine/running/pace.py TICK_DELAY["normal"]

# The stand-in's default rates (tokens/s in one slot, 32 slots busy): llama.cpp's
# llama-batched-bench in ggml-org/llama.cpp PR #3545 (LLaMA 7B F16 on one GPU), 32 parallel
# sequences: 443.6 tokens/s generated over 32 sequences (13.9 a sequence) and prompts evaluated
# at 1,084 tokens/s with 128-token prompts (1,302 with 2,048-token ones).
DECODE_RATE = 13.9
PREFILL_RATE = 1084.0


@dataclass
class SwarmConfig:
    residents: int = 100
    slots: int = 32
    decode_rate: float = DECODE_RATE
    prefill_rate: float = PREFILL_RATE
    start: str = "05:30"
    until: str = "08:00"
    speedup: float = 1.0
    llm_url: str | None = None
    embed_url: str | None = None
    ville: str | None = None  # the_ville folder (../shared/the_ville): its 25 residents as the base
    town: str | None = None  # or any town folder as the base
    trace_memory: bool = False
    policy: str = "lead"
    # the stand-in answers HTTP 429 to this share of chat requests (Retry-After: retry_after, if
    # given); hide_slots: its /props says nothing (the client finds how many from answer times)
    refuse: float = 0.0
    retry_after: float | None = None
    hide_slots: bool = False
    # past this many residents the town is the base town repeated in blocks of about this many
    # (game/measure/bigtown.py); 0: every resident in the one base town
    per_block: int = 100
    extra: dict[str, object] = field(default_factory=dict)


def standard_config() -> SwarmConfig:
    """``town bench --only standin``: 100 residents, 32 slots, 05:30-06:30 at the normal rate (3 real minutes)."""
    return SwarmConfig(residents=100, slots=32, start="05:30", until="06:30")


def scale_config(residents: int, *, quick: bool = False) -> SwarmConfig:
    """The scale table's run (bench/scale.py): ``residents`` from 08:00 (the morning rush) for one
    game hour at the normal rate, with a slot for every three residents (32 for 100; enough: the
    100-resident runs never had more than 31 busy), or with ``quick`` ten game minutes."""
    return SwarmConfig(residents=residents, slots=max(4, -(-residents // 3)), start="08:00",
                       until="08:10" if quick else "09:00")


def quick_config() -> SwarmConfig:
    """``--quick``: 10 residents, 4 slots, five game minutes at 5x (seconds)."""
    return SwarmConfig(residents=10, slots=4, start="06:00", until="06:05", speedup=5.0)


def rss_mb() -> float | None:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError):
        pass
    return None
