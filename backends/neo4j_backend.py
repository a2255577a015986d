"""The Neo4j backend: the same graph and the same named-query rows as the embedded NetworkX one.

Storage
    every graph node is ``(:Node:<Label> {id, label, key, name, …, gen})``; every relation is
    ``-[:<TYPE> {key, zh, src, …, gen}]->``; one ``(:Meta {name: 'leishen', gen, nodes, relations, loaded_at,
    version})`` node says which generation is loaded. Labels and types come only from the ontology schema
    (checked against it, then passed as parameters: ``:$(row.label)``); every value is a parameter.

Loading (``load``, :mod:`leishen.backends.neo4j_load`)
    ONE write transaction whose first statement writes the Meta node, so a concurrent load waits for it; CREATE
    into an empty database, MERGE otherwise; stale generations deleted; Meta updated; commit. A reader sees the
    old graph until the commit and the new one after it. A failure rolls the transaction back; the error says
    what a fresh check of the database finds. Loading the same data again gives the same graph.

Named queries (``run``)
    ``queries/cypher/<name>.cypher`` with parameters, one round trip, READ routing; the records become exactly
    the row dicts of :mod:`leishen.queries.traversal`. A query that takes many checks gets them in a wire form
    (``ENCODERS`` of :mod:`leishen.queries.neo4j_rows`: positional lists), and the reading queries answer one
    record holding all their rows: the driver's cost is per value and per record, the server's per row.

Ad-hoc Cypher (``cypher``, called by :func:`leishen.service.cypher.run_cypher`)
    the allow-list guard of :mod:`leishen.backends.neo4j_guard` (text, then ``EXPLAIN`` type ``r``, then the
    plan); READ routing, a timeout on EXPLAIN and on the query, and a row cap.
"""

from __future__ import annotations

import os
import re
import threading

from leishen.backends.cypher_text import MAX_VALUE_DEPTH
from leishen.backends.neo4j_guard import (ALLOWED_PROCEDURES, MAX_HOPS, answer_bounds, check_plan,  # noqa: F401
                                         check_read_only_text, check_records_size, check_rows_size)
from leishen.backends.neo4j_load import COUNT_GRAPH, META_LABEL, META_NAME, NODE_LABEL, load_graph
from leishen.errors import BackendError, BackendUnavailable, CypherRefused, CypherTimeout
from leishen.loaders.records import GraphData
from leishen.queries.catalog import QUERIES, cypher_text
from leishen.queries.neo4j_rows import CONVERTERS, ENCODERS

_IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_SCHEMES = ("bolt://", "bolt+s://", "bolt+ssc://", "neo4j://", "neo4j+s://", "neo4j+ssc://")

META_READ = f"MATCH (m:`{META_LABEL}` {{name: $name}}) WHERE m.gen IS NOT NULL RETURN m {{.*}} AS meta"


def _neo4j():
    """The driver package, or BackendUnavailable when the [neo4j] extra is missing."""
    try:
        import neo4j
    except ImportError as exc:
        raise BackendUnavailable("the Neo4j driver is not installed: pip install 'leishen[neo4j]'") from exc
    return neo4j


def _local_server_uri() -> str | None:
    """The URI of the server started by ``leishen neo4j start``, when it answers."""
    try:
        from leishen.neo4jserver import server
        state = server.status()
    except Exception:  # noqa: BLE001 - no local server is not an error here
        return None
    return state.get("uri") if state.get("answering") else None


def checked_name(name: str, allowed, kind: str) -> str:
    """A label or relation type that is in the ontology whitelist and a plain identifier."""
    if name not in allowed or not _IDENTIFIER.match(name):
        raise BackendError(f"{kind} {name!r} is not in the ontology schema; refusing to write it to Neo4j")
    if name in (NODE_LABEL, META_LABEL):
        raise BackendError(f"{kind} {name!r} is reserved by the Neo4j backend (every node is :{NODE_LABEL}; "
                           f":{META_LABEL} records the load); rename it in the schema")
    return name


