"""A symbol's neighbourhood page, drawn from the ``resolve`` and ``symbol_relations`` named queries."""

from __future__ import annotations

from leishen.service.lore import resolve_symbol
from leishen.viz.hover import Passages
from leishen.viz.offline import page_html
from leishen.viz.pagegraph import PageGraph
from leishen.viz.style import QUALIFIER, label_colour, label_shape

MAX_NODES = 400


def end_node(end: dict, *, centre: bool = False) -> dict:
    """pyvis attributes of a relation end ``{"id","label","key","name"}``."""
    title = f"{end['label']} {end['name']}\n{end['id']}"
    if centre and end.get("en"):
        title += f"\n{end.get('ko', '')}; {end['en']}"
    return {"label": end["name"], "title": title, "color": label_colour(end["label"]),
            "shape": label_shape(end["label"]), "size": 30 if centre else 14,
            "borderWidth": 3 if centre else 1, "kind": end["label"]}


def row_ends(node_id: str, row: dict) -> tuple[str, str]:
    """The subject and object ids of the relation a ``symbol_relations`` row of *node_id* stands for."""
    if row["direction"] == "out":
        return node_id, row["other"]["id"]
    if row["direction"] == "in":
        return row["other"]["id"], node_id
    return row["other"]["id"], row["via"]["id"]


def add_row(graph: PageGraph, node_id: str, row: dict, show_facts: bool) -> None:
    """Draw one ``symbol_relations`` row: the relation, a dashed qualifier edge, and (when asked)
    the Fact node with its SUBJECT/OBJECT/QUALIFIER/CITES edges and the cited Passage nodes."""
    subject, obj = row_ends(node_id, row)
    part = {k: row.get(k) for k in ("src", "variant", "note", "qualifiers", "fact")}
    graph.add_edge(subject, obj, row["type"], zh=row["zh"], part=part, colour=label_colour(graph.nodes[subject]["kind"]))
    if row["direction"] == "qualifier":
        graph.add_edge(node_id, subject, f"QUALIFIER:{row['role']}", label=row["role"], zh=f"as {row['role']} of {row['type']}",
                       part=part, colour=QUALIFIER, dashes=True, width=1)
    if not show_facts:
        return
    fact = f"Fact:{row['fact']}"
    graph.add_node(fact, label=f"{row['zh'] or row['type']}", title=f"Fact {row['fact']}\n{row['type']}",
                   color=label_colour("Fact"), shape=label_shape("Fact"), size=8, kind="Fact")
    graph.add_edge(fact, subject, "SUBJECT", colour=QUALIFIER, width=1)
    graph.add_edge(fact, obj, "OBJECT", colour=QUALIFIER, width=1)
    if row["direction"] == "qualifier":
        graph.add_edge(fact, node_id, "QUALIFIER", label=row["role"], colour=QUALIFIER, width=1, dashes=True)
    for src in row["src"] or ():
        passage = f"Passage:{src}"
        text = graph.passages.text(src)
        graph.add_node(passage, label=src, title=f"{src}\n{text}" if text else src, color=label_colour("Passage"),
                       shape=label_shape("Passage"), kind="Passage")
        graph.add_edge(fact, passage, "CITES", colour=QUALIFIER, width=1)


def fits(graph: PageGraph, node_id: str, row: dict, max_nodes: int) -> bool:
    """Whether a row's ends are drawn already or there is still room for them."""
    subject, obj = row_ends(node_id, row)
    new = {subject, obj} - graph.nodes.keys()
    return len(graph.nodes) + len(new) <= max_nodes


def symbol_graph(backend, name: str, *, depth: int = 1, show_facts: bool = False,
                 max_nodes: int = MAX_NODES, corpus=None) -> tuple[PageGraph, list[dict], bool]:
    """The neighbourhood of the nodes *name* denotes, out to *depth* relations; the centres; and
    whether it was cut at *max_nodes*."""
    centres = resolve_symbol(backend, name)
    graph = PageGraph(Passages(corpus))
    for centre in centres:
        graph.add_node(centre["id"], **end_node(centre, centre=True))
    frontier, cut = [c["id"] for c in centres], False
    for _ in range(depth):
        before = set(graph.nodes)
        for node_id in frontier:
            for row in backend.run("symbol_relations", node_id=node_id):
                if not fits(graph, node_id, row, max_nodes):
                    cut = True
                    continue
                for end in (row["other"], row["via"]):
                    if end is not None:
                        graph.add_node(end["id"], **end_node(end))
                add_row(graph, node_id, row, show_facts)
        frontier = [n for n in graph.nodes if n not in before and graph.nodes[n]["kind"] not in ("Fact", "Passage")]
    return graph, centres, cut


def symbol_page(backend, name: str, *, depth: int = 1, show_facts: bool = False,
                max_nodes: int = MAX_NODES, corpus=None) -> str:
    """The HTML page of a symbol's neighbourhood: colour by label, relation type on each edge,
    citations (and passages, when the corpus is found) on hover; Fact and Passage nodes only when
    *show_facts*."""
    graph, centres, cut = symbol_graph(backend, name, depth=depth, show_facts=show_facts,
                                       max_nodes=max_nodes, corpus=corpus)
    note = f"{len(graph.nodes)} nodes · {len(graph.edges)} edges · depth {depth}"
    if cut:
        note += f" · cut at {max_nodes} nodes"
    labels = sorted({attrs["kind"] for attrs in graph.nodes.values()})
    title = " / ".join(f"{c['label']} {c['name']}" for c in centres)
    return page_html(graph.network(), title=title, note=note,
                     legend=[(label_colour(label), label) for label in labels])

