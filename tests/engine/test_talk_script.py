"""A talk of residents only is written whole in one call of the one who starts it (each other brings
what it remembers of them: a ``side`` job, no model call) and said line by line, a game minute
apart; it survives a save; someone who joins brings its side if the script is not asked yet, and
listens to the rest if it is."""

from __future__ import annotations

from engine_fakes import engine_model
from fake_model import FakeModel

from game.engine.build import load_engine, new_engine
from game.engine.engine import Engine
from game.engine.events import TickResult
from game.engine.state import JobKind
from game.engine.tuning import LINE_GAP


async def run(engine: Engine, ticks: int) -> list:
    out = []
    for _ in range(ticks):
        await engine.wait_ready()
        out.append(engine.step())
    return out


async def talk_of_two(fake_town_loader, llm: FakeModel) -> tuple[Engine, str]:
    e = new_engine(fake_town_loader, llm, lockstep=True)
    await run(e, 3)
    for name, pos in (("Ann Lin", (14, 2)), ("Bob Lin", (15, 2)), ("Cara Diaz", (20, 9))):
        e.core.residents[name].pos = pos
        e.core.residents[name].path = []
    assert e.conversations.start_talk("Ann Lin", "Bob Lin", e.clock.now, TickResult(step=0, clock=""))
    cid = e.core.residents["Ann Lin"].conversation
    assert cid
    return e, cid


async def cara_joins(e: Engine, cid: str) -> None:
    """Cara walks up to the talk of two once its first line is said, and joins it."""
    for _ in range(40):
        await run(e, 1)
        if e.conversations.talks[cid].conv.lines:
            break
    e.core.residents["Cara Diaz"].pos = (16, 2)
    assert e.conversations.start_talk("Cara Diaz", "Ann Lin", e.clock.now, TickResult(step=0, clock=""))


def said(results: list, cid: str) -> list[tuple[int, str, str]]:
    return [(r.step, u.speaker, u.text) for r in results for u in r.utterances if u.conversation_id == cid]


