"""Forked workers for 擇時 (``--jobs``): the range's chunks are split into one run of consecutive chunks per
worker, each worker judges its run in order and sends each chunk's hits back as soon as it is judged, and the
caller takes them in the range's order (taking a later run's hits as they come, so little is left to take at
the end).

Why runs, not chunks handed to whichever worker is free: a reader keeps what it has read (readings/cache.py),
and the charts of consecutive hours share most of it (a Qimen chart is one of 18 layouts × 60 hours, the
yang layouts in the half year from 冬至, the yin ones after 夏至). Measured on 2026's hours (出行): each half of
the year read alone in a fresh process costs what the whole year costs one process, half for half (2.5 + 2.6 s
CPU against 5.2 s); the chunks handed out in turn cost two workers 6.1 s (each warms up on every layout).

The workers are forked once, before any thread of this module runs, so they share the reader already built (and
its disk-cached tables) without loading anything; the parent only waits for hits."""

from __future__ import annotations

import queue as queues
from collections import deque
from multiprocessing import get_context
from typing import Callable, Iterator

from leishen.errors import LeishenError

POLL = 1.0  # seconds between two looks at whether a worker that has sent nothing is still alive


class WorkerError(LeishenError):
    """A worker process stopped without sending its chunk's hits (killed, or out of memory)."""

    field = "jobs"


def runs(chunks: list, jobs: int) -> list[list]:
    """The chunks split into at most *jobs* runs of consecutive chunks, as even in length as they can be."""
    size, extra = divmod(len(chunks), jobs)
    out, k = [], 0
    for n in range(jobs):
        take = size + (1 if n < extra else 0)
        if take:
            out.append(chunks[k:k + take])
        k += take
    return out


def _work(judge: Callable, number: int, run: list, sent) -> None:
    """Worker *number*: each chunk of its run judged in turn, ``(number, True, hits)`` put on *sent* for each, or
    ``(number, False, the error)`` once if one fails."""
    try:
        for chunk in run:
            sent.put((number, True, judge(chunk)))
    except Exception as exc:  # noqa: BLE001 — handed to the parent, which raises it
        sent.put((number, False, exc))


def _next(sent, worker) -> tuple:
    """The next thing any worker sent; WorkerError when *worker* (the one whose hits are awaited) has stopped
    and nothing is left to take."""
    while True:
        try:
            return sent.get(timeout=POLL)
        except queues.Empty:
            if not worker.is_alive():
                raise WorkerError(f"jobs: a worker process stopped (exit code {worker.exitcode}) before it sent "
                                  "its hits; try again with fewer --jobs") from None


def judged_in_order(judge: Callable, chunks: list, jobs: int) -> Iterator:
    """``judge(chunk)`` of each chunk, in order, computed by *jobs* forked worker processes, one per run of
    consecutive chunks (:func:`runs`). The workers send to one queue; what a later run sends while an earlier
    one is awaited is taken (and unpickled) as it comes, and kept until its turn. A worker's error is raised
    here; stopping early ends the workers."""
    context = get_context("fork")
    parts = runs(chunks, jobs)
    sent = context.Queue()
    workers = [context.Process(target=_work, args=(judge, n, run, sent), daemon=True) for n, run in enumerate(parts)]
    for worker in workers:
        worker.start()
    kept: list[deque] = [deque() for _ in parts]
    finished = False
    try:
        for n, run in enumerate(parts):
            for _ in run:
                while not kept[n]:
                    number, ok, found = _next(sent, workers[n])
                    if not ok:
                        raise found
                    kept[number].append(found)
                yield kept[n].popleft()
        finished = True
    finally:
        for worker in workers:
            if not finished:  # stopped early (a deadline, an error): the rest is not wanted
                worker.terminate()
            worker.join()
