"""A flood of slow /cypher queries against a live ``leishen serve`` on 127.0.0.1: the work in flight is bounded.

Before the bound, 50 slow queries forked 40 grand-cypher children (1.1 GB) and /health took 12.5 s. Now at most
``LEISHEN_CYPHER_MAX_IN_FLIGHT`` queries run at once; one past the bound is answered 429 with ``Retry-After``
at once, and /health answers while the admitted ones still run. Every loop here is bounded in count.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from test_serve_live import free_port, get, wait_until_up

BOUND = 2
SENT = 8
HOLD = 10  # seconds each admitted query runs before its time limit stops it (408)
# runs until its time limit on the embedded engine (two Fact sets joined through their passages)
SLOW = ('MATCH (f:Fact {polarity: "平"})-[:CITES]->(p:Passage)<-[:CITES]-(g:Fact {polarity: "凶"}) '
        'RETURN f.key ORDER BY f.key')
QUICK = "MATCH (b:Branch) RETURN b.name AS name ORDER BY name"


def post(url: str, body: dict) -> tuple[int, dict, dict]:
    """(status, headers, JSON body) of a POST, error statuses included."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, dict(response.headers), json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read())


def descendants(pid: int) -> set[int]:
    """Every live descendant process of *pid* (from /proc)."""
    found, todo = set(), [pid]
    while todo:
        current = todo.pop()
        for task in Path(f"/proc/{current}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


def test_slow_queries_past_the_bound_are_429_and_health_stays_up():
    port = free_port()
    env = {**os.environ, "LEISHEN_CYPHER_MAX_IN_FLIGHT": str(BOUND)}
    command = [sys.executable, "-m", "leishen.cli.main", "serve", "--port", str(port)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                              start_new_session=True)
    answers: list[tuple[int, dict, dict]] = []
    lock = threading.Lock()
    base = f"http://127.0.0.1:{port}"

    def send() -> None:
        answer = post(base + "/cypher", {"query": SLOW, "timeout": HOLD, "limit": 10})
        with lock:
            answers.append(answer)

    try:
        wait_until_up(base + "/health", server)
        serving = descendants(server.pid)  # the server's compute workers (api/pool.py), there before any query
        workers = [threading.Thread(target=send, daemon=True) for _ in range(SENT)]
        for worker in workers:
            worker.start()
        for _ in range(400):  # the refused ones come back at once; the admitted ones run for HOLD seconds
            with lock:
                if len(answers) >= SENT - BOUND:
                    break
            time.sleep(0.05)
        running = len(descendants(server.pid) - serving)
        status, health = get(base + "/health")
        with lock:
            early = list(answers)
        for worker in workers:
            worker.join(HOLD + 60)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGTERM)
        _, err = server.communicate(timeout=60)
    assert status == 200 and health["status"] == "ok"
    assert running <= BOUND, f"{running} query processes ran at once (bound {BOUND})"
    assert len(early) == SENT - BOUND, "/health answered after the admitted queries had finished"
    codes = sorted(code for code, _, _ in answers)
    assert codes == [408] * BOUND + [429] * (SENT - BOUND), codes
    for code, headers, body in answers:
        if code == 429:
            assert {k.lower(): v for k, v in headers.items()}["retry-after"] == "2"
            assert body["type"] == "Busy" and f"{BOUND} Cypher queries are already running" in body["error"]
    assert server.returncode in (0, -signal.SIGTERM), err.decode()[-2000:]  # uvicorn re-raises the SIGTERM it got


def test_a_slot_is_free_again_after_a_query(client):
    """Every query gives its slot back, refused or answered: many queries in a row all run."""
    for _ in range(3 * 2 * (os.cpu_count() or 1)):
        assert client.post("/cypher", json={"query": QUICK, "limit": 20}).status_code == 200
        assert client.post("/cypher", json={"query": "MATCH (n:Branch) SET n.x = 1"}).status_code == 400
