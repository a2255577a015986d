"""Read-only Cypher on the embedded graph: grand-cypher 1.2.0, for the subset it answers right (docs/cypher.md).

Steps of :func:`run_networkx`, each refusing with a one-line :class:`~leishen.errors.CypherRefused`:

1. bound the text (size, nesting, ASCII outside literals; :mod:`leishen.backends.cypher_text`);
2. substitute ``$params`` as JSON literals (``json.dumps``, never raw formatting);
3. normalise what grand-cypher's grammar spells differently: single-quoted strings become double-quoted,
   ``/* … */`` comments are dropped, ```name``` becomes ``name``, ``count(`` becomes ``COUNT(``;
4. refuse writes and administration commands (any case), then every keyword outside the subset
   (``OPTIONAL``, ``WITH``, ``UNWIND``, ``CALL``, …) and ``COUNT(*)``;
5. refuse the MATCH shapes grand-cypher gets wrong (:mod:`leishen.backends.cypher_patterns`);
6. page: the query's own trailing ``SKIP``/``LIMIT`` are applied here, after the engine, because grand-cypher
   applies them *before* aggregates and ``DISTINCT`` (``RETURN COUNT(f) LIMIT 10`` gave 10). Only a plain
   query (no aggregate, no ``DISTINCT``, no ``ORDER BY``) gets ``LIMIT skip+cap+1`` so the engine stops early;
   every other query runs whole, bounded by the time limit;
7. run with a fresh ``GrandCypher`` (a reused one returns stale results) in a child process killed at the
   timeout (:class:`~leishen.errors.CypherTimeout`).

Output: ``{"columns": [...], "rows": [{column: value}], "truncated": bool}``; nodes come out as their property
dicts (with ``id`` and ``label``), relationships as ``{"type", …properties}``.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import re

from leishen.backends.cypher_patterns import check_grand_cypher_subset
from leishen.backends.cypher_text import (
    _STRING_OR_COMMENT,
    NAME,
    bare_code,
    blank_literals,
    refuse_writes_and_commands,
    words,
)
from leishen.errors import BackendError, CypherRefused, CypherTimeout

_PARAM = re.compile(r"\$(" + NAME + r")")
_AGGREGATE = re.compile(r"\b(COUNT|SUM|AVG|MIN|MAX|COLLECT)\s*\(", re.IGNORECASE)
_UPPER_ONLY = re.compile(r"\b(EXISTS|OR)\b", re.IGNORECASE)  # grand-cypher's grammar knows only these spellings
_PAGING = re.compile(r"(?:\s+SKIP\s+([^\s;]+))?(?:\s+LIMIT\s+([^\s;]+))?\s*;?\s*$", re.IGNORECASE)
NOT_IN_SUBSET = frozenset({"OPTIONAL", "WITH", "UNWIND", "UNION", "CALL", "YIELD", "CASE", "WHEN", "THEN", "ELSE",
                           "END", "XOR", "FINISH", "SHORTESTPATH", "ALLSHORTESTPATHS", "SHORTEST", "REDUCE", "ON"})


# --- parameters ---------------------------------------------------------------------------------------


def _literal(value) -> str:
    """A parameter value as a grand-cypher literal: JSON, which escapes quotes and backslashes."""
    if isinstance(value, float) and not math.isfinite(value):
        raise CypherRefused(f"parameter value {value!r} is not a finite number")
    if isinstance(value, dict):
        raise CypherRefused("map parameters are not supported on the networkx backend")
    if isinstance(value, list):
        for item in value:
            if isinstance(item, (dict, list)):
                raise CypherRefused("nested list or map parameters are not supported on the networkx backend")
            _literal(item)
    return json.dumps(value, ensure_ascii=False)


def substitute_params(text: str, params: dict) -> str:
    """Replace every ``$name`` outside strings and comments by the JSON literal of its value."""
    bare = blank_literals(text)
    used = {m.group(1) for m in _PARAM.finditer(bare)}
    missing = sorted(used - set(params))
    if missing:
        raise CypherRefused(f"the query uses ${', $'.join(missing)} but no parameter gives a value")
    unused = sorted(set(params) - used)
    if unused:
        raise CypherRefused(f"parameter {', '.join(unused)} is not used by the query")
    pieces, last = [], 0
    for match in _PARAM.finditer(bare):
        pieces += [text[last:match.start()], _literal(params[match.group(1)])]
        last = match.end()
    return "".join(pieces) + text[last:]


# --- normalising and checking -------------------------------------------------------------------------


def _single_quoted(literal: str) -> str:
    """A Cypher '…' string as the same string in double quotes (JSON escapes)."""
    body = re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f"}.get(m.group(1), m.group(1)),
                  literal[1:-1])
    return json.dumps(body, ensure_ascii=False)


def _literal_as_grand_cypher(token: str) -> str:
    if token.startswith("'"):
        return _single_quoted(token)
    if token.startswith("/*"):
        return " " * len(token)
    if token.startswith("`"):
        if not re.fullmatch(NAME, token[1:-1]):
            raise CypherRefused(f"backtick name {token} is not a plain identifier; the networkx backend cannot "
                                "use it (use --backend neo4j)")
        return token[1:-1]
    return token


def _code_as_grand_cypher(code: str) -> str:
    code = _AGGREGATE.sub(lambda m: m.group(0).upper(), code)
    return _UPPER_ONLY.sub(lambda m: m.group(0).upper(), code)


def normalise(text: str) -> str:
    """The query in grand-cypher's spelling: "…" strings, no block comments, no backticks, upper-case aggregates."""
    pieces, last = [], 0
    for match in _STRING_OR_COMMENT.finditer(text):
        pieces += [_code_as_grand_cypher(text[last:match.start()]), _literal_as_grand_cypher(match.group(0))]
        last = match.end()
    return "".join(pieces) + _code_as_grand_cypher(text[last:])


