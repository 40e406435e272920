"""One resident's mind: memory, retrieval, reflection, planning, reacting and dialogue.

The architecture of Park et al. 2023 on a call budget (see docs/MIND.md):

* every decision is a coroutine that returns plain data; the model is asked only where no rule
  serves (sleeping, walking, routine sights, the first morning are rules);
* each call asks for a lot: a whole day plan, a whole 1-2 hour block of 5-15 minute actions with
  places and emoji, many importance scores at once, a reflection in two calls;
* a decision that fails (server down, bad answer) degrades to the lifestyle routine or to
  "continue", records the error in ``last_error``/``stats`` and never raises ``LLMError``.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Annotated, Any, AsyncIterator, Awaitable, Callable, Sequence

from pydantic import BaseModel, BeforeValidator, Field

from game.llm.api import LLM, CallTag, LLMError, Message, Priority
from game.mind import prompting
from game.mind.components import (Component, Context, Identity, Needs, Plan, Relationships,
                                  RelevantMemories, Situation, Thoughts, Yesterday, assemble)
from game.mind.memory import MemoryImage, MemoryStream, Record, Weights
from game.mind.persona import Persona
from game.mind.places import find_in, resolve_place
from game.mind.schemas import (AnswerText, DayPlanAnswer, DecomposeAnswer, IdentityAnswer, ImportanceAnswer,
                               InsightsAnswer, LineAnswer, QuestionsAnswer, ReactAnswer, StepItem, clean_text,
                               pick_emoji)
from game.mind.view import Action, Conversation, DayPlan, Line, PlanBlock, Reaction, WorldView, hhmm

log = logging.getLogger(__name__)

Embedder = Callable[[list[str]], Awaitable[list[list[float]]]]


@dataclass
class MindConfig:
    reflect_threshold: float = 150.0
    importance_batch: int = 10  # score this many new memories in one call
    importance_max_wait_min: int = 90  # ... or whatever is pending once the oldest is this old
    dedupe_minutes: int = 60  # the same sight within this many minutes refreshes, not re-stores
    max_block_min: int = 120  # hour blocks longer than this are decomposed in parts
    max_reacts_per_day: int = 16
    max_talks_per_day: int = 5  # conversations a resident starts (or has had) in a day before it stops starting more
    max_lines_per_day: int = 30
    max_turns_per_speaker: int = 4  # per conversation
    react_cooldown_min: int = 30  # the same sight is not reacted to twice within this
    told_floor: float = 5.0  # what someone said to the resident is at least "notable" once scored
    retrieve_k: int = 6
    memory_tokens: int = 220
    places_in_prompt: int = 40
    weights: Weights = field(default_factory=Weights)


# what "You remember" shows when the plan is already in the context
MEMORY_KINDS = ("observation", "conversation", "whisper", "reflection", "player")
_BED_WORDS = re.compile(r"\b(wak(e|es|ing) up|go(es|ing)? to (bed|sleep)|fall(ing)? asleep|sleep(ing)?|nap(ping)?)\b",
                        re.I)
PLACE_MEANING_MIN = 0.35  # cosine below which no option is near enough in meaning to an activity
TALK_LINES = 12  # the last lines of a talk that a reply prompt shows
BROUGHT_MAX = 5  # memories a line being typed may bring to mind (see Mind._recall_for)

# -------------------------------------------------------------------------- rules
_ROUTINE_MARKERS = ("is sleeping", "is asleep", "is idle", " wall", "floor", "is empty", "is walking",
                    "is standing", "is off", "is closed")


def rule_importance(text: str) -> float | None:
    """Importance by rule for routine sights, or None when the model should score it."""
    t = " " + text.lower()
    if any(m in t for m in ("is sleeping", "is asleep", "is idle", " wall", " floor", "is empty")):
        return 1.0
    if t.rstrip().endswith((" is idle", " is off", " is closed", "is walking", "is standing")):
        return 2.0
    return None


_EMOJI_RULES = (
    (("sleep", "nap", "bed"), "😴"), (("breakfast", "lunch", "dinner", "eat", "meal", "snack"), "🍴"),
    (("coffee", "tea"), "☕"), (("cook", "bake", "bread"), "🍳"), (("walk", "go to", "head"), "🚶"),
    (("read", "study", "book", "library"), "📚"), (("write", "paper", "essay"), "📝"),
    (("talk", "chat", "meet", "conversation"), "💬"), (("shop", "buy", "store"), "🛒"),
    (("paint", "draw", "art"), "🎨"), (("music", "piano", "guitar", "sing"), "🎵"),
    (("work", "office", "job", "serv", "customer", "shift"), "💼"), (("wash", "shower", "bath", "brush"), "🚿"),
    (("garden", "plant", "flower"), "🌱"), (("campaign", "election", "mayor", "vote"), "📣"),
    (("party", "celebrat"), "🎉"), (("clean", "tidy"), "🧹"), (("computer", "code", "email"), "💻"),
)


def emoji_for(text: str) -> str:
    t = text.lower()
    for words, e in _EMOJI_RULES:
        if any(w in t for w in words):
            return e
    return "🙂"


# ------------------------------------------------------------------- plan shaping
def shape_plan(items: Sequence[tuple[int, int, str]], start: int, end: int,
               max_block: int = 120) -> tuple[PlanBlock, ...]:
    """Blocks that cover ``start``..``end`` (minutes) exactly: sorted, clipped, gaps and overlaps
    mended by moving boundaries, long blocks cut into parts of at most ``max_block`` minutes."""
    if end <= start:
        return ()
    rows = []
    for s, e, a in items:
        a = clean_text(a, 120) or "free time"
        if e <= s:
            e = s + 60
        s, e = max(s, start), min(e, end)
        if e > s:
            rows.append((s, e, a))
    rows.sort(key=lambda r: (r[0], r[1]))
    if not rows:
        return ()
    fixed: list[list] = []
    for s, e, a in rows:
        if fixed and s < fixed[-1][1]:  # overlap: the later block starts where the earlier ends
            s = fixed[-1][1]
            if e <= s:
                continue
        if fixed and s > fixed[-1][1]:  # gap: the earlier block runs on
            fixed[-1][1] = s
        fixed.append([s, e, a])
    fixed[0][0] = start
    fixed[-1][1] = end
    out: list[PlanBlock] = []
    for s, e, a in fixed:
        n = max(1, -(-(e - s) // max_block))
        step = (e - s) / n
        for i in range(n):
            bs = s + round(i * step)
            be = e if i == n - 1 else s + round((i + 1) * step)
            out.append(PlanBlock(bs, be, a))
    return tuple(out)


def fit_steps(steps: Sequence[tuple[str, int, Any]], span: int) -> list[tuple[str, int, Any]]:
    """Durations that fill ``span`` minutes: extra steps dropped, the last one stretched or cut."""
    out: list[tuple[str, int, Any]] = []
    used = 0
    for desc, minutes, extra in steps:
        if used >= span:
            break
        m = max(1, min(int(minutes), span - used))
        out.append((desc, m, extra))
        used += m
    if out and used < span:
        desc, m, extra = out[-1]
        out[-1] = (desc, m + span - used, extra)
    return out


# ---------------------------------------------------------------------------- mind
class Mind:
    def __init__(self, spec: object, llm: LLM, embedder: Embedder | Any | None = None, *,
                 config: MindConfig | None = None, now: datetime | None = None) -> None:
        self.persona = Persona.from_spec(spec)
        self.llm = llm
        self.config = config or MindConfig()
        self._embedder = embedder
        self.memory = MemoryStream(weights=self.config.weights)
        self.identity: str = ""
        self.identity_date: date | None = None
        self.yesterday: str = ""
        self.plan: DayPlan | None = None
        self.plan_date: date | None = None
        self.last_raw_plan: list[tuple[int, int, str]] = []  # the model's own blocks, before shaping
        self.queue: list[Action] = []  # decomposed actions still to come in the current block
        self.current: Action | None = None
        self.replan_reason: str | None = None
        self.last_reflection: datetime | None = None
        self.first_date: date | None = None
        self.last_error: str | None = None
        self.stats: Counter[str] = Counter()
        self.calls: Counter[tuple[str, str]] = Counter()  # (date iso, purpose) -> model calls
        self._reacted: dict[str, datetime] = {}
        self._lines_today: Counter[str] = Counter()
        # conversation id -> the reply prompt's context, held for a conversation with the player so
        # that every reply begins the same way and the server's cached prompt serves them all
        self._held: OrderedDict[str, str] = OrderedDict()
        # what the line being said in a conversation brought to mind so far: (conversation id,
        # lines before it) -> memories, in the order they came (see ``_recall_for``)
        self._brought: dict[tuple[str, int], list[str]] = {}
        self._emb_cache: OrderedDict[str, list[float]] = OrderedDict()
        self._scoring: set[int] = set()
        self._floor: dict[int, float] = {}  # record id -> least importance once scored
        self._plan_lock = asyncio.Lock()
        self._plan_failed_at: datetime | None = None
        if now is not None:
            self.seed(now)

    @property
    def name(self) -> str:
        return self.persona.name

    # ------------------------------------------------------------------ basics
    def seed(self, now: datetime) -> None:
        """Store the spec's seed memories (importance by rule: 5), once, at the start of the town."""
        if self.first_date is None:
            self.first_date = now.date()
        if len(self.memory) == 0:
            for text in self.persona.seed_memories:
                self.memory.add("observation", text, now, importance=5)
            for who, what in self.persona.relationships.items():
                self.memory.add("observation", f"{who}: {what}", now, importance=5)

    def day_and_minute(self, now: datetime) -> tuple[date, int]:
        """The plan day ``now`` belongs to and minutes since that day's midnight (a bed time after
        midnight keeps the small hours in the previous day, as minutes past 24:00)."""
        m = now.hour * 60 + now.minute
        d = now.date()
        p = self.persona
        if m < p.wake and p.sleep > 24 * 60 and m + 24 * 60 < p.sleep:
            return d - timedelta(days=1), m + 24 * 60
        return d, m

    def asleep_at(self, now: datetime) -> bool:
        _, m = self.day_and_minute(now)
        return m < self.persona.wake or m >= self.persona.sleep

    def day_number(self, now: datetime) -> int:
        d, _ = self.day_and_minute(now)
        if self.first_date is None:
            self.first_date = d
        return (d - self.first_date).days + 1

    async def _complete(self, template: str, schema: type[BaseModel], purpose: str, priority: Priority,
                        now: datetime, /, max_tokens: int, temperature: float = 0.7, **values: object):
        messages = prompting.render(template, **values)
        d, _ = self.day_and_minute(now)
        self.calls[(d.isoformat(), purpose)] += 1
        return await self.llm.complete(messages, schema, CallTag(purpose, self.name, priority),
                                       max_tokens=max_tokens, temperature=temperature)

    def _fail(self, what: str, e: Exception) -> None:
        self.last_error = f"{self.name}: {what}: {e}"
        self.stats[f"error_{what}"] += 1
        log.warning("%s", self.last_error)

    def talks_on(self, day: date) -> int:
        """Conversations with other residents the resident has had on ``day`` (from its memory)."""
        n = 0
        for rec in reversed(self.memory.recent(64, kinds=["conversation"])):
            if rec.created.date() < day:
                break
            if rec.created.date() == day and rec.text.startswith("I talked with"):
                n += 1
        return n

    def calls_on(self, day: date) -> dict[str, int]:
        return {p: n for (d, p), n in self.calls.items() if d == day.isoformat()}

    # ------------------------------------------------------------- embeddings
    async def embed(self, texts: list[str]) -> list[list[float]]:
        """Embeddings for ``texts``; cached by text; one call for all that are missing."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._emb_cache]
        if missing:
            if self._embedder is None:
                vecs = await self.llm.embed(missing)
            elif hasattr(self._embedder, "embed"):
                vecs = await self._embedder.embed(missing)
            else:
                res = self._embedder(missing)
                vecs = await res if inspect.isawaitable(res) else res
            if len(vecs) != len(missing):
                raise LLMError(f"the embedder returned {len(vecs)} vectors for {len(missing)} texts")
            for t, v in zip(missing, vecs):
                self._emb_cache[t] = list(v)
            while len(self._emb_cache) > 4096:
                self._emb_cache.popitem(last=False)
        return [self._emb_cache[t] for t in texts]

    async def ensure_embedded(self) -> None:
        ids = self.memory.unembedded()
        for i in range(0, len(ids), 64):
            chunk = ids[i:i + 64]
            vecs = await self.embed([self.memory.text(r) for r in chunk])
            for r, v in zip(chunk, vecs):
                self.memory.set_embedding(r, v)

    async def recall(self, query: str, now: datetime, *, k: int | None = None,
                     token_budget: int | None = None, kinds: Sequence[str] | None = None) -> list[Record]:
        """Retrieve memories for ``query`` (relevance falls back to recency and importance alone
        when embeddings are unavailable)."""
        qv = None
        try:
            await self.ensure_embedded()
            if query:
                qv = (await self.embed([query]))[0]
        except LLMError as e:
            self._fail("embed", e)
        return self.memory.retrieve(qv, now, k=k or self.config.retrieve_k,
                                    token_budget=token_budget or self.config.memory_tokens, kinds=kinds)

    # ------------------------------------------------------------ observation
    async def observe(self, now: datetime, percepts: list[str]) -> list[int]:
        """Store what the resident perceives; routine sights by rule, the rest scored in batches."""
        self.seed(now)
        new = []
        since = now - timedelta(minutes=self.config.dedupe_minutes)
        for raw in percepts:
            text = clean_text(raw, 300)
            if not text:
                continue
            old = self.memory.find_recent_text(text, since)
            if old is not None:
                self.memory.touch([old], now)
                self.stats["seen_again"] += 1
                continue
            imp = rule_importance(text)
            if imp is not None:
                self.stats["importance_rule"] += 1
            new.append(self.memory.add("observation", text, now, importance=imp))
        await self.score_pending(now)
        return new

    async def score_pending(self, now: datetime, force: bool = False) -> int:
        """One importance call for the memories waiting to be scored, when enough have gathered."""
        pending = [i for i in self.memory.unscored() if i not in self._scoring]
        if not pending:
            return 0
        oldest = self.memory.get(pending[0]).created
        due = (len(pending) >= self.config.importance_batch
               or now - oldest >= timedelta(minutes=self.config.importance_max_wait_min))
        if not (due or force):
            return 0
        batch = pending[:30]
        self._scoring.update(batch)
        try:
            items = "\n".join(f"- {self.memory.text(r)}" for r in batch)
            ans = await self._complete("importance", ImportanceAnswer, "importance", Priority.SCORE, now,
                                       max_tokens=10 + 4 * len(batch), temperature=0.2,
                                       who=self.persona.short(), items=items, n=len(batch))
            scores = list(ans.scores)
            for n, r in enumerate(batch):
                score = scores[n] if n < len(scores) else 3
                self.memory.set_importance(r, max(score, self._floor.pop(r, 1)))
            if len(scores) != len(batch):
                self.stats["importance_count_mismatch"] += 1
            self.stats["importance_scored"] += len(batch)
        except LLMError as e:
            self._fail("importance", e)
            for r in batch:  # keep the provisional score rather than asking again and again
                self.memory.set_importance(r, self.memory.get(r).importance)
        finally:
            self._scoring.difference_update(batch)
        return len(batch)

    def whisper(self, now: datetime, text: str) -> int:
        """The inner voice: stored as the resident's own thought (importance 8); flags a re-plan."""
        self.seed(now)
        text = clean_text(text, 300)
        rid = self.memory.add("whisper", text, now, importance=8)
        self.replan_reason = f"a thought: {text}"
        self.stats["whispers"] += 1
        return rid

    def hear_player(self, now: datetime, speaker: str, text: str) -> int:
        return self.memory.add("player", f"{speaker} said to me: {clean_text(text, 300)}", now)

    def remember_conversation(self, now: datetime, conversation: Conversation) -> list[int]:
        """Store a finished conversation: each line others said, and a summary of one's own part."""
        self.seed(now)
        self._held.pop(conversation.id, None)  # its replies' context is not needed any more
        for key in [k for k in self._brought if k[0] == conversation.id]:
            del self._brought[key]
        ids = []
        others = [p for p in conversation.participants if p != self.name]
        kind = "player" if conversation.with_player else "conversation"
        mine = []
        for speaker, text in conversation.lines:
            text = clean_text(text, 300)
            if not text:
                continue
            if speaker == self.name:
                mine.append(text)
            else:
                rid = self.memory.add(kind, f"{speaker} told me: {text}", now)
                self._floor[rid] = self.config.told_floor
                ids.append(rid)
        if mine:
            with_whom = ", ".join(others) or "someone"
            ids.append(self.memory.add("conversation", clean_text(
                f"I talked with {with_whom}; I said: " + " ".join(mine), 400), now))
        return ids

    # ----------------------------------------------------------------- identity
    async def ensure_identity(self, now: datetime) -> str:
        """The identity summary (core traits, occupation, feeling about progress), refreshed daily."""
        d, _ = self.day_and_minute(now)
        if self.identity_date == d and self.identity:
            return self.identity
        self.identity_date = d
        first = self.persona.first_name
        recs: dict[int, Record] = {}
        for q in (f"{first}'s core characteristics", f"{first}'s current daily occupation",
                  f"{first}'s feeling about his recent progress in life"):
            for r in await self.recall(q, now, k=4, token_budget=120):
                recs[r.id] = r
        memories = "\n".join(f"- {r.text}" for r in sorted(recs.values(), key=lambda r: r.id)) or "- (nothing yet)"
        try:
            ans = await self._complete("identity", IdentityAnswer, "identity", Priority.REFLECT, now,
                                       max_tokens=100, brief=self.persona.brief(), first=first,
                                       name=self.name, memories=memories, date=now.strftime("%A %B %d"))
            self.identity = ans.summary
        except LLMError as e:
            self._fail("identity", e)
            self.identity = ""
        return self.identity

    # ----------------------------------------------------------------- planning
    def _context_components(self, *extra: Component) -> list[Component]:
        return [Identity(), *extra]

    async def plan_day(self, now: datetime, view: WorldView | None = None) -> DayPlan:
        """The day in broad strokes, wake to bed (one call; the identity refresh is one more)."""
        async with self._plan_lock:
            return await self._plan_day(now, view)

    async def _plan_day(self, now: datetime, view: WorldView | None) -> DayPlan:
        self.seed(now)
        d, minute = self.day_and_minute(now)
        p = self.persona
        if self.plan is not None and self.plan_date != d:
            self.yesterday = clean_text("Planned: " + "; ".join(
                f"{hhmm(b.start)} {b.activity}" for b in self.plan.blocks[:8]), 400)
        await self.ensure_identity(now)
        start = max(p.wake, min(minute, p.sleep - 60)) if self.plan_date == d else p.wake
        ctx = Context(self, now, view, focus=f"{p.first_name}'s plans for today")
        context = await assemble([Identity(), Yesterday(), Thoughts(),
                                  RelevantMemories(k=5, token_budget=150)], ctx)
        try:
            ans = await self._complete("plan_day", DayPlanAnswer, "plan_day", Priority.PLAN, now,
                                       max_tokens=260, context=context, date=now.strftime("%A %B %d"),
                                       first=p.first_name, wake=hhmm(p.wake), bed=hhmm(p.sleep),
                                       start=hhmm(start))
            self.last_raw_plan = ans.blocks()
            if len(self.last_raw_plan) < len(ans.plan):
                self.stats["plan_lines_unreadable"] += len(ans.plan) - len(self.last_raw_plan)
            blocks = shape_plan(self.last_raw_plan, start, p.sleep, self.config.max_block_min)
            source = "model"
        except LLMError as e:
            self._fail("plan_day", e)
            self._plan_failed_at = now
            blocks, source = (), "routine"
        if not blocks:
            blocks, source = self.routine_blocks(start), "routine"
        if self.plan is not None and self.plan_date == d:  # keep what was already lived today
            kept = tuple(PlanBlock(b.start, min(b.end, start), b.activity)
                         for b in self.plan.blocks if b.start < start)
            blocks = kept + blocks
        self.plan = DayPlan(day=self.day_number(now), wake=p.wake, bed=p.sleep, blocks=blocks, source=source)
        self.plan_date = d
        self.queue = []
        self.replan_reason = None
        self.memory.add("plan", clean_text(f"My plan for {now.strftime('%A')}: " + "; ".join(
            f"{hhmm(b.start)} {b.activity}" for b in blocks), 500), now, importance=5)
        return self.plan

    async def replan(self, now: datetime, view: WorldView | None, news: str) -> DayPlan:
        """Revise the rest of today from now (one call) after a whisper or an important event."""
        async with self._plan_lock:
            return await self._replan(now, view, news)

    async def _replan(self, now: datetime, view: WorldView | None, news: str) -> DayPlan:
        d, minute = self.day_and_minute(now)
        p = self.persona
        if self.plan is None or self.plan_date != d:
            return await self._plan_day(now, view)
        start = min(max(minute, p.wake), p.sleep)
        if p.sleep - start < 15:
            self.replan_reason = None
            return self.plan
        ctx = Context(self, now, view, focus=news)
        # no old plan in this context: a small model copies it instead of changing it
        context = await assemble([Identity(), RelevantMemories(k=4, token_budget=120, kinds=MEMORY_KINDS)], ctx)
        try:
            ans = await self._complete("replan", DayPlanAnswer, "replan", Priority.PLAN, now, max_tokens=200,
                                       context=context, news=news, time=hhmm(minute), first=p.first_name,
                                       bed=hhmm(p.sleep), start=hhmm(start))
            # a block that started before now counts from now
            items = [(max(s, start), e, a) for s, e, a in ans.blocks() if e > start]
            if items:  # where the model's new plan stops early, the old plan carries on
                last = max(e for _, e, _ in items)
                items += [(max(b.start, last), b.end, b.activity) for b in self.plan.blocks if b.end > last]
            new = shape_plan(items, start, p.sleep, self.config.max_block_min)
        except LLMError as e:
            self._fail("replan", e)
            if self.plan.source == "routine":
                self._plan_failed_at = now
            new = ()
        self.replan_reason = None
        if not new:
            return self.plan
        kept = tuple(PlanBlock(b.start, min(b.end, start), b.activity)
                     for b in self.plan.blocks if b.start < start)
        self.plan = DayPlan(day=self.plan.day, wake=self.plan.wake, bed=self.plan.bed, blocks=kept + new,
                            source="model")
        self._plan_failed_at = None
        self.queue = []
        self.stats["replans"] += 1
        self.memory.add("plan", clean_text(f"I changed my plan at {hhmm(minute)}: " + "; ".join(
            f"{hhmm(b.start)} {b.activity}" for b in new), 500), now, importance=5)
        return self.plan

    async def next_action(self, now: datetime, view: WorldView | None = None) -> Action:
        """The action to do from ``now``: from the decomposed queue (no call), else one call that
        decomposes the current 1-2 hour block into 5-15 minute actions.  Never raises LLMError."""
        self.seed(now)
        if self.asleep_at(now):
            self.current = self.routine_action(now, view)
            return self.current
        d, minute = self.day_and_minute(now)
        try:
            if self.plan is None or self.plan_date != d:
                await self.plan_day(now, view)
            elif self.plan.source == "routine" and self._plan_failed_at is not None \
                    and now - self._plan_failed_at >= timedelta(hours=1):
                await self.replan(now, view, "a day that went by routine so far")  # the model is back?
            elif self.replan_reason:
                await self.replan(now, view, self.replan_reason)
        except LLMError as e:  # pragma: no cover - plan_day handles its own errors
            self._fail("plan", e)
        async with self._plan_lock:
            act = self._from_queue(now)
            if act is None:
                act = await self._decompose(now, view)
        self.current = act
        return act

    def _from_queue(self, now: datetime) -> Action | None:
        while self.queue:
            a = self.queue[0]
            end = a.end() or now
            if end <= now:
                self.queue.pop(0)
                continue
            self.queue.pop(0)  # (an action due later starts now: the previous one ended early)
            left = max(1, round((end - now).total_seconds() / 60))
            return Action(a.description, a.emoji, a.address, left, a.object_state, now, a.source)
        return None

    async def _decompose(self, now: datetime, view: WorldView | None) -> Action:
        d, minute = self.day_and_minute(now)
        plan = self.plan
        block = plan.block_at(minute) if plan else None
        if block is None:
            return self.routine_action(now, view)
        span = block.end - minute
        if span < 5:  # the block is all but over: bridge to the next one by rule
            return self.routine_action(now, view)
        allowed = tuple(view.allowed) if view and view.allowed else ()
        fallback = self._fallback_place(view)
        ctx = Context(self, now, view, focus=block.activity)
        # the block itself is in the task; around it, one block before and after is enough
        context = await assemble([Identity(), Plan(before=1, after=1), Thoughts(), Needs(),
                                  RelevantMemories(k=3, token_budget=100, kinds=MEMORY_KINDS)], ctx)
        try:
            ans = await self._complete("decompose", DecomposeAnswer, "decompose", Priority.PLAN, now,
                                       max_tokens=360, context=context, places=self._places_line(view),
                                       start=hhmm(minute),
                                       end=hhmm(block.end), first=self.persona.first_name,
                                       activity=block.activity, span=span)
        except LLMError as e:
            self._fail("decompose", e)
            return self.routine_action(now, view)
        steps = []
        for s in ans.steps:
            desc = s.action or block.activity
            steps.append((desc, s.minutes, s))
        actions = []
        t = now
        for desc, minutes, s in fit_steps(steps, span):
            addr, state = await self._ground(view, desc, s.place, s.state, block.activity, allowed, fallback)
            emoji = pick_emoji(s.emoji, emoji_for(desc))
            if emoji != (s.emoji or "").replace("\ufe0f", ""):
                self.stats["emoji_fixed"] += 1
            actions.append(Action(desc, emoji, addr, minutes, state, t, "model"))
            t += timedelta(minutes=minutes)
        self.queue = actions[1:]
        return actions[0]

    def _places_line(self, view: WorldView | None) -> str:
        """The short list of areas the model may name (sectors it knows; home and work marked)."""
        if view is not None and view.ground is not None:
            return view.ground.places_text() or "home"
        sectors = list(dict.fromkeys(a.split(":")[0] for a in self.places_for(view)))
        return ", ".join(sectors[:12]) or "home"

    async def _ground(self, view: WorldView | None, activity: str, hint: str, proposal: str, block: str,
                      allowed: tuple[str, ...], fallback: str) -> tuple[str, str | None]:
        """Where an action happens and the state it leaves its object in.  With the world's place
        picker (``view.ground``) the world chooses by the town's affordances, and by meaning
        (embeddings) when no rule fits; the state is one of that object's or nothing.  Without it
        (a bare view) the hint is matched among the allowed addresses as written."""
        proposal = clean_text(proposal, 30)
        if proposal.lower() in ("none", "null", "n/a", "-", "same", "unchanged"):
            proposal = ""
        ground = view.ground if view is not None else None
        if ground is not None:
            placed = ground.place(activity, hint or "", block)
            addr = placed.address
            if placed.fits:
                self.stats["place_fit"] += 1
            else:
                better = await self._place_by_meaning(ground, activity, hint or "", block)
                self.stats["place_by_meaning" if better else "place_unfit"] += 1
                addr = better or addr
            state = ground.state(addr, proposal, activity)
            if proposal and state is None:
                self.stats["state_dropped"] += 1
            return addr or fallback, state
        choice = resolve_place(hint, allowed, fallback) if allowed else None
        if choice is not None and choice.fallback:
            self.stats["place_fallback"] += 1
        elif choice is not None and not choice.exact:
            self.stats["place_fuzzy"] += 1
        addr = choice.address if choice else (hint or fallback)
        return addr, (proposal or None) if addr.count(":") >= 2 else None

    async def _place_by_meaning(self, ground: Any, activity: str, hint: str, block: str) -> str | None:
        """The option whose affordances are nearest in meaning to the activity (cosine of the
        embeddings the mind already uses for memories), if near enough; None when unavailable."""
        options = list(ground.options(activity, hint, block))
        if not options:
            return None
        try:
            vecs = await self.embed([activity] + [t for _, t in options])
        except Exception as e:  # noqa: BLE001 - no embeddings: the rule's choice stands
            self.stats["place_embed_error"] += 1
            log.debug("place by meaning failed: %s", e)
            return None
        q = vecs[0]
        qn = sum(x * x for x in q) ** 0.5 or 1.0
        best, best_s = None, PLACE_MEANING_MIN
        for (addr, _), v in zip(options, vecs[1:]):
            vn = sum(x * x for x in v) ** 0.5 or 1.0
            sim = sum(a * b for a, b in zip(q, v)) / (qn * vn)
            if sim > best_s:
                best, best_s = addr, sim
        return best

    def places_for(self, view: WorldView | None) -> tuple[str, ...]:
        """The allowed addresses offered to the model, most useful first, at most
        ``config.places_in_prompt``: everything in the home, the workplace and the current sector,
        then other areas (sector:arena), then the rest."""
        if view is None or not view.allowed:
            return ()
        p = self.persona
        here_sector = view.here.split(":")[0] if view.here else ""
        roots = [r for r in (p.home, p.workplace, here_sector) if r]

        def rank(a: str) -> int:
            if any(a == r or a.startswith(r + ":") for r in roots):
                return 0
            return 1 if a.count(":") == 1 else 2

        ordered = sorted(view.allowed, key=rank)  # stable: keeps the engine's order within a rank
        return tuple(ordered[: self.config.places_in_prompt])

    def _fallback_place(self, view: WorldView | None) -> str:
        return self.persona.home or (view.here if view else "")

    # ------------------------------------------------------------------ routine
    def routine_blocks(self, start: int | None = None) -> tuple[PlanBlock, ...]:
        """A plain day from the lifestyle: morning, meals, work, evening at home."""
        p = self.persona
        start = p.wake if start is None else start
        rows: list[tuple[int, int, str]] = [(p.wake, p.wake + 60, "getting ready for the day")]
        if p.workplace:
            rows.append((max(p.work_start, p.wake + 60), p.work_end, "working"))
        for name, t in p.meals:
            rows.append((t, t + 45, f"having {name}"))
        rows.append((p.work_end, p.sleep, "relaxing at home"))
        return shape_plan(rows, start, p.sleep, self.config.max_block_min)

    def routine_action(self, now: datetime, view: WorldView | None = None) -> Action:
        """What the resident does by rule (no model): sleep, meals, work, home.  Used on the first
        morning until the day plan arrives and whenever a decision is pending or has failed."""
        p = self.persona
        _, m = self.day_and_minute(now)
        allowed = tuple(view.allowed) if view else ()
        home = p.home or (view.here if view else "")

        ground = view.ground if view is not None else None

        def at(base: str, words: tuple[str, ...], activity: str = "") -> str:
            if ground is not None and activity:  # the world knows where breakfast is had at home
                hint = "home" if base == home else "work" if base and base == p.workplace else base
                placed = ground.place(activity, hint)
                if placed.fits:
                    return placed.address
            return find_in(allowed, base, words) or base or (view.here if view else "")

        if m < p.wake or m >= p.sleep:
            until = p.wake if m < p.wake else p.wake + 24 * 60
            return Action("sleeping", "😴", at(home, ("bed",), "sleeping"), max(5, min(60, until - m)), None, now,
                          "routine")
        if m < p.wake + 30:
            return Action("getting ready for the day", "🚿", at(home, ("bathroom", "shower", "sink"),
                                                                 "getting ready for the day"),
                          max(5, p.wake + 30 - m), None, now, "routine")
        for name, t in p.meals:
            if t <= m < t + 30:
                work_meal = p.workplace and p.work_start <= m < p.work_end and name == "lunch"
                place = at(p.workplace if work_meal else home, ("kitchen", "table", "dining"), f"having {name}")
                return Action(f"having {name}", "🍴", place, max(5, t + 30 - m), None, now, "routine")
        nxt = min([t for _, t in p.meals if t > m] + [p.sleep])
        if p.workplace and p.work_start <= m < p.work_end:
            end = min(p.work_end, nxt)
            return Action("working", "💼", at(p.workplace, ("desk", "counter", "office"), "working"),
                          max(5, min(60, end - m)), None, now, "routine")
        if p.workplace and m < p.work_start:
            nxt = min(nxt, p.work_start)
        return Action("spending time at home", "🏠", at(home, ("living", "couch", "sofa", "room"),
                                                     "spending time at home"),
                      max(5, min(60, nxt - m)), None, now, "routine")

    # ------------------------------------------------------------------ reacting
    async def react(self, now: datetime, percept_text: str, view: WorldView | None = None) -> Reaction:
        """Decide whether something salient changes what the resident does: continue, react (a new
        action now; the rest of the block is decomposed again afterwards) or talk to someone."""
        text = clean_text(percept_text, 300)
        d, _ = self.day_and_minute(now)
        if not text or self.asleep_at(now):
            return Reaction("continue", reason="asleep" if text else "nothing")
        last = self._reacted.get(text)
        if last is not None and now - last < timedelta(minutes=self.config.react_cooldown_min):
            self.stats["react_cooldown"] += 1
            return Reaction("continue", reason="already considered")
        if self.calls_on(d).get("react", 0) >= self.config.max_reacts_per_day:
            self.stats["react_budget"] += 1
            return Reaction("continue", reason="budget")
        self._reacted[text] = now
        allowed = tuple(view.allowed) if view and view.allowed else ()
        people = tuple(view.people_here) if view else ()
        ctx = Context(self, now, view, focus=text, about=people)
        context = await assemble([Identity(), Situation(), Plan(), Thoughts(), Relationships(),
                                  RelevantMemories(k=4, token_budget=120, kinds=MEMORY_KINDS)], ctx)
        try:
            ans = await self._complete("react", ReactAnswer, "react", Priority.REACT, now, max_tokens=100,
                                       context=context, places=self._places_line(view),
                                       people=", ".join(people) or "nobody", first=self.persona.first_name,
                                       percept=text)
        except LLMError as e:
            self._fail("react", e)
            return Reaction("continue", reason="error")
        meant = _talk_meant(ans, people) if ans.decision == "react" else None
        if meant is not None:
            # a small model often picks "react" with someone in talk_to and "tell Rosa about ...":
            # that is a wish to talk, and the talk is what should happen
            self.stats["react_as_talk"] += 1
            ans = ans.model_copy(update={"decision": "talk", "talk_to": meant})
        if ans.decision == "react" and ans.new_action.strip().lower().rstrip(".") in _NOTHING:
            ans = ans.model_copy(update={"decision": "continue"})
        if ans.decision == "react" and _BED_WORDS.search(ans.new_action) and not self._near_bed_time(now):
            # "going to wake up with Eli Moreau" at 16:16: waking or going to bed is not a reaction
            # to a sight in the middle of the day
            self.stats["react_absurd"] += 1
            ans = ans.model_copy(update={"decision": "continue"})
        if ans.decision == "talk" and self.talks_on(d) >= self.config.max_talks_per_day:
            self.stats["react_talk_enough"] += 1
            return Reaction("continue", reason="talked enough today")
        if ans.decision == "talk":
            who = _match_name(ans.talk_to, people)
            if who is None and len(people) == 1:
                who = people[0]
            if who is not None and who != self.name:
                self.stats["react_talk"] += 1
                return Reaction("talk", with_whom=who, reason=text)
            self.stats["react_talk_nobody"] += 1
            if not ans.new_action:
                return Reaction("continue", reason="nobody to talk to")
            ans = ans.model_copy(update={"decision": "react"})  # nobody here: do what it said instead
        if ans.decision == "react" and ans.new_action:
            here = view.here if view else ""
            # the place and the state of the thing it acts on ("off" for a dripping tap, a fire
            # put out), both by the world when it can say
            addr, state = await self._ground(view, ans.new_action, ans.place or here, ans.state,
                                             text, allowed, here or self._fallback_place(view))
            act = Action(ans.new_action, pick_emoji(ans.emoji, emoji_for(ans.new_action)), addr,
                         max(5, min(60, ans.minutes)), state, now, "reaction")
            # re-plan from now: the reaction first, the rest of the block decomposed afresh after it
            self.queue = []
            self.current = act
            self.stats["react_react"] += 1
            self.memory.add("plan", f"On noticing that {text}, I decided to {act.description}", now,
                            importance=5)
            return Reaction("react", new_action=act, reason=text)
        return Reaction("continue", reason="model")

    def _near_bed_time(self, now: datetime) -> bool:
        """Within an hour of waking or of bed time (or asleep): when sleep and waking make sense."""
        _, m = self.day_and_minute(now)
        p = self.persona
        return m < p.wake + 60 or m >= p.sleep - 60

    # ------------------------------------------------------------------ dialogue
    def _talk_ran_long(self, now: datetime, conversation: Conversation) -> Line | None:
        d, _ = self.day_and_minute(now)
        mine = sum(1 for s, _ in conversation.lines if s == self.name)
        if not conversation.with_player and (
                mine >= self.config.max_turns_per_speaker
                or self._lines_today[d.isoformat()] >= self.config.max_lines_per_day):
            self.stats["dialogue_rule_end"] += 1
            # the talk ends as an event the town shows, not with a canned line passed off as the
            # resident's own words
            return Line("", end=True, source="rule", reason=f"{self.persona.first_name} took their leave")
        return None

    async def _talk_context(self, now: datetime, conversation: Conversation, listeners: list[str]) -> str:
        last = conversation.lines[-1][1] if conversation.lines else ""
        focus = " ".join(listeners) + (": " + last if last else "")
        ctx = Context(self, now, None, focus=focus, about=listeners)
        return await assemble([Identity(), Situation(), Thoughts(), Relationships(),
                               RelevantMemories(k=5, token_budget=160)], ctx)

    async def say(self, now: datetime, conversation: Conversation, listener_names: Sequence[str],
                  priority: Priority | None = None) -> Line:
        """The resident's next line, conditioned on what it remembers of the listeners and on the talk
        so far.  Works for any number of participants.  Ends by rule when the talk runs long."""
        listeners = [n for n in listener_names if n != self.name]
        d, _ = self.day_and_minute(now)
        ended = self._talk_ran_long(now, conversation)
        if ended is not None:
            return ended
        context = await self._talk_context(now, conversation, listeners)
        if priority is None:
            priority = Priority.PLAYER if conversation.with_player else Priority.REACT
        try:
            ans = await self._complete("dialogue", LineAnswer, "dialogue", priority, now, max_tokens=80,
                                       context=context, transcript=conversation.transcript() or "(nothing yet)",
                                       first=self.persona.first_name, listeners=", ".join(listeners) or "someone")
        except LLMError as e:
            self._fail("dialogue", e)
            return Line("", end=True, source="error")
        self._lines_today[d.isoformat()] += 1
        text = _strip_speaker(ans.say, [self.name, self.persona.first_name])
        if not text:
            return Line("", end=True)
        if not conversation.with_player and _repeats(text, [t for _, t in conversation.lines]):
            # a small model's talk goes round in circles ("let's go and meet Felix right away!"):
            # the line that says again what was said ends it, and is not said
            self.stats["talk_in_circles"] += 1
            return Line("", end=True)
        return Line(text, end=bool(ans.end_conversation))

    async def _held_context(self, now: datetime, conversation: Conversation, listeners: list[str]) -> str:
        """The context of every reply in ``conversation``: made once (who the resident is, where,
        what it remembers of the listeners) and held until the conversation is over."""
        held = self._held.get(conversation.id)
        if held is None:
            held = await self._talk_context(now, conversation, listeners)
            self._held[conversation.id] = held
            while len(self._held) > 4:  # conversations long over
                self._held.popitem(last=False)
        return held

    def _reply_messages(self, context: str, lines: Sequence[tuple[str, str]], listeners: list[str],
                        recall: str = "", last: tuple[str, str] | None = None) -> list:
        """The reply prompt: the held context, the talk so far, what the line to answer brings to
        mind (``recall``), the instruction, then that line (``last``, else the last of ``lines`` when
        someone else said it) and a short cue.  The line to answer comes nearly last so that a
        prompt made while the player was still typing it (``listen``) is the reply's own up to the
        player's newest words, and the reply evaluates little more than the words typed after them.
        (The cue after it: without one, Qwen 1.5B echoed the player's first line in 5 of 40
        replies; with "(Rosa answers in Rosa's own words)", 1 in 64.)"""
        lines = list(lines)[-TALK_LINES:]
        if last is None and lines and lines[-1][0] != self.name:
            last = lines.pop()
        elif last is not None:
            lines = lines[-(TALK_LINES - 1):]
        values = dict(context=context, first=self.persona.first_name, listeners=", ".join(listeners) or "someone",
                      talk="\n".join(f"{s}: {t}" for s, t in lines) or "(nothing yet)",
                      recall=f"\n{recall}" if recall else "")
        if last is None:  # nothing to answer: the resident speaks first
            return prompting.render("dialogue_stream_open", **values)
        return prompting.render("dialogue_stream", **values, speaker=last[0], last=f"{last[0]}: {last[1]}")

    async def listen(self, now: datetime, conversation: Conversation, listener_names: Sequence[str],
                     typed: tuple[str, str] | None = None) -> bool:
        """The player is about to speak to this resident (a talk just opened, the resident's own line
        was just said, or the player is typing: ``typed`` is who types and the words so far).  The
        reply prompt's context is made now (once per conversation, then held) and, where the server
        keeps prompt caches, as much of the reply's prompt as is known is evaluated now with one
        prefill call while the player types: the talk so far, and with ``typed`` what those words
        bring to mind and the words themselves.  The first words of the reply then come after
        evaluating only what the player typed last.  Returns whether the server was asked.  A
        failure is logged, never raised: this only saves time."""
        listeners = [n for n in listener_names if n != self.name]
        prefill = getattr(self.llm, "prefill", None)
        try:
            context = await self._held_context(now, conversation, listeners)
            if prefill is None:
                return False
            recall = (await self._recall_for(typed[1], now, context, (conversation.id, len(conversation.lines)))
                      if typed and typed[1] else "")
        except LLMError as e:
            self._fail("listen", e)
            return False
        if typed and typed[1]:
            # the whole prompt as it would be if the player said this now: if they type on, only
            # the new words are left to evaluate
            messages = self._reply_messages(context, conversation.lines, listeners, recall, last=typed)
        else:
            # the prompt up to the cut is how the next reply's prompt begins: the talk so far, then
            # what the next line brings to mind, the instruction and the line, still to come
            cut = "\x00"
            system, user = self._reply_messages(context, conversation.lines, listeners, cut, last=("?", "?"))
            messages = [system, Message("user", user.content[:user.content.index(cut)])]
        try:
            sent = bool(await prefill(messages, CallTag("prefill", self.name, Priority.PLAYER)))
        except LLMError as e:
            self._fail("prefill", e)
            return False
        if sent:
            d, _ = self.day_and_minute(now)
            self.calls[(d.isoformat(), "prefill")] += 1
        return sent

    async def _recall_for(self, said: str, now: datetime, held: str, line: tuple[str, int] | None = None) -> str:
        """Memories that a line brings up and the held context does not show (the player asks about
        the bakery: what the resident heard about it), as a short section before that line.

        ``line`` names the line (conversation id, lines before it) while the player is still
        typing it: what each version of it brings to mind is kept, and what a later version adds
        comes after it (at most ``BROUGHT_MAX`` memories), so the section grows at its end instead
        of changing as the words do, and the prompt made while they typed stays the reply's own."""
        recs = await self.recall(said, now, k=3, token_budget=70, kinds=MEMORY_KINDS)
        new = [r.text for r in sorted(recs, key=lambda r: (r.created, r.id)) if f"- {r.text}\n" not in held + "\n"]
        if line is not None:
            brought = self._brought.setdefault(line, [])
            for t in new:
                if t not in brought and len(brought) < BROUGHT_MAX:
                    brought.append(t)
            new = list(brought)
            for key in [k for k in self._brought if k[0] == line[0] and k[1] < line[1]]:
                del self._brought[key]  # the lines before it are said
            while len(self._brought) > 4:  # (conversations long over)
                del self._brought[next(iter(self._brought))]
        if not new:
            return ""
        return f"{self.persona.first_name} recalls:\n" + "\n".join(f"- {t}" for t in new) + "\n"

    async def _recall_now(self, now: datetime, conversation: Conversation, held: str) -> str:
        last = conversation.lines[-1] if conversation.lines else None
        if last is None or last[0] == self.name:
            return ""
        line = (conversation.id, len(conversation.lines) - 1)
        return await self._recall_for(last[1], now, held, line if line in self._brought else None)

    async def say_stream(self, now: datetime, conversation: Conversation, listener_names: Sequence[str],
                         priority: Priority | None = None) -> AsyncIterator[str | Line]:
        """Like ``say`` but the text comes piece by piece (free text, for the player to watch); the
        last item yielded is the finished, cleaned ``Line``.  The prompt begins with a context held
        for the whole conversation (see ``listen``); what the last line brings to mind comes after
        the talk so far."""
        listeners = [n for n in listener_names if n != self.name]
        d, _ = self.day_and_minute(now)
        ended = self._talk_ran_long(now, conversation)
        if ended is not None:
            yield ended
            return
        held = await self._held_context(now, conversation, listeners)
        recall = await self._recall_now(now, conversation, held)
        if priority is None:
            priority = Priority.PLAYER if conversation.with_player else Priority.REACT
        messages = self._reply_messages(held, conversation.lines, listeners, recall)
        self.calls[(d.isoformat(), "dialogue")] += 1
        text = ""
        sent = 0  # characters of the cleaned reply already yielded
        # a name in front is not to be shown: its own, or (the small model's slips) a listener's or
        # that of someone it knows (copied from its memories: "Ines Moreau: runs the cafe")
        known = list(listeners) + [str(n) for n in (getattr(self.persona, "relationships", None) or {})]
        names = [self.name, self.persona.first_name] + [n for who in known if who for n in (who, who.split()[0])]
        try:
            # one line: what a small model adds after it ("This answer reflects ...") is not said
            async for piece in self.llm.stream(messages, CallTag("dialogue", self.name, priority), max_tokens=80,
                                               stop=("\n",)):
                text += piece
                lead = _speaker_lead(text, names)
                if lead is None:
                    continue  # it may still turn out to be "Rosa: ": not shown until it is known
                shown = text[lead:]
                if len(shown) > sent:
                    yield shown[sent:]
                    sent = len(shown)
        except LLMError as e:
            self._fail("dialogue", e)
            yield Line(_strip_speaker(clean_text(text, 300), names),
                       end=True, source="error")
            return
        self._lines_today[d.isoformat()] += 1
        line = _strip_speaker(clean_text(text, 300), names)
        yield Line(line, end=not line or _says_goodbye(line))

    async def answer(self, now: datetime, question: str, asker: str = "An interviewer",
                     remember: bool = False) -> str:
        """Answer a question in the resident's voice (interviews; the player asking)."""
        q = clean_text(question, 300)
        ctx = Context(self, now, None, focus=q)
        whole_day = Plan(before=99, after=99)  # "what will you do at 6pm?" needs all of it
        context = await assemble([Identity(), whole_day, Thoughts(), RelevantMemories(k=8, token_budget=260)], ctx)
        ans = await self._complete("answer", AnswerText, "interview", Priority.PLAYER, now, max_tokens=110,
                                   context=context, asker=asker, first=self.persona.first_name, question=q)
        if remember:
            self.memory.add("player", f"{asker} asked me: {q}", now)
        return ans.answer

    # ---------------------------------------------------------------- reflection
    def reflection_due(self) -> bool:
        return self.memory.importance_since(self.last_reflection) >= self.config.reflect_threshold

    async def reflect_if_due(self, now: datetime) -> list[str]:
        """When the importance of what happened since the last reflection passes the threshold:
        salient questions (one call), retrieval for each, insights citing their evidence (one call)."""
        if not self.reflection_due():
            return []
        self.last_reflection = now
        name = self.name
        recent = self.memory.recent(60)
        items = "\n".join(f"- {r.text}" for r in recent[-40:])
        try:
            qa = await self._complete("questions", QuestionsAnswer, "reflect", Priority.REFLECT, now,
                                      max_tokens=90, name=name, items=items)
        except LLMError as e:
            self._fail("reflect", e)
            return []
        evidence: dict[int, Record] = {}
        for q in qa.questions[:3]:
            for r in await self.recall(q, now, k=5, token_budget=200, kinds=None):
                evidence.setdefault(r.id, r)
        if not evidence:
            return []
        numbered = sorted(evidence.values(), key=lambda r: r.created)[:15]
        listing = "\n".join(f"{n}. {r.text}" for n, r in enumerate(numbered, 1))
        try:
            ia = await self._complete("insights", InsightsAnswer, "reflect", Priority.REFLECT, now,
                                      max_tokens=200, name=name, items=listing)
        except LLMError as e:
            self._fail("reflect", e)
            return []
        made = []
        for ins in ia.insights:
            ids = []
            for n in ins.evidence:
                if 1 <= n <= len(numbered):
                    ids.append(numbered[n - 1].id)
                else:
                    self.stats["evidence_dropped"] += 1
            ids = list(dict.fromkeys(ids))
            if not ins.insight or not ids:
                self.stats["insight_dropped"] += 1
                continue
            self.memory.add("reflection", ins.insight, now, evidence=ids)
            made.append(ins.insight)
        self.stats["reflections"] += len(made)
        return made

    # --------------------------------------------------------------------- saves
    def to_state(self, memory: bool = True) -> dict:
        """Plain data for a save.  ``state["memory"]`` holds one row per record (embedding as float32
        bytes); everything else is JSON-serialisable.  ``memory=False`` leaves the rows out (a save
        takes the stream's ``image()`` instead: rows of 10k records cost a save seconds)."""
        return {
            "persona": self.persona.to_dict(),
            "identity": self.identity,
            "identity_date": self.identity_date.isoformat() if self.identity_date else None,
            "yesterday": self.yesterday,
            "plan": self.plan.to_dict() if self.plan else None,
            "plan_date": self.plan_date.isoformat() if self.plan_date else None,
            "queue": [a.to_dict() for a in self.queue],
            "current": self.current.to_dict() if self.current else None,
            "replan_reason": self.replan_reason,
            "last_reflection": self.last_reflection.isoformat() if self.last_reflection else None,
            "first_date": self.first_date.isoformat() if self.first_date else None,
            "stats": dict(self.stats),
            "calls": [[d, p, n] for (d, p), n in self.calls.items()],
            "held": dict(self._held),
            **({"memory": self.memory.to_rows()} if memory else {}),
        }

    @classmethod
    def from_state(cls, state: dict, llm: LLM, embedder: Embedder | Any | None = None, *,
                   config: MindConfig | None = None) -> "Mind":
        m = cls(Persona.from_dict(state["persona"]), llm, embedder, config=config)
        mem = state.get("memory", [])
        if isinstance(mem, MemoryImage):  # a loaded save's: built in one go
            owned = bool(mem.extra.pop("owned", False))  # taken once: a second stream copies
            m.memory = MemoryStream.from_image(mem, owned=owned, weights=m.config.weights)
        else:
            m.memory = MemoryStream.from_rows(mem, weights=m.config.weights)
        m.identity = state.get("identity", "")
        m.identity_date = _date(state.get("identity_date"))
        m.yesterday = state.get("yesterday", "")
        m.plan = DayPlan.from_dict(state["plan"]) if state.get("plan") else None
        m.plan_date = _date(state.get("plan_date"))
        m.queue = [Action.from_dict(a) for a in state.get("queue", [])]
        m.current = Action.from_dict(state["current"]) if state.get("current") else None
        m.replan_reason = state.get("replan_reason")
        lr = state.get("last_reflection")
        m.last_reflection = datetime.fromisoformat(lr) if lr else None
        m.first_date = _date(state.get("first_date"))
        m.stats = Counter(state.get("stats", {}))
        m.calls = Counter({(d, p): n for d, p, n in state.get("calls", [])})
        held = state.get("held") or {}
        m._held = OrderedDict((str(k), str(v)) for k, v in held.items()) if isinstance(held, dict) else OrderedDict()
        return m


