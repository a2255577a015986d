"""The work of one find spread over a range: an explicit object, judged in blocks by any executor.

A :class:`Work` holds everything a process needs to judge moments — where its reader comes from (:class:`Source`)
and what it tests (a task with ``judged(reader, moments) -> hits``: 擇時's :class:`leishen.judgments.choose.Choice`,
``--when``'s :class:`leishen.service.whenfind.WhenTask`); nothing is kept in module state, so two finds at once
(two HTTP threads, the MCP server) never see each other's request.

:func:`judged_blocks` cuts the range into blocks of consecutive hours (at each solar term's start — the Qimen
局 changes there — and every *size* moments, a cut moved off the second hour of a double hour) and judges them in
this process, or on :class:`concurrent.futures.Executor`s: :func:`process_pools` (``--jobs N``, forked from this
process so the workers share the reader already built, each judging its own run of consecutive blocks) or any
other, e.g. a Dask cluster's (``--scheduler``). The blocks' hits come
back in the range's order. A worker loads its reader once (:func:`worker_reader`: the disk-cached NetworkX reader,
or its own Neo4j driver)."""

from __future__ import annotations

import os
import signal
import threading
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from multiprocessing import get_context
from typing import Any, Iterator

from leishen.errors import FindError, LeishenError

HOUR = timedelta(hours=1)
#: moments a block holds at most: judged in this process (the deadline and the progress are read between blocks),
#: and sent to an executor's worker (cut further at each solar term)
LOCAL_BLOCK, BLOCK = 48, 96
#: the most processes ``--jobs`` starts: the cores this process may run on
MAX_JOBS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
WATCH = 0.5  # seconds between a worker's looks at whether the process that started it is still there


class WorkerError(LeishenError):
    """A worker process stopped before it sent back its block's hits (killed, or out of memory)."""

    field = "jobs"


@dataclass(frozen=True)
class Source:
    """Where a worker process gets its reader: a backend name and (Neo4j) its connection."""

    backend: str = "networkx"
    uri: str | None = None
    user: str | None = None
    password: str | None = None

    @classmethod
    def of(cls, reader) -> "Source":
        """The source of *reader*: its Neo4j server (user and password from the environment) or NetworkX."""
        backend = getattr(reader, "backend", None)
        if type(backend).__name__ == "Neo4jBackend":
            return cls("neo4j", backend.uri, backend.user)
        return cls()


@cache
def worker_reader(source: Source):
    """The reader of *source* in this process, made once (each worker opens its own Neo4j driver)."""
    from leishen.service.readings import reader_for
    return reader_for(source.backend, source.uri, source.user, source.password)


@dataclass(frozen=True)
class Work:
    """One find's work: the reader's *source* and the *task* that judges moments (picklable, no state)."""

    source: Source
    task: Any

    def __call__(self, moments: list[datetime]) -> list[dict]:
        """The hits among *moments*, judged in this process with the source's reader."""
        return self.task.judged(worker_reader(self.source), moments)


def check_jobs(jobs) -> int:
    """*jobs* if it is a whole number from 1 to :data:`MAX_JOBS`; FindError naming the limit otherwise."""
    if not isinstance(jobs, int) or isinstance(jobs, bool) or not 1 <= jobs <= MAX_JOBS:
        raise FindError(f"jobs: expected a whole number from 1 to {MAX_JOBS} (the cores of this machine), "
                        f"found {jobs!r}", "jobs")
    return jobs


def blocks(every: list[datetime], size: int) -> list[list[datetime]]:
    """The moments in runs of consecutive moments, cut where a solar term starts and every *size* moments; a cut
    that would part the two hours of a double hour (子 23:00–00:59, 丑 01:00–02:59 …, judged once when their
    charts agree) is moved one hour later."""
    from leishen.engine.calendar import terms_between
    if not every:
        return []
    cuts = set(range(size, len(every), size))
    k = 0
    for _, instant in terms_between(every[0], every[-1]):
        while k < len(every) and every[k] < instant:
            k += 1
        cuts.add(k)
    moved = sorted({k + 1 if every[k].hour % 2 == 0 and every[k] - every[k - 1] == HOUR else k
                    for k in cuts if 0 < k < len(every)} - {len(every)})
    return [every[a:b] for a, b in zip([0, *moved], [*moved, len(every)])]


