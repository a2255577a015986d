"""``leishen cypher 'MATCH …'``: the CLI door of :func:`leishen.service.cypher.run_cypher`.

Neo4j (``--backend neo4j``) runs the whole of Cypher that reads, behind an allow-list guard; NetworkX (the
default) runs the grand-cypher subset of docs/cypher.md. Refusals, bad options and timeouts exit with code 2
and one line; ``--json`` prints the dict run_cypher returns.
"""

from __future__ import annotations

import json

import click
from leishen.cli.corpus_warning import warn_damaged_corpus
from leishen.cli.options import backend_options, emit_json, handle_errors, json_option, open_backend, table
from leishen.service.cypher import DEFAULT_LIMIT, DEFAULT_TIMEOUT, check_options, parse_param, run_cypher


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
    """Run a read-only Cypher QUERY (Neo4j: full Cypher that reads; networkx: the grand-cypher subset of docs/cypher.md)."""
    values = dict(parse_param(p) for p in params)
    check_options(limit, timeout)
    warn_damaged_corpus(backend)
    store = open_backend(backend, uri, user, password)
    try:
        result = run_cypher(store, query, params=values, limit=limit, timeout=timeout)
    finally:
        store.close()
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
