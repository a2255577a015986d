"""Computing requests answered in warmed worker processes, off the server's interpreter lock.

A reading of every topic is ~1 MB of JSON: encoding it (pydantic, then ``json.dumps``) holds the interpreter lock
for ~50 ms in one piece, and gzip takes as long again, on the event loop's thread. Run in the server's own
threads, a few of them in flight kept /health (and every other route) waiting behind them: 150–220 ms p95 under 100
clients. :class:`ComputePool` answers each computing request (:data:`leishen.api.deps.COMPUTING`, admitted by
:class:`leishen.api.deps.InFlightLimit`) in one of a few worker processes instead: each worker holds the same app
(:func:`leishen.api.app.create_app` with the server's settings, its backend opened and its reader warmed through
the readings door) and answers the request whole — validation, the reading, errors, JSON, gzip — handing back the
status, the headers and the bytes. The server's event loop only relays them, so /health answers in a few ms
whatever the workers are doing.

The pool belongs to its app (one per app, made by ``create_app`` and started and stopped by its lifespan); a
worker's app is made once per worker process (:func:`worker_of`, memoised on the settings as
:func:`leishen.service.findwork.worker_reader` is). A worker that dies (killed, out of memory) breaks the whole
pool: every request it held, computing or waiting, is answered 503 saying so (naming no worker), and the pool is
replaced by a fresh one.
"""

from __future__ import annotations

import asyncio
import json
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from functools import cache
from multiprocessing import get_context

#: the request scope keys a worker is given (the rest — the app, the server's state, extensions — is the server's)
SCOPE_KEYS = ("type", "asgi", "http_version", "method", "scheme", "path", "raw_path", "query_string", "root_path",
              "headers", "client", "server")
WARM_TIMEOUT = 600  # seconds: the most a worker may take to build its graph and warm its reader at start
RETRY_AFTER = 1
#: how much lower a worker's scheduling priority is than the server's (``nice``): on cores shared with the workers
#: (and a load generator, and Neo4j), the event loop answering /health is run first
WORKER_NICE = 5


class ComputePool:
    """*processes* worker processes answering the computing requests of one app with *settings*."""

    def __init__(self, settings, processes: int):
        self.settings = replace(settings, compute_processes=0)  # a worker computes in its own process
        self.processes = processes
        self.executor: ProcessPoolExecutor | None = None

    def start(self) -> list:
        """Start the workers, each building its app (graph, corpus, reader warmed): the futures of their pids."""
        self.executor = self._new_executor()
        return [self.executor.submit(warm_worker, self.settings) for _ in range(self.processes)]

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.processes, mp_context=get_context("spawn"), initializer=start_worker,
                                   initargs=(os.getpid(),))

    def close(self) -> None:
        """Stop the workers (whatever they are doing) and wait for them to end."""
        executor, self.executor = self.executor, None
        if executor is not None:
            stop(executor)

    async def __call__(self, scope, receive, send) -> None:
        """Answer one HTTP request in a worker: its body read here (at most the app's ``max_body`` + 1 bytes, so
        the worker's app refuses a bigger one with its own 413), the answer relayed as the worker made it."""
        body = await _read_body(receive, self.settings.max_body + 1)
        if body is None:  # the client went away before it finished sending
            return
        request = {key: scope[key] for key in SCOPE_KEYS if key in scope}
        executor = self.executor
        try:
            status, headers, content = await asyncio.get_running_loop().run_in_executor(
                executor, answer_in_worker, self.settings, request, body)
        except BrokenProcessPool:
            if self.executor is executor:  # (the first request to find it broken replaces it)
                self.start()
                await asyncio.to_thread(stop, executor)
            status, headers, content = unavailable()
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})


def stop(executor: ProcessPoolExecutor) -> None:
    """Stop *executor*'s workers (whatever they are doing), wait for them to end, then for the executor's own
    thread (which closes its queues: nothing is left for multiprocessing's resource tracker)."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()
    executor.shutdown(wait=True, cancel_futures=True)


def unavailable() -> tuple[int, list, bytes]:
    """The 503 of a request the pool held when one of its worker processes ended. A process pool breaks whole
    when one worker dies, failing every request it holds, so the message names no worker: not this request's
    own, which may still be alive."""
    message = (f"a worker process of the compute pool ended (killed, or out of memory) while this request was in "
               f"the pool, which fails every request it holds; the pool was replaced: try again in {RETRY_AFTER} s")
    body = json.dumps({"error": message, "status": 503, "type": "WorkerError", "field": None,
                       "matches": []}).encode()
    return 503, [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                 (b"retry-after", str(RETRY_AFTER).encode())], body


async def _read_body(receive, most: int) -> bytes | None:
    """The request's body, cut at *most* bytes; None when the client disconnected first."""
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        chunks.append(chunk[:max(0, most - size)])
        size += len(chunk)
        if not message.get("more_body") or size >= most:
            return b"".join(chunks)


class Worker:
    """A worker process's app (its backend open, its reader warmed) and the event loop it answers on."""

    def __init__(self, settings):
        from leishen.api.app import create_app, open_state

        self.app = create_app(settings)
        open_state(self.app, settings)
        self.loop = asyncio.new_event_loop()

    def answer(self, request: dict, body: bytes) -> tuple[int, list, bytes]:
        """``(status, headers, body)`` of the app's answer to *request* with *body*."""
        return self.loop.run_until_complete(self._call({**request, "state": {}}, body))

    async def _call(self, scope: dict, body: bytes) -> tuple[int, list, bytes]:
        given = asyncio.Event()
        start: dict = {}
        parts: list[bytes] = []

        async def receive():
            if not given.is_set():
                given.set()
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.Future()  # no disconnect to tell: the server holds the connection

        async def send(message):
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                parts.append(message.get("body", b""))

        await self.app(scope, receive, send)
        return start["status"], list(start.get("headers", [])), b"".join(parts)


def start_worker(parent: int) -> None:
    """A worker's start: Ctrl-C is the server's, the worker ends when the server is gone
    (:func:`leishen.service.findwork._worker_start`), and it runs WORKER_NICE steps below the server, so that the
    server's event loop gets a core first when a request comes in."""
    from leishen.service.findwork import _worker_start
    _worker_start(parent)
    os.nice(WORKER_NICE)


@cache
def worker_of(settings) -> Worker:
    """This process's worker for *settings*, made once."""
    return Worker(settings)


def warm_worker(settings) -> int:
    """Make this process's worker (the graph built, the reader warmed); its pid."""
    worker_of(settings)
    return os.getpid()


def answer_in_worker(settings, request: dict, body: bytes) -> tuple[int, list, bytes]:
    """What the app of *settings* answers to *request* (an HTTP scope's plain keys) with *body*."""
    return worker_of(settings).answer(request, body)
