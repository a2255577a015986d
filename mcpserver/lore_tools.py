"""The graph tools of the MCP server: the named queries, ``symbol`` and ``path`` (:mod:`leishen.service.lore`),
``passage`` and the ``passage://{doc}/{line}`` resources (the text read from the user's corpus folder at run time,
never stored), and ``coverage``."""

from __future__ import annotations

import inspect
import json
import re
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from pydantic import Field

from leishen.errors import CitationError, LeishenError, UnknownSymbolError
from leishen.loaders.corpus import DOCS
from leishen.mcpserver.toolkit import add, one_line, signature
from leishen.service import lore, queries
from leishen.service.compact import compact_fact
from leishen.service.queries import RelationType

SymbolName = Annotated[str, Field(min_length=1, max_length=200)]
NAME_HELP = "a name, alias, ko or en reading, or Label:name (e.g. 子, 神后, 六合, General:liu_he)"
TYPES_HELP = "only relations of these types (e.g. CLASHES, COMBINES; `stats` lists them); left out: every type"
NODE_ID_HINT = "Takes node ids (Label:key, e.g. Branch:zi): call `resolve` first to turn a name into its id."
#: what the MCP tool of a named query adds to the registry's description
HINTS = {
    "resolve": "Call this first to turn a name (子, 神后, 六合, a ko or en reading) into node ids for the "
               "id-taking tools (symbol_relations, facts, shortest_path, relations_among); ambiguous names "
               "give several rows.",
    "symbol_relations": "The raw relation rows of ONE node id; for a name, with the other ends and citations, "
                        "call `symbol` instead (it resolves the name itself). " + NODE_ID_HINT,
    "facts": "Every fact in the export shape; give doc and/or node_id to narrow it (all facts are large). "
             + NODE_ID_HINT,
    "shortest_path": "Node ids only; `path` takes names and adds each hop's citations. " + NODE_ID_HINT,
    "relations_among": NODE_ID_HINT,
    "relations_from": NODE_ID_HINT,
}


def check_nodes(store, values: dict) -> None:
    """UnknownSymbolError naming the parameter and the first node id given that names no node
    (:func:`leishen.service.queries.check_node_ids`)."""
    queries.check_node_ids(store, values, "call resolve to find a node's id")


def add_query_tool(server: MCPServer, store, name: str) -> None:
    """The named query *name* as a tool with the registry's typed parameters; a node id that names no node is a
    tool error naming it (the query itself would answer no rows)."""
    def tool(**values) -> dict[str, Any]:
        checked = queries.validate(name, values)
        check_nodes(store, checked)
        return queries.run_query(store, name, values)

    tool.__signature__ = signature(
        [(p.name, p.field()[0], inspect.Parameter.empty if p.required else None, p.description)
         for p in queries.spec(name)])
    hint = HINTS.get(name, "")
    add(server, tool, name, f"Named query {name}: {queries.describe(name)['description']}. {hint}".strip())


def add_lore_tools(server: MCPServer, store) -> None:
    """``symbol`` and ``path``: relations and paths with their citations, by name."""
    def symbol(name: Annotated[SymbolName, Field(description=NAME_HELP)],
               types: Annotated[list[RelationType] | None, Field(description=TYPES_HELP)] = None) -> dict[str, Any]:
        return lore.symbol(store, name, types)

    def path(source: Annotated[SymbolName, Field(description="where the path starts: " + NAME_HELP)],
             target: Annotated[SymbolName, Field(description="where the path ends: " + NAME_HELP)],
             types: Annotated[list[RelationType] | None, Field(description=TYPES_HELP)] = None) -> dict[str, Any]:
        return lore.path(store, source, target, types)

    add(server, symbol, "symbol", "A symbol BY NAME (no resolve needed) and all its relations, each with the "
        "other end and its citations (src = document:line), self-loops last; only the relation types given, when "
        "any. A name that denotes several nodes gives one match each. (`symbol_relations` is the raw rows of one "
        "node id.)")
    add(server, path, "path", "The shortest typed path between two symbols BY NAME (no resolve needed), each hop "
        "with its relations and citations; length null when they are not connected. (`shortest_path` takes node "
        "ids and gives the bare path.)")


