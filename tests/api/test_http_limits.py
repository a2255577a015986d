"""#40: a request too big for the server, or not HTTP at all, is answered by a real ``leishen serve`` with the
API's JSON error naming what was wrong and the limit (:mod:`leishen.api.protocol`), never uvicorn's plain-text
400; a URL up to MAX_URL_BYTES reaches the app, which answers a too-long field with a 422 naming it. The same over
h11, the protocol used where httptools is not installed (uvicorn run with it on the same app)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

import pytest

from leishen.api.settings import MAX_HEADER_BYTES, MAX_URL_BYTES
from tests.reliability.loadprobe import fetch, free_port, serving, wait_up

MOMENT = "2026-03-04T05:00+09:00"
H11_SERVER = """import sys, uvicorn
from leishen.api.protocol import uvicorn_options
options = {**uvicorn_options(), "http": "leishen.api.protocol:H11Protocol"}
uvicorn.run("leishen.api.app:app_from_env", factory=True, port=int(sys.argv[1]), log_level="warning", **options)
"""


@contextlib.contextmanager
def serving_h11():
    """The app served by uvicorn over :class:`leishen.api.protocol.H11Protocol`, in its own process group,
    computing in its own threads; yields its base URL once /health answers."""
    port = free_port()
    env = {**os.environ, "LEISHEN_API_USE_CORPUS": "false", "LEISHEN_API_COMPUTE_PROCESSES": "0"}
    server = subprocess.Popen([sys.executable, "-c", H11_SERVER, str(port)], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_up(server, base, "uvicorn")
        yield base
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        server.wait(60)


@pytest.fixture(scope="module", params=["httptools", "h11"])
def server(request):
    """(protocol, base URL) of a live server: ``leishen serve`` (httptools), then uvicorn over h11."""
    with (serving("--no-corpus") if request.param == "httptools" else serving_h11()) as base:
        yield request.param, base


def exchange(base: str, head: bytes, most: int = 4_000_000) -> tuple[int, dict]:
    """(status, JSON body) of the answer to the raw request *head* (``Connection: close``), sent whole on one
    connection and read to its end (at most *most* bytes)."""
    url = urllib.parse.urlsplit(base)
    with socket.create_connection((url.hostname, url.port), timeout=120) as conn:
        conn.sendall(head)
        received = b""
        for _ in range(most // 4096):
            chunk = conn.recv(65536)
            if not chunk:
                break
            received += chunk
    status_line, _, rest = received.partition(b"\r\n")
    headers, _, body = rest.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in headers.lower(), received[:500]
    return int(status_line.split()[1]), json.loads(body)


def get(base: str, target: str, headers: bytes = b"") -> tuple[int, dict]:
    """:func:`exchange` of a GET of *target* with extra raw *headers* lines."""
    return exchange(base, f"GET {target} HTTP/1.1\r\nHost: x\r\n".encode() + headers + b"Connection: close\r\n\r\n")


def moment_query(**fields) -> str:
    return urllib.parse.urlencode({"moment": MOMENT, **fields})


@pytest.mark.parametrize(("target", "field"), [
    ("/readings?" + moment_query(topic="a" * 64_000), "topic"),
    ("/readings?" + moment_query(topic="a" * 100_000), "topic"),
    ("/readings?" + moment_query(topic="a" * (MAX_URL_BYTES - 100)), "topic"),
    ("/charts?" + urllib.parse.urlencode({"moment": "2026-03-04T05:00+09:00" + "0" * 100_000}), "moment"),
    ("/find?" + urllib.parse.urlencode({"rule": "斫輪" * 20_000, "start": MOMENT, "end": MOMENT}), "rule"),
    ("/symbols/" + "a" * 100_000, "name"),
])
def test_a_long_url_reaches_the_app_which_names_the_field(server, target, field):
    status, error = get(server[1], target)
    assert status in (400, 422) and error["field"] == field, error
    assert "\n" not in error["error"] and set(error) == {"error", "status", "type", "field", "matches"}


def test_a_url_past_the_limit_is_a_414_naming_the_limit(server):
    protocol, base = server
    most = MAX_URL_BYTES if protocol == "httptools" else MAX_URL_BYTES + MAX_HEADER_BYTES
    status, error = get(base, "/readings?" + moment_query(topic="a" * 2_000_000))
    assert (status, error["status"], error["type"], error["field"]) == (414, 414, "URLTooLong", "query"), error
    assert f"{most:,} bytes" in error["error"], error
    try:  # an ordinary client reads the answer too: the server reads what it still sends before closing
        urllib.request.urlopen(f"{base}/symbols/{'a' * 2_000_000}", timeout=120)
    except urllib.error.HTTPError as answer:
        assert answer.code == 414 and json.loads(answer.read())["field"] == "path"
    else:
        raise AssertionError("a 2 MB path was answered 2xx")
    assert fetch(base + "/health")[0] == 200


def test_headers_past_the_limit_are_a_431_naming_the_limit(server):
    protocol, base = server
    status, error = get(base, "/health", b"X-Big: " + b"a" * 3_000_000 + b"\r\n")  # refused while it streams in
    assert (status, error["type"], error["field"]) == (431, "HeadersTooLarge", "headers"), error
    status, answer = get(base, "/health", b"X-Big: " + b"a" * 100_000 + b"\r\n")
    if protocol == "h11":  # h11's one bound is the whole head: a URL's megabyte and the headers' limit
        assert status == 200 and answer["status"] == "ok"
        return
    assert (status, answer["field"]) == (431, "headers") and f"{MAX_HEADER_BYTES:,} bytes" in answer["error"]
    assert "X-Big" in answer["error"], answer
    assert get(base, "/health", b"X-Pad: " + b"a" * 60_000 + b"\r\n")[0] == 200  # under the limit


def test_bytes_that_are_not_http_are_a_json_400(server):
    status, error = exchange(server[1], b"BLAH\r\n\r\n")
    assert (status, error["type"], error["field"]) == (400, "InvalidHTTPRequest", None), error
    assert error["error"].startswith("the request is not valid HTTP/1.1"), error
