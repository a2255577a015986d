"""The NetworkX twin of every named query (see :mod:`leishen.queries.catalog` for row shapes)."""

from __future__ import annotations

import json
from collections import Counter
from itertools import islice

import networkx as nx

from leishen.queries.catalog import HIDDEN_LABELS, REIFIED
from leishen.queries.reading_traversal import READING_TRAVERSALS


def end(g: nx.MultiDiGraph, node_id: str) -> dict:
    """The short description of a node used in every row."""
    a = g.nodes[node_id]
    return {"id": node_id, "label": a["label"], "key": a["key"], "name": a["name"]}


def _opt(value):
    return value or None


def stats(g: nx.MultiDiGraph) -> list[dict]:
    nodes = Counter(a["label"] for _, a in g.nodes(data=True))
    rels = Counter(t for _, _, t in g.edges(data="type"))
    return [{"nodes": dict(sorted(nodes.items())), "relations": dict(sorted(rels.items()))}]


def _tier(a: dict, q: str) -> int:
    if q == a["name"] or q in a.get("aliases", ()):
        return 0
    return 1 if q == a["ko"] else 2


def resolve(g: nx.MultiDiGraph, q: str) -> list[dict]:
    rows = [{**end(g, n), "ko": a["ko"], "en": a["en"], "tier": _tier(a, q)} for n, a in g.nodes(data=True)
            if a["label"] not in HIDDEN_LABELS and q in a.get("lookup", ())]
    return sorted(rows, key=lambda r: (r["tier"], r["id"]))


def _rel_row(g, direction, other, data, via=None, role=None) -> dict:
    return {"direction": direction, "type": data["type"], "zh": data["zh"], "other": end(g, other),
            "via": end(g, via) if via else None, "role": role, "src": list(data["src"]),
            "variant": _opt(data["variant"]), "note": _opt(data["note"]),
            "qualifiers": json.loads(data["qualifiers"]), "fact": data["fact"]}


def symbol_relations(g: nx.MultiDiGraph, node_id: str) -> list[dict]:
    rows = []
    for _, dst, data in g.out_edges(node_id, data=True):
        if data["type"] not in REIFIED:
            rows.append(_rel_row(g, "out", dst, data))
    for src, _, data in g.in_edges(node_id, data=True):
        if data["type"] not in REIFIED:
            rows.append(_rel_row(g, "in", src, data))
        elif data["type"] == "QUALIFIER":
            fact = g.nodes[src]["key"]
            s, o = _fact_ends(g, src)
            direct = g.edges[s, o, fact]
            rows.append(_rel_row(g, "qualifier", s, direct, via=o, role=data["role"]))
    return sorted(rows, key=lambda r: (r["direction"], r["type"], r["other"]["id"], r["fact"], r["role"] or ""))


def _fact_ends(g, fact_node: str) -> tuple[str, str]:
    ends = {d["type"]: v for _, v, d in g.out_edges(fact_node, data=True) if d["type"] in ("SUBJECT", "OBJECT")}
    return ends["SUBJECT"], ends["OBJECT"]


def fact_row(g: nx.MultiDiGraph, fact_node: str) -> dict:
    """A Fact node in the export shape of ``leishen facts``."""
    a = g.nodes[fact_node]
    s, o = _fact_ends(g, fact_node)
    quals = json.loads(a["qualifiers"])
    for _, v, d in g.out_edges(fact_node, data=True):
        if d["type"] == "QUALIFIER":
            quals[d["role"]] = {k: w for k, w in end(g, v).items() if k != "id"}
    strip = lambda e: {k: w for k, w in e.items() if k != "id"}  # noqa: E731
    return {"id": a["key"], "relation": a["relation"], "zh": g.edges[s, o, a["key"]]["zh"],
            "subject": strip(end(g, s)), "object": strip(end(g, o)), "qualifiers": quals,
            "src": list(a["src"]), "variant": _opt(a["variant"]), "note": _opt(a["note"]), "item": _opt(a["item"])}


def facts(g: nx.MultiDiGraph, doc: str | None = None, node_id: str | None = None) -> list[dict]:
    if node_id is not None:
        cands = {u for u, _, d in g.in_edges(node_id, data=True) if d["type"] in ("SUBJECT", "OBJECT", "QUALIFIER")}
    else:
        cands = [n for n, a in g.nodes(data=True) if a["label"] == "Fact"]
    chosen = [n for n in cands if doc is None or any(s.startswith(f"{doc}:") for s in g.nodes[n]["src"])]
    chosen.sort(key=lambda n: (g.nodes[n]["file"], g.nodes[n]["row"]))
    return [fact_row(g, n) for n in chosen]


