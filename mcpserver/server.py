"""The MCP server (official ``mcp`` SDK, stdio): read-only tools over the graph, the charts and the readings, for an
assistant's MCP client.

Tools (every one read-only and idempotent, each with a JSON schema whose every property is described):

- one per named query of :mod:`leishen.service.queries` (``stats``, ``resolve``, ``symbol_relations``, ``facts``,
  ``shortest_path``, ``relations_among``, ``relations_from``), typed as the registry types them; the id-taking
  ones say to call ``resolve`` first, and a node id that names no node is a tool error naming it;
- ``symbol`` and ``path`` (:mod:`leishen.service.lore`): relations and paths with their citations, by name;
- ``passage`` (a src ``doc:line`` → its text, read from the user's corpus folder at run time, and the facts citing
  it; also the resource template ``passage://{doc}/{line}``) and ``coverage``;
- ``chart``, ``read``, ``find`` and ``topics`` (:mod:`leishen.mcpserver.chart_tools`): ``read`` and ``find`` go
  through the readings door (:mod:`leishen.service.readings`) as the HTTP API does, ``find`` under the server
  limits (744 moments, 60 s); ``read`` answers compactly (:mod:`leishen.service.compact`: chart summary,
  judgments, tally, counts; the findings only when asked).

A tool answers with JSON (the CLI's ``--json`` values, or their compact form); a bad or unknown argument is a
tool error of one line naming it. Nothing here imports :mod:`leishen.api`.

On stdio every line gets an answer (:class:`GuardedServer`): a line that is not JSON-RPC is answered with a
JSON-RPC parse error (-32700, id null), and a message nested deeper than :data:`MAX_DEPTH` levels (arguments
nested 200 deep …) with an invalid-request error (-32600) naming the limit, with its id when it has one, before
it is parsed. At most ``LEISHEN_MAX_IN_FLIGHT`` tool calls run at once; one more is a tool error naming the
limit, at once.
"""

from __future__ import annotations

import json
import re
import threading

import anyio
import mcp_types as types
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from leishen import __version__, settings
from leishen.mcpserver.chart_tools import add_chart_tools
from leishen.mcpserver.lore_tools import add_corpus_tools, add_lore_tools, add_query_tool
from leishen.mcpserver.toolkit import LeishenServer, forbid_unknown_arguments
from leishen.service import lore, queries

#: the deepest nesting of objects and arrays a message may have (the arguments sit 3 levels down)
MAX_DEPTH = 64
#: a JSON string, or a bracket, colon or comma outside strings: what :func:`shape` walks
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[][{}:,]')

INSTRUCTIONS = (
    "leishen (類神): the cited correspondence graph of Da Liu Ren, Qimen Dunjia and the Nine Stars, and the "
    "readings of charts by traversal of it. Answer from the tools' cited rows (src = document:line), never from "
    "memory; follow a src with `passage`. Names: `symbol` and `path` take names; the id-taking queries "
    "(symbol_relations, facts, shortest_path, relations_among) need `resolve` first. Charts: `read` gives the "
    "judgments compactly (ask findings=true or ids=[…] for the findings), `topics` lists the topics, `find` "
    "searches a range of at most 744 moments.")


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
    """The JSON-RPC id (a number or a string) that starts at *start* in *line*, else None."""
    found = re.compile(r'\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")').match(line, start)
    return json.loads(found.group(1)) if found else None


def error_message(code: int, message: str, ident=None) -> SessionMessage:
    """A JSON-RPC error answer."""
    return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=ident,
                                             error=types.ErrorData(code=code, message=message)))