_GOODBYES = ("goodbye", "good bye", "bye", "see you", "talk later", "take care", "have a good")


def _says_goodbye(text: str) -> bool:
    t = text.lower()
    return any(g in t for g in _GOODBYES)


def _strip_speaker(text: str, names: Sequence[str]) -> str:
    """A line without a leading "Name:" (small models often write the speaker's name first)."""
    t = text.strip()
    for n in names:
        if n and t.lower().startswith(n.lower() + ":"):
            t = t[len(n) + 1:].strip()
    return t.strip('"').strip()


def _speaker_lead(text: str, names: Sequence[str]) -> int | None:
    """How many leading characters of a reply still being written are not words to show: spaces,
    the speaker's own name ("Rosa: ") and an opening quote.  None while that cannot be told yet."""
    t = text.lstrip()
    skip = len(text) - len(t)
    low = t.lower()
    for n in sorted((n for n in names if n), key=len, reverse=True):
        head = n.lower() + ":"
        if low.startswith(head):
            skip += len(head)
            t = t[len(head):]
            break
        if head.startswith(low):
            return None  # "Ro", "Rosa" ... may yet be the name
    rest = t.lstrip(' "\u201c')
    if not rest:
        return None
    return skip + len(t) - len(rest)


def _date(s: str | None) -> date | None:
    return date.fromisoformat(s) if s else None


