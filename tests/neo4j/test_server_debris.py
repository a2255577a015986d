"""No JVM is ever left behind: the driver is checked before launching, a start that fails after the launch stops
the JVM, and ``status`` and ``stop`` find a launcher of its run directory that no state file records (its pid
file), e.g. after ``kill -9`` of ``leishen neo4j start``.

Before: ``leishen neo4j start`` without the driver launched the JVM, died with ModuleNotFoundError and left it
running with the store lock held; ``stop`` then said "not running". These tests fail on that code."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from leishen.neo4jserver import server


def _launchers_in(run_dir: Path) -> list[int]:
    """Live launcher processes whose working directory is ``run_dir``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and server._is_launcher(int(entry.name)):
            try:
                if Path(os.readlink(entry / "cwd")).resolve() == run_dir.resolve():
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def test_start_without_the_driver_launches_nothing(tmp_path, monkeypatch):
    from leishen.cli.main import main

    monkeypatch.setitem(sys.modules, "neo4j", None)  # import neo4j raises ImportError
    run_dir = tmp_path / "run"
    result = CliRunner().invoke(main, ["neo4j", "start"], env={"LEISHEN_NEO4J_RUN": str(run_dir)})
    assert result.exit_code == 2
    assert result.stderr.startswith("error: the Neo4j driver is not installed") and result.stderr.count("\n") == 1
    assert not run_dir.exists() or not any(run_dir.iterdir())
    assert not run_dir.exists() or _launchers_in(run_dir) == []


@pytest.mark.neo4j
def test_a_start_that_fails_after_the_launch_stops_the_jvm(tmp_path):
    pytest.importorskip("neo4j")
    run_dir = tmp_path / "run"
    with pytest.raises(server.BackendUnavailable, match="did not answer"):
        server.start(run_dir=run_dir, timeout=0.5)
    assert _launchers_in(run_dir) == []
    assert not (run_dir / "launcher.pid").exists() and server.read_state(run_dir) is None


@pytest.mark.neo4j
def test_stop_finds_an_orphan_of_its_run_directory(tmp_path):
    run_dir = (tmp_path / "run").resolve()
    run_dir.mkdir()
    lib = server.fetch_jars()
    proc = server._launch(lib, run_dir, run_dir / "data", 0, False, None, run_dir / "neo4j.log")
    server._children[proc.pid] = proc
    (run_dir / "launcher.pid").write_text(f"{proc.pid}\n")  # what start writes before the JVM answers
    try:
        state = server.status(run_dir)  # no state file, but the pid file names a live launcher
        assert state["running"] is True and state["unrecorded"] is True and state["pid"] == proc.pid
        assert server.stop(run_dir, grace=30) is True
        assert _launchers_in(run_dir) == []
        assert not (run_dir / "launcher.pid").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def _cli(run_dir: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "LEISHEN_NEO4J_RUN": str(run_dir)}
    return subprocess.run([sys.executable, "-m", "leishen.cli.main", "neo4j", *args], env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.neo4j
def test_status_after_kill_9_of_start_names_the_running_jvm(tmp_path):
    """Before: after ``kill -9`` of ``leishen neo4j start`` (while it waited for Bolt), ``neo4j status`` said
    "not running" while the detached JVM ran on."""
    pytest.importorskip("neo4j")
    server.fetch_jars()
    run_dir = (tmp_path / "run").resolve()
    env = {**os.environ, "LEISHEN_NEO4J_RUN": str(run_dir)}
    start = subprocess.Popen([sys.executable, "-m", "leishen.cli.main", "neo4j", "start"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):  # until the JVM is launched (its pid file written), at most a minute
            if server._launched_pid(run_dir) is not None or start.poll() is not None:
                break
            time.sleep(0.1)
        assert start.poll() is None, "start ended before the test could kill it"
        os.kill(start.pid, signal.SIGKILL)
        start.wait(30)
        jvm = server._launched_pid(run_dir)
        assert jvm is not None and _launchers_in(run_dir) == [jvm]  # the JVM runs on
        said = _cli(run_dir, "status")
        assert said.stdout.startswith(f"running without a record: pid {jvm}"), said.stdout
        assert "not running" not in said.stdout and said.stdout.count("\n") == 1
        state = json.loads(_cli(run_dir, "status", "--json").stdout)
        assert state["running"] is True and state["pid"] == jvm and state["data"] == str(run_dir / "data")
        assert {f.name for f in dataclasses.fields(server.ServerState)} <= set(state)  # a recorded server's keys
        for _ in range(1800):  # until it answers (at most three minutes): status then gives its URI, exit 0
            state = server.status(run_dir)
            if state["answering"]:
                break
            time.sleep(0.1)
        said = _cli(run_dir, "status")
        assert said.returncode == 0 and f"answers on {state['uri']}" in said.stdout, said.stdout
        assert _cli(run_dir, "stop").stdout.strip() == "stopped"
        assert _launchers_in(run_dir) == [] and server.status(run_dir)["running"] is False
    finally:
        if start.poll() is None:
            start.kill()
            start.wait(30)
        for pid in _launchers_in(run_dir):
            os.kill(pid, signal.SIGKILL)
