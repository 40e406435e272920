"""The model goes away in the middle of the day: the town keeps ticking on routines, the status says
so, and when the server is back the residents think again, with nothing lost (memories only grow,
the town saves and loads).  A real local server (127.0.0.1) and the real ModelClient."""

from __future__ import annotations

from collections import Counter

from game.engine.build import load_engine, new_engine
from game.engine.engine import Engine
from game.llm.client import ModelClient

from .fakes import fake_embedder
from .live_server import LiveServer
from .townfiles import write_town


async def run_ticks(e: Engine, n: int, sources: Counter, logs: list) -> None:
    for _ in range(n):
        await e.wait_ready()
        res = e.step()
        logs.extend(res.log)
        for r in e.core.residents.values():
            if r.action is not None:
                sources[r.action.source] += 1


def memory_sizes(e: Engine) -> dict[str, int]:
    return {n: len(m.memory) for n, m in e.core.minds.items()}


async def test_town_carries_on_without_the_model(tmp_path):
    town = write_town(tmp_path / "town")
    srv = LiveServer(seed=5)
    await srv.start()
    llm = ModelClient(srv.url, "live-fake", timeout_s=1.0, connect_timeout_s=0.5, transport_retries=1,
                      backoff_s=0.01, answer_retries=1, slots=2, embedder=fake_embedder())
    e = new_engine(town, llm, lockstep=True, seed=3)
    for mind in e.core.minds.values():  # windows of two hours: the two hours down must ask the model
        mind.core.config.decompose_window_min = mind.core.config.decompose_window_max = 120
    try:
        up, down, back = Counter(), Counter(), Counter()
        logs_up, logs_down, logs_back = [], [], []
        await run_ticks(e, 60, up, logs_up)  # 06:00 -> 07:00: waking, planning
        answered_before = srv.answered
        assert answered_before > 0 and up["model"] > 0, (answered_before, up)
        mem_up = memory_sizes(e)

        await srv.stop()  # the server dies mid-day
        step0, clock0 = e.core.step_no, e.clock.text()
        await run_ticks(e, 120, down, logs_down)
        assert e.core.step_no == step0 + 120 and e.clock.text() != clock0, "the clock must keep going"
        st = llm.status()
        assert st.reachable is False, "the status line must say the model is unreachable"
        assert st.last_error and "127.0.0.1" in st.last_error
        assert down["routine"] > 0, f"residents should live on routines: {down}"
        mem_down = memory_sizes(e)
        assert all(mem_down[n] >= mem_up[n] for n in mem_up), (mem_up, mem_down)
        said = [e for e in logs_down if e.kind in ("system", "error")]
        assert said, "the town log must say the residents could not think"
        print(f"\nmodel down for 120 ticks: actions by source {dict(down)}; e.g. {said[0].text[:100]!r}; "
              f"log lines about it: {len(said)}; status: reachable={st.reachable}, last_error={st.last_error!r}")
        # the save made while the model is down holds everything and loads
        e.save(tmp_path / "down.save")

        await srv.start()  # back on the same port
        await run_ticks(e, 120, back, logs_back)
        assert srv.answered > answered_before, "the residents must ask the model again"
        assert llm.status().reachable is True
        assert back["model"] > 0, f"model-made actions must come back: {back}"
        mem_back = memory_sizes(e)
        assert all(mem_back[n] >= mem_down[n] for n in mem_up), (mem_down, mem_back)
        e.save(tmp_path / "back.save")
        for name in ("down.save", "back.save"):
            again = load_engine(tmp_path / name, llm, lockstep=True)
            assert sorted(again.core.residents) == sorted(e.core.residents)
            await again.aclose()
        print(f"after the model came back: actions by source {dict(back)}; memories {mem_back}")
    finally:
        await e.aclose()
        await llm.aclose()
        await srv.stop()
