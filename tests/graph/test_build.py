"""The graph build: the fast NetworkX construction equals networkx's own, and keys are unique."""

from __future__ import annotations

import networkx as nx

from leishen.loaders.build import build_graph, to_networkx


def test_fast_construction_equals_add_edges_from():
    data = build_graph()
    fast = to_networkx(data)
    slow = nx.MultiDiGraph()
    slow.add_nodes_from((n.id, n.props) for n in data.nodes)
    slow.add_edges_from((e.src, e.dst, e.key, e.props) for e in data.edges)
    assert fast.number_of_nodes() == slow.number_of_nodes()
    assert fast.number_of_edges() == slow.number_of_edges() == len(data.edges)
    assert sorted(fast.edges(keys=True, data="type")) == sorted(slow.edges(keys=True, data="type"))
    assert sorted(fast.in_edges(keys=True)) == sorted(slow.in_edges(keys=True))
    assert dict(fast.nodes(data=True)) == dict(slow.nodes(data=True))
    assert sorted(fast.adj) == sorted(slow.adj) and fast.in_degree("Branch:zi") == slow.in_degree("Branch:zi")


def test_every_record_carries_its_label_or_type():
    data = build_graph()
    assert all(e.props["type"] == e.type for e in data.edges)
    assert all(n.props["label"] == n.label for n in data.nodes)


def test_edge_keys_are_unique_and_ends_exist():
    data = build_graph()
    ids = {n.id for n in data.nodes}
    assert len({e.key for e in data.edges}) == len(data.edges)
    assert all(e.src in ids and e.dst in ids for e in data.edges)
    assert len(ids) == len(data.nodes)
