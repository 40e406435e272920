"""Interview prompt assembly and the unknown-person rule, with the fake model."""

from __future__ import annotations

from datetime import datetime

import pytest
from fake_model import FakeModel
from measure_fakes import interview_answer, measure_model

from game.engine.build import new_engine
from game.measure.interview import (
    InterviewError,
    build_context,
    interview,
    known_people,
    match_resident,
    messages_for,
    run_interview,
)
from game.measure.records import MemoryRow


def row(resident, i, kind, text, hour=8):
    return MemoryRow(resident, i, kind, text, datetime(2026, 3, 2, hour, 0))


def test_known_people_from_relationships_talks_and_sights():
    rows = [row("Ada Ito", 0, "conversation", "Cy Moss told me: hello"),
            row("Ada Ito", 1, "conversation", "I talked with Dan Poe; I said: hi"),
            row("Ada Ito", 2, "observation", "Eve Ray is reading a book"),
            row("Ada Ito", 3, "observation", "the stove is idle")]
    known = known_people("Ada Ito", rows, {"Ben": "brother"},
                         ["Ada Ito", "Ben Ito", "Cy Moss", "Dan Poe", "Eve Ray", "Fay Lu"])
    assert known == ["Ben Ito", "Cy Moss", "Dan Poe", "Eve Ray"]  # Fay Lu is never mentioned


def test_match_resident():
    names = ["Ada Ito", "Ben Ito", "Ada Lane"]
    assert match_resident("ben", names) == "Ben Ito"
    assert match_resident("ada lane", names) == "Ada Lane"
    with pytest.raises(InterviewError, match="ambiguous"):
        match_resident("Ada", names)
    with pytest.raises(InterviewError, match="no resident called 'Zed'"):
        match_resident("Zed", names)


async def test_prompt_lists_known_people_strangers_plan_and_rule(measureville):
    llm = measure_model()
    e = new_engine(measureville, llm, lockstep=True)
    mind = e.core.minds["Ada Ito"]
    mind.memory.add("reflection", "I care a lot about the cafe", e.clock.now, importance=7)
    mind.whisper(e.clock.now, "I want to throw a party at the cafe on Friday")
    ctx = await build_context(mind, "What do you think of Cy Moss and Ben?", e.clock.now,
                              now_text="Monday 07:00", candidates=sorted(e.core.minds))
    assert ctx.known == ["Ben Ito"]  # her brother; Cy Moss is in no memory of hers
    assert ctx.strangers == ["Cy Moss"]
    assert ctx.reflections == ["I care a lot about the cafe"]
    assert any(p.endswith("<- now") for p in ctx.plan)  # the routine day, before a plan is made
    msgs = messages_for(mind, ctx, "What do you think of Cy Moss and Ben?")
    system, user = msgs[0].content, msgs[1].content
    assert "only know the people listed" in system and "do not know them" in system
    assert "Example" not in system and "Sam" not in system  # nothing to copy as an answer (issue 16)
    assert "People you know:\n- Ben Ito: her brother" in user
    assert "never met" in user and "- Cy Moss" in user
    assert "party at the cafe" in user  # the whisper is a memory it can retrieve
    assert "Today's plan:" in user
    assert user.rstrip().endswith("What do you think of Cy Moss and Ben?")
    await e.aclose()


async def test_interview_does_not_change_the_mind_unless_asked(measureville):
    llm = measure_model()
    e = new_engine(measureville, llm, lockstep=True)
    mind = e.core.minds["Ben Ito"]
    before = mind.memory.to_rows()
    ans = await interview(e, "Do you know Zed Quill?", llm, name="Ben")
    assert ans == "I don't know anyone called Zed Quill."
    after = mind.memory.to_rows()
    strip = lambda rows: [{k: v for k, v in r.items() if k != "embedding"} for r in rows]  # noqa: E731
    assert strip(after) == strip(before)  # no new memory, no refreshed last access
    assert llm.pairs()[-1] == ("interview", "Ben Ito")
    n = len(mind.memory)
    await interview(e, "How are you?", llm, name="Ben Ito", remember=True)
    assert len(mind.memory) == n + 1 and "How are you?" in mind.memory.get(n).text
    await e.aclose()


async def test_run_interview_on_a_save_leaves_it_unchanged(measureville, tmp_path):
    import io

    llm = measure_model()
    e = new_engine(measureville, llm, lockstep=True)
    for _ in range(30):
        await e.wait_ready()
        e.step()
    save = tmp_path / "t.save"
    e.save(save)
    await e.aclose()
    data = save.read_bytes()
    out = io.StringIO()
    code = await run_interview(measure_model(), str(save), "ada",
                               ["Who is Zed Quill?", "What will you do at 6pm today?"], out=out)
    assert code == 0
    assert save.read_bytes() == data
    text = out.getvalue()
    assert "Ada Ito" in text and "I don't know anyone called Zed Quill." in text
    code = await run_interview(measure_model(), str(save), "ada", ["Hello?"], remember=True, out=io.StringIO())
    assert code == 0 and save.read_bytes() != data


