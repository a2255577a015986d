"""Walks: the path pieces of the findings, as JSON.

``node_json``, ``chain_walk``, ``graph_walk``, ``witness_walk``, ``fact_hop`` and ``meaning`` build a
fresh piece each call. :class:`Pieces` keeps the walk of each witness, the hop of each fact, the path
node and the meaning of each node, made once and handed to every finding that needs it. A finding is
assembled from these pieces (its path copies a piece's list and appends the fact's hop; its evidence
lists the pieces' own walks), so the pieces are read-only like the findings themselves: nothing may
change a piece's list or one of its dicts once it is made.
"""

from __future__ import annotations

import json

from leishen.loaders.records import Fact
from leishen.readings.cache import keep
from leishen.readings.records import GraphWitness, QualifierWitness, WalkWitness


def node_json(node_id, props: dict[str, dict], slot: str | None = None) -> dict:
    """A path node: {"node": {"id","label","key","name"}, "slot"?}."""
    if isinstance(node_id, int):
        return {"value": node_id, "slot": slot}
    p = props.get(node_id, {})
    out = {"node": {"id": node_id, "label": p.get("label", node_id.partition(":")[0]),
                    "key": p.get("key", node_id.partition(":")[2]), "name": p.get("name", node_id)}}
    if slot:
        out["slot"] = slot
    return out


def chain_walk(chain: tuple, props: dict) -> list:
    """A bound value's chain of chart hops as a walk; a hop ``(type, node, fact id)`` is a row of a standard
    table (:mod:`leishen.readings.standard`): a graph edge with the row's key and ``src``."""
    (root, slot), *hops = chain
    walk = [node_json(root, props, slot)]
    for rel, node, *fact in hops:
        if fact:
            src = props.get(f"Fact:{fact[0]}", {}).get("src", ())
            walk += [{"rel": rel, "chart": False, "src": list(src), "key": fact[0], "forward": True},
                     node_json(node, props)]
        else:
            walk += [{"rel": rel, "chart": True, "src": None}, node_json(node, props)]
    return walk


def graph_walk(hops: list, props: dict) -> list:
    """A graph witness's hops (:class:`~leishen.readings.records.Hop`) as a walk."""
    walk = [node_json(hops[0].source, props)]
    for frm, rtype, to, key, src, forward in hops:
        walk += [{"rel": rtype, "chart": False, "src": list(src or ()), "key": key, "forward": bool(forward)},
                 node_json(to, props)]
    return walk


def witness_walk(w, props: dict) -> list:
    """A witness (:mod:`leishen.readings.records`) as a walk: a chart chain hop by hop; a graph witness starting
    with the chart hops of the slot it was asked from and naming the slot it ends at; a qualifier's object
    ←OBJECT– fact –QUALIFIER→ value; a pattern's walk as it is."""
    kind = type(w)
    if kind is WalkWitness:
        return w.walk
    if kind is QualifierWitness:
        src, fid = list(w.src or ()), w.fact
        return (chain_walk(w.chain, props) if w.chain else [node_json(w.object, props)]) + [
                {"rel": "OBJECT", "chart": False, "src": src, "key": f"{fid}/object", "forward": False},
                node_json(f"Fact:{fid}", props),
                {"rel": "QUALIFIER", "chart": False, "src": list(src), "key": f"{fid}/q/{w.role}", "forward": True},
                node_json(w.value, props)]
    if kind is GraphWitness:
        walk = graph_walk(w.hops, props)
        if w.start:
            walk = chain_walk(w.start, props) + walk[1:]
        return walk[:-1] + [{**walk[-1], "slot": w.end}] if w.end else walk
    return chain_walk(w, props)


def fact_hop(fact: Fact, forward: bool = True) -> dict:
    """The fact's own edge as a hop, with its qualifiers."""
    return {"rel": fact.relation, "chart": False, "src": [str(c) for c in fact.src], "key": fact.id,
            "forward": forward, "qualifiers": json.loads(fact.qualifiers_json())}


def meaning(node_id: str, props: dict) -> dict:
    """A finding's meaning: the node it ends at, named in zh, ko and en."""
    p = props.get(node_id, {})
    return {"id": node_id, "zh": p.get("name", node_id), "ko": p.get("ko", ""), "en": p.get("en", "")}


class Piece:
    """A walk with what a finding reads of it: the node it ends at, the slot → node id of the slots it
    passes (in walk order), and *key*: what the walk is (a hashable key; None for a walk not kept)."""

    __slots__ = ("walk", "end", "binds", "key")

    def __init__(self, walk: list, key=None):
        self.walk, self.key = walk, key
        self.end = walk[-1].get("node", {}).get("id")
        self.binds = {hop["slot"]: hop["node"]["id"] for hop in walk if "slot" in hop and "node" in hop}


class Pieces:
    """The pieces of one reader's findings (its node catalogue *props*), made once and kept in the reader's
    ``pieces`` store (:mod:`leishen.readings.cache`) by what they are: the walk of a witness (by its key), the
    hop of a fact (``("hop", fact id, forward)``), the path node and the meaning of a node (``("node", id)``,
    ``("meaning", id)``)."""

    def __init__(self, props: dict, kept):
        self.props, self.kept = props, kept

    def piece(self, w, key) -> Piece:
        """The piece of witness *w* whose key is *key*."""
        return keep(self.kept.pieces, key, lambda: Piece(witness_walk(w, self.props), key))

    def hop(self, fact: Fact, forward: bool = True) -> dict:
        """The fact's own edge as a hop (its qualifiers parsed once)."""
        return keep(self.kept.pieces, ("hop", fact.id, forward), fact_hop, fact, forward)

    def node(self, node_id) -> dict:
        """A path node without a slot."""
        return keep(self.kept.pieces, ("node", node_id), node_json, node_id, self.props)

    def meaning(self, node: dict) -> dict | None:
        """The meaning of the node a path ends at (None for a value)."""
        found = node.get("node")
        return None if found is None else keep(self.kept.pieces, ("meaning", found["id"]), meaning, found["id"],
                                                self.props)
