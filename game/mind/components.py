"""Context components, in the spirit of Concordia: each renders one section of a prompt.

A prompt's context is assembled from a list of components; a new aspect of a resident (a mood,
a relationship ledger, a goal) is one new component.  A component may ``prepare`` (async: e.g.
retrieve memories, which may embed a query) and then ``render`` a short text; empty sections are
left out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from game.mind.core import IDENTITY_TITLE, MindCore, identity_text
from game.mind.facts.fact import Fact
from game.mind.facts.leaning import hide_secrets
from game.mind.facts.unbacked import clauses
from game.mind.memory.stream import Record
from game.mind.planning.agenda import Agenda
from game.mind.view import WorldView, hhmm


@dataclass
class Context:
    """What a prompt is made for: the resident (its ``core`` and its ``agenda``), the moment and
    what it sees, and what the prompt is about."""

    core: MindCore
    agenda: Agenda
    now: datetime
    view: WorldView | None = None
    focus: str = ""  # what the prompt is about: the retrieval query for relevant memories
    about: Sequence[str] = ()  # people the prompt is about (dialogue, reactions)
    recalled: dict[int, list[Record]] = field(default_factory=dict)  # id(component) -> its memories
    shown: set[str] = field(default_factory=set)  # the lines of the sections rendered so far

    def secrets(self) -> list[Fact]:
        """What the resident holds that is kept from someone the prompt is about (a surprise
        party, in a talk with the one it is for): no section of the prompt tells of it."""
        if not self.about:
            return []
        return [f for f in self.core.facts if f.kept_from(self.about)]

    def keep_secrets(self, text: str) -> str:
        """``text`` less what tells of a secret kept from someone the prompt is about; counted
        (``secret_kept_from_prompt``)."""
        out, n = hide_secrets(text, self.secrets(), clauses)
        if n:
            self.core.count("secret_kept_from_prompt", n)
        return out


class Component:
    title: str = ""

    async def prepare(self, ctx: Context) -> None:  # noqa: B027 - optional hook
        return None

    def render(self, ctx: Context) -> str:
        raise NotImplementedError


class Identity(Component):
    """Who the resident is: the innate brief and the cached daily identity summary."""

    title = IDENTITY_TITLE

    def render(self, ctx: Context) -> str:
        return identity_text(ctx.core)


class Yesterday(Component):
    title = "Yesterday"

    def render(self, ctx: Context) -> str:
        return ctx.agenda.yesterday


class Situation(Component):
    """Where and when: the time, the place, what is around."""

    title = "Now"

    def render(self, ctx: Context) -> str:
        v = ctx.view
        parts = [f"It is {v.now_text if v and v.now_text else ctx.now.strftime('%A %H:%M')}."]
        if v and (v.here_text or v.here):
            parts.append(f"{ctx.core.persona.first_name} is at {v.here_text or v.here}.")
        cur = ctx.agenda.current
        if cur is not None:
            parts.append(f"{ctx.core.persona.first_name} is {cur.description}.")
        return " ".join(parts)


class Plan(Component):
    """Today's plan in broad strokes, marking the block in progress."""

    title = "Today's plan"

    def __init__(self, before: int = 1, after: int = 4) -> None:
        self.before, self.after = before, after  # blocks shown around the one in progress

    def render(self, ctx: Context) -> str:
        plan = ctx.agenda.plan
        if plan is None:
            return ""
        _, minute = ctx.core.day_and_minute(ctx.now)
        blocks = list(plan.blocks)
        now_i = next((i for i, b in enumerate(blocks) if b.start <= minute < b.end), None)
        if now_i is None:
            now_i = next((i for i, b in enumerate(blocks) if b.start > minute), len(blocks))
        lo, hi = max(0, now_i - self.before), min(len(blocks), now_i + self.after + 1)
        lines = ["..."] if lo > 0 else []
        for i in range(lo, hi):
            b = blocks[i]
            mark = "  <- now" if b.start <= minute < b.end else ""
            lines.append(f"{b.text()}{mark}")
        if hi < len(blocks):
            lines.append("...")
        return "\n".join(lines)


class Thoughts(Component):
    """The resident's own recent thoughts (whispers from the inner voice), most recent last."""

    title = "Your own thoughts (act on them)"

    def __init__(self, limit: int = 3) -> None:
        self.limit = limit

    def render(self, ctx: Context) -> str:
        recs = ctx.core.memory.recent(self.limit, kinds=("whisper",), until=ctx.now)
        recs = [r for r in recs if ctx.now - r.created <= timedelta(days=1)]  # today's, not old news
        return "\n".join(f"- {r.text}" for r in recs)


