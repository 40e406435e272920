"""Facts travel intact through talks (issue 27): a line about a gathering is said by the one who
holds it, with its place and hours, and those who had not heard it keep it as what that person
said, in the town's words; the player's words can tell a resident a gathering of their own."""

from __future__ import annotations

from engine_fakes import engine_model

from game.engine.build import new_engine
from game.engine.events import TickResult


def swapped_lines(messages, schema, tag):
    """A written talk that gives the host's news to the wrong speaker, at the wrong place and hour
    (as the 1.5B model did: "Kenji Tanaka told me: Actually, I'm planning it tomorrow at Greenway
    Market"): the fake model's ``converse`` answer."""
    who = schema.model_json_schema()["$defs"]["ScriptLine"]["properties"]["speaker"]["enum"]
    first, other = who[0], who[1]
    return {"lines": [
        {"speaker": first, "say": "Good morning! Lovely weather."},
        {"speaker": other, "say": "Actually, I'm hosting a book party tomorrow at Main street at 9pm."},
        {"speaker": first, "say": "See you there then."}], "matters": "notable"}


async def run(engine, ticks):
    for _ in range(ticks):
        await engine.wait_ready()
        engine.step()


async def book_party_talk(e, starter: str):
    """Ann's book party read as hers, Ann and Bob side by side, and a talk begun by ``starter``: the
    fact and whether the talk began."""
    await run(e, 3)
    now = e.clock.now
    fact = e.core.minds["Ann Lin"].read_fact("I am hosting a book party at the Cafe tomorrow from 5pm to 7pm", now)
    for name, pos in (("Ann Lin", (14, 2)), ("Bob Lin", (15, 2))):
        e.core.residents[name].pos, e.core.residents[name].path = pos, []
    other = "Ann Lin" if starter == "Bob Lin" else "Bob Lin"
    return fact, e.conversations.start_talk(starter, other, now, TickResult(step=0, clock=""))


async def test_a_line_about_a_gathering_goes_to_its_host_with_its_place_and_hours(fake_town_loader):
    llm = engine_model({"converse": swapped_lines}, talk=False)
    e = new_engine(fake_town_loader, llm, lockstep=True)
    fact, started = await book_party_talk(e, "Bob Lin")  # Bob starts: lines swap
    assert fact is not None and fact.place == "Cafe" and (fact.start, fact.end) == (17 * 60, 19 * 60)
    assert started
    cid = e.core.residents["Bob Lin"].conversation
    conv = e.conversations.talks[cid].conv
    prompt_seen = False
    for _ in range(80):
        await run(e, 1)
        prompt_seen = prompt_seen or any("book party" in c.text for c in llm.of("complete"))
        if cid not in e.conversations.talks:
            break
    assert cid not in e.conversations.talks
    said = conv.lines
    news = [(s, t) for s, t in said if "book party" in t]
    assert news == [("Ann Lin", "Actually, I'm hosting a book party tomorrow at Cafe from 17:00 to 19:00.")], said
    bob = e.core.minds["Bob Lin"]
    heard = bob.facts.get(fact.key)
    assert heard is not None and heard.source == "Ann Lin" and heard.place == "Cafe" and heard.host == "Ann Lin"
    told = [m.text for m in bob.memory.recent(50) if m.text.startswith("Ann Lin told me: Ann Lin is hosting")]
    assert told and "at Cafe" in told[0] and "from 17:00 to 19:00" in told[0], told
    assert e.core.minds["Ann Lin"].facts.get(fact.key).told == ("Bob Lin",)
    assert prompt_seen  # the host's own prompt showed the fact in the town's words
    await e.aclose()


async def test_the_visitor_can_tell_a_resident_of_a_gathering(fake_town_loader):
    from game.engine.events import EnterAsVisitor, OpenTalk, SayToResident
    e = new_engine(fake_town_loader, engine_model(talk=False), lockstep=True)
    await run(e, 2)
    e.submit(EnterAsVisitor("Tess", "a traveller"))
    e.player.pos = (14, 3)
    e.core.residents["Ann Lin"].pos, e.core.residents["Ann Lin"].path = (15, 3), []
    e.submit(OpenTalk("Ann Lin"))
    e.submit(SayToResident("Ann Lin", "I'm throwing a picnic on Main street tomorrow at noon, come along!"))
    fact = next(iter(e.core.minds["Ann Lin"].facts))
    assert fact.host == "Tess" and fact.source == "Tess" and fact.place == "Main street" and fact.start == 12 * 60
    await e.aclose()