class Neo4jBackend:
    """A Neo4j server (Community, cluster or Aura) holding the leishen graph."""

    name = "neo4j"
    concurrent_reads = True  # reads from several threads at once (a read session per thread)
    keeps_answers, checks_load = False, True  # (backends/capabilities.py)

    def __init__(self, uri: str | None = None, user: str | None = None, password: str | None = None,
                 database: str | None = None, **_ignored):
        neo4j = _neo4j()
        self.uri = uri or os.environ.get("NEO4J_URI") or _local_server_uri()
        if not self.uri:
            raise BackendUnavailable("no Neo4j to connect to: pass --uri, set NEO4J_URI, or start a local server "
                                     "with `leishen neo4j start`")
        if not self.uri.startswith(_SCHEMES):
            raise BackendError(f"Neo4j URI {self.uri!r} must start with bolt:// or neo4j:// (or their +s/+ssc forms)")
        password = password if password is not None else os.environ.get("NEO4J_PASSWORD")
        self.user = user or os.environ.get("NEO4J_USER") or ("neo4j" if password else None)
        auth = (self.user, password or "") if (self.user or password) else None
        self.database = database or os.environ.get("NEO4J_DATABASE") or None
        self._graph_checked = False
        self._local = threading.local()  # each thread's read session (see _read_session)
        self._sessions: list = []
        self._sessions_lock = threading.Lock()
        try:
            self.driver = neo4j.GraphDatabase.driver(
                self.uri, auth=auth, connection_timeout=10, max_transaction_retry_time=5,
                notifications_min_severity=neo4j.NotificationMinimumSeverity.OFF)
        except (ValueError, neo4j.exceptions.ConfigurationError) as exc:
            raise BackendError(f"cannot use Neo4j URI {self.uri!r}: {exc}") from exc
        self._guard("connecting", self.driver.verify_connectivity)

    # --- errors -------------------------------------------------------------------------------------

    def _translate(self, exc: Exception, action: str) -> BackendError:
        """A clear one-line leishen error for a driver exception raised while doing ``action``."""
        error = self._translate_multiline(exc, action)
        return type(error)(" ".join(str(error).split()))

    def _translate_multiline(self, exc: Exception, action: str) -> BackendError:
        errors = _neo4j().exceptions
        if isinstance(exc, errors.AuthError):
            who = self.user or "(no user)"
            return BackendError(f"Neo4j at {self.uri} refused the credentials of user {who!r} while {action}; "
                                "check --user/--password or NEO4J_USER/NEO4J_PASSWORD")
        code = getattr(exc, "code", None) or ""
        if "OutOfMemory" in code:  # the server is up: it ran out of memory for this work
            return BackendUnavailable(f"Neo4j at {self.uri} ran out of memory while {action} ({code}): the server "
                                      "is up but overloaded, or the request needs more than its heap; ask for less "
                                      "or try again later")
        if isinstance(exc, (errors.ServiceUnavailable, errors.SessionExpired)):
            return self._lost(exc, action)
        if code.endswith(".Terminated"):  # ended on the server, not by a timeout: the work itself was not refused
            return BackendUnavailable(f"Neo4j at {self.uri} terminated the transaction while {action} before it "
                                      f"finished ({code}: ended by an administrator or by the server, not by its "
                                      "timeout); try again")
        if isinstance(exc, errors.TransientError):  # e.g. the database stopping or starting: try again later
            return BackendUnavailable(f"Neo4j at {self.uri} is not available while {action}: {exc.code}: {exc.message}")
        if isinstance(exc, errors.Neo4jError):
            return BackendError(f"Neo4j refused {action}: {exc.code}: {exc.message}")
        if isinstance(exc, errors.DriverError):
            return BackendUnavailable(f"Neo4j at {self.uri} failed while {action}: {exc}")
        return BackendError(f"Neo4j failed while {action}: {exc}")

    def _lost(self, exc: Exception, action: str) -> BackendUnavailable:
        """A connection lost while doing ``action``: "unreachable" only when the server does not answer now;
        a server that answers dropped this connection (a defunct one, e.g. after it ran out of memory)."""
        try:
            self.driver.verify_connectivity()
        except Exception:  # noqa: BLE001 - it does not answer: it is unreachable
            return BackendUnavailable(f"Neo4j at {self.uri} is unreachable while {action}: {exc}")
        return BackendUnavailable(f"Neo4j at {self.uri} dropped the connection while {action} but answers again "
                                  f"(the request may have exhausted its memory); try again: {exc}")

    def _guard(self, action: str, func, *args, **kwargs):
        """Call ``func`` and turn driver exceptions into BackendError / BackendUnavailable."""
        errors = _neo4j().exceptions
        try:
            return func(*args, **kwargs)
        except (errors.Neo4jError, errors.DriverError, OSError) as exc:
            raise self._translate(exc, action) from exc

    # --- reading ------------------------------------------------------------------------------------

    def _read(self, text: str, params: dict, action: str, *, timeout: float | None = None, limit: int | None = None):
        """One read round trip: (records, keys, summary). An auto-commit query (RUN and PULL sent together, one round
        trip; ``execute_query`` adds a COMMIT round trip and a new session each time: about 1–2 ms more per query)
        in this thread's read session; a session that failed is closed and the next read opens another."""
        neo4j = _neo4j()

        def fetch():
            result = self._read_session().run(query, params)
            records = result.fetch(limit) if limit is not None else list(result)
            return records, result.keys(), result.consume()

        query = neo4j.Query(text, timeout=timeout) if timeout else neo4j.Query(text)
        try:
            return self._guard(action, fetch)
        except BackendError:
            self._drop_read_session()
            raise

    def _read_session(self):
        """This thread's READ session (sessions are not thread-safe), opened on first use. It shares the bookmark
        manager of ``execute_query`` (the loader's schema writes), so reads stay causally after them on a cluster."""
        session = getattr(self._local, "session", None)
        if session is None or session.closed():
            session = self.driver.session(database=self.database, default_access_mode=_neo4j().READ_ACCESS,
                                          bookmark_manager=self.driver.execute_query_bookmark_manager)
            self._local.session = session
            with self._sessions_lock:
                self._sessions.append(session)
        return session

    def _drop_read_session(self) -> None:
        """Close this thread's read session after a failure (the next read opens another)."""
        session = getattr(self._local, "session", None)
        self._local.session = None
        if session is not None:
            with self._sessions_lock:
                self._sessions = [s for s in self._sessions if s is not session]
            try:
                session.close()
            except Exception:  # noqa: BLE001 - a broken session is being thrown away
                pass

    def meta(self) -> dict | None:
        """The Meta record of the loaded graph (gen, nodes, relations, loaded_at, version), or None."""
        records, _, _ = self._read(META_READ, {"name": META_NAME}, "reading the graph's Meta node")
        if not records:
            return None
        meta = dict(records[0]["meta"])
        meta.pop("loading", None)
        if "loaded_at" in meta:
            meta["loaded_at"] = str(meta["loaded_at"])
        return meta

    def _require_graph(self) -> None:
        """BackendError when the database holds no loaded leishen graph (checked once per backend)."""
        if self._graph_checked:
            return
        if self.meta() is None:
            raise BackendError(f"the Neo4j database at {self.uri} holds no leishen graph (no :{META_LABEL} node): "
                               "load it with `leishen build --backend neo4j`")
        self._graph_checked = True

    def check_loaded_from(self, data) -> None:
        """BackendError when the loaded graph was loaded from other tables than *data* (its Meta fingerprint, written
        by every load since 2026-12-01, differs): a reader's rules and the server's answers would disagree."""
        from leishen.backends.neo4j_load import graph_fingerprint
        stored = (self.meta() or {}).get("fingerprint")
        here = graph_fingerprint(data) if stored else None  # a graph loaded before fingerprints: not checked
        if stored and stored != here:
            raise BackendError(f"the Neo4j graph at {self.uri} was loaded from other tables than these "
                               f"(fingerprint {stored}, these {here}): reload it with `leishen build --backend neo4j`")

    def counts(self) -> dict:
        """Nodes and relations of the leishen graph as the database holds them now."""
        records, _, _ = self._read(COUNT_GRAPH, {}, "counting the graph")
        return {"nodes": records[0]["nodes"], "relations": records[0]["relations"]}

    def run(self, name: str, **params) -> list[dict]:
        """Run the named query ``name`` (``queries/cypher/<name>.cypher``); rows as the NetworkX twin gives them."""
        if name not in QUERIES:
            raise BackendError(f"no named query {name!r}; known: {', '.join(sorted(QUERIES))}")
        declared = QUERIES[name].params
        unknown = set(params) - set(declared)
        if unknown:
            raise BackendError(f"query {name!r} takes {', '.join(declared) or 'no'} parameters, got {', '.join(sorted(unknown))}")
        self._require_graph()
        wire = {p: params.get(p) for p in declared}
        if name in ENCODERS:
            wire = ENCODERS[name](wire)
        records, _, _ = self._read(cypher_text(name), wire, f"named query {name!r}")
        # named queries return plain values (maps, lists, scalars; never nodes), so no Record.data() conversion
        return CONVERTERS[name]([dict(record.items()) for record in records])

    # --- loading ------------------------------------------------------------------------------------

    def load(self, data: GraphData, *, batch_size: int | None = None, progress: bool = True, on_batch=None) -> dict:
        """Replace the stored graph by ``data`` in one transaction (see :mod:`leishen.backends.neo4j_load`);
        ``{"nodes", "relations", "seconds", "constraint_seconds"}``. ``on_batch(done, total)`` follows the batches."""
        from leishen.backends.neo4j_load import BATCH_SIZE

        try:
            return load_graph(self, data, batch_size=batch_size or BATCH_SIZE, progress=progress, on_batch=on_batch)
        finally:
            self._graph_checked = False

    def write(self, action: str, statement: str, **params) -> None:
        """One auto-commit write round trip (schema statements of the loader)."""
        self._guard(action, self.driver.execute_query, statement, params, database_=self.database)

    def write_session(self):
        """A session for the load's explicit write transaction."""
        return self.driver.session(database=self.database, default_access_mode=_neo4j().WRITE_ACCESS)

    def guard(self, action: str, func, *args, **kwargs):
        """Call ``func``; driver exceptions become BackendError / BackendUnavailable naming ``action``."""
        return self._guard(action, func, *args, **kwargs)

    @staticmethod
    def driver_errors():
        """The driver's exceptions module."""
        return _neo4j().exceptions

    # --- ad-hoc Cypher --------------------------------------------------------------------------------

    def cypher(self, text: str, params: dict | None = None, *, limit: int = 1000, timeout: float = 10.0) -> dict:
        """Run a user's read-only Cypher; ``{"columns", "rows", "truncated"}`` (rows as JSON-ready dicts).

        The text guard runs first (no round trip), then ``EXPLAIN`` under the same timeout, then the query.
        """
        params = params or {}
        check_read_only_text(text)
        _, _, summary = self._user_read("EXPLAIN " + text, params, "checking the query (EXPLAIN)", timeout, None)
        if summary.query_type != "r":
            raise CypherRefused(f"only read queries are allowed; this one is of type {summary.query_type!r} "
                                "(w = write, rw = read/write, s = schema)")
        check_plan(summary.plan)
        most_rows, most_bytes = answer_bounds()
        limit = min(limit, most_rows)
        records, keys, _ = self._user_read(text, params, "running the query", timeout, limit + 1)
        check_records_size(records[:limit], keys, most_bytes)
        rows = [{key: to_json(record[key]) for key in keys} for record in records[:limit]]
        check_rows_size(rows, most_bytes)
        return {"columns": list(keys), "rows": rows, "truncated": len(records) > limit}

    def _user_read(self, text: str, params: dict, action: str, timeout: float, limit: int | None):
        """A read of a user's query, answered by its deadline (:mod:`leishen.backends.neo4j_deadline`): a timeout
        becomes CypherTimeout, a Cypher error CypherRefused."""
        from leishen.backends.neo4j_deadline import read_by_deadline
        query = _neo4j().Query(text, timeout=timeout)
        try:
            return self._guard(action, read_by_deadline, self.driver, self.database, query, params, limit)
        except BackendError as exc:
            code = getattr(exc.__cause__, "code", "") or ""
            if "OutOfMemory" in code:  # a TransientError, but the query's own doing: retrying won't help
                raise CypherRefused(f"the query needs more memory than a transaction may use "
                                    f"({memory_limit(exc)}{code}); return fewer or smaller values") from exc
            if isinstance(exc, BackendUnavailable):
                raise
            if "TransactionTimedOut" in code:
                raise CypherTimeout(f"the query ran longer than its timeout ({timeout:g} s) and was stopped ({code})") from exc
            if code.startswith("Neo.ClientError."):
                raise CypherRefused(str(exc)) from exc
            raise

    def close(self) -> None:
        """Close the read sessions and the driver."""
        with self._sessions_lock:
            sessions, self._sessions = self._sessions, []
        for session in sessions:
            try:
                session.close()
            except Exception:  # noqa: BLE001 - closing anyway
                pass
        self.driver.close()


