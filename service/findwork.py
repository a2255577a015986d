"""The work of one find (:class:`Work`: the reader's :class:`Source` and a task such as 擇時's Choice; picklable, no
module state) judged in blocks of consecutive hours here, or by ``--jobs N`` forked processes or a Dask cluster's
workers, worker *k* judging the *k*-th share of the range in a few runs (Qimen's layouts recur from 冬至 and 夏至)."""

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

BLOCK = 96  # moments a block holds at most (cut further at each solar term): the progress told at once
RUNS = 8  # runs a worker's share is sent in at most: a task each, its blocks' hits sent back together
#: the most processes ``--jobs`` starts: the cores this process may run on
MAX_JOBS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
WATCH = 0.5  # seconds between a worker's looks at whether the process that started it is still there


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

    def __call__(self, run: list[list[datetime]]) -> list[list[dict]]:
        """The hits of each block of *run*, judged in this process with the source's reader."""
        return [self.task.judged(worker_reader(self.source), part) for part in run]


def check_jobs(jobs) -> int:
    """*jobs* if it is a whole number from 1 to :data:`MAX_JOBS`; FindError naming the limit otherwise."""
    if not isinstance(jobs, int) or isinstance(jobs, bool) or not 1 <= jobs <= MAX_JOBS:
        raise FindError(f"jobs: expected a whole number from 1 to {MAX_JOBS} (the cores of this machine), "
                        f"found {jobs!r}", "jobs")
    return jobs


def blocks(every: list[datetime], size: int = BLOCK) -> list[list[datetime]]:
    """The moments in blocks, cut where a solar term starts and every *size* moments; a cut that would part the two
    hours of a double hour (子 23:00–00:59 …, judged once when their charts agree) is moved one hour later."""
    from leishen.engine.calendar import terms_between
    terms = (bisect.bisect_left(every, instant) for _, instant in terms_between(every[0], every[-1]))
    cuts = {*range(size, len(every), size), *terms}
    moved = sorted({k + 1 if every[k].hour % 2 == 0 and every[k] - every[k - 1] == timedelta(hours=1) else k
                    for k in cuts if 0 < k < len(every)} - {len(every)})
    return [every[a:b] for a, b in zip([0, *moved], [*moved, len(every)])]


def runs(parts: list[list[datetime]], n: int) -> list[tuple[int, list[list[datetime]]]]:
    """(worker *k*, run) in the range's order: the blocks in runs, each block in the one of *n* × :data:`RUNS` equal
    stretches of the range its middle moment falls in, run *m* the worker *m* // RUNS's (the *k*-th share's)."""
    dealt, held, total = {}, 0, sum(map(len, parts))
    for part in parts:
        dealt.setdefault((2 * held + len(part)) * n * RUNS // (2 * total), []).append(part)
        held += len(part)
    return [(m // RUNS, run) for m, run in dealt.items()]


def spread(work: Work, every: list[datetime], reader=None, jobs: int = 1, executor: Executor | None = None
           ) -> Iterator[tuple[datetime, int, list[dict]]]:
    """(last moment, how many moments, hits) of each of the :func:`blocks` of *every*, in order: judged here with
    *reader*, or :func:`runs` sent at once to :func:`workers` (a dead worker: FindError names it); on leaving, the
    runs not taken back are cancelled, then the pools made here shut down."""
    parts = blocks(every)
    if executor is None and check_jobs(jobs) == 1:
        yield from ((part[-1], len(part), work.task.judged(reader, part)) for part in parts)
        return
    with ExitStack() as leaving:
        executors, sent, known = workers(jobs, executor, leaving), [], {}
        with interrupts_held():
            for k, run in runs(parts, len(executors)):
                future = executors[k].submit(work, run)
                leaving.callback(future.cancel)
                sent.append((run, future))
                known.update(getattr(executors[k], "_processes", None) or {})  # (a broken pool may drop its own)
        for run, future in sent:
            try:
                found = future.result()
            except BrokenProcessPool:
                raise FindError(f"jobs: {dead_workers(known)} stopped before it sent its hits; the find is abandoned "
                                f"at {run[0][0].isoformat()} (try again, with fewer --jobs if memory is short)",
                                "jobs") from None
            yield from ((part[-1], len(part), hits) for part, hits in zip(run, found))


def dead_workers(processes: dict) -> str:
    """The worker *processes* (pid → process) that have stopped, as words: each pid and its signal or exit code."""
    for process in processes.values():
        process.join(WATCH)  # (a moment for it to be reaped)
    return ", ".join(f"worker process pid {pid} ({f'signal {-code}' if code < 0 else f'exit code {code}'})"
                     for pid, p in processes.items() if (code := p.exitcode)) or "a worker process"


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C held back in the main thread while worker processes are forked and given their work: a pool
    interrupted half-started cannot be shut down, and a worker, born with this thread's signal mask, has SIGINT
    blocked until :func:`_worker_start` ignores it. Outside the main thread nothing is held (the main thread takes
    the signal and Python runs its handler there)."""
    main = threading.current_thread() is threading.main_thread()  # Python runs its handlers there only
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT} if main else set())
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _worker_start(parent: int) -> None:
    """A pool worker's start: SIGINT, blocked since its birth, ignored then unblocked (Ctrl-C is the parent's to
    handle: the worker prints nothing), and the worker ends itself when the process that started it is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(WATCH)
        os._exit(1)
    threading.Thread(target=watch, name="leishen-parent-watch", daemon=True).start()


def workers(jobs: int, executor: Executor | None, stack: ExitStack) -> list[Executor]:
    """The executors runs go to: a Dask client's one pinned to each worker thread (elsewhere only if it is gone),
    another *executor* alone, else *jobs* one-process pools forked from this one, shut down when *stack* closes."""
    if executor is None:
        return [stack.enter_context(ProcessPoolExecutor(1, mp_context=get_context("fork"), initializer=_worker_start,
                                                        initargs=(os.getpid(),))) for _ in range(jobs)]
    client = getattr(executor, "_client", None)  # (distributed's ClientExecutor)
    pinned = [client.get_executor(workers=[worker], allow_other_workers=True, pure=False)
              for worker, threads in sorted(client.nthreads().items()) for _ in range(threads)] if client else []
    return pinned or [executor]


def dask_setup(worker) -> None:
    """A Dask worker started with ``--preload leishen.service.findwork`` loads the book (NetworkX) at its start."""
    worker_reader(Source())

