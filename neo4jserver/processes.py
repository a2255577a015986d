"""The processes of a local Neo4j server: which pid is our launcher, what it was started with, stopping it.

A launcher is a live (not zombie) process whose command line runs ``Launcher.java``; one of a run directory
also has that directory as its working directory, and its pid is in the directory's ``launcher.pid``
(written as soon as the JVM is launched, before it answers). :mod:`leishen.neo4jserver.server` uses these
to start, inspect and stop servers.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

_children: dict[int, subprocess.Popen] = {}  # servers started by this process, to reap them on stop


def _pid_file(run_dir: Path) -> Path:
    """Written as soon as the JVM is launched, before it answers: how ``stop`` finds a server whose start failed."""
    return run_dir / "launcher.pid"


def _launched_pid(run_dir: Path) -> int | None:
    """The pid in the pid file when it is a live launcher whose working directory is ``run_dir``."""
    try:
        pid = int(_pid_file(run_dir).read_text().strip())
        cwd = Path(os.readlink(f"/proc/{pid}/cwd"))
    except (OSError, ValueError):
        return None
    return pid if _is_launcher(pid) and cwd.resolve() == Path(run_dir).resolve() else None


def _is_launcher(pid: int) -> bool:
    """True when ``pid`` is alive (not a zombie) and runs our Launcher.java (guards against pid reuse)."""
    child = _children.get(pid)
    if child is not None and child.poll() is not None:
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        if stat.rsplit(")", 1)[1].split()[0] == "Z":
            return False
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except (OSError, IndexError):
        return False
    return "Launcher.java" in cmdline


def _port_answers(port: int, timeout: float = 1.0) -> bool:
    """True when something accepts TCP connections on 127.0.0.1:port."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout):
            return True
    except OSError:
        return False


def _launcher_arguments(pid: int) -> dict[str, str | None]:
    """The launcher's own options (``--port``, ``--data``, ``--auth``) from its command line."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return {}
    options = argv[next((i for i, a in enumerate(argv) if a.endswith("Launcher.java")), len(argv)) + 1:]
    found: dict[str, str | None] = {}
    for index, item in enumerate(options):
        if item.startswith("--"):
            following = options[index + 1] if index + 1 < len(options) else None
            found[item] = following if following is not None and not following.startswith("--") else None
    return found


def _terminate(pid: int, grace: float, first_signal: int = signal.SIGTERM) -> None:
    """SIGTERM (clean shutdown through the launcher's hook), then SIGKILL after ``grace`` seconds."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, first_signal)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and _is_launcher(pid):
        time.sleep(0.2)
    if _is_launcher(pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    child = _children.pop(pid, None)
    if child is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=10)