_LIMIT = re.compile(r"\blimit (\d+(?:\.\d+)? ?[KMGT]i?B)\b")


def memory_limit(exc: Exception) -> str:
    """The server's limit as its memory error names it (Neo4j: "would use more than the limit 384.0 MiB"), as
    "at most 384.0 MiB, "; "" when its message names none."""
    found = _LIMIT.search(getattr(exc.__cause__, "message", None) or "")
    return f"at most {found.group(1)}, " if found else ""


def _properties(entity) -> dict:
    """An entity's properties without the loader's generation stamp."""
    return {k: to_json(v) for k, v in sorted(dict(entity).items()) if k != "gen"}


def to_json(value, depth: int = 0):
    """A driver value as plain JSON-ready data (nodes and relationships become property dicts). A value whose
    lists and maps nest more than MAX_VALUE_DEPTH deep is refused (CypherRefused), not recursed into."""
    graph = _neo4j().graph
    if isinstance(value, graph.Node):
        return _properties(value)
    if isinstance(value, graph.Relationship):
        start, end = value.start_node, value.end_node
        return {"type": value.type, "start": start.get("id") if start else None,
                "end": end.get("id") if end else None, **_properties(value)}
    if isinstance(value, graph.Path):
        return {"nodes": [_properties(n) for n in value.nodes], "types": [r.type for r in value.relationships]}
    if isinstance(value, (dict, list, tuple)) and depth >= MAX_VALUE_DEPTH:
        raise CypherRefused(f"a value of the result nests lists or maps more than {MAX_VALUE_DEPTH} deep; "
                            "return flatter values")
    if isinstance(value, dict):
        return {k: to_json(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v, depth + 1) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)  # temporal and spatial values
