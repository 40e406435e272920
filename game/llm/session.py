"""``open_llm``: the one way the game opens its model layer.

    async with open_llm(config, progress=print) as llm:
        answer = await llm.complete(...)

- ``--replay FILE``: a ``ReplayLLM``; no model at all.
- ``--llm-url`` / ``TOWN_LLM_URL``: a ``ModelClient`` for that server.
- neither: starts the embedded llama-server with the installed model (``town setup``), or raises
  ``LLMError`` saying how to get one.
- ``--record FILE`` wraps the client in a ``RecordingLLM``.
- a ``ServerSupervisor`` (supervisor.py) watches the server: the embedded one is restarted when it
  stops, a remote one looked for again; what happens is said through ``server_news`` (``progress``
  unless given).
Embeddings: ``--embed-url`` / ``TOWN_EMBED_URL`` if given, else the built-in MiniLM encoder
(``TOWN_EMBED_VIA_LLM=1`` sends them to the chat server's ``/v1/embeddings`` instead).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

from .api import Embedder, LLMError
from .client import ModelClient
from .config import DEFAULT_MODEL_NAME, TEST_MODEL_NAME, LLMConfig, Paths
from .embed import CachedEmbedder, RemoteEmbedder
from .minilm import MiniLMEncoder
from .record import RecordingLLM, ReplayLLM
from .server import EmbeddedServer, Progress
from .supervisor import ServerSupervisor


def make_embedder(config: LLMConfig) -> CachedEmbedder:
    paths = Paths(config.home)
    if config.embed_url:
        inner: Embedder = RemoteEmbedder(config.embed_url, config.embed_model,
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


def embedded_server(config: LLMConfig) -> EmbeddedServer:
    paths = Paths(config.home)
    model = paths.test_model if config.use_test_model else paths.default_model
    if not paths.server_bin.is_file():
        raise LLMError(f"no model server is installed ('{paths.server_bin}' is missing): run "
                       f"`town setup`, or pass --llm-url to use another OpenAI-compatible server")
    if not model.is_file():
        raise LLMError(f"the model '{model.name}' is not installed in '{paths.models}': run "
                       f"`town setup`, or pass --llm-url to use another server")
    flags = config.server  # threads, batches, slots, prompt cache: game.llm.config.ServerFlags
    if config.slots and config.slots != flags.slots:
        flags = replace(flags, slots=config.slots)
    return EmbeddedServer.with_flags(
        paths.server_bin, model, flags,
        alias=TEST_MODEL_NAME if config.use_test_model else DEFAULT_MODEL_NAME,
        # one log per game process (two games at once must not share one); kept only on failure
        log_path=paths.logs / f"llama-server-{os.getpid()}.log",
        keep_log=False,
    )


@asynccontextmanager
async def open_llm(config: LLMConfig, progress: Progress | None = None, *,
                   server_news: Progress | None = None
                   ) -> AsyncIterator[ModelClient | RecordingLLM | ReplayLLM]:
    """The game's ``LLM`` for this config; everything it started is stopped on exit.  What befalls
    the server later (lost, restarted, away) is said through ``server_news`` (else ``progress``)."""
    if config.replay:
        async with ReplayLLM(config.replay) as replay:
            yield replay
        return
    server: EmbeddedServer | None = None
    embedder = make_embedder(config)
    client: ModelClient | None = None
    supervisor: ServerSupervisor | None = None
    news = server_news or progress
    try:
        if config.llm_url:
            client = ModelClient.from_config(config, embedder=embedder)
            supervisor = ServerSupervisor(client.base_url, say=news)
        else:
            server = embedded_server(config)
            await server.start(progress)
            client = ModelClient.from_config(config, base_url=server.url, embedder=embedder)
            client.server = server
            supervisor = ServerSupervisor(server.url, server=server, say=news)
        client.supervise(supervisor)
        await client.connect()
        supervisor.start()
        if config.record:
            recorder = RecordingLLM(client, config.record)
            try:
                yield recorder
            finally:
                recorder.close_file()
        else:
            yield client
    finally:
        # What must happen happens first, with no await: a session ended by cancelling its task (the
        # app quitting) may be cancelled again at any await below, and the server must not outlive it.
        if supervisor is not None:  # (before the server is stopped: that stop is no crash)
            supervisor.close()
        if server is not None:
            server.stop()
        try:
            if supervisor is not None:
                await supervisor.aclose()
        finally:
            if client is not None:
                await client.aclose()
            else:
                await embedder.aclose()
