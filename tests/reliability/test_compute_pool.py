"""#40 item 1, by construction: ``leishen serve`` answers its computing requests in warmed worker processes
(:class:`leishen.api.pool.ComputePool`), so /health is answered on the server's event loop whatever they do. A
worker killed mid-service gives a 503 naming what happened (never a traceback, never a hang) and a fresh pool
answers the next requests; the workers end with the server, even one killed with SIGKILL."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time

from loadprobe import fetch, moment_url, serving

READING = "/readings?moment=2026-03-04T05:00%2B09:00&topic=*"


def children(pid: int) -> set[int]:
    """The pids of *pid*'s child processes."""
    found = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True)
    return {int(line) for line in found.stdout.split()}


def compute_workers(base: str) -> tuple[int, set[int]]:
    """The server answering on *base* (this process's child serving its port) and its children: the pool's
    workers, and multiprocessing's resource tracker."""
    port = base.rsplit(":", 1)[1]
    for pid in children(os.getpid()):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if b"\0--port\0" + port.encode() + b"\0" in cmdline.read():
                    return pid, children(pid)
        except FileNotFoundError:  # (ps itself, ended)
            continue
    raise AssertionError(f"no child of this process serves port {port}")


def test_readings_are_computed_in_worker_processes_and_a_dead_worker_is_a_503():
    with serving("--no-corpus", env={"LEISHEN_MAX_IN_FLIGHT": "2"}) as base:
        status, _, reading = fetch(base + READING)
        assert status == 200 and reading["judgments"]
        server, workers = compute_workers(base)
        assert len(workers) >= 2, workers
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):  # the broken pool may have ended it already
                os.kill(pid, signal.SIGKILL)
        answers = [fetch(moment_url(base, n))[::2] for n in range(4)]
        deadline = time.monotonic() + 60  # a fresh pool warms in seconds, longer on a loaded machine
        while answers[-1][0] != 200 and time.monotonic() < deadline:
            time.sleep(0.5)
            answers.append(fetch(moment_url(base, len(answers)))[::2])
        for status, body in answers:
            assert status == 200 or (status == 503 and "a worker process of the compute pool ended" in body["error"]), (
                status, body)
        assert answers[-1][0] == 200, answers[-1]
        assert fetch(base + READING)[2] == reading  # the fresh workers answer as the first did
        assert fetch(base + "/health")[0] == 200


def pool_workers(server: int) -> set[int]:
    """The pids of *server*'s compute workers (its spawned children; not multiprocessing's resource tracker)."""
    found = set()
    for pid in children(server):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if b"spawn_main" in cmdline.read():
                    found.add(pid)
        except FileNotFoundError:  # (ended meanwhile)
            continue
    return found


def test_one_worker_killed_fails_every_request_the_pool_holds_naming_no_worker():
    """Two readings held by the pool (its two workers stopped, a third request refused 429 shows both admitted),
    one worker SIGKILLed: a process pool breaks whole, so both are 503, and the message blames no worker (the
    other one was alive). Once a fresh pool is starting, the stopped survivor is let go; the next request is 200."""
    import queue
    import threading

    with serving("--no-corpus", env={"LEISHEN_MAX_IN_FLIGHT": "2"}) as base:
        server, _ = compute_workers(base)
        workers = sorted(pool_workers(server))
        assert len(workers) == 2, workers
        answers: queue.Queue = queue.Queue()
        try:
            for pid in workers:
                os.kill(pid, signal.SIGSTOP)
            threads = [threading.Thread(target=lambda n=n: answers.put(fetch(moment_url(base, n), timeout=300)),
                                        daemon=True) for n in (0, 1, 2)]
            for thread in threads:
                thread.start()
            assert answers.get(timeout=120)[0] == 429  # the third: the other two are in the pool
            os.kill(workers[0], signal.SIGKILL)
            for _ in range(1200):  # the pool found broken: a fresh one is starting
                if pool_workers(server) - set(workers):
                    break
                time.sleep(0.1)
            else:
                raise AssertionError("no fresh pool started in 120 s")
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(workers[1], signal.SIGCONT)  # (the broken pool ends it)
        held = [answers.get(timeout=300) for _ in range(2)]
        for status, headers, error in held:
            assert (status, error["type"], headers["retry-after"]) == (503, "WorkerError", "1"), error
            assert error["error"].startswith("a worker process of the compute pool ended"), error
            assert "computing this request" not in error["error"] and str(workers[0]) not in error["error"]
        status, _, reading = fetch(moment_url(base, 0), timeout=300)
        assert status == 200 and reading["judgments"]


