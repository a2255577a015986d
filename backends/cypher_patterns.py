"""Pattern analysis of the grand-cypher subset: the MATCH shapes that grand-cypher 1.2.0 would answer wrongly.

Refused before they run (each with its reason): several MATCH clauses (their labels and inline properties get
mixed up), undirected relationships, variable-length relationships (paths that revisit a node are dropped),
and two node variables that could bind the same node (grand-cypher silently drops such rows).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from leishen.backends.cypher_text import NAME as _NAME
from leishen.backends.cypher_text import blank_literals
from leishen.errors import CypherRefused

_CLAUSE = re.compile(r"\b(OPTIONAL\s+MATCH|MATCH|WHERE|RETURN|WITH|UNWIND|UNION|CALL|ORDER|SKIP|LIMIT)\b", re.IGNORECASE)
_NODE = re.compile(r"\(\s*(" + _NAME + r")?\s*((?::\s*" + _NAME + r"\s*)*)(\{[^}]*\})?\s*\)")
_REL = re.compile(r"(<)?\s*-\s*(?:\[([^\]]*)\])?\s*-\s*(>)?")
_PROP = re.compile(r"(" + _NAME + r")\s*:\s*(\"(?:[^\"\\]|\\.)*\"|-?\d+(?:\.\d+)?|true|false)")


@dataclass
class NodePattern:
    """One node position of a MATCH pattern."""

    var: str
    labels: set[str]
    props: dict = field(default_factory=dict)


@dataclass
class RelPattern:
    """One relationship of a MATCH pattern, between two node variables."""

    left: str
    right: str
    types: set[str]
    directed: bool
    var_length: bool


def _match_bodies(bare: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the pattern part of every MATCH clause."""
    clauses = list(_CLAUSE.finditer(bare))
    spans = []
    for i, clause in enumerate(clauses):
        if clause.group(1).upper().endswith("MATCH"):
            end = clauses[i + 1].start() if i + 1 < len(clauses) else len(bare)
            spans.append((clause.end(), end))
    return spans


def _props(original: str) -> dict:
    return {k: json.loads(v) for k, v in _PROP.findall(original)}


def parse_patterns(text: str) -> tuple[list[NodePattern], list[RelPattern]]:
    """Node positions and relationships of every MATCH clause (anonymous nodes get names ``_anonN``)."""
    bare = blank_literals(text)
    nodes, rels, anonymous = [], [], 0
    for start, end in _match_bodies(bare):
        position, previous, pending = start, None, None
        while position < end:
            node = _NODE.match(bare, position)
            if node:
                var = node.group(1)
                if not var:
                    anonymous += 1
                    var = f"_anon{anonymous}"
                labels = set(re.findall(_NAME, node.group(2) or ""))
                props = _props(text[node.start(3):node.end(3)]) if node.group(3) else {}
                nodes.append(NodePattern(var, labels, props))
                if pending is not None and previous is not None:
                    rels.append(RelPattern(previous, var, *pending))
                previous, pending, position = var, None, node.end()
                continue
            rel = _REL.match(bare, position) if previous is not None else None
            if rel and rel.group(0).strip():
                inner = rel.group(2) or ""
                types = set(re.findall(_NAME, inner.split(":", 1)[1].split("*")[0].split("{")[0])) if ":" in inner else set()
                pending = (types, bool(rel.group(1)) != bool(rel.group(3)), "*" in inner)
                position = rel.end()
                continue
            if bare[position] == ",":
                previous = None
            position += 1
    return nodes, rels


def _may_coincide(a: list[NodePattern], b: list[NodePattern], between: list[RelPattern], self_loop_types: set[str]) -> bool:
    """Whether two node variables (each with its positions) could bind the same node."""
    labels_a = set().union(*(p.labels for p in a))
    labels_b = set().union(*(p.labels for p in b))
    if labels_a and labels_b and not labels_a & labels_b:
        return False  # every node has exactly one label
    props_a = {k: v for p in a for k, v in p.props.items()}
    props_b = {k: v for p in b for k, v in p.props.items()}
    if any(k in props_b and props_b[k] != v for k, v in props_a.items()):
        return False
    for rel in between:  # binding both to one node needs a self-loop of an allowed type
        if not rel.var_length and (not self_loop_types or (rel.types and not rel.types & self_loop_types)):
            return False
    return True


def check_grand_cypher_subset(text: str, self_loop_types: set[str]) -> None:
    """Refuse, with the reason, a query that grand-cypher would answer wrongly."""
    if len(_match_bodies(blank_literals(text))) > 1:
        raise CypherRefused("several MATCH clauses: grand-cypher mixes up their labels and inline properties "
                           "(wrong rows); write one connected pattern, or use --backend neo4j")
    nodes, rels = parse_patterns(text)
    for rel in rels:
        if not rel.directed:
            raise CypherRefused(f"undirected pattern between ({rel.left}) and ({rel.right}): grand-cypher returns wrong "
                               "rows for it; write the direction (-[]-> or <-[]-), or use --backend neo4j")
        if rel.var_length:
            raise CypherRefused(f"variable-length pattern between ({rel.left}) and ({rel.right}): grand-cypher drops paths "
                               "that revisit a node; write the hops out, or use --backend neo4j")
    by_var: dict[str, list[NodePattern]] = {}
    for node in nodes:
        by_var.setdefault(node.var, []).append(node)
    names = list(by_var)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            between = [r for r in rels if {r.left, r.right} == {a, b}]
            if _may_coincide(by_var[a], by_var[b], between, self_loop_types):
                shown = lambda v: "an anonymous node" if v.startswith("_anon") else f"({v})"
                raise CypherRefused(
                    f"{shown(a)} and {shown(b)} could be the same node, and grand-cypher silently drops such rows; "
                    "give them different labels or different inline property values, or use --backend neo4j")


