"""Model faults, part 1: malformed and hostile answers through every parser.

Three depths, each counting outcomes per fault class (printed with ``-s``; also in docs/FAULTS.md):

1. ``parse_answer`` (the model layer's validation and repair) for every answer schema;
2. the real ``ModelClient`` over ``httpx.MockTransport``: the hostile text is the server's answer,
   so the real repair / re-ask / BadAnswer code runs (the re-ask gets a valid answer for half of
   the cases, the same kind of garbage for the other half);
3. the minds' decisions (plan, decompose, react, talk, importance, reflection, identity,
   interview) on a ``ModelClient`` whose server only ever answers garbage or good answers at random.

No crash is allowed anywhere: a value that validates (and holds only plain text), a repair, a
retry or a clear ``BadAnswer``.  Anything else is counted as a crash and fails the test.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from datetime import datetime, timedelta

import httpx
import pytest
from fake_model import valid_answer, valid_instance

from game.llm.answers import AnswerError, parse_answer
from game.llm.api import BadAnswer, LLMError
from game.llm.client import ModelClient

from .answers import PLACES, UNSAFE, answer_schemas, summary, table, unsafe_strings
from .fakes import fake_embedder
from .hostile import CLASSES, hostile_answers, hostile_text

DEFAULT_PER_CLASS = 6  # 15 schemas x 12 classes x 6 = 1,080 answers per depth
SLOW_PER_CLASS = 40


def _reply(content: str) -> httpx.Response:
    # ASCII JSON, as a server sends it: a lone surrogate travels as a "\\udcff" escape
    body = json.dumps({
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5}})
    return httpx.Response(200, content=body.encode("ascii"), headers={"content-type": "application/json"})


# ------------------------------------------------------------------------ 1. parse_answer

def run_parse(per_class: int, seed: int = 1) -> tuple[Counter, list[str]]:
    counts: Counter = Counter()
    problems: list[str] = []
    for n, schema in enumerate(answer_schemas()):
        for cls, text in hostile_answers(schema, seed * 1000 + n, per_class):
            try:
                value, repaired = parse_answer(text, schema)
            except AnswerError as e:
                counts[(cls, "refused")] += 1
                if not e.feedback or len(e.feedback) > 2000:
                    problems.append(f"{schema.__name__}/{cls}: unhelpful feedback {e.feedback[:80]!r}")
                continue
            except Exception as e:  # noqa: BLE001 - this is what the test is looking for
                counts[(cls, "CRASH")] += 1
                problems.append(f"{schema.__name__}/{cls}: {type(e).__name__}: {str(e)[:100]} "
                                f"on {text[:80]!r}")
                continue
            counts[(cls, "repaired" if repaired else "accepted")] += 1
            bad = unsafe_strings(value) if "place" not in type(value).model_fields or \
                not type(value).__name__.endswith("Answer") else unsafe_strings(value)
            if bad:
                counts[(cls, "UNSAFE_TEXT")] += 1
                problems.append(f"{schema.__name__}/{cls}: accepted unsafe text {bad[:2]}")
    return counts, problems


def test_parse_answer_hostile():
    counts, problems = run_parse(DEFAULT_PER_CLASS)
    print("\n" + table(counts, "parse_answer: hostile answers per fault class"))
    # 12 schemas (two fewer since the world picks places, one since Mind.answer is the interview,
    # one since reflection's focal points are the records that made it due)
    assert sum(counts.values()) >= 720
    assert not problems, summary(problems)


@pytest.mark.slow
def test_parse_answer_hostile_many():
    counts, problems = run_parse(SLOW_PER_CLASS, seed=7)
    print("\n" + table(counts, "parse_answer (slow): hostile answers per fault class"))
    assert not problems, summary(problems)


# ------------------------------------------------------------------------ 2. ModelClient

async def run_client(per_class: int, seed: int = 2) -> tuple[Counter, list[str], int]:
    counts: Counter = Counter()
    problems: list[str] = []
    script: list[str] = []
    requests = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal requests
        requests += 1
        return _reply(script.pop(0))

    client = ModelClient("http://fault.test/v1", "fake", transport=httpx.MockTransport(handler),
                         answer_retries=1, transport_retries=0, backoff_s=0.0)
    from game.llm.api import CallTag, Message

    rng = random.Random(seed)
    try:
        for n, schema in enumerate(answer_schemas()):
            for cls, text in hostile_answers(schema, seed * 1000 + n, per_class):
                recover = rng.random() < 0.5
                again = json.dumps(valid_answer(schema, rng)) if recover else hostile_text(
                    cls, valid_answer(schema, rng), rng)
                script[:] = [text, again]
                try:
                    value = await client.complete([Message("user", "answer")], schema,
                                                  CallTag("fault", "Ann Lin"), max_tokens=64)
                except BadAnswer as e:
                    counts[(cls, "BadAnswer")] += 1
                    if schema.__name__ not in str(e):
                        problems.append(f"{schema.__name__}/{cls}: BadAnswer does not name the schema: {e}")
                    continue
                except LLMError as e:
                    counts[(cls, "other LLMError")] += 1
                    problems.append(f"{schema.__name__}/{cls}: unexpected {type(e).__name__}: {e}")
                    continue
                except Exception as e:  # noqa: BLE001
                    counts[(cls, "CRASH")] += 1
                    problems.append(f"{schema.__name__}/{cls}: {type(e).__name__}: {str(e)[:100]} "
                                    f"on {text[:80]!r}")
                    continue
                counts[(cls, "accepted" if len(script) == 1 else "after re-ask")] += 1
                bad = unsafe_strings(value)
                if bad:
                    counts[(cls, "UNSAFE_TEXT")] += 1
                    problems.append(f"{schema.__name__}/{cls}: accepted unsafe text {bad[:2]}")
        st = client.status()
        if client.scheduler.in_flight or client.scheduler.queued:
            problems.append(f"scheduler not idle after the run: {client.scheduler.in_flight} in flight")
        if st.by_purpose.get("fault") is None:
            problems.append("accounting did not record the fault calls")
    finally:
        await client.aclose()
    return counts, problems, requests


async def test_model_client_hostile():
    counts, problems, requests = await run_client(DEFAULT_PER_CLASS)
    print("\n" + table(counts, f"ModelClient: hostile answers per fault class ({requests} HTTP answers)"))
    # 12 schemas (two fewer since the world picks places, one since Mind.answer is the interview,
    # one since reflection's focal points are the records that made it due)
    assert sum(counts.values()) >= 720
    # the re-ask path really ran: some answers were refused then fixed, some refused twice
    assert sum(n for (c, o), n in counts.items() if o == "after re-ask") > 0
    assert sum(n for (c, o), n in counts.items() if o == "BadAnswer") > 0
    assert not problems, summary(problems)


@pytest.mark.slow
async def test_model_client_hostile_many():
    counts, problems, _ = await run_client(SLOW_PER_CLASS, seed=9)
    print("\n" + table(counts, "ModelClient (slow): hostile answers per fault class"))
    assert not problems, summary(problems)


# ------------------------------------------------------------------------ 3. the minds

class HostileServer:
    """A fake OpenAI-compatible server whose every answer is garbage of a random class, or (with
    probability ``good``) a valid answer for the schema it was asked for."""

    def __init__(self, seed: int, good: float = 0.35) -> None:
        self.rng = random.Random(seed)
        self.good = good
        self.sent: Counter = Counter()

    def handler(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if body.get("stream"):  # free text, piece by piece: garbage of a random class, cut in three
            cls = self.rng.choice(CLASSES)
            self.sent[f"stream {cls}"] += 1
            text = hostile_text(cls, {"say": "Hello there, neighbour."}, self.rng)
            cuts = sorted(self.rng.randrange(len(text) + 1) for _ in range(2))
            pieces = [text[: cuts[0]], text[cuts[0]: cuts[1]], text[cuts[1]:]]
            events = "".join("data: " + json.dumps({"choices": [{"index": 0, "delta": {"content": p}}]}) + "\n\n"
                             for p in pieces if p) + "data: [DONE]\n\n"
            return httpx.Response(200, content=events.encode(), headers={"content-type": "text/event-stream"})
        schema = body["response_format"]["json_schema"]["schema"]
        base = valid_instance(schema, self.rng)
        if self.rng.random() < self.good:
            self.sent["valid"] += 1
            return _reply(json.dumps(base))
        cls = self.rng.choice(CLASSES)
        self.sent[cls] += 1
        return _reply(hostile_text(cls, base, self.rng))


def _spec():
    from game.world.residents import ResidentSpec

    from .townfiles import residents_data
    return ResidentSpec.model_validate(residents_data()["residents"][0])


def _check_action(act, allowed: tuple[str, ...], fallback: tuple[str, ...], where: str, problems: list[str]):
    from game.mind.schemas import is_wide_emoji

    if act.address not in allowed and act.address not in fallback:
        problems.append(f"{where}: address {act.address!r} is not an allowed place")
    if not is_wide_emoji(act.emoji):
        problems.append(f"{where}: emoji {act.emoji!r} is not one wide emoji")
    if UNSAFE.search(act.description) or not act.description.strip() or len(act.description) > 400:
        problems.append(f"{where}: description {act.description[:60]!r}")
    if not (1 <= int(act.duration_min) <= 24 * 60):
        problems.append(f"{where}: duration {act.duration_min}")
    if act.object_state is not None and UNSAFE.search(act.object_state):
        problems.append(f"{where}: object state {act.object_state!r}")


async def run_minds(decisions: int, seed: int = 3) -> tuple[Counter, list[str], Counter]:
    from game.mind import Mind, MindConfig
    from game.mind.view import Conversation, WorldView

    server = HostileServer(seed)
    client = ModelClient("http://fault.test/v1", "fake", transport=httpx.MockTransport(server.handler),
                         answer_retries=1, transport_retries=0, backoff_s=0.0, embedder=fake_embedder())
    counts: Counter = Counter()
    problems: list[str] = []
    rng = random.Random(seed)
    view = WorldView.make(now_text="Monday 09:00", here="Lin house:kitchen", here_text="the kitchen",
                          known_places="\n".join(PLACES), allowed=PLACES,
                          nearby=("Bob Lin is cooking",), people_here=("Bob Lin",))
    fallback = ("Lin house:bedroom", "Lin house:kitchen", "")
    kinds = ("plan_day", "next_action", "react", "say", "observe", "reflect", "identity", "answer", "replan",
             "say_stream")
    try:
        mind = Mind(_spec(), client, config=MindConfig(reflect_threshold=20.0, importance_batch=3),
                    now=datetime(2026, 3, 2, 6, 0))
        t = datetime(2026, 3, 2, 7, 0)
        for i in range(decisions):
            kind = kinds[i % len(kinds)]
            t += timedelta(minutes=rng.choice((5, 10, 20, 45)))
            if t.hour >= 22:
                t = t.replace(hour=7) + timedelta(days=1)
            if i % 40 == 0:  # a fresh mind now and then, so the first-call paths run again too
                mind = Mind(_spec(), client, config=MindConfig(reflect_threshold=20.0, importance_batch=3),
                            now=t)
            where = f"{kind}#{i}"
            try:
                if kind == "plan_day":
                    plan = await mind.planner.plan_day(t, view)
                    for b in plan.blocks:
                        if UNSAFE.search(b.activity) or not (0 <= b.start < b.end <= 48 * 60):
                            problems.append(f"{where}: plan block {b}")
                elif kind == "next_action":
                    _check_action(await mind.next_action(t, view), PLACES, fallback, where, problems)
                elif kind == "replan":
                    mind.whisper(t, rng.choice(["open a bakery", "\x1b[2J[bold]panic[/]", "x" * 5000]))
                    await mind.next_action(t, view)
                elif kind == "react":
                    rx = await mind.react(t, rng.choice(["the stove is on fire", "Bob Lin is here",
                                                          f"something new {i}"]), view)
                    if rx.kind not in ("continue", "react", "talk"):
                        problems.append(f"{where}: reaction kind {rx.kind!r}")
                    if rx.kind == "talk" and rx.with_whom not in view.people_here:
                        problems.append(f"{where}: talks to {rx.with_whom!r}, who is not here")
                    if rx.new_action is not None:
                        _check_action(rx.new_action, PLACES, fallback, where, problems)
                elif kind == "say":
                    conv = Conversation(id=f"c{i}", participants=[mind.core.name, "Bob Lin"], place="Cafe:counter",
                                        lines=[("Bob Lin", "Hi! [bold]\x1b[31m")], started=t,
                                        with_player=bool(i % 2))
                    line = await mind.say(t, conv, ["Bob Lin"])
                    if UNSAFE.search(line.text) or len(line.text) > 2000:
                        problems.append(f"{where}: line {line.text[:60]!r}")
                elif kind == "say_stream" and hasattr(mind, "say_stream"):
                    conv = Conversation(id=f"c{i}", participants=[mind.core.name, "Zed"], place="Cafe:counter",
                                        lines=[("Zed", "Hi! [bold]\x1b[31m")], started=t, with_player=True)
                    last = None
                    async for item in mind.say_stream(t, conv, ["Zed"]):
                        last = item
                    if last is None or not hasattr(last, "text") or UNSAFE.search(last.text):
                        problems.append(f"{where}: the streamed line ends with {last!r}")
                elif kind == "observe":
                    await mind.observe(t, [f"Bob Lin is baking bread {i}", f"the oven is hot {i}",
                                           f"Cara Diaz is singing {i}"])
                elif kind == "reflect":
                    for ins in await mind.reflect_if_due(t):
                        if UNSAFE.search(ins):
                            problems.append(f"{where}: insight {ins[:60]!r}")
                elif kind == "identity":
                    mind.core.identity_date = None
                    if UNSAFE.search(await mind.reflector.ensure_identity(t)):
                        problems.append(f"{where}: identity text")
                elif kind == "answer":
                    try:
                        a = await mind.answer(t, "How was your day? [bold]\x1b[2J", remember=True)
                        if UNSAFE.search(a):
                            problems.append(f"{where}: answer {a[:60]!r}")
                    except BadAnswer:
                        counts[(kind, "BadAnswer (shown)")] += 1
                        continue
            except Exception as e:  # noqa: BLE001
                counts[(kind, "CRASH")] += 1
                problems.append(f"{where}: {type(e).__name__}: {str(e)[:120]}")
                continue
            counts[(kind, "ok")] += 1
        for rec in mind.memory.recent(10**6):
            if UNSAFE.search(rec.text):
                problems.append(f"memory record {rec.id} holds unsafe text {rec.text[:60]!r}")
    finally:
        await client.aclose()
    return counts, problems, server.sent


async def test_minds_on_hostile_model():
    counts, problems, sent = await run_minds(270)
    print("\n" + table(counts, "Mind decisions on a hostile model"))
    print("  answers sent by class: " + ", ".join(f"{k} {v}" for k, v in sorted(sent.items())))
    assert sum(sent.values()) >= 300
    assert not problems, summary(problems)


@pytest.mark.slow
async def test_minds_on_hostile_model_many():
    counts, problems, sent = await run_minds(2000, seed=11)
    print("\n" + table(counts, "Mind decisions on a hostile model (slow)"))
    assert not problems, summary(problems)


# ------------------------------------------------------------------------ odd reply envelopes

ODD_REPLIES = {
    "content a number": {"choices": [{"message": {"content": 42}, "finish_reason": "stop"}]},
    "content a list": {"choices": [{"message": {"content": ["a", "b"]}, "finish_reason": "stop"}]},
    "content an object": {"choices": [{"message": {"content": {"say": "hi"}}, "finish_reason": "stop"}]},
    "content null": {"choices": [{"message": {"content": None}, "finish_reason": "stop"}]},
    "no message": {"choices": [{"finish_reason": "stop"}]},
    "message a string": {"choices": [{"message": "hi"}]},
    "choices empty": {"choices": []},
    "choices null": {"choices": None},
    "usage a string": {"choices": [{"message": {"content": '{"say": "hi"}'}}], "usage": "lots"},
    "timings a list": {"choices": [{"message": {"content": '{"say": "hi"}'}}], "timings": [1, 2]},
    "usage values text": {"choices": [{"message": {"content": '{"say": "hi"}'}}],
                          "usage": {"prompt_tokens": "many", "completion_tokens": None},
                          "timings": {"predicted_ms": "slow", "prompt_n": [], "predicted_n": 1e999}},
    "deeply nested": {"choices": [{"message": {"content": '{"say": "hi"}'}}], "x": [[[[[[[[[[[[1]]]]]]]]]]]]},
    "top level list": [1, 2, 3],
    "top level string": "hello",
    "error object": {"error": {"message": "context length exceeded"}},
}


@pytest.mark.parametrize("case", sorted(ODD_REPLIES))
async def test_odd_reply_envelopes(case):
    """The server answers HTTP 200 with a body that is not a normal chat completion."""
    from game.llm.api import CallTag, Message
    from game.mind.schemas import LineAnswer

    body = ODD_REPLIES[case]

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=json.dumps(body).encode(), headers={"content-type": "application/json"})

    client = ModelClient("http://fault.test/v1", "fake", transport=httpx.MockTransport(handler),
                         answer_retries=1, transport_retries=0, backoff_s=0.0)
    try:
        try:
            value = await client.complete([Message("user", "hi")], LineAnswer, CallTag("fault"))
        except LLMError as e:
            assert "fault.test" in str(e) or "LineAnswer" in str(e), str(e)
        else:
            assert isinstance(value, LineAnswer) and not unsafe_strings(value)
        assert client.scheduler.in_flight == 0
    finally:
        await client.aclose()


async def test_html_error_page_with_200():
    from game.llm.api import CallTag, Message
    from game.mind.schemas import LineAnswer

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, text="<html><body>502 Bad Gateway</body></html>")

    client = ModelClient("http://fault.test/v1", "fake", transport=httpx.MockTransport(handler),
                         transport_retries=1, backoff_s=0.0)
    try:
        with pytest.raises(LLMError, match="fault.test"):
            await client.complete([Message("user", "hi")], LineAnswer, CallTag("fault"))
    finally:
        await client.aclose()


ODD_CHUNKS = {
    "chunk a list": ["[1, 2]"],
    "chunk a string": ['"hello"'],
    "choices a dict": ['{"choices": {"delta": "x"}}'],
    "choice a string": ['{"choices": ["x"]}'],
    "delta a string": ['{"choices": [{"delta": "x"}]}'],
    "content a number": ['{"choices": [{"delta": {"content": 5}}]}'],
    "usage a string": ['{"choices": [], "usage": "lots"}'],
    "usage values text": ['{"choices": [], "usage": {"prompt_tokens": "x"}, "timings": {"predicted_ms": "y"}}'],
    "escapes in pieces": ['{"choices": [{"delta": {"content": "\\u001b[2J\\u001b]52;c;eA==\\u0007hi"}}]}'],
    "not JSON": ["{{{", "data data"],
}


@pytest.mark.parametrize("case", sorted(ODD_CHUNKS))
async def test_odd_stream_chunks(case):
    """A streamed answer whose events are not the usual shape: pieces or a clear LLMError."""
    from game.llm.api import CallTag, Message

    events = "".join(f"data: {c}\n\n" for c in ODD_CHUNKS[case]) + "data: [DONE]\n\n"

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=events.encode(), headers={"content-type": "text/event-stream"})

    client = ModelClient("http://fault.test/v1", "fake", transport=httpx.MockTransport(handler),
                         transport_retries=0, backoff_s=0.0)
    try:
        pieces = []
        try:
            async for p in client.stream([Message("user", "hi")], CallTag("dialogue")):
                pieces.append(p)
        except LLMError:
            pass
        assert all(isinstance(p, str) for p in pieces), pieces
        assert client.scheduler.in_flight == 0
    finally:
        await client.aclose()


ADVERSARIAL = {
    "braces": "{" * 100_000, "quotes": '"' * 100_000, "fences": "```" * 33_000,
    "commas": '{"a":1' + "," * 100_000 + "}", "20k keys": "{" + ",".join(f'"k{i}":{i}' for i in range(20_000)) + "}",
    "nested 900": '{"steps":' + "[" * 900 + "]" * 900 + "}", "spaces": " " * 100_000 + "{",
    "backslashes": '"' + "\\" * 100_000, "json fences": "```json\n" * 20_000,
}


@pytest.mark.parametrize("case", sorted(ADVERSARIAL))
def test_parser_stays_fast_on_adversarial_text(case):
    """No input makes the repair code slow (quadratic scans would stall a decision)."""
    import time

    from game.mind.planning.steps import DecomposeAnswer

    t0 = time.perf_counter()
    try:
        parse_answer(ADVERSARIAL[case], DecomposeAnswer)
    except AnswerError:
        pass
    assert time.perf_counter() - t0 < 2.0
