"""The stdio wire's pieces in process (:mod:`leishen.mcpserver.wire`): a line that is not UTF-8 is refused naming
its byte, and the end of input waits for the requests read, answering one it gave up on exactly once. (The
``leishen mcp`` subprocess tests of both are in tests/reliability/test_mcp_hostile.py.)"""

from __future__ import annotations

import anyio
import mcp_types as types
import pytest
from mcp.shared.message import SessionMessage

from leishen.mcpserver.wire import _TOKENS, END_OF_INPUT_WAIT, Answers, admit, shape


def result(ident) -> SessionMessage:
    return SessionMessage(types.JSONRPCResponse(jsonrpc="2.0", id=ident, result={}))


def written(stream) -> list:
    """What the memory stream *stream* holds now (never waits)."""
    out = []
    while True:
        try:
            out.append(stream.receive_nowait().message)
        except anyio.WouldBlock:
            return out


def test_invalid_utf8_is_refused_naming_the_byte_with_the_line_id():
    line = b'{"jsonrpc": "2.0", "id": "a", "method": "ping", "params": {"q": "\xc3("}}'
    answer, refused = admit(line)
    at = line.index(b"\xc3")
    assert refused and answer.message.id == "a" and answer.message.error.code == types.PARSE_ERROR
    assert f"not valid UTF-8 (byte 0xc3 at offset {at}:" in answer.message.error.message
    message, refused = admit('{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"q": "神"}}'.encode())
    assert not refused and message.message.params == {"q": "神"}


def test_the_end_of_input_answers_a_request_it_gave_up_on_once():
    async def run():
        sent, received = anyio.create_memory_object_stream(10)
        answers = Answers(sent)
        answers.expect(1)
        answers.expect(2)
        await answers.send(result(1))
        await answers.finish(0.01)  # request 2 never answers within the wait
        await answers.send(result(2))  # its own answer, come late: dropped
        return written(received)

    out = anyio.run(run)
    assert [m.id for m in out] == [1, 2] and isinstance(out[0], types.JSONRPCResponse)
    assert out[1].error.code == types.REQUEST_TIMEOUT and "not done 0.01 s later" in out[1].error.message


def test_the_end_of_input_does_not_wait_for_answered_or_cancelled_requests():
    async def run():
        sent, received = anyio.create_memory_object_stream(10)
        answers = Answers(sent)
        answers.expect(1)
        answers.expect(2)
        await answers.send(result(1))
        answers.settle(2)  # the client cancelled it: it gets no answer
        with anyio.fail_after(60):
            await answers.finish(END_OF_INPUT_WAIT)
        return written(received)

    assert [m.id for m in anyio.run(run)] == [1]
    assert END_OF_INPUT_WAIT == 70.0


#: F7's line: a string opened and never closed, holding nothing but escaped quotes
UNCLOSED = '{"jsonrpc":"2.0","id":7,"method":"x","params":{"a":"'


def test_an_unclosed_string_of_escaped_quotes_is_scanned_in_one_pass():
    """The string token at the unclosed quote runs to the end of the line in one match (it used to fail and be
    retried at every later quote: quadratic, 95 s for 200 KB); a 2 MB such line is refused with its id."""
    line = UNCLOSED + '\\"' * 100_000
    assert _TOKENS.match(line, len(UNCLOSED) - 1).end() == len(line)
    assert shape(line) == (2, 7)
    answer, refused = admit((UNCLOSED + '\\"' * 1_000_000).encode())
    assert refused and answer.message.id == 7 and answer.message.error.code == types.PARSE_ERROR


@pytest.mark.parametrize("line, expected", [
    ('{"id": 3, "a": [[1]]}', (3, 3)),
    ('{"a": {"id": 9, "b": [{}]}, "id": "x"}', (4, "x")),
    ('{"s": "a\\"[{\\\\", "id": 2, "t": ["]"]}', (2, 2)),  # escaped quote and backslash, brackets in strings
    ('{"id": "q\\"r", "a": {}}', (2, 'q"r')),
    ('{"id": 4, "a": "[[[\\"', (1, 4)),  # unclosed: the rest of the line is one string
    ('{"id": 5, "a": [[["x\\', (4, 5)),  # a backslash ending the line
    ('{"a": "\\\n[", "id": 6}', (1, 6)),  # an escaped line break stays inside the string
    ('{"jsonrpc": "2.0", "id": 5', (1, 5)),  # cut after the id
    ('{"id": 1e400}', (1, None)), ('{"id": 1.5}', (1, None)), ('{"id": 12E2, "a": 1}', (1, None)),
    ('{"id": [1]}', (2, None)), ('{"id": true}', (1, None)), ('{"id": -0}', (1, 0)),
])
def test_shape_reads_depth_and_id_on_normal_nested_escaped_and_unclosed_lines(line, expected):
    assert shape(line) == expected


@pytest.mark.parametrize("ident", ["[1]", "1e400", "{}", "true", "1.5", "null", '"\\ud800"'])
def test_a_line_whose_id_is_no_string_or_integer_is_refused_with_id_null(ident):
    """The SDK's adapter read such a line as a notification (its id ignored): it was never answered."""
    for method in ('"ping"', '"tools/call", "params": {"name": "resolve", "arguments": {"q": "x"}}'):
        answer, refused = admit(f'{{"jsonrpc": "2.0", "id": {ident}, "method": {method}}}'.encode())
        assert refused and answer.message.id is None and answer.message.error.code == types.INVALID_REQUEST
        assert "a JSON-RPC id is a string or an integer" in answer.message.error.message
    answer, refused = admit(b'{"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "x"}}')
    assert not refused and isinstance(answer.message, types.JSONRPCError)  # a client's error of id null is one


def test_a_lone_surrogate_is_refused_saying_so():
    line = b'{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "resolve", "arguments": ' \
           b'{"q": "a\\ud800b"}}}'
    answer, refused = admit(line)
    assert refused and answer.message.id == 3 and answer.message.error.code == types.INVALID_REQUEST
    assert "lone UTF-16 surrogate (\\ud800" in answer.message.error.message
    answer, refused = admit(b'{"jsonrpc": "2.0", "id": 4, "method": 5}')  # else the first validation error
    assert refused and "method" in answer.message.error.message and len(answer.message.error.message) < 400
