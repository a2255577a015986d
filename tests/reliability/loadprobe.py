"""A live ``leishen serve`` under 100 concurrent computing requests, and /health timed meanwhile (#40 item 1).

Three processes: the server (:func:`serving`), the load generator (this file run as ``load BASE SECONDS``: 100
client threads sending readings and finds) and the caller, which times /health while the load runs
(:func:`under_load`), so neither the load's threads nor the timing share the server's interpreter.
Shared by the NetworkX test (tests/reliability/test_in_flight.py), the Neo4j one (tests/neo4j) and the bench
(bench/bench_api.py ``--under-load``). Every loop is bounded in time and count; the server and the load are stopped
(their process groups) whatever happens.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

CLIENTS = 100
LOAD_SECONDS = 6.0
HEALTH_SAMPLES = 40


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str, timeout: float = 60) -> tuple[int, dict, dict]:
    """(status, headers with lower-case names, JSON body) of a GET, error statuses included."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, json.loads(error.read())


@contextlib.contextmanager
def serving(*args: str, env: dict | None = None):
    """``leishen serve --port P ARGS`` in its own process group; yields its base URL once /health answers."""
    port = free_port()
    command = [sys.executable, "-m", "leishen.cli.main", "serve", "--port", str(port), *args]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              env={**os.environ, **(env or {})}, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_up(server, base, "leishen serve")
        yield base
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGTERM)
        try:
            server.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.communicate(timeout=30)


def wait_up(server: subprocess.Popen, base: str, what: str) -> None:
    """Return once *base*/health answers 200 (at most 120 s); AssertionError when *server* exits first (with its
    stderr's end when it was piped) or never answers."""
    for _ in range(1200):
        if server.poll() is not None:
            said = server.stderr.read().decode()[-2000:] if server.stderr else ""
            raise AssertionError(f"{what} exited with {server.returncode}: {said}")
        with contextlib.suppress(OSError):
            if fetch(base + "/health", timeout=5)[0] == 200:
                return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not come up in 120 s")


def moment_url(base: str, n: int) -> str:
    """Client *n*'s next request: a reading of every topic at a moment of its own (no two clients read the same
    chart), or every fourth one a find of 斫輪 over two days of hours."""
    day = f"2026-{1 + n % 12:02d}-{1 + n % 27:02d}"
    if n % 4 == 3:
        end = f"{day[:8]}{2 + n % 27:02d}T23:00+09:00"
        return f"{base}/find?" + urllib.parse.urlencode({"rule": "斫輪", "start": f"{day}T00:00+09:00", "end": end})
    return f"{base}/readings?" + urllib.parse.urlencode({"moment": f"{day}T{n % 24:02d}:00+09:00", "topic": "*"})


def load(base: str, clients: int = CLIENTS, seconds: float = LOAD_SECONDS) -> dict:
    """*clients* threads sending readings and finds for *seconds*, each waiting what a 429's Retry-After says
    before it sends again: the statuses seen and the first 429's headers and body."""
    stop = time.monotonic() + seconds
    statuses: dict[int, int] = {}
    refused: list = []
    lock = threading.Lock()

    def client(n: int) -> None:
        while time.monotonic() < stop:
            try:
                status, headers, body = fetch(moment_url(base, n), timeout=120)
            except OSError:
                status, headers, body = -1, {}, {}
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
                if status == 429 and not refused:
                    refused.append((headers, body))
            if status == 429:  # a client that honours Retry-After, as HTTP asks
                time.sleep(min(float(headers.get("retry-after", 1)), max(0.0, stop - time.monotonic())))
            n += CLIENTS

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 180)
    return {"statuses": statuses, "refused": refused}


def under_load(base: str, clients: int = CLIENTS, seconds: float = LOAD_SECONDS) -> dict:
    """:func:`load` run in a process of its own while this one times /health HEALTH_SAMPLES times: the statuses
    the load saw, its first 429, and the /health times in seconds, sorted."""
    generator = subprocess.Popen([sys.executable, __file__, "load", base, str(clients), str(seconds)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        time.sleep(0.5)  # every client has sent its first request
        times = health_times(base)
        out, err = generator.communicate(timeout=seconds + 300)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(generator.pid, signal.SIGKILL)
        generator.wait()
    assert generator.returncode == 0, err[-2000:]
    found = json.loads(out)
    return {"statuses": {int(k): v for k, v in found["statuses"].items()}, "refused": found["refused"],
            "health": sorted(times)}


def p95(times: list[float]) -> float:
    return sorted(times)[max(0, int(round(0.95 * len(times))) - 1)]


def health_times(base: str) -> list[float]:
    """HEALTH_SAMPLES timed GETs of /health, 50 ms apart, each asserted 200 ok."""
    times = []
    for _ in range(HEALTH_SAMPLES):
        start = time.perf_counter()
        status, _, body = fetch(base + "/health", timeout=60)
        times.append(time.perf_counter() - start)
        assert status == 200 and body["status"] == "ok", (status, body)
        time.sleep(0.05)
    return times


if __name__ == "__main__":  # the load generator: python loadprobe.py load BASE CLIENTS SECONDS → what it saw as JSON
    print(json.dumps(load(sys.argv[2], int(sys.argv[3]), float(sys.argv[4]))))
