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
    from leishen.backends import get_backend
    return Reader(get_backend(backend, **dict(config)))


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


def find(rule: str, start, end, *, step: str = "hour", topic: str | None = None, backend=None, **kw):
    """The moments from *start* to *end* where *rule* holds (an iterator of dicts)."""
    from leishen.readings.search import find as _find
    return _find(_reader(backend), rule, start, end, step=step, topic=topic, **kw)


def topics(backend=None) -> list[dict]:
    """The topics that have rules."""
    return _reader(backend).topics()