def check_subset_words(bare: str) -> None:
    """Refuse writes, administration commands and keywords grand-cypher does not have."""
    found = words(bare)
    refuse_writes_and_commands(found)
    for word in found:
        if word in NOT_IN_SUBSET:
            raise CypherRefused(f"{word} is not in the networkx Cypher subset (MATCH … WHERE … RETURN … ORDER BY … "
                                "SKIP … LIMIT, docs/cypher.md); use --backend neo4j")
    if re.search(r"\bCOUNT\s*\(\s*\*\s*\)", bare, re.IGNORECASE):
        raise CypherRefused("COUNT(*) is not in the networkx Cypher subset; count a variable, e.g. COUNT(n)")


def split_paging(bare: str, text: str) -> tuple[str, int, int | None]:
    """``(query without its trailing SKIP/LIMIT, skip, limit)``; SKIP/LIMIT elsewhere or not a count is refused."""
    match = _PAGING.search(bare)
    head = text[:match.start()]
    if re.search(r"\b(SKIP|LIMIT)\b", bare[:match.start()], re.IGNORECASE):
        raise CypherRefused("SKIP and LIMIT are accepted only at the end of the query")
    numbers = []
    for raw, clause in ((match.group(1), "SKIP"), (match.group(2), "LIMIT")):
        if raw is not None and not re.fullmatch(r"\d{1,9}", raw):
            raise CypherRefused(f"{clause} {raw} must be a whole number")
        numbers.append(int(raw) if raw is not None else None)
    return head, numbers[0] or 0, numbers[1]


_EMPTY_AGGREGATE = {"COUNT": 0, "SUM": 0, "COLLECT": []}  # what Cypher returns for them over no rows


def _aggregate_columns(query: str) -> dict | None:
    """Column → aggregate function when every RETURN item is an aggregate (Cypher then gives one row even over
    no match, which grand-cypher does not), else None."""
    bare = blank_literals(query)
    clause = re.search(r"\bRETURN\b(.*?)(?:\bORDER\s+BY\b|\bSKIP\b|\bLIMIT\b|$)", bare, re.IGNORECASE | re.DOTALL)
    columns = {}
    for item in (clause.group(1).split(",") if clause else []):
        match = re.fullmatch(r"\s*((COUNT|SUM|AVG|MIN|MAX|COLLECT)\s*\(\s*[\w.]+\s*\))(?:\s+AS\s+(\w+))?\s*", item,
                             re.IGNORECASE)
        if not match:
            return None
        columns[match.group(3) or match.group(1)] = match.group(2).upper()
    return columns or None


def _runs_whole(bare: str) -> bool:
    """True when grand-cypher must see every match (aggregates, DISTINCT, ORDER BY), so no LIMIT is added."""
    return bool(_AGGREGATE.search(bare) or re.search(r"\b(DISTINCT|ORDER\s+BY)\b", bare, re.IGNORECASE))


def spellings(query: str) -> dict[str, str]:
    """grand-cypher's column name of each aggregate written in another case → the name as written
    (``COUNT(f)`` → ``count(f)``), so the columns are what Neo4j would call them."""
    found = re.finditer(r"\b(COUNT|SUM|AVG|MIN|MAX|COLLECT)\s*\(\s*([\w.]+)\s*\)", blank_literals(query), re.IGNORECASE)
    return {f"{m.group(1).upper()}({m.group(2)})": query[m.start():m.end()] for m in found
            if not m.group(0).startswith(m.group(1).upper() + "(")}