async def test_town_interview_command_replays_a_recorded_interview(measureville, tmp_path, capsys):
    """`town interview SAVE NAME Q --replay FILE`: the command line end to end, with no model."""
    import asyncio
    import io

    from game.cli import main
    from game.llm.record import RecordingLLM

    e = new_engine(measureville, measure_model(), lockstep=True)
    save = tmp_path / "t.save"
    e.save(save)
    await e.aclose()
    rec = tmp_path / "interview.jsonl"
    recorder = RecordingLLM(measure_model(), rec)
    out = io.StringIO()
    assert await run_interview(recorder, str(save), "Cy", ["Who is Zed Quill?"], out=out) == 0
    await recorder.aclose()
    code = await asyncio.to_thread(main, ["interview", str(save), "Cy", "Who is Zed Quill?", "--replay", str(rec)])
    assert code == 0
    got = capsys.readouterr().out
    assert "Cy Moss, Day 1, 07:00:00" in got and "A: I don't know anyone called Zed Quill." in got
    code = await asyncio.to_thread(main, ["interview", str(save), "Nobody", "Hi?", "--replay", str(rec)])
    assert code == 2 and "no resident called 'Nobody'" in capsys.readouterr().err


async def test_a_question_the_model_fails_is_reported_and_the_rest_answered(measureville, tmp_path, capsys):
    import io

    from game.llm.api import ModelTimeout

    def slow_on_burning(messages, schema, tag):
        if "burning" in messages[-1].content:
            raise ModelTimeout("the model server did not answer in time")
        return {"answer": interview_answer(messages[-1].content)}

    e = new_engine(measureville, measure_model(), lockstep=True)
    save = tmp_path / "t.save"
    e.save(save)
    await e.aclose()
    out = io.StringIO()
    code = await run_interview(measure_model(script={"interview": slow_on_burning}), str(save), "Ben",
                               ["Your toast is burning!", "Who are you?"], out=out)
    text = out.getvalue()
    assert code == 1
    assert "(no answer: the model server did not answer in time)" in text and "A: Let me think. Who are you?" in text
    err = capsys.readouterr().err  # the failure is an error too: on stderr, one line (issue 41)
    assert "no answer to 'Your toast is burning!': the model server did not answer in time" in err


def test_time_asked():
    from game.measure.interview import time_asked

    assert time_asked("What will you be doing at 6pm today?") == 18 * 60
    assert time_asked("and at 6:30 p.m.?") == 18 * 60 + 30
    assert time_asked("at 12am") == 0 and time_asked("at 12pm") == 12 * 60
    assert time_asked("at 18:15?") == 18 * 60 + 15 and time_asked("around noon") == 12 * 60
    assert time_asked("How are you?") is None and time_asked("at 13pm") is None


async def test_a_time_in_the_question_points_at_the_plan(measureville):
    e = new_engine(measureville, measure_model(), lockstep=True)
    mind = e.core.minds["Ada Ito"]
    mind.memory.add("observation", "the book club meets on Tuesday at 6pm", e.clock.now, importance=9)
    mind.memory.add("observation", "the dance class is today at 6pm", e.clock.now, importance=9)
    ctx = await build_context(mind, "What will you be doing at 6pm today?", e.clock.now,
                              candidates=sorted(e.core.minds))
    block = next(b for b in mind.core.routine_blocks() if b.start <= 18 * 60 < b.end)
    # the block as one reads the plan: a block cut in two is one, with its hours
    hint = f"At 18:00 today Ada's plan is: {block.activity} (17:00-22:00)."
    assert ctx.sections["Today's plan"].endswith(hint)
    user = messages_for(mind, ctx, "What will you be doing at 6pm today?")[1].content
    assert user.endswith(f"6pm today?\n(Today is Monday. {hint} Plans for other days are not for today.)")
    assert "the dance class is today at 6pm" in ctx.memories
    assert not any("Tuesday" in m for m in ctx.memories)  # another day's plan is left out
    await e.aclose()


async def test_interview_output_is_plain_text(measureville, tmp_path):
    """A hostile question and a model error full of terminal escapes print as plain letters."""
    import io
    import re

    from game.llm.api import LLMError

    hostile = FakeModel({  # a server whose error text is hostile, whatever it is asked
        "*": LLMError("rejected: \x1b[2J\x1b]52;c;ZWNobw==\x07 \x9b31m \u202eevil [bold]x[/bold]"),
        "stream:*": LLMError("rejected: \x1b[2J\x1b]0;owned\x07")})

    e = new_engine(measureville, measure_model(), lockstep=True)
    save = tmp_path / "t.save"
    e.save(save)
    await e.aclose()
    out = io.StringIO()
    code = await run_interview(hostile, str(save), "ada", ["Who \x1b[31mare\x1b[0m you?\x07"],
                               out=out)
    text = out.getvalue()
    assert code == 1 and "no answer" in text and "[bold]x[/bold]" in text
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", text), repr(text)


