"""The MCP server's stdio wire: the lines read from stdin, checked before the SDK's session sees them
(:func:`admit`), and the answers written back, counted so that the end of input waits for them (:class:`Answers`).

- A line that is not UTF-8 is answered with a JSON-RPC parse error (-32700) naming the first bad byte, with the
  line's id when it can be read; one that is not JSON likewise; JSON that is no JSON-RPC message with an
  invalid-request error (-32600) saying why (a lone UTF-16 surrogate, else the first validation error); a message
  whose id is no string or integer (``[1]``, ``1e400``, ``1.5``, ``true``, ``{}``, null) likewise, with id null
  (the SDK would read it as a notification and never answer it); a message nested deeper than :data:`MAX_DEPTH`
  levels with an invalid-request error naming the limit, before it is parsed. Reading a line's depth and id is one
  pass over it, however its strings are escaped or left unclosed.
- At the end of input (the client closed stdin) the requests already read are finished and answered before the
  server exits: it waits for them at most :data:`END_OF_INPUT_WAIT` seconds (the longest a tool runs, ``find``'s
  60 s deadline, and 10 s for its answer); one still running then is answered with an error saying so
  (-32001) and cancelled, and no answer of its own follows (a tool running in a worker thread finishes before
  the process exits: nothing is left running). Why: when the SDK's input ends its dispatcher cancels the
  handlers in flight (python-sdk issue #2678); one cancelled before its first step never runs, not even to answer
  "Connection closed", and one cancelled while its answer is being written drops it. So the input the SDK reads
  ends only after this wait.
"""

from __future__ import annotations

import json
import re
import sys

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage

from leishen.service.readings import SERVER

#: the deepest nesting of objects and arrays a message may have (the arguments sit 3 levels down)
MAX_DEPTH = 64
#: seconds the end of input waits for the requests already read to be answered: ``find``'s deadline and 10 s
END_OF_INPUT_WAIT = SERVER.seconds + 10.0
#: a JSON string (one left unclosed runs to the end of the line: each match is one pass, never a rescan — a line
#: of 100,000 ``\\"`` with no closing quote cost minutes when every failed match rescanned to the end), or a
#: bracket, colon or comma outside strings: what :func:`shape` walks
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[][{}:,]', re.DOTALL)
#: an id :func:`shape` reads: an integer or a short string, ending where the value ends (``1e400`` or ``1.5`` is none)
_ID = re.compile(r'\s*(-?(?:0|[1-9]\d*)|"(?:[^"\\]|\\.){0,200}")(?=\s*(?:[,}]|$))')
#: a UTF-16 surrogate: in a decoded JSON string, one left unpaired (``"\\ud800"``), which is no Unicode
_SURROGATE = re.compile("[\ud800-\udfff]")


def shape(line: str) -> tuple[int, object]:
    """The deepest nesting of objects and arrays in the JSON text *line*, and the value of its top-level ``"id"``
    (None when it has none that can be read), found without parsing it (a 100,000-deep line costs one pass)."""
    depth = deepest = 0
    found, want_id = None, False
    tokens = _TOKENS.finditer(line)
    for match in tokens:
        token = match.group(0)
        if token in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif token in "]}":
            depth -= 1
        elif token == '"id"' and depth == 1 and found is None:
            want_id = True
        elif want_id and token == ":":
            found, want_id = _id_after(line, match.end()), False
    return deepest, found


def _id_after(line: str, start: int):
    """The JSON-RPC id (an integer or a string) that starts at *start* in *line*, else None (a float, an
    exponent, any other value, or a string holding a lone surrogate: no id an answer can carry)."""
    found = _ID.match(line, start)
    if not found:
        return None
    try:
        ident = json.loads(found.group(1))
    except ValueError:  # an integer of more digits than Python converts
        return None
    return ident if valid_id(ident) else None