def _visible_graph(g: nx.MultiDiGraph, types: frozenset[str] | None = None) -> nx.Graph:
    """Undirected simple graph of direct relations between visible nodes (only those of *types*, when
    given); each edge keeps its smallest type."""
    h = nx.Graph()
    for u, v, t in g.edges(data="type"):
        if t in REIFIED or g.nodes[u]["label"] in HIDDEN_LABELS or g.nodes[v]["label"] in HIDDEN_LABELS:
            continue
        if types is not None and t not in types:
            continue
        if not h.has_edge(u, v) or _type_rank(t) < _type_rank(h.edges[u, v]["type"]):
            h.add_edge(u, v, type=t)
    return h


STANDARD_TYPES = frozenset(("MONTH_LOATHING", "LIVING_BREATH", "DEAD_BREATH", "MOURNING_DOOR", "CONDOLENCE_GUEST",
                            "NAYIN"))
"""The relation types of the standard tables (ontology/schema/std.toml: tables the seeds assume but do not
print, cited to other works). Like a hub, ``shortest_path`` without ``types`` takes one only when no path of
the seeds' own relations exists, and a hop shows a seed relation before a standard one (the Cypher twin names
the same types)."""


def _type_rank(t: str) -> tuple[bool, str]:
    """The order in which a hop's relation type is chosen: the seeds' own relations first, then by name."""
    return t in STANDARD_TYPES, t


HUB_LABELS = ("Polarity", "Element")
"""Labels of the hub nodes (陰/陽 and the five phases): nearly every symbol has a polarity and a phase, so
a path through one of them says little. ``shortest_path`` without ``types`` goes through a hub only when no
path avoids them (the Cypher twin names the same labels)."""


def _hub_free(g: nx.MultiDiGraph, h: nx.Graph, source: str, target: str) -> nx.Graph:
    """*h* without the hub nodes (``HUB_LABELS``), the two ends kept even when they are hubs, and without the
    pairs joined only by a standard table's relation (``STANDARD_TYPES``)."""
    return nx.subgraph_view(h, filter_node=lambda n: n in (source, target) or g.nodes[n]["label"] not in HUB_LABELS,
                            filter_edge=lambda u, v: h.edges[u, v]["type"] not in STANDARD_TYPES)


def _smallest_shortest(h: nx.Graph, source: str, target: str, limit: int) -> list[str] | None:
    """Among all shortest paths of *h* from *source* to *target*, the one whose node-id list is smallest."""
    try:
        return min(islice(nx.all_shortest_paths(h, source, target), limit))
    except nx.NetworkXNoPath:
        return None


def shortest_path(g: nx.MultiDiGraph, source: str, target: str, types: list[str] | None = None, *,
                  limit: int = 100_000) -> list[dict]:
    """The smallest shortest path over direct relations. Without *types* a hub (陰陽, a phase) costs more
    than any other node: the path avoids them between its ends and takes the plain shortest path only when
    no other exists. With *types* it is the plain shortest path over those relation types."""
    if types is None:
        h = g.graph.get("_visible") or g.graph.setdefault("_visible", _visible_graph(g))
    else:
        key = ("_visible", frozenset(types))
        h = g.graph.get(key) or g.graph.setdefault(key, _visible_graph(g, frozenset(types)))
    if source not in h or target not in h:
        return []
    views = [_hub_free(g, h, source, target), h] if types is None else [h]
    best = next((p for p in (_smallest_shortest(v, source, target, limit) for v in views) if p), None)
    if best is None:
        return []
    hops = [h.edges[a, b]["type"] for a, b in zip(best, best[1:])]
    return [{"nodes": [end(g, n) for n in best], "types": hops}]


def relations_among(g: nx.MultiDiGraph, node_ids: list[str]) -> list[dict]:
    wanted = set(node_ids)
    rows = []
    for u in wanted & set(g.nodes):
        for _, v, d in g.out_edges(u, data=True):
            if v in wanted and d["type"] not in REIFIED:
                rows.append({"source": end(g, u), "target": end(g, v), "type": d["type"], "zh": d["zh"],
                             "src": list(d["src"]), "variant": _opt(d["variant"]), "fact": d["fact"]})
    return sorted(rows, key=lambda r: (r["type"], r["source"]["id"], r["target"]["id"], r["fact"]))


TRAVERSALS = {"stats": stats, "resolve": resolve, "symbol_relations": symbol_relations, "facts": facts,
              "shortest_path": shortest_path, "relations_among": relations_among, **READING_TRAVERSALS}
