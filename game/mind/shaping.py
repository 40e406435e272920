"""Rules that make a model's answer fit the day: plan blocks that cover it exactly, step durations
that fill a block, an emoji when the model's is unusable.

Pure functions (no model, no state): the planner, the routine and reactions use them, and tests
check them directly.
"""

from __future__ import annotations

from typing import Any, Sequence

from game.mind.schemas import clean_text
from game.mind.view import PlanBlock


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
