"""The schema overview page: node labels and relation types with their counts (``stats``)."""

from __future__ import annotations

import math

from leishen.loaders.schema import ANY, load_schema
from leishen.viz.hover import Passages
from leishen.viz.offline import page_html
from leishen.viz.pagegraph import PageGraph
from leishen.viz.style import QUALIFIER, label_colour

ANY_NODE = "label:*"
UNUSED = "#e0e0e0"


def _size(count: int) -> float:
    return 10 + 6 * math.log10(1 + count)


def label_node(name: str, zh: str, ko: str, en: str, count: int) -> dict:
    return {"label": f"{name}\n{zh} {count}", "title": f"label {name}\n{zh} · {ko} · {en}\n{count} nodes",
            "color": label_colour(name) if count else UNUSED, "shape": "dot", "size": _size(count), "kind": "label"}


def relation_node(rel, count: int) -> dict:
    return {"label": f"{rel.name}\n{rel.zh} {count}",
            "title": f"relation {rel.name}\n{rel.zh} · {rel.ko} · {rel.en}\n{count} relations"
                     + ("\nsymmetric" if rel.symmetric else ""),
            "color": "#ffffff" if count else UNUSED, "shape": "diamond", "size": _size(count) * 0.7, "kind": "relation",
            "font": {"size": 12}}


def schema_graph(backend) -> PageGraph:
    """Label nodes and relation-type nodes, each relation type linked from its subject labels and
    to its object labels (``*`` = any label); counts from the ``stats`` named query."""
    counts = backend.run("stats")[0]
    schema = load_schema()
    graph = PageGraph(Passages(False))
    for name, lab in sorted(schema.labels.items()):
        graph.add_node(f"label:{name}", **label_node(name, lab.zh, lab.ko, lab.en, counts["nodes"].get(name, 0)))
    for name, rel in sorted(schema.relations.items()):
        node = f"rel:{name}"
        graph.add_node(node, **relation_node(rel, counts["relations"].get(name, 0)))
        for label in rel.subject:
            graph.add_edge(_label_id(graph, label), node, "subject", label="", colour=QUALIFIER, width=1)
        for label in rel.object:
            graph.add_edge(node, _label_id(graph, label), "object", label="", colour=label_colour("Branch"), width=1)
    return graph


def _label_id(graph: PageGraph, label: str) -> str:
    if label == ANY:
        graph.add_node(ANY_NODE, label="* any label", title="any label", color="#fafafa", shape="box", kind="label")
        return ANY_NODE
    return f"label:{label}"


def schema_page(backend) -> str:
    """The HTML page of the schema: labels (dots, sized by node count) and relation types
    (diamonds, with their counts) between the labels they connect."""
    graph = schema_graph(backend)
    row = backend.run("stats")[0]
    note = (f"{len(row['nodes'])} labels in use · {sum(row['nodes'].values())} nodes · "
            f"{len(row['relations'])} relation types in use · {sum(row['relations'].values())} relations")
    return page_html(graph.network(), title="leishen schema 圖式", note=note,
                     legend=[("#ffffff", "◇ relation type"), (label_colour("Branch"), "● label"), (UNUSED, "unused")])
