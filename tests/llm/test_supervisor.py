"""A model server that goes away is brought back (game/llm/supervisor.py), with no model: the
embedded server is the FAKE llama-server (tests/llm/fake_llama_server.py, started through the real
``open_llm`` as the server binary) killed with SIGKILL in the middle of answering; a remote one is
the fault suite's live HTTP server (tests/faults/live_server.py), stopped and started again.

Every wait is bounded by a deadline, never a fixed sleep: the back-offs are made short here
(``RESTART_BACKOFF_S``), the fake answers in a fraction of a second."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from faults.fake_llama import fake_llama_env, started
from faults.live_server import LiveServer
from pydantic import BaseModel

from game.llm import session as session_mod
from game.llm.api import CallTag, Message, ModelUnavailable, Priority
from game.llm.client import ModelClient
from game.llm.supervisor import ServerSupervisor

MSG = [Message("system", "You answer as JSON."), Message("user", "How are you?")]


class Mood(BaseModel):
    mood: str


@pytest.fixture
def fake_llama(tmp_path, monkeypatch):
    """The embedded server is the fake, each answer after 0.4 s (calls are in flight when it dies)."""
    return fake_llama_env(tmp_path, monkeypatch, delay=0.4)


async def until(cond, timeout: float = 15.0) -> float:
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"not within {timeout} s")
        await asyncio.sleep(0.02)
    return time.monotonic() - t0


def ask(llm, i: int, priority: Priority = Priority.PLAN):
    return asyncio.create_task(llm.complete(MSG, Mood, CallTag("fault", f"R{i}", priority), max_tokens=20))


async def test_a_killed_server_is_restarted_and_the_calls_in_flight_asked_again(fake_llama):
    config, starts = fake_llama
    said: list[str] = []
    async with session_mod.open_llm(config, progress=said.append) as llm:
        server = llm.server
        port, first_pid = server.port, server.proc.pid
        calls = [ask(llm, i, p) for i, p in enumerate([Priority.REACT, Priority.PLAN, Priority.SCORE] * 3)]
        await until(lambda: llm.scheduler.in_flight >= 3)  # the fake takes 0.4 s: they are being answered
        t0 = time.monotonic()
        server.kill()
        answers = await asyncio.wait_for(asyncio.gather(*calls), 20)
        back_s = time.monotonic() - t0
        assert all(isinstance(a, Mood) for a in answers), answers  # no call lost
        st = llm.status()
        assert (st.server, st.restarts, st.reachable) == ("up", 1, True), st
        assert st.reasked >= 3, st  # those in flight (and those sent to a dead port) were asked again
        assert server.port == port and server.proc.pid != first_pid and server.alive()
        assert len(started(starts)) == 2
        assert back_s < 10, back_s
        assert any("restarting it in" in m for m in said) and any("the model server is back" in m for m in said), said
        assert llm.accounting.total.failures == 0
        assert sum(u.retries for u in llm.accounting.by_purpose().values()) >= st.reasked
    assert not server.alive()  # stopped on purpose at the end: not restarted
    await asyncio.sleep(0.2)
    assert len(started(starts)) == 2


async def test_the_watch_restarts_a_server_that_stopped_between_calls(fake_llama):
    config, starts = fake_llama
    said: list[str] = []
    async with session_mod.open_llm(config, progress=said.append) as llm:
        llm.server.kill()  # no call in flight: the watch finds the process gone
        await until(lambda: llm.status().restarts == 1)
        assert llm.status().server == "up" and llm.status().reasked == 0
        assert isinstance(await ask(llm, 0), Mood)
        assert any("exit code -9" in m for m in said), said
    assert len(started(starts)) == 2


async def test_a_server_that_cannot_come_back_is_away_and_calls_fail_at_once(tmp_path, monkeypatch):
    config, starts = fake_llama_env(tmp_path, monkeypatch, delay=0.4, max_starts=1)  # restarts exit (code 3)
    said: list[str] = []
    async with session_mod.open_llm(config, progress=said.append) as llm:
        calls = [ask(llm, i) for i in range(3)]
        await until(lambda: llm.scheduler.in_flight >= 2)
        llm.server.kill()
        results = await asyncio.wait_for(asyncio.gather(*calls, return_exceptions=True), 20)
        assert all(isinstance(r, ModelUnavailable) for r in results), results
        assert all("the model is away" in str(r) for r in results), results
        st = llm.status()
        assert (st.server, st.reachable, st.restarts) == ("away", False, 0), st
        assert "could not be restarted in 3 tries" in (st.server_note or "") and "exit code 3" in st.server_note
        assert len(started(starts)) == 4  # the first start and three tries
        t0 = time.monotonic()
        with pytest.raises(ModelUnavailable, match="the model is away"):
            await ask(llm, 9)
        assert time.monotonic() - t0 < 1.0  # no more tries: at once
        assert said[-1].startswith("the model is away: the model server could not be restarted")
    assert len(started(starts)) == 4


def remote(srv: LiveServer, said: list[str], wait_s: float = 5.0) -> ModelClient:
    c = ModelClient(srv.url, "live-fake", timeout_s=5.0, connect_timeout_s=1.0, transport_retries=1,
                    backoff_s=0.05, answer_retries=0, slots=2)
    c.supervise(ServerSupervisor(c.base_url, say=said.append, backoff_s=(0.05, 0.1, 0.2), remote_wait_s=wait_s))
    return c


async def test_a_remote_server_is_waited_for_and_the_call_asked_again():
    said: list[str] = []
    srv = LiveServer()
    await srv.start()
    c = remote(srv, said)
    try:
        srv.mode, srv.delay = "slow", 0.3
        call = ask(c, 0)
        await until(lambda: c.scheduler.in_flight == 1)
        await asyncio.sleep(0.05)
        await srv.stop()  # gone in the middle of the answer
        await until(lambda: c.status().server == "restarting")
        assert c.status().reachable is False
        srv.mode = "ok"
        await srv.start()  # it comes back by itself (the game never starts a remote server)
        assert isinstance(await asyncio.wait_for(call, 10), Mood)
        st = c.status()
        assert (st.server, st.restarts, st.reasked, st.reachable) == ("up", 1, 1, True), st
        assert any("trying it again for up to 5 s" in m for m in said), said
        # a stream lost before its first words is asked again too
        await srv.stop()
        pieces = asyncio.create_task(_stream(c))
        await until(lambda: c.status().server == "restarting")
        await srv.start()
        assert await asyncio.wait_for(pieces, 10) == "Hello there, neighbour."
        assert c.status().reasked == 2
    finally:
        await c.aclose()
        await c.supervisor.aclose()
        await srv.stop()


async def _stream(c: ModelClient) -> str:
    return "".join([p async for p in c.stream(MSG, CallTag("dialogue", "Ann Lin", Priority.PLAYER))])


async def test_a_remote_server_that_stays_away_fails_the_calls_then_answers_again():
    said: list[str] = []
    srv = LiveServer()
    await srv.start()
    c = remote(srv, said, wait_s=0.4)
    try:
        assert isinstance(await ask(c, 0), Mood)
        await srv.stop()
        t0 = time.monotonic()
        with pytest.raises(ModelUnavailable, match="the model is away"):
            await ask(c, 1)
        assert time.monotonic() - t0 < 5
        assert c.status().server == "away" and "did not answer for 0.4 s" in (c.status().server_note or "")
        await srv.start()  # back later: the next call is answered, and the model is no longer away
        assert isinstance(await ask(c, 2), Mood)
        st = c.status()
        assert (st.server, st.reachable) == ("up", True) and said[-1].endswith("answers again"), (st, said)
    finally:
        await c.aclose()
        await c.supervisor.aclose()
        await srv.stop()


def test_a_word_that_cannot_be_said_is_logged_and_never_stops_the_supervisor(caplog):
    # game/llm/supervisor.py's ``say`` names this test: the screen it tells may be gone
    def say(message: str) -> None:
        raise RuntimeError("the screen is gone")

    sup = ServerSupervisor("http://127.0.0.1:9/v1", say=say)
    with caplog.at_level(logging.ERROR, logger="game.llm.supervisor"):
        sup.say("the model server stopped")
    assert sup.note == "the model server stopped"
    assert "could not say: the model server stopped" in caplog.text


async def test_a_recovery_that_fails_is_logged_and_the_watch_goes_on(caplog):
    # game/llm/supervisor.py's watch names this test: a restart that fails with a bug, not an
    # LLMError or OSError (those it tells and tries again)
    class Gone:
        looked = 0

        def exited(self) -> int:
            self.looked += 1
            return 9

        def alive(self) -> bool:
            return False

        async def restart(self, ready_s: float) -> None:
            raise RuntimeError("a bug in the restart")

    server = Gone()
    sup = ServerSupervisor("http://127.0.0.1:9/v1", server=server, backoff_s=(0.01,),
                           watch_every_s=0.01)
    with caplog.at_level(logging.ERROR, logger="game.llm.supervisor"):
        sup.start()
        await until(lambda: "the model server's recovery failed" in caplog.text)
        looked = server.looked
        await until(lambda: server.looked > looked + 2)  # still watching
    await sup.aclose()
