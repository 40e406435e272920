"""The player's talk: a reply that is not said (an assistant's refusal, a secret told to the one it
is kept from) is asked again once with the problem named at the end of its prompt; what was shown of
it as it came is taken back; a second reply not said ends the talk, with the reason in the log."""

from __future__ import annotations

import asyncio

from engine_fakes import engine_model

from game.engine.build import new_engine
from game.engine.events import EnterAsVisitor, SayToResident

REFUSAL = "I'm sorry, |but I can't assist with that."


async def _talk(loader, replies: list[str]):
    """The visitor asks Cara a question with the clock stopped (real time: the reply streams and is
    applied by ``poll``); the polls' results until her reply is final or the talk has ended."""
    e = new_engine(loader, engine_model({"stream:dialogue": replies}, talk=False, jitter=0.005), lockstep=False)
    for _ in range(3):
        e.step()
    e.submit(EnterAsVisitor("Zed", "a tinker"))
    e.player.pos = e.core.residents["Cara Diaz"].pos
    cid = e.submit(SayToResident("Cara", "Who writes the column in the paper?"))
    res = []
    for _ in range(400):
        await asyncio.sleep(0.005)
        res.append(e.poll())
        if any(u.final and u.speaker == "Cara Diaz" for u in res[-1].utterances) or cid not in e.conversations.talks:
            break
    return e, cid, res


def _streams(e) -> list[str]:
    return [c.user for c in e.core.llm.of("stream")]


async def test_a_refusal_is_asked_again_with_the_problem_named(fake_town_loader):
    e, cid, res = await _talk(fake_town_loader, [REFUSAL, "No idea, Zed. |I just sell bread."])
    said = [(u.text, u.final) for r in res for u in r.utterances if u.speaker == "Cara Diaz"]
    assert ("No idea, Zed. I just sell bread.", True) in said
    assert not [t for t, final in said if final and "assist" in t]
    # what came of the refusal was shown as it came, then taken back before the reply was asked again
    taken_back = said.index(("", False), [t for t, _ in said].index("I'm sorry, but I can't assist with that."))
    assert taken_back < said.index(("No idea, Zed. I just sell bread.", True))
    first, second = _streams(e)[:2]
    assert "answers again" not in first
    assert "(Not said, Cara's answer before: " in second and "assistant" in second and second.rstrip().endswith(
        "Cara answers again.)")
    conv = e.conversations.talks[cid].conv
    assert conv.lines[-1] == ("Cara Diaz", "No idea, Zed. I just sell bread.")
    assert [(w, t) for w, t, _ in conv.withheld] == [("Cara Diaz", "I'm sorry, but I can't assist with that.")]
    await e.aclose()


async def test_a_second_reply_not_said_ends_the_talk_with_the_reason(fake_town_loader):
    e, cid, res = await _talk(fake_town_loader, [REFUSAL, REFUSAL, "never asked"])
    assert cid not in e.conversations.talks and e.core.residents["Cara Diaz"].conversation is None
    assert len(_streams(e)) == 2  # once again, not more
    ended = [ln.text for r in res for ln in r.log if ln.kind == "conversation" and "ended" in ln.text]
    assert ended and "Cara Diaz did not answer (" in ended[0] and "assistant" in ended[0]
    await e.aclose()
