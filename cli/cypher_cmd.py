"""``leishen cypher 'MATCH …'``: read-only Cypher on Neo4j, or the grand-cypher subset on the embedded graph.

Neo4j (``--backend neo4j``)
    the whole of Cypher that reads: EXPLAIN must say query type ``r``, READ routing, ``--timeout`` and a row cap
    (``--limit``); LOAD CSV, procedures outside a small whitelist and unbounded variable-length patterns are
    refused (see :func:`leishen.backends.neo4j_backend.Neo4jBackend.cypher`).

NetworkX (``--backend networkx``, the default)
    grand-cypher 1.2.0 on the in-memory graph, for the subset it gets right (docs/cypher.md). Queries it would
    answer wrongly are refused before they run: undirected relationship patterns, variable-length patterns,
    several MATCH clauses, and two node variables that could bind the same node (grand-cypher drops such rows). ``$params`` are
    substituted as JSON literals (``json.dumps``), never by raw formatting; every query gets a fresh
    ``GrandCypher`` (a reused one returns stale results) and runs in a child process killed at ``--timeout``.

Output: ``{"columns": [...], "rows": [{column: value}], "truncated": bool}``; nodes come out as their
property dicts (with ``id`` and ``label``), relationships as ``{"type", "start", "end", …properties}``.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import re
from dataclasses import dataclass, field

import click
from leishen.cli.options import (
    backend_options,
    emit_json,
    handle_errors,
    json_option,
    open_backend,
    table,
)

from leishen.errors import BackendError

DEFAULT_LIMIT = 1000
DEFAULT_TIMEOUT = 10.0
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_STRING_OR_COMMENT = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|//[^\n]*|/\*.*?\*/", re.DOTALL)
_PARAM = re.compile(r"\$(" + _NAME + r")")
_CLAUSE = re.compile(r"\b(OPTIONAL\s+MATCH|MATCH|WHERE|RETURN|WITH|UNWIND|UNION|CALL|ORDER|SKIP|LIMIT)\b", re.IGNORECASE)
_NODE = re.compile(r"\(\s*(" + _NAME + r")?\s*((?::\s*" + _NAME + r"\s*)*)(\{[^}]*\})?\s*\)")
_REL = re.compile(r"(<)?\s*-\s*(?:\[([^\]]*)\])?\s*-\s*(>)?")
_PROP = re.compile(r"(" + _NAME + r")\s*:\s*(\"(?:[^\"\\]|\\.)*\"|-?\d+(?:\.\d+)?|true|false)")


# --- parameters ---------------------------------------------------------------------------------------


def parse_param(text: str) -> tuple[str, object]:
    """``k=v`` → (k, v): v is read as JSON when it is valid JSON (3, true, ["a"], "3"), else kept as a string."""
    name, sep, raw = text.partition("=")
    if not sep or not re.fullmatch(_NAME, name.strip()):
        raise BackendError(f"--param {text!r} must look like name=value")
    try:
        value = json.loads(raw)
    except ValueError:
        value = raw
    return name.strip(), value


def blank_literals(text: str) -> str:
    """The query with strings, backtick names and comments replaced by spaces (same length, same offsets)."""
    return _STRING_OR_COMMENT.sub(lambda m: " " * len(m.group(0)), text)


def _literal(value) -> str:
    """A parameter value as a grand-cypher literal: JSON, which escapes quotes and backslashes."""
    if isinstance(value, float) and not math.isfinite(value):
        raise BackendError(f"parameter value {value!r} is not a finite number")
    if isinstance(value, dict):
        raise BackendError("map parameters are not supported on the networkx backend")
    if isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)):
                raise BackendError("nested list or map parameters are not supported on the networkx backend")
            _literal(item)
    return json.dumps(value, ensure_ascii=False)


def substitute_params(text: str, params: dict) -> str:
    """Replace every ``$name`` outside strings and comments by the JSON literal of its value."""
    bare = blank_literals(text)
    used = {m.group(1) for m in _PARAM.finditer(bare)}
    missing = sorted(used - set(params))
    if missing:
        raise BackendError(f"the query uses ${', $'.join(missing)} but no --param gives a value")
    unused = sorted(set(params) - used)
    if unused:
        raise BackendError(f"--param {', '.join(unused)} is not used by the query")
    pieces, last = [], 0
    for match in _PARAM.finditer(bare):
        pieces += [text[last:match.start()], _literal(params[match.group(1)])]
        last = match.end()
    return "".join(pieces) + text[last:]


# --- pattern analysis (what grand-cypher would get wrong) ---------------------------------------------


@dataclass
class NodePattern:
    """One node position of a MATCH pattern."""

    var: str
    labels: set[str]
    props: dict = field(default_factory=dict)


@dataclass
class RelPattern:
    """One relationship of a MATCH pattern, between two node variables."""

    left: str
    right: str
    types: set[str]
    directed: bool
    var_length: bool


def _match_bodies(bare: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the pattern part of every MATCH clause."""
    clauses = list(_CLAUSE.finditer(bare))
    spans = []
    for i, clause in enumerate(clauses):
        if clause.group(1).upper().endswith("MATCH"):
            end = clauses[i + 1].start() if i + 1 < len(clauses) else len(bare)
            spans.append((clause.end(), end))
    return spans


