"""The ``standin`` benchmark's settings (game/measure/swarm.py): the town, the server's slots and
stated rates, the stretch of game time, and the process's memory reading."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

NORMAL_TICK_S = 0.5  # game/engine/pace.py TICK_DELAY["normal"]

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
    extra: dict[str, object] = field(default_factory=dict)


def standard_config() -> SwarmConfig:
    """``town bench --only standin``: 100 residents, 32 slots, 05:30-06:30 at the normal rate (3 real minutes)."""
    return SwarmConfig(residents=100, slots=32, start="05:30", until="06:30")


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
