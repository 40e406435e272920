"""Who knows what: a named piece of information traced through the residents' memory streams.

A piece of information is a name and some keywords ("party": "party", "valentine", "Hobbs cafe").
A memory record carries it when enough of the keywords appear in its text (all of one or two
keywords, two thirds of more).  For each resident the first such record is when it learned it, and
the record tells how: a whisper (the seed), a line someone said to it in a conversation (``"<speaker>
told me: ..."``: learned from the speaker), its own words in a talk, something it saw, or its own
plan or reflection.  The spread over time is the number of residents who knew it at each moment.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta

from game.measure.records import MemoryRow, by_resident, source_of, talked_with

_WORD = re.compile(r"[a-z0-9']+")


def _norm(text: str) -> str:
    return " ".join(_WORD.findall(text.lower()))


@dataclass(frozen=True)
class Info:
    """A named piece of information and the keywords that mark it."""

    name: str
    keywords: tuple[str, ...]
    min_match: int = 0  # 0: all of one or two keywords, two thirds of more

    @staticmethod
    def parse(name: str, keywords: str | Sequence[str] | None = None) -> Info:
        """``Info.parse("party", "party, valentine")``; keywords default to the name's words."""
        if keywords is None or keywords == "":
            kws = [name]
        elif isinstance(keywords, str):
            kws = [k for k in re.split(r"[,;]", keywords)]
        else:
            kws = list(keywords)
        # "6pm|18:00": either spelling of one fact counts as that keyword
        kws = ["|".join(a for a in (_norm(x) for x in k.split("|")) if a) for k in kws]
        kws = [k for k in kws if k]
        if not kws:
            raise ValueError(f"information '{name}': no keywords to look for")
        return Info(name=name, keywords=tuple(dict.fromkeys(kws)))

    @property
    def needed(self) -> int:
        if self.min_match > 0:
            return min(self.min_match, len(self.keywords))
        n = len(self.keywords)
        return n if n <= 2 else math.ceil(2 * n / 3)

    def matches(self, text: str) -> bool:
        t = " " + _norm(text) + " "
        # word start: "party" finds "party's", "parties" not
        hits = sum(1 for k in self.keywords if any(f" {a}" in t for a in k.split("|")))
        return hits >= self.needed


@dataclass
class Learned:
    resident: str
    at: datetime
    how: str  # "whisper" | "told" | "said" | "saw" | "thought" | "player" | "other"
    source: str | None  # who told it, for "told"/"player"
    record_id: int
    text: str

    def to_dict(self) -> dict:
        d = asdict(self)
        d["at"] = self.at.isoformat()
        return d


@dataclass
class Spread:
    info: Info
    residents: list[str]
    learned: list[Learned] = field(default_factory=list)  # first record per resident, in time order
    mentions: dict[str, int] = field(default_factory=dict)  # resident -> records carrying it

    @property
    def knowers(self) -> list[str]:
        return [x.resident for x in self.learned]

    @property
    def seeds(self) -> list[str]:
        """Who had it first: the residents it was whispered to, else the earliest to know it."""
        whispered = [x.resident for x in self.learned if x.how == "whisper"]
        return whispered or [x.resident for x in self.learned[:1]]

    def edges(self) -> list[tuple[str, str, datetime]]:
        """(from, to, when) for every resident who learned it from another."""
        return [(x.source, x.resident, x.at) for x in self.learned if x.source]

    def curve(self, start: datetime | None = None, end: datetime | None = None,
              step: timedelta = timedelta(hours=1)) -> list[tuple[datetime, int]]:
        """How many residents knew it at ``start``, ``start + step``, ... ``end`` (inclusive)."""
        if not self.learned and (start is None or end is None):
            return []
        times = sorted(x.at for x in self.learned)
        start = start or times[0].replace(minute=0, second=0, microsecond=0)
        end = end or times[-1]
        out = []
        t = start
        while t <= end + timedelta(microseconds=1):
            out.append((t, sum(1 for a in times if a <= t)))
            t += step
        if out and out[-1][0] < end:
            out.append((end, sum(1 for a in times if a <= end)))
        return out

    def to_dict(self, start: datetime | None = None, end: datetime | None = None,
                step: timedelta = timedelta(hours=1)) -> dict:
        n = len(self.residents)
        return {
            "name": self.info.name, "keywords": list(self.info.keywords), "needed": self.info.needed,
            "residents": n, "knew": len(self.learned), "share": round(len(self.learned) / n, 3) if n else 0.0,
            "seeded": self.seeds, "learned": [x.to_dict() for x in self.learned],
            "from_whom": [[a, b, t.isoformat()] for a, b, t in self.edges()],
            "never": [r for r in self.residents if r not in set(self.knowers)],
            "mentions": dict(sorted(self.mentions.items())),
            "curve": [[t.isoformat(), k] for t, k in self.curve(start, end, step)],
        }


def _how(row: MemoryRow) -> tuple[str, str | None]:
    if row.kind == "whisper":
        return "whisper", None
    src = source_of(row)
    if src:
        return ("player" if row.kind == "player" else "told"), src
    if talked_with(row):
        return "said", None
    if row.kind == "observation":
        return "saw", None
    if row.kind in ("plan", "reflection"):
        return "thought", None
    return "other", None


def track(rows: Iterable[MemoryRow], info: Info, residents: Sequence[str] | None = None) -> Spread:
    """Trace ``info`` through the memory rows of every resident."""
    groups = by_resident(rows)
    names = sorted(residents) if residents is not None else sorted(groups)
    sp = Spread(info=info, residents=list(names))
    for name in names:
        first: MemoryRow | None = None
        n = 0
        for r in groups.get(name, []):
            if info.matches(r.text):
                n += 1
                if first is None:
                    first = r
        if first is None:
            continue
        sp.mentions[name] = n
        how, src = _how(first)
        sp.learned.append(Learned(name, first.created, how, src, first.id, first.text))
    sp.learned.sort(key=lambda x: (x.at, x.resident))
    return sp


def said_in(conversations: Iterable[dict], info: Info) -> list[dict]:
    """Lines of the saved conversations (the engine keeps the latest ones) that carry ``info``: who
    said it, to whom, in which talk and when it started (the engine stores no time per line)."""
    out = []
    for c in conversations:
        people = list(c.get("participants", []))
        for n, pair in enumerate(c.get("lines", [])):
            speaker, text = str(pair[0]), str(pair[1])
            if info.matches(text):
                out.append({"conversation": c.get("id", ""), "started": c.get("started"), "line": n,
                            "speaker": speaker, "to": [p for p in people if p != speaker], "text": text})
    out.sort(key=lambda d: (d["started"] or "", d["line"]))
    return out