def valid_id(ident) -> bool:
    """Whether *ident* is a JSON-RPC request id: a string (of Unicode, no lone surrogate) or an integer (not a
    boolean, not a float, not null)."""
    if isinstance(ident, str):
        return not _SURROGATE.search(ident)
    return isinstance(ident, int) and not isinstance(ident, bool)


def _kind(value) -> str:
    """What the JSON value *value* is, in a few words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, float):
        return "a number with a fraction or an exponent"
    if isinstance(value, str):
        return "a string holding a lone UTF-16 surrogate"
    return "an array" if isinstance(value, list) else "an object"


def why_invalid(message: object, exc: Exception) -> str:
    """A short reason the JSON *message* (parsed) is no JSON-RPC message: a lone surrogate it holds, else the first
    validation error of *exc*, at most 200 characters."""
    lone = _SURROGATE.search(json.dumps(message, ensure_ascii=False))
    if lone:
        return (f"a lone UTF-16 surrogate (\\u{ord(lone.group()):04x}, not part of a pair) is not valid Unicode; "
                "JSON-RPC messages are UTF-8")
    errors = getattr(exc, "errors", None)
    try:
        first = errors()[0] if errors else None
    except Exception:  # noqa: BLE001 — the reason is a courtesy; the answer is given without it
        first = None
    if first:
        where = ".".join(str(part) for part in first.get("loc", ()))
        reason = f"{where}: {first.get('msg', '')}" if where else str(first.get("msg", ""))
    else:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return reason if len(reason) <= 200 else reason[:199] + "…"


def error_message(code: int, message: str, ident=None) -> SessionMessage:
    """A JSON-RPC error answer."""
    return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=ident,
                                             error=types.ErrorData(code=code, message=message)))


def admit(raw: bytes) -> tuple[SessionMessage, bool]:
    """The message of the line *raw* and False, or the JSON-RPC error that answers it and True: not UTF-8
    (-32700, naming the first bad byte and where it is), too deep (-32600, naming MAX_DEPTH), not JSON (-32700),
    an id that is no string or integer (-32600, id null) or not a JSON-RPC message (-32600, saying why)."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return error_message(types.PARSE_ERROR, f"parse error: the line is not valid UTF-8 (byte "
                             f"0x{raw[exc.start]:02x} at offset {exc.start}: {exc.reason}); JSON-RPC messages are "
                             "UTF-8", shape(raw.decode("utf-8", errors="replace"))[1]), True
    deepest, ident = shape(line)
    if deepest > MAX_DEPTH:
        return error_message(types.INVALID_REQUEST, f"the message is nested {deepest} levels deep; at most "
                             f"{MAX_DEPTH} are taken (arguments nested that deep are refused)", ident), True
    try:
        parsed = json.loads(line)
    except ValueError as exc:
        return error_message(types.PARSE_ERROR, f"parse error: the line is not JSON ({exc})", ident), True
    if isinstance(parsed, dict) and "id" in parsed and not valid_id(parsed["id"]) and not (
            parsed["id"] is None and "error" in parsed and "method" not in parsed):
        # else the SDK's adapter reads the line as a notification (its id ignored) and it is never answered
        return error_message(types.INVALID_REQUEST, f"invalid request: the id is {_kind(parsed['id'])}; a JSON-RPC "
                             "id is a string or an integer (answered with id null)", None), True
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False)), False
    except Exception as exc:  # noqa: BLE001 — JSON that is no JSON-RPC message is answered, never dropped
        return error_message(types.INVALID_REQUEST, "invalid request: the line is JSON but not a JSON-RPC 2.0 "
                             f"request, notification or response ({why_invalid(parsed, exc)})", ident), True