def _props(original: str) -> dict:
    return {k: json.loads(v) for k, v in _PROP.findall(original)}


def parse_patterns(text: str) -> tuple[list[NodePattern], list[RelPattern]]:
    """Node positions and relationships of every MATCH clause (anonymous nodes get names ``_anonN``)."""
    bare = blank_literals(text)
    nodes, rels, anonymous = [], [], 0
    for start, end in _match_bodies(bare):
        position, previous, pending = start, None, None
        while position < end:
            node = _NODE.match(bare, position)
            if node:
                var = node.group(1)
                if not var:
                    anonymous += 1
                    var = f"_anon{anonymous}"
                labels = set(re.findall(_NAME, node.group(2) or ""))
                props = _props(text[node.start(3):node.end(3)]) if node.group(3) else {}
                nodes.append(NodePattern(var, labels, props))
                if pending is not None and previous is not None:
                    rels.append(RelPattern(previous, var, *pending))
                previous, pending, position = var, None, node.end()
                continue
            rel = _REL.match(bare, position) if previous is not None else None
            if rel and rel.group(0).strip():
                inner = rel.group(2) or ""
                types = set(re.findall(_NAME, inner.split(":", 1)[1].split("*")[0].split("{")[0])) if ":" in inner else set()
                pending = (types, bool(rel.group(1)) != bool(rel.group(3)), "*" in inner)
                position = rel.end()
                continue
            if bare[position] == ",":
                previous = None
            position += 1
    return nodes, rels


def _may_coincide(a: list[NodePattern], b: list[NodePattern], between: list[RelPattern], self_loop_types: set[str]) -> bool:
    """Whether two node variables (each with its positions) could bind the same node."""
    labels_a = set().union(*(p.labels for p in a))
    labels_b = set().union(*(p.labels for p in b))
    if labels_a and labels_b and not labels_a & labels_b:
        return False  # every node has exactly one label
    props_a = {k: v for p in a for k, v in p.props.items()}
    props_b = {k: v for p in b for k, v in p.props.items()}
    if any(k in props_b and props_b[k] != v for k, v in props_a.items()):
        return False
    for rel in between:  # binding both to one node needs a self-loop of an allowed type
        if not rel.var_length and (not self_loop_types or (rel.types and not rel.types & self_loop_types)):
            return False
    return True


