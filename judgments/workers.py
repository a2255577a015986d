"""Forked workers for 擇時 (``--jobs``): the range's chunks are split into one run of consecutive chunks per
worker; each worker judges its own run from its first chunk on, then takes chunks from the end of the run with
the most left (the one slowest to finish), until none is left. Each chunk's hits are sent back as soon as they
are judged, and the caller takes them in the range's order (taking later chunks' hits as they come, so little
is left to take at the end).

Why runs, not chunks handed to whichever worker is free: a reader keeps what it has read (readings/cache.py),
and the charts of consecutive hours share most of it (a Qimen chart is one of 18 layouts × 60 hours, the
yang layouts in the half year from 冬至, the yin ones after 夏至). Measured on 2026's hours (出行): each half of
the year read alone in a fresh process costs what the whole year costs one process, half for half (2.5 + 2.6 s
CPU against 5.2 s); the chunks handed out in turn cost two workers 6.1 s (each warms up on every layout). Why a
worker that has finished takes from another's run: the halves do not cost the same (2.73 against 2.56 s for
two workers on 2026), and the range is done only when the slower one is; taking from the end of the run with
the most left keeps each worker near the hours it has read (the end of run *k* is next to the start of run
*k + 1*).

The workers are forked once, before any thread of this module runs, so they share the reader already built (and
its disk-cached tables) without loading anything; the parent only waits for hits."""

from __future__ import annotations

import queue as queues
from multiprocessing import get_context
from typing import Callable, Iterator

from leishen.errors import LeishenError

POLL = 1.0  # seconds between two looks at whether the workers that have sent nothing are still alive


class WorkerError(LeishenError):
    """A worker process stopped without sending its chunks' hits (killed, or out of memory)."""

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


def run_bounds(parts: list[list]) -> list[int]:
    """[first, end) chunk numbers of each run, flat: ``[first0, end0, first1, end1, …]``."""
    out, k = [], 0
    for run in parts:
        out += [k, k + len(run)]
        k += len(run)
    return out


def claim(bounds, number: int) -> int | None:
    """The chunk worker *number* judges next, taken out of *bounds* (:func:`run_bounds`): the first left of its
    own run, else the last left of the run with the most left, None when no chunk is left."""
    first, end = bounds[2 * number], bounds[2 * number + 1]
    if first < end:
        bounds[2 * number] = first + 1
        return first
    most = max(range(len(bounds) // 2), key=lambda k: bounds[2 * k + 1] - bounds[2 * k])
    first, end = bounds[2 * most], bounds[2 * most + 1]
    if first < end:
        bounds[2 * most + 1] = end - 1
        return end - 1
    return None


def _work(judge: Callable, number: int, chunks: list, bounds, sent) -> None:
    """Worker *number*: the chunks it claims (:func:`claim`, under *bounds*' lock) judged in turn,
    ``(chunk number, True, hits)`` put on *sent* for each, or ``(chunk number, False, the error)`` once if one
    fails."""
    k = None
    try:
        while True:
            with bounds.get_lock():
                k = claim(bounds, number)
            if k is None:
                return
            sent.put((k, True, judge(chunks[k])))
    except Exception as exc:  # noqa: BLE001 — handed to the parent, which raises it
        sent.put((k, False, exc))


def _next(sent, workers) -> tuple:
    """The next thing any worker sent; WorkerError when a worker has stopped with an error code, or every
    worker has ended, and nothing is left to take."""
    while True:
        try:
            return sent.get(timeout=POLL)
        except queues.Empty:
            codes = [w.exitcode for w in workers]
            if any(code not in (None, 0) for code in codes) or all(code is not None for code in codes):
                code = next((c for c in codes if c), 0)
                raise WorkerError(f"jobs: a worker process stopped (exit code {code}) before it sent its hits; try "
                                  "again with fewer --jobs") from None


def judged_in_order(judge: Callable, chunks: list, jobs: int) -> Iterator:
    """``judge(chunk)`` of each chunk, in order, computed by *jobs* forked worker processes that share the
    chunks as the module says. The workers send to one queue; what comes while an earlier chunk is awaited is
    taken (and unpickled) as it comes, and kept until its turn. A worker's error is raised here; stopping early
    ends the workers."""
    context = get_context("fork")
    parts = runs(chunks, jobs)
    bounds = context.Array("l", run_bounds(parts))
    sent = context.Queue()
    workers = [context.Process(target=_work, args=(judge, n, chunks, bounds, sent), daemon=True)
               for n in range(len(parts))]
    for worker in workers:
        worker.start()
    kept: dict = {}
    finished = False
    try:
        for k in range(len(chunks)):
            while k not in kept:
                number, ok, found = _next(sent, workers)
                if not ok:
                    raise found
                kept[number] = found
            yield kept.pop(k)
        finished = True
    finally:
        for worker in workers:
            if not finished:  # stopped early (a deadline, an error): the rest is not wanted
                worker.terminate()
            worker.join()
