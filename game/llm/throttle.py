"""How many requests the client keeps in flight: as many as the server can take, found from the
server itself rather than fixed.

- **A server that says how many slots it has** (llama-server's ``/props`` ``total_slots``, or
  ``TOWN_LLM_SLOTS``) gets that many: its slots are what it batches, and the game fills them.
- **A server that says nothing** (vLLM, a router in front of several servers, a cloud API) starts
  at ``start`` and the limit follows its answer times, a latency gradient after Netflix's
  concurrency-limits ("Gradient2"): each answer's time is set against the usual time of its
  purpose (a long-term average that comes down at once and goes up only slowly, so it stays near
  what the purpose costs on an idle server).  While work waits for the limit and recent answers
  (an average of about ten) take no more than ``tolerance`` times their usual, the limit grows:
  by ``smoothing * sqrt(limit)`` an answer (about x1.8 a round) until the server first shows it
  is full, then by ``1 / sqrt(limit)`` an answer (about ``sqrt(limit)`` a round, Gradient2's
  queue allowance).  When they take longer it is cut in proportion (``tolerance / recent``, at
  most halved), once a round, as refusals are.  While nothing waits the limit holds nothing back
  and stays as it is.  A server that queues what it cannot batch (its answer times grow with
  what is in flight, its throughput does not) so gets about what it can batch.
- **A refusal** (HTTP 429, 503: ``refused``) cuts the limit, once a round (the refusals of
  requests sent before the last cut, or before half the new limit's worth of answers came back,
  do not cut again: a burst of refusals from one overload is one signal, and refusals come back
  at once while answers take their time), by ``1 - share / 2``, ``share`` being the part of the
  last answers (about a round's) that were refusals: one that refuses a fixed share of
  everything (a rate limit drawn at random, the stand-in's ``--refuse``) costs a sixth a round for
  a third refused, which the answers between win back, so its slots stay nearly full; one that
  refuses what it holds past its capacity is sent about two to three times that (the refused wait
  their back-off outside the slots and are asked again; the server stays full).  A server that states its slots gets
  back to them by half a request an answer while work waits; one that does not, as above.

The limit is never above ``ceiling`` (the stated slots, or ``TOWN_LLM_MAX_IN_FLIGHT``) nor below
``floor``.  Pure bookkeeping with no clock or I/O: the scheduler asks ``value`` and reports each
request's start (``ticket``) and its end (``answered``, ``refused``).
"""

from __future__ import annotations

import math

# an answer's time against its purpose's usual: how fast the usual follows an answer below it
# (at once, nearly) and above it (slowly: a server that stays slow is not taken as the new usual)
# (under a lasting overload every answer is slow: the usual creeps up about 5% in 100 answers)
_DOWN = 0.2
_UP = 0.0005
_SHORT = 2 / (10 + 1)  # the recent answer times' average: about the last ten answers


