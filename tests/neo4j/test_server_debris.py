"""No JVM is ever left behind: the driver is checked before launching, a start that fails after the launch stops
the JVM, and ``stop`` finds a launcher of its run directory that no state file records (its pid file).

Before: ``leishen neo4j start`` without the driver launched the JVM, died with ModuleNotFoundError and left it
running with the store lock held; ``stop`` then said "not running". These tests fail on that code."""

from __future__ import annotations

import os
import sys
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
        assert server.status(run_dir)["running"] is False  # no state file: invisible to status
        assert server.stop(run_dir, grace=30) is True
        assert _launchers_in(run_dir) == []
        assert not (run_dir / "launcher.pid").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