class RelevantMemories(Component):
    """Memories retrieved for the prompt's focus (recency, importance, relevance)."""

    title = "You remember"

    def __init__(self, k: int = 6, token_budget: int = 220,
                 query: Callable[[Context], str] | None = None, kinds: Sequence[str] | None = None,
                 keep: Callable[[str], bool] | None = None) -> None:
        self.k = k
        self.token_budget = token_budget
        self.query = query
        self.kinds = kinds
        self.keep = keep  # which memories may be shown (by their text); None: all (see talk/drawn.py)

    async def prepare(self, ctx: Context) -> None:
        q = self.query(ctx) if self.query else ctx.focus
        ctx.recalled[id(self)] = await ctx.core.recall(q, ctx.now, k=self.k, token_budget=self.token_budget,
                                                       kinds=self.kinds, keep=self.keep)

    def render(self, ctx: Context) -> str:
        """The memories, but none the prompt already shows: a line of an earlier section (a seed
        relationship is both a memory and a line of "People") or the sight the prompt is about
        (just observed, it is the most relevant memory of all)."""
        recs = ctx.recalled.get(id(self), [])
        return "\n".join(f"- {r.text}" for r in recs
                         if f"- {r.text}" not in ctx.shown and not (ctx.focus and r.text in ctx.focus))


class Relationships(Component):
    """What the resident knows of the people the prompt is about."""

    title = "People"

    def render(self, ctx: Context) -> str:
        rel = ctx.core.persona.relationships
        town = ctx.core.facts.town
        out = []
        for name in ctx.about:
            for k, v in rel.items():
                if k == name or k.split()[0] == name.split()[0]:
                    out.append(f"- {k}: {v}")
                    break
            else:
                if name != ctx.core.name and name in town.people and town.townsfolk:
                    out.append(f"- {name}: {_acquaintance(ctx, name)}")
        return "\n".join(out)


def _acquaintance(ctx: Context, name: str) -> str:
    """What a resident of a small town knows of one its relationships do not name (``TownNames.acquainted``):
    a neighbour known for years, with the work the town declares; or one it has not met (a newcomer,
    before their first talk)."""
    town = ctx.core.facts.town
    if town.acquainted(ctx.core.name, name):
        return town.known_as(name)
    return "someone you have talked with" if ctx.core.has_talked_with(name) else "you have not met before"


class KnownFacts(Component):
    """What the resident knows is planned (facts/fact.py): its own gatherings and what others told it
    (gatherings, candidacies), in the town's words, with who told it; for a host, who of the people
    the prompt is about has not heard of it yet.  Empty when it knows of nothing."""

    title = "What you know is planned (true: say it as it is)"

    def render(self, ctx: Context) -> str:
        core = ctx.core
        out = []
        for f in core.facts.upcoming(ctx.now):
            # (in the fact's own sentence: a prompt about the one it is kept from loses the whole of it)
            secret = f", a surprise to keep from {', '.join(f.secret_from)}" if f.secret_from else ""
            if f.source:
                out.append(f"- {f.source} told you: {f.sentence(ctx.now)}{secret}.")
                continue
            if f.kind == "candidacy":
                continue  # one's own candidacy is in one's thoughts and identity: no place or hour to keep
            text = f"- {f.sentence(ctx.now)}{secret}."
            if f.host == core.name:
                untold = [p for p in ctx.about if p != core.name and p not in f.told]
                if untold:
                    text += f" Not told yet: {', '.join(untold)}."
            out.append(text)
        return "\n".join(out[-4:])


class Needs(Component):
    """Bodily needs from the lifestyle, by rule: hunger around meal times, tiredness near bed."""

    title = "Needs"

    def render(self, ctx: Context) -> str:
        p = ctx.core.persona
        _, minute = ctx.core.day_and_minute(ctx.now)
        out = []
        for name, t in p.meals:
            if 0 <= minute - t <= 60:
                out.append(f"{p.first_name} is hungry: it is time for {name}.")
        if 0 <= p.sleep - minute <= 45:
            out.append(f"{p.first_name} is getting tired: bed time is {hhmm(p.sleep)}.")
        return " ".join(out)


async def assemble(components: Sequence[Component], ctx: Context) -> str:
    for c in components:
        await c.prepare(ctx)
    sections = []
    for c in components:
        text = ctx.keep_secrets(c.render(ctx).strip())
        if text:
            sections.append(f"{c.title}:\n{text}" if c.title else text)
            ctx.shown.update(text.splitlines())
    return "\n\n".join(sections)
