"""The embedded default backend: an in-memory ``networkx.MultiDiGraph``, built (and networkx imported) when a
query is first run: a reading over a rule book runs none."""

from __future__ import annotations

import time

from leishen.errors import BackendError
from leishen.loaders.build import build_graph, to_networkx
from leishen.loaders.records import GraphData
from leishen.queries.catalog import QUERIES


class NetworkXBackend:
    """Holds the graph in memory; named queries run as hand-written traversals."""

    name = "networkx"
    keeps_answers, concurrent_reads, checks_load = True, False, False  # (backends/capabilities.py)

    def __init__(self, data: GraphData | None = None, corpus=None, **_ignored):
        self.graph = None
        self._corpus = corpus
        if data is not None:
            self.load(data)

    def load(self, data: GraphData) -> dict:
        start = time.perf_counter()
        self.graph = to_networkx(data)
        return {"nodes": self.graph.number_of_nodes(), "relations": self.graph.number_of_edges(),
                "seconds": round(time.perf_counter() - start, 4)}

    def ensure_loaded(self) -> None:
        if self.graph is None:
            self.load(build_graph(self._corpus))

    def run(self, name: str, **params) -> list[dict]:
        if name not in QUERIES:
            raise BackendError(f"no named query {name!r}; known: {', '.join(sorted(QUERIES))}")
        unknown = set(params) - set(QUERIES[name].params)
        if unknown:
            raise BackendError(f"query {name!r} takes {', '.join(QUERIES[name].params) or 'no'} parameters, got {', '.join(sorted(unknown))}")
        self.ensure_loaded()
        from leishen.queries.traversal import TRAVERSALS  # (networkx: imported when a query is first run)
        return TRAVERSALS[name](self.graph, **params)

    def close(self) -> None:
        self.graph = None
