"""The named queries: each exists once as Cypher (``cypher/<name>.cypher``) and once as a
NetworkX traversal (:mod:`leishen.queries.traversal`), and both return the same rows.

Row shapes (lists of plain dicts, sorted as stated, identical on both backends):

``stats()``
    one row ``{"nodes": {label: n}, "relations": {type: n}}``
``resolve(q)``
    nodes whose ``lookup`` keys contain ``q`` (lower-cased by the caller); rows ``{"id","label","key","name","ko","en",
    "tier"}`` where tier is 0 when q is the name or an alias, 1 when it is the ko reading, else 2; sorted by (tier, id).
    Fact and Passage nodes are never returned.
``symbol_relations(node_id)``
    every direct relation touching the node, and every fact that names it as a qualifier; rows
    ``{"direction": "out"|"in"|"qualifier", "type", "zh", "other": end, "via": end|None, "role": str|None,
    "src": [..], "variant": str|None, "note": str|None, "qualifiers": {..}, "fact": id}``, where ``end`` is
    ``{"id","label","key","name"}``; for "qualifier" rows ``other`` is the fact's subject and ``via`` its object.
    Sorted by (direction, type, other.id, fact, role).
``facts(doc, node_id)``
    facts citing document ``doc`` (or all when None) and touching ``node_id`` as subject, object or qualifier
    (or all when None), in the export shape of ``leishen facts``; sorted by (file, row).
``shortest_path(source, target, types)``
    one row ``{"nodes": [end, …], "types": [type, …]}`` — among all shortest paths over direct relations
    (either direction, never through Fact or Passage nodes; only relations of ``types`` when it is a list)
    the one whose node-id list is smallest, each hop taking its smallest relation type; no row when unconnected.
    Without ``types`` a hub (labels Polarity, Element: 陰陽 and the five phases) costs more: the path goes
    through one between its ends only when no path avoids them; with ``types`` it is the plain shortest path
    over those types.
``rule_checks(paths, facts, variants)``
    the ground checks of the rules' graph predicates (see :mod:`leishen.queries.reading_traversal`): one row
    ``{"id", "hops": [[from, type, to, key, src, forward], …]}`` per check that holds, with its smallest witness
    (hops compared by (from, type, to, key)); sorted by id. A relation the tables keep as a variant of the text
    (its ``variant`` set) is walked only when ``variants`` is true (null: false).
``relations_from(node_ids, types)``
    relations of the given types leaving the given nodes: rows ``{"source": end, "target": end, "type", "src",
    "qualifiers": {..}, "variant", "fact"}`` sorted by (source.id, type, target.id, fact).
``relations_among(node_ids)``
    direct relations whose both ends are in ``node_ids`` (the 刑沖破害合 among a chart's branches …): rows
    ``{"source": end, "target": end, "type", "zh", "src", "variant", "fact"}`` sorted by (type, source.id, target.id, fact).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

REIFIED = ("SUBJECT", "OBJECT", "QUALIFIER", "CITES")
HIDDEN_LABELS = ("Fact", "Passage")


@dataclass(frozen=True)
class NamedQuery:
    name: str
    params: tuple[str, ...]
    doc: str


QUERIES: dict[str, NamedQuery] = {q.name: q for q in (
    NamedQuery("stats", (), "node counts by label and relation counts by type"),
    NamedQuery("resolve", ("q",), "nodes a user's name, alias, ko or en reading denotes"),
    NamedQuery("symbol_relations", ("node_id",), "all relations of a node, both directions, and facts naming it as a qualifier"),
    NamedQuery("facts", ("doc", "node_id"), "facts by document and/or node, in the export shape"),
    NamedQuery("shortest_path", ("source", "target", "types"),
               "the smallest shortest typed path between two nodes (only relations of the given types, when given)"),
    NamedQuery("relations_among", ("node_ids",), "direct relations among a set of nodes"),
    NamedQuery("rule_checks", ("paths", "facts", "variants"),
               "the ground checks of the rules' graph predicates, with witnesses"),
    NamedQuery("relations_from", ("node_ids", "types"), "the relations of given types leaving given nodes"),
)}


@cache
def cypher_text(name: str) -> str:
    """The Cypher text of a named query (one query per file, ``$parameters`` only)."""
    if name not in QUERIES:
        raise KeyError(f"no named query {name!r}; known: {', '.join(sorted(QUERIES))}")
    return (resources.files("leishen.queries") / "cypher" / f"{name}.cypher").read_text(encoding="utf-8")
