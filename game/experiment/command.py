"""``town experiment SCENARIO [--llm-url URL] [--model M] [--record FILE] [--replay FILE] [--json]
[--out DIR]``: run a scenario file end to end and print the paper's table.

The town, the recording (``OUT/recording.jsonl`` unless ``--record`` names another file),
``OUT/result.json`` and the town's save (``OUT/town.save`` with its position log) are written to
``--out`` (default ``runs/<scenario file name>-<date>-<time>``).  ``--replay RECORDING`` reruns the scenario on that
recording with no model and prints the same table.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from game.outpaths import writable_dir, writable_file
from game.text import dumps, echo, one_line

if TYPE_CHECKING:  # pragma: no cover
    from game.experiment.runstate import CheckedScenario
    from game.llm.config import LLMConfig


def _err(msg: str) -> None:
    echo(f"town experiment: {one_line(msg)}", file=sys.stderr)


def cli_experiment(args: argparse.Namespace) -> int:
    from game.experiment.runner import prepare
    from game.experiment.scenario import ScenarioError, load_scenario
    from game.llm.config import LLMConfig

    try:
        scenario = load_scenario(args.scenario)
        if getattr(args, "out", None):
            out_dir = Path(args.out)
        else:
            out_dir = Path("runs") / f"{Path(args.scenario).stem}-{datetime.now():%Y%m%d-%H%M%S}"
        if (out_dir / "result.json").exists():
            _err(f"--out: '{out_dir}' already holds an experiment (result.json); choose another folder")
            return 2
        if args.replay and scenario.run.pace != "lockstep":
            raise ScenarioError(f"{scenario.path}: run.pace: a 'play' run depends on how fast the model "
                                f"answered and cannot be replayed; use pace = \"lockstep\"")
        if args.replay and not Path(args.replay).is_file():
            _err(f"--replay: '{args.replay}' does not exist")
            return 2
        writable_dir(str(out_dir), "--out")  # where it writes, before any model starts
        if not args.replay and not args.record:
            args.record = str(out_dir / "recording.jsonl")
        if args.record:
            writable_file(args.record, "--record")
        if args.record and Path(args.record).is_file() and Path(args.record).stat().st_size:
            # a recording grows by appending: a second run in it would replay as neither run
            _err(f"--record: '{args.record}' already holds a recording; choose another file or --out")
            return 2
        prepared = prepare(scenario, out_dir)
        config = LLMConfig.from_args(args)
    except ScenarioError as e:
        echo(e, file=sys.stderr)  # (every problem of the file, each on its line)
        return 2
    except (ValueError, OSError) as e:
        _err(str(e))
        return 2
    return asyncio.run(_main(prepared, config, out_dir, bool(args.json)))


async def _main(prepared: CheckedScenario, config: LLMConfig, out_dir: Path, as_json: bool) -> int:
    import signal

    from game.experiment.runner import run_experiment
    from game.experiment.table import print_table
    from game.llm.api import LLMError
    from game.llm.session import open_llm

    task = asyncio.current_task()
    try:  # SIGTERM stops it like Ctrl-C: the town so far is saved (the runner's finally)
        if task is not None:
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)
    except (NotImplementedError, RuntimeError, AttributeError):
        pass
    try:
        async with open_llm(config, progress=lambda m: echo(m, file=sys.stderr)) as llm:
            result = await run_experiment(prepared, llm, out_dir, progress=sys.stderr,
                                          record=config.record, replay=config.replay)
    except LLMError as e:
        _err(f"{e}{_saved_so_far(out_dir)}")
        return 1
    except asyncio.CancelledError:
        _err(f"interrupted{_saved_so_far(out_dir)}")
        return 130
    failed = result.get("failed")
    if as_json:
        echo(dumps(result, indent=1))
    else:
        print_table(result)
        echo(f"\nsaved: {result['save']}, {out_dir / 'result.json'}"
             + (f", recording {config.record}" if config.record else ""))
    if failed:  # the last line on stderr: the table above was made of a model that failed
        _err(f"the run failed: {failed}; the town and the table were written all the same "
             f"({out_dir / 'result.json'})")
        return 1
    return 0


def _saved_so_far(out_dir: Path) -> str:
    """Where the town so far was saved, only when a save was written (a model that failed before
    the run began left none)."""
    save = out_dir / "town.save"
    return f"; the town so far is in {save} (`town report` reads it)" if save.is_file() else ""