def test_the_workers_end_with_the_server_even_on_sigkill():
    with serving("--no-corpus", env={"LEISHEN_MAX_IN_FLIGHT": "2"}) as base:
        server, workers = compute_workers(base)
        assert workers
        os.kill(server, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
            time.sleep(0.2)
        assert not [pid for pid in workers if _alive(pid)], "worker processes outlived the server"


def _alive(pid: int) -> bool:
    """Whether *pid* is a process that has not ended (a zombie has)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


def test_what_the_workers_answer_is_what_the_app_answers():
    """Through the pool: a typed chart POSTed, a bad value (one-line 422), a body past max_body (413), gzip when
    accepted, HEAD without a body; pages, symbols, paths, finds and errors byte for byte as the app in this
    process answers them."""
    import gzip
    import json
    import urllib.error
    import urllib.parse
    import urllib.request

    def call(path, data=None, method=None, headers=None):
        request = urllib.request.Request(base + path, data=data, method=method, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
        except urllib.error.HTTPError as error:
            return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()

    with serving("--no-corpus", env={"LEISHEN_MAX_IN_FLIGHT": "2"}) as base:
        chart = fetch(base + "/charts?moment=2026-03-04T05:00%2B09:00")[2]
        status, _, body = call("/readings?topic=*", json.dumps(chart).encode(), "POST",
                               {"content-type": "application/json"})
        assert status == 200 and json.loads(body)["judgments"]
        status, _, body = call("/readings?moment=2026-13-01T00:00%2B09:00")
        error = json.loads(body)
        assert status == 422 and error["field"] == "moment" and "\n" not in error["error"]
        status, body = announced_body(base, "/readings", 1_100_002)  # refused by its length, before it is sent
        assert status == 413, body[:300]
        status, headers, body = call(READING, headers={"accept-encoding": "gzip"})
        assert status == 200 and headers["content-encoding"] == "gzip"
        assert json.loads(gzip.decompress(body))["judgments"]
        status, headers, body = call(READING, method="HEAD")
        assert status == 200 and body == b"" and int(headers["content-length"]) > 100_000
        served = {path: call(urllib.parse.quote(path, safe="/?&=%"))[::2] for path in SAME}
    from leishen.api import Settings
    from tests.api.apicheck import serving as in_process

    with in_process(Settings(use_corpus=False)) as client:
        for path in SAME:
            answer = client.get(path)
            assert served[path] == (answer.status_code, answer.content), path


#: paths whose answers through the workers and from the app in this process are compared byte for byte
SAME = ("/views/reading?moment=2026-03-04T05:00%2B09:00", "/symbols/子", "/paths?source=子&target=午",
        "/find?rule=斫輪&start=2026-03-01T00:00%2B09:00&end=2026-03-03T00:00%2B09:00", "/coverage",
        "/symbols/nothing-here", "/find?rule=x&start=a&end=b")


def announced_body(base: str, path: str, length: int) -> tuple[int, bytes]:
    """(status, body) of a POST whose headers announce a JSON body of *length* bytes and which then waits for the
    answer without sending it: a server that refuses by Content-Length answers at once (sending the body instead
    races the refusal: the client may find the connection closed under it, a broken pipe)."""
    import http.client
    import urllib.parse

    url = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    try:
        conn.putrequest("POST", path)
        conn.putheader("content-type", "application/json")
        conn.putheader("content-length", str(length))
        conn.endheaders()
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()