async def test_mind_answer_is_the_same_interview(measureville):
    """One interview (issue 14): ``Mind.answer`` asks exactly what ``interview`` asks of a mind (the
    same prompt, schema and tag), and ``remember`` stores the same question and answer."""
    llm = measure_model()
    e = new_engine(measureville, llm, lockstep=True)
    mind = e.core.minds["Ada Ito"]
    now = e.clock.now
    q = "What will you do at 6pm today?"
    by_interview = await interview(mind, q, llm, asker="A visitor", now=now)
    by_mind = await mind.answer(now, q, asker="A visitor")
    assert by_mind == by_interview
    (p1, m1), (p2, m2) = [(c.purpose, c.messages) for c in llm.of("complete")[-2:]]
    assert p1 == p2 == "interview" and llm.pairs()[-2] == llm.pairs()[-1] == ("interview", "Ada Ito")
    assert [(m.role, m.content) for m in m1] == [(m.role, m.content) for m in m2]
    assert "At 18:00 today" in m1[-1].content  # the interview's own prompt (the plan at the time asked)
    n = len(mind.memory)
    await interview(mind, q, llm, asker="A visitor", now=now, remember=True)
    await mind.answer(now, q, asker="A visitor", remember=True)
    assert len(mind.memory) == n + 2
    a, b = mind.memory.get(n), mind.memory.get(n + 1)
    assert a.text.startswith("A visitor asked me: " + q + " I answered: ")
    assert b.text.startswith("A visitor asked me: " + q + " I answered: ")
    await e.aclose()


def scripted_interviews(answers):
    """The fake model, giving the interview answers it is handed, in order (the prompts it was
    sent are in its ``calls``)."""
    return measure_model(script={"interview": [*({"answer": a} for a in answers),
                                               AssertionError("asked more often than there are answers")]})


def asked(llm) -> list[str]:
    return [c.user for c in llm.calls if c.purpose == "interview"]


async def ask_backed(measureville, answers, question, setup=None):
    from game.mind.interview.answering import answer_backed
    llm = scripted_interviews(answers)
    e = new_engine(measureville, llm, lockstep=True)
    mind = e.core.minds["Ada Ito"]
    if setup:
        setup(mind, e.clock.now)
    text, back = await answer_backed(mind, question, e.clock.now, candidates=sorted(e.core.minds))
    await e.aclose()
    return text, back, llm


async def test_a_name_nobody_has_is_answered_as_unknown_even_when_the_model_invents(measureville):
    text, back, llm = await ask_backed(measureville, [
        "Ezra Vance is a talented musician who could be a valuable addition to the cafe's music program.",
        "Ezra is a kind man who plays the violin."], "What do you think of Ezra Vance?")
    assert "never met" in asked(llm)[0] and "- Ezra Vance" in asked(llm)[0]  # said in the prompt first
    assert "(Careful:" in asked(llm)[1] and "Ezra Vance" in asked(llm)[1]  # asked again, what was wrong made plain
    assert text == "I don't know anyone called Ezra Vance." and back.source == "rule" and back.asked == 2
    assert back.problems == ["stranger: Ezra Vance"]


async def test_an_invented_place_and_event_are_asked_again_then_dropped(measureville):
    text, back, _ = await ask_backed(measureville, [
        "There is a community meeting at the community center at 7pm. I like my work.",
        "Yes, the spring fair at the community center is on Wednesday. I like my work."],
        "Do you know of any gathering planned in town?")
    assert text == "I like my work." and back.source == "model"
    assert "place: the community center" in back.problems and "event: meeting" in back.problems
    assert back.dropped and all("community center" in s for s in back.dropped)


async def test_a_good_answer_is_asked_once_and_a_fact_keeps_its_place_and_hours(measureville):
    def whisper(mind, now):
        mind.whisper(now, "I am hosting a garden party at the Cafe tomorrow from 5pm to 7pm")

    text, back, llm = await ask_backed(measureville, [
        "Yes, I am hosting a garden party tomorrow at the park at 8pm, everyone is welcome."],
        "Are you planning anything this week?", setup=whisper)
    assert len(asked(llm)) == 1 and back.problems == []
    assert "hosting a garden party" in asked(llm)[0] and "What you know is planned" in asked(llm)[0]
    assert text == "Yes, I am hosting a garden party tomorrow at Cafe from 17:00 to 19:00, everyone is welcome."
    assert back.fixes and back.facts


async def test_an_answer_about_oneself_in_the_third_person_is_asked_again(measureville):
    text, back, _ = await ask_backed(measureville, [
        "Ada Ito is not familiar with that, as it is not mentioned in the given information.",
        "I haven't heard about that."], "Have you heard any news today?")
    assert text == "I haven't heard about that." and back.problems == ["out of town"] and back.asked == 2


def test_a_question_too_long_is_refused_and_a_long_name_is_not_echoed_whole():
    import pytest

    from game.measure.interview import InterviewError, check_questions, match_resident

    with pytest.raises(InterviewError, match="question 2 is 100000 characters long; at most 400"):
        check_questions(["Who are you?", "a" * 100_000])  # (was cut to 400 without a word)
    with pytest.raises(InterviewError) as ei:
        match_resident("\x1b[31mZed" + "x" * 100_000, ["Grace Okafor"])
    msg = str(ei.value)
    assert len(msg) < 200 and "\x1b" not in msg and "'Zedx" in msg
