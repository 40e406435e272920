"""The engine's seams hold: every engine the screen drives satisfies ``EngineView`` (the live one,
the UI tests' fake and the watched recording), and the mind satisfies what the engine asks of it."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import get_type_hints

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))
from engine_fakes import engine_model, make_town  # noqa: E402
from fake_engine import FakeEngine  # noqa: E402

from game.engine import build  # noqa: E402
from game.engine.api import EngineView, LiveEngine, MindPort, Replayable  # noqa: E402
from game.engine.state import ResidentView  # noqa: E402
from game.mind import Mind  # noqa: E402


def _members(proto: type) -> set[str]:
    return {n for n in proto.__dict__ if not n.startswith("_")} | set(get_type_hints(proto))


def test_the_protocols_name_what_they_need():
    assert {"positions", "snapshot", "poll", "inspect", "submit", "save", "player", "embodied"} <= _members(EngineView)
    assert {"next_action", "react", "say", "say_stream", "listen", "routine_action", "whisper"} <= _members(MindPort)


async def test_the_real_engine_and_its_minds(monkeypatch, tmp_path):
    monkeypatch.setattr(build, "load_world", lambda p: make_town())
    e = build.new_engine(tmp_path / "testville", engine_model(), lockstep=True)
    assert isinstance(e, LiveEngine) and not isinstance(e, Replayable)
    assert all(isinstance(m, MindPort) for m in e.core.minds.values())
    assert isinstance(next(iter(e.core.minds.values())), Mind)
    name = sorted(e.core.residents)[0]
    view = e.inspect(name)
    assert isinstance(view, ResidentView) and view.name == name and view.pos == e.core.residents[name].pos
    await e.aclose()


def test_the_fake_engine_is_a_live_engine():
    e = FakeEngine()
    assert isinstance(e, LiveEngine)
    assert isinstance(e.inspect("Klaus Mueller"), ResidentView)


def test_the_watched_recording_is_replayable():
    from game.replay.watch import WatchEngine

    missing = sorted(n for n in _members(Replayable) if not hasattr(WatchEngine, n)
                     and n not in ("town", "clock", "player", "embodied", "heard", "at", "warning"))
    assert not missing