def passage_of(doc: str, line: int, corpus=None) -> dict:
    """The passage *doc*:*line* read from the corpus folder, with every fact citing it (one short row each);
    CitationError naming the argument when there is no corpus folder or no Classical Chinese paragraph there."""
    found = lore.require_corpus(corpus)
    if doc not in DOCS:
        raise CitationError(f"doc: {doc!r} is not one of {', '.join(DOCS)}")
    try:
        out = lore.passage(f"{doc}:{line}", found.folder)
    except CitationError as exc:
        raise CitationError(f"line: {one_line(exc)}") from None
    return {**out, "facts": [compact_fact(f) for f in out["facts"]]}


def passage_place(src: str | None, doc: str | None, line: int | None) -> tuple[str, int]:
    """The (doc, line) a passage call names: from *src* ("003:51"), else from *doc* and *line*; CitationError
    naming the argument when src is not doc:line, disagrees with doc or line, or neither is given."""
    if src is None:
        if doc is None or line is None:
            raise CitationError(f"{'doc' if doc is None else 'line'}: give src (e.g. 003:51), or doc and line")
        return doc, line
    found = re.fullmatch(r"\s*(\d{3})\s*:\s*(\d+)\s*", src)
    if not found:
        raise CitationError(f"src: {src!r} is not doc:line (e.g. 003:51; doc one of {', '.join(DOCS)})")
    if (doc is not None and doc != found[1]) or (line is not None and line != int(found[2])):
        raise CitationError(f"src: {src!r} names another passage than doc and line; give one or the other")
    return found[1], int(found[2])


def add_corpus_tools(server: MCPServer, corpus=None) -> None:
    """``passage`` (and the ``passage://{doc}/{line}`` resources) and ``coverage``."""
    def passage(src: Annotated[str | None, Field(min_length=3, max_length=40, description="a citation as a reading "
                                                   "gives it, doc:line (e.g. 003:51); or give doc and line")] = None,
                doc: Annotated[Literal[DOCS] | None, Field(description="the document of a src (the part before "
                                                                   "the colon: 002 in 002:151)")] = None,
                line: Annotated[int | None, Field(ge=1, le=10_000_000, description="the line of a src (the part "
                                                  "after the colon: 151 in 002:151)")] = None) -> dict[str, Any]:
        doc, line = passage_place(src, doc, line)
        return passage_of(doc, line, corpus)

    def coverage(rules: Annotated[bool, Field(description="false: how much of the inventory's facts the graph "
                                              "holds, per section and document; true: how many rule facts have "
                                              "structured conditions, per document")] = False) -> dict[str, Any]:
        return lore.rule_coverage() if rules else lore.coverage(corpus)

    add(server, passage, "passage", "Follow a citation: the passage at src doc:line (give src as a reading hands it "
        "out, e.g. {\"src\": \"003:51\"}, or doc and line), its Classical Chinese text and the Korean translation "
        "beside it (ko), read from the user's corpus folder (never stored in leishen), with every fact citing it. "
        "The same answer is the resource passage://{doc}/{line}.")
    add(server, coverage, "coverage", "How much of the texts the graph holds (leishen coverage --json), or with "
        "rules=true how many rule facts are structured (leishen coverage --rules --json).")

    @server.resource("passage://{doc}/{line}", name="passage", mime_type="application/json",
                     description="The passage at src doc:line (e.g. passage://002/151 for 002:151): its text read "
                                 "from the corpus folder and the facts citing it, as the passage tool answers.")
    def passage_resource(doc: str, line: str) -> str:
        if not line.isdigit() or int(line) < 1:
            raise ResourceError(f"line: {line!r} is not a line number (1 or more)")
        try:
            return json.dumps(passage_of(doc, int(line), corpus), ensure_ascii=False)
        except LeishenError as exc:
            raise ResourceError(one_line(exc)) from exc