async def test_a_talk_of_residents_is_one_call_said_a_line_a_minute_and_both_remember(fake_town_loader):
    llm = engine_model(talk=False)
    e, cid = await talk_of_two(fake_town_loader, llm)
    before = len(llm.calls)
    res = await run(e, 80)
    lines = said(res, cid)
    assert cid not in e.conversations.talks and e.core.residents["Ann Lin"].conversation is None
    talk_calls = [c for c in llm.pairs()[before:] if c[0] in ("converse", "dialogue")]
    assert talk_calls == [("converse", "Ann Lin")]  # one call for the whole talk, by who started it
    assert 2 <= len(lines) <= 4
    assert [s for _, s, _ in lines] == ["Ann Lin", "Bob Lin", "Ann Lin", "Bob Lin"][:len(lines)]
    gap = int(LINE_GAP.total_seconds() // e.clock.to_dict().get("seconds_per_step", 10))
    assert all(b[0] - a[0] >= gap for a, b in zip(lines, lines[1:]))  # a line a game minute
    prompt = next(c.text for c in llm.calls if (c.purpose, c.resident) == ("converse", "Ann Lin"))
    assert "Talking with:\nBob Lin" in prompt  # Bob's own part: who he is, what he remembers of Ann
    for me, other in (("Ann Lin", "Bob Lin"), ("Bob Lin", "Ann Lin")):
        mem = e.core.minds[me].memory
        told = [m for m in mem.recent(200) if m.text.startswith(f"{other} told me: Hello, this is line")]
        mine = [m for m in mem.recent(200) if m.text.startswith(f"I talked with {other}; I said:")]
        assert told and mine, [m.text for m in mem.recent(5)]
        # the talk was rated as it was written ("important"): no importance call for its lines
        assert all(m.scored and m.importance == 7 for m in told + mine)
    await e.aclose()


async def test_a_talk_half_said_is_saved_and_goes_on_after_loading(fake_town_loader, tmp_path):
    llm = engine_model(talk=False)
    e, cid = await talk_of_two(fake_town_loader, llm)
    for _ in range(40):
        await run(e, 1)
        if e.conversations.talks[cid].conv.lines:
            break
    talk = e.conversations.talks[cid]
    assert talk.mode == "script" and len(talk.conv.lines) == 1 and talk.script, "the first line is said"
    rest = list(talk.script)
    path = tmp_path / "talk.save"
    e.save(path)
    await e.aclose()
    llm2 = engine_model(talk=False)
    f = load_engine(path, llm2, lockstep=True)
    assert f.conversations.talks[cid].script == rest and f.conversations.talks[cid].mode == "script"
    assert f.conversations.talks[cid].conv.importance == 7  # the rating of what is still to be said, kept
    res = await run(f, 40)
    assert [(s, t) for _, s, t in said(res, cid)] == rest  # what was written is said, not asked again
    assert not [c for c in llm2.pairs() if c[0] in ("converse", "dialogue")]
    assert cid not in f.conversations.talks
    await f.aclose()


async def test_someone_who_joins_a_talk_being_said_listens_and_remembers_it(fake_town_loader):
    llm = engine_model(talk=False)
    e, cid = await talk_of_two(fake_town_loader, llm)
    await cara_joins(e, cid)
    talk = e.conversations.talks[cid]
    assert talk.mode == "script" and talk.script  # the rest of what was written is still to be said
    assert "Cara Diaz" in talk.conv.participants
    res = await run(e, 80)
    assert cid not in e.conversations.talks
    assert [s for _, s, _ in said(res, cid)] and "Cara Diaz" not in [s for _, s, _ in said(res, cid)]
    assert not [p for p in llm.pairs() if p[1] == "Cara Diaz" and p[0] in ("converse", "dialogue")]
    heard = [m.text for m in e.core.minds["Cara Diaz"].memory.recent(200) if " told me: " in m.text]
    assert heard, "the one who sat in remembers what was said"
    await e.aclose()


async def test_someone_who_joins_before_the_script_is_asked_has_a_part_in_it(fake_town_loader):
    llm = engine_model(talk=False)
    e, cid = await talk_of_two(fake_town_loader, llm)
    e.core.residents["Cara Diaz"].pos = (16, 2)
    assert e.conversations.start_talk("Cara Diaz", "Ann Lin", e.clock.now, TickResult(step=0, clock=""))
    talk = e.conversations.talks[cid]
    assert talk.mode == "script" and talk.conv.participants[-1] == "Cara Diaz"
    res = await run(e, 80)
    assert cid not in e.conversations.talks
    asked = [c.text for c in llm.calls if (c.purpose, c.resident) == ("converse", "Ann Lin")]
    assert len(asked) == 1 and "Cara" in asked[0]  # one script, written with the newcomer in it
    assert "Cara Diaz" in [s for _, s, _ in said(res, cid)]
    assert not [p for p in llm.pairs() if p[0] == "dialogue"]  # no line asked on its own
    await e.aclose()


async def test_in_a_talk_by_lines_the_next_window_is_asked_by_one_whose_turn_is_two_lines_away(fake_town_loader):
    # a talk of three by lines: the lane of one who just spoke is free for two lines, so its next
    # window is asked then; never by the next speaker (its line would wait behind the window)
    from datetime import timedelta
    llm = engine_model(talk=False)
    e, cid = await talk_of_two(fake_town_loader, llm)
    await cara_joins(e, cid)
    talk = e.conversations.talks[cid]
    e.conversations.by_lines(talk)  # (as when the player takes one of them)
    assert talk.mode == "lines"
    e.lookahead.ahead = timedelta(minutes=15)
    for name in talk.conv.participants:
        e.core.minds[name].steps_run_out = lambda now: now + timedelta(minutes=5)
    asked: list[tuple[str, int]] = []  # (who, lines until its turn) when its window was asked
    real_ask = e.lanes.ask

    def ask(r, kind, now, args):
        if kind == "ahead" and r.conversation == cid:
            parts = talk.conv.participants
            asked.append((r.name, (parts.index(r.name) - talk.turn) % len(parts)))
        return real_ask(r, kind, now, args)

    e.lanes.ask = ask
    for _ in range(60):
        await run(e, 1)
        if cid not in e.conversations.talks:
            break
    assert asked, "a window was asked during the talk"
    assert all(away >= 2 for _, away in asked), asked
    assert len({s for s, _ in asked}) >= 2
    await e.aclose()


async def test_a_failed_script_ends_the_talk_and_says_so(fake_town_loader):
    e, cid = await talk_of_two(fake_town_loader, engine_model(talk=False, fail=("converse",)))
    res = await run(e, 30)
    assert cid not in e.conversations.talks
    errors = [e.text for r in res for e in r.log if e.kind == "error"]
    assert any("Ann Lin could not talk" in t for t in errors), errors
    assert not said(res, cid)
    await e.aclose()


async def test_the_next_window_is_asked_while_a_written_talk_is_said(fake_town_loader):
    # the lanes are free while the lines are said: one whose steps run out during the talk has
    # its next window asked then, and comes out of the talk into it (not into its routine)
    from datetime import timedelta
    llm = engine_model(talk=False)
    e, cid = await talk_of_two(fake_town_loader, llm)
    e.lookahead.ahead = timedelta(minutes=15)
    for _ in range(40):
        await run(e, 1)
        if e.conversations.talks[cid].script:
            break
    assert e.conversations.talks[cid].script, "the script is written"
    bob = e.core.minds["Bob Lin"]
    bob.steps_run_out = lambda now: now + timedelta(minutes=5)
    await run(e, 1)
    assert cid in e.conversations.talks and e.core.residents["Bob Lin"].conversation == cid
    assert e.board.jobs["Bob Lin"].kind == "ahead"
    await e.aclose()



PARTY = "Good morning, Bob! I'm hosting a book party tomorrow at Main street at 9pm."


def cut_then(rest: list[str], first: str = PARTY, by: int = 0):
    """A written talk whose first line (by the one who started, or ``by`` the other) loses a sentence to a claim
    check (a party Ann does not host), then ``rest``, the two taking turns: the fake model's ``converse`` answer."""
    def answer(messages, schema, tag):
        who = schema.model_json_schema()["$defs"]["ScriptLine"]["properties"]["speaker"]["enum"]
        return {"lines": [{"speaker": who[(by + i) % 2], "say": s} for i, s in enumerate([first, *rest])],
                "matters": "minor"}
    return answer


async def cut_talk(fake_town_loader, more):
    llm = engine_model({"converse": cut_then(["Oh, a party! I'll come.", "See you there."]),
                        "converse_more": [more]}, talk=False)
    e, cid = await talk_of_two(fake_town_loader, llm)
    conv = e.conversations.talks[cid].conv
    await run(e, 80)
    assert cid not in e.conversations.talks
    await e.aclose()
    return conv, [c for c in llm.calls if c.purpose in ("converse", "converse_more")]


async def test_a_talk_cut_short_by_a_check_goes_on_from_what_was_said(fake_town_loader):
    """The replies written after a line that lost a claim are not said (they answer what was not);
    the one who started writes the rest from the lines said (one call more, ``converse_more``)."""
    conv, asked = await cut_talk(fake_town_loader, cut_then(["Lovely, I'll buy a loaf."],
                                                            first="Morning, Ann! I'm reading today.", by=1))
    assert [c.purpose for c in asked] == ["converse", "converse_more"]
    rest = asked[1].text.split("What they said so far:")[1]
    assert rest.startswith("\nAnn: Good morning, Bob!\n") and "party" not in rest  # nor what was not said
    assert conv.lines == [("Ann Lin", "Good morning, Bob!"), ("Bob Lin", "Morning, Ann! I'm reading today."),
                          ("Ann Lin", "Lovely, I'll buy a loaf.")]
    assert [w for _, w, _ in conv.withheld] == ["Oh, a party! I'll come.", "See you there."]


async def test_a_talk_goes_on_once(fake_town_loader):
    """The rest cut short again ends the talk; a greeting its speaker said already is not said again."""
    conv, asked = await cut_talk(fake_town_loader, cut_then(["That sounds lovely."]))
    assert [c.purpose for c in asked] == ["converse", "converse_more"]
    assert conv.lines == [("Ann Lin", "Good morning, Bob!")]
    assert [w for _, w, _ in conv.withheld][2:] == [PARTY, "That sounds lovely."]


def test_whether_a_talk_went_on_is_saved():
    from game.engine.saves.fileformat import conv_dict, talk_from
    from game.engine.state import Talk
    from game.mind.view import Conversation
    talk = Talk(conv=Conversation("c1", ["Ann Lin", "Bob Lin"], lines=[("Ann Lin", "Hi!")]), mode="script",
                goes_on="cut")
    assert talk_from(conv_dict(talk.conv, talk)).goes_on == "cut"
    assert talk_from({**conv_dict(talk.conv, talk), "goes_on": "odd"}).goes_on == ""


def test_a_speaker_greets_once_in_a_talk():
    """Where a talk cut short went on (2026-12-02, dawn): Grace's "Hi Ines!", then after Ines's line "Hi Ines! I'm
    doing well, thanks." The second greeting is not said; the other's is, and a greeting with more to it."""
    from game.engine.talks.copies import SaidLines
    from game.mind.facts.factcheck import Vetted
    from game.mind.view import Conversation

    talk = Conversation("c1", ["Grace Okafor", "Ines Moreau"], lines=[
        ("Grace Okafor", "Hi Ines!"), ("Ines Moreau", "Hi Grace! How are you doing today?")])
    said = SaidLines()
    assert said.not_copied(talk, Vetted("Grace Okafor", "Hi Ines! I'm doing well, thanks.")).text == \
        "I'm doing well, thanks."
    assert said.not_copied(talk, Vetted("Grace Okafor", "Good morning, Ines. See you at the cafe.")).text == \
        "See you at the cafe."
    first = Conversation("c2", ["Grace Okafor", "Ines Moreau"], lines=[("Grace Okafor", "Hello.")])
    hello = "Hello, Grace! Lovely day."
    assert said.not_copied(first, Vetted("Ines Moreau", hello)).text == hello


async def test_a_talk_waits_for_its_rest_a_few_minutes_only(fake_town_loader):
    """At a busy dawn (2026-12-02) a talk cut short waited 29 game minutes for its rest, two residents standing
    there: it ends when the rest is not written within ``GOES_ON_WAIT``."""
    from game.engine.tuning import GOES_ON_WAIT

    llm = engine_model({"converse": cut_then(["Oh, a party! I'll come.", "See you there."])}, talk=False)
    e, cid = await talk_of_two(fake_town_loader, llm)
    talk = e.conversations.talks[cid]
    for _ in range(40):
        await run(e, 1)
        if talk.goes_on == "asked":
            break
    assert talk.goes_on == "asked" and "Ann Lin" in e.board.jobs
    e.board.jobs["Ann Lin"].ready_at = 10 ** 9  # the server is busy: its rest is not written
    said_at = talk.next_at
    while e.clock.now - said_at <= GOES_ON_WAIT:
        await run(e, 1)
    await run(e, 1)
    assert cid not in e.conversations.talks
    job = e.board.jobs.get("Ann Lin")  # (in lockstep a job begun is dropped: its answer thrown away)
    assert job is None or job.kind != JobKind.CONVERSE or job.args.get("dropped")
    await e.aclose()
