"""leishen.readings — charts read by graph traversal (see docs/rules.md and docs/readings.md).

>>> import leishen
>>> reading = leishen.read("2026-12-01T10:00+09:00", topic="射覆")   # doctest: +SKIP
>>> [f["meaning"]["en"] for f in reading["findings"]][:3]                # doctest: +SKIP
"""

from __future__ import annotations

from functools import lru_cache

from leishen.readings.read import Reader, TopicError  # noqa: F401


def reader(backend: str = "networkx", **config) -> Reader:
    """A shared :class:`Reader` on the named backend, built once per process and configuration (however it is
    named: ``reader()``, ``reader("networkx")`` and ``reader(backend="networkx")`` are one reader)."""
    return _shared(backend, tuple(sorted(config.items())))


@lru_cache(maxsize=8)
def _shared(backend: str, config: tuple) -> Reader:
    """The reader :func:`reader` shares: the NetworkX default one from the disk cache (see :func:`_kept`),
    any other built."""
    from leishen.backends import get_backend
    store = get_backend(backend, **dict(config))
    if backend == "networkx" and not config:
        return _kept(store)
    return Reader(store)


def _kept(store, corpus=None) -> Reader:
    """The default reader (rules compiled, over the NetworkX graph of *corpus*) on the NetworkX backend *store*,
    from the disk cache (:mod:`leishen.diskcache`) when an entry of the same code, tables and texts is there,
    else built and stored. The entry holds the graph records, the graph and the reader without its backend;
    *store* takes the entry's graph, and the records become what ``build_graph`` returns in this process. An
    entry that cannot be read for any reason is built again."""
    from leishen import diskcache
    from leishen.loaders import build
    if not diskcache.enabled():
        return Reader(store, corpus)
    source = build.graph_source(corpus)
    key = diskcache.entry_key("reader", build.graph_key(source))
    entry = diskcache.load("reader", key, shared={"backend": store})
    if isinstance(entry, dict) and isinstance(entry.get("reader"), Reader) and entry["reader"].backend is store:
        store.graph = entry["graph"]
        build.keep_graph(source, entry["data"])
        return entry["reader"]
    made = Reader(store, corpus)
    store.ensure_loaded()  # stored before any reading: what the reader keeps between readings is made in each process
    diskcache.store("reader", key, {"data": made.data, "graph": store.graph, "reader": made}, shared={"backend": store})
    return made


def reader_over(store, corpus=None) -> Reader:
    """A reader of the backend *store* for a long-running process (``leishen serve``): the disk-cached one for
    a NetworkX store of the default configuration, warmed by one reading so that the first request finds
    every table made."""
    from leishen.backends.networkx_backend import NetworkXBackend
    made = _kept(store, corpus) if type(store) is NetworkXBackend else Reader(store, corpus)
    warm(made)
    return made


def warm(r: Reader) -> None:
    """Read one chart of every system, as the general reading and with every topic: the modules a reading imports are imported and the
    tables a reader makes on first use are made, so the first chart a user asks is read as fast as the next
    (a reading is the same whatever the reader read before)."""
    from leishen.engine.chart import build_chart
    from leishen.engine.moment import parse_moment
    chart = build_chart(parse_moment(None))  # now: this year's calendar tables made too
    for topic in (None, "*"):
        r.read(chart, topic=topic)


def _reader(backend) -> Reader:
    """The shared reader of a backend named (None: NetworkX), or a reader over a backend object."""
    if backend is None or isinstance(backend, str):
        return reader(backend or "networkx")
    if not callable(getattr(backend, "run", None)):
        from leishen.errors import BackendError
        raise BackendError(f"backend: expected a backend name (networkx, neo4j) or a backend, found "
                           f"{type(backend).__name__}")
    return Reader(backend)


def read(chart: dict, *, topic: str | None = None, backend=None) -> dict:
    """The reading of a chart dict (computed or typed in)."""
    return _reader(backend).read(chart, topic=topic)


def topics(backend=None) -> list[dict]:
    """The topics that have rules."""
    return _reader(backend).topics()
