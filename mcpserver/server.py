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

On stdio every line gets an answer (:class:`GuardedServer`, :mod:`leishen.mcpserver.wire`): a line that is not
UTF-8 or not JSON-RPC is answered with a JSON-RPC parse error (-32700; -32600 for JSON that is no JSON-RPC
message), and a message nested deeper than :data:`~leishen.mcpserver.wire.MAX_DEPTH` levels (arguments nested
200 deep …) with an invalid-request error (-32600) naming the limit, with its id when it has one, before it is
parsed. When stdin closes, the requests already read are answered before the server exits (it waits at most
:data:`~leishen.mcpserver.wire.END_OF_INPUT_WAIT` seconds for them). At most ``LEISHEN_MAX_IN_FLIGHT`` tool calls
run at once; one more is a tool error naming the limit, at once.
"""

from __future__ import annotations

import threading

import anyio
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from leishen import __version__, settings
from leishen.mcpserver.chart_tools import add_chart_tools
from leishen.mcpserver.lore_tools import add_corpus_tools, add_lore_tools, add_query_tool
from leishen.mcpserver.toolkit import LeishenServer, forbid_unknown_arguments
from leishen.mcpserver.wire import Answers, NoInput, read_lines
from leishen.service import lore, queries

INSTRUCTIONS = (
    "leishen (類神): the cited correspondence graph of Da Liu Ren, Qimen Dunjia and the Nine Stars, and the "
    "readings of charts by traversal of it. Answer from the tools' cited rows (src = document:line), never from "
    "memory; follow a src with `passage`. Names: `symbol` and `path` take names; the id-taking queries "
    "(symbol_relations, facts, shortest_path, relations_among) need `resolve` first. Charts: `read` gives the "
    "judgments compactly (ask findings=true or ids=[…] for the findings), `topics` lists the topics, `find` "
    "searches a range of at most 744 moments.")


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
        """Serve on stdio: this server reads the lines and checks each (:func:`~leishen.mcpserver.wire.admit`)
        before the SDK's session sees it, and ends the session's input only once the requests read are answered
        (:func:`~leishen.mcpserver.wire.read_lines`); the SDK's transport only writes (its reader is given no
        input), its answers counted on their way (:class:`~leishen.mcpserver.wire.Answers`)."""
        done = anyio.Event()
        async with stdio_server(stdin=NoInput(done)) as (_unused, write_stream):
            answers = Answers(write_stream)
            inbound, to_session = anyio.create_memory_object_stream[SessionMessage | Exception](0)
            async with anyio.create_task_group() as group:
                group.start_soon(read_lines, inbound, answers)
                await self._lowlevel_server.run(to_session, answers,
                                                self._lowlevel_server.create_initialization_options())
                group.cancel_scope.cancel()
            done.set()


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
    """Serve on stdin/stdout until the client closes the pipe and the requests read are answered; a bad
    LEISHEN_* setting refuses to start (one line naming it on stderr, exit 2)."""
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
