"""Where the model lives and how to talk to it: resolved once from flags and the environment.

Order of precedence: command-line flag, then environment variable, then the config file
(``game.settings``), then the embedded default.
The API key only ever comes from ``TOWN_LLM_API_KEY``; it is kept out of ``repr``, ``to_dict`` and
every log line, recording and save.  It is sent only to the host it was given for (the chat
server's): an embedding server elsewhere gets its own key, ``TOWN_EMBED_API_KEY``, or none
(``embed_key()``), since a key handed to one provider must never reach another.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from urllib.parse import SplitResult, urlsplit

import platformdirs

DEFAULT_MODEL_NAME = "qwen2.5-coder-1.5b-instruct-q4_k_m"
TEST_MODEL_NAME = "smollm2-135m-instruct-q4_1"


def town_home(env: Mapping[str, str] | None = None) -> Path:
    """The cache folder for the server binary, the weights and the embedding model.

    ``TOWN_HOME`` if set; else the folder earlier versions used on every system
    (``$XDG_CACHE_HOME/town``, default ``~/.cache/town``) when it exists, so that an installed model
    never moves; else the user cache folder platformdirs knows for this system
    (``user_cache_dir("town")``).  On Linux that is the same folder (``~/.cache/town``, or under
    ``$XDG_CACHE_HOME``), so nothing changes there; on macOS it is ``~/Library/Caches/town`` and on
    Windows ``%LOCALAPPDATA%\\town\\Cache``, used by a new installation only: an existing
    ``~/.cache/town`` on those systems is still used while it is there.  (platformdirs reads
    ``XDG_CACHE_HOME`` from the process environment, not from ``env``.)"""
    env = os.environ if env is None else env
    home = env.get("TOWN_HOME")
    if home:
        return Path(home).expanduser()
    # the folder chosen by hand before platformdirs: on Linux platformdirs names this same folder; on
    # other systems (macOS, Windows) an existing ~/.cache/town is still used, so nobody's model moves
    xdg = env.get("XDG_CACHE_HOME")
    earlier = (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "town"
    if earlier.is_dir():
        return earlier
    return Path(platformdirs.user_cache_dir("town", appauthor=False))


def _clean_url(url: str | None) -> str | None:
    if url is None:
        return None
    url = url.strip().rstrip("/")
    if not url:
        return None
    if not (url.startswith("http://") or url.startswith("https://")):
        raise ValueError(f"model URL '{url}' must start with http:// or https://")
    return url


def same_origin(a: str | None, b: str | None) -> bool:
    """Whether two URLs name the same scheme, host and port (the unit a key is given for)."""
    if not a or not b:
        return False
    ua, ub = urlsplit(a), urlsplit(b)

    def port(u: SplitResult) -> int | None:
        try:
            return u.port or {"http": 80, "https": 443}.get(u.scheme)
        except ValueError:
            return None

    return (ua.scheme.lower(), (ua.hostname or "").lower(), port(ua)) == \
        (ub.scheme.lower(), (ub.hostname or "").lower(), port(ub))


def _float_env(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"${name}='{raw}' is not a number") from None
    if value <= 0:
        raise ValueError(f"${name}='{raw}' must be greater than zero")
    return value


def _int_env(env: Mapping[str, str], name: str, default: int | None) -> int | None:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"${name}='{raw}' is not a whole number") from None
    if value <= 0:
        raise ValueError(f"${name}='{raw}' must be at least 1")
    return value


def _bool_env(env: Mapping[str, str], name: str) -> bool | None:
    raw = (env.get(name) or "").strip().lower()
    if not raw:
        return None
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"${name}='{raw}' is not 1/0, true/false, yes/no or on/off")


def _count_env(env: Mapping[str, str], name: str, default: int | None, *, zero_ok: bool = False) -> int | None:
    raw = (env.get(name) or "").strip()
    if not raw:
        return default
    if not raw.isdigit() or (int(raw) < 1 and not zero_ok):
        raise ValueError(f"${name}='{raw}' must be a whole number of at least {0 if zero_ok else 1}")
    return int(raw)


def default_generation_threads() -> int:
    """Every core.  Measured on a quiet 2-core machine with the embedded Qwen 1.5B (docs/MODEL.md,
    "Server flags"): 16 recorded town requests, 4 at a time, went from 3.62 a minute with one
    thread to 6.39 with two (32-token batches both), and the player's first words in the real app
    (bench/play_latency.py) stayed at medians of 0.38-0.46 s.  (An older figure, 5.6 tokens/s with
    2 threads against 24 with 1, was taken on a machine that other work kept busy: llama.cpp's
    threads spin at a barrier after each small step, so a busy CPU costs far more than one thread
    less.  On a shared machine set TOWN_LLM_THREADS=1.)"""
    return max(1, os.cpu_count() or 2)


@dataclass
class ServerFlags:
    """How the embedded llama-server is started (and the one request field that goes with it).

    The defaults are the shipped values; each has a setting so that values can be chosen from
    measurements of the town's own requests (``bench/server_flags.py``) without a code change.
    ``None`` leaves a flag to llama-server."""

    threads: int = field(default_factory=default_generation_threads)  # -t (TOWN_LLM_THREADS)
    threads_batch: int | None = None  # -tb (TOWN_LLM_THREADS_BATCH; 0/None: the same as -t)
    # llama-server fills a batch from its slots in order: with small batches the player's prompt
    # (slot 0) waits for at most one short batch of the town's, not for all of their prompts (a
    # 390-token prompt beside three 700-token ones: 14 s with 128-token batches instead of 62 s
    # with the default 2048); 32 gave the player's first words soonest (bench/play_latency.py
    # medians 3.2/2.3 s; 128: 6.5/2.5 s; 16: 3.4/2.8 s, 2026-11-22)
    batch: int | None = 32  # -b (TOWN_LLM_BATCH)
    ubatch: int | None = 32  # -ub (TOWN_LLM_UBATCH)
    slots: int = 4  # --parallel (TOWN_LLM_SLOTS)
    ctx_per_slot: int = 2048  # -c is slots x this (TOWN_LLM_CTX_PER_SLOT)
    cache_ram_mib: int | None = None  # --cache-ram, host-memory prompt cache (TOWN_LLM_CACHE_RAM)
    cache_prompt: bool | None = None  # the request field cache_prompt (TOWN_LLM_CACHE_PROMPT)

    ENV = {"threads": "TOWN_LLM_THREADS", "threads_batch": "TOWN_LLM_THREADS_BATCH",
           "batch": "TOWN_LLM_BATCH", "ubatch": "TOWN_LLM_UBATCH", "slots": "TOWN_LLM_SLOTS",
           "ctx_per_slot": "TOWN_LLM_CTX_PER_SLOT", "cache_ram_mib": "TOWN_LLM_CACHE_RAM",
           "cache_prompt": "TOWN_LLM_CACHE_PROMPT"}

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ServerFlags:
        env = os.environ if env is None else env
        f = cls()
        f.threads = _count_env(env, "TOWN_LLM_THREADS", f.threads) or f.threads
        f.threads_batch = _count_env(env, "TOWN_LLM_THREADS_BATCH", f.threads_batch, zero_ok=True) or None
        f.batch = _count_env(env, "TOWN_LLM_BATCH", f.batch)
        f.ubatch = _count_env(env, "TOWN_LLM_UBATCH", f.ubatch)
        f.slots = _count_env(env, "TOWN_LLM_SLOTS", f.slots) or f.slots
        f.ctx_per_slot = _count_env(env, "TOWN_LLM_CTX_PER_SLOT", f.ctx_per_slot) or f.ctx_per_slot
        f.cache_ram_mib = _count_env(env, "TOWN_LLM_CACHE_RAM", f.cache_ram_mib, zero_ok=True)
        f.cache_prompt = _bool_env(env, "TOWN_LLM_CACHE_PROMPT")
        if f.batch and f.ubatch and f.ubatch > f.batch:
            raise ValueError(f"$TOWN_LLM_UBATCH={f.ubatch} cannot be larger than the batch ({f.batch})")
        return f

    def args(self) -> list[str]:
        """The llama-server arguments these flags stand for (not the model, host or port)."""
        out = ["--parallel", str(self.slots), "-c", str(self.slots * self.ctx_per_slot),
               "-t", str(self.threads)]
        if self.threads_batch:
            out += ["-tb", str(self.threads_batch)]
        if self.batch:
            out += ["-b", str(self.batch)]
        if self.ubatch:
            out += ["-ub", str(self.ubatch)]
        if self.cache_ram_mib is not None:
            out += ["--cache-ram", str(self.cache_ram_mib)]
        return out

    def env(self) -> dict[str, str]:
        """The settings as environment variables (to start another process with these flags)."""
        out = {}
        for name, value in self.to_dict().items():
            if value is not None:
                out[self.ENV[name]] = ("1" if value else "0") if isinstance(value, bool) else str(value)
        return out

    def to_dict(self) -> dict[str, object]:
        return asdict(self)  # (its fields are the settings ``ENV`` names, in its order)


@dataclass
class LLMConfig:
    """Everything needed to open the model layer.

    ``llm_url`` None means: start the embedded llama-server from the cache (``town setup``).
    ``embed_url`` None means: the in-process MiniLM encoder (installed by ``town setup``), unless
    ``llm_url`` is set and ``embed_via_llm`` is true.
    """

    llm_url: str | None = None
    model: str | None = None
    embed_url: str | None = None
    embed_model: str | None = None  # model name for a remote /v1/embeddings (TOWN_EMBED_MODEL)
    api_key: str | None = field(default=None, repr=False)  # the chat server's (TOWN_LLM_API_KEY)
    embed_api_key: str | None = field(default=None, repr=False)  # the embedding server's
    record: str | None = None
    replay: str | None = None
    home: Path = field(default_factory=town_home)
    slots: int | None = None  # parallel requests; None: ask the server (llama-server /props), else found
    # the most in flight at once for a server that does not say its slots (vLLM, a router): the
    # client finds how many it takes from its answer times, up to this (game/llm/throttle.py)
    max_in_flight: int = 256
    timeout_s: float = 600.0  # one request, from the moment it is sent (not counting the queue)
    connect_timeout_s: float = 10.0
    transport_retries: int = 3  # retries after a transport failure, with exponential backoff
    backoff_s: float = 0.5
    answer_retries: int = 2  # re-asks after an answer that does not validate
    embed_via_llm: bool = False  # use {llm_url}/embeddings when no embed_url is set
    use_test_model: bool = False  # embedded server with the small SmolLM2 (tests)
    server: ServerFlags = field(default_factory=ServerFlags)  # the embedded server's flags

    # --- construction -------------------------------------------------------------------

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: object) -> LLMConfig:
        env = os.environ if env is None else env
        cfg = cls(
            llm_url=_clean_url(env.get("TOWN_LLM_URL")),
            model=(env.get("TOWN_MODEL") or None),
            embed_url=_clean_url(env.get("TOWN_EMBED_URL")),
            embed_model=(env.get("TOWN_EMBED_MODEL") or None),
            api_key=(env.get("TOWN_LLM_API_KEY") or None),
            embed_api_key=(env.get("TOWN_EMBED_API_KEY") or None),
            home=town_home(env),
            slots=_int_env(env, "TOWN_LLM_SLOTS", None),
            max_in_flight=_int_env(env, "TOWN_LLM_MAX_IN_FLIGHT", None) or 256,
            timeout_s=_float_env(env, "TOWN_LLM_TIMEOUT", 600.0),
            embed_via_llm=env.get("TOWN_EMBED_VIA_LLM", "") not in ("", "0", "false", "no"),
            use_test_model=env.get("TOWN_LLM_TEST_MODEL", "") not in ("", "0", "false", "no"),
            server=ServerFlags.from_env(env),
        )
        names = {f.name for f in fields(cls)}
        for key, value in overrides.items():
            if key not in names:
                raise TypeError(f"LLMConfig has no setting '{key}'")
            setattr(cfg, key, value)
        return cfg

    @classmethod
    def from_args(cls, args: argparse.Namespace, env: Mapping[str, str] | None = None) -> LLMConfig:
        """Flags from ``game.cli.add_llm_flags`` win over the environment, which wins over the
        config file (``game.settings``: its ``llm_url`` and ``model``; read only when ``env`` is
        not given, as from the command line)."""
        if env is None:
            from game.settings import layered_env

            env = layered_env()
        cfg = cls.from_env(env)
        url = getattr(args, "llm_url", None)
        if url:
            cfg.llm_url = _clean_url(url)
        model = getattr(args, "model", None)
        if model:
            cfg.model = model
        embed_url = getattr(args, "embed_url", None)
        if embed_url:
            cfg.embed_url = _clean_url(embed_url)
        cfg.record = getattr(args, "record", None) or None
        cfg.replay = getattr(args, "replay", None) or None
        if cfg.record and cfg.replay:
            raise ValueError("--record and --replay cannot be used together")
        if cfg.replay and (url or model or embed_url):  # (was silently not used)
            raise ValueError("--replay answers from a recording: no model is used, so --llm-url, --model and "
                             "--embed-url are not either")
        if cfg.replay and not Path(cfg.replay).is_file():  # bad input, said before anything starts
            raise ValueError(f"--replay: '{cfg.replay}' is not a recording file (it does not exist)")
        return cfg

    # --- derived ------------------------------------------------------------------------

    @property
    def embedded(self) -> bool:
        """True when the game starts its own llama-server."""
        return self.llm_url is None and self.replay is None

    def headers(self) -> dict[str, str]:
        """HTTP headers for the model server (the only place the key is used)."""
        if self.api_key:
            return {"Authorization": f"Bearer {self.api_key}"}
        return {}

    def embed_key(self, url: str | None) -> str | None:
        """The key to send to the embedding server at ``url``: ``TOWN_EMBED_API_KEY`` when set,
        else the chat key only when ``url`` is the chat server's own host (scheme, host, port),
        else none.  The chat key never goes to another host."""
        if self.embed_api_key:
            return self.embed_api_key
        if self.api_key and same_origin(url, self.llm_url):
            return self.api_key
        return None

    def to_dict(self) -> dict[str, object]:
        """Safe to log and to save: never contains the API key."""
        return {
            "llm_url": self.llm_url,
            "model": self.model,
            "embed_url": self.embed_url,
            "embed_model": self.embed_model,
            "api_key_set": bool(self.api_key),
            "embed_api_key_set": bool(self.embed_api_key),
            "record": self.record,
            "replay": self.replay,
            "home": str(self.home),
            "slots": self.slots,
            "max_in_flight": self.max_in_flight,
            "timeout_s": self.timeout_s,
            "server": self.server.to_dict(),
        }


@dataclass(frozen=True)
class Paths:
    """Where ``town setup`` puts things inside the cache folder."""

    home: Path

    @property
    def bin_dir(self) -> Path:
        return self.home / "bin"

    @property
    def server_bin(self) -> Path:
        override = os.environ.get("TOWN_LLAMA_SERVER")
        if override:
            return Path(override).expanduser()
        return self.bin_dir / "llama-server"

    @property
    def models(self) -> Path:
        return self.home / "models"

    @property
    def default_model(self) -> Path:
        return self.models / f"{DEFAULT_MODEL_NAME}.gguf"

    @property
    def test_model(self) -> Path:
        return self.models / f"{TEST_MODEL_NAME}.gguf"

    @property
    def minilm(self) -> Path:
        return self.models / "all-MiniLM-L6-v2"

    @property
    def embed_cache(self) -> Path:
        return self.home / "embeddings.sqlite"

    @property
    def stamps(self) -> Path:
        return self.home / "stamps"

    @property
    def logs(self) -> Path:
        return self.home / "logs"