def prepare(text: str, params: dict | None, self_loop_types: set[str], cap: int) -> tuple[str, int, int | None]:
    """Steps 1–6: the query grand-cypher runs, the rows to skip and the query's own LIMIT (or None)."""
    bare_code(text)
    substituted = substitute_params(text, params or {})
    check_subset_words(blank_literals(substituted))  # before normalising: a `backtick` name is no keyword
    query = normalise(substituted)
    bare = blank_literals(query)
    check_grand_cypher_subset(query, self_loop_types)
    head, skip, own_limit = split_paging(bare, query)
    if not _runs_whole(blank_literals(head)):
        wanted = skip + (cap + 1 if own_limit is None else min(own_limit, cap + 1))
        head = f"{head.rstrip()} LIMIT {wanted}"
    return head, skip, own_limit
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
    """grand-cypher's result keys as column names, in the order the RETURN clause names them (an item's alias, or
    its expression); a key the clause does not name keeps its place after those it does."""
    names = _return_items(text)
    keys = [str(k) for k in result]
    return sorted(keys, key=lambda k: (names.index(k) if k in names else len(names), keys.index(k)))


def _return_items(text: str) -> list[str]:
    """The column names of the last RETURN clause, item by item: ``x.name AS a`` → ``a``, ``x.name`` → itself."""
    bare = blank_literals(text)
    start = bare.upper().rfind("RETURN")
    if start < 0:
        return []
    start += len("RETURN")
    end = re.search(r"\b(ORDER\s+BY|SKIP|LIMIT)\b", bare[start:], re.IGNORECASE)
    stop = start + end.start() if end else len(bare)
    items, depth, first = [], 0, start
    for i in range(start, stop + 1):  # commas outside brackets split the items
        char = bare[i] if i < stop else ","
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            items.append(text[first:i].strip())
            first = i + 1
    names = []
    for item in items:
        alias = re.search(r"\s+AS\s+(`[^`]+`|\w+)\s*$", item, re.IGNORECASE)
        names.append(alias.group(1).strip("`") if alias else re.sub(r"^DISTINCT\s+", "", item, flags=re.IGNORECASE))
    return names


def _execute(graph, text: str, keep: int, connection) -> None:
    """Child process body: run the query with a fresh GrandCypher and send back its first ``keep`` rows (or an
    error)."""
    try:
        from grandcypher import GrandCypher

        result = GrandCypher(graph).run(text)
        columns = _columns(result, text)
        by_name = {str(k): v for k, v in result.items()}
        count = max((len(v) for v in by_name.values()), default=0)
        rows = [{c: _plain(by_name[c][i], graph) for c in columns} for i in range(min(count, keep))]
        connection.send(("ok", columns, rows))
    except Exception as exc:  # noqa: BLE001 - reported to the parent as one line
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        connection.send(("error", type(exc).__name__, first))
    finally:
        connection.close()


def _in_child(graph, query: str, keep: int, timeout: float):
    """Run ``query`` in a forked child killed at ``timeout``; the child's outcome tuple."""
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_execute, args=(graph, query, keep, sender), daemon=True)
    child.start()
    sender.close()
    try:
        if not receiver.poll(timeout):
            raise CypherTimeout(f"the query ran longer than its timeout ({timeout:g} s) and was stopped "
                                "(raise the timeout or anchor it)")
        return receiver.recv()
    except EOFError as exc:
        raise BackendError("grand-cypher crashed while running the query") from exc
    finally:
        if child.is_alive():
            child.kill()
        child.join(5)
        receiver.close()


def run_networkx(graph, text: str, params: dict | None = None, *, limit: int, timeout: float) -> dict:
    """Run a Cypher query of the grand-cypher subset on the embedded graph (checks, params, paging, timeout, cap)."""
    try:
        import grandcypher  # noqa: F401
    except ImportError as exc:
        raise BackendError("grand-cypher is not installed: pip install 'leishen[cypher]'") from exc
    converted = grand_graph(graph)
    query, skip, own_limit = prepare(text, params, converted.graph["self_loop_types"], limit)
    written = spellings(text)
    keep = skip + (limit + 1 if own_limit is None else min(own_limit, limit + 1))
    outcome = _in_child(converted, query, keep, timeout)
    if outcome[0] == "error":
        raise CypherRefused(f"grand-cypher cannot run this query ({outcome[1]}: {outcome[2]}); "
                            "see docs/cypher.md for the supported subset, or use --backend neo4j")
    _, columns, rows = outcome
    aggregates = _aggregate_columns(query) if not rows else None
    if aggregates:
        columns, rows = list(aggregates), [{c: _EMPTY_AGGREGATE.get(f) for c, f in aggregates.items()}]
    if written:
        columns = [written.get(c, c) for c in columns]
        rows = [{written.get(k, k): v for k, v in row.items()} for row in rows]
    rows = rows[skip:] if own_limit is None else rows[skip:skip + own_limit]
    return {"columns": columns, "rows": rows[:limit], "truncated": len(rows) > limit}
