"""The MCP server (official ``mcp`` SDK, stdio): read-only tools over the graph, the charts and the readings.

Tools (every one read-only and idempotent, each with a JSON schema for its arguments):

- one per named query of :mod:`leishen.service.queries` (``stats``, ``resolve``, ``symbol_relations``,
  ``facts``, ``shortest_path``, ``relations_among``), typed as the registry types them;
- ``symbol`` and ``path`` (:mod:`leishen.service.lore`: relations and paths with their citations);
- ``chart``, ``read`` and ``find`` (:mod:`leishen.service.charts`, :mod:`leishen.readings`).

A tool answers with the JSON the CLI prints with ``--json``; a bad argument is a tool error naming it.
"""

from __future__ import annotations

import inspect
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp_types import ToolAnnotations
from pydantic import Field

from leishen import __version__
from leishen.service import lore, queries

READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)
INSTRUCTIONS = ("leishen (類神): the cited correspondence graph of Da Liu Ren, Qimen Dunjia and the Nine Stars. "
                "Answer from the tools' cited rows (src = document:line), never from memory.")


def _signature(params: tuple[queries.Param, ...]) -> inspect.Signature:
    """A keyword-only signature the SDK turns into the tool's input schema."""
    out = []
    for p in params:
        kind, info = p.field()
        default = inspect.Parameter.empty if p.required else None
        out.append(inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                     annotation=Annotated[kind, Field(description=p.description)]))
    return inspect.Signature(out, return_annotation=dict[str, Any])


def add_query_tool(server: MCPServer, store, name: str) -> None:
    """The named query *name* as a tool with the registry's typed parameters."""
    def tool(**values) -> dict[str, Any]:
        return queries.run_query(store, name, values)

    tool.__signature__ = _signature(queries.spec(name))
    tool.__name__ = name
    server.add_tool(tool, name=name, description=f"Named query {name}: {queries.describe(name)['description']}.",
                    annotations=READ_ONLY)


def add_lore_tools(server: MCPServer, store) -> None:
    """``symbol`` and ``path``: relations and paths with their citations."""
    Name = Annotated[str, Field(min_length=1, max_length=200,
                                description="a name, alias, ko or en reading, or Label:name (e.g. 子, 神后, General:liu_he)")]

    def symbol(name: Name, types: list[str] | None = None) -> dict[str, Any]:
        """A symbol and all its relations, each with its citations (only the relation types given, when any)."""
        return lore.symbol(store, name, types)

    def path(source: Name, target: Name, types: list[str] | None = None) -> dict[str, Any]:
        """The shortest typed path between two symbols, each hop with its relations and citations."""
        return lore.path(store, source, target, types)

    for fn in (symbol, path):
        server.add_tool(fn, annotations=READ_ONLY)


def build_server(store) -> MCPServer:
    """The leishen MCP server over an open backend *store*."""
    server = MCPServer("leishen", version=__version__, instructions=INSTRUCTIONS)
    for name in queries.names():
        add_query_tool(server, store, name)
    add_lore_tools(server, store)
    return server


def main(backend: str = "networkx", uri=None, user=None, password=None, corpus=None) -> None:
    """Serve on stdin/stdout until the client closes the pipe."""
    store = lore.open_store(backend, uri, user, password, corpus)
    try:
        build_server(store).run("stdio")
    finally:
        store.close()


if __name__ == "__main__":  # python -m leishen.mcpserver.server
    main()
