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
"""

from __future__ import annotations

from leishen import __version__
from leishen.mcpserver.chart_tools import add_chart_tools
from leishen.mcpserver.lore_tools import add_corpus_tools, add_lore_tools, add_query_tool
from leishen.mcpserver.toolkit import LeishenServer, forbid_unknown_arguments
from leishen.service import lore, queries

INSTRUCTIONS = (
    "leishen (類神): the cited correspondence graph of Da Liu Ren, Qimen Dunjia and the Nine Stars, and the "
    "readings of charts by traversal of it. Answer from the tools' cited rows (src = document:line), never from "
    "memory; follow a src with `passage`. Names: `symbol` and `path` take names; the id-taking queries "
    "(symbol_relations, facts, shortest_path, relations_among) need `resolve` first. Charts: `read` gives the "
    "judgments compactly (ask findings=true or ids=[…] for the findings), `topics` lists the topics, `find` "
    "searches a range of at most 744 moments.")


def build_server(store, reader=None, corpus=None) -> LeishenServer:
    """The leishen MCP server over an open backend *store*, a readings *reader* over it (the disk-cached one
    ``leishen serve`` uses, when none is given) and the corpus folder *corpus* (None: the default one)."""
    from leishen.service.readings import served_reader
    server = LeishenServer("leishen", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")
    for name in queries.names():
        add_query_tool(server, store, name)
    add_lore_tools(server, store)
    add_corpus_tools(server, corpus)
    add_chart_tools(server, reader or served_reader(store, corpus))
    forbid_unknown_arguments(server)
    return server


def main(backend: str = "networkx", uri=None, user=None, password=None, corpus=None) -> None:
    """Serve on stdin/stdout until the client closes the pipe."""
    store = lore.open_store(backend, uri, user, password, corpus)
    try:
        build_server(store, corpus=corpus).run("stdio")
    finally:
        store.close()


if __name__ == "__main__":  # python -m leishen.mcpserver.server
    main()
