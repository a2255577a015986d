"""leishen.backends — graph backends: where the records live and where named queries run.

``get_backend("networkx")`` (the embedded default, no server) or ``get_backend("neo4j", uri=…,
user=…, password=…)`` (needs the ``neo4j`` driver and a server; see ``leishen neo4j start``).
Backends are imported only when asked for, so the embedded default never imports the driver.

Protocol (duck-typed):

``load(data: GraphData) -> dict``
    store the graph (replacing what was there) and return ``{"nodes": n, "relations": m, "seconds": s}``
``run(name: str, **params) -> list[dict]``
    run a named query of :mod:`leishen.queries.catalog`; the same rows on every backend
``close()``
"""

from __future__ import annotations

import importlib
import os

from leishen.errors import BackendError

_BACKENDS = {
    "networkx": "leishen.backends.networkx_backend:NetworkXBackend",
    "neo4j": "leishen.backends.neo4j_backend:Neo4jBackend",
}
BACKEND_NAMES = tuple(_BACKENDS)


def get_backend(name: str = "networkx", **config):
    """The backend called *name*, constructed with *config* (connection options for Neo4j)."""
    target = _BACKENDS.get((name or "networkx").lower())
    if target is None:
        raise BackendError(f"unknown backend {name!r}; choose one of: {', '.join(_BACKENDS)}")
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)(**config)


def neo4j_config(uri: str | None = None, user: str | None = None, password: str | None = None) -> dict:
    """Connection settings from options, else ``NEO4J_URI``/``NEO4J_USER``/``NEO4J_PASSWORD``."""
    return {"uri": uri or os.environ.get("NEO4J_URI"), "user": user or os.environ.get("NEO4J_USER"),
            "password": password or os.environ.get("NEO4J_PASSWORD")}
