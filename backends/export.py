"""Export the graph for Gephi, Cytoscape and spreadsheets: GraphML, GEXF, node-link JSON, or two CSV tables.

What is exported is the graph of direct relations between symbols: every node but the reifying
``Fact`` and ``Passage`` nodes, and one edge per fact carrying its citations as edge attributes
(``relation`` = the relation type, ``label`` = the type with its Chinese term as Gephi and Cytoscape show
it, ``src`` = the ``doc:line`` list, ``fact``, ``zh``, ``variant``, ``note``, and ``qualifiers`` — the
literal ones and, for a symbol qualifier, its node id; in ``edges.csv`` the column ``type`` is
``Directed``, the edge kind Gephi's spreadsheet import reads there), and, as attributes of their own that Gephi
can filter by, the fact's ``topic``, ``system`` and ``citation``, with the relation's ``label_ko`` and
``label_en``.  Each node's ``label`` is its display name (``name``, what Gephi and Cytoscape show), made unique
with its type in brackets where names repeat (``太陰 (General)``), with ``label_ko`` and ``label_en`` alike, and
``type`` its label in the schema (``Branch``); a node no relation joins is left out.

Optionally only a symbol's neighbourhood, by the one definition ``leishen view`` draws
(:func:`symbol_neighbourhood`): the facts the ``symbol_relations`` named query gives for the symbol
(as subject, object or qualifier) and the nodes they join, then the same for each node reached, out to
``depth`` rounds.

GraphML cannot hold lists or maps: lists are joined with ``|`` and maps written as JSON there and in
CSV (and GEXF); node-link JSON keeps them as they are.  The writers are networkx's own (``write_graphml``,
``write_gexf``, ``node_link_data``) and the standard ``csv`` module.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import networkx as nx

from leishen.errors import LeishenError
from leishen.queries.catalog import HIDDEN_LABELS, REIFIED

FORMATS = ("graphml", "gexf", "json", "csv")
SEPARATOR = "|"
NODE_FIELDS = ("id", "label", "type", "key", "name", "ko", "en", "label_ko", "label_en", "aliases", "src")
NODE_ATTRS = ("key", "name", "ko", "en", "aliases", "src")
EDGE_FIELDS = ("source", "target", "type", "relation", "label", "zh", "src", "fact", "qualifiers", "variant", "note",
               "item", "topic", "system", "citation", "label_ko", "label_en", "source_name", "target_name")
EDGE_ATTRS = EDGE_FIELDS[3:17]
GEPHI_EDGE_TYPE = "Directed"  # Gephi's spreadsheet import reads an edge table's `type` as Directed/Undirected/Mixed


class ExportError(LeishenError):
    """An export that cannot be written (unknown format, unwritable place)."""


def _qualifiers(g: nx.MultiDiGraph, fact: str, literal: str) -> dict:
    """A fact's qualifiers: its literal ones, and each symbol qualifier as the node id it names."""
    quals = json.loads(literal or "{}")
    fact_node = f"Fact:{fact}"
    if fact_node in g:
        for _, target, data in g.out_edges(fact_node, data=True):
            if data["type"] == "QUALIFIER":
                quals[data["role"]] = target
    return quals


def node_attrs(attrs: dict) -> dict:
    """An exported node's attributes: ``label`` = its display name, ``type`` = its schema label, and the
    stored ``key``, ``name``, ``ko``, ``en``, ``aliases``, ``src``."""
    return {"label": attrs["name"], "type": attrs["label"], **{k: v for k, v in attrs.items() if k in NODE_ATTRS}}


