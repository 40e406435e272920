"""How fast the model server ran, from llama-server's own per-request timings: the first request's prompt
(the same prompt opens every run of a town from the same start, so it gauges the host) and the whole run's
prompt and generation rates.  Days run on different hosts, or on one host at different hours (the same
769-token first prompt took 14.3 s at 08:51 and 27.6 s at 12:10 on 2026-12-02), are compared by it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ServerGauge:
    """Sums of llama-server's ``timings`` (prompt_n, prompt_ms, predicted_n, predicted_ms) over a run."""

    first: tuple[int, float, int, float] | None = None
    prompt_n: int = 0
    prompt_ms: float = 0.0
    predicted_n: int = 0
    predicted_ms: float = 0.0
    requests: int = 0

    def note(self, prompt_n: int, prompt_ms: float, predicted_n: int, predicted_ms: float) -> None:
        if self.first is None:
            self.first = (prompt_n, prompt_ms, predicted_n, predicted_ms)
        self.prompt_n += prompt_n
        self.prompt_ms += prompt_ms
        self.predicted_n += predicted_n
        self.predicted_ms += predicted_ms
        self.requests += 1

    def as_dict(self) -> dict[str, float | int] | None:
        """The figures, rates in tokens a second of a slot's own time; None before any timings came."""
        if self.first is None:
            return None
        n, ms, _, _ = self.first
        return {"requests": self.requests,
                "first_prompt_tokens": n, "first_prompt_s": round(ms / 1000.0, 2),
                "prompt_tokens_per_s": _rate(self.prompt_n, self.prompt_ms),
                "generated_tokens_per_s": _rate(self.predicted_n, self.predicted_ms)}


def _rate(n: int, ms: float) -> float:
    return round(n / (ms / 1000.0), 2) if ms > 0 else 0.0


def format_gauge(g: dict | None) -> str:
    """One line of ``ServerGauge.as_dict``'s figures, "" without them."""
    if not g:
        return ""
    return (f"server speed: the first prompt, {g['first_prompt_tokens']} tokens, evaluated in {g['first_prompt_s']} s; "
            f"over {g['requests']} requests a slot evaluated {g['prompt_tokens_per_s']} and generated "
            f"{g['generated_tokens_per_s']} tokens a second of its time")