class Throttle:
    def __init__(self, ceiling: int = 4, *, stated: bool = True, start: int = 4, floor: int = 1,
                 tolerance: float = 2.0, smoothing: float = 0.2) -> None:
        self.ceiling = max(1, int(ceiling))
        self.floor = max(1, min(int(floor), self.ceiling))
        self.stated = stated
        self.tolerance = max(1.0, float(tolerance))
        self.smoothing = min(1.0, max(0.0, float(smoothing)))
        self.limit = float(self.ceiling if stated else min(max(start, self.floor), self.ceiling))
        self._tickets = 0  # requests started
        self._cut_at = 0  # the last ticket given before the last cut
        self._answers = 0  # answers since the last cut
        self._needs = 0  # answers since the last cut before a refusal may cut again
        self._usual: dict[str, float] = {}  # purpose -> its usual answer time (s)
        self.recent = 1.0  # recent answer times over their purposes' usual ones (an average)
        self.share = 0.0  # the part of the last answers (about a round's) that were refusals
        self.refusals = 0  # refusals reported
        self.cuts = 0  # times the limit was cut for them
        self.slowdowns = 0  # times it was cut for answers slower than ``tolerance`` times the usual
        self._probing = True  # growing fast until the server first shows it is full
        self.lowest = self.value  # the lowest the limit went (for reports)

    @property
    def value(self) -> int:
        """The number of requests that may be in flight now."""
        return max(self.floor, min(self.ceiling, int(self.limit)))

    def state(self, slots: int) -> None:
        """The server said it has ``slots`` slots: the limit is that many from now on (refusals
        still cut it)."""
        self.ceiling = max(1, int(slots))
        self.floor = min(self.floor, self.ceiling)
        self.stated = True
        self.limit = float(self.ceiling)
        self.lowest = self.value  # (what it was before the server said is no figure of the server's)

    def ticket(self) -> int:
        """A request starts: its number, to hand back with ``answered`` or ``refused``."""
        self._tickets += 1
        return self._tickets

    def answered(self, ticket: int, seconds: float, purpose: str, *, waiting: bool) -> None:
        """The request ``ticket`` of ``purpose`` was answered after ``seconds`` in flight;
        ``waiting``: other work waits for a slot now (the limit holds it back)."""
        ratio = self._against_usual(purpose, seconds)
        self._count(refused=False)
        self._answers += 1
        if self.stated:
            if waiting and self.limit < self.ceiling:  # grow back after a cut
                self.limit = min(float(self.ceiling), self.limit + 0.5)
            return
        if ratio is not None:
            self.recent += _SHORT * (ratio - self.recent)
        if not waiting:
            return  # the limit holds nothing back: it is not what the server is asked for now
        if self.recent > self.tolerance:
            if ticket > self._cut_at:  # once a round: the answers sent before a cut tell of before it
                self._cut_at = self._tickets
                self.slowdowns += 1
                self.limit = max(float(self.floor), self.limit * max(0.5, self.tolerance / self.recent))
                self.lowest = min(self.lowest, self.value)
                self._probing = False
            return
        # probing (until the server first shows it is full): about x1.8 a round; then about
        # sqrt(limit) a round (Gradient2's queue allowance), so the limit saws gently under the edge
        step = self.smoothing * math.sqrt(self.limit) if self._probing else 1 / math.sqrt(self.limit)
        self.limit = min(float(self.ceiling), self.limit + step)

    def refused(self, ticket: int) -> bool:
        """The request ``ticket`` was refused (429, 503).  Returns whether the limit was cut (once
        a round)."""
        self.refusals += 1
        self._count(refused=True)
        if ticket <= self._cut_at or self._answers < self._needs:
            # sent before the last cut, or refused before what the cut allows was tried (refusals
            # come back at once, answers after their time): that overload is already answered
            return False
        self._cut_at = self._tickets
        self.cuts += 1
        self._probing = False
        # by half the share refused: what was in flight when it came says little (a fixed share
        # refused while few are asked would halve it each time, and the answers between could not
        # win it back)
        self.limit = max(float(self.floor), self.limit * (1 - self.share / 2))
        self._answers, self._needs = 0, max(1, self.value // 2)
        self.lowest = min(self.lowest, self.value)
        return True

    def _count(self, *, refused: bool) -> None:
        """One more answer or refusal in ``share`` (an average over about a round of them)."""
        self.share += (float(refused) - self.share) / max(4.0, self.limit)

    def _against_usual(self, purpose: str, seconds: float) -> float | None:
        """``seconds`` over the usual answer time of ``purpose`` (None for the first answer of
        one, which sets it), the usual updated."""
        if seconds <= 0:
            return None
        usual = self._usual.get(purpose)
        if usual is None:
            self._usual[purpose] = seconds
            return None
        self._usual[purpose] = usual + (_DOWN if seconds < usual else _UP) * (seconds - usual)
        return seconds / usual

    def figures(self) -> dict[str, object]:
        """What a report says of it."""
        return {"limit": self.value, "ceiling": self.ceiling, "stated": self.stated,
                "lowest": self.lowest, "refusals": self.refusals, "cuts": self.cuts, "slowdowns": self.slowdowns,
                "refused_share": round(self.share, 3),
                "recent_over_usual": round(self.recent, 2)}
