"""Read-only ad-hoc Cypher for every door (CLI ``leishen cypher``, HTTP ``POST /cypher``, the MCP tool).

:func:`run_cypher` is the one entry point. It checks the options (``limit``, ``timeout``, the parameters),
bounds the query text, and runs it on the backend it is given:

- Neo4j: the allow-list guard of :mod:`leishen.backends.neo4j_guard`, then ``EXPLAIN`` (query type ``r``, plan
  check), then the query with READ routing, the timeout and the row cap;
- NetworkX: grand-cypher on the embedded graph (:mod:`leishen.backends.cypher_networkx`), in a child process
  killed at the timeout.

It returns ``{"columns": [...], "rows": [{column: value}], "truncated": bool}`` — what ``leishen cypher --json``
prints — or raises :class:`~leishen.errors.CypherRefused` (refused before running: a write, a command, a bad
option, too large; HTTP 400), :class:`~leishen.errors.CypherTimeout` (stopped at the time limit; HTTP 408),
:class:`~leishen.errors.Busy` (as many queries running in this process as it takes: HTTP 429 with Retry-After),
:class:`~leishen.errors.BackendUnavailable` (HTTP 503) or another :class:`~leishen.errors.BackendError`.

Work in flight is bounded: a server holds :class:`CypherSlots` (the HTTP app one per app) and passes them to
:func:`run_cypher`, so at most ``LEISHEN_CYPHER_MAX_IN_FLIGHT`` queries run at once in it (each NetworkX query
is a child process; each Neo4j query a server transaction). One past the bound is refused at once with
:class:`~leishen.errors.Busy`, before it starts any work, so a flood of slow queries cannot starve the
process (before: 50 slow queries forked 40 children, 1.1 GB, and /health took 12.5 s).
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import threading

from leishen.backends.cypher_text import MAX_VALUE_DEPTH, NAME, bare_code, value_depth
from leishen.errors import Busy, CypherRefused, CypherTimeout

DEFAULT_LIMIT = 1000
MAX_LIMIT = 100_000
DEFAULT_TIMEOUT = 10.0
MAX_TIMEOUT = 120.0  # the server's own transaction timeout (neo4jserver/Launcher.java) is a little above it
MAX_PARAM_BYTES = 64_000
RETRY_AFTER = 2  # seconds: about what a typical ad-hoc query takes


class CypherSlots:
    """The bound on the queries a server runs at once: *limit* slots (default ``LEISHEN_CYPHER_MAX_IN_FLIGHT``,
    else twice the CPUs), held by the server that made them (the HTTP app keeps its own on ``app.state``)."""

    def __init__(self, limit: int | None = None):
        if limit is None:
            from leishen.settings import cypher_max_in_flight
            limit = cypher_max_in_flight()
        self.limit = limit
        self._free = threading.BoundedSemaphore(limit)

    @contextlib.contextmanager
    def held(self):
        """Hold one slot while a query runs; Busy at once when none is free. A query given up at its deadline
        while the Neo4j server still finishes it (CypherTimeout with ``still_running``) keeps its slot until the
        server has answered."""
        if not self._free.acquire(blocking=False):
            raise Busy(f"{self.limit} Cypher queries are already running here, the most this server runs at "
                       f"once (LEISHEN_CYPHER_MAX_IN_FLIGHT; a query past its time limit counts until the Neo4j "
                       f"server has ended it); try again in {RETRY_AFTER} s", retry_after=RETRY_AFTER)
        handed_over = False
        try:
            yield
        except CypherTimeout as exc:
            if exc.still_running is not None:
                exc.still_running.add_done_callback(lambda _: self._free.release())
                handed_over = True
            raise
        finally:
            if not handed_over:
                self._free.release()


def check_options(limit, timeout) -> tuple[int, float]:
    """``(limit, timeout)`` when both are sane: a whole number of rows 1..MAX_LIMIT and finite seconds in
    (0, MAX_TIMEOUT]; else CypherRefused naming the option."""
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
        raise CypherRefused(f"limit must be a whole number from 1 to {MAX_LIMIT:,}, not {limit!r}")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not math.isfinite(timeout) \
            or not 0 < timeout <= MAX_TIMEOUT:
        raise CypherRefused(f"timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT:g}, not {timeout!r}")
    return limit, float(timeout)


def check_params(params) -> dict:
    """The parameters as a dict of identifier → JSON value, nested at most MAX_VALUE_DEPTH deep, at most
    MAX_PARAM_BYTES of JSON."""
    if params is None:
        return {}
    if not isinstance(params, dict):
        raise CypherRefused(f"parameters must be a mapping of name to value, not {type(params).__name__}")
    for name in params:
        if not isinstance(name, str) or not re.fullmatch(NAME, name):
            raise CypherRefused(f"parameter name {name!r} is not an identifier")
        depth = value_depth(params[name])
        if depth > MAX_VALUE_DEPTH:
            raise CypherRefused(f"parameter {name} nests lists or maps {depth} deep; at most {MAX_VALUE_DEPTH} "
                                "levels are accepted")
    try:
        size = len(json.dumps(params, ensure_ascii=False, allow_nan=False).encode())
    except (TypeError, ValueError) as exc:
        raise CypherRefused(f"parameter values must be finite JSON values: {exc}") from exc
    if size > MAX_PARAM_BYTES:
        raise CypherRefused(f"the parameters are {size:,} bytes of JSON; at most {MAX_PARAM_BYTES:,} are accepted")
    return params


def parse_param(text: str) -> tuple[str, object]:
    """``k=v`` → (k, v): v is read as JSON when it is valid JSON (3, true, ["a"], "3"), else kept as a string."""
    name, sep, raw = text.partition("=")
    if not sep or not re.fullmatch(NAME, name.strip()):
        raise CypherRefused(f"--param {text!r} must look like name=value")
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    return name.strip(), value


def _open(backend):
    """``(backend object, whether we opened it)`` for a backend object or a backend name."""
    if not isinstance(backend, str):
        return backend, False
    from leishen.backends import get_backend, neo4j_config

    return (get_backend("neo4j", **neo4j_config()) if backend == "neo4j" else get_backend(backend)), True


def run_cypher(backend, text: str, *, params: dict | None = None, timeout: float = DEFAULT_TIMEOUT,
               limit: int = DEFAULT_LIMIT, slots: CypherSlots | None = None) -> dict:
    """Run the read-only Cypher ``text`` on ``backend`` (an open backend, or ``"networkx"``/``"neo4j"``).

    Returns ``{"columns", "rows", "truncated"}``; raises CypherRefused, CypherTimeout, Busy or BackendError.
    The checks that need no backend come first; the query then runs in one of the server's *slots* (none: a
    door that runs one query at a time, as the CLI).
    """
    limit, timeout = check_options(limit, timeout)
    params = check_params(params)
    bare_code(text)
    with slots.held() if slots is not None else contextlib.nullcontext():
        return _run(backend, text, params, timeout, limit)


def _run(backend, text: str, params: dict, timeout: float, limit: int) -> dict:
    """Open the backend if named, run the query on it, close what was opened."""
    store, opened = _open(backend)
    try:
        if store.name == "neo4j":
            return store.cypher(text, params, limit=limit, timeout=timeout)
        from leishen.backends.cypher_networkx import run_networkx

        store.ensure_loaded()
        return run_networkx(store.graph, text, params, limit=limit, timeout=timeout)
    finally:
        if opened:
            store.close()
