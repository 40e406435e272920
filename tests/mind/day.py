"""Drive one resident through a whole game day the way the engine would, without a world:
routine and novel sights every 10 game-minutes, a salient sight now and then, two short
conversations, reflection checks.  Used by ``test_budget.py`` (scripted answers) and by hand
against a real server (``python -m tests.mind.day``) to measure calls and tokens per resident-day."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from game.mind import Mind
from game.mind.view import Conversation

from .scenarios import DAY1, ISABELLA, KLAUS, cafe_view

ROUTINE = ["the coffee machine is idle", "Klaus Mueller is sleeping", "the counter is empty"]
NOVEL = ["a customer asks about the party", "Maria Lopez is drinking coffee", "a delivery of milk arrives",
         "Klaus Mueller is writing his paper", "a dog is barking outside", "the radio plays a love song",
         "Tom Moreno complains about the prices", "the mayor walks past the window",
         "a child drops a cup", "Sam Moore is reading the newspaper", "it starts to rain", "the lights flicker"]
SALIENT_AT = {9: "Klaus Mueller walks into the cafe", 13: "Maria Lopez waves from the door",
              16: "the stove in the kitchen of Hobbs Cafe is smoking", 19: "Klaus Mueller sits down next to Isabella"}
TALK_AT = (11, 17)


async def run_day(mind: Mind, partner: Mind, *, step_min: int = 10, start: datetime = DAY1) -> dict:
    view = cafe_view()
    t = start
    end = start + timedelta(days=1)
    busy_until = t
    novel_i = 0
    reacts = 0
    while t < end:
        if t >= busy_until:
            a = await mind.next_action(t, view)
            busy_until = t + timedelta(minutes=a.duration_min)
        if not mind.asleep_at(t):
            sights = list(ROUTINE)
            if t.minute % 30 == 0:
                sights.append(NOVEL[novel_i % len(NOVEL)] + f" ({t:%H:%M})")
                novel_i += 1
            await mind.observe(t, sights)
            if t.minute == 0 and t.hour in SALIENT_AT:
                r = await mind.react(t, SALIENT_AT[t.hour], view)
                reacts += 1
                if r.kind == "react" and r.new_action:
                    busy_until = t + timedelta(minutes=r.new_action.duration_min)
            if t.minute == 0 and t.hour in TALK_AT:
                conv = Conversation(f"c{t.hour}", [partner.core.name, mind.core.name])
                for n in range(6):
                    sp = partner if n % 2 == 0 else mind
                    line = await sp.say(t, conv, [x for x in conv.participants if x != sp.core.name])
                    if line.text:
                        conv.add(sp.core.name, line.text)
                    if line.end:
                        break
                mind.remember_conversation(t, conv)
                partner.remember_conversation(t, conv)
            if t.minute == 0:
                await mind.reflect_if_due(t)
        t += timedelta(minutes=step_min)
    return {"calls": dict(Counter({p: n for (d, p), n in mind.core.calls.items() if d == start.date().isoformat()})),
            "stats": dict(mind.stats), "records": len(mind.memory), "reacts_asked": reacts}


async def _main(argv: list[str]) -> int:
    from game.llm.client import ModelClient
    from game.llm.config import LLMConfig
    from game.llm.record import RecordingLLM
    from game.llm.session import make_embedder

    ap = argparse.ArgumentParser()
    ap.add_argument("--url", default="http://127.0.0.1:8377/v1")
    ap.add_argument("--record", default=None)
    args = ap.parse_args(argv)
    cfg = LLMConfig(llm_url=args.url)
    client = ModelClient.from_config(cfg, embedder=make_embedder(cfg))
    await client.connect()
    llm: Any = RecordingLLM(client, args.record) if args.record else client
    t0 = time.monotonic()
    mind, partner = Mind(ISABELLA, llm, now=DAY1), Mind(KLAUS, llm, now=DAY1)
    out = await run_day(mind, partner)
    out["wall_s"] = round(time.monotonic() - t0)
    out["accounting"] = client.accounting.to_dict()
    print(json.dumps(out, indent=1, default=str))
    await client.aclose()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(_main(sys.argv[1:])))
