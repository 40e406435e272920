"""``open_llm``: the one way the game opens its model layer.

    async with open_llm(config, progress=print) as llm:
        answer = await llm.complete(...)

- ``--replay FILE``: a ``ReplayLLM``; no model at all.
- ``--llm-url`` / ``TOWN_LLM_URL``: a ``ModelClient`` for that server.
- neither: starts the embedded llama-server with the installed model (``town setup``), or raises
  ``LLMError`` saying how to get one.
- ``--record FILE`` wraps the client in a ``RecordingLLM``.
Embeddings: ``--embed-url`` / ``TOWN_EMBED_URL`` if given, else the built-in MiniLM encoder
(``TOWN_EMBED_VIA_LLM=1`` sends them to the chat server's ``/v1/embeddings`` instead).
"""

from __future__ import annotations

import os
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

from .api import LLMError
from .client import ModelClient
from .config import DEFAULT_MODEL_NAME, TEST_MODEL_NAME, LLMConfig, Paths
from .embed import CachedEmbedder, MiniLMEncoder, RemoteEmbedder
from .record import RecordingLLM, ReplayLLM
from .server import EmbeddedServer, Progress


def make_embedder(config: LLMConfig) -> Any:
    paths = Paths(config.home)
    if config.embed_url:
        inner: Any = RemoteEmbedder(config.embed_url, config.embed_model,
                                    api_key=config.embed_key(config.embed_url))
    elif config.llm_url and config.embed_via_llm:
        inner = RemoteEmbedder(config.llm_url, config.embed_model or config.model,
                               api_key=config.embed_key(config.llm_url))
    else:
        if not (paths.minilm / "model.safetensors").is_file():
            raise LLMError(f"the embedding model is not installed in '{paths.minilm}': run "
                           f"`town setup` (or pass --embed-url)")
        inner = MiniLMEncoder(paths.minilm)
    return CachedEmbedder(inner, path=paths.embed_cache)


def _threads_env(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if raw:
        if not raw.isdigit() or int(raw) < 1:
            raise LLMError(f"{name}='{raw}' must be a whole number of at least 1")
        return int(raw)
    return default


def default_threads() -> tuple[int, int]:
    """(generation threads, prompt threads) for the embedded server.

    Generation: ``TOWN_LLM_THREADS``, else all cores but one, since the game itself (ticks, screen,
    embeddings) needs a core.  Measured on a busy 2-core machine, llama.cpp generated 5.6 tokens/s
    with 2 threads and 24 with 1: its threads spin at a barrier after every small step, so
    oversubscribing the CPU costs far more than one thread less.  Prompt processing:
    ``TOWN_LLM_THREADS_BATCH``, else the same (0: llama.cpp's default, the generation threads);
    all cores for the prompt measured no better (31.9 against 37.8 tokens/s) on the busy machine."""
    cores = os.cpu_count() or 2
    return (_threads_env("TOWN_LLM_THREADS", max(1, cores - 1)),
            _threads_env("TOWN_LLM_THREADS_BATCH", 0))


def embedded_server(config: LLMConfig) -> EmbeddedServer:
    paths = Paths(config.home)
    model = paths.test_model if config.use_test_model else paths.default_model
    if not paths.server_bin.is_file():
        raise LLMError(f"no model server is installed ('{paths.server_bin}' is missing): run "
                       f"`town setup`, or pass --llm-url to use another OpenAI-compatible server")
    if not model.is_file():
        raise LLMError(f"the model '{model.name}' is not installed in '{paths.models}': run "
                       f"`town setup`, or pass --llm-url to use another server")
    threads, threads_batch = default_threads()
    return EmbeddedServer(
        paths.server_bin, model,
        parallel=config.slots or 4,
        threads=threads,
        threads_batch=threads_batch,
        # llama-server fills a batch from its slots in order: with small batches the player's
        # prompt (slot 0) waits for at most one short batch of the town's, not for all of their
        # prompts (a 390-token prompt beside three 700-token ones: 14 s with 128-token batches
        # instead of 62 s with the default 2048); 32 gave the player's first words soonest
        # (bench/play_latency.py medians 3.2/2.3 s; 128: 6.5/2.5 s; 16: 3.4/2.8 s, 2026-11-22)
        batch=32,
        alias=TEST_MODEL_NAME if config.use_test_model else DEFAULT_MODEL_NAME,
        # one log per game process (two games at once must not share one); kept only on failure
        log_path=paths.logs / f"llama-server-{os.getpid()}.log",
        keep_log=False,
    )


@asynccontextmanager
async def open_llm(config: LLMConfig, progress: Progress | None = None) -> AsyncIterator[Any]:
    """The game's ``LLM`` for this config; everything it started is stopped on exit."""
    if config.replay:
        async with ReplayLLM(config.replay) as replay:
            yield replay
        return
    server: EmbeddedServer | None = None
    embedder = make_embedder(config)
    client: ModelClient | None = None
    try:
        if config.llm_url:
            client = ModelClient.from_config(config, embedder=embedder)
        else:
            server = embedded_server(config)
            await server.start(progress)
            client = ModelClient.from_config(config, base_url=server.url, embedder=embedder)
            client.server = server  # type: ignore[attr-defined]
        await client.connect()
        if config.record:
            recorder = RecordingLLM(client, config.record)
            try:
                yield recorder
            finally:
                recorder._fh.close()
        else:
            yield client
    finally:
        if client is not None:
            await client.aclose()
        else:
            await embedder.aclose()
        if server is not None:
            server.stop()