def judged_blocks(work: Work, parts: list[list[datetime]], reader=None, executors: list[Executor] = ()
                  ) -> Iterator[tuple[datetime, int, list[dict]]]:
    """(last moment, how many moments, hits) of each block in order: judged here with *reader* (each when it is
    asked for, so a caller can stop between blocks) or all submitted at once and taken back in order — to one
    executor, or with several, the blocks split into as many runs of consecutive blocks, run *k* to executor *k*
    (a worker stays near the hours it has read: :func:`runs`). Stopping early cancels what has not started; a
    worker process that dies → :class:`WorkerError` naming it."""
    if not executors:
        for part in parts:
            yield part[-1], len(part), work.task.judged(reader, part)
        return
    futures = [executor.submit(work, part) for executor, run in zip(executors, runs(parts, len(executors)))
               for part in run]
    processes = {pid: p for executor in executors for pid, p in (getattr(executor, "_processes", None) or {}).items()}
    try:
        for part, future in zip(parts, futures):
            try:
                found = future.result()
            except BrokenProcessPool:
                raise WorkerError(f"jobs: {dead_workers(processes)} stopped before it sent its hits; the find is "
                                  f"abandoned at {part[0].isoformat()} (try again, with fewer --jobs if memory is "
                                  "short)") from None
            yield part[-1], len(part), found
    finally:
        for future in futures:
            future.cancel()


def runs(parts: list[list], count: int) -> list[list[list]]:
    """The blocks in *count* runs of consecutive blocks holding about as many moments each. Why runs: a reader
    keeps what it has read, and consecutive hours share most of it (the Qimen yang layouts in the half year from
    冬至, the yin ones after 夏至): each half of a year read alone costs half the year, the blocks dealt in turn
    cost each worker nearly the whole year's warming."""
    total, out, run, held = sum(map(len, parts)), [], [], 0
    for part in parts:
        if run and held + len(part) / 2 > total * (len(out) + 1) / count and len(out) < count - 1:
            out.append(run)
            run = []
        run.append(part)
        held += len(part)
    return [*out, run]


def dead_workers(processes: dict) -> str:
    """Which of the worker *processes* (pid → Process) ended first, as words: its pid and signal or exit code (each
    waited for a moment: the pool ends the others once one has died)."""
    for process in processes.values():
        process.join(WATCH)
    ended = [(pid, p.exitcode) for pid, p in processes.items() if p.exitcode not in (None, 0, -signal.SIGTERM)]
    return "worker process " + ", ".join(f"pid {pid} ({f'signal {-code}' if code < 0 else f'exit code {code}'})"
                                         for pid, code in ended) if ended else "a worker process"


def _worker_start(parent: int) -> None:
    """A pool worker's start: Ctrl-C is the parent's to handle (the worker prints nothing), and the worker ends
    itself when the process that started it is gone (killed: nothing would ever ask it for more)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(WATCH)
        os._exit(1)

    threading.Thread(target=watch, name="leishen-parent-watch", daemon=True).start()


@contextmanager
def process_pools(jobs: int) -> Iterator[list[ProcessPoolExecutor]]:
    """*jobs* pools of one worker process each, forked from this one (they share the reader already built, and
    open their own Neo4j driver); on leaving — at the end, on an error, on Ctrl-C — the workers are ended and
    waited for."""
    pools = [ProcessPoolExecutor(1, mp_context=get_context("fork"), initializer=_worker_start,
                                 initargs=(os.getpid(),)) for _ in range(check_jobs(jobs))]
    try:
        yield pools
    finally:
        for pool in pools:
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                process.terminate()
                process.join()


def spread(work: Work, every: list[datetime], reader=None, jobs: int = 1, executor: Executor | None = None
           ) -> Iterator[tuple[datetime, int, list[dict]]]:
    """:func:`judged_blocks` of *every* moment: in this process with *reader* (blocks of LOCAL_BLOCK), on
    *executor*, or on :func:`process_pools` of *jobs* processes (blocks of BLOCK, cut at the solar terms)."""
    if executor is None and check_jobs(jobs) == 1:
        yield from judged_blocks(work, blocks(every, LOCAL_BLOCK), reader)
        return
    if executor is not None:
        yield from judged_blocks(work, blocks(every, BLOCK), reader, [executor])
        return
    with process_pools(jobs) as pools:
        yield from judged_blocks(work, blocks(every, BLOCK), reader, pools)


@contextmanager
def dask_executor(address: str | None) -> Iterator[Executor | None]:
    """The executor of the Dask cluster whose scheduler is at *address* (None: no executor), closed on leaving;
    FindError naming ``scheduler`` when Dask is not installed or no scheduler answers."""
    if address is None:
        yield None
        return
    try:
        from distributed import Client
    except ImportError:
        raise FindError("scheduler: running on a Dask cluster needs the dask extra: pip install 'leishen[dask]'",
                        "scheduler") from None
    try:
        client = Client(address, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise FindError(f"scheduler: no Dask scheduler answers at {address!r} ({exc})", "scheduler") from None
    try:
        yield client.get_executor(pure=False)
    finally:
        client.close()
