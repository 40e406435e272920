"""Player commands: visitor, moving, talking, whispering, embodying, changing an object."""

from __future__ import annotations

import pytest
from engine_fakes import engine_model, ticks

from game.engine.build import new_engine
from game.engine.engine import PLAYER, CommandError, Engine
from game.engine.events import (
    Embody,
    EndConversation,
    EnterAsVisitor,
    MovePlayer,
    Release,
    SayToResident,
    SetObjectState,
    Whisper,
)


def memories(e: Engine, name: str) -> list[str]:
    return [r.text for r in e.core.minds[name].memory.recent(200)]


@pytest.fixture
async def engine(fake_town_loader):
    e = new_engine(fake_town_loader, engine_model(talk=False), lockstep=True)
    yield e
    await e.aclose()


async def test_visitor_enters_moves_and_is_perceived(engine):
    e = engine
    pos = e.submit(EnterAsVisitor("Zed", "a travelling tinker with a squeaky cart"))
    assert e.positions()[PLAYER] == pos
    r = e.step()
    assert any(m.who == PLAYER for m in r.moves)
    # walk the avatar next to Cara in the cafe: through the street and the cafe door at x=16
    cara = e.core.residents["Cara Diaz"]
    cara.path = []
    e.player.pos = (16, 6)
    assert e.submit(MovePlayer(0, -1)) == (16, 5)
    assert e.submit(MovePlayer(0, -1)) == (16, 4)
    assert e.submit(MovePlayer(-4, 0)) == (16, 4), "moved into a wall"
    assert e.submit(MovePlayer(1, 0)) == (17, 4)
    await ticks(e, 30)
    seen = " ".join(memories(e, "Cara Diaz")) + " ".join(e.core.residents["Cara Diaz"].obs_buffer)
    assert "Zed" in seen and "tinker" in seen, seen


async def test_move_without_a_body_is_refused(engine):
    with pytest.raises(CommandError, match="visitor"):
        engine.submit(MovePlayer(1, 0))


async def test_talk_to_a_resident_who_answers_and_remembers(engine):
    e = engine
    await ticks(e, 3)
    e.submit(EnterAsVisitor("Zed", "a tinker"))
    cara = e.core.residents["Cara Diaz"]
    e.player.pos = cara.pos
    with pytest.raises(CommandError, match="no resident"):
        e.submit(SayToResident("Nobody", "hi"))
    cid = e.submit(SayToResident("Cara", "Have you heard the bridge is closed?"))
    res = await ticks(e, 8)  # lockstep: a decision Cara had started ends at its tick first
    lines = [u for r in res for u in r.utterances if u.speaker == "Cara Diaz" and u.final]
    assert lines and lines[0].conversation_id == cid and lines[0].listener == "Zed"
    assert cara.conversation == cid and not cara.path
    assert e.conversations.talks[cid].conv.lines[0] == ("Zed", "Have you heard the bridge is closed?")
    await ticks(e, 60)  # ten game minutes: Cara still waits for the player's next words
    assert cara.conversation == cid
    e.submit(EndConversation("Cara Diaz"))
    assert cara.conversation is None and cid not in e.conversations.talks
    assert any("bridge is closed" in m for m in memories(e, "Cara Diaz"))
    assert any(p == "dialogue" and who == "Cara Diaz" for p, who in e.core.llm.pairs())


async def test_too_far_to_talk(engine):
    e = engine
    e.submit(EnterAsVisitor("Zed", "a tinker"))
    e.player.pos = (20, 10)
    e.core.residents["Ann Lin"].pos = (2, 2)
    with pytest.raises(CommandError, match="too far"):
        e.submit(SayToResident("Ann Lin", "hello"))


async def test_whisper_is_stored_as_own_thought_and_replans(engine):
    e = engine
    await ticks(e, 20)
    n_before = sum(1 for p, who in e.core.llm.pairs() if who == "Bob Lin")
    e.submit(Whisper("Bob Lin", "I will run for mayor"))
    assert any("run for mayor" in m for m in memories(e, "Bob Lin"))
    assert e.board.jobs["Bob Lin"].kind == "next"
    assert e.core.minds["Bob Lin"].agenda.replan_reason
    await ticks(e, 10)
    after = [p for p, who in e.core.llm.pairs() if who == "Bob Lin"][n_before:]
    assert "replan" in after or "plan_day" in after, after