async def test_one_told_of_a_gathering_today_puts_it_in_the_plan_and_goes_there(fake_town_loader):
    llm = engine_model(talk=False)
    e = new_engine(fake_town_loader, llm, lockstep=True)
    await run(e, 3)
    now = e.clock.now
    ann, bob = e.core.minds["Ann Lin"], e.core.minds["Bob Lin"]
    fact = ann.read_fact("I am hosting a book party at the Cafe today from 10am to 11am", now)
    assert fact is not None and fact.day == now.date()
    bob.hear_fact(fact, "Ann Lin", now)
    e.core.learn("Bob Lin", "Cafe")  # as a talk that tells it does: told where it is, he knows the place
    e.core.residents["Bob Lin"].needs_decision = True
    at_party = set()
    for _ in range(6 * 60 * 4):  # until 11:00 at the latest
        await run(e, 1)
        t = e.clock.now
        if t.hour == 10 and t.minute >= 20:
            for name in ("Ann Lin", "Bob Lin"):
                if e.town.tree.address_at(e.core.residents[name].pos).startswith("Cafe"):
                    at_party.add(name)
        if t.hour >= 11:
            break
    assert ("attend", "Bob Lin") in llm.pairs() and ("attend", "Ann Lin") not in llm.pairs()  # the host goes
    blocks = {b.activity: (b.start, b.end) for b in bob.plan.blocks}
    assert blocks.get("going to Ann's book party at Cafe") == (600, 660), blocks
    assert ann.facts.get(fact.key).going and bob.facts.get(fact.key).going
    assert at_party == {"Ann Lin", "Bob Lin"}
    await e.aclose()


async def test_a_host_sees_the_one_at_home_it_has_not_invited_and_may_go_past_the_days_caps(fake_town_loader):
    e = new_engine(fake_town_loader, engine_model(talk=True), lockstep=True)
    await run(e, 2)
    ann = e.core.minds["Ann Lin"]
    now = e.clock.now
    ann.read_fact("I am hosting a book party at the Cafe tomorrow at 5pm", now)
    assert ann.news_for("Bob Lin", now) and not ann.news_for("Ann Lin", now)
    ann.core.config.max_reacts_per_day = 0  # the day's caps spent
    from game.mind.view import WorldView
    view = WorldView(people_here=("Bob Lin",))
    rx = await ann.react(now.replace(hour=9), "Bob Lin is reading (kitchen)", view)
    assert rx.kind != "continue" or rx.reason != "budget"
    assert ann.stats["react_news_to_tell"] == 1
    ann.facts.told_to(next(iter(ann.facts)).key, ["Bob Lin"])
    assert not ann.news_for("Bob Lin", now)
    rx = await ann.react(now.replace(hour=9, minute=30), "Bob Lin is cooking (kitchen)", view)
    assert rx.reason == "budget"  # told: an ordinary sight again
    await e.aclose()


def asked_if_known(messages, schema, tag):
    """The host asks whether the other knows of its gathering, and the other, who hears of it in that
    line, says it knew (Nora's "Yes, I know about the surprise party", talkbench, 2026-11-29)."""
    who = schema.model_json_schema()["$defs"]["ScriptLine"]["properties"]["speaker"]["enum"]
    return {"lines": [
        {"speaker": who[0], "say": "Do you know about the book party tomorrow?"},
        {"speaker": who[1], "say": "Yes, I know about the book party. I'll be there!"},
        {"speaker": who[0], "say": "Yes, I know you will."}], "matters": "notable"}


async def test_one_who_hears_of_a_gathering_in_a_talk_does_not_say_it_knew_of_it(fake_town_loader):
    llm = engine_model({"converse": asked_if_known}, talk=False)
    e = new_engine(fake_town_loader, llm, lockstep=True)
    fact, started = await book_party_talk(e, "Ann Lin")
    assert fact is not None
    assert started
    cid = e.core.residents["Ann Lin"].conversation
    conv = e.conversations.talks[cid].conv
    for _ in range(80):
        await run(e, 1)
        if cid not in e.conversations.talks:
            break
    said = dict((s, t) for s, t in conv.lines[:2])
    assert e.core.minds["Bob Lin"].facts.holds(fact.key)
    assert said["Bob Lin"].startswith("No, I hadn't heard about the book party"), conv.lines
    assert conv.lines[2] == ("Ann Lin", "Yes, I know you will."), conv.lines  # the host knew it: it stands
    await e.aclose()
