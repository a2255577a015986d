"""The MCP server (official ``mcp`` SDK, stdio): read-only tools over the graph, the charts and the readings.

Tools (every one read-only and idempotent, each with a JSON schema for its arguments):

- one per named query of :mod:`leishen.service.queries` (``stats``, ``resolve``, ``symbol_relations``,
  ``facts``, ``shortest_path``, ``relations_among``), typed as the registry types them;
- ``symbol`` and ``path`` (:mod:`leishen.service.lore`: relations and paths with their citations);
- ``chart``, ``read`` and ``find`` (:mod:`leishen.service.charts`, :mod:`leishen.readings`).

A tool answers with the JSON the CLI prints with ``--json``; a bad argument is a tool error naming it.
"""

from __future__ import annotations

import functools
import inspect
from itertools import islice
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import BaseModel, Field

from leishen import __version__
from leishen.api.models import ChartQuery, FindQuery, ReadingQuery
from leishen.errors import LeishenError
from leishen.readings import Reader
from leishen.readings.search import find as find_moments, range_ends
from leishen.service import lore, queries

SymbolName = Annotated[str, Field(min_length=1, max_length=200,
                                  description="a name, alias, ko or en reading, or Label:name (e.g. 子, 神后, General:liu_he)")]
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
INSTRUCTIONS = ("leishen (類神): the cited correspondence graph of Da Liu Ren, Qimen Dunjia and the Nine Stars. "
                "Answer from the tools' cited rows (src = document:line), never from memory.")


def tool_errors(fn):
    """Turn a LeishenError (bad input) into a ToolError, whose one-line message the client sees;
    anything else stays a crash, logged by the server."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except LeishenError as exc:
            raise ToolError(str(exc).strip().splitlines()[0]) from exc
    return wrapper


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
    server.add_tool(tool_errors(tool), name=name, description=f"Named query {name}: {queries.describe(name)['description']}.",
                    annotations=READ_ONLY)


def add_lore_tools(server: MCPServer, store) -> None:
    """``symbol`` and ``path``: relations and paths with their citations."""
    def symbol(name: SymbolName, types: list[str] | None = None) -> dict[str, Any]:
        """A symbol and all its relations, each with its citations (only the relation types given, when any)."""
        return lore.symbol(store, name, types)

    def path(source: SymbolName, target: SymbolName, types: list[str] | None = None) -> dict[str, Any]:
        """The shortest typed path between two symbols, each hop with its relations and citations."""
        return lore.path(store, source, target, types)

    for fn in (symbol, path):
        server.add_tool(tool_errors(fn), annotations=READ_ONLY)


def _model_signature(model: type[BaseModel], returns) -> inspect.Signature:
    """A keyword-only signature with one parameter per field of *model* (its types, bounds and defaults)."""
    out = []
    for name, info in model.model_fields.items():
        default = inspect.Parameter.empty if info.is_required() else info.default
        if info.default_factory is not None:
            default = info.default_factory()
        out.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                     annotation=Annotated[info.annotation, *info.metadata,
                                                          Field(description=info.description)]))
    return inspect.Signature(out, return_annotation=returns)


def _model_tool(server: MCPServer, name: str, model: type[BaseModel], run, description: str) -> None:
    """A tool whose arguments are the fields of *model*; *run* gets the validated model."""
    def tool(**values):
        return run(model(**values))

    tool.__signature__ = _model_signature(model, inspect.signature(run, eval_str=True).return_annotation)
    tool.__name__ = name
    server.add_tool(tool_errors(tool), name=name, description=description, annotations=READ_ONLY)


def add_chart_tools(server: MCPServer, reader) -> None:
    """``chart``, ``read`` and ``find``: the chart of a moment, its reading, the moments a rule holds."""
    def chart(query: ChartQuery) -> dict[str, Any]:
        return query.chart()

    def read(query: ReadingQuery) -> dict[str, Any]:
        return reader.read(chart(query), topic=query.topic)

    def find(query: FindQuery) -> list[dict[str, Any]]:
        start, end = range_ends(query.start, query.end, query.tz)
        return list(islice(find_moments(reader, query.rule, start, end, step=query.step, topic=query.topic),
                           query.limit))

    _model_tool(server, "chart", ChartQuery, chart,
                "The chart of a moment (Da Liu Ren, Qimen Dunjia, Nine Stars) with every school option.")
    _model_tool(server, "read", ReadingQuery, read,
                "The reading of a moment's chart: every rule it meets, with the path through the graph and the "
                "citations (src = document:line) of each finding.")
    _model_tool(server, "find", FindQuery, find,
                "The moments from start to end (inclusive) where a rule holds.")


def build_server(store, reader=None) -> MCPServer:
    """The leishen MCP server over an open backend *store* (and a readings Reader over it)."""
    server = MCPServer("leishen", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")
    for name in queries.names():
        add_query_tool(server, store, name)
    add_lore_tools(server, store)
    add_chart_tools(server, reader or Reader(store))
    forbid_unknown_arguments(server)
    return server


def forbid_unknown_arguments(server: MCPServer) -> None:
    """Make every tool refuse an argument it does not take (a tool error naming it), as the HTTP API refuses
    an unknown parameter: the SDK's argument models ignore extra keys, so each is replaced by a subclass that
    forbids them, and the input schema says so (``additionalProperties: false``). This reaches the pinned
    SDK's tool registry (``_tool_manager``); tests/mcp prove it still does."""
    for tool in server._tool_manager.list_tools():
        loose = tool.fn_metadata.arg_model
        strict = type(f"Strict{loose.__name__}", (loose,), {"model_config": {**loose.model_config, "extra": "forbid"}})
        tool.fn_metadata.arg_model = strict
        tool.parameters["additionalProperties"] = False


def main(backend: str = "networkx", uri=None, user=None, password=None, corpus=None) -> None:
    """Serve on stdin/stdout until the client closes the pipe."""
    store = lore.open_store(backend, uri, user, password, corpus)
    try:
        build_server(store, Reader(store, corpus)).run("stdio")
    finally:
        store.close()


if __name__ == "__main__":  # python -m leishen.mcpserver.server
    main()
