"""Rules that make a model's answer fit the day: plan blocks that cover it exactly, step durations
that fill a block, an emoji when the model's is unusable.

Pure functions (no model, no state): the planner, the routine and reactions use them, and tests
check them directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from game.mind.schemas import clean_text
from game.mind.view import PlanBlock

T = TypeVar("T")  # what a step carries along (the model's item)

_EMOJI_RULES = (  # the first rule whose word is in the action: the model is not asked for emoji
    (("wake", "waking", "get up", "getting up", "out of bed"), "🌅"),
    (("sleep", "nap", "bed"), "😴"), (("breakfast", "lunch", "dinner", "eat", "meal", "snack"), "🍴"),
    (("teach", "class", "lesson", "lecture"), "🏫"), (("coffee", "tea"), "☕"),
    (("cook", "bake", "baking", "bread"), "🍳"), (("drive", "driving"), "🚗"),
    (("walk", "go to", "head"), "🚶"),
    (("read", "study", "book", "library"), "📚"), (("write", "writing", "paper", "essay"), "📝"),
    (("talk", "chat", "meet", "conversation"), "💬"), (("shop", "buy", "store"), "🛒"),
    (("paint", "draw", "art"), "🎨"), (("music", "piano", "guitar", "sing"), "🎵"),
    (("work", "office", "job", "serv", "customer", "shift"), "💼"), (("wash", "shower", "bath", "brush"), "🚿"),
    (("garden", "plant", "flower"), "🌱"), (("campaign", "election", "mayor", "vote", "voting"), "📣"),
    (("party", "celebrat"), "🎉"), (("clean", "tidy", "wip", "sweep", "mop", "dust"), "🧹"),
    (("computer", "code", "coding", "email"), "💻"),
    (("phone", "call"), "📞"), (("dress", "closet", "clothes"), "👕"),
    (("run", "jog", "exercis", "stretch", "yoga"), "🏃"),
    (("tv", "television", "movie", "film"), "📺"), (("plan", "prepar", "debate", "speech"), "📝"),
    (("water", "drink"), "🥤"), (("relax", "rest", "sofa"), "😌"),
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


def fit_steps(steps: Sequence[tuple[str, int, T]], span: int) -> list[tuple[str, int, T]]:
    """Durations that fill ``span`` minutes: extra steps dropped, the last one stretched or cut."""
    out: list[tuple[str, int, T]] = []
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


def scale_steps(steps: Sequence[tuple[str, int, T]], span: int) -> list[tuple[str, int, T]]:
    """Durations that fill ``span`` minutes in the proportions the steps were given: steps that
    ask for more than the span are cut as ``fit_steps`` cuts them; steps that ask for less are
    stretched together (not the last one alone), so a window of two blocks keeps its order of
    things through both.  Every step keeps at least one minute."""
    asked = sum(max(1, int(m)) for _, m, _ in steps)
    if not steps or asked >= span:
        return fit_steps(steps, span)
    out: list[tuple[str, int, T]] = []
    used, acc = 0, 0.0
    for desc, m, extra in steps:
        acc += max(1, int(m)) * span / asked
        n = max(1, round(acc) - used)
        out.append((desc, n, extra))
        used += n
    desc, m, extra = out[-1]
    out[-1] = (desc, max(1, m + span - used), extra)
    return out
