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

PIECE_LIMIT = 30_000  # walks kept (about 60 MB at most, most of it shared with the findings kept)


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
    """A graph witness ``[[from, type, to, key, src, forward], …]`` as a walk."""
    walk = [node_json(hops[0][0], props)]
    for frm, rtype, to, key, src, forward in hops:
        walk += [{"rel": rtype, "chart": False, "src": list(src or ()), "key": key, "forward": bool(forward)},
                 node_json(to, props)]
    return walk


def witness_walk(w, props: dict) -> list:
    """A witness (a chart chain, or ``("graph", hops, start chain, end slot)``) as a walk: a graph
    witness starts with the chart hops of the slot it was asked from, and names the slot it ends at."""
    if isinstance(w, tuple) and w and w[0] == "walk":  # a pattern's own path, already a walk
        return w[1]
    if isinstance(w, tuple) and w and w[0] == "qualifier":  # object ←OBJECT– fact –QUALIFIER→ value
        _, fid, obj, role, value, chain, src = w
        fact_node = node_json(f"Fact:{fid}", props)
        return (chain_walk(chain, props) if chain else [node_json(obj, props)]) + [
                {"rel": "OBJECT", "chart": False, "src": list(src or ()), "key": f"{fid}/object", "forward": False},
                fact_node,
                {"rel": "QUALIFIER", "chart": False, "src": list(src or ()), "key": f"{fid}/q/{role}", "forward": True},
                node_json(value, props)]
    if isinstance(w, tuple) and w and w[0] == "graph":
        _, hops, start, end = w
        walk = graph_walk(hops, props)
        if start:
            walk = chain_walk(start, props) + walk[1:]
        return walk[:-1] + [{**walk[-1], "slot": end}] if end else walk
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
    """The pieces of one reader's findings (its node catalogue *props*), kept by what they are: the
    walks of the witnesses (at most *limit*, emptied past it), the hops of the facts, the path nodes
    and meanings of the nodes (as many as the graph has)."""

    def __init__(self, props: dict, limit: int = PIECE_LIMIT):
        self.props, self.limit = props, limit
        self.walks: dict = {}  # witness key → Piece
        self.hops: dict = {}  # (fact id, forward) → the fact's hop
        self.nodes: dict = {}  # node id → its path node (no slot)
        self.meanings: dict = {}  # node id → its meaning

    def start(self) -> None:
        """Called before a reading: empties the walks when they have grown past the limit (findings
        already made keep theirs)."""
        if len(self.walks) > self.limit:
            self.walks.clear()

    def piece(self, w, key) -> Piece:
        """The piece of witness *w* whose key is *key* (made the first time)."""
        found = self.walks.get(key)
        if found is None:
            found = self.walks[key] = Piece(witness_walk(w, self.props), key)
        return found

    def hop(self, fact: Fact, forward: bool = True) -> dict:
        """The fact's own edge as a hop (its qualifiers parsed once)."""
        found = self.hops.get((fact.id, forward))
        if found is None:
            found = self.hops[(fact.id, forward)] = fact_hop(fact, forward)
        return found

    def node(self, node_id) -> dict:
        """A path node without a slot."""
        found = self.nodes.get(node_id)
        if found is None:
            found = self.nodes[node_id] = node_json(node_id, self.props)
        return found

    def meaning(self, node: dict) -> dict | None:
        """The meaning of the node a path ends at (None for a value)."""
        if "node" not in node:
            return None
        node_id = node["node"]["id"]
        found = self.meanings.get(node_id)
        if found is None:
            found = self.meanings[node_id] = meaning(node_id, self.props)
        return found