def unique_labels(g: nx.MultiDiGraph) -> None:
    """Make every node's ``label`` (and its ``label_ko``, ``label_en``: the ko and en names) unique in *g*: a
    name several nodes share gets its type in brackets (太陰 (General), 太陰 (Deity)), and its key too where
    the type repeats as well (病 (Concept bing))."""
    for field, source in (("label", "label"), ("label_ko", "ko"), ("label_en", "en")):
        shown = {n: a.get(source) or a["label"] for n, a in g.nodes(data=True)}
        for rounds in (lambda n, a: f"{shown[n]} ({a['type']})", lambda n, a: f"{shown[n]} ({a['type']} {a['key']})"):
            counts = Counter(shown.values())
            shown = {n: rounds(n, a) if counts[shown[n]] > 1 else shown[n] for n, a in g.nodes(data=True)}
        counts = Counter(shown.values())
        shown = {n: f"{shown[n]} [{n}]" if counts[shown[n]] > 1 else shown[n] for n in g}
        for node, text in shown.items():
            g.nodes[node][field] = text


def system_docs() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(system, its documents) of each system of ``ontology/rules/vocabulary.toml``."""
    from leishen.loaders.conditions import vocabulary
    return tuple((name, tuple(system.get("docs", ()))) for name, system in vocabulary().systems.items())


def fact_system(fact: str, labels) -> str:
    """The system a fact belongs to: the one whose documents hold it (003 is Qimen's and the Nine Stars': the
    Nine Stars' when it joins a FlyingStar); the standard tables (std) are Liu Ren's."""
    doc = fact.split("/")[1] if fact.count("/") >= 2 else ""
    owners = [name for name, docs in system_docs() if doc in docs] or (["liuren"] if doc == "std" else [""])
    if len(owners) > 1:
        return "ninestar" if "FlyingStar" in labels and "ninestar" in owners else owners[0]
    return owners[0]


def relation_graph(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """The direct relations between symbols, citations and qualifiers on each edge, with the fact's ``topic``
    (zh name), ``system`` and ``citation`` (its src joined with ``|``) as attributes of their own and the
    relation's ko and en names (``label_ko``, ``label_en``); a node no relation joins is left out; node labels
    are unique (:func:`unique_labels`)."""
    from leishen.viz.words import relation_words
    out = nx.MultiDiGraph()
    for node, attrs in g.nodes(data=True):
        if attrs["label"] not in HIDDEN_LABELS:
            out.add_node(node, **node_attrs(attrs))
    words = relation_words({d["type"] for _, _, d in g.edges(data=True)})
    for u, v, key, data in g.edges(keys=True, data=True):
        if data["type"] in REIFIED or u not in out or v not in out:
            continue
        quals, fact = _qualifiers(g, key, data.get("qualifiers")), data.get("fact", key)
        topic = quals.get("topic", "")
        named = words.get(data["type"], {})
        out.add_edge(u, v, key, relation=data["type"], label=f"{data['type']} {data['zh']}".strip(), zh=data["zh"],
                     src=list(data.get("src", ())), fact=fact, qualifiers=quals,
                     variant=data.get("variant", ""), note=data.get("note", ""), item=data.get("item", ""),
                     topic=topic.partition(":")[2] if topic.startswith("Topic:") else topic,
                     system=fact_system(fact, {out.nodes[u]["type"], out.nodes[v]["type"]}),
                     citation=SEPARATOR.join(data.get("src", ())),
                     label_ko=named.get("ko", ""), label_en=named.get("en", ""))
    out.remove_nodes_from([n for n in list(out) if out.degree(n) == 0])
    unique_labels(out)
    return out


def symbol_neighbourhood(backend, centres: list[str], depth: int) -> tuple[set[str], set[str]]:
    """The node ids and fact ids within *depth* rounds of *centres*, as ``leishen view`` draws them: each
    round takes every ``symbol_relations`` row of the nodes the last round reached (a relation in or out,
    or a fact naming the node as a qualifier) and adds its fact and the nodes it joins."""
    if depth < 0:
        raise ExportError(f"--depth must be 0 or more, not {depth}")
    nodes, facts, frontier = set(centres), set(), list(centres)
    for _ in range(depth):
        reached = set()
        for node_id in frontier:
            for row in backend.run("symbol_relations", node_id=node_id):
                facts.add(row["fact"])
                reached |= {end["id"] for end in (row["other"], row["via"]) if end is not None}
        frontier = sorted(reached - nodes)
        nodes |= reached
    return nodes, facts


def neighbourhood(relations: nx.MultiDiGraph, nodes: set[str], facts: set[str]) -> nx.MultiDiGraph:
    """The part of the relation graph *relations* made of *nodes* and the edges of *facts*."""
    out = nx.MultiDiGraph()
    out.add_nodes_from((n, relations.nodes[n]) for n in sorted(nodes) if n in relations)
    out.add_edges_from((u, v, k, d) for u, v, k, d in relations.edges(keys=True, data=True) if d["fact"] in facts)
    return out


def _flat(value):
    """A value GraphML and CSV can hold: lists joined with ``|``, maps as JSON, None as empty."""
    if isinstance(value, (list, tuple)):
        return SEPARATOR.join(str(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return "" if value is None else value


def _flattened(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    flat = nx.MultiDiGraph()
    flat.add_nodes_from((n, {k: _flat(v) for k, v in a.items()}) for n, a in g.nodes(data=True))
    flat.add_edges_from((u, v, k, {a: _flat(x) for a, x in d.items()}) for u, v, k, d in g.edges(keys=True, data=True))
    return flat


def node_rows(g: nx.MultiDiGraph) -> list[dict]:
    return [{"id": n, **{k: _flat(a.get(k)) for k in NODE_FIELDS if k != "id"}} for n, a in sorted(g.nodes(data=True))]


def edge_rows(g: nx.MultiDiGraph) -> list[dict]:
    rows = [{"source": u, "target": v, "type": GEPHI_EDGE_TYPE, **{k: _flat(d.get(k)) for k in EDGE_ATTRS},
             "source_name": g.nodes[u].get("name", ""), "target_name": g.nodes[v].get("name", "")}
            for u, v, d in g.edges(data=True)]
    return sorted(rows, key=lambda r: (r["fact"], r["source"], r["target"]))


def write_csv(g: nx.MultiDiGraph, folder: Path) -> list[Path]:
    """``nodes.csv`` and ``edges.csv`` in *folder* (created when missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, fields, rows in (("nodes.csv", NODE_FIELDS, node_rows(g)), ("edges.csv", EDGE_FIELDS, edge_rows(g))):
        path = folder / name
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=fields)
            writer.writeheader()
            writer.writerows(rows)
        written.append(path)
    return written


def write(g: nx.MultiDiGraph, fmt: str, out: Path) -> list[Path]:
    """Write *g* as *fmt* to *out* (a file; for ``csv`` a folder); the paths written."""
    if fmt not in FORMATS:
        raise ExportError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    try:
        if fmt == "csv":
            return write_csv(g, out)
        if fmt == "graphml":
            nx.write_graphml(_flattened(g), out, encoding="utf-8")
        elif fmt == "gexf":
            nx.write_gexf(_flattened(g), out, encoding="utf-8")
        else:
            out.write_text(json.dumps(nx.node_link_data(g, edges="edges"), ensure_ascii=False, indent=1), encoding="utf-8")
    except OSError as exc:
        raise ExportError(f"{out}: cannot be written ({exc.strerror})") from exc
    return [out]


def to_text(g: nx.MultiDiGraph, fmt: str) -> str:
    """*g* as text in *fmt* (for stdout; ``csv`` gives the edges table only)."""
    if fmt == "graphml":
        return "\n".join(nx.generate_graphml(_flattened(g)))
    if fmt == "gexf":
        return "\n".join(nx.generate_gexf(_flattened(g)))
    if fmt == "json":
        return json.dumps(nx.node_link_data(g, edges="edges"), ensure_ascii=False, indent=1)
    if fmt == "csv":
        import io

        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=EDGE_FIELDS)
        writer.writeheader()
        writer.writerows(edge_rows(g))
        return buffer.getvalue()
    raise ExportError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