class GuardedServer(LeishenServer):
    """The leishen server on stdio, answering every line (see the module's docstring) and bounding the tool calls
    in flight (a per-instance semaphore of ``LEISHEN_MAX_IN_FLIGHT`` slots)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.max_in_flight = settings.max_in_flight()
        self.slots = threading.BoundedSemaphore(self.max_in_flight)

    async def call_tool(self, name, arguments, context=None):
        """Run the tool when a slot is free, else a tool error naming the limit (never a wait)."""
        if not self.slots.acquire(blocking=False):
            raise ToolError(f"busy: {self.max_in_flight} tool calls are already running, the most this server "
                            "runs at once (LEISHEN_MAX_IN_FLIGHT); try again in 1 s")
        try:
            return await super().call_tool(name, arguments, context)
        finally:
            self.slots.release()

    async def run_stdio_async(self) -> None:
        """Serve on stdio: this server reads the lines and checks each (:func:`admit`) before the SDK's session
        sees it; the SDK's transport only writes (its reader is given no input)."""
        done = anyio.Event()
        async with stdio_server(stdin=_NoInput(done)) as (_unused, write_stream):
            inbound, to_session = anyio.create_memory_object_stream[SessionMessage | Exception](0)
            async with anyio.create_task_group() as group:
                group.start_soon(_read_lines, inbound, write_stream)
                await self._lowlevel_server.run(to_session, write_stream,
                                                self._lowlevel_server.create_initialization_options())
                group.cancel_scope.cancel()
            done.set()


class _NoInput:
    """An input of no lines that ends when *done* is set (the SDK's transport reader waits on it)."""

    def __init__(self, done: anyio.Event):
        self.done = done

    def __aiter__(self):
        return self

    async def __anext__(self):
        await self.done.wait()
        raise StopAsyncIteration


async def _read_lines(inbound, write_stream) -> None:
    """Read stdin line by line until it closes; pass each admitted message on, answer each refused one."""
    import io
    import sys
    text = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")  # bad bytes: refused as JSON
    async with inbound:
        async for line in anyio.wrap_file(text):
            if line.strip():
                message = admit(line)
                await (write_stream if isinstance(message.message, types.JSONRPCError) else inbound).send(message)


def admit(line: str) -> SessionMessage:
    """The message of *line*, or the JSON-RPC error that answers it: too deep (-32600, naming MAX_DEPTH) or not a
    JSON-RPC message (-32700)."""
    deepest, ident = shape(line)
    if deepest > MAX_DEPTH:
        return error_message(types.INVALID_REQUEST, f"the message is nested {deepest} levels deep; at most "
                             f"{MAX_DEPTH} are taken (arguments nested that deep are refused)", ident)
    try:
        json.loads(line)
    except ValueError as exc:
        return error_message(types.PARSE_ERROR, f"parse error: the line is not JSON ({exc})", ident)
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except Exception:  # noqa: BLE001 — JSON that is no JSON-RPC message is answered, never dropped
        return error_message(types.INVALID_REQUEST, "invalid request: the line is JSON but not a JSON-RPC 2.0 "
                             "request, notification or response", ident)


def build_server(store, reader=None, corpus=None) -> LeishenServer:
    """The leishen MCP server over an open backend *store*, a readings *reader* over it (the disk-cached one
    ``leishen serve`` uses, when none is given) and the corpus folder *corpus* (None: the default one)."""
    from leishen.service.readings import served_reader
    server = GuardedServer("leishen", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")
    for name in queries.names():
        add_query_tool(server, store, name)
    add_lore_tools(server, store)
    add_corpus_tools(server, corpus)
    add_chart_tools(server, reader or served_reader(store, corpus))
    forbid_unknown_arguments(server)
    return server


def main(backend: str = "networkx", uri=None, user=None, password=None, corpus=None) -> None:
    """Serve on stdin/stdout until the client closes the pipe; a bad LEISHEN_* setting refuses to start (one line
    naming it on stderr, exit 2)."""
    import sys

    from leishen.errors import SettingError
    try:
        settings.check_all()
    except SettingError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    store = lore.open_store(backend, uri, user, password, corpus)
    try:
        build_server(store, corpus=corpus).run("stdio")
    finally:
        store.close()


if __name__ == "__main__":  # python -m leishen.mcpserver.server
    main()
