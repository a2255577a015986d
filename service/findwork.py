"""The work of one find spread over a range: an explicit, picklable object (:class:`Work`: the reader's
:class:`Source` and a task such as 擇時's Choice; no module state, so two finds at once never share a request),
judged in blocks of consecutive hours here, or by ``--jobs N`` forked processes or a Dask cluster's workers, worker
*k* reading the *k*-th share of the range in order (Qimen's yang layouts recur from 冬至, yin from 夏至)."""

from __future__ import annotations

import bisect
import os
import signal
import threading
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from multiprocessing import get_context
from typing import Any, Iterator

from leishen.errors import FindError

BLOCK = 96  # moments a block holds at most (cut further at each solar term): the hits sent back at once
#: the most processes ``--jobs`` starts: the cores this process may run on
MAX_JOBS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
WATCH = 0.5  # seconds between a worker's looks at whether the process that started it is still there


class WorkerError(FindError):
    """A worker process stopped before it sent back its block's hits (killed, or out of memory)."""


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
        return cls("neo4j", backend.uri, backend.user) if type(backend).__name__ == "Neo4jBackend" else cls()


@cache
def worker_reader(source: Source):
    """The reader of *source* in this process, made once (NetworkX from the disk cache; Neo4j its own driver)."""
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


def blocks(every: list[datetime], size: int = BLOCK) -> list[list[datetime]]:
    """The moments in runs of consecutive moments, cut where a solar term starts and every *size* moments; a cut
    that would part the two hours of a double hour (子 23:00–00:59, 丑 01:00–02:59 …, judged once when their
    charts agree) is moved one hour later."""
    from leishen.engine.calendar import terms_between
    if not every:
        return []
    terms = (bisect.bisect_left(every, instant) for _, instant in terms_between(every[0], every[-1]))
    cuts = {*range(size, len(every), size), *terms}
    moved = sorted({k + 1 if every[k].hour % 2 == 0 and every[k] - every[k - 1] == timedelta(hours=1) else k
                    for k in cuts if 0 < k < len(every)} - {len(every)})
    return [every[a:b] for a, b in zip([0, *moved], [*moved, len(every)])]


def spread(work: Work, every: list[datetime], reader=None, jobs: int = 1, executor: Executor | None = None
           ) -> Iterator[tuple[datetime, int, list[dict]]]:
    """(last moment, how many moments, hits) of each of the :func:`blocks` of *every* moment, in order: judged
    here with *reader* as asked for, or submitted at once, the *k*-th share of the moments to worker *k* of
    :func:`workers`; stopping early cancels the rest; a worker process that dies → :class:`WorkerError` naming it."""
    parts = blocks(every)
    if executor is None and check_jobs(jobs) == 1:
        yield from ((part[-1], len(part), work.task.judged(reader, part)) for part in parts)
        return
    with workers(jobs, executor) as executors:
        futures, held = [], 0
        try:
            with interrupts_held():
                for part in parts:  # (to the share its middle moment falls in)
                    futures.append(executors[(2 * held + len(part)) * len(executors) // (2 * len(every))]
                                   .submit(work, part))
                    held += len(part)
            for part, future in zip(parts, futures):
                try:
                    yield part[-1], len(part), future.result()
                except BrokenProcessPool:
                    raise WorkerError(f"jobs: {dead_workers(executors)} stopped before it sent its hits; the find "
                                      f"is abandoned at {part[0].isoformat()} (try again, with fewer --jobs if "
                                      "memory is short)", "jobs") from None
        finally:
            for future in futures:
                future.cancel()


def dead_workers(executors: list[Executor]) -> str:
    """The worker processes of *executors* that have stopped, as words: each pid and its signal or exit code."""
    processes = {pid: p for pool in executors for pid, p in (getattr(pool, "_processes", None) or {}).items()}
    for process in processes.values():
        process.join(WATCH)  # (a moment for it to be reaped)
    ended = {pid: p.exitcode for pid, p in processes.items() if p.exitcode}
    return ", ".join(f"worker process pid {pid} ({f'signal {-code}' if code < 0 else f'exit code {code}'})"
                     for pid, code in ended.items()) or "a worker process"


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C held back while the worker processes are forked and their work submitted: a SIGINT then waits until
    the pools are whole (a pool interrupted half-started cannot be shut down), and a worker is born with it blocked
    until :func:`_worker_start` ignores it (one interrupted in its start prints a traceback)."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _worker_start(parent: int) -> None:
    """A pool worker's start: Ctrl-C is the parent's to handle (the worker prints nothing; it is born with SIGINT
    blocked by :func:`interrupts_held`, ignored here, then unblocked), and the worker ends itself when the process
    that started it is gone (killed: nothing would ever ask it for more)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(WATCH)
        os._exit(1)
    threading.Thread(target=watch, name="leishen-parent-watch", daemon=True).start()


@contextmanager
def workers(jobs: int, executor: Executor | None = None) -> Iterator[list[Executor]]:
    """The executors runs of blocks go to: with *executor*, for a Dask client's one pinned to each thread of each
    worker (its blocks go elsewhere only if that worker is gone), any other alone; else *jobs* pools of one process
    each, forked from this one (sharing the reader already built), shut down on leaving."""
    if executor is not None:
        client = getattr(executor, "_client", None)  # (distributed's ClientExecutor)
        pinned = [client.get_executor(workers=[worker], allow_other_workers=True, pure=False)
                  for worker, threads in sorted(client.nthreads().items()) for _ in range(threads)] if client else []
        yield pinned or [executor]
        return
    with ExitStack() as stack:
        yield [stack.enter_context(ProcessPoolExecutor(1, mp_context=get_context("fork"), initializer=_worker_start,
                                                       initargs=(os.getpid(),))) for _ in range(check_jobs(jobs))]


def dask_setup(worker) -> None:
    """A Dask worker started with ``--preload leishen.service.findwork`` loads the book (NetworkX) at its start."""
    worker_reader(Source())


@contextmanager
def dask_executor(address: str | None) -> Iterator[Executor | None]:
    """The executor of the Dask cluster whose scheduler is at *address* (None: no executor), closed on leaving;
    FindError naming ``scheduler`` when Dask is not installed or no scheduler answers."""
    if address is None:
        yield None
        return
    try:
        from distributed import Client
        client = Client(address, timeout="10s", set_as_default=False)
    except ImportError:
        raise FindError("scheduler: Dask is not installed: pip install 'leishen[dask]'", "scheduler") from None
    except (OSError, TimeoutError, ValueError) as exc:
        raise FindError(f"scheduler: no Dask scheduler answers at {address!r} ({exc})", "scheduler") from None
    with client:
        yield client.get_executor(pure=False)