async def test_embody_and_release(engine):
    e = engine
    await ticks(e, 10)
    e.submit(Embody("Ann Lin"))
    ann = e.core.residents["Ann Lin"]
    # a decision already started is dropped (lockstep): it ends at its own tick, its answer unused
    assert e.embodied == "Ann Lin" and ("Ann Lin" not in e.board.jobs or e.board.jobs["Ann Lin"].args.get("dropped"))
    await ticks(e, 7)
    assert "Ann Lin" not in e.board.jobs
    calls_before = sum(1 for p, who in e.core.llm.pairs()
                       if who == "Ann Lin" and p in ("decompose", "react", "plan_day"))
    start = ann.pos
    moved = [e.submit(MovePlayer(1, 0)) for _ in range(2)]
    assert moved[-1] != start and ann.pos == moved[-1]
    # the player speaks for Ann to Bob; Bob answers Ann
    bob = e.core.residents["Bob Lin"]
    bob.pos = (ann.pos[0] + 1, ann.pos[1])
    bob.path = []
    cid = e.submit(SayToResident("Bob Lin", "Bob, I found a lost cat."))
    res = await ticks(e, 200)
    assert any(u.speaker == "Bob Lin" for r in res for u in r.utterances)
    assert ann.pos == moved[-1], "an embodied resident must not walk on its own"
    # its mind did not decide while embodied ...
    calls = sum(1 for p, who in e.core.llm.pairs() if who == "Ann Lin" and p in ("decompose", "react", "plan_day"))
    assert calls == calls_before
    # ... but kept perceiving and remembering
    assert any("Bob Lin" in m for m in memories(e, "Ann Lin"))
    assert any("lost cat" in m for m in memories(e, "Bob Lin"))
    assert cid not in e.conversations.talks  # the silent player ended it after a while, or Bob ended it
    e.submit(Release())
    assert e.embodied is None and e.board.jobs["Ann Lin"].kind == "next"
    await ticks(e, 30)
    assert ann.action.description not in ("walking around", "gathering their thoughts")
    with pytest.raises(CommandError):
        e.submit(Release())


async def test_object_change_makes_nearby_residents_react(engine):
    e = engine
    await ticks(e, 8)
    bob = e.core.residents["Bob Lin"]
    e.submit(Embody("Bob Lin"))
    bob.pos = (3, 3)  # in the Lin kitchen
    e.submit(Release())
    address = e.submit(SetObjectState("the stove in the Lin kitchen is on fire"))
    assert address == "Lin house:kitchen:stove"
    assert e.town.objects.get(address) == "on fire"
    res = await ticks(e, 40)
    changes = [c for r in res[:1] for c in r.object_changes]
    assert changes and changes[0].state == "on fire" and changes[0].by == "player"
    reacts = [e for r in res for e in r.log if e.kind == "react" and e.who == "Bob Lin"]
    assert reacts and "fire" in reacts[0].text
    with pytest.raises(CommandError, match="no object"):
        e.submit(SetObjectState("the spaceship is on fire"))
    with pytest.raises(CommandError, match="say what"):
        e.submit(SetObjectState("fire!"))


async def test_real_time_reply_arrives_by_poll_while_paused(fake_town_loader):
    import asyncio

    e = new_engine(fake_town_loader, engine_model(jitter=0.01), lockstep=False)
    for _ in range(3):
        e.step()
    e.submit(EnterAsVisitor("Zed", "a tinker"))
    e.player.pos = e.core.residents["Bob Lin"].pos
    e.submit(SayToResident("Bob Lin", "Lovely weather."))
    first = e.poll()
    assert [(u.speaker, u.final) for u in first.utterances] == [("Zed", True), ("Bob Lin", False)]
    assert first.utterances[1].text == ""
    step_before = e.core.step_no
    got, pieces = [], []
    for _ in range(200):
        await asyncio.sleep(0.005)
        us = [u for u in e.poll().utterances if u.speaker == "Bob Lin"]
        pieces += [u.text for u in us if not u.final]
        got += [u for u in us if u.final]
        if got:
            break
    assert got and got[0].text and e.core.step_no == step_before  # answered with the clock stopped
    # the reply streams (Mind.say_stream): the text so far, growing, then the final line
    assert len(pieces) >= 2 and all(b.startswith(a) for a, b in zip(pieces, pieces[1:]))
    assert got[0].text.startswith(pieces[-1].strip()[:5])
    await e.aclose()


async def test_walking_away_ends_the_talk(engine):
    e = engine
    e.submit(EnterAsVisitor("Zed", "a tinker"))
    ann = e.core.residents["Ann Lin"]
    e.player.pos = ann.pos
    cid = e.submit(SayToResident("Ann Lin", "Hello"))
    await ticks(e, 3)
    assert ann.conversation == cid
    e.player.pos = (20, 10)
    res = await ticks(e, 2)
    assert ann.conversation is None
    assert any("walked away" in e.text for r in res for e in r.log)


def prefilled(llm) -> list[str]:
    """The last message of each prefill the fake model took, in order."""
    return [c.user for c in llm.of("prefill")]


def streamed(llm) -> list[str]:
    """The last message of each reply streamed, in order."""
    return [c.user for c in llm.of("stream")]


