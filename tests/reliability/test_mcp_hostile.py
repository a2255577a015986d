"""#40 item 6: ``leishen mcp`` answers every line on stdio — a malformed JSON line with a JSON-RPC parse error, a
message nested 200 or more deep with an error naming the limit — and bounds the tool calls in flight."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys

import pytest

from leishen.mcpserver.wire import MAX_DEPTH, shape

MOMENTS = {"rule": "斫輪", "start": "2026-01-01T00:00+08:00", "end": "2026-01-31T23:00+08:00"}


class Stdio:
    """A ``leishen mcp`` process spoken to line by line; every read waits at most 60 s."""

    def __init__(self, **env):
        self.proc = subprocess.Popen([sys.executable, "-m", "leishen.cli.main", "mcp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, **env})
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}})
        assert self.answer()["id"] == 0
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message) -> None:
        line = message if isinstance(message, bytes) else json.dumps(message).encode()
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def answer(self) -> dict:
        ready, _, _ = select.select([self.proc.stdout], [], [], 60)
        assert ready, "no answer within 60 s"
        return json.loads(self.proc.stdout.readline())

    def close(self) -> str:
        self.proc.stdin.close()
        assert self.proc.wait(timeout=30) == 0
        return self.proc.stderr.read().decode()


@pytest.fixture(scope="module")
def server():
    session = Stdio()
    yield session
    assert "Traceback" not in session.close()


def nested(depth: int) -> str:
    return "[" * depth + '"x"' + "]" * depth


def call(ident, name, arguments_json: str) -> bytes:
    return (f'{{"jsonrpc": "2.0", "id": {ident}, "method": "tools/call", '
            f'"params": {{"name": "{name}", "arguments": {{"q": {arguments_json}}}}}}}').encode()


@pytest.mark.parametrize("line", [b"{not json", b"\xff\xfe", b'{"jsonrpc": "2.0", "id": 5', b"[1, 2]", b'"text"'],
                         ids=["not-json", "not-utf8", "cut", "array", "string"])
def test_a_malformed_line_is_answered(server, line):
    found = server.answer() if server.send(line) is None else None
    assert found["jsonrpc"] == "2.0" and found["id"] == (5 if b'"id": 5' in line else None)  # its id when readable
    assert found["error"]["code"] in (-32700, -32600) and found["error"]["message"]


@pytest.mark.parametrize("depth", [200, 1_000, 100_000])
def test_over_deep_arguments_are_refused_naming_the_limit(server, depth):
    server.send(call(7, "resolve", nested(depth)))
    found = server.answer()
    assert found["id"] == 7 and found["error"]["code"] == -32600
    assert f"at most {MAX_DEPTH}" in found["error"]["message"]


def test_the_server_still_answers_after_hostile_lines(server):
    server.send(call(8, "resolve", '"神后"'))
    found = server.answer()
    assert found["id"] == 8 and "Branch:zi" in found["result"]["content"][0]["text"]


def test_shape_reads_depth_and_id_without_parsing():
    assert shape('{"id": 3, "a": [[1]]}') == (3, 3)
    assert shape('{"a": {"id": 9}, "id": "x"}') == (2, "x")
    assert shape('{"s": "[[[[", "id": 1}') == (1, 1)  # brackets inside strings do not count
    assert shape(nested(5000))[0] == 5000


def test_a_line_whose_id_is_no_string_or_integer_is_answered(server):
    """F8: an id that is an array, a huge or fractional number, an object or a boolean is answered with -32600 and
    id null (the SDK read each such line as a notification and never answered it), and so is a lone surrogate in an
    argument (saying so); the next line is still answered."""
    for ident in ("[1]", "1e400", "{}", "true", "1.5"):
        server.send(call(ident, "resolve", '"神后"'))
        found = server.answer()
        assert found["id"] is None and found["error"]["code"] == -32600, (ident, found)
        assert "a JSON-RPC id is a string or an integer" in found["error"]["message"]
    server.send(call(11, "resolve", '"\\ud800"'))
    found = server.answer()
    assert found["id"] == 11 and found["error"]["code"] == -32600 and "surrogate" in found["error"]["message"]
    server.send(call(12, "resolve", '"神后"'))
    found = server.answer()
    assert found["id"] == 12 and "Branch:zi" in found["result"]["content"][0]["text"]


def test_tool_calls_in_flight_are_bounded():
    """With LEISHEN_MAX_IN_FLIGHT=1 three month-long finds sent at once: one runs, two are refused at once."""
    session = Stdio(LEISHEN_MAX_IN_FLIGHT="1")
    for ident in (10, 11, 12):
        session.send({"jsonrpc": "2.0", "id": ident, "method": "tools/call",
                      "params": {"name": "find", "arguments": MOMENTS}})
    answers = {a["id"]: a["result"] for a in (session.answer() for _ in range(3))}
    refused = [i for i, r in answers.items() if r.get("isError")]
    assert len(refused) == 2, answers
    for ident in refused:
        assert "LEISHEN_MAX_IN_FLIGHT" in answers[ident]["content"][0]["text"]
    assert "Traceback" not in session.close()


def test_the_server_refuses_to_start_on_a_bad_setting():
    done = subprocess.run([sys.executable, "-m", "leishen.mcpserver"], stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "LEISHEN_MAX_IN_FLIGHT": "x"})
    assert done.returncode == 2 and done.stderr.strip() == "error: LEISHEN_MAX_IN_FLIGHT='x': not a whole number"


def test_a_line_of_invalid_utf8_is_a_parse_error_naming_it(server):
    """Bytes that are no UTF-8 inside a tools/call's arguments: a parse error with the line's id, the tool never
    runs (it is not fed U+FFFD in their place), and the next line is answered."""
    server.send(b'{"jsonrpc": "2.0", "id": 9, "method": "tools/call", '
                b'"params": {"name": "resolve", "arguments": {"q": "\xe7\xa5\x9e\xff\xe5\x90\x8e"}}}')
    found = server.answer()
    assert found["id"] == 9 and found["error"]["code"] == -32700, found
    assert "UTF-8" in found["error"]["message"] and "0xff" in found["error"]["message"]
    server.send(call(10, "resolve", '"神后"'))
    assert server.answer()["id"] == 10


def answered_after_end_of_input(lines: list[bytes]) -> tuple[dict, int]:
    """Run ``leishen mcp`` on *lines* written at once and stdin closed after them, as ``printf … | leishen mcp``
    does: its answers by id and its exit status (killed if it has not ended within 300 s)."""
    proc = subprocess.Popen([sys.executable, "-m", "leishen.cli.main", "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "LEISHEN_MAX_IN_FLIGHT": "4"})  # both calls run at once
    try:
        out, err = proc.communicate(b"".join(line + b"\n" for line in lines), timeout=300)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert b"Traceback" not in err, err.decode()
    answers = [json.loads(line) for line in out.splitlines()]
    return {answer["id"]: answer for answer in answers}, proc.returncode


def test_end_of_input_answers_the_calls_already_read():
    """initialize, two tools/call (a month-long find and a resolve) and a tools/list, then stdin closes: every
    request is answered before the server exits, and it exits 0 (before #40's fix the SDK cancelled the calls
    in flight when its input ended, and only initialize and tools/list were answered)."""
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}},
             {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "find", "arguments": MOMENTS}},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "resolve",
                                                                           "arguments": {"q": "神后"}}},
             {"jsonrpc": "2.0", "id": 3, "method": "tools/list"}]
    answers, status = answered_after_end_of_input([json.dumps(line).encode() for line in lines])
    assert status == 0 and sorted(answers) == [0, 1, 2, 3], answers
    assert all("result" in answer for answer in answers.values()), answers
    assert "hits" in json.loads(answers[1]["result"]["content"][0]["text"])
    assert "Branch:zi" in answers[2]["result"]["content"][0]["text"]
    assert any(tool["name"] == "find" for tool in answers[3]["result"]["tools"])
