"""The stdio wire's pieces in process (:mod:`leishen.mcpserver.wire`): a line that is not UTF-8 is refused naming
its byte, and the end of input waits for the requests read, answering one it gave up on exactly once. (The
``leishen mcp`` subprocess tests of both are in tests/reliability/test_mcp_hostile.py.)"""

from __future__ import annotations

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage

from leishen.mcpserver.wire import END_OF_INPUT_WAIT, Answers, admit


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