async def test_opening_a_talk_stops_the_resident_and_gets_its_reply_ready(fake_town_loader):
    from game.engine.events import OpenTalk
    e = new_engine(fake_town_loader, engine_model(talk=False, prefill_s=0.0), lockstep=True)
    await ticks(e, 3)
    e.submit(EnterAsVisitor("Zed", "a tinker"))
    cara = e.core.residents["Cara Diaz"]
    e.player.pos = (cara.pos[0] + 5, cara.pos[1])
    with pytest.raises(CommandError, match="too far"):
        e.submit(OpenTalk("Cara"))
    e.player.pos = cara.pos
    await ticks(e, 6)  # a decision Cara had started ends at its tick
    cid = e.submit(OpenTalk("Cara"))
    assert cara.conversation == cid and not cara.path and "talking with Zed" in cara.action.description
    assert not e.conversations.talks[cid].conv.lines
    for _ in range(30):  # (a decision Cara had started is dropped at its tick: then she gets ready)
        await ticks(e, 1)
        if prefilled(e.core.llm) and "Cara Diaz" not in e.board.jobs:
            break
    assert "Cara Diaz" not in e.board.jobs and len(prefilled(e.core.llm)) == 1
    assert prefilled(e.core.llm)[0].rstrip().endswith("Conversation so far:\n(nothing yet)")
    await ticks(e, 30)  # the player takes their time: Cara waits, saying nothing, asking nothing
    assert cara.conversation == cid and len(prefilled(e.core.llm)) == 1
    assert not [p for p, w in e.core.llm.pairs() if p == "dialogue"]
    e.submit(SayToResident("Cara", "Have you heard the bridge is closed?"))
    res = await ticks(e, 4)
    assert [u.text for r in res for u in r.utterances if u.speaker == "Cara Diaz" and u.final]
    assert streamed(e.core.llm)[0].startswith(prefilled(e.core.llm)[0])  # the reply began as prepared
    await ticks(e, 2)  # after her line she gets ready for the next, the talk so far included
    assert len(prefilled(e.core.llm)) == 2 and "Zed: Have you heard the bridge is closed?" in prefilled(e.core.llm)[1]
    e.submit(SayToResident("Cara", "They say it will take a week."))
    await ticks(e, 4)
    assert streamed(e.core.llm)[1].startswith(prefilled(e.core.llm)[1])
    e.submit(EndConversation("Cara"))
    assert any("bridge is closed" in m for m in memories(e, "Cara Diaz"))
    await e.aclose()


async def test_a_talk_opened_and_left_without_a_word_leaves_no_memory(fake_town_loader):
    from game.engine.events import OpenTalk
    e = new_engine(fake_town_loader, engine_model(talk=False, prefill_s=0.0), lockstep=True)
    e.submit(EnterAsVisitor("Zed", "a tinker"))
    bob = e.core.residents["Bob Lin"]
    e.player.pos = bob.pos
    before = len(memories(e, "Bob Lin"))
    cid = e.submit(OpenTalk("Bob Lin"))
    await ticks(e, 2)
    e.submit(EndConversation("Bob Lin"))
    assert bob.conversation is None and cid not in e.conversations.talks
    assert not any("Zed" in m and "talk" in m for m in memories(e, "Bob Lin")[:len(memories(e, "Bob Lin")) - before])
    await e.aclose()


async def _zed_opens_a_talk_with_bob(fake_town_loader, prefill_s: float):
    """Real time: Zed the visitor stands at Bob Lin's side and opens a talk (the t key)."""
    import asyncio

    from game.engine.events import OpenTalk
    llm = engine_model(jitter=0.002, prefill_s=prefill_s)
    e = new_engine(fake_town_loader, llm, lockstep=False)
    for _ in range(3):
        e.step()
    e.submit(EnterAsVisitor("Zed", "a tinker"))
    e.player.pos = e.core.residents["Bob Lin"].pos
    e.submit(OpenTalk("Bob Lin"))
    for _ in range(200):  # until the reply is being got ready (a loaded machine takes longer than 0.05 s)
        await asyncio.sleep(0.01)
        if prefilled(llm):
            break
    return e, llm


async def _bobs_reply(e) -> list:
    import asyncio
    got: list = []
    for _ in range(400):
        await asyncio.sleep(0.005)
        got += [u for u in e.poll().utterances if u.speaker == "Bob Lin" and u.final]
        if got:
            break
    return got


async def test_a_line_said_while_the_resident_still_listens_waits_for_it_in_real_time(fake_town_loader):
    e, llm = await _zed_opens_a_talk_with_bob(fake_town_loader, prefill_s=0.3)
    e.submit(SayToResident("Bob Lin", "Lovely weather."))  # typed before the prefill is done
    got = await _bobs_reply(e)
    assert got and got[0].text
    # the prefill was not cancelled by the line, and the reply was asked only after it
    assert llm.prefills_done == 1 and streamed(llm) and streamed(llm)[0].startswith(prefilled(llm)[0])
    await e.aclose()


