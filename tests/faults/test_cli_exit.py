"""No silent failure: exit codes and where the command line says what went wrong (issue 29).

* 2: bad input (a map, save, ``--until`` time, resident name, question or scenario), said before
  any model is opened or the embedded server started;
* 1: the model (or the run) failed: a server that is not the OpenAI API, or a run in which more
  than ``FAILED_CALLS_SHARE`` of the chat calls failed, even where the save was written;
* 130: interrupted.
Errors go to stderr as one plain line; ``--json`` goes through the safe writer (``game.text.dumps``).

The stand-in server is the case of the issue: a plain ``http.server`` that answers 404 to
``GET /v1/models`` and 501 to every POST, each with its HTML error page.
"""

from __future__ import annotations

import asyncio
import http.server
import json
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

from game.cli import main
from game.llm.accounting import FAILED_CALLS_SHARE, failed_calls, run_failed

from .fakes import any_answer_model
from .test_cli_plain import server_in_thread
from .test_save_files import IMPOSSIBLE, _edit
from .town_engine import ticks
from .townfiles import residents_data, write_town

PAGE = ("<!DOCTYPE HTML>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>Error response</title>\n</head>\n<body>\n<h1>Error response</h1>\n"
        "<p>Error code: {code}</p>\n<p>Message: {why}.</p>\n</body>\n</html>\n")
RAW_HTML = ("<!DOCTYPE", "<html", "<p>", "<h1>", "</body>")


class NotTheAPI(http.server.BaseHTTPRequestHandler):
    """A web server that is not an OpenAI-compatible API: 404 to every GET, 501 to every POST."""

    def _page(self, code: int, why: str) -> None:
        body = PAGE.format(code=code, why=why).encode()
        self.send_response(code)
        self.send_header("Content-Type", "text/html;charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self.server.hits.append(("GET", self.path))  # type: ignore[attr-defined]
        self._page(404, "File not found")

    def do_POST(self) -> None:  # noqa: N802
        self.server.hits.append(("POST", self.path))  # type: ignore[attr-defined]
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._page(501, "Unsupported method ('POST')")

    def log_message(self, *args) -> None:
        pass


@contextmanager
def not_the_api():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), NotTheAPI)
    srv.hits = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield srv, f"http://127.0.0.1:{srv.server_address[1]}/v1"
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(5)


@pytest.fixture
def env(tmp_path, monkeypatch):
    """No model cache (the embedded server cannot start), and no embedder but a given URL's."""
    monkeypatch.setenv("TOWN_HOME", str(tmp_path / "town-home"))
    for var in ("TOWN_LLM_URL", "TOWN_EMBED_URL", "TOWN_MODEL", "TOWN_EMBED_VIA_LLM"):
        monkeypatch.delenv(var, raising=False)
    return tmp_path