_NOTHING = ("continue", "nothing", "none", "carry on", "keep going", "keep doing the same thing")
_TALK_WORDS = ("talk", "tell", "ask", "inform", "chat", "greet", "say", "speak", "discuss", "invite",
               "mention", "share", "hello", "hi ", "conversation", "let him know", "let her know")


def _talk_meant(ans: Any, people: Sequence[str]) -> str | None:
    """Whom a "react" answer means to talk to, if it is a wish to talk to someone nearby: it names
    them in talk_to and its action is talking to them (or nothing else), or its action is telling,
    asking, ... someone who is named in it or is the only one there ("telling everyone I see about
    the party").  None when it is not a talk."""
    act = (ans.new_action or "").lower()
    talky = any(w in act for w in _TALK_WORDS)
    who = _match_name(ans.talk_to, people) if ans.talk_to else None
    if who is not None:
        return who if (not act or talky or who.split()[0].lower() in act.split()) else None
    if not talky or not people:
        return None
    named = [p for p in people if p.split()[0].lower() in act.split()]
    if len(named) == 1:
        return named[0]
    return people[0] if len(people) == 1 else None


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9']+", text.lower()) if len(w) > 2}


def _repeats(text: str, earlier: Sequence[str], overlap: float = 0.75) -> bool:
    """True when ``text`` says nearly the same words as one of the ``earlier`` lines."""
    mine = _words(text)
    if not mine:
        return False
    for other in earlier:
        theirs = _words(other)
        if theirs and len(mine & theirs) / len(mine | theirs) >= overlap:
            return True
    return False


def _match_name(raw: str, people: Sequence[str]) -> str | None:
    r = clean_text(raw, 60).lower()
    if not r:
        return None
    for p in people:
        if p.lower() == r:
            return p
    for p in people:
        parts = p.lower().split()
        if r in parts or parts[0] in r.split():
            return p
    return None
