"""Where rule books and readers are made: the one place a :class:`leishen.readings.Reader` is given its
:class:`~leishen.readings.book.RuleBook` and its backend (issue #37).

readings/ imports no backend: a reader reads over the backend it is handed. This module makes them —

- :func:`kept_book`: the rule book of the default graph, from the disk cache, where it is stored once per graph
  fingerprint (the code, the tables and the texts) with the judgment tables: a reading loads the book alone, not
  the graph (networkx is imported only when a query asks the graph itself);
- :func:`reader`: the reader of a named backend, shared per process and configuration (the NetworkX default one
  over the kept book);
- :func:`new_reader`: a reader of its own (a test comparing evaluators, a bench switching a store off);
- :func:`reader_over`: the reader a long-running door serves with, warmed by readings of now.

The doors reach these through :mod:`leishen.service.readings` (``reader_for``, ``served_reader``).
"""

from __future__ import annotations

from functools import lru_cache

from leishen.backends.capabilities import declared
from leishen.readings.book import RuleBook
from leishen.readings.read import Reader

__all__ = ["kept_book", "reader", "new_reader", "reader_of", "kept_reader", "reader_over", "warm", "read", "topics"]


def new_reader(backend=None, corpus=None, **options) -> Reader:
    """A reader of its own over *backend* (a backend object; None: a new NetworkX one) and *corpus*; *options*:
    those of :class:`Reader` (cache, variants, recall, evaluator). A NetworkX reader of the default graph reads the
    kept book (immutable: readers share it). BackendError when *backend* does not declare the capabilities a
    reader relies on."""
    if backend is None:
        from leishen.backends import get_backend
        backend = get_backend("networkx", corpus=corpus)
    backend = declared(backend)
    if corpus is None and backend.name == "networkx" and not options.get("variants") \
            and options.get("cache", True) is not False:
        return Reader(backend, book=kept_book(), **options)
    return Reader(backend, corpus, **options)


def reader(backend: str = "networkx", **config) -> Reader:
    """The shared reader of the named backend, made once per process and configuration (however it is named:
    ``reader()``, ``reader("networkx")`` and ``reader(backend="networkx")`` are one reader)."""
    return _shared(backend, tuple(sorted(config.items())))


@lru_cache(maxsize=8)
def _shared(backend: str, config: tuple) -> Reader:
    """The reader :func:`reader` shares: the NetworkX default one over the kept book, any other made."""
    from leishen.backends import get_backend
    return new_reader(get_backend(backend, **dict(config)))


def reader_of(backend) -> Reader:
    """The shared reader of a backend named (None: NetworkX), or a new reader over a backend object."""
    if backend is None or isinstance(backend, str):
        return reader(backend or "networkx")
    if not callable(getattr(backend, "run", None)):
        from leishen.errors import BackendError
        raise BackendError(f"backend: expected a backend name (networkx, neo4j) or a backend, found "
                           f"{type(backend).__name__}")
    return new_reader(backend)


def kept_book(corpus=None) -> RuleBook:
    """The rule book of the graph of *corpus* (answered by the NetworkX traversals), from the disk cache
    (:mod:`leishen.diskcache`) when an entry of the same code, tables and texts is there, else made — with the
    judgment tables (:func:`leishen.judgments.prepared.prepare`) — and stored. One book per process, graph and
    cache folder: a book is never changed."""
    from leishen import diskcache
    from leishen.loaders import build
    if not diskcache.enabled():
        return _book(corpus, None, None)
    key = diskcache.entry_key("book", build.graph_key(build.graph_source(corpus)))
    return _book(corpus, key, diskcache.cache_dir())


@lru_cache(maxsize=4)
def _book(corpus, key: str | None, folder) -> RuleBook:
    """The book of :func:`kept_book` (*key* and *folder*: its entry's and the cache folder, None with the cache
    off)."""
    from leishen import diskcache
    from leishen.loaders import build
    found = diskcache.load("book", key) if folder is not None else None
    if isinstance(found, RuleBook):
        return found
    from leishen.backends import get_backend
    from leishen.judgments.prepared import prepare
    made = RuleBook(build.build_graph(corpus), get_backend("networkx", corpus=corpus))
    made.topic_facts_made = prepare(made)  # the judgment tables, made once with the book
    if folder is not None:
        diskcache.store("book", key, made)
    return made


def kept_reader(store, corpus=None) -> Reader:
    """The default reader over the NetworkX backend *store*: the kept book of *corpus*'s graph."""
    return Reader(store, book=kept_book(corpus))


def reader_over(store, corpus=None) -> Reader:
    """A reader of the backend *store* for a long-running process (``leishen serve``, ``leishen mcp``): the
    disk-cached one for a NetworkX store of the default configuration, warmed by readings of now so that the
    first request finds every table made (and a NetworkX store its graph: the door answers graph queries too)."""
    from leishen.backends.networkx_backend import NetworkXBackend
    made = kept_reader(store, corpus) if type(store) is NetworkXBackend else new_reader(store, corpus)
    if type(store) is NetworkXBackend:
        store.ensure_loaded()
    warm(made)
    return made


def warm(r: Reader) -> None:
    """Read one chart of every system, as the general reading and with every topic: the modules a reading imports
    are imported and the tables a reader makes on first use are made, so the first chart a user asks is read as
    fast as the next (a reading is the same whatever the reader read before)."""
    from leishen.engine.chart import build_chart
    from leishen.engine.moment import parse_moment
    chart = build_chart(parse_moment(None))  # now: this year's calendar tables made too
    for topic in (None, "*"):
        r.read(chart, topic=topic)


def read(chart: dict, *, topic: str | None = None, backend=None) -> dict:
    """The reading (findings only, no judgments) of a chart dict, computed or typed in."""
    return reader_of(backend).read(chart, topic=topic)


def topics(backend=None) -> list[dict]:
    """The topics that have rules."""
    return reader_of(backend).topics()