def last_line(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def assert_no_raw_html(*texts: str) -> None:
    for text in texts:
        for tag in RAW_HTML:
            assert tag not in text, f"raw HTML {tag!r} reached the terminal: {text[:400]!r}"


# ------------------------------------------------------------------ a model that fails every call

def test_town_run_on_a_server_that_is_not_the_api_exits_1_and_says_so(env, monkeypatch, capsys):
    """The issue's case: it printed the raw HTML pages, 'errors: 6', wrote the save and exited 0."""
    town = write_town(env / "town")
    save = env / "S.save"
    with not_the_api() as (srv, url):
        monkeypatch.setenv("TOWN_EMBED_URL", url)  # the embeddings fail the same way
        code = main(["run", str(town), "--until", "day 1 07:30", "--save", str(save), "--llm-url", url])
    out, err = capsys.readouterr()
    assert code == 1, err
    assert any(m == "POST" for m, _ in srv.hits)
    line = last_line(err)
    assert line.startswith("town run: the run failed: ") and "chat calls to the model failed" in line, err
    assert "HTTP 501" in line and 'an HTML page: "Error response' in line  # what came, short and quoted
    assert str(save) in line and save.is_file()  # the save may be written; the message says the run failed
    assert "\n" not in line and len(line) < 700
    assert_no_raw_html(out, err)


def test_town_run_json_says_the_run_failed(env, monkeypatch, capsys):
    town = write_town(env / "town")
    with not_the_api() as (_, url):
        monkeypatch.setenv("TOWN_EMBED_URL", url)
        code = main(["run", str(town), "--until", "day 1 07:30", "--json", "--llm-url", url])
    out, err = capsys.readouterr()
    assert code == 1
    report = json.loads(out)  # stdout stays JSON; the failure line is on stderr
    assert report["failed"] and "chat calls to the model failed" in report["failed"]
    assert last_line(err).startswith("town run: the run failed: ")
    assert_no_raw_html(out, err)


def test_town_run_on_a_working_server_exits_0(env, monkeypatch, capsys):
    town = write_town(env / "town")
    with server_in_thread() as srv:
        monkeypatch.setenv("TOWN_EMBED_URL", srv.url)
        code = main(["run", str(town), "--until", "day 1 06:30", "--json", "--llm-url", srv.url])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["failed"] is None and srv.answered > 0


def test_the_failed_share_is_chat_calls_of_this_run_only():
    def acc(*rows):
        return {"by_resident_purpose": [{"resident": r, "purpose": p, "calls": c, "failures": f}
                                        for r, p, c, f in rows]}
    assert FAILED_CALLS_SHARE == 0.5
    assert run_failed(acc(("A", "plan_day", 2, 1))) is None  # half is not more than half
    assert "2 of 3 chat calls" in run_failed(acc(("A", "plan_day", 2, 1), ("B", "react", 1, 1)))
    assert run_failed(acc(("A", "plan_day", 4, 1), (None, "embed", 40, 40))) is None  # embeddings apart
    assert run_failed(acc()) is None and run_failed(None) is None  # no call, nothing to judge
    # a continued save: its earlier failures are not this run's
    before = acc(("A", "plan_day", 10, 10))
    assert failed_calls(acc(("A", "plan_day", 14, 10)), before) == (0, 4)
    assert run_failed(acc(("A", "plan_day", 14, 10)), before) is None
    assert run_failed(acc(("A", "plan_day", 14, 13)), before)


def test_llm_check_on_a_server_that_is_not_the_api_says_what_it_got(env, monkeypatch, capsys):
    with not_the_api() as (_, url):
        monkeypatch.setenv("TOWN_EMBED_URL", url)
        code = main(["llm", "check", "--llm-url", url])
        out, err = capsys.readouterr()
        assert code == 1
        assert "HTTP 404" in out and "/models" in out  # GET /v1/models
        assert "HTTP 501" in out  # the chat request
        assert 'an HTML page: "Error response Error code: 501' in out
        assert out.rstrip().endswith("FAILED")
        assert_no_raw_html(out, err)
        # the report is the result, on stdout; that it failed, and why, is an error too (issue 41)
        assert err.strip().splitlines()[-1].startswith("town llm check: FAILED: ") and "HTTP 501" in err
        code = main(["llm", "check", "--json", "--llm-url", url])
    out, _ = capsys.readouterr()
    assert code == 1
    report = json.loads(out)
    assert not report["ok"]
    assert any(e.startswith("models: ") and "HTTP 404" in e for e in report["errors"])
    assert_no_raw_html(out)


def test_a_long_html_page_is_cut_to_a_short_excerpt():
    import httpx

    from game.llm.wire import EXCERPT_CHARS, server_message

    page = "<html><head><title>T</title><style>p {color: red}</style></head><body>" \
           + "<p>word \x1b[31m&amp; more</p>" * 500 + "</body></html>"
    msg = server_message(httpx.Response(502, text=page, headers={"content-type": "text/html"}))
    assert msg.startswith('an HTML page: "word & more word')
    assert len(msg) < EXCERPT_CHARS + 40 and "<" not in msg and "\x1b" not in msg and "color" not in msg
    assert server_message(httpx.Response(404, text="", headers={"content-type": "text/html"})) == \
        "an empty HTML page (text/html)"
    assert server_message(httpx.Response(500, text="plain\nwords")) == '"plain words"'


# ------------------------------------------------------------------ input before the model

class Opened(Exception):
    pass


@pytest.fixture
def no_model(env, monkeypatch):
    """Any command that opens the model layer (or would start the embedded server) fails the test."""
    import game.llm.session as session

    opened = []

    def open_llm(*_a, **_k):
        opened.append(True)
        raise Opened("the model was asked for before the input was checked")

    monkeypatch.setattr(session, "open_llm", open_llm)
    return opened


@pytest.fixture(scope="module")
def saves(tmp_path_factory):
    """A good save of the fault town, and saves that are bad in each way the commands must refuse."""
    folder = tmp_path_factory.mktemp("saves")

    async def make() -> Path:
        from game.engine.build import new_engine

        e = new_engine(write_town(folder / "town"), any_answer_model(1), lockstep=True, seed=1)
        await ticks(e, 10)
        e.save(folder / "good.save")
        await e.aclose()
        return folder / "good.save"
    good = asyncio.run(make())
    out = {"good": good}
    (folder / "garbage.save").write_bytes(b"not a save at all")
    out["garbage"] = folder / "garbage.save"
    _edit(good, folder / "dropped.save", "DROP TABLE residents;")
    out["dropped"] = folder / "dropped.save"
    for n, sql in enumerate(IMPOSSIBLE):
        _edit(good, folder / f"impossible{n}.save", sql)
        out[f"impossible{n}"] = folder / f"impossible{n}.save"
    broken = folder / "broken-town"
    write_town(broken, tmx="<map><unclosed")
    out["broken map"] = broken
    return out


def _scenario(folder: Path, name: str, body: str) -> str:
    p = folder / name
    p.write_text(body, encoding="utf-8")
    return str(p)


RUN_CASES = {
    "--until not a time": (["run", "{town}", "--until", "tomorrow"], "'tomorrow'"),
    "--until before the start": (["run", "{town}", "--until", "day 1 05:00"], "is not after the town's time"),
    "a broken map": (["run", "{broken map}", "--until", "day 1 07:00"], "broken-town"),
    "--start not a time": (["run", "{town}", "--start", "25:61", "--until", "day 1 07:00"], "--start '25:61'"),
    "--start with a save": (["run", "{good}", "--start", "dawn", "--until", "day 2 07:00"], "a save goes on"),
    "no such town": (["run", "{town}-nowhere", "--until", "day 1 07:00"], "no such town"),
    "not a save": (["run", "{garbage}", "--until", "day 1 07:00"], "garbage.save"),
    "a save with a table dropped": (["run", "{dropped}", "--until", "day 1 07:00"], "dropped.save"),
    "a save with a resident off the map": (["run", "{impossible0}", "--until", "day 2 07:00"], ".x/y"),
    "a save with an unknown resident": (["run", "{impossible3}", "--until", "day 2 07:00"], "Zed Nobody"),
    "interview: an empty question": (["interview", "{good}", "Ann Lin", ""], "question 1 is empty"),
    "interview: a blank second question": (["interview", "{good}", "Ann", "Hello?", " \t\x1b[0m"],
                                           "question 2 is empty"),
    "interview: nobody of that name": (["interview", "{good}", "Nora Lindqvist", "Hello?"],
                                       "no resident called 'Nora Lindqvist'"),
    "interview: a damaged save": (["interview", "{dropped}", "Ann Lin", "Hello?"], "dropped.save"),
    "interview: a resident off the map": (["interview", "{impossible0}", "Ann Lin", "Hello?"], ".x/y"),
    "experiment: not TOML": (["experiment", "{scenario not toml}"], "not valid TOML"),
    "experiment: a cast not in the town": (["experiment", "{scenario stranger}"], "Zed Quill"),
    "experiment: a save off the map": (["experiment", "{scenario off map}"], ".x/y"),
}


@pytest.mark.parametrize("with_url", [False, True], ids=["embedded", "llm-url"])
@pytest.mark.parametrize("case", list(RUN_CASES))
def test_bad_input_exits_2_before_any_model(case, with_url, saves, no_model, env, capsys):
    """Every command reads and checks its input first: with the embedded default nothing starts
    (the open is refused here), and with --llm-url no request reaches the server."""
    argv, words = RUN_CASES[case]
    folder = saves["good"].parent
    names = {**{k: str(v) for k, v in saves.items()}, "town": str(folder / "town"),
             "scenario not toml": _scenario(env, "a.toml", "name = [unclosed"),
             "scenario stranger": _scenario(env, "b.toml", f'name = "b"\n[town]\nmap = "{folder / "town"}"\n'
                                            'cast = ["Ann Lin", "Zed Quill"]\n[run]\nuntil = "day 1 07:00"\n'),
             "scenario off map": _scenario(env, "c.toml", f'name = "c"\n[town]\nsave = "{saves["impossible0"]}"\n'
                                           '[run]\nuntil = "day 2 07:00"\n')}
    argv = [a.format(**names) if a.startswith("{") else a for a in argv]
    if argv[0] == "experiment":
        argv += ["--out", str(env / "out")]
    with not_the_api() as (srv, url):
        code = main(argv + (["--llm-url", url] if with_url else []))
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert not no_model and srv.hits == []
    assert words in err, err
    scenario = argv[0] == "experiment" and argv[1]
    assert err.startswith(scenario if scenario else f"town {argv[0]}: "), err  # the file, or the command
    assert "Traceback" not in err and out == ""
    if argv[0] == "experiment":
        assert not (env / "out" / "town.save").exists()


def test_a_map_error_is_the_same_exit_code_from_town_map_and_town_run(saves, no_model, capsys):
    broken = str(saves["broken map"])
    assert main(["map", broken]) == 2
    map_err = capsys.readouterr().err
    assert main(["run", broken, "--until", "day 1 07:00"]) == 2
    run_err = capsys.readouterr().err
    assert map_err.split(": ", 1)[1].strip() == run_err.split(": ", 1)[1].strip()


def test_town_play_says_its_errors_on_stderr(env, saves, no_model, monkeypatch, capsys):
    import game.ui.app as app

    def screen(_self):
        raise Opened("the screen started before the town was checked")

    monkeypatch.setattr(app.TownApp, "run", screen)
    assert main(["play", str(env / "nowhere")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("town play: ") and "nowhere" in err
    for bad, words in (("broken map", "broken-town"), ("impossible0", ".x/y"), ("dropped", "dropped.save")):
        assert main(["play", str(saves[bad])]) == 2  # before the screen or any model starts
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("town play: ") and words in err, err
    for argv, words in ((["--start", "noon"], "--start 'noon'"),
                        ([str(saves["good"]), "--start", "05:00"], "a save goes on")):
        assert main(["play", *argv]) == 2  # issue 42's --start, checked before the screen
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("town play: ") and words in err, err
    assert not no_model
    assert main(["play", "--replay", str(env / "missing.jsonl")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "missing.jsonl" in err


# ------------------------------------------------------------------ town experiment

SCENARIO = """name = "exit codes"
[town]
map = "{town}"
[run]
until = "day 1 07:30"
[[question]]
ask = "What are you doing today?"
"""


def test_experiment_with_a_model_that_fails_exits_1_and_json_is_safe(env, monkeypatch, capsys):
    data = residents_data()
    data["residents"][0]["name"] = "Zoë \u202eÆrø"  # letters kept as letters; the bidi control escaped
    data["small_cast"] = ["Zoë \u202eÆrø", "Bob Lin"]
    town = write_town(env / "town", residents=data)
    scenario = _scenario(env, "s.toml", SCENARIO.format(town=town))
    with server_in_thread() as srv:  # a working model: exit 0, and --json through the safe writer
        monkeypatch.setenv("TOWN_EMBED_URL", srv.url)
        code = main(["experiment", scenario, "--json", "--out", str(env / "ok"), "--llm-url", srv.url])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Zoë \\u202eÆrø" in out and "\u202e" not in out  # game.text.dumps, not json.dumps
    assert json.loads(out)["failed"] is None
    with not_the_api() as (_, url):
        monkeypatch.setenv("TOWN_EMBED_URL", url)
        code = main(["experiment", scenario, "--out", str(env / "bad"), "--llm-url", url])
    out, err = capsys.readouterr()
    assert code == 1
    assert last_line(err).startswith("town experiment: the run failed: ")
    assert json.loads((env / "bad" / "result.json").read_text())["failed"]
    assert_no_raw_html(out, err)


def test_an_experiment_whose_model_is_not_there_names_no_save_it_never_wrote(env, capsys):
    from .live_server import free_port

    town = write_town(env / "town")
    scenario = _scenario(env, "s.toml", SCENARIO.format(town=town))
    dead = f"http://127.0.0.1:{free_port()}/v1"
    code = main(["experiment", scenario, "--out", str(env / "out"), "--llm-url", dead, "--embed-url", dead])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith("town experiment: ") and "cannot reach" in err
    assert not (env / "out" / "town.save").exists() and "town.save" not in err


# ------------------------------------------------------------------ the command line itself

def test_ctrl_c_is_130_and_an_uncaught_game_error_is_one_line_and_1(env, monkeypatch, capsys):
    import game.world.dump as dump
    from game.engine.saves import SaveError

    def interrupted(_args):
        raise KeyboardInterrupt

    monkeypatch.setattr(dump, "cli_dump_map", interrupted)
    assert main(["map"]) == 130

    def fails(_args):
        raise SaveError("save 'x.save': the disk\nis full")

    monkeypatch.setattr(dump, "cli_dump_map", fails)
    assert main(["map"]) == 1
    err = capsys.readouterr().err
    assert last_line(err) == "town map: save 'x.save': the disk is full"


def test_every_error_of_the_game_is_a_game_error():
    from game.engine.build import TownError
    from game.engine.commands import CommandError
    from game.engine.saves import SaveError
    from game.errors import GameError
    from game.experiment.scenario import ScenarioError
    from game.llm.api import LLMError
    from game.measure.interview import InterviewError
    from game.world.errors import MapError

    for cls in (SaveError, ScenarioError, TownError, MapError, LLMError, InterviewError, CommandError):
        assert issubclass(cls, GameError), cls


@pytest.mark.parametrize("flag", ["--save", "--record"])
def test_a_place_run_cannot_write_is_said_before_any_model(tmp_path, capsys, flag):
    # found only after the whole run (a save), or after the server started with a traceback
    # (a recording), before issue 41.  No model: the URL goes nowhere, and is never asked.
    town = write_town(tmp_path / "town")
    afile = tmp_path / "a-file"
    afile.write_text("x")
    for where, words in ((tmp_path, "is a folder"), (afile / "town.save", "is a file, not a folder")):
        code = main(["run", str(town), "--until", "day 1 07:30", flag, str(where), "--llm-url", "http://127.0.0.1:9/v1"])
        err = capsys.readouterr().err.strip()
        assert code == 2 and err.startswith(f"town run: {flag} ") and words in err and "\n" not in err, err


def test_an_experiment_folder_that_is_a_file_is_said_before_any_model(tmp_path, capsys):
    afile = tmp_path / "a-file"
    afile.write_text("x")
    scenario = Path(__file__).resolve().parents[2] / "scenarios" / "stove-fire.toml"
    code = main(["experiment", str(scenario), "--out", str(afile), "--llm-url", "http://127.0.0.1:9/v1"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "--out" in err and "is a file; name a folder" in err and "\n" not in err, err


def test_play_with_a_saves_folder_that_is_a_file_is_said_before_the_screen(tmp_path, capsys):
    afile = tmp_path / "a-file"
    afile.write_text("x")
    assert main(["play", "--saves", str(afile), "--llm-url", "http://127.0.0.1:9/v1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--saves" in err and "is a file; name a folder" in err and "\n" not in err, err


def test_flags_that_would_not_be_used_are_refused(tmp_path, capsys):
    # --small on a save and a model with --replay were silently not used (issue 41)
    from game.engine.build import TownError, read_input

    with pytest.raises(TownError, match="a save keeps the residents it was saved with"):
        read_input(tmp_path / "town.save", small=True)
    rec = tmp_path / "r.jsonl"
    rec.write_text("")
    code = main(["run", "default", "--until", "day 1 07:00", "--replay", str(rec), "--llm-url", "http://127.0.0.1:9/v1"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "--replay answers from a recording" in err and "\n" not in err, err
