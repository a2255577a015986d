"""The graph build: the fast NetworkX construction equals networkx's own, and keys are unique."""

from __future__ import annotations

import networkx as nx

from leishen.loaders.build import build_graph, to_networkx


def test_fast_construction_equals_add_edges_from():
    data = build_graph()
    fast = to_networkx(data)
    slow = nx.MultiDiGraph()
    slow.add_nodes_from((n.id, {**n.props, "label": n.label}) for n in data.nodes)
    slow.add_edges_from((e.src, e.dst, e.key, e.props) for e in data.edges)
    assert fast.number_of_nodes() == slow.number_of_nodes()
    assert fast.number_of_edges() == slow.number_of_edges() == len(data.edges)
    assert sorted(fast.edges(keys=True, data="type")) == sorted(slow.edges(keys=True, data="type"))
    assert sorted(fast.in_edges(keys=True)) == sorted(slow.in_edges(keys=True))


def test_every_relation_carries_its_type():
    assert all(e.props["type"] == e.type for e in build_graph().edges)


def test_edge_keys_are_unique_and_ends_exist():
    data = build_graph()
    ids = {n.id for n in data.nodes}
    assert len({e.key for e in data.edges}) == len(data.edges)
    assert all(e.src in ids and e.dst in ids for e in data.edges)
    assert len(ids) == len(data.nodes)