def check_grand_cypher_subset(text: str, self_loop_types: set[str]) -> None:
    """Refuse, with the reason, a query that grand-cypher would answer wrongly."""
    if len(_match_bodies(blank_literals(text))) > 1:
        raise BackendError("several MATCH clauses: grand-cypher mixes up their labels and inline properties "
                           "(wrong rows); write one connected pattern, or use --backend neo4j")
    nodes, rels = parse_patterns(text)
    for rel in rels:
        if not rel.directed:
            raise BackendError(f"undirected pattern between ({rel.left}) and ({rel.right}): grand-cypher returns wrong "
                               "rows for it; write the direction (-[]-> or <-[]-), or use --backend neo4j")
        if rel.var_length:
            raise BackendError(f"variable-length pattern between ({rel.left}) and ({rel.right}): grand-cypher drops paths "
                               "that revisit a node; write the hops out, or use --backend neo4j")
    by_var: dict[str, list[NodePattern]] = {}
    for node in nodes:
        by_var.setdefault(node.var, []).append(node)
    names = list(by_var)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            between = [r for r in rels if {r.left, r.right} == {a, b}]
            if _may_coincide(by_var[a], by_var[b], between, self_loop_types):
                shown = lambda v: "an anonymous node" if v.startswith("_anon") else f"({v})"
                raise BackendError(
                    f"{shown(a)} and {shown(b)} could be the same node, and grand-cypher silently drops such rows; "
                    "give them different labels or different inline property values, or use --backend neo4j")


# --- running on the embedded graph --------------------------------------------------------------------


def grand_graph(graph):
    """The embedded MultiDiGraph in grand-cypher's convention (``__labels__``), with ``id`` on nodes and
    ``key`` on relationships; built once per graph object."""
    cached = graph.graph.get("_grand_cypher")
    if cached is not None:
        return cached
    import networkx as nx

    converted = nx.MultiDiGraph()
    converted.add_nodes_from((n, {**a, "id": n, "__labels__": {a["label"]}}) for n, a in graph.nodes(data=True))
    converted.add_edges_from((u, v, k, {**d, "key": k, "__labels__": {d["type"]}})
                             for u, v, k, d in graph.edges(keys=True, data=True))
    converted.graph["self_loop_types"] = {d["type"] for u, v, d in graph.edges(data=True) if u == v}
    graph.graph["_grand_cypher"] = converted
    return converted


def _plain(value, graph):
    """A grand-cypher value as JSON-ready data."""
    if isinstance(value, dict):
        if "__labels__" in value and "label" in value:
            return {k: _plain(v, graph) for k, v in sorted(value.items()) if k != "__labels__"}
        if "__labels__" in value:  # a relationship: grand-cypher gives its attributes only
            return {"type": next(iter(value["__labels__"])),
                    **{k: _plain(v, graph) for k, v in sorted(value.items()) if k != "__labels__"}}
        return {str(k): _plain(v, graph) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v, graph) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _columns(result: dict, text: str) -> list[str]:
    """grand-cypher's result keys as column names, in the order the RETURN clause names them."""
    bare = blank_literals(text)
    position = bare.upper().rfind("RETURN")
    tail = text[position:] if position >= 0 else text
    keys = [str(k) for k in result]
    return sorted(keys, key=lambda k: (tail.find(k) if tail.find(k) >= 0 else len(tail), keys.index(k)))


def _execute(graph, text: str, connection) -> None:
    """Child process body: run the query with a fresh GrandCypher and send back rows or an error."""
    try:
        from grandcypher import GrandCypher

        result = GrandCypher(graph).run(text)
        columns = _columns(result, text)
        by_name = {str(k): v for k, v in result.items()}
        count = max((len(v) for v in by_name.values()), default=0)
        rows = [{c: _plain(by_name[c][i], graph) for c in columns} for i in range(count)]
        connection.send(("ok", columns, rows))
    except Exception as exc:  # noqa: BLE001 - reported to the parent as one line
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        connection.send(("error", type(exc).__name__, first))
    finally:
        connection.close()


