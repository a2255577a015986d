"""Graph commands: build, stats, symbol, facts, path — thin doors over :mod:`leishen.service.lore`."""

from __future__ import annotations

import click

from leishen.cli.corpus_warning import (NO_CORPUS, corpus_problem, require_held_citations, require_whole_corpus,
                                        warn_damaged_corpus)
from leishen.cli.options import backend_options, emit_json, handle_errors, json_option, open_backend, table
from leishen.service import lore

LANGS = ("zh", "ko", "en")
corpus_option = click.option("--corpus", type=click.Path(file_okay=False), default=None,
                             help="folder of the source texts (default: $LEISHEN_CORPUS or ../shared/seeds)")
types_option = click.option("--type", "types", multiple=True, metavar="TYPE",
                            help="only relations of this type (repeatable, e.g. --type CLASHES)")


@click.command()
@backend_options
@corpus_option
@json_option
@handle_errors
def build(backend, uri, user, password, corpus, as_json):
    """Build the graph (validate every fact and citation) and print counts; a corpus found damaged, lacking a
    text, holding an emptied one or not holding the citations is refused (exit 2) before anything is loaded."""
    if corpus_problem(corpus) != NO_CORPUS:
        require_whole_corpus(corpus, "`build` needs")
        require_held_citations(corpus, "`build` needs")
    out = lore.build(backend, corpus, uri, user, password)
    if not out["citations"]["checked"]:
        click.echo("warning: no corpus folder found, so the citations were NOT checked "
                   "(give --corpus DIR or set LEISHEN_CORPUS)", err=True)
    if as_json:
        emit_json(out)
        return
    shown = {**out, "citations": out["citations"]["corpus"] or "not checked (no corpus)"}
    click.echo(table([[k, v] for k, v in shown.items()], ["", "value"]))


@click.command()
@backend_options
@json_option
@handle_errors
def stats(backend, uri, user, password, as_json):
    """Node counts by label and relation counts by type."""
    warn_damaged_corpus(backend)
    row = lore.stats(open_backend(backend, uri, user, password))
    if as_json:
        emit_json(row)
        return
    click.echo(table(sorted(row["nodes"].items()), ["label", "nodes"]))
    click.echo()
    click.echo(table(sorted(row["relations"].items()), ["relation", "count"]))


def _reading(names: dict, node_id: str, lang: str) -> str:
    info = names.get(node_id)
    return (info.get(lang) or info["name"]) if info else node_id


def _qualifier_text(qualifiers: dict, names: dict, lang: str) -> str:
    return " ".join(f"{k}={_reading(names, v, lang) if isinstance(v, str) and v in names else v}"
                    for k, v in qualifiers.items())


@click.command()
@click.argument("name")
@click.option("--lang", type=click.Choice(LANGS), default="zh", show_default=True,
              help="reading shown for the other ends in the table")
@types_option
@backend_options
@json_option
@handle_errors
def symbol(name, lang, types, backend, uri, user, password, as_json):
    """A symbol (any name, alias, key, ko or en reading; Label:name or an id picks one) and its relations."""
    warn_damaged_corpus(backend)
    out = lore.symbol(open_backend(backend, uri, user, password), name, types)
    if as_json:
        emit_json(out)
        return
    ids = {v for m in out["matches"] for r in m["relations"]
           for v in (r["other"]["id"], (r["via"] or {}).get("id"), *r["qualifiers"].values()) if isinstance(v, str)}
    names = lore.readings(ids)
    for m in out["matches"]:
        n = m["node"]
        click.echo(f"{n['label']} {n['name']}  ({n['ko']}; {n['en']})  id={n['id']}")
        rows = [[r["direction"], f"{r['type']} {r['zh']}", _reading(names, r["other"]["id"], lang),
                 _reading(names, r["via"]["id"], lang) if r["via"] else "",
                 _qualifier_text(r["qualifiers"], names, lang), "|".join(r["src"]), r["variant"] or ""]
                for r in m["relations"]]
        click.echo(table(rows, ["dir", "relation", "other", "via", "qualifiers", "src", "variant"]))
        click.echo()


def _fact_qualifiers(qualifiers: dict) -> str:
    return " ".join(f"{k}={v['name'] if isinstance(v, dict) else v}" for k, v in qualifiers.items())


@click.command()
@click.option("--doc", type=click.Choice(["000", "002", "003", "004"]), default=None, help="only facts citing this text")
@click.option("--symbol", "symbol_name", default=None, help="only facts naming this symbol")
@backend_options
@json_option
@handle_errors
def facts(doc, symbol_name, backend, uri, user, password, as_json):
    """Every fact as a flat list (the export other tools read)."""
    warn_damaged_corpus(backend)
    rows = lore.facts(open_backend(backend, uri, user, password), doc, symbol_name)
    if as_json:
        emit_json(rows)
        return
    click.echo(table([[r["subject"]["name"], f"{r['relation']} {r['zh']}", r["object"]["name"],
                       _fact_qualifiers(r["qualifiers"]), "|".join(r["src"]), r["variant"] or ""] for r in rows],
                     ["subject", "relation", "object", "qualifiers", "src", "variant"]))


def every_direct_type() -> tuple[str, ...]:
    """Every relation type of the schema but the reifying ones (a path over all of them may pass hubs)."""
    from leishen.loaders.schema import load_schema
    from leishen.queries.catalog import REIFIED

    return tuple(t for t in load_schema().relations if t not in REIFIED)


@click.command()
@click.argument("source")
@click.argument("target")
@types_option
@click.option("--via-hubs", is_flag=True,
              help="allow the plain shortest path through 陰/陽 and the five phases (by default a path goes "
                   "through them only when no other exists; with --type the path is always the plain one)")
@backend_options
@json_option
@handle_errors
def path(source, target, types, via_hubs, backend, uri, user, password, as_json):
    """The shortest typed path between two symbols, with the citations of every hop; hub nodes (陰陽, the five
    phases) cost more unless --via-hubs."""
    warn_damaged_corpus(backend)
    wanted = types or (every_direct_type() if via_hubs else ())
    out = lore.path(open_backend(backend, uri, user, password), source, target, wanted)
    if via_hubs and not types:  # the JSON of the API's /paths, which has no such switch, plus the switch
        out = {**out, "types": None, "via_hubs": True}
    if as_json:
        emit_json(out)
        return
    a, b = out["source"], out["target"]
    if out["path"] is None:
        only = f" using only {', '.join(out['types'])}" if out["types"] else ""
        click.echo(f"no path between {a['name']} and {b['name']}{only}")
        return
    nodes = out["path"]["nodes"]
    steps = [nodes[0]["name"]] + [f"-[{t}]- {n['name']}" for n, t in zip(nodes[1:], out["path"]["types"])]
    click.echo(" ".join(steps))
    names = {n["id"]: n["name"] for n in nodes}
    rows = [[f"{names[h['from']]} → {names[h['to']]}", f"{r['type']} {r['zh']}",
             f"{names[r['source']]}→{names[r['target']]}", "|".join(r["src"]), r["variant"] or ""]
            for h in out["hops"] for r in h["relations"]]
    click.echo(table(rows, ["hop", "relation", "direction", "src", "variant"]))
