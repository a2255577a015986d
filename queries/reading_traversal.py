"""The NetworkX twins of the reading queries (row shapes in :mod:`leishen.queries.catalog`).

``rule_checks(paths, facts)`` answers the ground checks of the rules' graph predicates
(:mod:`leishen.readings.evaluate`): for each path check, the walks from ``a`` to ``b`` whose hops have
the given types and directions (``out``, ``in`` or ``either``); for each fact check, the reified facts
of the relation whose subject (reached from ``subject`` by the ``via`` steps) and object are given and
whose qualifier ``role`` is ``value``. One row per check that holds, carrying its smallest witness. A
relation kept as a variant of the text (``variant`` set: a slip, 原本作 …) is walked only with ``variants``.
"""

from __future__ import annotations

import json

import networkx as nx


def _walked(d: dict, rtype: str, variants: bool) -> bool:
    """Whether an edge is a step of type *rtype* (a variant of the text only with *variants*)."""
    return d["type"] == rtype and (variants or not d.get("variant"))


def _hops_from(g: nx.MultiDiGraph, node: str, rtype: str, direction: str, variants: bool = False):
    """(next node, hop) for each edge of *rtype* leaving *node* in *direction* (the adjacency read
    directly: the order of ``out_edges`` / ``in_edges``)."""
    if direction in ("out", "either"):
        for v, edges in g.succ[node].items():
            for key, d in edges.items():
                if _walked(d, rtype, variants):
                    yield v, [node, rtype, v, key, list(d.get("src", ())), True]
    if direction in ("in", "either"):
        for u, edges in g.pred[node].items():
            for key, d in edges.items():
                if _walked(d, rtype, variants):
                    yield u, [node, rtype, u, key, list(d.get("src", ())), False]


def walks(g: nx.MultiDiGraph, start: str, types: list[str], dirs: list[str], variants: bool = False
          ) -> list[tuple[str, list]]:
    """Every (end node, hops) reached from *start* by steps of the given types and directions."""
    frontier = [(start, [])]
    for rtype, direction in zip(types, dirs):
        frontier = [(nxt, hops + [hop]) for node, hops in frontier if node in g
                    for nxt, hop in _hops_from(g, node, rtype, direction, variants)]
    return frontier


def _path_check(g, c: dict, variants: bool) -> list | None:
    """The smallest walk from a to b: every step but the last walked, the last one read from the
    adjacency of b alone."""
    if not c["types"]:  # no step: the empty walk when a is b
        return [] if c["a"] == c["b"] else None
    *first, (rtype, direction) = zip(c["types"], c["dirs"])
    found, b = [], c["b"]
    for node, hops in walks(g, c["a"], [t for t, _ in first], [d for _, d in first], variants):
        if node not in g:
            continue
        if direction in ("out", "either"):
            found += [hops + [[node, rtype, b, key, list(d.get("src", ())), True]]
                      for key, d in g.succ[node].get(b, {}).items() if _walked(d, rtype, variants)]
        if direction in ("in", "either"):
            found += [hops + [[node, rtype, b, key, list(d.get("src", ())), False]]
                      for key, d in g.pred[node].get(b, {}).items() if _walked(d, rtype, variants)]
    return min(found, key=_hop_key) if found else None


def _hop_key(hops: list) -> tuple:
    return tuple((h[0], h[1], h[2], h[3]) for h in hops)


def _fact_check(g, c: dict, variants: bool) -> list | None:
    found = []
    subjects = walks(g, c["subject"], c["via_types"], c["via_dirs"], variants) if c["via_types"] \
        else [(c["subject"], [])]
    for s, via in subjects:
        if s not in g:
            continue
        for key, d in g.succ[s].get(c["object"], {}).items():  # the edges s → object
            if not _walked(d, c["relation"], variants):
                continue
            fact = f"Fact:{d['fact']}"
            to_value = g.succ[fact].get(c["value"], {}) if fact in g else {}  # the fact's edges to the value
            if any(q["type"] == "QUALIFIER" and q["role"] == c["role"] for q in to_value.values()):
                found.append(via + [[s, d["type"], c["object"], key, list(d["src"]), True]])
    return min(found, key=_hop_key) if found else None


def rule_checks(g: nx.MultiDiGraph, paths: list[dict], facts: list[dict], variants: bool | None = False) -> list[dict]:
    rows, variants = [], bool(variants)
    for c in paths:
        hops = _path_check(g, c, variants) if c["a"] in g else None
        if hops is not None:
            rows.append({"id": c["id"], "hops": hops})
    for c in facts:
        hops = _fact_check(g, c, variants) if c["subject"] in g else None
        if hops is not None:
            rows.append({"id": c["id"], "hops": hops})
    return sorted(rows, key=lambda r: r["id"])


def relations_from(g: nx.MultiDiGraph, node_ids: list[str], types: list[str]) -> list[dict]:
    wanted = set(types)
    rows = []
    for u in set(node_ids) & set(g.nodes):
        for _, v, d in g.out_edges(u, data=True):
            if d["type"] in wanted:
                a, b = g.nodes[u], g.nodes[v]
                rows.append({"source": {"id": u, "label": a["label"], "key": a["key"], "name": a["name"]},
                             "target": {"id": v, "label": b["label"], "key": b["key"], "name": b["name"]},
                             "type": d["type"], "src": list(d["src"]), "qualifiers": json.loads(d["qualifiers"]),
                             "variant": d["variant"] or None, "fact": d["fact"]})
    return sorted(rows, key=lambda r: (r["source"]["id"], r["type"], r["target"]["id"], r["fact"]))


READING_TRAVERSALS = {"rule_checks": rule_checks, "relations_from": relations_from}
