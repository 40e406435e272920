"""What the benchmarks share (``game.measure.bench``, ``game.measure.bench_saves`` and the screen's
own, ``game.ui.bench``): the machine they ran on, a median timer, random unit embeddings and the
benchmark model double (bench/fake_llm.py in the repository)."""

from __future__ import annotations

import importlib.util
import os
import platform
import statistics
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Protocol

import numpy as np

from game.llm.api import LLM

ROOT = Path(__file__).resolve().parents[2]
DIM = 384  # all-MiniLM-L6-v2


class CountingLLM(LLM, Protocol):
    """The benchmark double: a model layer that answers at once and counts its calls."""

    calls: int


def machine() -> dict[str, object]:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load: float | None = os.getloadavg()[0]
    except OSError:
        load = None
    return {"nproc": os.cpu_count(), "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count(), "cpu": cpu or platform.processor(), "python": platform.python_version(),
            "numpy": np.__version__, "load_1min": round(load, 2) if load is not None else None,
            "when": datetime.now().strftime("%Y-%m-%d %H:%M")}


def median_ms(fn: Callable[[], object], n: int) -> tuple[float, float]:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), min(times)


def unit_rows(rng: np.random.Generator, n: int, dim: int = DIM) -> np.ndarray:
    v = rng.standard_normal((n, dim)).astype(np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    return v


def bench_double() -> CountingLLM:
    path = ROOT / "bench" / "fake_llm.py"
    if not path.is_file():
        raise RuntimeError(f"the tick benchmark needs the repository's {path} (a benchmark double)")
    spec = importlib.util.spec_from_file_location("town_bench_fake_llm", path)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    double: CountingLLM = mod.FakeInstantLLM()
    return double


def clone_specs(specs: list[dict], n: int) -> list[dict]:
    """``n`` resident specs from ``specs``, repeated past their number under new first names
    ("Grace2 Okafor" lives in Grace Okafor's home and works where she works; no fixed spawn)."""
    out = []
    for i in range(n):
        s = dict(specs[i % len(specs)])
        if i >= len(specs):
            first, *rest = s["name"].split()
            s["name"] = f"{first}{i // len(specs) + 1} {' '.join(rest)}".strip()
            s["spawn"] = None
        out.append(s)
    return out
