"""#40 item 7: ``bash scripts/test`` killed — SIGTERM to the script, or SIGKILL to its whole process group — leaves
no process behind: not the Neo4j JVM its tests started, not a pytest worker, not a ``leishen`` process.

Each case runs the real script on two Neo4j test files (so it starts a real server), waits until the JVM of that
run is up, kills the run and waits (bounded) until no process carrying the run's token is left. A run's token is
``LEISHEN_TEST_RUN=leishen-test-<pid of its bash>-…``, which every process of the run inherits."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUITE = ["tests/neo4j/test_readonly.py", "tests/neo4j/test_conformance.py"]

pytestmark = pytest.mark.neo4j  # in the neo4j xdist group (tests/conftest.py): one more JVM at most


def run_processes(bash_pid: int) -> dict[int, str]:
    """pid → command line of every process of the run of ``scripts/test`` whose bash is *bash_pid*."""
    prefix = f"LEISHEN_TEST_RUN=leishen-test-{bash_pid}-".encode()
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state != "Z" and any(item.startswith(prefix) for item in environ):
            found[int(entry.name)] = command
    return found


def start_suite() -> subprocess.Popen:
    """``bash scripts/test`` on SUITE, in a process group of its own, with the set-up steps skipped (not CI)."""
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "LEISHEN_TEST_RUN")}
    env.update(LEISHEN_NO_PIP="1", LEISHEN_NO_APT="1", LEISHEN_NO_CARGO="1")
    return subprocess.Popen(["bash", "scripts/test", "-q", "-p", "no:cacheprovider", "-n", "1", *SUITE], cwd=ROOT,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)


def wait_for(predicate, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = predicate()
        if found:
            return found
        time.sleep(0.25)
    raise AssertionError(f"{what} within {seconds:g} s")


@pytest.mark.parametrize("kill", ["sigterm-script", "sigkill-group"])
def test_a_killed_suite_leaves_no_process(kill):
    suite = start_suite()
    try:
        java = wait_for(lambda: [p for p, c in run_processes(suite.pid).items() if "Launcher" in c], 300,
                        "the run's Neo4j did not start")  # the server's JVM (neo4jserver/Launcher.java)
        time.sleep(2)  # its tests under way
        if kill == "sigterm-script":
            os.kill(suite.pid, signal.SIGTERM)
        else:
            os.killpg(suite.pid, signal.SIGKILL)
        wait_for(lambda: not run_processes(suite.pid), 90, f"processes were left after {kill}: "
                 f"{run_processes(suite.pid)}")
        assert not set(java) & set(run_processes(suite.pid))
    finally:
        left = run_processes(suite.pid)
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        suite.wait(timeout=60)


def test_the_neo4j_and_browser_tests_are_one_xdist_group_each():
    """scripts/test's --dist loadgroup sends each group to one worker (tests/conftest.py's scheduler)."""
    from tests.conftest import group_of

    assert group_of("tests/neo4j/test_load.py::test_reload") == "neo4j"
    assert group_of("tests/reliability/test_suite_kill.py::test_a_killed_suite_leaves_no_process[x]") == "neo4j"
    assert group_of("tests/browser/test_page.py::test_x") == "browser"
    assert group_of("tests/api/test_views.py::test_x") is None
    text = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    assert '-n "${LEISHEN_TEST_WORKERS:-auto}" --dist loadgroup' in text
