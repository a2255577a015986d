"""Graph commands: build, stats, symbol, facts, path."""

from __future__ import annotations

import difflib
import time

import click

from leishen.cli.options import (backend_options, emit_json, fail, handle_errors, json_option,
                                 open_backend, table)
from leishen.errors import UnknownSymbolError
from leishen.loaders.build import build_graph
from leishen.loaders.schema import load_schema

LANGS = ("zh", "ko", "en")


def close_matches(text: str, n: int = 6) -> list[str]:
    """Names like *text*, closed vocabularies (stems, branches, generals …) first."""
    schema = load_schema()
    scored = {}
    for node in build_graph(check=False).nodes:
        closed = schema.labels[node.label].closed
        for key in node.props.get("lookup", ()):
            ratio = difflib.SequenceMatcher(None, text, key).ratio()
            if ratio >= 0.5:
                scored[key] = max(scored.get(key, (0, 0)), (ratio, closed))
    return [k for k, _ in sorted(scored.items(), key=lambda kv: (-kv[1][0], not kv[1][1], kv[0]))][:n]


def resolve_symbol(backend, text: str) -> list[dict]:
    """Nodes that *text* names (name, alias, ko or en; ``Label:name`` picks one label)."""
    label, sep, rest = text.partition(":")
    if sep and label in load_schema().labels:
        rows = [r for r in backend.run("resolve", q=rest.strip().lower()) if r["label"] == label]
    else:
        rows = backend.run("resolve", q=text.strip().lower())
    if rows:
        best = min(r["tier"] for r in rows)
        return [r for r in rows if r["tier"] == best]
    if not rows:
        near = close_matches(text.strip().lower())
        hint = f"; close matches: {', '.join(near)}" if near else ""
        raise UnknownSymbolError(f"unknown symbol {text!r}{hint}", near)
    return rows


@click.command()
@backend_options
@click.option("--corpus", type=click.Path(file_okay=False), default=None,
              help="folder of the source texts (default: $LEISHEN_CORPUS or ../shared/seeds)")
@json_option
@handle_errors
def build(backend, uri, user, password, corpus, as_json):
    """Build the graph (validate every fact and citation) and print counts."""
    start = time.perf_counter()
    data = build_graph(corpus)
    built = time.perf_counter() - start
    store = open_backend(backend, uri, user, password, corpus)
    report = store.load(data)
    out = {"backend": backend, "nodes": report["nodes"], "relations": report["relations"],
           "facts": len(data.facts), "build_seconds": round(built, 4), "load_seconds": report["seconds"]}
    if as_json:
        emit_json(out)
    else:
        click.echo(table([[k, v] for k, v in out.items()], ["", "value"]))


@click.command()
@backend_options
@json_option
@handle_errors
def stats(backend, uri, user, password, as_json):
    """Node counts by label and relation counts by type."""
    row = open_backend(backend, uri, user, password).run("stats")[0]
    if as_json:
        emit_json(row)
        return
    click.echo(table(sorted(row["nodes"].items()), ["label", "nodes"]))
    click.echo()
    click.echo(table(sorted(row["relations"].items()), ["relation", "count"]))


def _short(text: str, width: int = 48) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _reading(store_rows: dict, node_id: str, lang: str) -> str:
    info = store_rows.get(node_id)
    return info.get(lang) or info["name"] if info else node_id


@click.command()
@click.argument("name")
@click.option("--lang", type=click.Choice(LANGS), default="zh", show_default=True,
              help="reading shown for the other ends in the table")
@backend_options
@json_option
@handle_errors
def symbol(name, lang, backend, uri, user, password, as_json):
    """A symbol (any name, alias, ko or en reading; Label:name picks one) and all its relations."""
    store = open_backend(backend, uri, user, password)
    matches = [{"node": n, "relations": store.run("symbol_relations", node_id=n["id"])}
               for n in resolve_symbol(store, name)]
    if as_json:
        emit_json({"query": name, "matches": matches})
        return
    nodes = {n.id: n.props for n in build_graph(check=False).nodes}
    for m in matches:
        n = m["node"]
        click.echo(f"{n['label']} {n['name']}  ({n['ko']}; {n['en']})  id={n['id']}")
        rows = [[r["direction"], f"{r['type']} {r['zh']}", _reading(nodes, r["other"]["id"], lang),
                 _reading(nodes, r["via"]["id"], lang) if r["via"] else "",
                 _short(" ".join(f"{k}={_reading(nodes, v, lang) if v in nodes else v}"
                                 for k, v in r["qualifiers"].items())), "|".join(r["src"]),
                 r["variant"] or ""] for r in m["relations"]]
        click.echo(table(rows, ["dir", "relation", "other", "via", "qualifiers", "src", "variant"]))
        click.echo()


@click.command()
@click.option("--doc", type=click.Choice(["000", "002", "003", "004"]), default=None, help="only facts citing this text")
@click.option("--symbol", "symbol_name", default=None, help="only facts naming this symbol")
@backend_options
@json_option
@handle_errors
def facts(doc, symbol_name, backend, uri, user, password, as_json):
    """Every fact as a flat list (the export other tools read)."""
    store = open_backend(backend, uri, user, password)
    if symbol_name:
        rows = []
        for n in resolve_symbol(store, symbol_name):
            rows += store.run("facts", doc=doc, node_id=n["id"])
    else:
        rows = store.run("facts", doc=doc, node_id=None)
    if as_json:
        emit_json(rows)
        return
    click.echo(table([[r["subject"]["name"], f"{r['relation']} {r['zh']}", r["object"]["name"],
                       _short(" ".join(f"{k}={v['name'] if isinstance(v, dict) else v}" for k, v in r["qualifiers"].items())),
                       "|".join(r["src"]), r["variant"] or ""] for r in rows],
                     ["subject", "relation", "object", "qualifiers", "src", "variant"]))


def _one(store, text: str) -> dict:
    rows = resolve_symbol(store, text)
    if len(rows) > 1:
        fail(f"{text!r} names {len(rows)} nodes ({', '.join(r['id'] for r in rows)}); write Label:name to pick one")
    return rows[0]


@click.command()
@click.argument("source")
@click.argument("target")
@backend_options
@json_option
@handle_errors
def path(source, target, backend, uri, user, password, as_json):
    """The shortest typed path between two symbols."""
    store = open_backend(backend, uri, user, password)
    a, b = _one(store, source), _one(store, target)
    rows = store.run("shortest_path", source=a["id"], target=b["id"])
    out = {"source": a, "target": b, "length": len(rows[0]["types"]) if rows else None,
           "path": rows[0] if rows else None}
    if as_json:
        emit_json(out)
    elif not rows:
        click.echo(f"no path between {a['name']} and {b['name']}")
    else:
        steps = [rows[0]["nodes"][0]["name"]]
        for node, typ in zip(rows[0]["nodes"][1:], rows[0]["types"]):
            steps.append(f"-[{typ}]- {node['name']}")
        click.echo(" ".join(steps))
