"""What the engine's parts do when a mind's rule-based part fails (a bug, not the model): the
failure is shown or logged, and the town goes on.  The ``except Exception`` clauses in
game/engine/decisions/lanes.py and game/engine/talks/conversations.py name these tests."""

from __future__ import annotations

import asyncio
import logging

from engine_fakes import engine_model, ticks

from game.engine.build import new_engine
from game.engine.events import EndConversation, EnterAsVisitor, OpenTalk, SayToResident


def broken(*args: object, **kwargs: object) -> object:
    raise RuntimeError("a bug in the mind")


async def test_a_routine_that_fails_is_shown_and_the_town_goes_on(fake_town_loader, monkeypatch):
    e = new_engine(fake_town_loader, engine_model(), lockstep=True)
    monkeypatch.setattr(e.core.minds["Ann Lin"], "routine_action", broken)
    await ticks(e, 30)
    assert any(x.startswith("Ann Lin: routine action failed: a bug in the mind") for x in e.core.errors), e.core.errors
    assert all(e.core.residents[n].action is not None for n in ("Bob Lin", "Cara Diaz"))  # the others live on
    await e.aclose()


async def test_a_talk_a_mind_cannot_remember_is_shown_and_still_ends(fake_town_loader, monkeypatch):
    e = new_engine(fake_town_loader, engine_model(talk=False), lockstep=True)
    await ticks(e, 3)
    e.submit(EnterAsVisitor("Zed", "a tinker"))
    cara = e.core.residents["Cara Diaz"]
    e.player.pos = cara.pos
    cid = e.submit(SayToResident("Cara", "Have you heard the bridge is closed?"))
    await ticks(e, 8)
    assert e.conversations.talks[cid].conv.lines
    monkeypatch.setattr(e.core.minds["Cara Diaz"], "remember_conversation", broken)
    e.submit(EndConversation("Cara Diaz"))
    assert cara.conversation is None and cid not in e.conversations.talks and cara.needs_decision
    assert "Cara Diaz: could not remember the conversation: a bug in the mind" in e.core.errors
    await ticks(e, 3)  # and the town goes on
    await e.aclose()


async def test_a_reply_goes_on_when_getting_it_ready_failed(fake_town_loader, caplog):
    llm = engine_model(jitter=0.002, prefill_s=0.3)

    async def prefill_breaks(messages: object, tag: object) -> bool:
        await asyncio.sleep(0.3)
        raise RuntimeError("the prefill broke")

    llm.prefill = prefill_breaks  # not a model failure (the mind logs those itself): a bug
    e = new_engine(fake_town_loader, llm, lockstep=False)
    for _ in range(3):
        e.step()
    e.submit(EnterAsVisitor("Zed", "a tinker"))
    e.player.pos = e.core.residents["Bob Lin"].pos
    e.submit(OpenTalk("Bob Lin"))
    await asyncio.sleep(0.05)
    with caplog.at_level(logging.WARNING, logger="game.engine.talks.conversations"):
        e.submit(SayToResident("Bob Lin", "Lovely weather."))  # while the reply is being got ready
        got: list = []
        for _ in range(400):
            await asyncio.sleep(0.005)
            got += [u for u in e.poll().utterances if u.speaker == "Bob Lin" and u.final]
            if got:
                break
    assert got and got[0].text
    assert "Bob Lin: getting the reply ready failed: the prefill broke" in caplog.text
    await e.aclose()
