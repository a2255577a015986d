"""``leishen serve`` on 127.0.0.1 with two workers: both answer alike, and a SIGTERM ends every process."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, json.loads(response.read())


def wait_until_up(url: str, process: subprocess.Popen, attempts: int = 600) -> None:
    for _ in range(attempts):
        if process.poll() is not None:
            raise AssertionError(f"leishen serve exited early with {process.returncode}")
        try:
            get(url)
            return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    raise AssertionError("leishen serve did not come up")


def test_two_workers_answer_alike_and_stop_cleanly():
    port = free_port()
    command = [sys.executable, "-m", "leishen.cli.main", "serve", "--port", str(port), "--workers", "2"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_up(base + "/health", process)
        answers = {json.dumps(get(base + "/symbols/" + urllib.parse.quote("子"))[1], sort_keys=True) for _ in range(8)}
        assert len(answers) == 1
        status, health = get(base + "/health")
        assert status == 200 and health["status"] == "ok"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err.decode()[-2000:]
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0


def test_serve_refuses_a_backend_it_cannot_open_in_one_line():
    from click.testing import CliRunner

    from leishen.cli.main import main

    for args in (["--backend", "neo4j", "--uri", "bolt://127.0.0.1:1"], ["--corpus", "/nonexistent/corpus"]):
        result = CliRunner().invoke(main, ["serve", *args])
        assert result.exit_code == 2 and result.output.startswith("error: ") and result.output.count("\n") == 1


def test_serve_keeps_the_api_settings_the_user_set():
    """`leishen serve` passes every LEISHEN_API_* setting to its workers: the ones the user set stay (an in-flight
    bound, the compute processes), the command line's own options override only what they give."""
    from leishen.cli.serve_cmd import serve_settings

    env = {"LEISHEN_API_MAX_IN_FLIGHT": "3", "LEISHEN_API_COMPUTE_PROCESSES": "0", "LEISHEN_API_BACKEND": "neo4j"}
    s = serve_settings(env, backend="networkx", uri=None, user=None, password=None, corpus=None, use_corpus=None)
    assert s.max_in_flight == 3 and s.compute_processes == 0 and s.backend == "networkx"
    assert s.to_env()["LEISHEN_API_MAX_IN_FLIGHT"] == "3"
