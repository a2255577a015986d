"""Loading the graph into Neo4j: one transaction, serialised by a lock on the Meta node, checked after a failure.

Steps of :func:`load_graph`:

1. two uniqueness constraints, created when missing (``id`` of ``:Node``, ``name`` of ``:Meta``); named queries
   find nodes through ``:Node {id}``, so no constraint per label is needed (there were 43: 6 s on a new server);
2. a snapshot of what the database holds (Meta generation, node and relation counts), to check after a failure;
3. ONE write transaction whose first statement writes the Meta node (``SET m.loading = $token``): a concurrent
   load blocks on that node's lock until this one commits or rolls back, then replaces the graph in turn —
   two loads never interleave, and the graph is always the one of the load that reported success last;
4. into an empty database ``CREATE`` (no lookups), else ``MERGE`` on ``id`` and on the relation ``key``; labels
   and types are parameters (``:$(row.label)``), so two statements are planned instead of one per label and type;
   ``UNWIND`` batches of 10,000 rows; every row is stamped with the new generation;
5. what earlier generations left is deleted, the counts are taken and written to Meta; commit.

A failure anywhere rolls the transaction back (the server never applies half of it). The error then says what a
fresh check finds — the previous graph whole (its generation and counts), another load's graph, or that the
server cannot be reached to check — and never claims more than was checked.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
import uuid

import click

from leishen.errors import BackendError, BackendUnavailable
from leishen.loaders.records import GraphData

NODE_LABEL = "Node"
META_LABEL = "Meta"
META_NAME = "leishen"
BATCH_SIZE = 10_000
LOAD_TIMEOUT = 600.0  # seconds for the whole load transaction, waiting for a concurrent load included

CONSTRAINTS = [
    f"CREATE CONSTRAINT leishen_node_id IF NOT EXISTS FOR (n:`{NODE_LABEL}`) REQUIRE n.id IS UNIQUE",
    f"CREATE CONSTRAINT leishen_meta_name IF NOT EXISTS FOR (m:`{META_LABEL}`) REQUIRE m.name IS UNIQUE",
]
META_LOCK = (f"MERGE (m:`{META_LABEL}` {{name: $name}}) SET m.loading = $token "
             f"RETURN coalesce(m.gen, 0) AS gen, COUNT {{ MATCH (n:`{NODE_LABEL}`) }} AS nodes")
NODE_CREATE = f"UNWIND $rows AS row CREATE (n:`{NODE_LABEL}`:$(row.label)) SET n = row.props RETURN count(n) AS merged"
NODE_MERGE = (f"UNWIND $rows AS row MERGE (n:`{NODE_LABEL}` {{id: row.id}}) SET n = row.props, n:$(row.label) "
              "RETURN count(n) AS merged")
_ENDS = f"UNWIND $rows AS row MATCH (a:`{NODE_LABEL}` {{id: row.src}}) MATCH (b:`{NODE_LABEL}` {{id: row.dst}}) "
RELATION_CREATE = _ENDS + "CREATE (a)-[r:$(row.type)]->(b) SET r = row.props RETURN count(r) AS merged"
RELATION_MERGE = _ENDS + "MERGE (a)-[r:$(row.type) {key: row.key}]->(b) SET r = row.props RETURN count(r) AS merged"
DELETE_STALE_RELATIONS = f"MATCH (:`{NODE_LABEL}`)-[r]->() WHERE r.gen IS NULL OR r.gen <> $gen DELETE r"
DELETE_STALE_NODES = f"MATCH (n:`{NODE_LABEL}`) WHERE n.gen IS NULL OR n.gen <> $gen DETACH DELETE n"
COUNT_GRAPH = (f"CALL () {{ MATCH (n:`{NODE_LABEL}`) RETURN count(n) AS nodes }} "
               f"CALL () {{ MATCH (:`{NODE_LABEL}`)-[r]->(:`{NODE_LABEL}`) RETURN count(r) AS relations }} "
               "RETURN nodes, relations")
META_WRITE = (f"MATCH (m:`{META_LABEL}` {{name: $name}}) SET m.gen = $gen, m.nodes = $nodes, m.relations = $relations, "
              "m.loaded_at = datetime(), m.version = $version, m.fingerprint = $fingerprint, m.loading = null")


class Progress:
    """Rows loaded so far, on stderr: a bar on a terminal, a line per batch otherwise; ``on_batch(done, total)``
    is called after every batch (tests use it to interrupt a load)."""

    def __init__(self, total: int, shown: bool, on_batch=None):
        self.total, self.done, self.on_batch, self.shown = total, 0, on_batch, shown
        tty = shown and sys.stderr.isatty()
        self.bar = click.progressbar(length=total, label="loading into Neo4j", file=sys.stderr) if tty else None
        if self.bar is not None:
            self.bar.__enter__()

    def advance(self, step: int) -> None:
        self.done += step
        if self.bar is not None:
            self.bar.update(step)
        elif self.shown:
            click.echo(f"loading into Neo4j: {self.done:,}/{self.total:,} rows", err=True)
        if self.on_batch is not None:
            self.on_batch(self.done, self.total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


def load_rows(data: GraphData, labels, relation_types) -> tuple[list, list]:
    """Node and relation rows; every label and type must be in the ontology schema and a plain identifier."""
    from leishen.backends.neo4j_backend import checked_name

    nodes = [{"id": n.id, "label": checked_name(n.label, labels, "label"),
              "props": {**n.props, "id": n.id, "label": n.label}} for n in data.nodes]
    relations = [{"src": e.src, "dst": e.dst, "key": e.key, "type": checked_name(e.type, relation_types, "relation type"),
                  "props": {**e.props, "key": e.key}} for e in data.edges]
    return nodes, relations


def _batches(statement: str, rows: list, size: int, what: str):
    for start in range(0, len(rows), size):
        yield statement, rows[start:start + size], what


def fingerprint(nodes: list, relations: list) -> str:
    """A digest of the rows a load writes (every node and relation with its properties), kept on the Meta node:
    a reader built from other tables can tell (:func:`graph_fingerprint`)."""
    text = json.dumps([nodes, relations], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def graph_fingerprint(data: GraphData) -> str:
    """The :func:`fingerprint` a load of *data* writes."""
    from leishen.loaders.schema import load_schema

    schema = load_schema()
    return fingerprint(*load_rows(data, schema.labels, schema.relations))


def _in_transaction(tx, nodes: list, relations: list, batch_size: int, progress: Progress) -> dict:
    """The body of the load (see the module's steps 3–5); the counts it committed."""
    digest = fingerprint(nodes, relations)  # before the rows take their generation
    locked = tx.run(META_LOCK, name=META_NAME, token=uuid.uuid4().hex).single()
    gen, empty = locked["gen"] + 1, locked["nodes"] == 0
    work = [*_batches(NODE_CREATE if empty else NODE_MERGE, nodes, batch_size, "nodes"),
            *_batches(RELATION_CREATE if empty else RELATION_MERGE, relations, batch_size,
                      "relations (an end node is missing)")]
    for statement, batch, what in work:
        for row in batch:
            row["props"]["gen"] = gen
        merged = tx.run(statement, rows=batch).single()["merged"]
        if merged != len(batch):
            raise BackendError(f"merged {merged} of {len(batch)} {what}")
        progress.advance(len(batch))
    if not empty:
        tx.run(DELETE_STALE_RELATIONS, gen=gen).consume()
        tx.run(DELETE_STALE_NODES, gen=gen).consume()
    counts = dict(tx.run(COUNT_GRAPH).single())
    from leishen import __version__

    tx.run(META_WRITE, name=META_NAME, gen=gen, version=__version__, fingerprint=digest, **counts).consume()
    tx.commit()
    return counts


def snapshot(backend) -> dict:
    """``{"gen", "nodes", "relations"}`` of what the database holds now (gen None without a loaded graph)."""
    meta = backend.meta()
    return {"gen": meta["gen"] if meta else None, **backend.counts()}


def _describe(state: dict) -> str:
    if state["gen"] is None:
        return f"no loaded graph ({state['nodes']} nodes, {state['relations']} relations)"
    return f"generation {state['gen']}, {state['nodes']} nodes, {state['relations']} relations"


def after_failure(backend, before: dict | None, exc: BackendError) -> BackendError:
    """The error of a failed load, saying what a fresh check of the database finds (never more)."""
    incomplete = isinstance(exc.__cause__, backend.driver_errors().IncompleteCommit)
    try:
        now = snapshot(backend)
    except BackendError as check:
        return BackendUnavailable(
            f"the load failed and the server rolls back what it did not commit (never half a graph), but the graph "
            f"could not be checked afterwards ({check}); check with `leishen stats --backend neo4j` once it answers: {exc}")
    if incomplete:
        verdict = "the connection broke during the commit; the database now holds " + _describe(now)
    elif before is not None and now == before:
        verdict = f"the load was rolled back and the graph loaded before is intact (checked: {_describe(now)})"
    else:
        verdict = f"the load was rolled back; the database now holds {_describe(now)} (another load committed meanwhile?)"
    return type(exc)(f"{verdict}: {exc}")


def load_graph(backend, data: GraphData, *, batch_size: int = BATCH_SIZE, progress: bool = True, on_batch=None) -> dict:
    """Replace the stored graph by ``data`` (module steps 1–5); ``{"nodes", "relations", "seconds",
    "constraint_seconds"}``."""
    from leishen.loaders.schema import load_schema

    started = time.perf_counter()
    schema = load_schema()
    nodes, relations = load_rows(data, schema.labels, schema.relations)
    for statement in CONSTRAINTS:
        backend.write("creating the uniqueness constraints", statement)
    constrained = time.perf_counter()
    before = snapshot(backend)
    bar = Progress(len(nodes) + len(relations), progress, on_batch)
    try:
        with backend.write_session() as session:
            counts = backend.guard("loading the graph", _run, session, nodes, relations, batch_size, bar)
    except BackendError as exc:
        bar.close()
        raise after_failure(backend, before, exc) from exc
    bar.close()
    return {**counts, "seconds": round(time.perf_counter() - started, 3),
            "constraint_seconds": round(constrained - started, 3)}


def _run(session, nodes, relations, batch_size, bar) -> dict:
    with session.begin_transaction(timeout=LOAD_TIMEOUT) as tx:
        return _in_transaction(tx, nodes, relations, batch_size, bar)