class Answers:
    """The SDK's write stream as the SDK sees it (``send``, ``aclose``, ``async with``), counting the requests
    read (:meth:`expect`) whose answers are not written yet, so that the end of input can wait for them
    (:meth:`finish`); an answer to a request already given up on is dropped (one answer per request)."""

    def __init__(self, stream):
        self.stream = stream
        self.open: dict[object, int] = {}  # request id -> how many requests of that id await their answer
        self.writing = 0  # answers on their way to the transport
        self.given_up: set = set()
        self.idle = anyio.Event()
        self.idle.set()

    def expect(self, ident) -> None:
        """Count the request *ident* as awaiting its answer."""
        self.open[ident] = self.open.get(ident, 0) + 1
        if self.idle.is_set():
            self.idle = anyio.Event()

    def settle(self, ident) -> None:
        """Count the request *ident* as no longer awaiting its answer (being answered, or cancelled by the
        client: it gets none)."""
        if ident in self.open:
            self.open[ident] -= 1
            if not self.open[ident]:
                del self.open[ident]
        self._check_idle()

    def _check_idle(self) -> None:
        """Set the idle event when no request awaits its answer and no answer is on its way."""
        if not self.open and not self.writing:
            self.idle.set()

    async def send(self, item: SessionMessage) -> None:
        """Write *item*. An answer is taken out of the open requests before it is written (so no give-up can
        answer its request a second time) and counted as on its way until the transport has it; an answer to a
        request given up on is dropped."""
        ident = answer_id(item.message)
        if ident is None:
            await self.stream.send(item)
            return
        if ident in self.given_up:
            return
        self.writing += 1
        self.settle(ident)
        try:
            await self.stream.send(item)
        finally:
            self.writing -= 1
            self._check_idle()

    async def refuse(self, item: SessionMessage) -> None:
        """Write the error answering a refused line (no request of this server's count)."""
        await self.stream.send(item)

    async def finish(self, seconds: float) -> None:
        """Wait at most *seconds* until every request read is answered and its answer handed to the transport;
        answer each still open with an error naming the wait, and drop its own answer should it come."""
        with anyio.move_on_after(seconds):
            await self.idle.wait()
        late = list(self.open)
        self.given_up.update(late)
        self.open.clear()
        for ident in late:
            await self.stream.send(error_message(types.REQUEST_TIMEOUT, f"the input ended and this request was "
                                                 f"not done {seconds:g} s later; it is cancelled, with no other "
                                                 "answer", ident))

    async def aclose(self) -> None:
        """Close the stream (the transport's writer ends after the answers sent)."""
        await self.stream.aclose()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.aclose()


def answer_id(message) -> object:
    """The id of the request *message* answers (a result or an error with an id), else None."""
    if isinstance(message, (types.JSONRPCResponse, types.JSONRPCError)):
        return message.id
    return None


def cancelled_id(message) -> object:
    """The id of the request a ``notifications/cancelled`` *message* cancels, else None."""
    if isinstance(message, types.JSONRPCNotification) and message.method == "notifications/cancelled":
        return (message.params or {}).get("requestId")
    return None


async def read_lines(inbound, answers: Answers, wait: float = END_OF_INPUT_WAIT) -> None:
    """Read stdin's bytes line by line until it closes: pass each admitted message on to the session (counting
    each request in *answers*), answer each refused one; at its end wait for the requests read (at most *wait*
    seconds, :meth:`Answers.finish`), then end the session's input."""
    async with inbound:
        async for raw in anyio.wrap_file(sys.stdin.buffer):
            if not raw.strip():
                continue
            item, refused = admit(raw)
            if refused:
                await answers.refuse(item)
                continue
            message = item.message
            if isinstance(message, types.JSONRPCRequest):
                answers.expect(message.id)
            elif cancelled_id(message) is not None:
                answers.settle(cancelled_id(message))
            await inbound.send(item)
        await answers.finish(wait)


class NoInput:
    """An input of no lines that ends when *done* is set (the SDK's transport reader waits on it)."""

    def __init__(self, done: anyio.Event):
        self.done = done

    def __aiter__(self):
        return self

    async def __anext__(self):
        await self.done.wait()
        raise StopAsyncIteration
