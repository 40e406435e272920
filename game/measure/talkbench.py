"""The talks of a save asked again, to compare ways of asking on the same situations (issue 39).

``python -m game.measure.talkbench SAVE --llm-url URL [--limit N] [--out FILE]`` loads the save and,
for each of its conversations between residents, asks the one who began it for the whole talk
again (``Mind.converse``, with each listener's ``talk_side``, as the engine does), then vets each
line as the engine would (``TalkFacts.vet``: secrets, unbacked claims, misattributions, the fact's
words) and reads what is left with ``town audit``'s rules.  Every talk is asked at the save's
moment from the save's memories: the same situations for every way of asking, not the day as it
was lived (the talk itself is among the memories).  Prints each talk and the totals; nothing is
written back to the save.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING

from game.measure.audit import UNBACKED, check_line, memory_texts, saved_facts, town_names
from game.measure.records import SaveData, read_save
from game.mind import Mind
from game.mind.view import Conversation
from game.text import clean, echo

if TYPE_CHECKING:  # pragma: no cover
    from game.engine.engine import Engine
    from game.llm.api import LLM


@dataclass
class BenchLine:
    speaker: str
    said: str  # as vetted ("" when not said)
    fixes: list[str]  # what the checks did
    unbacked: list[str]  # what the audit's rules find in what was said


@dataclass
class BenchTalk:
    people: list[str]
    lines: list[BenchLine] = field(default_factory=list)


def pairs(save: SaveData, limit: int | None = None) -> list[list[str]]:
    """The residents of each of the save's talks that had lines, the one who began it first."""
    out = []
    for conv in save.conversations:
        people = [str(p) for p in conv.get("participants", []) if str(p) in save.residents]
        lines = conv.get("lines") or []
        if len(people) < 2 or not lines:
            continue
        first = str(lines[0][0]) if str(lines[0][0]) in people else people[0]
        out.append([first, *[p for p in people if p != first]])
    return out[:limit] if limit else out


async def ask_talk(engine: Engine, people: Sequence[str], n: int) -> list[tuple[str, str, list[str]]]:
    """One talk asked of ``people[0]`` with the others, each line as vetted: (speaker, text, fixes)."""
    now = engine.clock.now
    starter, listeners = people[0], list(people[1:])
    minds = engine.core.minds
    sides = {p: await minds[p].talk_side(now, [starter]) for p in listeners}
    conv = Conversation(id=f"bench-{n}", participants=list(people), place="", lines=[], started=now)
    script = await minds[starter].converse(now, conv, sides)
    out = []
    for speaker, text in script.lines:
        who, said = engine.talk_facts.vet(conv, speaker, text, now)  # (a line about a fact goes to its holder)
        fixes = conv.checks.pop(len(conv.lines), [])
        if said.strip():
            conv.lines.append((who, said))
        out.append((who, said, [*fixes, *(w for s, t, w in conv.withheld if t == text and s == speaker)]))
    return out


async def bench(llm: LLM, path: str, limit: int | None = None, *, points: bool = True, narrow: bool = True,
                tagged: bool = False) -> tuple[list[BenchTalk], dict[str, object]]:
    from game.engine.build import build_engine, read_input

    save = read_save(path)
    town, facts, memos = town_names(save), saved_facts(save), memory_texts(save)  # (what backs a line, as the audit)
    engine = build_engine(read_input(path), llm, lockstep=True)
    for m in engine.core.minds.values():  # with or without each speaker's own points (game/mind/talk/points.py)
        if isinstance(m, Mind):
            m.core.use_config(replace(m.core.config, talk_points=points, talk_narrow=narrow,
                                                     talk_tagged=tagged))
    talks: list[BenchTalk] = []
    verdicts: Counter[str] = Counter()
    try:
        for n, people in enumerate(pairs(save, limit)):
            talk = BenchTalk(list(people))
            for speaker, text, fixes in await ask_talk(engine, people, n):
                others = [p for p in people if p != speaker]
                claims = check_line(text, speaker, others, save, town, facts, save.now, memos) if text else []
                bad = [c for c in claims if c.verdict in UNBACKED]
                verdicts.update(c.verdict for c in bad)
                talk.lines.append(BenchLine(speaker, text, fixes, [f"{c.kind}: {c.what} ({c.verdict})" for c in bad]))
            talks.append(talk)
    finally:
        await engine.aclose()
    lines = [ln for t in talks for ln in t.lines]
    said = [ln for ln in lines if ln.said]
    return talks, {"talks": len(talks), "lines_said": len(said), "lines_not_said": len(lines) - len(said),
                   "lines_checked": sum(1 for ln in lines if ln.fixes),
                   "lines_unbacked_after": sum(1 for ln in said if ln.unbacked), "verdicts": dict(verdicts)}


def render(path: str, talks: list[BenchTalk], totals: dict[str, object]) -> str:
    out = [f"Talks of {path} asked again"]
    for n, t in enumerate(talks, 1):
        out.append(f"\n-- talk {n}: {', '.join(t.people)}")
        for ln in t.lines:
            out.append(f"{ln.speaker}: {clean(ln.said) or '(not said)'}")
            out += [f"    [check] {clean(f)}" for f in ln.fixes] + [f"    [unbacked] {u}" for u in ln.unbacked]
    out.append("\n" + json.dumps(totals))
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    from game.cli import add_llm_flags  # the same model flags as every command
    from game.llm.config import LLMConfig
    from game.llm.session import open_llm

    ap = argparse.ArgumentParser(prog="python -m game.measure.talkbench", description=__doc__.split("\n")[0])
    ap.add_argument("save")
    ap.add_argument("--limit", type=int, default=None, help="at most this many talks")
    ap.add_argument("--no-points", action="store_true", help="ask without each speaker's own points")
    ap.add_argument("--wide", action="store_true", help="ask with every memory the talk brings to mind and the"
                    " starter's whole self (game/mind/talk/drawn.py)")
    ap.add_argument("--tagged", action="store_true", help="each line names the point it brings up first"
                    " (MindConfig.talk_tagged)")
    ap.add_argument("--out", default=None, help="write the whole result as JSON here too")
    add_llm_flags(ap)
    args = ap.parse_args(argv)

    async def run() -> tuple[list[BenchTalk], dict[str, object]]:
        async with open_llm(LLMConfig.from_args(args), progress=lambda m: echo(m, file=sys.stderr)) as llm:
            return await bench(llm, args.save, args.limit, points=not args.no_points, narrow=not args.wide,
                               tagged=args.tagged)

    talks, totals = asyncio.run(run())
    echo(render(args.save, talks, totals))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({"save": args.save, "talks": [asdict(t) for t in talks], "totals": totals}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