def _with_limit(text: str, limit: int) -> str:
    """Append ``LIMIT limit+1`` when the query has none (grand-cypher stops early then)."""
    if re.search(r"\bLIMIT\b", blank_literals(text), re.IGNORECASE):
        return text
    return text.rstrip().rstrip(";") + f" LIMIT {limit + 1}"


def run_networkx(graph, text: str, params: dict | None = None, *, limit: int = DEFAULT_LIMIT,
                 timeout: float = DEFAULT_TIMEOUT) -> dict:
    """Run a Cypher query of the grand-cypher subset on the embedded graph (checks, params, timeout, cap)."""
    try:
        import grandcypher  # noqa: F401
    except ImportError as exc:
        raise BackendError("grand-cypher is not installed: pip install 'leishen[cypher]'") from exc
    converted = grand_graph(graph)
    query = substitute_params(text, params or {})
    check_grand_cypher_subset(query, converted.graph["self_loop_types"])
    query = _with_limit(query, limit)
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_execute, args=(converted, query, sender), daemon=True)
    child.start()
    sender.close()
    try:
        if not receiver.poll(timeout):
            raise BackendError(f"the query ran longer than {timeout:g} s and was stopped (raise --timeout or anchor it)")
        outcome = receiver.recv()
    except EOFError as exc:
        raise BackendError("grand-cypher crashed while running the query") from exc
    finally:
        if child.is_alive():
            child.kill()
        child.join(5)
        receiver.close()
    if outcome[0] == "error":
        raise BackendError(f"grand-cypher cannot run this query ({outcome[1]}: {outcome[2]}); "
                           "see docs/cypher.md for the supported subset, or use --backend neo4j")
    _, columns, rows = outcome
    return {"columns": columns, "rows": rows[:limit], "truncated": len(rows) > limit}


# --- command ------------------------------------------------------------------------------------------


def run_cypher(backend: str, text: str, params: dict, *, limit: int, timeout: float, uri=None, user=None,
               password=None) -> dict:
    """Run ``text`` on the chosen backend, read-only; the result dict of both runners."""
    if limit < 1:
        raise BackendError(f"--limit must be at least 1, not {limit}")
    if timeout <= 0:
        raise BackendError(f"--timeout must be positive, not {timeout}")
    store = open_backend(backend, uri, user, password)
    try:
        if backend == "neo4j":
            return store.cypher(text, params, limit=limit, timeout=timeout)
        store.ensure_loaded()
        return run_networkx(store.graph, text, params, limit=limit, timeout=timeout)
    finally:
        store.close()


@click.command("cypher")
@click.argument("query")
@click.option("--param", "params", multiple=True, metavar="NAME=VALUE",
              help="a $NAME parameter; VALUE is read as JSON when it is JSON (3, true, [\"a\"]), else as a string")
@backend_options
@click.option("--limit", type=int, default=DEFAULT_LIMIT, show_default=True, help="row cap")
@click.option("--timeout", type=float, default=DEFAULT_TIMEOUT, show_default=True, help="seconds before the query is stopped")
@json_option
@handle_errors
def cypher(query, params, backend, uri, user, password, limit, timeout, as_json):
    """Run a read-only Cypher QUERY (Neo4j: full Cypher; networkx: the grand-cypher subset of docs/cypher.md)."""
    values = dict(parse_param(p) for p in params)
    result = run_cypher(backend, query, values, limit=limit, timeout=timeout, uri=uri, user=user, password=password)
    if as_json:
        emit_json(result)
        return
    cells = [[json.dumps(r[c], ensure_ascii=False) if isinstance(r[c], (dict, list)) else r[c] for c in result["columns"]]
             for r in result["rows"]]
    click.echo(table(cells, result["columns"]))
    if result["truncated"]:
        click.echo(f"(truncated at {limit} rows; raise --limit)", err=True)


if __name__ == "__main__":  # python -m leishen.cli.cypher_cmd
    cypher()
