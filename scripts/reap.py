"""Stop every process a test run left behind: the Neo4j JVM the suite started, a ``leishen serve`` or ``leishen mcp``
a test started in a session of its own, a pytest worker.

A run of ``scripts/test`` exports a token of its own, ``LEISHEN_TEST_RUN``, which every process it starts inherits;
this script finds them by that token in ``/proc/<pid>/environ`` (the processes of this user only).

    python3 scripts/reap.py --watch PID TOKEN   wait (in a session of its own) until PID is gone, then reap TOKEN:
                                                a kill of the whole process group of scripts/test, SIGKILL
                                                included, does not reach it, so the run's processes are stopped
    python3 scripts/reap.py --now TOKEN         reap TOKEN at once (scripts/test's last step, and its SIGTERM trap)

Reaping sends SIGTERM, waits up to GRACE seconds for the processes to end (the JVM stops its database cleanly),
then sends SIGKILL to what remains. It never signals itself or a process without the token.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

GRACE = 15.0
POLL = 0.25


def holders(token: str) -> list[int]:
    """The pids (not this one) whose environment holds ``LEISHEN_TEST_RUN=<token>``."""
    wanted = f"LEISHEN_TEST_RUN={token}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if wanted in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether *pid* runs (a zombie counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def reap(token: str) -> int:
    """SIGTERM every process of *token*, then SIGKILL what is left after GRACE seconds; how many there were."""
    pids = holders(token)
    for pid in pids:
        _signal(pid, signal.SIGTERM)
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(POLL)
    for pid in holders(token):
        _signal(pid, signal.SIGKILL)
    return len(pids)


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def watch(pid: int, token: str) -> None:
    """Wait until *pid* is gone, then reap *token*."""
    while alive(pid):
        time.sleep(POLL)
    reap(token)


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "--watch" and argv[1].isdigit():
        watch(int(argv[1]), argv[2])
        return 0
    if len(argv) == 2 and argv[0] == "--now":
        reap(argv[1])
        return 0
    print("usage: reap.py --watch PID TOKEN | --now TOKEN", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
