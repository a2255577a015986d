"""leishen.neo4jserver.server without a JVM: argument checks, missing tools, the ready-wait's failure paths."""

from __future__ import annotations

import subprocess
import sys

import pytest
from leishen.neo4jserver import server

from leishen.errors import BackendError, BackendUnavailable


def test_the_pinned_version_is_a_5_26_patch():
    assert server.neo4j_version().startswith("5.26.")


def test_jars_and_runs_live_outside_the_package(tmp_path, monkeypatch):
    monkeypatch.setenv("LEISHEN_NEO4J_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("LEISHEN_NEO4J_RUN", raising=False)
    assert server.lib_dir() == tmp_path / "home" / f"lib-{server.neo4j_version()}"
    assert server.default_run_dir() == tmp_path / "home" / "server"
    monkeypatch.setenv("LEISHEN_NEO4J_RUN", str(tmp_path / "run"))
    assert server.default_run_dir() == tmp_path / "run"


def test_auth_needs_a_real_password(tmp_path):
    with pytest.raises(BackendError, match="at least 8 characters"):
        server.start(auth=True, password="short", run_dir=tmp_path)


def test_a_port_out_of_range_is_refused(tmp_path):
    with pytest.raises(BackendError, match="not a TCP port"):
        server.start(port=70000, run_dir=tmp_path)


def test_missing_maven_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(server.shutil, "which", lambda name: None)
    with pytest.raises(BackendUnavailable, match=r"Maven \(mvn\) is not installed"):
        server.fetch_jars(tmp_path)


def test_missing_java_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(server.shutil, "which", lambda name: None)
    monkeypatch.delenv("JAVA_HOME", raising=False)
    with pytest.raises(BackendUnavailable, match="Java is not installed"):
        server.java_executable()


def test_status_and_stop_without_a_server(tmp_path):
    assert server.status(tmp_path) == {"running": False, "answering": False, "run_dir": str(tmp_path)}
    assert server.stop(tmp_path) is False


def test_a_stale_state_file_is_not_running(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    state = server.ServerState(pid=dead.pid, port=1, uri="bolt://127.0.0.1:1", data=str(tmp_path), log="x",
                               auth=False, started_at=0.0)
    server._write_state(tmp_path, state)
    assert server.status(tmp_path)["running"] is False
    assert server.stop(tmp_path) is False
    assert server.read_state(tmp_path) is None


def test_the_ready_wait_reports_a_launcher_that_exits(tmp_path):
    log = tmp_path / "neo4j.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-c", "print('boom: no database'); raise SystemExit(3)"],
                                stdout=out, stderr=subprocess.STDOUT)
    with pytest.raises(BackendUnavailable, match=r"exited during start \(exit 3\).*boom: no database"):
        server._wait_ready(proc, log, None, timeout=30)


def test_the_ready_wait_times_out_and_kills_a_silent_launcher(tmp_path):
    log = tmp_path / "neo4j.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-c", "import time; print('starting', flush=True); time.sleep(60)"],
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        with pytest.raises(BackendUnavailable, match="did not answer on Bolt within 2 s"):
            server._wait_ready(proc, log, None, timeout=2)
        assert proc.wait(timeout=15) is not None
    finally:
        if proc.poll() is None:
            proc.kill()