async def test_what_the_player_types_gets_the_reply_ready_once_per_free_moment(fake_town_loader):
    import asyncio

    from game.engine.events import Typing
    e, llm = await _zed_opens_a_talk_with_bob(fake_town_loader, prefill_s=0.2)
    e.submit(Typing("Ann Lin", "Hello"))  # no talk with her: a hint for nobody, not an error
    # typed while the first prefill runs: one more prefill, with the newest words only
    e.submit(Typing("Bob Lin", "Have you"))
    e.submit(Typing("Bob Lin", "Have you heard"))
    e.submit(Typing("Bob Lin", "Have you heard the \x1b[31mbridge"))
    for _ in range(200):
        await asyncio.sleep(0.01)
        e.step()
        if llm.prefills_done >= 2 and "Bob Lin" not in e.board.jobs:
            break
    # the whole escape sequence goes
    assert len(prefilled(llm)) == 2 and prefilled(llm)[1].endswith(
        "Write Bob's answer to what Zed says now: only the words Bob says.\nZed: Have you heard the bridge"
        "\n(Bob answers in Bob's own words)")
    assert not [t for t, r in llm.pairs() if r == "Ann Lin" and t == "prefill"]
    for _ in range(5):  # nothing new typed: nothing more asked
        await asyncio.sleep(0.01)
        e.step()
    assert len(prefilled(llm)) == 2
    e.submit(SayToResident("Bob Lin", "Have you heard the bridge is closed?"))
    got = await _bobs_reply(e)
    # the reply's prompt is the prefilled one; what the whole line brings to mind may only grow
    # the recalled section at its end, and the line follows
    ready = prefilled(llm)[1]
    assert got and streamed(llm)[0].startswith(ready[:ready.index("\n\nWrite Bob's answer")])
    assert streamed(llm)[0].endswith("Zed: Have you heard the bridge is closed?\n(Bob answers in Bob's own words)")
    assert e.conversations.talks[e.core.residents["Bob Lin"].conversation].typed == ""
    await e.aclose()


async def test_a_talk_that_ends_stops_getting_its_reply_ready(fake_town_loader):
    import asyncio
    e, llm = await _zed_opens_a_talk_with_bob(fake_town_loader, prefill_s=0.5)
    assert e.board.jobs["Bob Lin"].kind == "listen" and len(prefilled(llm)) == 1
    e.submit(EndConversation("Bob Lin"))  # the player walks off before saying a word
    assert "Bob Lin" not in e.board.jobs or e.board.jobs["Bob Lin"].kind != "listen"
    await asyncio.sleep(0.6)
    assert llm.prefills_done == 0  # the prefill was given up, not waited for
    await e.aclose()


async def test_a_housemate_at_home_is_seen_but_is_no_news(engine):
    # Ann and Bob Lin share the Lin house: seeing each other there asks the mind for no reaction
    # (14 of 67 reaction calls of a recorded day were such sights); Cara at their door, or Bob in
    # the street, still is news
    e = engine
    ann, bob, cara = (e.core.residents[n] for n in ("Ann Lin", "Bob Lin", "Cara Diaz"))
    ann.action, ann.salient, ann.reacted = None, [], {}
    ann.pos, bob.pos, cara.pos = (8, 2), (10, 3), (9, 4)
    e.perceiver.look(ann, e.clock.now)
    assert "person:Bob Lin" in ann.seen and "person:Cara Diaz" in ann.seen  # both seen
    assert [s for s in ann.salient if s.startswith("Cara Diaz")] and \
        not [s for s in ann.salient if s.startswith("Bob Lin")]
    assert not ann.urgent  # everyday sights: within the day's reaction budget
    ann.salient, ann.seen, ann.reacted = [], {}, {}
    ann.pos, bob.pos = (8, 8), (10, 8)  # in the street
    e.perceiver.look(ann, e.clock.now)
    assert [s for s in ann.salient if s.startswith("Bob Lin")]


async def test_an_object_on_fire_is_considered_when_the_days_reactions_are_spent(engine):
    e = engine
    bob = e.core.residents["Bob Lin"]
    e.core.minds["Bob Lin"].core.config.max_reacts_per_day = 0  # everyday sights get no reaction call today
    bob.pos = (3, 3)
    e.submit(SetObjectState("the stove in the Lin kitchen is on fire"))
    res = await ticks(e, 40)
    reacts = [e for r in res for e in r.log if e.kind == "react" and e.who == "Bob Lin"]
    assert reacts and "fire" in reacts[0].text  # urgent news: considered all the same
    assert e.core.minds["Bob Lin"].stats["react_budget"] == 0
