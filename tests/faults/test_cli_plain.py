"""Headless output is plain text: a server whose error text is hostile (terminal escapes, markup,
bidi controls, a 10k-character line) reaches ``town run``, ``town llm check``, ``town report`` and
``town interview`` only as plain letters.  A real local server (127.0.0.1) and the real client."""

from __future__ import annotations

import asyncio
import io
import json
import re
import threading
from contextlib import contextmanager

import pytest

from game.cli import main
from game.engine.running.headless import run_headless
from game.llm.client import ModelClient

from .fakes import fake_embedder
from .hostile import ESCAPES, INJECTION, MARKUP
from .live_server import LiveServer
from .townfiles import residents_data, write_town

# what must never reach a terminal raw: C0/C1 controls (ESC, the 8-bit CSI, BEL...), bidi controls,
# lone surrogates
UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
HOSTILE = " ".join(ESCAPES) + " " + " ".join(MARKUP) + " " + INJECTION[1] + " " + "x" * 10_000


def assert_plain(text: str) -> None:
    bad = UNSAFE.search(text)
    assert bad is None, \
        f"raw {bad.group(0)!r} reached the terminal near {text[max(0, bad.start() - 40):bad.end() + 40]!r}"


@contextmanager
def server_in_thread(**settings):
    """A LiveServer on its own event loop (the CLI under test runs ``asyncio.run`` itself)."""
    srv = LiveServer(seed=1)
    for k, v in settings.items():
        setattr(srv, k, v)
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    def run():
        asyncio.set_event_loop(loop)
        loop.run_until_complete(srv.start())
        ready.set()
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(5)
    try:
        yield srv
    finally:
        asyncio.run_coroutine_threadsafe(srv.stop(), loop).result(5)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


@pytest.mark.parametrize("as_json", [False, True])
def test_llm_check_prints_a_hostile_server_error_plainly(tmp_path, monkeypatch, capsys, as_json):
    with server_in_thread(mode="error", error_body=HOSTILE) as srv:
        monkeypatch.setenv("TOWN_HOME", str(tmp_path))
        monkeypatch.setenv("TOWN_EMBED_URL", srv.url)  # the embedding request fails the same way
        code = main(["llm", "check", "--llm-url", srv.url] + (["--json"] if as_json else []))
    out, err = capsys.readouterr()
    assert code == 1
    assert_plain(out)
    assert_plain(err)
    if as_json:
        report = json.loads(out)  # still the server's words, escaped, for a program to read
        assert any("\x1b[2J" in e for e in report["errors"])
    else:
        assert "FAILED" in out and "[bold red]ALERT[/bold red]" in out  # markup shown as letters


async def test_town_run_prints_a_hostile_server_error_plainly(tmp_path, capsys):
    town = write_town(tmp_path / "town")
    srv = LiveServer(seed=2)
    srv.mode, srv.error_body = "error", HOSTILE
    await srv.start()
    llm = ModelClient(srv.url, "live-fake", timeout_s=2.0, transport_retries=0, answer_retries=0,
                      slots=2, embedder=fake_embedder())
    out = io.StringIO()
    try:
        rc = await run_headless(llm, str(town), until="day 1 08:00", save=str(tmp_path / "t.save"),
                                out=out)
    finally:
        await llm.aclose()
        await srv.stop()
    err = capsys.readouterr().err
    assert rc == 1  # every call failed: the run failed (test_cli_exit.py)
    assert srv.requests > 0 and "rejected the request" in err  # the server's error was printed...
    assert_plain(out.getvalue())  # ...as plain text
    assert_plain(err)


async def test_town_report_of_a_hostile_town_is_plain(tmp_path, capsys):
    from game.measure.report import cli_report

    data = residents_data()
    first = data["residents"][2]  # not in the small cast
    first["name"] = "Zed \x1b]0;owned\x07\x9b31m Doe\u202e"
    data["town"] = "Faultville \x1b[31m[bold]red[/bold]\x9b2J"
    town = write_town(tmp_path / "town \x1b[2J", residents=data)
    srv = LiveServer(seed=3)
    await srv.start()
    llm = ModelClient(srv.url, "live-fake", timeout_s=2.0, slots=2, embedder=fake_embedder())
    save = tmp_path / "h.save"
    try:
        rc = await run_headless(llm, str(town), until="day 1 08:00", save=str(save), out=io.StringIO())
    finally:
        await llm.aclose()
        await srv.stop()
    assert rc == 0, capsys.readouterr().err
    capsys.readouterr()

    class Args:
        track = None
        at = None

    for as_json in (False, True):
        Args.save, Args.json = str(save), as_json
        assert await asyncio.to_thread(cli_report, Args) == 0
        out = capsys.readouterr().out
        assert_plain(out)
        if as_json:
            assert any("\x9b31m" in r for r in json.loads(out)["residents"])
