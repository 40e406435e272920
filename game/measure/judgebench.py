"""The model's claim read (``game.mind.facts.judge``) asked of every line of a save's talks, to measure
it against what a reader found before the town relies on it (issue 39).

``python -m game.measure.judgebench SAVE --llm-url URL [--labels FILE] [--out FILE]``: for each talk
line, what the speaker holds (its persona, its people, the town's public roles, the gatherings it
holds, its memories that name the listener from before the talk) and the line go to the model; the
statements it finds and their verdicts are printed, with the calls, the tokens and the seconds.
With ``--labels`` (a JSON object: talk number, from 1 -> the lines, from 0, a reader found unbacked),
how many of those lines it flags and how many others it flags too.  Nothing is written to the save.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from datetime import datetime
from typing import TYPE_CHECKING

from game.llm.accounting import accounting_of
from game.measure.audit import saved_facts, town_names
from game.measure.records import SaveData, read_save
from game.mind.facts.fact import Fact, TownNames
from game.mind.facts.judge import notes_of, read_claims
from game.text import clean, echo

if TYPE_CHECKING:  # pragma: no cover
    from game.llm.api import LLM

MEMORIES = 6


def speaker_notes(save: SaveData, town: TownNames, facts: dict[str, list[Fact]], speaker: str, listener: str,
                  before: datetime | None) -> str:
    """What ``speaker`` holds for a line to ``listener``, as the judge's prompt shows it."""
    p = save.personas.get(speaker) or {}
    public = " ".join(str(p.get(k) or "") for k in ("background", "currently")).strip()
    roles = [f"{who}: {', '.join(rs)}" for who, rs in town.roles.items()]
    roles += [f"{who} works at {where}" for who, where in town.workplaces.items() if where]
    now = save.now
    held = [f.sentence(now) if now else f.what for f in facts.get(speaker, [])]
    first = listener.split()[0]
    mem = [r.text for r in save.memories if r.resident == speaker and first in r.text
           and r.kind != "conversation" and (before is None or r.created < before)][-MEMORIES:]
    return notes_of(public, save.relationships.get(speaker, {}), roles, held, mem)


def _start(conv: dict) -> datetime | None:
    try:
        return datetime.fromisoformat(str(conv.get("started") or conv.get("start") or ""))
    except ValueError:
        return None


async def bench(llm: LLM, path: str, labels: dict[str, list[int]] | None) -> dict:
    save = read_save(path)
    town, facts = town_names(save), saved_facts(save)
    rows: list[dict] = []
    t0 = time.monotonic()
    for n, conv in enumerate(save.conversations, 1):
        people = [str(p) for p in conv.get("participants", [])]
        for i, (speaker, text) in enumerate(conv.get("lines", [])):
            listener = next((p for p in people if p != speaker), "")
            notes = speaker_notes(save, town, facts, speaker, listener, _start(conv))
            read = await read_claims(llm, text, speaker, listener, notes)
            flagged = [s.statement for s in read.statements if not s.supported]
            rows.append({"talk": n, "line": i, "speaker": speaker, "text": text, "flagged": flagged,
                         "statements": [s.model_dump() for s in read.statements]})
            mark = "!" if flagged else " "
            print(f"{mark} {n}.{i} {speaker}: {clean(text)}")
            for s in read.statements:
                print(f"      [{'backed' if s.supported else 'UNBACKED'}] {clean(s.statement)}")
    out = {"save": path, "lines": len(rows), "flagged": sum(bool(r["flagged"]) for r in rows),
           "seconds": round(time.monotonic() - t0, 1), "rows": rows}
    if labels is not None:
        bad = {(int(t), int(i)) for t, lines in labels.items() for i in lines}
        hit = {(r["talk"], r["line"]) for r in rows if r["flagged"]}
        out |= {"labelled": len(bad), "caught": len(bad & hit), "false_alarms": len(hit - bad)}
    return out


def main(argv: list[str] | None = None) -> int:
    from game.cli import add_llm_flags  # the same model flags as every command
    from game.llm.config import LLMConfig
    from game.llm.session import open_llm

    ap = argparse.ArgumentParser(prog="python -m game.measure.judgebench", description=__doc__.split("\n\n")[0])
    ap.add_argument("save")
    ap.add_argument("--labels", help="JSON: talk number (from 1) -> the lines (from 0) a reader found unbacked")
    ap.add_argument("--out", help="write the rows as JSON here")
    add_llm_flags(ap)
    args = ap.parse_args(argv)
    labels = json.loads(open(args.labels, encoding="utf-8").read()) if args.labels else None

    async def run() -> dict:
        async with open_llm(LLMConfig.from_args(args), progress=lambda m: echo(m, file=sys.stderr)) as llm:
            result = await bench(llm, args.save, labels)
            acc = accounting_of(llm)
            result["usage"] = {k: vars(u) for k, u in acc.by_purpose().items()} if acc else {}
            return result

    result = asyncio.run(run())
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(result, f, ensure_ascii=False, indent=1)
    print({k: v for k, v in result.items() if k not in ("rows",)})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
