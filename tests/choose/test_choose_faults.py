"""``leishen find --jobs 2`` under faults, as a user meets them: a worker killed (a one-line error naming it, exit 2),
the parent killed (its workers end by themselves), Ctrl-C (no traceback, no process left), --jobs past the cores
(refused naming the limit). Each waits at most 10 s for what must happen (a hang fails the test)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from leishen.service.findwork import MAX_JOBS

FIND = [sys.executable, "-m", "leishen.cli.main", "find", "--topic", "出行", "--verdict", "吉",
        "--from", "2026-01-01T00:00+08:00", "--to", "2026-12-31T23:00+08:00", "--jobs", "2"]
GUARD = 10.0  # seconds a fault may take to be answered: past it the test fails as a hang


def children(pid: int) -> list[int]:
    """The child processes of *pid* (Linux /proc)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        found += [int(c) for c in task.read_text().split()]
    return found


def alive(pid: int) -> bool:
    """Whether *pid* runs (a zombie waiting to be reaped does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def until(check, what: str):
    """Poll *check* until it gives a true value (returned); fail naming *what* past GUARD seconds."""
    end = time.monotonic() + GUARD
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"no {what} within {GUARD:g} s")


def _as_from_a_terminal() -> None:
    """In the child before exec: Ctrl-C handled as a terminal's shell leaves it. A pytest-xdist worker ignores
    SIGINT, and an ignored signal stays ignored across exec, so a find started from it would never see Ctrl-C."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def running():
    """A ``find --jobs 2`` over a year in a session of its own, with its two workers started:
    (the process, the workers' pids). Whatever is left is killed at the end."""
    process = subprocess.Popen(FIND, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, preexec_fn=_as_from_a_terminal)
    try:
        workers = until(lambda: (lambda found: found if len(found) == 2 else None)(children(process.pid)),
                        "two worker processes")
        yield process, workers
    finally:
        for pid in [process.pid, *children(process.pid)]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        process.communicate()


def test_a_killed_worker_is_named_in_one_line_and_nothing_is_left(running):
    process, workers = running
    os.kill(workers[0], signal.SIGKILL)
    try:
        _, err = process.communicate(timeout=GUARD)
    except subprocess.TimeoutExpired:
        pytest.fail(f"find still running {GUARD:g} s after a worker was killed")
    assert process.returncode == 2
    assert f"error: jobs: worker process pid {workers[0]} (signal 9) stopped before it sent its hits; the find is abandoned at" in err, err
    assert "Traceback" not in err
    until(lambda: not any(alive(pid) for pid in workers), "end of the other worker")


def test_the_parent_killed_leaves_no_worker(running):
    process, workers = running
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=GUARD)
    until(lambda: not any(alive(pid) for pid in workers), "end of the orphaned workers")


def test_ctrl_c_ends_every_process_without_a_traceback(running):
    process, workers = running
    os.killpg(process.pid, signal.SIGINT)  # as a terminal sends it: to the parent and its workers
    try:
        _, err = process.communicate(timeout=GUARD)
    except subprocess.TimeoutExpired:
        pytest.fail(f"find still running {GUARD:g} s after Ctrl-C")
    assert process.returncode != 0
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    until(lambda: not any(alive(pid) for pid in workers), "end of the workers")


def test_jobs_past_the_cores_are_refused_naming_the_limit():
    done = subprocess.run([*FIND[:-1], str(MAX_JOBS + 1)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert f"jobs: expected a whole number from 1 to {MAX_JOBS} (the cores of this machine)" in done.stderr
    assert "Traceback" not in done.stderr
